#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The KUnit cases of one kunit.py --json result, as test points named
'kunit.<suite>.<case>[.<parameter>]' with their status (PASS, FAIL, SKIP,
ERROR). Used by the summary and by make mutants; run on its own, it prints
one '<point> <status>' line per case."""

import json
import re
import sys


def point_name(parts):
    return '.'.join(re.sub(r'[^A-Za-z0-9_-]+', '_', p).strip('_') for p in parts)


def kunit_case_runs(path):
    """{point: [status, ...]} for every case of the result file at path,
    one status a run of its suite (a suite registered twice runs twice)."""
    with open(path) as f:
        root = json.load(f)
    out = {}

    def walk(group, prefix):
        for case in group.get('test_cases', []):
            out.setdefault(point_name(prefix + [case['name']]), []).append(case['status'])
        for sub in group.get('sub_groups', []):
            walk(sub, prefix + [sub['name']])

    # kunit.py names its top-level group after the build, not a suite
    walk(root, ['kunit'])
    return out


def kunit_cases(path):
    """{point: status} for every case of the result file at path (its
    last run)."""
    return {point: runs[-1] for point, runs in kunit_case_runs(path).items()}


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit('usage: kunit_cases.py KUNIT_JSON')
    for name, status in sorted(kunit_cases(sys.argv[1]).items()):
        print(name, status)
