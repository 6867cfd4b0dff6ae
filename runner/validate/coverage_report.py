#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The source-level branches of the mutated regions, and which way the
KUnit suites took each.

usage: coverage_report.py TREE COVERAGE_JSON REASONS [--out FILE]

COVERAGE_JSON is 'llvm-cov export -format=text' of a UML kernel built with
clang's source-based coverage: one branch a condition as written (an if,
each operand of && and ||, a ?:), with the times it was true and false.
Only the regions of mutation_gen.py count, and only conditions written in
them (not those of the macros they expand). REASONS has one line a branch
that one-way is the best a KUnit case can do: 'function | condition |
reason', the condition as the report prints it. Prints the report (to FILE
too with --out) and the number of branches that are neither taken both
ways nor given a reason.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutation_gen import REGIONS, find_region, locate, read  # noqa: E402


def reasons(path):
    out = {}
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith('#'):
                func, cond, why = (x.strip() for x in line.split('|', 2))
                out[(func, cond)] = why
    return out


def snippet(lines, b):
    l0, c0, l1, c1 = b[:4]
    if l0 == l1:
        text = lines[l0 - 1][c0 - 1:c1 - 1]
    else:
        text = lines[l0 - 1][c0 - 1:] + ''.join(lines[l0:l1 - 1]) + lines[l1 - 1][:c1 - 1]
    # the report's fields are split on '|': in code it is written '¦'
    return ' '.join(text.split()).replace('|', '¦')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('tree')
    ap.add_argument('coverage')
    ap.add_argument('reasons')
    ap.add_argument('--out')
    a = ap.parse_args()
    with open(a.coverage) as f:
        files = json.load(f)['data'][0]['files']
    by_file = {os.path.relpath(os.path.realpath(f['filename']), os.path.realpath(a.tree)): f
               for f in files}
    why = reasons(a.reasons)
    rows, summary, unexplained, used = [], [], 0, set()
    for file, func, part in REGIONS:
        rel = locate(a.tree, file)
        lines = read(os.path.join(a.tree, rel))
        first, last = find_region(lines, func, part)
        cov = by_file.get(rel)
        if cov is None:
            sys.exit(f'coverage_report.py: no coverage of {rel} (was it built with coverage?)')
        # a header's inline function has one copy a file that uses it: add them up
        counts = {}
        for b in cov['branches']:
            if first + 1 <= b[0] <= last + 1:
                t, f = counts.get(tuple(b[:4]), (0, 0))
                counts[tuple(b[:4])] = (t + b[4], f + b[5])
        brs = [pos + counts[pos] for pos in sorted(counts)]
        both = 0
        for b in brs:
            cond = snippet(lines, b)
            t, f = b[4], b[5]
            if t and f:
                both += 1
                verdict = 'both'
            else:
                verdict = 'never' if not t and not f else ('true only' if t else 'false only')
                key = (func, cond)
                if key in why:
                    used.add(key)
                    verdict += ': ' + why[key]
                else:
                    unexplained += 1
                    verdict += ': NO REASON'
            rows.append(f'{func} | {b[0]} | {cond} | {t} | {f} | {verdict}')
        summary.append(f'# {func}: {len(brs)} branches, {both} taken both ways')
    stale = sorted(set(why) - used)
    text = summary + [f'# {unexplained} branches neither taken both ways nor given a reason']
    text += [f'# a reason for a branch that is now taken both ways or gone: {f} | {c}'
             for f, c in stale]
    text += ['# in the conditions, ¦ is |', 'function | line | condition | true | false | taken']
    text += rows
    print('\n'.join(text))
    if a.out:
        with open(a.out, 'w') as f:
            f.write('\n'.join(text) + '\n')


if __name__ == '__main__':
    main()
