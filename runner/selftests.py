#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The suite's tables read once: runner/selftests.txt (each kselftest and
its key metrics, for the matrix, the summary, KCIDB and LAVA) and
runner/kernels.txt (the kernels by name)."""

import functools
import os

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, 'selftests.txt')
KERNELS = os.path.join(HERE, 'kernels.txt')


@functools.lru_cache(maxsize=None)
def _table():
    """{test: [key metric, ...]}, the table read once."""
    tests = {}
    with open(TABLE) as f:
        for line in f:
            if line.startswith('#') or '|' not in line:
                continue
            name, _, metrics, _ = (x.strip() for x in line.split('|'))
            tests[name] = metrics.split()
    return tests


def key_metrics(test):
    return _table().get(test, [])


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
