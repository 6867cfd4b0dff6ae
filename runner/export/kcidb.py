#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Convert one run's results folder into a KCIDB document (schema v5.3,
kcidb-io's current one), checked with kcidb-io before it is written.

usage: kcidb.py RESULTS_DIR [-o FILE] [--origin NAME]
       kcidb.py --check FILE...   (validate KCIDB documents, any version)

Needs kcidb-io: run it with the project venv's Python,
$CACHE/venv/bin/python3 (runner/requirements.txt; make deps installs it).

Input: summary.json (kernel, expectations, KUnit cases), tree-info, the
KTAP files kselftest-<test>[.rN].ktap and kunit-<arch>.ktap, and
kunit-<arch>.json where present; summary.json alone is enough. Also read:
guest-<test>/console.log (a crash), guest-<test>/<test>[.rN].start (when
the guest started the program, seconds since the epoch) and
build-<kind>.failed (runner/run/suite.sh: the build failed; then summary.json
may be missing).

Objects
  checkout  one: the kernel (the Debian package of kernels.txt, or a KDIR
            tree), its version, the variant; patchset_hash over the
            applied patches (KCIDB's: the sha256 of the patches' sha256
            hashes, each followed by a newline; '' for none). A KDIR tree
            that is the top of a git work tree adds git_commit_hash,
            git_commit_name, git_repository_branch and, for an https
            remote (the branch's, else origin), git_repository_url without
            credentials; misc.git_dirty when it has uncommitted changes,
            read when kcidb.py runs. The id depends on these only, so runs
            of the same tree share it: <origin>:<kernel>:<version>:
            <variant>[:<commit, 12>[-dirty]]:<patchset_hash, 12>
  builds    the guest kernel (architecture x86_64, config_name the
            allnoconfig plus fragments, misc.config_sha1 from summary.json)
            and one per KUnit architecture (um or x86_64, kunitconfig);
            status PASS when it produced results. A guest build recorded
            in build-guest.failed has status FAIL (the compiler, linker or
            make found an error in the code) or ERROR (the machine or the
            tools failed), its log's first error and end as log_excerpt,
            and no tests. <origin>:<run>:guest or <origin>:<run>:kunit-<arch>,
            <run> the folder's name.
  tests     one per test point and run. A kselftest program's points sit
            under its path, kselftest.mm.mglru.<test> (KernelCI's
            kselftest.<collection>.<test>, the collection mm/mglru written
            mm.mglru): the point <test>_<mode> is
            kselftest.mm.mglru.<test>.<mode>, so that a dashboard rolls the
            points up into their program. KUnit cases
            kunit.<suite>.<case>[.<param>].
            start_time: the program's run's start as the guest recorded
            it, else the run's start.
            log_excerpt: the point's KTAP lines (diagnostics, metrics,
            result), at most 16 KiB, the start and the end kept.
            duration: the point's duration_s metric.
            misc: all metrics, the expectation and whether the result is
            unexpected (what fails summary.py's verdict), the KTAP file.
  metrics   each key metric (runner/selftests.txt) of a point that ran is
            a child test <point path>.<metric>, status DONE, with
            number {value, unit} (unit s, MiB, MiB/s or % from the name's
            suffix, none for counts); the rest stay in the point's misc.
  issues,   a FAIL, FLAKY or INFO expectation is a KCIDB issue, id
  incidents <origin>:expect:<file>:<point>, and each test of that point an
            incident linking to it: present when the test failed, absent
            when it passed. comment: "<point> <expectation>: " and the
            reason's first sentence, cut to about 200 characters (the
            whole reason is misc.reason). culprit: a FAIL is the code's
            (the kernel behaves so); a FLAKY or INFO point the tool's (the
            test cannot judge the kernel: the same kernel passes and
            fails). version: when the reason's text last changed, the
            commit time of the expectation line's last change (git blame;
            the file's mtime when not committed; for a file changed since
            the run, the newest of its last 50 commits with the run's
            text), else the run's start: it grows when the text changes,
            and runs of the same text share it.

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
  program timed out, or failed with    ERROR         path .../<test>, above
    every point passing, or no result                its points
  the guest crashed (no result, a      ERROR         path .../<test>, the
    panic, Oops or BUG on its console)               console from the crash
                                                     in log_excerpt
  the emulator crashed the guest       ERROR         path .../<test>, id
    (runner/crash.py; attempts.tsv):                 suffix :attemptK,
    each attempt of a run it cut short               misc.attempt K and
                                                     misc.runner the reason;
                                                     the rerun's tests
                                                     misc.attempt K+1
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
import subprocess
import sys

RUNNER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, RUNNER)  # the core (tables, ktap) and the job folders
from crash import attempts as crash_attempts, console_crash, run_name, verdict_attempt  # noqa: E402
from ktap import kselftest_runs, parse as parse_ktap, subtests  # noqa: E402
from run.kunit_cases import kunit_cases, point_name  # noqa: E402
from run.summary import judge, numeric, read_tree_info  # noqa: E402
from tables import expectation_lines, expectations, kernels, key_metrics, unit  # noqa: E402

SCHEMA = (5, 3)
ORIGIN = 'mglru_suite'
COLLECTION = 'kselftest.mm.mglru'
EXCERPT_MAX = 16384
COMMENT_MAX = 200
SUITE_ROOT = os.path.dirname(RUNNER)
# the layers an expectation blames (issue.culprit): a FAIL is the kernel's
# behaviour; a FLAKY or INFO point is one the test cannot judge
CULPRIT = {'FAIL': {'code': True, 'tool': False, 'harness': False},
           'FLAKY': {'code': False, 'tool': True, 'harness': False},
           'INFO': {'code': False, 'tool': True, 'harness': False}}

KUNIT_FILE = re.compile(r'^kunit-(\w+)\.(json|ktap)$')
FAILED_BUILD = re.compile(r'^build-([\w-]+)\.failed$')
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


def finite(value):
    """A number KCIDB can hold: JSON has no NaN or infinity."""
    return numeric(value) and math.isfinite(value)


def kunit_excerpts(path):
    """{point: KTAP lines} for the cases of a kunit.py test.log."""
    return {point_name(('kunit',) + names): lines for names, lines in subtests(path).items()}


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


def point_path(test, point):
    """A kselftest point's path, under its program's: the point <test>_<mode>
    of the program <test> is kselftest.mm.mglru.<test>.<mode>."""
    prog = f'{COLLECTION}.{seg(test)}'
    if point == test:
        return prog
    rest = point[len(test) + 1:] if point.startswith(test + '_') else point
    return f'{prog}.{seg(rest)}'


def guest_config(hz, kernel=None):
    """The guest build's config_name: Debian's, for its binary image (a build
    Debian made: its packages and version name it), else the suite's."""
    k = kernel or {}
    if k.get('guest') == 'binary':
        return f"Debian {k.get('image_release', '?')} ({k.get('image_version', '?')})"
    return ('allnoconfig + configs/vng-guest-x86_64.config + '
            'tools/testing/selftests/mm/mglru/config' + (f' + CONFIG_HZ_{hz}' if hz else ''))


def first_sentence(text, limit=COMMENT_MAX):
    """The text's first sentence, cut at a word to about limit characters:
    an issue's comment is its title on a dashboard."""
    text = ' '.join(text.split())
    m = re.search(r'[.!?](?=\s+[A-Z])', text)
    if m:
        text = text[:m.end()]
    if len(text) <= limit:
        return text
    cut = text.rfind(' ', 0, limit)
    return text[:cut if cut > limit // 2 else limit].rstrip(' ,;:(') + ' ...'


def patchset_hash(paths):
    """KCIDB's hash of the patches applied, in order: the sha256 of their
    sha256 hashes, each followed by a newline ("sha256sum *.patch | cut
    -c-64 | sha256sum | cut -c-64"); '' without patches, None when one
    cannot be read."""
    digests = ''
    for path in paths:
        try:
            with open(path, 'rb') as f:
                digests += hashlib.sha256(f.read()).hexdigest() + '\n'
        except OSError:
            return None
    return hashlib.sha256(digests.encode()).hexdigest() if paths else ''


def git(cwd, *args):
    """git's output in cwd without its last newline; None when it fails."""
    env = {k: v for k, v in os.environ.items() if not k.startswith('GIT_')}
    try:
        p = subprocess.run(['git', '-C', cwd, *args], capture_output=True, text=True,
                           errors='replace', env=env, timeout=300)
    except (OSError, subprocess.SubprocessError):
        return None
    return p.stdout.rstrip('\n') if p.returncode == 0 else None


def https_url(url):
    """An https URL without its credentials; None for any other: KCIDB
    takes https only."""
    m = re.fullmatch(r'https://(?:[^/@\s]*@)?([^/@\s][^\0\s]*)', url or '')
    return f'https://{m.group(1)}' if m else None


def git_checkout(tree):
    """The git fields of a checkout whose tree is the top of a git work tree
    (a KDIR tree), and its misc (git_dirty: changes not committed); ({},
    {}) for any other tree."""
    if not tree or not os.path.isdir(tree):
        return {}, {}
    top = git(tree, 'rev-parse', '--show-toplevel')
    commit = git(tree, 'rev-parse', '--verify', '-q', 'HEAD^{commit}')
    if not top or os.path.realpath(top) != os.path.realpath(tree) or \
            not re.fullmatch(r'[0-9a-f]{40}', commit or ''):
        return {}, {}
    co, misc = {'git_commit_hash': commit}, {}
    name = git(tree, 'describe', '--tags', '--always')
    if name:
        co['git_commit_name'] = name
    branch = git(tree, 'symbolic-ref', '--short', '-q', 'HEAD')
    if branch:
        co['git_repository_branch'] = branch
    # the branch's remote, else origin, else the only one
    remotes = (git(tree, 'remote') or '').split()
    remote = git(tree, 'config', f'branch.{branch}.remote') if branch else None
    if remote not in remotes:
        remote = 'origin' if 'origin' in remotes else (remotes[0] if len(remotes) == 1 else None)
    url = https_url(git(tree, 'remote', 'get-url', remote)) if remote else None
    if url:
        co['git_repository_url'] = url
    if git(tree, 'status', '--porcelain', '--untracked-files=no'):
        misc['git_dirty'] = True
    return co, misc


def expectation_line(path, point):
    """(file, line number, reason) of the line that sets point's
    expectation in the expectations file path; None without one or when
    the file is gone."""
    if not os.path.isfile(path):
        return None
    e = expectations(path).get(point)
    return (e.path, e.line, e.reason) if e else None


def line_time(path, n, rev=None):
    """The commit time of the last change of line n of path (at rev, else
    in the work tree), its mtime when the line is not committed; None when
    git does not know the file."""
    where, base = os.path.split(os.path.abspath(path))
    out = git(where, 'blame', '--porcelain', '-L', f'{n},{n}', *([rev] if rev else []),
              '--', base)
    if not out:
        return None
    if set(out.split(' ', 1)[0]) == {'0'}:
        return int(os.path.getmtime(path))
    m = re.search(r'^committer-time (\d+)$', out, re.M)
    return int(m.group(1)) if m else None


def text_version(path, point, reason, history=50):
    """The version of point's expectation text: when its line was last
    changed, from the file as it is or, when the file changed since the
    run, from the newest of its last commits that has the text; None when
    neither has it."""
    line = expectation_line(path, point)
    if line and line[2] == reason:
        return line_time(line[0], line[1])
    file = line[0] if line else path
    where, base = os.path.split(os.path.abspath(file))
    for rev in (git(where, 'log', '-n', str(history), '--format=%H', '--', base) or '').split():
        found = None
        for n, name, _, r in expectation_lines(git(where, 'show', f'{rev}:./{base}') or ''):
            if name == point:
                found = (n, r)
        if found and found[1] == reason:
            return line_time(file, found[0], rev)
    return None


def build_excerpt(path):
    """A failed build's log: from a few lines before its first error, and
    its end."""
    try:
        with open(path, errors='replace') as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    i = next((i for i, line in enumerate(lines) if re.search(r'\berror\b', line, re.I)), None)
    if i is None:
        return excerpt(lines[-60:])
    end = i + 40
    rest = max(end, len(lines) - 30)
    cut = [f'[... {rest - end} lines cut ...]'] if rest > end else []
    return excerpt(lines[max(0, i - 5):end] + cut + lines[rest:])


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
        # the run id is the local time the run started (runner/run/suite.sh)
        start = (datetime.datetime.strptime(m.group(1), '%Y%m%d-%H%M%S').astimezone()
                 if m else None)
        self.start = start.isoformat() if start else None
        self.start_s = int(start.timestamp()) if start else None
        self.failed = {}
        for name in os.listdir(res):
            m = FAILED_BUILD.match(name)
            if m:
                self.failed[m.group(1)] = read_tree_info(os.path.join(res, name))

    def checkout(self):
        k = self.kernel
        applied = k.get('applied', '').split()
        phash = patchset_hash([os.path.join(SUITE_ROOT, p) for p in applied])
        git_co, git_misc = git_checkout(k.get('source'))
        if k.get('kernel') or k.get('version'):
            parts = [self.origin, k.get('kernel', '-'), k.get('version', '-'),
                     k.get('variant', 'default')]
            if git_co:
                parts.append(git_co['git_commit_hash'][:12] + ('-dirty' if git_misc else ''))
            # a patch that cannot be read: the names tell the patchsets apart
            parts.append(phash[:12] if phash is not None else
                         hashlib.sha1(' '.join(applied).encode()).hexdigest()[:12])
            cid = ':'.join(x or '-' for x in parts)
        else:
            cid = f'{self.origin}:{self.run}'
        row = kernels().get(k.get('kernel', ''))
        package = row.package if row else None
        sets = list(dict.fromkeys(os.path.basename(os.path.dirname(p)) for p in applied))
        comment = ' '.join(x for x in (
            f'Debian {package}' if package else k.get('kernel'), k.get('version'),
            f"variant {k['variant']}" if k.get('variant') else None,
            f"patches {', '.join(sets)}" if sets else None) if x)
        co = dict({'id': cid, 'origin': self.origin, 'valid': True}, **git_co)
        if phash is not None:
            co['patchset_hash'] = phash
        if comment:
            co['comment'] = comment
        if k.get('kernel'):
            co['tree_name'] = k['kernel']
        if self.start:
            co['start_time'] = self.start
        misc = dict(git_misc)
        for key, name in (('version', 'debian_version' if package else 'version'),
                          ('variant', 'variant'), ('uname', 'uname')):
            if k.get(key):
                misc[name] = k[key]
        if package:
            misc['debian_package'] = package
        if misc:
            co['misc'] = misc
        self.checkouts.append(co)
        return cid

    def build(self, checkout_id, kind, arch, config_name, compiler=None, status='PASS',
              misc=None):
        b = {'id': f'{self.origin}:{self.run}:{kind}', 'checkout_id': checkout_id,
             'origin': self.origin, 'architecture': arch, 'config_name': config_name,
             'comment': f'{kind} kernel of run {self.run}'}
        if status:
            b['status'] = status
        if compiler:
            b['compiler'] = compiler
        if self.start:
            b['start_time'] = self.start
        if misc:
            b['misc'] = misc
        self.builds.append(b)
        return b['id']

    def test(self, build_id, path, status, point, exp, skip_ok, lines=None, metrics=None,
             run=None, misc=None, environment=None, metric_keys=(), start=None, attempt=None,
             unexpected_=None):
        """A test of one point (and run, and attempt of a run the emulator
        cut short), its key metrics and its incident; unexpected_ overrides
        whether its status is unexpected."""
        suffix = f':r{run}' if run is not None else ''
        suffix += f':attempt{attempt}' if attempt is not None else ''
        tid = f'{build_id}:{path}{suffix}'
        exp_status, reason = exp
        t = {'id': tid, 'build_id': build_id, 'origin': self.origin, 'path': path,
             'status': status, 'comment': point}
        if start or self.start:
            t['start_time'] = start or self.start
        m = dict(misc or {})
        m['expected'] = exp_status
        if reason:
            m['expected_reason'] = reason
        m['unexpected'] = unexpected(status, exp_status, skip_ok) if unexpected_ is None \
            else unexpected_
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
            misc = {'expected': exp, 'test': point, 'expectations': name}
            if reason:
                misc['reason'] = reason
            self.issues[iid] = {
                'id': iid, 'version': self.version(point, reason), 'origin': self.origin,
                'culprit': dict(CULPRIT[exp]),
                'comment': (f'{point} {exp}: {first_sentence(reason)}' if reason else
                            f'{point} is expected to {exp.lower()}'),
                'misc': misc}
        present = test['status'] in ('FAIL', 'ERROR')
        self.incidents.append({
            'id': f"{test['id']}:{iid.split(':', 1)[1]}", 'origin': self.origin,
            'issue_id': iid, 'issue_version': self.issues[iid]['version'],
            'test_id': test['id'],
            'build_id': test['build_id'], 'present': present,
            'comment': f"{'known' if present else 'absent'}: {point} expected {exp}"})

    def version(self, point, reason):
        """An issue's version: when its expectation's text was last changed
        (text_version), else the run's start; 0 when neither is known."""
        path = self.summary.get('expectations')
        v = text_version(path, point, reason) if path else None
        return v if v is not None else (self.start_s or 0)

    def started(self, test, run, attempt_dir=''):
        """When a program's run started, as the guest recorded it in
        guest-<test>/[attempt1/]<test>[.rN].start (seconds since the
        epoch), else the run's start."""
        try:
            with open(os.path.join(self.res, f'guest-{test}', attempt_dir,
                                   f'{run_name(test, run)}.start')) as f:
                when = float(f.read().split()[0])
            return datetime.datetime.fromtimestamp(when).astimezone().isoformat()
        except (OSError, ValueError, IndexError, OverflowError):
            return self.start

    def crash(self, test, kind='kernel', attempt_dir=''):
        """The crash of that kind (the kernel's, or the emulator's) in one
        of test's boots, its last by default, from its console
        (runner/crash.py): the first line that says so and the console
        from there (60 lines), or None."""
        c = console_crash(os.path.join(self.res, f'guest-{test}', attempt_dir, 'console.log'),
                          self.summary.get('accelerator'))
        return (c.line, c.excerpt) if c and c.kind == kind else None

    def failed_build(self, checkout_id, kind, arch, config_name, info):
        """A build runner/run/suite.sh recorded as failed (build-<kind>.failed):
        FAIL (the code did not build) or ERROR (the machine or the tools
        failed), the log's first error and end as its excerpt; no tests."""
        status = info.get('status') if info.get('status') in ('FAIL', 'ERROR') else 'ERROR'
        log = info.get('log') or f'logs/build-{kind}.log'
        bid = self.build(checkout_id, kind, arch, config_name, status=status,
                         misc={'log': log, 'phase': info.get('phase', f'build-{kind}')})
        text = build_excerpt(os.path.join(self.res, log))
        if text and text.strip():
            self.builds[-1]['log_excerpt'] = text
        return bid

    def kselftests(self, checkout_id):
        s = self.summary
        hz = self.kernel.get('hz')
        if 'guest' in self.failed:
            info = self.failed['guest']
            self.failed_build(checkout_id, 'guest', 'x86_64', guest_config(info.get('hz', hz)),
                              info)
            return
        entries = {}
        for e in s.get('kselftest', []):
            point = f"{e['test']}_{e['mode']}" if e.get('mode') else e['test']
            entries[point] = e
        files = {}
        for test, n, path in kselftest_runs(self.res):
            files.setdefault(test, []).append((n, os.path.basename(path)))
        if not files and not entries:
            return
        accel = s.get('accelerator')
        env = {'comment': 'virtme-ng QEMU guest' + (f' ({accel})' if accel else '')}
        env_misc = {k: v for k, v in (('accelerator', accel),
                                      ('tcg_thread', s.get('tcg_thread')),
                                      ('guest_append', s.get('guest_append')),
                                      ('provoke_flips', s.get('provoke_flips')),
                                      ('uname', self.kernel.get('uname'))) if v}
        if env_misc:
            env['misc'] = env_misc
        consoles = sorted(n for n in os.listdir(self.res) if n.startswith('guest-'))
        compiler = next(filter(None, (compiler_of(os.path.join(self.res, n, 'console.log'))
                                      for n in consoles)), None)
        misc = {k: self.kernel[k] for k in ('config_sha1', 'hz', 'guest', 'image',
                                              'image_version', 'image_release')
                if self.kernel.get(k)}
        bid = self.build(checkout_id, 'guest', 'x86_64', guest_config(hz, self.kernel),
                         compiler, misc=misc or None)

        def expectation(point):
            e = entries.get(point)
            return (e['expected'], e.get('expected_reason', '')) if e else ('PASS', '')

        seen, crashed = set(), set()
        tries = crash_attempts(self.res)
        for test, runs in sorted(files.items()):
            runs.sort(key=lambda r: r[0] or 0)
            for n, name in runs:
                start = self.started(test, n)
                base = {'ktap': name}
                if n is not None:
                    base.update(run=n, runs=len(runs))
                # the attempts that the emulator cut short: ERROR, with why
                history = tries.get(run_name(test, n), [])
                got = verdict_attempt(history)
                for attempt, status, why in history:
                    if status != 'ERROR':
                        continue
                    seen.add(test)
                    # a first boot that crashed is always booted again,
                    # its files in attempt1/; the second's stay in place
                    sub = 'attempt1' if attempt == 1 else ''
                    crash = self.crash(test, 'emulator', sub)
                    why = (f'the emulator crashed the guest, not the kernel '
                           f'({"run again in a new boot" if got else "no attempt left"}): {why}')
                    lines = [f'--- guest-{test}/{sub + "/" if sub else ""}console.log:'] + \
                        (crash[1] if crash else [])
                    # unexpected only when no attempt gave the run a verdict
                    self.test(bid, point_path(test, test), 'ERROR', test, expectation(test), True,
                              lines, None, n, dict(base, runner=why, attempt=attempt), env, (),
                              self.started(test, n, sub), attempt=attempt,
                              unexpected_=None if got is None else False)
                if history and got is None:
                    continue
                if history:
                    base['attempt'] = got
                points, _, runner = parse_ktap(os.path.join(self.res, name))
                for point, p in points.items():
                    seen.add(point)
                    m = dict(base)
                    if p['directive'] in ('XFAIL', 'TODO'):
                        m['directive'] = p['directive']
                    e = entries.get(point)
                    if n is not None and e:
                        m.update(verdict=e['verdict'], verdicts=e.get('verdicts', {}))
                    self.test(bid, point_path(test, point), p['verdict'], point,
                              expectation(point), True, p['lines'], p['metrics'], n, m,
                              env, key_metrics(test), start)
                status, why = self.runner_status(points, runner)
                if not status:
                    continue
                seen.add(test)
                # the lines after the last point: all of them without one
                lines = runner['lines']
                crash = self.crash(test) if runner['result'] is None else None
                if crash and test not in crashed:
                    # the first run without a result is the one that crashed
                    crashed.add(test)
                    why = f'the guest crashed: {crash[0]}'
                    lines = lines + [f'--- guest-{test}/console.log:'] + crash[1]
                self.test(bid, point_path(test, test), status, test, expectation(test), True,
                          lines, None, n, dict(base, runner=why), env, (), start)
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
            self.test(bid, point_path(e['test'], point), status, point, expectation(point),
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
                             status='PASS' if cases else None)
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
        # a run whose build failed ends before its summary
        if not any(FAILED_BUILD.match(n) for n in os.listdir(res)):
            die(f'no summary.json in {res} (runner/run/summary.py writes it)')
        summary = {}
    except (OSError, ValueError) as e:
        die(f'{path}: {e}'.replace('\n', ' '))
    if not isinstance(summary, dict):
        die(f'{path}: not a summary of runner/run/summary.py')

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
