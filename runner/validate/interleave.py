#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One kernel's summary of interleaved runs (runner/validate/interleave.sh).

usage: interleave.py KERNEL_DIR

KERNEL_DIR holds run-<i>/summary.json, one run (REPEAT=1) each, made in
turn with the other kernels' runs. Writes KERNEL_DIR/summary.json as
make kselftest REPEAT=N would have: per test point the runs, their
verdict counts, the majority verdict (ties and any ERROR as summary.py
counts them), every run's metrics (all_metrics) and their medians, so that
compare.py and matrix.py read it as any other run. The kernel's record is
the first run's, with the runs' order and start times ("interleaved").
"""

import json
import os
import re
import sys

RUNNER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, RUNNER)  # the core (tables, ktap) and the job folders
from run.summary import majority, median_metrics  # noqa: E402


def run_dirs(top):
    runs = []
    for name in os.listdir(top):
        m = re.fullmatch(r'run-(\d+)', name)
        if m and os.path.isfile(os.path.join(top, name, 'summary.json')):
            runs.append((int(m.group(1)), os.path.join(top, name)))
    return [d for _, d in sorted(runs)]


def merge(top):
    dirs = run_dirs(top)
    if not dirs:
        sys.exit(f'mglru: error: no run-<i>/summary.json in {top}')
    out = None
    points = {}
    order = []
    for d in dirs:
        with open(os.path.join(d, 'summary.json')) as f:
            s = json.load(f)
        if out is None:
            out = {k: v for k, v in s.items() if k not in ('kselftest', 'attempts', 'ok')}
            out['kselftest'], out['attempts'], out['ok'] = [], [], True
        out['attempts'] += s.get('attempts', [])
        out['ok'] = out['ok'] and s.get('ok', False)
        start = os.path.join(d, 'started')
        order.append({'run': os.path.basename(d),
                      'started': open(start).read().strip() if os.path.exists(start) else None})
        for e in s.get('kselftest', []):
            key = (e['test'], e['mode'])
            p = points.setdefault(key, {k: e[k] for k in ('test', 'mode', 'expected',
                                                         'expected_reason') if k in e})
            p['runs'] = p.get('runs', 0) + e.get('runs', 1)
            counts = p.setdefault('verdicts', {})
            for v, n in e.get('verdicts', {e['verdict']: 1}).items():
                counts[v] = counts.get(v, 0) + n
            # one record a run, empty for a run without metrics, as summary.py
            p.setdefault('all_metrics', []).extend(e.get('all_metrics') or
                                                   [e.get('metrics', {})])
    for p in points.values():
        p['verdict'] = majority(p['verdicts'])
        p['metrics'] = median_metrics(p['all_metrics'])
        out['kselftest'].append(p)
    out['interleaved'] = order
    with open(os.path.join(top, 'summary.json'), 'w') as f:
        json.dump(out, f, indent=2)
        f.write('\n')
    for p in out['kselftest']:
        fails = p['verdicts'].get('FAIL', 0)
        print(f"{p['test']:<20} {p['mode']:<7} {p['verdict']:<5} [{fails}/{p['runs']} failed]")


if __name__ == '__main__':
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit('usage: interleave.py KERNEL_DIR')
    merge(sys.argv[1])
