#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The docs' measured figures, rendered from their data.

Every table of measurements in README.rst and doc/*.rst comes from one
file of doc/results/ and sits between two comments:

    .. table-begin: <data file without .txt> [<view>]
    (generated)
    .. table-end

`make docs` (this script) rewrites each such block from its data file;
--check rewrites nothing and exits 1, with one line a problem, when a block
disagrees with its data, a data file is used by no table, README.rst is
longer than README_MAX lines, a doc/*.rst link in README.rst, doc/ or
expectations/ leads to no file or section, or an expectation's reason is
longer than REASON_MAX characters or points to no doc section.

The data files' forms, each rendered as its own kind of table:
  repeat-*.txt     '# ' notes; '<point> <expected> <runs> <failed>
                   <metric>=<value>...' lines: make REPEAT=N's summary
  kunit-mutants.txt  '<kernel> <mutant> killed|n/a <seconds|->' lines;
                   views: summary (one row a kernel), mutants (one row a
                   mutant); its '# <kernel>: N of M killed' lines are
                   checked against the rows
  matrix-*.txt     '# ' notes and runner/validate/matrix.py's RST tables, verbatim
  '|' files        '# ' notes, a header line and rows, fields split on '|'
  anything else    a literal block of the whole file
Python 3 standard library only.
"""

import argparse
import os
import re
import statistics
import sys

RUNNER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, RUNNER)  # the core (tables, ktap) and the job folders
from tables import EXPECTATIONS, KEYWORDS, MATRIX, expectation_entries  # noqa: E402

TOP = os.path.dirname(RUNNER)
DATA = os.path.join(TOP, 'doc', 'results')
README_MAX = 400
REASON_MAX = 200
BEGIN = re.compile(r'^\.\. table-begin: ([A-Za-z0-9_.-]+)(?: ([a-z]+))?\s*$')
END = '.. table-end'
ADORN = re.compile(r'^([=\-~^"\'`#*+<>:.])\1+\s*$')
TOTAL = re.compile(r'^# (\S+): (\d+) of (\d+) killed, (\d+) not applicable$')


class DataError(Exception):
    pass


def rel(path):
    return os.path.relpath(path, TOP)


def escape(text):
    """Plain text as RST inline text: no markup character means anything."""
    return re.sub(r'([\\`*_|])', r'\\\1', text)


def paragraph(lines):
    text = ' '.join(x.strip() for x in lines if x.strip())
    return [escape(text), ''] if text else []


def simple_table(header, rows):
    """An RST simple table; the last column may run past its border."""
    cols = len(header)
    width = [max(len(r[i]) for r in [header] + rows) for i in range(cols)]
    rule = '  '.join('=' * w for w in width)

    def line(r):
        return '  '.join(c.ljust(w) for c, w in zip(r, width)).rstrip()
    return [rule, line(header), rule] + [line(r) for r in rows] + [rule, '']


def list_table(header, rows):
    out = ['.. list-table::', '   :header-rows: 1', '']
    for r in [header] + rows:
        for i, c in enumerate(r):
            out.append(('   * - ' if i == 0 else '     - ') + (escape(c) or '..'))
    return out + ['']


def read(name, data=DATA):
    path = os.path.join(data, name + '.txt')
    if not os.path.isfile(path):
        raise DataError(f'no data file {rel(path)}')
    with open(path) as f:
        return path, f.read().splitlines()


def data_kind(name, lines):
    """The form of the data file NAME: repeat, mutants, matrix, pipe or
    literal (the module's docstring)."""
    if name.startswith('repeat-'):
        return 'repeat'
    if name == 'kunit-mutants':
        return 'mutants'
    if name.startswith('matrix-'):
        return 'matrix'
    if any('|' in x for x in lines if x.strip() and not x.startswith('#')):
        return 'pipe'
    return 'literal'


def notes_around(lines, is_row):
    """The '# ' notes before the first row and after the last one."""
    idx = [i for i, x in enumerate(lines) if is_row(x)]
    if not idx:
        return [], []

    def strip(ls):
        return [x[1:].strip() for x in ls if x.startswith('#')]
    return strip(lines[:idx[0]]), strip(lines[idx[-1] + 1:])


def is_data_row(x):
    return bool(x.strip()) and not x.startswith('#')


def repeat_rows(lines):
    """(point, expected, runs, failed, medians) of each row of a repeat-*.txt
    file, runs and failed as numbers (also read by runner/export/series/)."""
    rows = []
    for x in filter(is_data_row, lines):
        f = x.split()
        if len(f) < 4 or f[1] not in KEYWORDS or not f[2].isdigit() or not f[3].isdigit():
            raise DataError(f'expected "<point> <expected> <runs> <failed> <metric>=<value>...": {x}')
        rows.append((f[0], f[1], int(f[2]), int(f[3]), ' '.join(f[4:])))
    return rows


def render_repeat(lines, view):
    head, tail = notes_around(lines, is_data_row)
    head = [x for x in head if x.split()[:2] != ['point', 'expected']]
    rows = [[p, e, f'{failed} of {runs}', medians]
            for p, e, runs, failed, medians in repeat_rows(lines)]
    return (paragraph(head) + simple_table(['test point', 'expected', 'failed', 'medians'], rows)
            + paragraph(tail))


def mutant_counts(rows):
    """{kernel: (killed, applied, not applicable)} of mutant_rows(), in the
    rows' order (also read by runner/export/series/)."""
    out = {}
    for k in dict.fromkeys(r[0] for r in rows):
        mine = [r for r in rows if r[0] == k]
        out[k] = (sum(r[2] == 'killed' for r in mine), sum(r[2] != 'n/a' for r in mine),
                  sum(r[2] == 'n/a' for r in mine))
    return out


def mutant_rows(lines):
    rows, totals = [], {}
    for x in lines:
        m = TOTAL.match(x)
        if m:
            totals[m.group(1)] = tuple(int(g) for g in m.group(2, 3, 4))
            continue
        if not x.strip() or x.startswith('#'):
            continue
        f = x.split()
        if len(f) != 4 or f[2] not in ('killed', 'survived', 'n/a', 'crashed'):
            raise DataError(f'expected "<kernel> <mutant> killed|survived|crashed|n/a <seconds>": {x}')
        rows.append(f)
    counts = mutant_counts(rows)
    for k, (killed, applied, na) in totals.items():
        got = counts.get(k, (0, 0, 0))
        if got != (killed, applied, na):
            raise DataError(f'"# {k}: {killed} of {applied} killed, {na} not applicable"'
                            f' but its rows say {got[0]} of {got[1]}, {got[2]}')
    return rows


def render_mutants(lines, view):
    rows = mutant_rows(lines)
    kernels = list(dict.fromkeys(r[0] for r in rows))
    head, tail = notes_around(lines, is_data_row)
    head = [x for x in head if x.split() != ['kernel', 'mutant', 'verdict', 'seconds']]
    tail = [x for x in tail if not TOTAL.match('# ' + x)]
    if view == 'mutants':
        names = list(dict.fromkeys(r[1] for r in rows))
        cell = {(r[0], r[1]): r for r in rows}
        out = []
        for n in names:
            line = [n]
            for k in kernels:
                r = cell.get((k, n))
                line.append('-' if not r else r[2] if r[3] == '-' else f'{r[2]} {r[3]} s')
            out.append(line)
        return simple_table(['mutant'] + kernels, out)
    if view != 'summary':
        raise DataError(f'unknown view {view!r} (summary or mutants)')
    out = []
    for k, (killed, applied, na) in mutant_counts(rows).items():
        secs = [int(r[3]) for r in rows if r[0] == k and r[3].isdigit()]
        out.append([k, f'{killed} of {applied}', str(na),
                    f'{statistics.median(secs):g} ({min(secs)}-{max(secs)})' if secs else '-'])
    return (paragraph(head) + simple_table(
        ['kernel', 'killed', 'not applicable', 'seconds a mutant, median (range)'], out)
        + paragraph(tail))


def render_verbatim_tables(lines, view):
    """Notes, then runner/validate/matrix.py's tables as printed, then its verdict."""
    head = [x[1:].strip() for x in lines if x.startswith('#')]
    tables, rest, borders = [], [], 0
    for x in lines:
        if x.startswith('#'):
            continue
        if x.startswith('='):
            borders += 1
        if borders % 3 or x.startswith('='):
            tables.append(x)
            if borders and borders % 3 == 0 and x.startswith('='):
                tables.append('')
        elif x.strip():
            rest.append(x)
    if not tables or borders % 3:
        raise DataError('no whole RST table in the file')
    return paragraph(head) + tables + paragraph(rest)


def verbatim_tables(lines):
    """Each RST simple table of a matrix-*.txt file as (header, rows), the
    cells cut at the columns of its '=' rule (also read by runner/export/series/)."""
    out, rules, header, rows = [], 0, [], []
    for x in lines:
        if x.startswith('#') or (not rules and not x.startswith('=')) or not x.strip():
            continue
        if x.startswith('='):
            if not rules:
                starts = [m.start() for m in re.finditer(r'=+', x)]
                header, rows = [], []
            rules = (rules + 1) % 3
            if not rules:
                out.append((header, rows))
            continue
        cells = [x[a:b].strip() for a, b in zip(starts, starts[1:] + [len(x)])]
        (header if rules == 1 else rows).append(cells)
    if rules or not out or any(len(h) != 1 for h, _ in out):
        raise DataError('no whole RST table in the file')
    return [(h[0], r) for h, r in out]


def render_pipe(lines, view):
    head = [x[1:].strip() for x in lines if x.startswith('#')]
    body = [x for x in lines if x.strip() and not x.startswith('#')]
    split = [[c.strip() for c in x.split('|')] for x in body]
    if any(len(r) != len(split[0]) for r in split):
        raise DataError(f'rows with other than {len(split[0])} fields')
    return paragraph(head) + list_table(split[0], split[1:])


def render_literal(lines, view):
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return ['::', ''] + [('    ' + x).rstrip() for x in lines] + ['']


RENDER = {'repeat': render_repeat, 'mutants': render_mutants,
          'matrix': render_verbatim_tables, 'pipe': render_pipe, 'literal': render_literal}


def render(name, view):
    path, lines = read(name)
    fn = RENDER[data_kind(name, lines)]
    if view and fn is not render_mutants:
        raise DataError(f'{name} has no views ({view!r})')
    try:
        return fn(lines, view or 'summary')
    except DataError as e:
        raise DataError(f'{rel(path)}: {e}')


def doc_files():
    docs = [os.path.join(TOP, 'README.rst')]
    d = os.path.join(TOP, 'doc')
    docs += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith('.rst'))
    return docs


def blocks(lines):
    """(begin index, end index, name, view) of each generated block."""
    out, i = [], 0
    while i < len(lines):
        m = BEGIN.match(lines[i])
        if m:
            j = i + 1
            while j < len(lines) and lines[j] != END and not BEGIN.match(lines[j]):
                j += 1
            if j == len(lines) or lines[j] != END:
                raise DataError(f'line {i + 1}: "{lines[i]}" has no "{END}" after it')
            out.append((i, j, m.group(1), m.group(2)))
            i = j
        i += 1
    return out


def tables(check, problems):
    used = set()
    for path in doc_files():
        with open(path) as f:
            lines = f.read().splitlines()
        try:
            found = blocks(lines)
        except DataError as e:
            problems.append(f'{rel(path)}: {e}')
            continue
        for b, e, name, view in reversed(found):
            used.add(name)
            try:
                want = [''] + render(name, view)
            except DataError as err:
                problems.append(f'{rel(path)}:{b + 1}: {err}')
                continue
            have = lines[b + 1:e]
            if have != want:
                if check:
                    n = next((k for k, (x, y) in enumerate(zip(have, want)) if x != y),
                             min(len(have), len(want)))
                    got = ' '.join(have[n].split()) if n < len(have) else '(end of table)'
                    exp = ' '.join(want[n].split()) if n < len(want) else '(end of table)'
                    problems.append(f'{rel(path)}:{b + 2 + n}: table {name} disagrees with'
                                    f' doc/results/{name}.txt: {got!r}, its data says'
                                    f' {exp!r} (make docs regenerates it)')
                lines[b + 1:e] = want
        if not check:
            text = '\n'.join(lines) + '\n'
            with open(path) as f:
                if f.read() != text:
                    with open(path, 'w') as w:
                        w.write(text)
                    print(f'{rel(path)}: tables regenerated')
    for f in sorted(os.listdir(DATA)):
        if f.endswith('.txt') and f[:-4] not in used:
            problems.append(f'{rel(os.path.join(DATA, f))}: no table in README.rst or doc/ uses it')


def slug(title):
    return re.sub(r'[^a-z0-9]+', '-', title.lower()).strip('-')


def sections(path):
    """The section titles of an RST file."""
    with open(path) as f:
        lines = f.read().splitlines()
    titles = []
    for i in range(len(lines) - 1):
        t, u = lines[i], lines[i + 1]
        if t.strip() and not ADORN.match(t) and ADORN.match(u) and len(u.rstrip()) >= len(t.rstrip()):
            titles.append(t.strip())
    return titles


def check_link(where, base, target, anchor, title, problems):
    path = os.path.normpath(os.path.join(base, target))
    if not os.path.isfile(path):
        problems.append(f'{where}: {target}: no such file')
        return
    titles = sections(path)
    if anchor and anchor not in [slug(t) for t in titles]:
        problems.append(f'{where}: {target}#{anchor}: no such section in {rel(path)}')
    if title and title not in titles:
        problems.append(f'{where}: {target}, {title}: no such section in {rel(path)}')


def links(problems):
    """doc/*.rst links from README.rst, doc/ and expectations/ resolve."""
    ref = re.compile(r'(?<![\w/.-])(doc/[A-Za-z0-9_.-]+\.rst)(?:#([a-z0-9-]+))?')
    for path in doc_files():
        base = os.path.dirname(path)
        with open(path) as f:
            lines = f.read().splitlines()
        for n, x in enumerate(lines, 1):
            for m in ref.finditer(x):
                check_link(f'{rel(path)}:{n}', TOP, m.group(1), m.group(2), None, problems)
            # links between doc files: `text <other.rst#anchor>`_
            for m in re.finditer(r'<([A-Za-z0-9_.-]+\.rst)(?:#([a-z0-9-]+))?>`__?', x):
                if base != TOP:
                    check_link(f'{rel(path)}:{n}', base, m.group(1), m.group(2), None, problems)


def expectations(problems):
    """Each expectation's reason is short and ends with its doc section."""
    for f in sorted(os.listdir(EXPECTATIONS)):
        path = os.path.join(EXPECTATIONS, f)
        if not f.endswith('.txt') or path == MATRIX:
            continue
        for n, point, _, reason in expectation_entries(path):
            if point == 'include':
                continue
            where = f'{rel(path)}:{n}'
            if len(reason) > REASON_MAX:
                problems.append(f'{where}: reason of {len(reason)} characters, over {REASON_MAX}')
            m = re.search(r'\((doc/[A-Za-z0-9_.-]+\.rst)(?:, ([^)]+))?\)$', reason)
            if not m:
                problems.append(f'{where}: the reason ends with no "(doc/<file>.rst, <section>)"')
                continue
            check_link(where, TOP, m.group(1), None, m.group(2), problems)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--check', action='store_true',
                    help='change nothing; exit 1 when a table, a link or a reason is wrong')
    args = ap.parse_args()
    problems = []
    tables(args.check, problems)
    with open(os.path.join(TOP, 'README.rst')) as f:
        n = len(f.read().splitlines())
    if n > README_MAX:
        problems.append(f'README.rst: {n} lines, over {README_MAX}: move design notes to doc/')
    links(problems)
    expectations(problems)
    for p in problems:
        print(f'docs: {p}', file=sys.stderr)
    if problems:
        print(f'docs: {len(problems)} problem(s)', file=sys.stderr)
        return 1
    if args.check:
        print('docs: every table agrees with doc/results/, every doc link resolves,'
              ' every expectation is short and names its doc section')
    return 0


if __name__ == '__main__':
    sys.exit(main())
