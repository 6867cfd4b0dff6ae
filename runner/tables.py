#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The suite's tables, each read and checked here and nowhere else:

  runner/kernels.txt         the kernels by name (KERNEL=)
  runner/selftests.txt       each kselftest: kill times, key metrics with
                             the statistical test make compare uses on
                             each, overload controls
  expectations/matrix.txt    the validation matrix's rows
  expectations/<kernel>-<variant>.txt  known results

A malformed line is one error, "mglru: error: <file>:<line>: ...", and
exit 1. Each file is read once per process. The shell scripts, which never
parse a table themselves, use the command line (see main())."""

import collections
import functools
import os
import signal
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
SELFTESTS = os.path.join(HERE, 'selftests.txt')
KERNELS = os.environ.get('KERNELS_TABLE') or os.path.join(HERE, 'kernels.txt')
EXPECTATIONS = os.path.join(TOP, 'expectations')
MATRIX = os.path.join(EXPECTATIONS, 'matrix.txt')
# the tests a key metric's runs can be compared with (runner/validate/compare.py)
STAT_TESTS = ('fisher', 'mwu', 'welch')
MODES = ('mglru', 'classic')
KEYWORDS = ('FAIL', 'SKIP', 'FLAKY', 'INFO', 'PASS')
INCLUDE_DEPTH = 8

Kernel = collections.namedtuple('Kernel', 'name package version archive suite port image')
Selftest = collections.namedtuple('Selftest', 'kill_times stats controls')
Row = collections.namedtuple('Row', 'test mode bug fixed')
Expectation = collections.namedtuple('Expectation', 'keyword reason path line')


def error(path, n, msg):
    sys.exit(f'mglru: error: {path}:{n}: {msg}')


def _lines(path):
    """(line number, line) of each line of PATH that is not blank or a
    comment; a missing file is an error."""
    try:
        with open(path, errors='replace') as f:
            text = f.read()
    except OSError as e:
        sys.exit(f'mglru: error: {path}: {e.strerror}')
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith('#'):
            yield n, line


# --- runner/kernels.txt ---------------------------------------------------

@functools.lru_cache(maxsize=None)
def kernels():
    """{name: Kernel}, in the table's order: the first is the default."""
    out = {}
    for n, line in _lines(KERNELS):
        cols = line.split()
        if len(cols) != len(Kernel._fields):
            error(KERNELS, n, 'expected <name> <package> <version> <archive> <suite> <port> <image>')
        out[cols[0]] = Kernel(*cols)
    if not out:
        sys.exit(f'mglru: error: {KERNELS}: no kernels')
    return out


def default_kernel():
    return next(iter(kernels()))


def kernel(name):
    """NAME's row; an unknown name is an error that lists the known ones."""
    if name not in kernels():
        sys.exit(f'mglru: error: KERNEL={name}: unknown (one of: {" ".join(kernels())})')
    return kernels()[name]


def kernel_of_version(version):
    """The kernel whose pinned version's upstream part is VERSION, or None."""
    return next((k for k in kernels().values() if k.version.split('-')[0] == version), None)


# --- runner/selftests.txt -------------------------------------------------

@functools.lru_cache(maxsize=None)
def _selftests():
    rows = {}
    for n, line in _lines(SELFTESTS):
        if '|' not in line:
            continue
        cols = [x.strip() for x in line.split('|')]
        if len(cols) != 4 or not cols[0]:
            error(SELFTESTS, n, 'expected <test> | <kill times> |'
                  ' <metric>:<test>... | <modes>: <arguments>; ...')
        name, times, metrics, controls = cols
        if not all(t.isdigit() for t in times.split()):
            error(SELFTESTS, n, f'{times}: kill times are whole seconds')
        stats = {}
        for word in metrics.split():
            metric, _, stat = word.partition(':')
            if stat not in STAT_TESTS:
                error(SELFTESTS, n, f'{word}: expected <metric>:<test>,'
                      f' the test one of {", ".join(STAT_TESTS)}')
            stats[metric] = stat
        ctl = []
        for c in filter(None, (x.strip() for x in controls.split(';'))):
            modes, sep, args = c.partition(':')
            if not sep or not modes.split() or not set(modes.split()) <= set(MODES):
                error(SELFTESTS, n, f'{c}: expected <modes>: <arguments>,'
                      ' the modes mglru and/or classic')
            ctl.append((modes.split(), args.strip()))
        rows[name] = Selftest([int(t) for t in times.split()], stats, ctl)
    return rows


def tests():
    """The kselftests, in the table's order."""
    return list(_selftests())


def kill_times(test):
    """TEST's kill times (seconds into a run) for make selftest-check."""
    return _selftests()[test].kill_times


def controls(test):
    """TEST's overload controls: [(modes, arguments)]."""
    return _selftests()[test].controls


def key_metrics(test):
    """TEST's key metrics, in the table's order."""
    row = _selftests().get(test)
    return list(row.stats) if row else []


def stat_test(test, metric):
    """The statistical test declared for METRIC in TEST's line, else in
    another test's line (a metric's name means the same in every test),
    else None."""
    row = _selftests().get(test)
    if row and metric in row.stats:
        return row.stats[metric]
    return next((r.stats[metric] for r in _selftests().values() if metric in r.stats), None)


# a metric's unit by the end of its name, the first that fits "_<name>":
# a count of pages is in 4 KiB pages; a name that fits none has no unit.
# The LAVA test definition gets this table with each job (units_param()).
UNITS = (('_mib_per_s', 'MiB/s'), ('_mib', 'MiB'), ('_pct', '%'),
         ('_pages', 'pages'), ('_s', 's'))


def unit(metric):
    """METRIC's unit, or None."""
    return next((u for suffix, u in UNITS if f'_{metric}'.endswith(suffix)), None)


def units_param():
    """UNITS as the LAVA script reads it: "<suffix>=<unit> ..."."""
    return ' '.join(f'{suffix}={u}' for suffix, u in UNITS)


def split_point(point):
    """'aging_oom_mglru' as ('aging_oom', 'mglru'); a point without a mode
    as (point, '')."""
    test, _, mode = point.rpartition('_')
    return (test, mode) if mode in MODES else (point, '')


# --- expectations/matrix.txt ----------------------------------------------

def matrix_kernel(k, default):
    """A matrix kernel, <KERNEL>:<VARIANT> or a VARIANT of DEFAULT, as
    (kernel, variant); None for an unknown kernel or variant."""
    name, _, variant = k.rpartition(':')
    name = name or default
    if name not in kernels():
        return None
    if variant not in ('default', 'port') and \
       not os.path.isdir(os.path.join(TOP, 'patches', 'variants', variant)):
        return None
    return name, variant


def on_disk(k):
    """A matrix kernel, <KERNEL>:<VARIANT>, as a file or folder name: ':'
    as '+', for virtme-ng's --rwdir cannot share a path with ':'. Names
    that are text (matrix.txt, LAVA's job_name, summary.json) keep ':'."""
    return k.replace(':', '+')


@functools.lru_cache(maxsize=None)
def matrix(path=MATRIX, kernels_known=True):
    """The matrix's rows, [Row], each <test> mglru|classic <bug kernel>
    <fixed kernel>; with kernels_known, each kernel a known kernel and
    variant (a run's copy names the folders of its results instead)."""
    rows = []
    for n, line in _lines(path):
        cols = line.split('#', 1)[0].split()
        if len(cols) != 4 or cols[1] not in MODES:
            error(path, n, 'expected <test> mglru|classic <bug kernel> <fixed kernel>')
        if cols[0] not in _selftests():
            error(path, n, f'unknown test {cols[0]} ({SELFTESTS}: {" ".join(tests())})')
        for k in cols[2:] if kernels_known else ():
            if not matrix_kernel(k, default_kernel()):
                error(path, n, f'kernel {k}: no such kernel (one of: {" ".join(kernels())})'
                      ' or variant (default, port or patches/variants/<name>)')
        rows.append(Row(*cols))
    if not rows:
        sys.exit(f'mglru: error: {path} has no rows')
    return rows


def validated(test, mode):
    """The point has a row in the validation matrix."""
    return any(r.test == test and r.mode == mode for r in matrix())


# --- expectations/<kernel>-<variant>.txt ----------------------------------

def expectation_lines(text):
    """(line number, point, keyword, reason) of each line of an
    expectations file's text ('include <file>' is the point 'include' with
    the file as its keyword); the text may be an old revision's."""
    for n, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith('#'):
            continue
        parts = line.split('#', 1)[0].strip().split(None, 2)
        if parts:
            yield n, parts[0], parts[1] if len(parts) > 1 else '', \
                parts[2] if len(parts) > 2 else ''


@functools.lru_cache(maxsize=None)
def expectation_entries(path):
    """(line number, point, keyword, reason) of each line of the
    expectations file PATH, checked: '<test point> FAIL|SKIP|FLAKY|INFO|PASS
    <reason>' or 'include <file>' (the point 'include', the file as its
    keyword)."""
    try:
        with open(path, errors='replace') as f:
            text = f.read()
    except OSError as e:
        sys.exit(f'mglru: error: {path}: {e.strerror}')
    out = list(expectation_lines(text))
    for n, point, word, reason in out:
        if not (point == 'include' and word and not reason) and word not in KEYWORDS:
            error(path, n, f'expected "<test> {"|".join(KEYWORDS)} <reason>" or "include <file>"')
    return out


@functools.lru_cache(maxsize=None)
def expectations(path, depth=0):
    """{point: Expectation} of the expectations file PATH. FLAKY (as in
    netdev CI's lists) accepts either verdict and reports it. INFO takes a
    point out of the gate on purpose: it runs and reports its metrics, and
    no verdict of it fails the run; its reason names the mechanism and the
    doc/ file with its numbers. 'include <file>' (relative to PATH) reads
    another kernel's list where it stands; a later line overrides it, PASS
    removes a point."""
    expect = {}
    if not path:
        return expect
    for n, point, word, reason in expectation_entries(path):
        if point == 'include' and word not in KEYWORDS:
            if depth >= INCLUDE_DEPTH:
                error(path, n, f'includes nest deeper than {INCLUDE_DEPTH}')
            expect.update(expectations(os.path.join(os.path.dirname(path), word), depth + 1))
        elif word == 'PASS':
            expect.pop(point, None)
        else:
            expect[point] = Expectation(word, reason, path, n)
    return expect


def expect_file(kernel_name, variant='default'):
    """expectations/<kernel>-<variant>.txt, None when there is none."""
    path = os.path.join(EXPECTATIONS, f'{kernel_name}-{variant}.txt')
    return path if os.path.isfile(path) else None


# --- the command line -----------------------------------------------------

USAGE = '''usage: tables.py COMMAND
  names                     the kselftests, one a line
  kill-times TEST           TEST's kill times, on one line
  key-metrics TEST          TEST's key metrics, on one line
  unit METRIC...            each METRIC's unit, one a line (- for none)
  units                     the units as the LAVA script takes them (-u)
  controls                  "<test> <mode> <arguments>", one a control and mode
  kernels                   the kernels, the default first, one a line
  kernel-field NAME FIELD... the fields of kernel NAME ({fields}), on one line
  kernel-versions           "<name> <version>", one a kernel
  archives                  "<archive> <suite>" of the kernels, once each
  kernel-of-version VERSION the kernel of that upstream version (exit 1: none)
  matrix-rows FILE [TEST...] FILE's rows, checked; only TESTS' rows if given
  matrix-kernel K DEFAULT   "<kernel> <variant>" of K, <name>:<variant> or a
                            variant of DEFAULT; an error if either is unknown
  on-disk KERNEL            a matrix kernel <name>:<variant> as a file name
  expect-file KERNEL VARIANT the expectations file (nothing if there is none)
  expect-points FILE KEYWORD "<point> <reason>" of each point FILE expects KEYWORD'''


def main(argv):
    cmd, args = (argv[0], argv[1:]) if argv else ('', [])
    if cmd == 'names' and not args:
        print('\n'.join(tests()))
    elif cmd == 'kill-times' and len(args) == 1 and args[0] in _selftests():
        print(' '.join(map(str, kill_times(args[0]))))
    elif cmd == 'key-metrics' and len(args) == 1 and args[0] in _selftests():
        print(' '.join(key_metrics(args[0])))
    elif cmd == 'units' and not args:
        print(units_param())
    elif cmd == 'unit' and args:
        print('\n'.join(unit(m) or '-' for m in args))
    elif cmd == 'controls' and not args:
        for t in tests():
            for modes, a in controls(t):
                for m in modes:
                    print(f'{t} {m} {a}'.rstrip())
    elif cmd == 'kernels' and not args:
        print('\n'.join(kernels()))
    elif cmd == 'kernel-field' and len(args) > 1 and set(args[1:]) <= set(Kernel._fields):
        print(' '.join(getattr(kernel(args[0]), f) for f in args[1:]))
    elif cmd == 'kernel-versions' and not args:
        for k in kernels().values():
            print(k.name, k.version)
    elif cmd == 'archives' and not args:
        print('\n'.join(sorted({f'{k.archive} {k.suite}' for k in kernels().values()})))
    elif cmd == 'kernel-of-version' and len(args) == 1:
        k = kernel_of_version(args[0])
        if not k:
            return 1
        print(k.name)
    elif cmd == 'matrix-rows' and args:
        rows = matrix(os.path.abspath(args[0]))
        for t in args[1:]:
            if not any(r.test == t for r in rows):
                sys.exit(f'mglru: error: MATRIX_ROWS: no row \'{t}\' in {args[0]}')
        for r in rows:
            if len(args) == 1 or r.test in args[1:]:
                print(' '.join(r))
    elif cmd == 'matrix-kernel' and len(args) == 2:
        k = matrix_kernel(*args)
        if not k:
            sys.exit(f'mglru: error: {args[0]}: not <KERNEL>:<VARIANT> of a known kernel and variant')
        print(*k)
    elif cmd == 'on-disk' and len(args) == 1:
        print(on_disk(args[0]))
    elif cmd == 'expect-file' and len(args) == 2:
        path = expect_file(*args)
        if path:
            print(path)
    elif cmd == 'expect-points' and len(args) == 2:
        for point, e in expectations(os.path.abspath(args[0])).items():
            if e.keyword == args[1]:
                print(point, e.reason)
    else:
        sys.exit(USAGE.format(fields=', '.join(Kernel._fields)))
    return 0


if __name__ == '__main__':
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main(sys.argv[1:]))
