#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Convert one run's results folder into a KCIDB document (schema v5.3,
kcidb-io's current one), checked with kcidb-io before it is written.

usage: kcidb.py RESULTS_DIR [-o FILE] [--origin NAME]
       kcidb.py --check FILE...   (validate KCIDB documents, any version)

Needs kcidb-io: run it with the project venv's Python,
$CACHE/venv/bin/python3 (runner/requirements.txt; make deps installs it).

Input: summary.json (kernel, expectations, KUnit cases), the KTAP files
kselftest-<test>[.rN].ktap and kunit-<arch>.ktap, and kunit-<arch>.json
where present; summary.json alone is enough.

Objects
  checkout  one: the Debian kernel package (kernels.txt), its version, the
            variant and the applied patches; no git fields (the suite
            unpacks a source package). Its id depends on these only, so
            runs of the same tree share it:
            <origin>:<kernel>:<version>:<variant>:<sha1 of patches, 12>
  builds    the guest kernel (architecture x86_64, config_name the
            allnoconfig plus fragments, misc.config_sha1 from summary.json)
            and one per KUnit architecture (um or x86_64, kunitconfig);
            status PASS when it produced results. <origin>:<run>:guest or
            <origin>:<run>:kunit-<arch>, <run> the folder's name.
  tests     one per test point and run: kselftest points
            kselftest.mm.mglru.<test>_<mode>, KernelCI's
            kselftest.<collection>.<test> with the collection mm/mglru
            written mm.mglru; KUnit cases kunit.<suite>.<case>[.<param>].
            log_excerpt: the point's KTAP lines (diagnostics, metrics,
            result), at most 16 KiB, the start and the end kept.
            duration: the point's duration_s metric.
            misc: all metrics, the expectation and whether the result is
            unexpected (what fails summary.py's verdict), the KTAP file.
  metrics   each key metric (runner/selftests.txt) of a point that ran is
            a child test <point path>.<metric>, status DONE, with
            number {value, unit} (unit s, MiB, MiB/s or % from the name's
            suffix, none for counts); the rest stay in the point's misc.
  issues,   a FAIL, FLAKY or INFO expectation is a KCIDB issue (the
  incidents expectations file's reason as comment, id
            <origin>:expect:<file>:<point>,
            version 0) and each test of that point an incident linking to
            it: present when the test failed, absent when it passed.

Builds get the run's start as start_time (the folder's name, local time);
--origin names the submitting CI system (default mglru_suite).

REPEAT=N: one test per run (test id suffix :rN, misc.run and misc.runs,
misc.verdict the majority's from summary.json): KCIDB keeps every run of a
path and summarises them itself, so the runs' verdicts and metrics reach it
unaveraged. Without KTAP files a point is one test with summary.json's
majority verdict and median metrics.

Status mapping (KCIDB has no XFAIL: the status is the result, the
expectation is misc plus an incident of the point's issue)

  result                               KCIDB status  misc / incident
  ok                                   PASS
  not ok                               FAIL
  ok|not ok # SKIP                     SKIP
  ok # XFAIL (KTAP)                    PASS          misc.directive XFAIL
  not ok # TIMEOUT (point)             ERROR
  program reported no point (timeout,  ERROR         path .../<test>,
    crash, no output)                                misc.runner
  program # SKIP without points        SKIP
  program timed out, or failed with    ERROR         path .../<test>, next
    every point passing, or no result                to its points
  KUnit PASS / FAIL / SKIP / ERROR     same          (ERROR needs
                                                     kunit-<arch>.json:
                                                     summary.json has FAIL)
  KUnit architecture without results   MISS          path kunit
  expected FAIL that failed            FAIL          expected FAIL,
                                                     unexpected false,
                                                     incident present
  expected FAIL that passed            PASS          unexpected true,
                                                     incident absent
  FLAKY                                PASS or FAIL  unexpected false,
                                                     incident present if
                                                     failed, absent if not
  INFO (out of the gate on purpose)    the result    unexpected false,
                                                     incident as FLAKY's
  key metric of a point                DONE          number
"""

import argparse
import datetime
import hashlib
import json
import math
import os
import re
import sys

from kunit_cases import kunit_cases, point_name
from selftests import kernels, key_metrics
from summary import judge, numeric, parse_ktap, read_tree_info

SCHEMA = (5, 3)
ORIGIN = 'mglru_suite'
COLLECTION = 'kselftest.mm.mglru'
EXCERPT_MAX = 16384
HERE = os.path.dirname(os.path.abspath(__file__))

KSELFTEST_FILE = re.compile(r'^kselftest-(\w+?)(?:\.r(\d+))?\.ktap$')
KUNIT_FILE = re.compile(r'^kunit-(\w+)\.(json|ktap)$')
KTAP_LINE = re.compile(r'^(\s*)(not ok|ok) \d+ (?:- )?(\S+)')
SUBTEST = re.compile(r'^(\s*)# Subtest: (\S+)')
TIMESTAMP = re.compile(r'^\[\s*\d+\.\d+\] ?')
LINUX_VERSION = re.compile(r'Linux version \S+ \(\S+\) \((.+)\) #\d+')


def die(msg):
    sys.exit(f'mglru: error: {msg}')


def seg(name):
    """One KCIDB path segment: [A-Za-z0-9_-]+."""
    return re.sub(r'[^A-Za-z0-9_-]+', '_', name).strip('_') or 'unnamed'


def excerpt(lines, limit=EXCERPT_MAX):
    """The lines as one text of at most limit characters: when longer, the
    first lines (what ran) and the last ones (how it ended) are kept."""
    text = ''.join(f'{line}\n' for line in lines).replace('\0', '')
    if len(text) <= limit:
        return text
    head = ''.join(f'{line}\n' for line in lines[:8])[:limit // 4]
    tail = text[-(limit - len(head) - 40):]
    tail = tail[tail.find('\n') + 1:]
    cut = text.count('\n') - head.count('\n') - tail.count('\n')
    return f'{head}[... {cut} lines cut ...]\n{tail}'


def unit(key):
    for suffix, u in (('mib_per_s', 'MiB/s'), ('_mib', 'MiB'), ('_pct', '%'), ('_s', 's')):
        if key.endswith(suffix):
            return u
    return None


def finite(value):
    """A number KCIDB can hold: JSON has no NaN or infinity."""
    return numeric(value) and math.isfinite(value)


def kunit_excerpts(path):
    """{point: KTAP lines} for the cases of a kunit.py test.log: each case's
    result line and the lines since the previous result."""
    out, stack, block, started = {}, [], [], False
    with open(path, errors='replace') as f:
        for raw in f:
            line = TIMESTAMP.sub('', raw.rstrip('\n'))
            if not started:
                started = re.match(r'\s*K?TAP version', line) is not None
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
            m = KTAP_LINE.match(line)
            if not m:
                continue
            indent = len(m.group(1))
            if stack and stack[-1][0] > indent:
                # a suite's own result line closes it
                while stack and stack[-1][0] > indent:
                    stack.pop()
            else:
                names = [name for i, name in stack if i <= indent]
                out[point_name(['kunit'] + names + [m.group(3)])] = block
            block = []
    return out


def compiler_of(path):
    """The compiler of the 'Linux version' banner in a console log."""
    try:
        with open(path, errors='replace') as f:
            for line in f:
                m = LINUX_VERSION.search(line)
                if m:
                    return m.group(1).split(', ')[0]
    except OSError:
        pass
    return None


def unexpected(status, exp, skip_ok):
    """True when the status counts against the run, as summary.py judges
    it; an ERROR or a MISS is judged as the FAIL summary.py records."""
    bad = []
    judge({'ERROR': 'FAIL', 'MISS': 'FAIL'}.get(status, status),
          None if exp == 'PASS' else (exp, ''), '', bad, skip_ok)
    return bool(bad)


class Document:
    """The KCIDB document of one results folder."""

    def __init__(self, res, summary, origin):
        self.res, self.summary, self.origin = res, summary, origin
        self.run = os.path.basename(os.path.realpath(res))
        k = read_tree_info(os.path.join(res, 'tree-info'))
        k.update(summary.get('kernel') or {})
        self.kernel = k
        exp = summary.get('expectations')
        self.expect_name = os.path.splitext(os.path.basename(exp))[0] if exp else None
        self.checkouts, self.builds, self.tests = [], [], []
        self.issues, self.incidents = {}, []
        m = re.match(r'(\d{8}-\d{6})-', self.run)
        # the run id is the local time the run started (runner/suite.sh)
        self.start = (datetime.datetime.strptime(m.group(1), '%Y%m%d-%H%M%S')
                      .astimezone().isoformat() if m else None)

    def checkout(self):
        k = self.kernel
        applied = k.get('applied', '').split()
        if k.get('kernel') or k.get('version'):
            phash = hashlib.sha1(' '.join(applied).encode()).hexdigest()[:12]
            cid = ':'.join([self.origin, k.get('kernel', '-'), k.get('version', '-'),
                            k.get('variant', 'default'), phash])
        else:
            cid = f'{self.origin}:{self.run}'
        package = kernels().get(k.get('kernel', ''))
        comment = ' '.join(x for x in (
            f'Debian {package}' if package else k.get('kernel'), k.get('version'),
            f"variant {k['variant']}" if k.get('variant') else None) if x)
        co = {'id': cid, 'origin': self.origin, 'valid': True,
              'misc': {'applied': applied}}
        if comment:
            co['comment'] = comment
        if k.get('kernel'):
            co['tree_name'] = k['kernel']
        for key, name in (('version', 'debian_version'), ('variant', 'variant'),
                          ('uname', 'uname')):
            if k.get(key):
                co['misc'][name] = k[key]
        if package:
            co['misc']['debian_package'] = package
        self.checkouts.append(co)
        return cid

    def build(self, checkout_id, kind, arch, config_name, compiler=None, status=True, misc=None):
        b = {'id': f'{self.origin}:{self.run}:{kind}', 'checkout_id': checkout_id,
             'origin': self.origin, 'architecture': arch, 'config_name': config_name,
             'comment': f'{kind} kernel of run {self.run}'}
        if status:
            b['status'] = 'PASS'
        if compiler:
            b['compiler'] = compiler
        if self.start:
            b['start_time'] = self.start
        if misc:
            b['misc'] = misc
        self.builds.append(b)
        return b['id']

    def test(self, build_id, path, status, point, exp, skip_ok, lines=None, metrics=None,
             run=None, misc=None, environment=None, metric_keys=()):
        """A test of one point (and run), its key metrics and its incident."""
        suffix = f':r{run}' if run is not None else ''
        tid = f'{build_id}:{path}{suffix}'
        exp_status, reason = exp
        t = {'id': tid, 'build_id': build_id, 'origin': self.origin, 'path': path,
             'status': status, 'comment': point}
        m = dict(misc or {})
        m['expected'] = exp_status
        if reason:
            m['expected_reason'] = reason
        m['unexpected'] = unexpected(status, exp_status, skip_ok)
        if metrics:
            # JSON has no NaN nor infinity: such a value stays a string
            m['metrics'] = {k: v if finite(v) or not isinstance(v, float) else str(v)
                            for k, v in metrics.items()}
            if finite(metrics.get('duration_s')):
                t['duration'] = metrics['duration_s']
        if lines:
            text = excerpt(lines)
            if text.strip():
                t['log_excerpt'] = text
        if environment:
            t['environment'] = environment
        t['misc'] = m
        self.tests.append(t)
        for key in metric_keys:
            value = (metrics or {}).get(key)
            if not finite(value) or status not in ('PASS', 'FAIL', 'ERROR'):
                continue
            num = {'value': value}
            if unit(key):
                num['unit'] = unit(key)
            cpath = f'{path}.{seg(key)}'
            child = dict(t, id=f'{build_id}:{cpath}{suffix}', path=cpath,
                         status='DONE', number=num, comment=f'{point} {key}',
                         misc=dict({'metric': key}, **({'run': run} if suffix else {})))
            child.pop('log_excerpt', None)
            child.pop('duration', None)
            self.tests.append(child)
        if exp_status in ('FAIL', 'FLAKY', 'INFO') and status != 'SKIP':
            self.incident(t, point, exp_status, reason)

    def incident(self, test, point, exp, reason):
        name = self.expect_name or 'expectations'
        iid = f'{self.origin}:expect:{name}:{point}'
        if iid not in self.issues:
            self.issues[iid] = {
                'id': iid, 'version': 0, 'origin': self.origin,
                'comment': reason or f'{point} is expected to {exp.lower()}',
                'misc': {'expected': exp, 'test': point, 'expectations': name}}
        present = test['status'] in ('FAIL', 'ERROR')
        self.incidents.append({
            'id': f"{test['id']}:{iid.split(':', 1)[1]}", 'origin': self.origin,
            'issue_id': iid, 'issue_version': 0, 'test_id': test['id'],
            'build_id': test['build_id'], 'present': present,
            'comment': f"{'known' if present else 'absent'}: {point} expected {exp}"})

    def kselftests(self, checkout_id):
        s = self.summary
        entries = {}
        for e in s.get('kselftest', []):
            point = f"{e['test']}_{e['mode']}" if e.get('mode') else e['test']
            entries[point] = e
        files = {}
        for name in os.listdir(self.res):
            m = KSELFTEST_FILE.match(name)
            if m:
                files.setdefault(m.group(1), []).append(
                    (int(m.group(2)) if m.group(2) else None, name))
        if not files and not entries:
            return
        accel = s.get('accelerator')
        env = {'comment': 'virtme-ng QEMU guest' + (f' ({accel})' if accel else '')}
        env_misc = {k: v for k, v in (('accelerator', accel),
                                      ('uname', self.kernel.get('uname'))) if v}
        if env_misc:
            env['misc'] = env_misc
        consoles = sorted(n for n in os.listdir(self.res) if n.startswith('guest-'))
        compiler = next(filter(None, (compiler_of(os.path.join(self.res, n, 'console.log'))
                                      for n in consoles)), None)
        sha = self.kernel.get('config_sha1')
        hz = self.kernel.get('hz')
        bid = self.build(checkout_id, 'guest', 'x86_64',
                         'allnoconfig + configs/vng-guest-x86_64.config + '
                         'tools/testing/selftests/mm/mglru/config' +
                         (f' + CONFIG_HZ_{hz}' if hz else ''), compiler,
                         misc={'config_sha1': sha} if sha else None)

        def expectation(point):
            e = entries.get(point)
            return (e['expected'], e.get('expected_reason', '')) if e else ('PASS', '')

        seen = set()
        for test, runs in sorted(files.items()):
            runs.sort(key=lambda r: r[0] or 0)
            for n, name in runs:
                points, _, runner = parse_ktap(os.path.join(self.res, name))
                base = {'ktap': name}
                if n is not None:
                    base.update(run=n, runs=len(runs))
                for point, p in points.items():
                    seen.add(point)
                    m = dict(base)
                    if p['directive'] in ('XFAIL', 'TODO'):
                        m['directive'] = p['directive']
                    e = entries.get(point)
                    if n is not None and e:
                        m.update(verdict=e['verdict'], verdicts=e.get('verdicts', {}))
                    self.test(bid, f'{COLLECTION}.{seg(point)}', p['verdict'], point,
                              expectation(point), True, p['lines'], p['metrics'], n, m,
                              env, key_metrics(test))
                status, why = self.runner_status(points, runner)
                if status:
                    seen.add(test)
                    # the lines after the last point: all of them without one
                    self.test(bid, f'{COLLECTION}.{seg(test)}', status, test,
                              expectation(test), True, runner['lines'], None, n,
                              dict(base, runner=why), env)
        # points of summary.json without a KTAP file: its majority verdict
        for point, e in entries.items():
            if point in seen:
                continue
            status = e['verdict']
            metrics = dict(e.get('metrics') or {})
            why = metrics.pop('runner', None)
            if why is not None and status != 'SKIP':
                status = 'ERROR'
            m = {'runs': e.get('runs', 1), 'verdicts': e.get('verdicts', {})}
            if why is not None:
                m['runner'] = why
            self.test(bid, f'{COLLECTION}.{seg(point)}', status, point, expectation(point),
                      True, None, metrics, None, m, env, key_metrics(e['test']))

    @staticmethod
    def runner_status(points, runner):
        """The status of the program as a whole when its points do not say
        it all (None otherwise), and why."""
        result, directive = runner['result'], runner['directive']
        why = directive or (result and f'{result} without a directive') or 'no result line'
        if not points:
            if result == 'ok' and directive.startswith('SKIP'):
                return 'SKIP', why
            return 'ERROR', f'no test point reported ({why})'
        if directive.startswith('TIMEOUT'):
            return 'ERROR', why
        if result is None:
            return 'ERROR', 'the kselftest runner gave no result (the guest died?)'
        if result == 'not ok' and not any(p['verdict'] in ('FAIL', 'ERROR')
                                          for p in points.values()):
            return 'ERROR', f'the program failed with every test point passing ({why})'
        return None, None

    def kunit(self, checkout_id):
        s = self.summary
        arches = {}
        for arch, k in (s.get('kunit') or {}).items():
            arches.setdefault(arch, {})['summary'] = k
        for name in os.listdir(self.res):
            m = KUNIT_FILE.match(name)
            if m:
                arches.setdefault(m.group(1), {})[m.group(2)] = os.path.join(self.res, name)
        for arch, src in sorted(arches.items()):
            summary_cases = {c['test']: c for c in src.get('summary', {}).get('cases', [])}
            if 'json' in src:
                try:
                    cases = kunit_cases(src['json'])
                except (OSError, ValueError, KeyError) as e:
                    die(f"{src['json']}: not a kunit.py result: {e}")
            else:
                cases = {t: c['verdict'] for t, c in summary_cases.items()}
            lines = kunit_excerpts(src['ktap']) if 'ktap' in src else {}
            compiler = compiler_of(src['ktap']) if 'ktap' in src else None
            bid = self.build(checkout_id, f'kunit-{arch}', arch,
                             'kunitconfig (kunit.py run --kunitconfig)', compiler,
                             status=bool(cases))
            env = {'comment': 'kunit.py, ' + ('UML' if arch == 'um' else f'QEMU {arch}')}
            ktap = os.path.basename(src['ktap']) if 'ktap' in src else None
            base = {'ktap': ktap} if ktap else {}
            if not cases:
                # the end of the KTAP output, else of the phase's log
                tail = []
                for log in (src.get('ktap'), os.path.join(self.res, 'logs', f'kunit-{arch}.log')):
                    if not tail and log and os.path.isfile(log):
                        with open(log, errors='replace') as f:
                            tail = f.read().splitlines()[-40:]
                self.test(bid, 'kunit', 'MISS', 'kunit', ('PASS', ''), False,
                          tail or ['(no KUnit output)'], None, None,
                          dict(base, runner='kunit.py wrote no results'), env)
                continue
            for point, status in sorted(cases.items()):
                c = summary_cases.get(point, {})
                exp = (c.get('expected', 'PASS'), c.get('expected_reason', ''))
                self.test(bid, '.'.join(seg(x) for x in point.split('.')), status, point,
                          exp, False, lines.get(point), None, None, dict(base), env)

    def document(self):
        cid = self.checkout()
        self.kunit(cid)
        self.kselftests(cid)
        doc = {'version': {'major': SCHEMA[0], 'minor': SCHEMA[1]},
               'checkouts': self.checkouts, 'builds': self.builds, 'tests': self.tests}
        if self.issues:
            doc['issues'] = list(self.issues.values())
            doc['incidents'] = self.incidents
        return doc


def kcidb_io():
    try:
        import kcidb_io as io
        import jsonschema
    except ImportError:
        die('kcidb-io is not installed: run this with the venv\'s Python, '
            '$CACHE/venv/bin/python3 (make deps installs it)')
    return io, jsonschema


def validate(doc, what):
    """Check doc with kcidb-io's latest schema (which accepts the earlier
    versions it descends from); one line and exit 1 when invalid."""
    io, jsonschema = kcidb_io()
    try:
        io.schema.LATEST.validate(doc)
    except jsonschema.exceptions.ValidationError as e:
        where = '/'.join(str(x) for x in e.absolute_path) or 'top level'
        die(f'{what}: not valid KCIDB (kcidb-io {io.schema.LATEST}): {e.message} at {where}'
            .replace('\n', ' '))
    return io.schema.LATEST


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('results', nargs='?', help='results folder of one run')
    ap.add_argument('-o', '--output', help='write the document here (default: stdout)')
    ap.add_argument('--origin', default=ORIGIN,
                    help=f'the KCIDB origin, your CI system\'s name (default {ORIGIN})')
    ap.add_argument('--check', nargs='+', metavar='FILE',
                    help='only validate these KCIDB JSON documents')
    args = ap.parse_args()

    if args.check:
        for path in args.check:
            try:
                with open(path) as f:
                    doc = json.load(f)
            except (OSError, ValueError) as e:
                die(f'{path}: cannot read a JSON document: {e}'.replace('\n', ' '))
            v = validate(doc, path)
            print(f'{path}: valid KCIDB (kcidb-io {v})')
        return 0
    if not args.results:
        die('no results folder given (kcidb.py RESULTS_DIR [-o FILE], or --check FILE...)')
    if not re.fullmatch(r'[a-z0-9_]+', args.origin):
        die(f'--origin {args.origin}: KCIDB origins are [a-z0-9_]+')
    res = args.results
    if not os.path.isdir(res):
        die(f'no results folder {res}')
    path = os.path.join(res, 'summary.json')
    try:
        with open(path) as f:
            summary = json.load(f)
    except FileNotFoundError:
        die(f'no summary.json in {res} (runner/summary.py writes it)')
    except (OSError, ValueError) as e:
        die(f'{path}: {e}'.replace('\n', ' '))
    if not isinstance(summary, dict):
        die(f'{path}: not a summary of runner/summary.py')

    doc = Document(res, summary, args.origin).document()
    validate(doc, res)
    text = json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False) + '\n'
    if args.output:
        with open(args.output, 'w', encoding='utf-8') as f:
            f.write(text)
        print(f"kcidb: {args.output}: {len(doc['tests'])} tests, "
              f"{len(doc.get('incidents', []))} incidents", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
