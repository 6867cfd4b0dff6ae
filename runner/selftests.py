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
def _table():
    """{test: {key metric: its statistical test}}, the table read once, in
    its order."""
    tests = {}
    with open(TABLE) as f:
        for n, line in enumerate(f, 1):
            if line.startswith('#') or '|' not in line:
                continue
            name, _, metrics, _ = (x.strip() for x in line.split('|'))
            tests[name] = {}
            for word in metrics.split():
                metric, _, stat = word.partition(':')
                if stat not in STAT_TESTS:
                    sys.exit(f'mglru: error: {TABLE}:{n}: {word}: expected <metric>:<test>,'
                             f' the test one of {", ".join(STAT_TESTS)}')
                tests[name][metric] = stat
    return tests


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
