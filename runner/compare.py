#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare two runs (or two kernels) side by side, in the spirit of mmtests'
compare-kernels: per scenario and LRU mode, the verdicts and the median of
each metric in A and B, with B's change relative to A. The last line is the
verdict: 'regressed' when a test point passed in A and fails in B (exit 1),
otherwise 'improved', 'same verdicts' (exit 0)."""

import json
import os
import sys


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


def fmt(v):
    if isinstance(v, float):
        return f'{v:.4g}'
    return str(v)


def main():
    if len(sys.argv) != 3:
        sys.exit('mglru: error: usage: compare.py A B (results folders or summary.json files)')
    name_a, a = load(sys.argv[1])
    name_b, b = load(sys.argv[2])
    print(f'A: {name_a}  ({sys.argv[1]})')
    print(f'B: {name_b}  ({sys.argv[2]})')
    print(f"{'test':<20} {'mode':<8} {'metric':<18} {'A':>12} {'B':>12} {'B/A':>8}")
    regressed = improved = 0
    for key in sorted(set(a) | set(b)):
        ta, tb = a.get(key, {}), b.get(key, {})
        va, vb = ta.get('verdict', '-'), tb.get('verdict', '-')
        print(f'{key[0]:<20} {key[1]:<8} {"verdict":<18} {va:>12} {vb:>12}')
        if va == 'PASS' and vb == 'FAIL':
            regressed += 1
        elif va == 'FAIL' and vb == 'PASS':
            improved += 1
        ma, mb = ta.get('metrics', {}), tb.get('metrics', {})
        for m in list(ma) + [m for m in mb if m not in ma]:
            x, y = ma.get(m, '-'), mb.get(m, '-')
            ratio = ''
            if isinstance(x, (int, float)) and isinstance(y, (int, float)) and x:
                ratio = f'{y / x:.2f}'
            print(f'{"":<20} {"":<8} {m:<18} {fmt(x):>12} {fmt(y):>12} {ratio:>8}')
    if regressed:
        print(f'verdict: regressed ({regressed} test point(s) pass in A and fail in B)')
        return 1
    print('verdict: improved' if improved else 'verdict: same verdicts')
    return 0


if __name__ == '__main__':
    sys.exit(main())
