#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The verdict of one bisection step (runner/bisect-run.sh): the majority of
the runs of one test point in a results folder, as git bisect run's exit
code: 0 good, 1 bad, 125 cannot test (no run, skipped or no majority).

usage: bisect_verdict.py RESULTS TEST MODE REPEAT"""

import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summary import parse_kselftest  # noqa: E402


def verdicts(results, test, mode):
    """The verdict of <test>_<mode> in each run's KTAP (None: no verdict)."""
    out = []
    files = sorted(glob.glob(os.path.join(results, f'kselftest-{test}.r*.ktap')) +
                   glob.glob(os.path.join(results, f'kselftest-{test}.ktap')))
    for path in files:
        points, _, _ = parse_kselftest(path)
        out.append(points.get(f'{test}_{mode}'))
    return out


def main():
    if len(sys.argv) != 5 or not sys.argv[4].isdigit():
        print('mglru: error: usage: bisect_verdict.py RESULTS TEST MODE REPEAT',
              file=sys.stderr)
        return 128
    results, test, mode, repeat = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    runs = verdicts(results, test, mode)
    runs += [None] * (repeat - len(runs))
    npass, nfail = runs.count('PASS'), runs.count('FAIL')
    other = len(runs) - npass - nfail
    if npass * 2 > repeat:
        code, word = 0, 'good'
    elif nfail * 2 > repeat:
        code, word = 1, 'bad'
    else:
        code, word = 125, 'cannot test'
    print(f'mglru: bisect: {test}_{mode}: {npass} pass, {nfail} fail, '
          f'{other} without a verdict of {repeat}: {word} (exit {code})', file=sys.stderr)
    return code


if __name__ == '__main__':
    sys.exit(main())
