#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise one run's results folder: KUnit and kselftest verdicts, the
metrics the scenarios print as '# metric <test> <key>=<value>' diagnostics,
checked against the kernel's expectations file. Writes summary.json into the
folder, prints a table and exits 0 only when every result passed or matched
its recorded expectation."""

import argparse
import hashlib
import json
import os
import re
import sys

RUNNER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, RUNNER)  # the core (tables, ktap) and the job folders
from crash import attempts as crash_attempts, run_name, verdict_attempt  # noqa: E402
from ktap import kselftest_runs, verdicts as ktap_verdicts  # noqa: E402
from run.kunit_cases import kunit_cases  # noqa: E402
from tables import expectations, key_metrics, split_point  # noqa: E402

def runs_of(entry):
    """The per-run metrics of a summary.json kselftest entry: all_metrics
    with REPEAT=N, else the single run's metrics."""
    if not entry:
        return []
    if entry.get('all_metrics'):
        return entry['all_metrics']
    return [entry['metrics']] if entry.get('metrics') else []


def majority(counts):
    """The verdict of repeated runs, from {verdict: runs}: the majority's;
    ties count as FAIL; a run without a verdict (ERROR) makes it ERROR."""
    if 'ERROR' in counts:
        return 'ERROR'
    return max(sorted(counts), key=lambda v: (counts[v], v == 'FAIL'))


def numeric(v):
    """A metric value that is a number (a bool is not)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def read_tree_info(path):
    """The scratch tree's .mglru-suite file (key=value lines), {} if none."""
    info = {}
    try:
        with open(path) as f:
            for line in f:
                k, _, v = line.rstrip('\n').partition('=')
                if k:
                    info[k] = v
    except OSError:
        pass
    return info


def median_metrics(all_metrics):
    """Per key, the median over repeated runs of the numeric values."""
    keys = []
    for mt in all_metrics:
        keys += [k for k in mt if k not in keys]
    out = {}
    for k in keys:
        vals = [mt[k] for mt in all_metrics if k in mt]
        nums = sorted(v for v in vals if isinstance(v, (int, float)))
        if len(nums) == len(vals) and nums:
            mid = len(nums) // 2
            out[k] = nums[mid] if len(nums) % 2 else round((nums[mid - 1] + nums[mid]) / 2, 3)
        else:
            out[k] = vals[-1]
    return out


def judge(verdict, exp, point, bad, skip_ok=False):
    """The status shown for a verdict against its expectation (None: PASS
    expected); unexpected failures and unexpected passes go to bad, and an
    unexpected SKIP too unless skip_ok. An INFO point never goes to bad.
    An ERROR (the emulator crashed the run's guest twice: no verdict) always
    does, whatever the expectation."""
    if verdict == 'ERROR':
        bad.append(point)
        return 'ERROR (emulator)'
    if exp and exp[0] == 'INFO':
        return f'{verdict} (info)'
    if exp and exp[0] == 'FLAKY' and verdict in ('PASS', 'FAIL'):
        return f'{verdict} (known flaky)'
    if exp and exp[0] == verdict:
        return f'{verdict} (expected)'
    if exp and verdict == 'PASS':
        bad.append(point)
        return f'UNEXPECTED PASS (expected {exp[0]})'
    if verdict == 'FAIL' or (verdict == 'SKIP' and not skip_ok):
        bad.append(point)
    return verdict


def kunit_rows(path, arch, expect, summary, rows, bad):
    """One row per KUnit architecture with the case counts, and one per case
    that did not simply pass or has an expectation. A case is a test point
    'kunit.<suite>.<case>[.<parameter>]', the same on every architecture.
    A skipped case is not a pass: it fails unless expected."""
    cases = kunit_cases(path)
    counts = {}
    for st in cases.values():
        counts[st] = counts.get(st, 0) + 1
    summary['kunit'][arch] = {'counts': counts, 'cases': []}
    nbad = len(bad)
    for point, verdict in sorted(cases.items()):
        verdict = {'ERROR': 'FAIL'}.get(verdict, verdict)
        exp = expect.get(point)
        status = judge(verdict, exp, point, bad)
        summary['kunit'][arch]['cases'].append(
            {'test': point, 'verdict': verdict, 'expected': exp[0] if exp else 'PASS',
             'expected_reason': exp[1] if exp else ''})
        if exp or verdict != 'PASS':
            rows.append((point, arch, status, ''))
    if not cases:
        bad.append(f'kunit-{arch}')
    rows.insert(len(rows) - sum(1 for r in rows if r[1] == arch and r[0].startswith('kunit.')),
                (f'kunit ({arch})', '', 'PASS' if len(bad) == nbad and cases else 'FAIL',
                 ' '.join(f'{k.lower()}={v}' for k, v in sorted(counts.items()))))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('results')
    ap.add_argument('--tree-info', help='the scratch tree\'s .mglru-suite file')
    ap.add_argument('--config', help='the guest kernel .config')
    ap.add_argument('--expect', help='expectations file for this kernel')
    args = ap.parse_args()

    res = args.results
    if not os.path.isdir(res):
        sys.exit(f'mglru: error: no results folder {res}')
    summary = {'kernel': {}, 'kunit': {}, 'kselftest': []}

    if args.tree_info:
        summary['kernel'].update(read_tree_info(args.tree_info))
    if os.path.exists(os.path.join(res, 'guest-uname')):
        with open(os.path.join(res, 'guest-uname')) as f:
            summary['kernel']['uname'] = f.read().strip()
    if args.config and os.path.exists(args.config):
        with open(args.config, 'rb') as f:
            config = f.read()
        summary['kernel']['config_sha1'] = hashlib.sha1(config).hexdigest()
        hz = re.search(rb'^CONFIG_HZ=(\d+)$', config, re.M)
        if hz:
            summary['kernel']['hz'] = int(hz.group(1))
    if os.path.exists(os.path.join(res, 'accel')):
        with open(os.path.join(res, 'accel')) as f:
            summary['accelerator'] = f.read().strip()
    if os.path.exists(os.path.join(res, 'tcg-thread')):
        # TCG's threads, single or multi (kselftest.sh)
        with open(os.path.join(res, 'tcg-thread')) as f:
            summary['tcg_thread'] = f.read().strip()
    test_args = os.path.join(res, 'test-args')
    if os.path.exists(test_args):
        # make kselftest TEST_ARGS=...: a control's arguments
        with open(test_args) as f:
            summary['test_args'] = f.read().strip()
    guest_append = os.path.join(res, 'guest-append')
    if os.path.exists(guest_append):
        # make kselftest GUEST_APPEND=...: kernel parameters of the boots
        with open(guest_append) as f:
            summary['guest_append'] = f.read().strip()
    provoked = os.path.join(res, 'provoke-flips')
    if os.path.exists(provoked):
        # make kselftest PROVOKE_FLIPS=N: the emulator's crash provoked
        with open(provoked) as f:
            summary['provoke_flips'] = int(f.read().strip() or 0)
    expect = expectations(args.expect)
    summary['expectations'] = args.expect

    bad = []
    rows = []
    runs = {}
    for name in sorted(os.listdir(res)):
        m = re.match(r'kunit-(\w+)\.json$', name)
        if m:
            kunit_rows(os.path.join(res, name), m.group(1), expect, summary, rows, bad)
    # the runs of boots that the emulator crashed: each attempt, and the
    # runs that it crashed twice, ERROR with the reason
    tries = crash_attempts(res)
    summary['attempts'] = []
    emulator = []
    for test, n, path in kselftest_runs(res):
        run = run_name(test, n)
        for attempt, status, why in tries.get(run, []):
            summary['attempts'].append({'test': test, 'run': run, 'attempt': attempt,
                                        'status': status, 'reason': why})
        if verdict_attempt(tries.get(run)) is None:
            runs.setdefault(test, []).append(
                ('ERROR', {'runner': f'the emulator crashed the guest twice: {tries[run][-1][2]}'}))
            emulator.append(run)
            continue
        points, metrics, outer = ktap_verdicts(path)
        if not points:
            # the program died before reporting: use the runner's verdict
            verdict = outer[1] if outer else 'FAIL'
            points = {test: 'FAIL' if verdict == 'PASS' else verdict}
            metrics.setdefault(test, {})['runner'] = outer[2] if outer else 'no output'
        for point, verdict in points.items():
            runs.setdefault(point, []).append((verdict, metrics.get(point, {})))

    for point, results in runs.items():
        verdicts = [v for v, _ in results]
        counts = {v: verdicts.count(v) for v in set(verdicts)}
        verdict = majority(counts)
        test, mode = split_point(point)
        exp = expect.get(point)
        status = judge(verdict, exp, point, bad, skip_ok=True)
        entry = {'test': test, 'mode': mode, 'verdict': verdict,
                 'expected': exp[0] if exp else 'PASS',
                 'expected_reason': exp[1] if exp else '',
                 'runs': len(results), 'verdicts': counts,
                 'metrics': median_metrics([mt for _, mt in results])}
        if len(results) > 1:
            entry['all_metrics'] = [mt for _, mt in results]
            status = f'{status} [{counts.get("FAIL", 0)}/{len(results)} failed]'
        summary['kselftest'].append(entry)
        # the table keeps to the key metrics; summary.json has them all
        shown = ' '.join(f'{k}={entry["metrics"][k]}' for k in key_metrics(test)
                         if k in entry['metrics'])
        rows.append((test, mode, status, shown))

    summary['ok'] = not bad
    with open(os.path.join(res, 'summary.json'), 'w') as f:
        json.dump(summary, f, indent=2)
        f.write('\n')

    k = summary['kernel']
    print(f"kernel: {k.get('kernel', '?')} ({k.get('uname', k.get('version', '?'))})"
          f" variant={k.get('variant', '?')}"
          f" guest={k.get('guest', '?')}{' HZ=%s' % k['hz'] if 'hz' in k else ''}"
          f" accel={summary.get('accelerator', '-')}")
    w = max([len(r[0]) for r in rows] + [4])
    v = max([len(r[2]) for r in rows] + [8])
    for r in rows:
        print(f'{r[0]:<{w}}  {r[1]:<7}  {r[2]:<{v}}  {r[3]}')
    if bad:
        print(f"mglru: {len(bad)} unexpected result(s): {' '.join(bad)}")
    if emulator:
        print(f"mglru: error: the emulator (QEMU TCG) crashed the guest twice, not the kernel: "
              f"no verdict for {' '.join(emulator)} (summary.json's attempts)")
    print(f'summary: {os.path.join(res, "summary.json")}')
    return 0 if not bad else 1


if __name__ == '__main__':
    sys.exit(main())
