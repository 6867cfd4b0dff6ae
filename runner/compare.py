#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare two runs (or two kernels) side by side, in the spirit of mmtests'
compare-kernels: per scenario and LRU mode, the verdicts, and for each key
metric the mean and the median over the runs in A and in B, B's median
relative to A's, and Welch's t-test on the per-run values (REPEAT=N): '*'
marks a difference with p < 0.05 (two-sided); 'too few runs' when a side
has fewer than 2 runs, 'n/a' when neither side varies. Writes compare.svg
(runner/plots.py) into B's folder unless told otherwise. The last line is
the verdict: 'regressed' when a test point passed in A and fails in B (exit
1), otherwise 'improved', 'same verdicts' (exit 0).

Needs scipy and matplotlib: run it with the project venv's Python,
$CACHE/venv/bin/python3 (what `make compare` does)."""

import argparse
import json
import math
import os
import statistics
import sys
import warnings

from selftests import key_metrics
from summary import numeric, runs_of

ALPHA = 0.05

try:
    from scipy.stats import ttest_ind
except ImportError:
    ttest_ind = None


def load(path):
    if os.path.isdir(path):
        path = os.path.join(path, 'summary.json')
    try:
        with open(path) as f:
            s = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f'mglru: error: cannot read a run summary from {path}: {e}')
    k = s.get('kernel', {})
    name = f"{k.get('uname', k.get('version', '?'))}/{k.get('variant', '?')}"
    return name, {(t['test'], t['mode']): t for t in s.get('kselftest', [])}


def welch(a, b):
    """(p, note): the two-sided p-value of Welch's t-test on the per-run
    values a and b, or None and why there is none."""
    if len(a) < 2 or len(b) < 2:
        return None, 'too few runs'
    if statistics.pvariance(a) == 0 and statistics.pvariance(b) == 0:
        return None, 'n/a'
    with warnings.catch_warnings():
        # nearly equal values: scipy warns of lost precision, p is still fine
        warnings.simplefilter('ignore', RuntimeWarning)
        p = float(ttest_ind(a, b, equal_var=False).pvalue)
    if math.isnan(p):
        return None, 'n/a'
    return p, ''


def fmt(v):
    if isinstance(v, float):
        return f'{v:.0f}' if abs(v) >= 1e4 else f'{v:.4g}'
    return str(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('a', metavar='A', help='results folder or summary.json')
    ap.add_argument('b', metavar='B', help='results folder or summary.json')
    ap.add_argument('--all', action='store_true',
                    help='every metric, not only the key metrics of runner/selftests.txt')
    ap.add_argument('--svg', help="the picture's file (default: compare.svg in B's folder)")
    ap.add_argument('--no-svg', action='store_true', help='no picture')
    args = ap.parse_args()
    if ttest_ind is None:
        sys.exit('mglru: error: compare.py needs scipy and matplotlib (runner/requirements.txt):'
                 " run it with the venv's Python, $CACHE/venv/bin/python3"
                 ' (make deps installs them)')
    name_a, a = load(args.a)
    name_b, b = load(args.b)
    print(f'A: {name_a}  ({args.a})')
    print(f'B: {name_b}  ({args.b})')
    print(f'* p < {ALPHA:g}, two-sided Welch\'s t-test on the per-run values;'
          ' too few runs: a side has fewer than 2; n/a: neither side varies')
    print(f"{'test':<18} {'mode':<8} {'metric':<16} {'A mean':>9} {'A median':>9}"
          f" {'B mean':>9} {'B median':>9} {'B/A':>6}  Welch p")
    regressed = improved = tested = significant = 0
    panels = []
    for key in sorted(set(a) | set(b)):
        ta, tb = a.get(key, {}), b.get(key, {})
        va, vb = ta.get('verdict', '-'), tb.get('verdict', '-')
        ra, rb = runs_of(ta), runs_of(tb)
        print(f'{key[0]:<18} {key[1]:<8} {"verdict":<16} {va:>9} {f"{len(ra)} runs":>9}'
              f' {vb:>9} {f"{len(rb)} runs":>9}')
        if va == 'PASS' and vb == 'FAIL':
            regressed += 1
        elif va == 'FAIL' and vb == 'PASS':
            improved += 1
        names = []
        for mt in ra + rb:
            names += [m for m in mt if m not in names]
        keys = key_metrics(key[0])
        if not args.all and keys:
            names = [m for m in keys if m in names]
        for m in names:
            xa, xb = [mt[m] for mt in ra if m in mt], [mt[m] for mt in rb if m in mt]
            if not all(numeric(v) for v in xa + xb):
                # a word (e.g. split_source): the last run's, as the summary
                print(f'{"":<18} {"":<8} {m:<16} {"":>9} {fmt(xa[-1] if xa else "-"):>9}'
                      f' {"":>9} {fmt(xb[-1] if xb else "-"):>9}')
                continue
            ma = statistics.median(xa) if xa else None
            mb = statistics.median(xb) if xb else None
            ratio = f'{mb / ma:.2f}' if xa and xb and ma else ''
            p, note = welch(xa, xb)
            mark = ''
            if p is not None:
                tested += 1
                if p < ALPHA:
                    significant += 1
                    mark = ' *'
                note = f'{p:.2g}{mark}'
            cells = [fmt(statistics.fmean(xa)) if xa else '-', fmt(ma) if xa else '-',
                     fmt(statistics.fmean(xb)) if xb else '-', fmt(mb) if xb else '-']
            print(f'{"":<18} {"":<8} {m:<16} {cells[0]:>9} {cells[1]:>9} {cells[2]:>9}'
                  f' {cells[3]:>9} {ratio:>6}  {note}')
            panels.append({'test': key[0], 'mode': key[1], 'metric': m,
                           'a': xa, 'b': xb, 'p': p, 'note': note})
    if not args.no_svg:
        out = args.svg or os.path.join(args.b if os.path.isdir(args.b) else
                                       os.path.dirname(os.path.abspath(args.b)), 'compare.svg')
        try:
            import plots
            if plots.compare_svg(panels, name_a, name_b, out, ALPHA):
                print(f'picture: {out}')
        except (ImportError, OSError) as e:
            print(f'mglru: warning: no picture: {e}', file=sys.stderr)
    print(f'significant: {significant} of {tested} tested metric(s) differ (p < {ALPHA:g})')
    if regressed:
        print(f'verdict: regressed ({regressed} test point(s) pass in A and fail in B)')
        return 1
    print('verdict: improved' if improved else 'verdict: same verdicts')
    return 0


if __name__ == '__main__':
    sys.exit(main())
