#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""runner/selftests.txt, the suite's table of its kselftests, as a dict:
{test: {'kill_at': [s, ...], 'key_metrics': [name, ...],
'overload': [(modes, arguments), ...]}}. Used by the matrix and the summary."""

import os

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'selftests.txt')


def selftests(path=TABLE):
    tests = {}
    with open(path) as f:
        for line in f:
            if line.startswith('#') or '|' not in line:
                continue
            name, kill_at, metrics, overload = (x.strip() for x in line.split('|'))
            controls = [c.partition(':') for c in overload.split(';')]
            tests[name] = {
                'kill_at': [int(s) for s in kill_at.split()],
                'key_metrics': metrics.split(),
                'overload': [(m.split(), a.strip()) for m, _, a in controls],
            }
    return tests


def key_metrics(test):
    return selftests().get(test, {}).get('key_metrics', [])
