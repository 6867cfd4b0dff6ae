#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The key metrics of each kselftest, from runner/selftests.txt (the
suite's table of its kselftests), for the matrix and the summary."""

import functools
import os

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'selftests.txt')


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
