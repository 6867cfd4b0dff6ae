#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The suite's pictures, SVG drawn with matplotlib's Agg backend (no
display needed). It runs with the project venv's Python
($CACHE/venv/bin/python3, runner/requirements.txt), not the system one.

- sweep_svg(results): the anon share of reclaim against vm.swappiness, one
  line per LRU mode (with REPEAT=N: the median, the min-max band and each
  run's point), as <results>/swappiness_sweep.svg;
- compare_svg(panels, ...): small multiples for `make compare`, one panel
  per (test, mode, metric), each run of A and of B a point, with the
  metric's test and its Holm-adjusted p.

usage: plots.py sweep RESULTS [-o OUT.svg]"""

import argparse
import json
import math
import os
import re
import statistics
import sys

try:
    import matplotlib
except ImportError:
    if __name__ != '__main__':
        raise
    sys.exit('mglru: error: plots.py needs matplotlib (runner/requirements.txt): run it with'
             " the venv's Python, $CACHE/venv/bin/python3 (make deps installs it)")

matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402 (after the backend)

RUNNER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, RUNNER)  # the core (tables, ktap) and the job folders
from run.summary import numeric, runs_of  # noqa: E402

# reproducible files: no date, fixed ids; text stays text (greppable, small)
plt.rcParams.update({'svg.hashsalt': 'mglru-suite', 'svg.fonttype': 'none',
                     'font.size': 8})
METADATA = {'Date': None, 'Creator': 'mglru-suite runner/run/plots.py'}
COLORS = {'mglru': 'tab:blue', 'classic': 'tab:orange', 'A': 'tab:gray', 'B': 'tab:red'}
SWP = re.compile(r'^swp(\d+)_anon_pct$')


def numbers(runs, key):
    return [mt[key] for mt in runs if numeric(mt.get(key))]


def run_name(summary):
    k = summary.get('kernel', {})
    return f"{k.get('uname', k.get('version', '?'))}/{k.get('variant', '?')}"


def _save(fig, path):
    fig.savefig(path, format='svg', metadata=METADATA)
    plt.close(fig)
    return path


def sweep_svg(results, summary=None, out=None):
    """Draw results/swappiness_sweep.svg (or OUT) from the run's
    summary.json; return its path, or None when the run has no sweep."""
    if summary is None:
        with open(os.path.join(results, 'summary.json')) as f:
            summary = json.load(f)
    entries = [t for t in summary.get('kselftest', []) if t.get('test') == 'swappiness_sweep']
    lines = []
    for t in sorted(entries, key=lambda t: t.get('mode', '')):
        runs = runs_of(t)
        xs = sorted({int(m.group(1)) for mt in runs for k in mt for m in [SWP.match(k)] if m})
        if xs:
            lines.append((t.get('mode') or '?', runs, xs))
    if not lines:
        return None
    fig, ax = plt.subplots(figsize=(6, 4), layout='constrained')
    for mode, runs, xs in lines:
        color = COLORS.get(mode)
        pts = [(x, numbers(runs, f'swp{x}_anon_pct')) for x in xs]
        pts = [(x, v) for x, v in pts if v]
        if not pts:
            continue
        xs, per_x = zip(*pts)
        ax.plot(xs, [statistics.median(v) for v in per_x], marker='o', color=color,
                label=f'{mode} ({len(runs)} run{"s" if len(runs) > 1 else ""}'
                      f'{", median" if len(runs) > 1 else ""})')
        if len(runs) > 1:
            ax.fill_between(xs, [min(v) for v in per_x], [max(v) for v in per_x],
                            color=color, alpha=0.15, linewidth=0)
            for x, v in zip(xs, per_x):
                ax.scatter([x] * len(v), v, s=9, color=color, alpha=0.5, linewidths=0)
    ax.set_xlabel('vm.swappiness')
    ax.set_ylabel('anon share of reclaim (%)')
    ax.set_ylim(-3, 103)
    ax.set_xticks(sorted({x for _, _, xs in lines for x in xs}))
    ax.grid(True, alpha=0.3)
    ax.legend(loc='best')
    band = any(len(r) > 1 for _, r, _ in lines)
    ax.set_title(f'swappiness_sweep on {run_name(summary)}'
                 + (' (band: min-max over the runs)' if band else ''))
    return _save(fig, out or os.path.join(results, 'swappiness_sweep.svg'))


def compare_svg(panels, name_a, name_b, path, alpha=0.01):
    """Small multiples, one panel per (test, mode, metric): each run's value
    in A and in B, a bar at each side's median. panels: dicts with test,
    mode, metric, a and b (per-run numbers), method (the statistical test),
    p (Holm-adjusted; None: no test) and note (why there is none)."""
    panels = [p for p in panels if p['a'] or p['b']]
    if not panels:
        return None
    ncols = min(4, len(panels))
    nrows = math.ceil(len(panels) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(2.6 * ncols, 2.3 * nrows + 0.5),
                             squeeze=False, layout='constrained')
    for ax, p in zip(axes.flat, panels):
        for x, side in enumerate(('a', 'b')):
            vals = p[side]
            if not vals:
                continue
            color = COLORS['A' if side == 'a' else 'B']
            # spread the runs a little sideways, deterministically
            n = len(vals)
            offs = [(i - (n - 1) / 2) * min(0.05, 0.3 / n) for i in range(n)]
            ax.scatter([x + o for o in offs], vals, s=14, color=color, alpha=0.8, linewidths=0)
            ax.hlines(statistics.median(vals), x - 0.22, x + 0.22, color=color, linewidth=1.5)
        ax.set_xlim(-0.6, 1.6)
        ax.set_xticks([0, 1])
        ax.set_xticklabels([f'A ({len(p["a"])})', f'B ({len(p["b"])})'])
        sig = p['p'] is not None and p['p'] < alpha
        note = (f'p={p["p"]:.2g}' if p['p'] is not None else p.get('note', 'n/a'))
        ax.set_title(f'{p["test"]} {p["mode"]}\n{p["metric"]}  {p["method"]} {note}'
                     f'{" *" if sig else ""}',
                     color='tab:red' if sig else 'black')
        ax.grid(True, axis='y', alpha=0.3)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis('off')
    fig.suptitle(f'A: {name_a}   B: {name_b}   (p: two-sided, Holm-adjusted; * p < {alpha:g})')
    return _save(fig, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='cmd', required=True)
    sw = sub.add_parser('sweep', help='RESULTS/swappiness_sweep.svg from RESULTS/summary.json')
    sw.add_argument('results')
    sw.add_argument('-o', '--out', help='the SVG file (default: RESULTS/swappiness_sweep.svg)')
    args = ap.parse_args()
    try:
        path = sweep_svg(args.results, out=args.out)
    except (OSError, ValueError) as e:
        sys.exit(f'mglru: error: plots.py: {e}')
    if path:
        print(path)
    else:
        print(f'mglru: no swappiness_sweep results in {args.results}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
