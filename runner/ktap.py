#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""KTAP as the suite reads it, here and nowhere else.

A kselftest run (kselftest-<test>[.rN].ktap): the kselftest runner's outer
line "ok|not ok N selftests: mm/mglru: <prog> [# directive]", and, one
"# " level down or more, the program's result lines "ok|not ok N <point>
[# SKIP|TODO|XFAIL|TIMEOUT ...]" and its "metric <point> <key>=<value>"
diagnostics. KUnit's test.log: "# Subtest: <suite>" lines and result
lines nested by indentation, a suite's own result line closing it."""

import os
import re

RESULT = re.compile(r'^(not ok|ok) \d+ (?:- )?(\S+)(?:.*?#\s*(SKIP|TODO|XFAIL|TIMEOUT)\b(.*))?')
METRIC = re.compile(r'^metric (\S+) ([A-Za-z0-9_.]+)=(\S+)$')
OUTER = re.compile(r'^(not ok|ok) \d+ selftests: mm/mglru: (\S+)(?:\s*#\s*(\S+))?')
NESTED = re.compile(r'^(\s*)(not ok|ok) \d+ (?:- )?(\S+)')
SUBTEST = re.compile(r'^(\s*)# Subtest: (\S+)')
VERSION = re.compile(r'\s*K?TAP version')
TIMESTAMP = re.compile(r'^\[\s*\d+\.\d+\] ?')
FILE = re.compile(r'^kselftest-(\w+?)(?:\.r(\d+))?\.ktap$')


def strip_diag(line):
    """Nested KTAP output is indented by '# ' per level."""
    depth = 0
    while line.startswith('# '):
        line = line[2:]
        depth += 1
    return depth, line.strip()


def number(value):
    try:
        return int(value)
    except ValueError:
        try:
            return float(value)
        except ValueError:
            return value


def kselftest_file(name):
    """(test, run number or None) of a file name kselftest-<test>[.rN].ktap,
    None for another name."""
    m = FILE.match(name)
    return (m.group(1), int(m.group(2)) if m.group(2) else None) if m else None


def kselftest_runs(folder, test=None):
    """[(test, run number or None, path)] of the kselftest KTAP files in
    FOLDER (of TEST only, if given), by test and run."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    runs = []
    for name in names:
        f = kselftest_file(name)
        if f and (test is None or f[0] == test):
            runs.append((f[0], f[1], os.path.join(folder, name)))
    return sorted(runs, key=lambda r: (r[0], r[1] or 0))


def parse(path):
    """One KTAP file of the kselftest runner, in full: ({point: result},
    metrics, runner). A result has its verdict (PASS, FAIL, SKIP, or ERROR
    for a TIMEOUT), directive, KTAP lines and metrics; metrics maps each
    name of a metric line to {key: value}; runner has the outer line's
    test name, result ('ok'/'not ok', None without one) and directive text,
    and the lines after the last point."""
    points, metrics, block = {}, {}, []
    runner = {'name': None, 'result': None, 'directive': '', 'lines': []}
    with open(path, errors='replace') as f:
        for raw in f:
            raw = raw.rstrip('\n')
            block.append(raw)
            m = OUTER.match(raw)
            if m:
                runner.update(name=m.group(2), result=m.group(1),
                              directive=raw.partition('#')[2].strip())
                continue
            depth, line = strip_diag(raw)
            if depth == 0:
                continue
            m = METRIC.match(line)
            if m:
                metrics.setdefault(m.group(1), {})[m.group(2)] = number(m.group(3))
                continue
            m = RESULT.match(line)
            if not m:
                continue
            directive = m.group(3) or ''
            if directive == 'SKIP':
                verdict = 'SKIP'
            elif directive == 'TIMEOUT':
                verdict = 'ERROR'
            else:
                verdict = 'PASS' if m.group(1) == 'ok' else 'FAIL'
            points[m.group(2)] = {'verdict': verdict, 'directive': directive,
                                  'lines': block}
            block = []
    for name, p in points.items():
        p['metrics'] = metrics.get(name, {})
    runner['lines'] = block
    return points, metrics, runner


def verdicts(path):
    """Test points (name -> PASS, FAIL or SKIP), metrics (name -> {key:
    value}) and the outer line (test, verdict, directive) or None."""
    points, metrics, runner = parse(path)
    outer = None
    if runner['result']:
        directive = runner['directive'].split()[0] if runner['directive'] else ''
        outer = (runner['name'], 'SKIP' if directive == 'SKIP' else
                 ('PASS' if runner['result'] == 'ok' else 'FAIL'), directive)
    return ({n: 'FAIL' if p['verdict'] == 'ERROR' else p['verdict'] for n, p in points.items()},
            metrics, outer)


def subtests(path):
    """{(suite, ..., case): KTAP lines} of each case of a KUnit test.log
    (the console's timestamps taken off): its result line and the lines
    since the previous result."""
    out, stack, block, started = {}, [], [], False
    with open(path, errors='replace') as f:
        for raw in f:
            line = TIMESTAMP.sub('', raw.rstrip('\n'))
            if not started:
                started = VERSION.match(line) is not None
                continue
            m = SUBTEST.match(line)
            if m:
                indent = len(m.group(1))
                while stack and stack[-1][0] >= indent:
                    stack.pop()
                stack.append((indent, m.group(2)))
                block = [line]
                continue
            block.append(line)
            m = NESTED.match(line)
            if not m:
                continue
            indent = len(m.group(1))
            if stack and stack[-1][0] > indent:
                # a suite's own result line closes it
                while stack and stack[-1][0] > indent:
                    stack.pop()
            else:
                out[tuple(name for i, name in stack if i <= indent) + (m.group(3),)] = block
            block = []
    return out

