#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare two runs (or two kernels) side by side, in the spirit of mmtests'
compare-kernels: per scenario and LRU mode, the verdicts and how many runs
failed, and for each key metric the mean and the median over the runs in A
and in B and B's median relative to A's. With REPEAT=N, each line is a
two-sided test of A's runs against B's: the failure counts with Fisher's
exact test, each metric with the test runner/selftests.txt declares for it
(Welch's t-test, Mann-Whitney U, or Fisher's on the runs where it is
nonzero; a metric declared nowhere: Fisher's if every value is 0 or 1,
else Welch's). The p-values are corrected together (Holm-Bonferroni) and
'*' marks an adjusted p < 0.01. 'too few runs' when no outcome of so few
runs could give p < 0.01 (the test's smallest p is on A's runs all below
B's; Welch's needs 2 runs a side), and such a line is left out of the
correction; 'n/a' when the runs do not vary. Writes compare.svg
(runner/run/plots.py) into B's folder unless told otherwise.

--equivalent METRIC=BOUND (BOUND a number, or a percentage of A's median,
of A's mean for Welch's) asks the other question, whether B's runs lie
within BOUND of A's: for each line of METRIC, two one-sided tests (TOST),
each by the line's test with B's runs shifted by the bound (Mann-Whitney U
or Welch's t; a count, Fisher's, has none), corrected together (Holm) and
'equivalent' at an adjusted p < 0.05, the usual level of an equivalence
test. Not shown is not "different": too few runs or too wide a spread
fail to show it too.

The last line is the verdict: 'regressed' when a test point passed in A
and fails in B (exit 1), otherwise 'improved', 'same verdicts' (exit 0).

Needs scipy and matplotlib: run it with the project venv's Python,
$CACHE/venv/bin/python3 (what `make compare` does)."""

import argparse
import json
import math
import os
import statistics
import sys
import warnings

RUNNER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, RUNNER)  # the core (tables, ktap) and the job folders
from run.summary import numeric, runs_of  # noqa: E402
from tables import key_metrics, stat_test  # noqa: E402

ALPHA = 0.01
ALPHA_EQ = 0.05  # an equivalence test's level
W = 10  # a value column's width

try:
    from scipy.stats import fisher_exact, mannwhitneyu, ttest_ind
    from scipy.special import comb
except ImportError:
    ttest_ind = None


def load(path):
    if os.path.isdir(path):
        path = os.path.join(path, 'summary.json')
    try:
        with open(path) as f:
            s = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f'mglru: error: cannot read a run summary from {path}: {e}')
    k = s.get('kernel', {})
    name = f"{k.get('uname', k.get('version', '?'))}/{k.get('variant', '?')}"
    if s.get('guest_append'):
        # booted with kernel parameters of its own (GUEST_APPEND)
        name += f" [{s['guest_append']}]"
    return name, s.get('test_args', ''), {(t['test'], t['mode']): t
                                          for t in s.get('kselftest', [])}


def fisher(a, b):
    """Fisher's exact test on the runs where the value is nonzero (a
    failure, an OOM kill, a completed dd) against those where it is 0."""
    ya, yb = sum(1 for v in a if v), sum(1 for v in b if v)
    return float(fisher_exact([[ya, len(a) - ya], [yb, len(b) - yb]]).pvalue)


def mwu(a, b):
    """Mann-Whitney U: exact for small samples without ties (scipy's
    choice), for a bimodal metric a mean does not describe."""
    return float(mannwhitneyu(a, b, alternative='two-sided').pvalue)


def welch(a, b):
    """Welch's t-test (unequal variances)."""
    with warnings.catch_warnings():
        # nearly equal values: scipy warns of lost precision, p is still fine
        warnings.simplefilter('ignore', RuntimeWarning)
        return float(ttest_ind(a, b, equal_var=False).pvalue)


TESTS = {'fisher': fisher, 'mwu': mwu, 'welch': welch}


def smallest_p(test, n1, n2):
    """The smallest two-sided p TEST can give on n1 runs against n2: its p
    when every run of A is below every run of B. Welch's has no such
    bound once each side has 2 runs (the t grows without limit)."""
    if test == 'welch':
        return 0.0 if min(n1, n2) >= 2 else 1.0
    if not n1 or not n2:
        return 1.0
    if test == 'fisher':
        return fisher([0] * n1, [1] * n2)
    return mwu(list(range(n1)), list(range(n1, n1 + n2)))


def p_value(test, a, b):
    """(p, note): TEST's two-sided p on the per-run values a and b, or None
    and why there is none."""
    if smallest_p(test, len(a), len(b)) >= ALPHA:
        return None, 'too few runs'
    if test == 'welch':
        varies = statistics.pvariance(a) > 0 or statistics.pvariance(b) > 0
    elif test == 'fisher':
        varies = len({bool(v) for v in a + b}) > 1
    else:
        varies = len(set(a + b)) > 1
    p = TESTS[test](a, b) if varies else math.nan
    return (None, 'n/a') if math.isnan(p) else (p, '')


def one_sided(test, a, b, alternative):
    """TEST's one-sided p that b lies 'less' or 'greater' than a."""
    if test == 'mwu':
        return float(mannwhitneyu(b, a, alternative=alternative).pvalue)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        return float(ttest_ind(b, a, equal_var=False, alternative=alternative).pvalue)


def tost(test, a, b, bound):
    """(p, note): the two one-sided tests' p that B's runs lie within
    +-bound of A's (the larger of the two), or None and why there is none."""
    if test not in ('mwu', 'welch'):
        return None, 'a count: no TOST'
    n1, n2 = len(a), len(b)
    # the smallest one-sided p: Welch's needs 2 runs a side, Mann-Whitney's
    # is one ordering of C(n1 + n2, n1)
    if min(n1, n2) < 2 or (test == 'mwu' and 1 / comb(n1 + n2, n1) >= ALPHA_EQ):
        return None, 'too few runs'
    if test == 'welch' and statistics.pvariance(a) == 0 and statistics.pvariance(b) == 0:
        return (0.0, '') if abs(statistics.fmean(b) - statistics.fmean(a)) < bound else (1.0, '')
    lower = one_sided(test, a, [v + bound for v in b], 'greater')
    upper = one_sided(test, a, [v - bound for v in b], 'less')
    return max(lower, upper), ''


def parse_bounds(specs):
    """{metric: (value, relative)} of --equivalent METRIC=BOUND[%]."""
    out = {}
    for spec in specs:
        metric, _, bound = spec.partition('=')
        if metric in out:
            sys.exit(f'mglru: error: --equivalent {metric}: given twice')
        rel = bound.endswith('%')
        try:
            value = float(bound[:-1] if rel else bound)
        except ValueError:
            value = -1.0
        if not metric or value <= 0 or not math.isfinite(value):
            sys.exit(f'mglru: error: --equivalent {spec}: expected METRIC=BOUND, '
                     'BOUND a positive number or percentage (e.g. p99_us=10%)')
        out[metric] = (value, rel)
    return out


def equivalence(rows, bounds):
    """The TOST lines of the metrics of bounds: dicts as rows_of()'s."""
    out = []
    for r in rows:
        pan = r.get('panel')
        if not pan or pan['metric'] not in bounds:
            continue
        value, rel = bounds[pan['metric']]
        a, b = pan['a'], pan['b']
        ma = statistics.median(a) if a else 0
        # Welch's tests means: its relative bound is of A's mean
        base = statistics.fmean(a) if a and r['method'] == 'welch' else ma
        bound = value / 100 * abs(base) if rel else value
        if not a or not b:
            p, note = None, 'too few runs'
        elif bound <= 0:
            p, note = None, f"A's {'mean' if r['method'] == 'welch' else 'median'} is 0: no relative bound"
        else:
            p, note = tost(r['method'], a, b, bound)
        out.append({'name': (pan['test'], pan['mode'], pan['metric']), 'bound': bound,
                    'spec': f'{value:g}{"%" if rel else ""}', 'a': ma,
                    'b': statistics.median(b) if b else None, 'method': r['method'],
                    'p': p, 'note': note})
    return out


def print_equivalence(lines):
    tested = [x for x in lines if x['p'] is not None]
    for x, adj in zip(tested, holm([x['p'] for x in tested])):
        x['adj'] = adj
    print()
    print(f'equivalence (TOST): B within the bound of A, two one-sided tests, Holm over'
          f' the {len(tested)} tested line(s); equivalent at Holm p < {ALPHA_EQ:g}')
    print(f"{'test':<18} {'mode':<8} {'metric':<16} {'bound':>{2 * W}} {'A median':>{W}}"
          f" {'B median':>{W}}  method       p  Holm p")
    for x in lines:
        name = x['name']
        bound = fmt(x['bound']) + (f' ({x["spec"]})' if x['spec'].endswith('%') else '')
        line = (f'{name[0]:<18} {name[1]:<8} {name[2]:<16} '
                f'{bound:>{2 * W}} '
                f'{fmt(x["a"]):>{W}} {fmt(x["b"]) if x["b"] is not None else "-":>{W}}  {x["method"]:<6} ')
        if x['p'] is None:
            line += x['note']
        else:
            line += (f'{x["p"]:>7.2g} {x["adj"]:>7.2g} '
                     f'{"equivalent" if x["adj"] < ALPHA_EQ else "not shown"}')
        print(line.rstrip())
    shown = sum(1 for x in tested if x['adj'] < ALPHA_EQ)
    if tested:
        print(f'equivalent: {shown} of {len(tested)} tested line(s) within their bound'
              f' (Holm p < {ALPHA_EQ:g})')
    else:
        print('equivalent: no line could be tested')


def holm(ps):
    """Holm-Bonferroni: the adjusted p-values of ps, in their order."""
    adjusted, running = [0.0] * len(ps), 0.0
    for rank, i in enumerate(sorted(range(len(ps)), key=ps.__getitem__)):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        adjusted[i] = running
    return adjusted


def failures(entry):
    """Per run of a test point, 1 when it failed and 0 when it passed
    (skipped runs are left out)."""
    v = entry.get('verdicts', {})
    return [1] * v.get('FAIL', 0) + [0] * v.get('PASS', 0)


def fmt(v):
    if isinstance(v, float):
        return f'{v:.0f}' if abs(v) >= 1e4 else f'{v:.4g}'
    return str(v)


def rows_of(a, b, every):
    """The table's lines, in order: dicts with the line's name and cells,
    and for a tested line its test (method), raw p (None: no test) and
    note; a metric's line also has its panel for compare.svg."""
    rows = []
    for key in sorted(set(a) | set(b)):
        ta, tb = a.get(key, {}), b.get(key, {})
        fa, fb = failures(ta), failures(tb)
        p, note = p_value('fisher', fa, fb)
        cells = [ta.get('verdict', '-'), f'{sum(fa)}/{len(fa)} fail',
                 tb.get('verdict', '-'), f'{sum(fb)}/{len(fb)} fail', '']
        rows.append({'name': key + ('verdict',), 'cells': cells, 'method': 'fisher',
                     'p': p, 'note': note})
        ra, rb = runs_of(ta), runs_of(tb)
        names = []
        for mt in ra + rb:
            names += [m for m in mt if m not in names]
        keys = key_metrics(key[0])
        if not every and keys:
            names = [m for m in keys if m in names]
        for m in names:
            xa, xb = [mt[m] for mt in ra if m in mt], [mt[m] for mt in rb if m in mt]
            if not all(numeric(v) for v in xa + xb):
                # a word (e.g. split_source): the last run's, as the summary
                rows.append({'name': ('', '', m), 'cells': [
                    '', fmt(xa[-1] if xa else '-'), '', fmt(xb[-1] if xb else '-')]})
                continue
            method = stat_test(key[0], m) or ('fisher' if set(xa + xb) <= {0, 1} else 'welch')
            ma = statistics.median(xa) if xa else None
            mb = statistics.median(xb) if xb else None
            p, note = p_value(method, xa, xb)
            cells = [fmt(statistics.fmean(xa)) if xa else '-', fmt(ma) if xa else '-',
                     fmt(statistics.fmean(xb)) if xb else '-', fmt(mb) if xb else '-',
                     f'{mb / ma:.2f}' if xa and xb and ma else '']
            rows.append({'name': ('', '', m), 'cells': cells, 'method': method, 'p': p,
                         'note': note, 'panel': {'test': key[0], 'mode': key[1],
                                                 'metric': m, 'a': xa, 'b': xb}})
    return rows


def print_row(row):
    """One line of the table: the cells, then the test, p and Holm's p
    (adj), or why there is none."""
    name, cells = row['name'], row['cells']
    line = f'{name[0]:<18} {name[1]:<8} {name[2]:<16} ' + \
        ' '.join(f'{c:>{W}}' for c in cells[:4])
    if 'method' in row:
        line += f' {cells[4]:>6}  {row["method"]:<6} '
        if row['p'] is None:
            line += row['note']
        else:
            line += f'{row["p"]:>7.2g} {row["adj"]:>7.2g}{" *" if row["adj"] < ALPHA else ""}'
    print(line.rstrip())


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('a', metavar='A', help='results folder or summary.json')
    ap.add_argument('b', metavar='B', help='results folder or summary.json')
    ap.add_argument('--all', action='store_true',
                    help='every metric, not only the key metrics of runner/selftests.txt')
    ap.add_argument('--svg', help="the picture's file (default: compare.svg in B's folder)")
    ap.add_argument('--no-svg', action='store_true', help='no picture')
    ap.add_argument('--equivalent', action='append', default=[], metavar='METRIC=BOUND',
                    help="test that B's METRIC lies within BOUND (a number, or N%% of A's "
                         'median) of A\'s (TOST); repeatable')
    args = ap.parse_args()
    bounds = parse_bounds(args.equivalent)
    if ttest_ind is None:
        sys.exit('mglru: error: compare.py needs scipy and matplotlib (runner/requirements.txt):'
                 " run it with the venv's Python, $CACHE/venv/bin/python3"
                 ' (make deps installs them)')
    name_a, args_a, a = load(args.a)
    name_b, args_b, b = load(args.b)
    if args_a != args_b:
        sys.exit(f"mglru: error: A ran with TEST_ARGS '{args_a}', B with '{args_b}':"
                 ' compare runs of the same arguments')
    rows = rows_of(a, b, args.all)
    lines = equivalence(rows, bounds)
    missing = sorted(set(bounds) - {x['name'][2] for x in lines})
    if missing:
        sys.exit(f'mglru: error: --equivalent: no line of {" ".join(missing)} in'
                 ' these runs (a key metric, or every metric with --all)')
    tested = [r for r in rows if r.get('p') is not None]
    for r, adj in zip(tested, holm([r['p'] for r in tested])):
        r['adj'] = adj
    print(f'A: {name_a}  ({args.a})')
    print(f'B: {name_b}  ({args.b})')
    print(f'* Holm p < {ALPHA:g}: the line\'s two-sided p, Holm-Bonferroni over the'
          f' {len(tested)} tested lines')
    print('method: fisher (failed runs, or runs with a nonzero value), mwu (Mann-Whitney U),'
          ' welch (Welch\'s t-test)')
    print(f'too few runs: p < {ALPHA:g} is out of reach with so few runs;'
          ' n/a: the runs do not vary')
    print(f"{'test':<18} {'mode':<8} {'metric':<16} {'A mean':>{W}} {'A median':>{W}}"
          f" {'B mean':>{W}} {'B median':>{W}} {'B/A':>6}  method       p  Holm p")
    for r in rows:
        print_row(r)
    significant = sum(1 for r in tested if r['adj'] < ALPHA)
    if not args.no_svg:
        out = args.svg or os.path.join(args.b if os.path.isdir(args.b) else
                                       os.path.dirname(os.path.abspath(args.b)), 'compare.svg')
        panels = [dict(r['panel'], method=r['method'], p=r.get('adj'), note=r['note'])
                  for r in rows if 'panel' in r]
        try:
            from run import plots
            if plots.compare_svg(panels, name_a, name_b, out, ALPHA):
                print(f'picture: {out}')
        except (ImportError, OSError) as e:
            print(f'mglru: warning: no picture: {e}', file=sys.stderr)
    if tested or not any(r.get('note') == 'too few runs' for r in rows):
        print(f'significant: {significant} of {len(tested)} tested line(s) differ'
              f' (Holm p < {ALPHA:g})')
    else:
        print(f'significant: too few runs (no line could reach p < {ALPHA:g})')
    if bounds:
        print_equivalence(lines)
    for name, side in ((name_a, a), (name_b, b)):
        lost = sorted('_'.join(filter(None, k)) for k in side if side[k].get('verdict') == 'ERROR')
        if lost:
            print(f'mglru: {name}: no verdict for {" ".join(lost)}: the emulator (QEMU TCG) '
                  f'crashed the guest twice (summary.json\'s attempts)')
    regressed = sum(1 for k in a if a[k].get('verdict') == 'PASS'
                    and b.get(k, {}).get('verdict') == 'FAIL')
    improved = sum(1 for k in a if a[k].get('verdict') == 'FAIL'
                   and b.get(k, {}).get('verdict') == 'PASS')
    if regressed:
        print(f'verdict: regressed ({regressed} test point(s) pass in A and fail in B)')
        return 1
    print('verdict: improved' if improved else 'verdict: same verdicts')
    return 0


if __name__ == '__main__':
    sys.exit(main())
