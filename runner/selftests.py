#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The suite's tables read once: runner/selftests.txt (each kselftest and
its key metrics, for the matrix, the summary, KCIDB and LAVA, with the
statistical test make compare uses on each) and runner/kernels.txt (the
kernels by name)."""

import functools
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, 'selftests.txt')
KERNELS = os.path.join(HERE, 'kernels.txt')
# the tests a key metric's runs can be compared with (runner/compare.py)
STAT_TESTS = ('fisher', 'mwu', 'welch')


@functools.lru_cache(maxsize=None)
def _rows():
    """{test: (kill times, {key metric: its statistical test}, [(modes,
    arguments)] of its overload controls)}, the table read once and
    checked, in its order."""
    rows = {}
    with open(TABLE) as f:
        for n, line in enumerate(f, 1):
            if line.startswith('#') or '|' not in line:
                continue
            cols = [x.strip() for x in line.split('|')]
            if len(cols) != 4 or not cols[0]:
                sys.exit(f'mglru: error: {TABLE}:{n}: expected <test> | <kill times> |'
                         ' <metric>:<test>... | <modes>: <arguments>; ...')
            name, times, metrics, controls = cols
            if not all(t.isdigit() for t in times.split()):
                sys.exit(f'mglru: error: {TABLE}:{n}: {times}: kill times are whole seconds')
            stats = {}
            for word in metrics.split():
                metric, _, stat = word.partition(':')
                if stat not in STAT_TESTS:
                    sys.exit(f'mglru: error: {TABLE}:{n}: {word}: expected <metric>:<test>,'
                             f' the test one of {", ".join(STAT_TESTS)}')
                stats[metric] = stat
            ctl = []
            for c in filter(None, (x.strip() for x in controls.split(';'))):
                modes, sep, args = c.partition(':')
                if not sep or not set(modes.split()) <= {'mglru', 'classic'} or not modes.split():
                    sys.exit(f'mglru: error: {TABLE}:{n}: {c}: expected <modes>: <arguments>,'
                             ' the modes mglru and/or classic')
                ctl.append((modes.split(), args.strip()))
            rows[name] = ([int(t) for t in times.split()], stats, ctl)
    return rows


def _table():
    """{test: {key metric: its statistical test}}."""
    return {t: r[1] for t, r in _rows().items()}


def kill_times(test):
    """TEST's kill times (seconds into a run) for make selftest-check."""
    return _rows()[test][0]


def controls(test):
    """TEST's overload controls: [(modes, arguments)]."""
    return _rows()[test][2]


def key_metrics(test):
    """TEST's key metrics, in the table's order."""
    return list(_table().get(test, {}))


def stat_test(test, metric):
    """The statistical test declared for METRIC in TEST's line, else in
    another test's line (a metric's name means the same in every test),
    else None."""
    declared = _table().get(test, {})
    if metric in declared:
        return declared[metric]
    return next((m[metric] for m in _table().values() if metric in m), None)


def tests():
    """The kselftests, in the table's order."""
    return list(_table())


@functools.lru_cache(maxsize=None)
def kernels():
    """{name: Debian package} from runner/kernels.txt, in its order (the
    first is the default kernel)."""
    out = {}
    with open(KERNELS) as f:
        for line in f:
            parts = line.split()
            if len(parts) > 1 and not parts[0].startswith('#'):
                out[parts[0]] = parts[1]
    return out


def main(argv):
    """The table for the shell scripts, which never parse it themselves:
    names (one test a line), kill-times TEST (one line), controls (one
    "<test> <mode> <arguments>" line a control and mode, for the guest)."""
    if argv == ['names']:
        print('\n'.join(tests()))
    elif len(argv) == 2 and argv[0] == 'kill-times' and argv[1] in _rows():
        print(' '.join(map(str, kill_times(argv[1]))))
    elif argv == ['controls']:
        for t in tests():
            for modes, args in controls(t):
                for m in modes:
                    print(f'{t} {m} {args}'.rstrip())
    else:
        sys.exit('usage: selftests.py names | kill-times <test> | controls')


if __name__ == '__main__':
    main(sys.argv[1:])
