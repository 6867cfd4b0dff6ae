#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The verdict of one bisection step (runner/export/bisect-run.sh) on one test
point of a results folder, as git bisect run's exit code, with its reason:

  1    bad: the kernel crashed (panic, Oops, BUG, soft lockup) during the
       scenario, the guest was killed at the runner's outer timeout while
       the test was still running, or the runs failed;
  0    good: the runs passed;
  125  cannot test: no run (the build or the boot failed), a skip (a
       precondition not met), runs that do not agree enough, or a run
       that the emulator crashed twice (runner/crash.py: an infrastructure
       error, not the kernel's crash);
  128  bad usage, or (--check) a REPEAT too small for the point.

Runs that pass or fail give a verdict only when it is wrong with at most
ALPHA chance. Assumed: runs are independent, and a run of a point with a
row in expectations/matrix.txt is wrong with p <= P_RUN, the exact 95%
upper bound when 0 of 10 runs were (each kernel of a row: 10/10 detected,
0/10 false alarms); a run of any other point may be a coin toss (p = 1/2).
So a validated point is judged by unanimous runs, or by a majority a coin
would give with at most ALPHA chance (runs that disagree show the point is
not deterministic at that commit); any other point by the latter only.

usage: bisect_verdict.py RESULTS TEST MODE REPEAT
       bisect_verdict.py --check TEST MODE REPEAT"""

import glob
import math
import os
import sys

RUNNER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, RUNNER)  # the core (tables, ktap) and the job folders
from crash import attempts, classify, read_lines, verdict_attempt  # noqa: E402
from ktap import kselftest_runs, verdicts as ktap_verdicts  # noqa: E402
from tables import validated  # noqa: E402

ALPHA = 0.05
P_RUN = 1 - 0.05 ** (1 / 10)     # 0.259: Clopper-Pearson, 0 wrong of 10
# what the kselftest runner writes to /dev/kmsg as a run starts
STARTED = 'kselftest: Running tests in'


def coin(k, n):
    """The chance that k or more of n fair coin tosses agree with one side."""
    return sum(math.comb(n, i) for i in range(k, n + 1)) / 2 ** n


def judged(k, n, valid):
    """k of n runs agreeing are a verdict."""
    return k * 2 > n and ((valid and k == n) or coin(k, n) <= ALPHA)


def wrong(n, valid):
    """The chance that a step of n runs gives a wrong verdict."""
    p = P_RUN if valid else 0.5
    return sum(math.comb(n, k) * p ** k * (1 - p) ** (n - k)
               for k in range(n + 1) if judged(k, n, valid))


def needed(valid):
    """The fewest runs whose unanimity is a verdict wrong with at most ALPHA
    chance."""
    n = 1
    while not judged(n, n, valid) or wrong(n, valid) > ALPHA:
        n += 1
    return n


def assumption(valid):
    if valid:
        return (f'a run wrong with p <= {P_RUN:.2f}: 0 of 10 in '
                'expectations/matrix.txt, 95% bound')
    return 'no row in expectations/matrix.txt: a run may be a coin toss'


def chance(n, valid):
    if not judged(n, n, valid):
        return f'no runs give a verdict at REPEAT={n} ({assumption(valid)})'
    return (f'a wrong verdict at REPEAT={n}: {100 * wrong(n, valid):.2g}% '
            f'({assumption(valid)})')


def verdicts(results, test, mode):
    """Each run's verdict of <test>_<mode> (None: none) and whether the run
    finished (its KTAP has the runner's line). A run the kselftest runner
    killed at its timeout failed."""
    out = []
    for _, _, path in kselftest_runs(results, test):
        points, _, outer = ktap_verdicts(path)
        verdict = points.get(f'{test}_{mode}')
        if verdict is None and outer and outer[2] == 'TIMEOUT':
            verdict = 'FAIL'
        out.append((verdict, outer is not None))
    return out


def read(path):
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except OSError:
        return ''


def guest(results, test):
    """What the guest's console and vm.sh say of the test's last boot: (the
    scenario started, the kernel's crash line after it started or None, the
    kernel's crash line before, the emulator's crash or None, vm.sh's
    error)."""
    gdir = os.path.join(results, f'guest-{test}')
    lines = read_lines(os.path.join(gdir, 'console.log'))
    start = next((i for i, line in enumerate(lines) if STARTED in line), None)
    # runs.sh writes each run's meminfo as the run starts
    if start is None and glob.glob(os.path.join(gdir, '*.meminfo')):
        start = 0
    # the first crash before the scenario and the first during it, each
    # the kernel's or the emulator's (a report before the scenario that did
    # not stop the kernel hides no crash during it)
    accel = read(os.path.join(results, 'accel')).strip()
    cut = len(lines) if start is None else start
    early, late = classify(lines[:cut], accel), classify(lines[cut:], accel)
    during = late.line if late and late.kind == 'kernel' else None
    before = early.line if early and early.kind == 'kernel' else None
    emulator = next((c.why for c in (early, late) if c and c.kind == 'emulator'), None)
    err = read(os.path.join(gdir, 'guest.err')).strip()
    return start is not None, during, before, emulator, err


def judge(results, test, mode, repeat, valid):
    """(exit code, reason)"""
    runs = verdicts(results, test, mode)
    started, crash, early, emulator, err = guest(results, test)
    finished = sum(done for _, done in runs)
    lost = [r for r, recs in attempts(results).items()
            if (r == test or r.startswith(f'{test}.r')) and verdict_attempt(recs) is None]
    if lost:
        return 125, (f'the emulator crashed the guest twice, not the kernel: no verdict '
                     f'for {" ".join(sorted(lost))} ({emulator or "see attempts.tsv"})')
    if crash:
        return 1, f'the kernel crashed during the scenario: {crash}'
    if started and err.startswith('timed out') and finished < repeat:
        return 1, (f'the guest was killed at the outer timeout ({err}) while '
                   f'the test was running ({finished} of {repeat} runs finished)')
    if not started and not any(v for v, _ in runs):
        why = f'the kernel crashed before the test started: {early}' if early else \
            'the build or the boot failed' + (f' ({err})' if err else '')
        return 125, f'no run: {why}'
    got = [v for v, _ in runs] + [None] * (repeat - len(runs))
    npass, nfail = got.count('PASS'), got.count('FAIL')
    counts = (f'{npass} pass, {nfail} fail, {len(got) - npass - nfail} '
              f'without a verdict of {repeat}')
    if got.count('SKIP'):
        return 125, f'{counts}: skipped (a precondition not met)'
    if judged(npass, repeat, valid):
        return 0, f'{counts}: good; {chance(repeat, valid)}'
    if judged(nfail, repeat, valid):
        return 1, f'{counts}: bad; {chance(repeat, valid)}'
    if npass and nfail:
        return 125, (f'{counts}: the runs disagree, and a coin would agree '
                     f'as much with {100 * coin(max(npass, nfail), repeat):.0f}% '
                     f'chance (more than {100 * ALPHA:.0f}%)')
    return 125, f'{counts}: too few agreeing runs for a verdict'


def check(test, mode, repeat):
    """--check: REPEAT gives this point's verdicts a wrong one with at most
    ALPHA chance."""
    valid = validated(test, mode)
    need = needed(valid)
    if repeat < need:
        print(f'mglru: error: REPEAT={repeat}: {test}_{mode} needs REPEAT>={need} '
              f'for a step wrong with at most {100 * ALPHA:.0f}% chance; '
              f'{chance(repeat, valid)}', file=sys.stderr)
        return 128
    print(f'mglru: bisect: {test}_{mode}: {chance(repeat, valid)}', file=sys.stderr)
    return 0


def main():
    args = sys.argv[1:]
    if len(args) != 4 or not args[3].isdigit() or int(args[3]) < 1:
        print('mglru: error: usage: bisect_verdict.py [--check] RESULTS|TEST ... REPEAT',
              file=sys.stderr)
        return 128
    if args[0] == '--check':
        return check(args[1], args[2], int(args[3]))
    results, test, mode, repeat = args[0], args[1], args[2], int(args[3])
    code, reason = judge(results, test, mode, repeat, validated(test, mode))
    print(f'mglru: bisect: {test}_{mode}: {reason} (exit {code})', file=sys.stderr)
    return code


if __name__ == '__main__':
    sys.exit(main())
