#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge a validation matrix run by runner/validate/matrix.sh.

For each row of the run's matrix.txt (<test> <mode> <bug kernel> <fixed
kernel>), read the two kernels' <test>_<mode>/<kernel>/summary.json and
count the runs whose test point <test>_<mode> failed: on the bug kernel
these are detections, on the fixed kernel false alarms. The row holds when
detection is at least 90% of the runs and there is no false alarm, and
its runs could show the difference at all: 'too few runs' when even every
bug-kernel run failing and every fixed-kernel run passing would give
Fisher's exact test p >= 0.01 (runner/validate/compare.py's rule; with n runs a
side that p is 2/C(2n, n): 0.1 at REPEAT=3, 0.029 at 4, 0.0079 at 5). Prints
two RST tables (the verdicts; the checked point's median metrics on both
kernels) and writes matrix.json; exits 1 when a row does not hold.
"""

import json
import math
import os
import sys

RUNNER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, RUNNER)  # the core (tables, ktap) and the job folders
from tables import key_metrics, matrix, on_disk  # noqa: E402


def load_summary(out, test, mode, kernel):
    path = os.path.join(out, f'{test}_{mode}', on_disk(kernel), 'summary.json')
    if not os.path.exists(path):
        sys.exit(f'mglru: error: no {path}: run runner/validate/matrix.sh first')
    with open(path) as f:
        return json.load(f)


ALPHA = 0.01  # runner/validate/compare.py's


def fisher_p(a_yes, a_no, b_yes, b_no):
    """Fisher's exact test, two-sided, on the 2x2 table [[a_yes, a_no],
    [b_yes, b_no]]: the probability, under the margins, of every table no
    more likely than this one (scipy's fisher_exact, without scipy: this
    runs under the system Python)."""
    n_a, n_b, yes = a_yes + a_no, b_yes + b_no, a_yes + b_yes
    total = math.comb(n_a + n_b, yes)
    if not n_a or not n_b or not total:
        return 1.0

    def prob(k):
        return math.comb(n_a, k) * math.comb(n_b, yes - k) / total

    here = prob(a_yes)
    ks = range(max(0, yes - n_b), min(n_a, yes) + 1)
    # scipy's tolerance for tables as likely as this one
    return min(1.0, sum(prob(k) for k in ks if prob(k) <= here * (1 + 1e-7)))


def smallest_p(n_bug, n_fixed):
    """The smallest p Fisher's test can give on n_bug runs against n_fixed:
    every bug-kernel run failed and no fixed-kernel run did."""
    return fisher_p(n_bug, 0, 0, n_fixed) if n_bug and n_fixed else 1.0


def point(summary, test, mode):
    for entry in summary['kselftest']:
        if entry['test'] == test and entry['mode'] == mode:
            return entry
    return None


def lost(summary, test):
    """Runs of test that the emulator crashed twice (summary.py's ERROR
    point of the program): no verdict, so neither a detection nor a
    false alarm."""
    entry = point(summary, test, '') if summary else None
    return entry['verdicts'].get('ERROR', 0) if entry else 0


def failed(entry):
    """Runs that did not pass (FAIL, or no result at all)."""
    if not entry:
        return 0, 0
    runs = entry['runs']
    return runs - entry['verdicts'].get('PASS', 0) - entry['verdicts'].get('SKIP', 0), runs


def metrics(entry, test):
    if not entry:
        return '-'
    m = entry['metrics']
    shown = [f'{k}={m[k]}' for k in key_metrics(test) if k in m]
    return ' '.join(shown) or '-'


def rst_table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    rule = '  '.join('=' * w for w in widths)
    lines = [rule, '  '.join(f'{h:<{w}}' for h, w in zip(header, widths)).rstrip(), rule]
    lines += ['  '.join(f'{str(c):<{w}}' for c, w in zip(r, widths)).rstrip() for r in rows]
    lines.append(rule)
    return '\n'.join(lines)


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: matrix.py MATRIX_RESULTS_DIR')
    out = sys.argv[1]
    spec = os.path.join(out, 'matrix.txt')
    if not os.path.exists(spec):
        sys.exit(f'mglru: error: no {spec}: not a matrix results folder')
    rows = matrix(spec, kernels_known=False)

    verdict_rows, metric_rows, report, bad, few_rows, infra = [], [], [], [], [], []
    for test, mode, bug, fixed in rows:
        sums = {k: load_summary(out, test, mode, k) for k in (bug, fixed)}
        infra += [f'{test} on {k}: {lost(sums[k], test)}' for k in (bug, fixed)
                  if lost(sums[k], test)]
        det, nb = failed(point(sums[bug], test, mode))
        fa, nf = failed(point(sums[fixed], test, mode))
        counts_ok = nb > 0 and nf > 0 and det * 10 >= 9 * nb and fa == 0
        p_min = smallest_p(nb, nf)
        few = counts_ok and p_min >= ALPHA
        ok = counts_ok and not few
        if few:
            few_rows.append(f'{test}_{mode}')
        elif not ok:
            bad.append(f'{test}_{mode}')
        report.append({'test': test, 'mode': mode, 'bug_kernel': bug,
                       'fixed_kernel': fixed, 'detected': det, 'bug_runs': nb,
                       'false_alarms': fa, 'fixed_runs': nf, 'ok': ok,
                       'fisher_p': fisher_p(det, nb - det, fa, nf - fa),
                       'smallest_p': p_min, 'too_few_runs': few})
        verdict_rows.append((test, mode, bug, f'{det}/{nb}', fixed, f'{fa}/{nf}',
                             'too few runs' if few else
                             'holds' if ok else 'DOES NOT HOLD'))
        for kernel, role in ((bug, 'bug'), (fixed, 'fixed')):
            entry = point(sums[kernel], test, mode)
            nfail, n = failed(entry)
            metric_rows.append((test, f'{kernel} ({role})', mode,
                                f'{nfail}/{n} failed' if n else 'not run',
                                metrics(entry, test)))

    print(rst_table(('test', 'checked mode', 'bug kernel', 'detected',
                     'fixed kernel', 'false alarms', 'gate'), verdict_rows))
    print()
    print(rst_table(('test', 'kernel', 'mode', 'runs', 'median metrics'), metric_rows))
    with open(os.path.join(out, 'matrix.json'), 'w') as f:
        json.dump(report, f, indent=2)
        f.write('\n')
    if infra:
        print(f"mglru: runs the emulator crashed twice, counted neither way: {'; '.join(infra)}")
    if bad:
        print(f"mglru: the gate does not hold for: {' '.join(bad)}")
    if few_rows:
        print(f"mglru: too few runs for: {' '.join(few_rows)} (no outcome of so few runs"
              f" gives Fisher's p < {ALPHA:g}: REPEAT=5 at least)")
    if bad or few_rows:
        return 1
    print('mglru: every check detects its bug (>= 90%) with no false alarm')
    return 0


if __name__ == '__main__':
    sys.exit(main())
