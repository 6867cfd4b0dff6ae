#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The series' cover letter: 0-cover-letter.txt, beside this script, with
its figures taken from the recorded data of doc/results/.

In the template, {{base}} is the tree the series is against, and a line
"{{figures <name>}}" is the figures of doc/results/<name>.txt:

  repeat-<kernel>-hz<N>  each kselftest's failed runs by LRU, a point out
                 of the gate marked with its expectation and its reason;
                 the recorded verdicts must be those that
                 expectations/<kernel>-default.txt expects now
  kunit-mutants  the mutants killed of those that apply, by kernel
  matrix-*       the matrix rows, failed runs on the kernel with the bug
                 and on the one without it, and the patches of
                 patches/variants/ that make each kernel

The data is read with runner/export/doc_tables.py's functions, as the docs'
tables are. Python 3 standard library only.

usage: cover_letter.py [--data DIR] [--base VERSION]  print the letter
       cover_letter.py [--data DIR] --check LETTER
           exit 1 when a figures block of DIR's data is not, line for
           line, in LETTER (0000-cover-letter.patch or the letter itself)
"""

import argparse
import email
import os
import re
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.dirname(os.path.dirname(HERE))
TOP = os.path.dirname(RUNNER)
sys.path.insert(0, RUNNER)  # the core (tables, ktap) and the job folders

# pylint: disable=wrong-import-position
from export.doc_tables import (DataError, data_kind, mutant_counts, mutant_rows,  # noqa: E402
                               read, repeat_rows, verbatim_tables)
import tables  # noqa: E402

TEMPLATE = os.path.join(HERE, '0-cover-letter.txt')
PLACEHOLDER = re.compile(r'\{\{([^{}]*)\}\}')
FIGURES = re.compile(r'^\{\{figures ([A-Za-z0-9_.-]+)\}\}$')
MODES = {'mglru': 'MGLRU', 'classic': 'classic'}
WIDTH = 72


def kernel_label(name):
    """'debian-7.3:aging-busy' as '7.3 + aging-busy'; a default kernel as
    its version alone."""
    kernel, _, variant = name.partition(':')
    if kernel not in tables.kernels():
        raise DataError(f'{kernel}: not a kernel of runner/kernels.txt')
    label = kernel.removeprefix('debian-')
    return label if variant in ('', 'default') else f'{label}\xa0+\xa0{variant}'


def table(header, rows):
    """Columns two spaces apart, as plain text for a mail."""
    width = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    return ['  '.join(c.ljust(w) for c, w in zip(r, width)).rstrip() for r in [header] + rows]


def wrapped(head, text):
    """HEAD and TEXT in lines of WIDTH, the next ones indented; a kernel's
    label (its spaces no-break ones here) is not broken."""
    return [x.replace('\xa0', ' ') for x in textwrap.wrap(
        f'{head}{text}', WIDTH, subsequent_indent='  ', break_long_words=False,
        break_on_hyphens=False)]


def split_point(point):
    """'aging_oom_mglru' as ('aging_oom', 'mglru'), by the known tests."""
    test, mode = tables.split_point(point)
    if mode and test in tables.tests():
        return test, mode
    raise DataError(f'{point}: not <test>_<mode> of a test of runner/selftests.txt')


def repeat_figures(name, lines):
    m = re.fullmatch(r'repeat-(.+)-hz(\d+)', name)
    if not m:
        raise DataError('expected the name repeat-<kernel>-hz<HZ>')
    kernel, hz = m.groups()
    kernel_label(kernel)
    expect = tables.expectations(tables.expect_file(kernel))
    cells, modes, notes = {}, [], []
    for point, recorded, runs, failed, _ in repeat_rows(lines):
        e = expect.get(point)
        want, reason = (e.keyword, e.reason) if e else ('PASS', '')
        if recorded != want:
            raise DataError(f'{point} was recorded as {recorded}, expectations/{kernel}-default.txt'
                            f' says {want} now: record the runs again')
        test, mode = split_point(point)
        modes += [mode] if mode not in modes else []
        mark = '' if want == 'PASS' else f', {want.lower()}'
        cells.setdefault(test, {})[mode] = f'{failed} of {runs}{mark}'
        if want != 'PASS':
            reason = re.sub(r'\s*\(doc/[^)]*\)$', '', reason)
            notes += wrapped(f'{want.lower()}, {test} with {MODES[mode]}: ', reason)
    rows = [[t] + [c.get(m, '-') for m in modes] for t, c in cells.items()]
    out = [f'{kernel_label(kernel)}, HZ={hz}, failed runs:', '']
    return out + table(['test'] + [MODES[m] for m in modes], rows) + ([''] + notes if notes else [])


def mutant_figures(name, lines):
    rows = [[kernel_label(k), f'{killed} of {applied}', str(na)]
            for k, (killed, applied, na) in mutant_counts(mutant_rows(lines)).items()]
    return table(['kernel', 'killed', 'not applicable'], rows)


def variant_patches(variant):
    """The subjects of patches/variants/VARIANT/'s patches, in order."""
    d = os.path.join(TOP, 'patches', 'variants', variant)
    if not os.path.isdir(d):
        raise DataError(f'{variant}: no patches/variants/{variant}/')
    subjects = []
    for f in sorted(x for x in os.listdir(d) if x.endswith('.patch')):
        with open(os.path.join(d, f)) as fh:
            subject = ' '.join(str(email.message_from_file(fh)['Subject'] or '').split())
        subjects.append(re.sub(r'^(\[PATCH[^]]*\]\s*)?(Validation kernel:\s*)?', '', subject))
    if not subjects:
        raise DataError(f'{variant}: no patch in patches/variants/{variant}/')
    return '; '.join(subjects)


def matrix_figures(name, lines):
    header, rows = verbatim_tables(lines)[0]
    want = ['test', 'checked mode', 'bug kernel', 'detected', 'fixed kernel', 'false alarms']
    if header[:len(want)] != want:
        raise DataError(f'the first table\'s columns are not {", ".join(want)}: {header}')
    out, variants = [], []
    for test, mode, bug, detected, fixed, alarms, *_ in rows:
        if mode not in MODES:
            raise DataError(f'{mode}: not an LRU mode ({", ".join(MODES)})')
        out += wrapped(f'{test} with {MODES[mode]}: ', f'failed {detected} runs on'
                       f' {kernel_label(bug)}, {alarms} on {kernel_label(fixed)}')
        for k in (bug, fixed):
            v = k.partition(':')[2]
            if v not in ('', 'default') and v not in variants:
                variants.append(v)
    if variants:
        out += ['', 'where each variant is the kernel with these patches:']
        for v in variants:
            out += wrapped(f'{v}: ', variant_patches(v))
    return out


FIGURES_OF = {'repeat': repeat_figures, 'mutants': mutant_figures, 'matrix': matrix_figures}


def figures(name, data):
    path, lines = read(name, data)
    fn = FIGURES_OF.get(data_kind(name, lines))
    if not fn:
        raise DataError(f'{name}: no figures of this kind (repeat-*, kunit-mutants, matrix-*)')
    try:
        return fn(name, lines)
    except DataError as e:
        raise DataError(f'{path}: {e}') from None


def letter(data, base):
    """The cover letter, its subject first, and [(name, its figures)]."""
    with open(TEMPLATE) as f:
        template = f.read().splitlines()
    out, blocks = [], []
    for n, x in enumerate(template, 1):
        m = FIGURES.match(x)
        if m:
            blocks.append((m.group(1), figures(m.group(1), data)))
            out += ['  ' + y if y else '' for y in blocks[-1][1]]
            continue
        for p in PLACEHOLDER.findall(x):
            if p != 'base':
                raise DataError(f'{os.path.relpath(TEMPLATE, TOP)}:{n}: {{{{{p}}}}}:'
                                ' not {{base}} nor a line {{figures <name>}}')
        out.append(x.replace('{{base}}', base))
    return '\n'.join(out) + '\n', blocks


def check(data, path):
    """Each figures block of DATA is in the letter at PATH, line for line."""
    with open(path) as f:
        text = f.read()
    have = text.splitlines()
    problems = []
    for name, block in letter(data, '')[1]:
        want = ['  ' + y if y else '' for y in block]
        if '\n'.join(want) in text:
            continue
        bad = next((y for y in want if y and y not in have), want[0])
        problems.append(f'series: {os.path.basename(path)}: the figures of {name} are not'
                        f' {os.path.join(data, name)}.txt\'s: {" ".join(bad.split())!r} is not'
                        ' in the letter')
    for p in problems:
        print(p, file=sys.stderr)
    if not problems:
        print(f'series: every figure of {os.path.basename(path)} is the data\'s of {data}')
    return 1 if problems else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--data', default=os.path.join(TOP, 'doc', 'results'),
                    help='the recorded data (default doc/results)')
    ap.add_argument('--base', default='(the base tree)', help='the tree the series is against')
    ap.add_argument('--check', metavar='LETTER',
                    help='print nothing of the letter; exit 1 when its figures are not the data\'s')
    args = ap.parse_args()
    try:
        if args.check:
            return check(args.data, args.check)
        sys.stdout.write(letter(args.data, args.base)[0])
    except DataError as e:
        print(f'series: {e}', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
