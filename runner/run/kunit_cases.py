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


def kunit_cases(path):
    """{point: status} for every case of the result file at path."""
    with open(path) as f:
        root = json.load(f)
    out = {}

    def walk(group, prefix):
        for case in group.get('test_cases', []):
            out[point_name(prefix + [case['name']])] = case['status']
        for sub in group.get('sub_groups', []):
            walk(sub, prefix + [sub['name']])

    # kunit.py names its top-level group after the build, not a suite
    walk(root, ['kunit'])
    return out


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit('usage: kunit_cases.py KUNIT_JSON')
    for name, status in sorted(kunit_cases(sys.argv[1]).items()):
        print(name, status)
