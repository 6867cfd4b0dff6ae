#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Score the KUnit suite from a mutation run, one stratum at a time.

usage: mutation_report.py WORK [--sample N] [--reasons FILE] [--out DIR]

Reads WORK/mutants.json and WORK/results.jsonl (mutation_run.py). The
score of a stratum is detected / (detected + survived), detected being
killed or timed out; mutants that do not build and equivalent ones do not
count. The census is every mutant of the lines the fixes touched; the
sample is the first N of the rest's seeded order (all of it when the rest
is smaller). The 95 % interval is Clopper-Pearson's over the mutants run:
while a stratum is only partly run, its run part is a random part (the
runner's seeded order), and the interval says what the whole would score.

REASONS has one line a survivor that no single-thread KUnit case can see:
'function | line | mutated line | reason', both lines as the report
prints them; 'function:N' where the same line is in the function twice
(N its line number). A reason that starts 'equivalent:' says why the
mutant computes what the original does: a stated equivalent, which does
not count either (and is listed with the survivors, its reason beside
it).

Writes WORK/report.txt; with --out, also DIR/kunit-mutation.txt (one row a
stratum and one a function, '|' separated) and
DIR/kunit-mutation-survivors.txt (one row a surviving mutant, with its
reason or none).
"""

import argparse
import collections
import json
import os
import statistics
import sys

from scipy.stats import binomtest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutation_run import read_results, verdict_key  # noqa: E402

VERDICTS = ('killed', 'timeout', 'survived', 'equivalent', 'stated equivalent', 'nobuild')


def load(work):
    """The mutants, the verdicts that hold for the run's tree stamp and
    judge (mutation_run.verdict_key()), and how many of its mutants ended
    in an error (not counted: run again)."""
    with open(os.path.join(work, 'mutants.json')) as f:
        data = json.load(f)
    key = verdict_key(work)
    res = {}
    for r in read_results(work):
        if r.get('key') == key:
            res[r['id']] = r  # the last verdict of a mutant counts
    errors = sum(1 for r in res.values() if r['verdict'] == 'error')
    return data, {i: r for i, r in res.items() if r['verdict'] != 'error'}, key, errors


def reasons(path):
    out = {}
    if path:
        with open(path) as f:
            for line in f:
                if line.strip() and not line.startswith('#'):
                    func, old, new, why = (x.strip() for x in line.split('|', 3))
                    out[(func, old, new)] = why
    return out


def code(text):
    """A line of code as the report prints it: '|' separates its fields."""
    return ' '.join(text.split()).replace('|', '¦')


def why_of(why, m):
    for func in (f"{m['func']}:{m['line']}", m['func']):
        r = why.get((func, code(m['old']), code(m['new'])))
        if r:
            return r
    return None


def score(counts):
    det = counts['killed'] + counts['timeout']
    n = det + counts['survived']
    if not n:
        return '-', '-'
    ci = binomtest(det, n).proportion_ci(0.95, method='exact')
    return f'{100 * det / n:.1f}', f'{100 * ci.low:.1f}-{100 * ci.high:.1f}'


def row(name, size, ms, res):
    c = collections.Counter(res[m['id']]['verdict'] for m in ms if m['id'] in res)
    s, ci = score(c)
    return [name, str(size), str(sum(c.values()))] + [str(c[v]) for v in VERDICTS] + [s, ci]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('work')
    ap.add_argument('--sample', type=int, default=300)
    ap.add_argument('--reasons')
    ap.add_argument('--out')
    a = ap.parse_args()
    why = reasons(a.reasons)
    data, res, current, errors = load(a.work)
    ms = data['mutants']
    # a survivor whose reason says it is equivalent, and why: out of the score
    for m in ms:
        r = res.get(m['id'])
        if r and r['verdict'] == 'survived' and (why_of(why, m) or '').startswith('equivalent:'):
            res[m['id']] = dict(r, verdict='stated equivalent')
    census = [m for m in ms if m['stratum'] == 'census']
    rest = [m for m in ms if m['stratum'] == 'rest']
    sample = [m for m in rest if m['order'] < a.sample]
    head = ['stratum', 'mutants', 'run'] + list(VERDICTS) + ['score %', '95 % CI']
    rows = [row('census', len(census), census, res),
            row(f'sample ({len(sample)} of {len(rest)})', len(sample), sample, res)]
    chosen = census + sample
    by_func = collections.OrderedDict()
    for m in chosen:
        by_func.setdefault(m['func'], []).append(m)
    frows = [row(f, len(v), v, res) for f, v in by_func.items()]
    secs = [res[m['id']]['secs'] for m in chosen if m['id'] in res]
    runs = [res[m['id']]['secs'] for m in chosen
            if m['id'] in res and res[m['id']]['verdict'] in ('killed', 'survived', 'timeout')]
    notes = [f'seed {data["seed"]}; {len(ms)} mutants of {len(data["regions"])} regions, '
             f'{len(data["census_lines"])} lines touched by the fixes',
             f'worker time {sum(secs) / 3600:.1f} h over {len(secs)} mutants'
             + (f'; a run (build, link, boot) median {statistics.median(runs):.0f} s, '
                f'max {max(runs):.0f} s' if runs else ''),
             f'every verdict of the stamp {current} (tree, unmutated files, test file and '
             'kunitconfig; judge)'
             + (f'; {errors} mutants ended in an error of the host, not counted: '
                'make mutation runs them again' if errors else '')]
    survivors = [m for m in chosen
                 if res.get(m['id'], {}).get('verdict') in ('survived', 'stated equivalent')]
    unexplained = [m for m in survivors if not why_of(why, m)]
    notes.append(f'{len(survivors)} survivors, {len(unexplained)} without a reason')

    def table(h, rs):
        w = [max(len(x[i]) for x in [h] + rs) for i in range(len(h))]
        return [' | '.join(x[i].ljust(w[i]) for i in range(len(h))).rstrip() for x in [h] + rs]

    text = ['# ' + n for n in notes] + table(head, rows) + [''] + \
        table(['function'] + head[1:], frows) + ['', f'survivors ({len(survivors)}):'] + \
        [f'  {m["id"]} {m["func"]}:{m["line"]} {m["stratum"]}: {m["old"].strip()}  =>  '
         f'{m["new"].strip()}  [{why_of(why, m) or "NO REASON"}]'
         for m in survivors]
    with open(os.path.join(a.work, 'report.txt'), 'w') as f:
        f.write('\n'.join(text) + '\n')
    print('\n'.join(text))
    if a.out:
        with open(os.path.join(a.out, 'kunit-mutation.txt'), 'w') as f:
            f.write('\n'.join(['# ' + n for n in notes] + table(head, rows + frows)) + '\n')
        with open(os.path.join(a.out, 'kunit-mutation-survivors.txt'), 'w') as f:
            srows = [[m['id'], f'{m["func"]}:{m["line"]}', m['stratum'], code(m['old']),
                      code(m['new']), why_of(why, m) or 'NO REASON']
                     for m in survivors]
            f.write('# the mutants that survived every case; in their code, ¦ is |\n')
            f.write('\n'.join(table(['id', 'where', 'stratum', 'line', 'mutant', 'why no case sees it'],
                                     srows)) + '\n')


if __name__ == '__main__':
    main()
