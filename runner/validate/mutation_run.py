#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the KUnit suites against each generated mutant, resumably.

usage: mutation_run.py WORK TREE BUILD KUNITCONFIG [--sample N] [--only IDS]
                       [--worker K --workers N]

WORK holds mutants.json (mutation_gen.py) and results.jsonl, one line a
verdict, appended as each mutant ends: a rerun skips what is recorded;
WORK/pristine the unmutated files. TREE is a mutation tree (a copy of the
KUnit tree), BUILD its UML build folder: worker K of N takes every Nth
mutant, in a tree and a build folder of its own. For each mutant, in a seeded random order of the census and the
sample (the first N of the rest's order), so that a run cut short is a
random part of each stratum:

  nobuild     the mutant does not compile or link: it does not count;
  equivalent  every object the mutated file goes into is identical to the
              unmutated one (trivial compiler equivalence): no run;
  killed      a case that passes on the unmutated tree fails (or errs),
              or the kernel panics: what kunit.py run reports as a
              failure. A case that skips is not a failure, to kunit.py as
              here (the record lists such cases);
  timeout     the run did not end within the time limit (over ten times
              the unmutated run, and 20 s at least);
  survived    every such case passes or skips;
  error       the host's failure, not the mutant's: the kernel printed
              nothing, was killed by a signal it did not raise, ran out of
              the host's /dev/shm, or ended short of its last case without
              a panic; or its log did not parse. Not counted (the report
              says how many), and run again.

Every verdict is tied to WORK/tree.stamp, which mutation.sh writes: a hash
of the tree, the unmutated files, the test file and the kunitconfig, and
to this file, which judges it. A verdict of another stamp or judge does
not count, and the mutant runs again. The
mutated file is put back after every mutant, and before the first one,
with the objects built from it (a run killed halfway leaves no mutant
behind, in the tree or in the build); SIGTERM ends the run as Ctrl-C does,
make, the UML kernel and the mutated file with it.
"""

import argparse
import glob
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from run.kunit_cases import kunit_cases  # noqa: E402

FILTER = 'mglru*'
# A UML kernel's panic: it prints this, then ends by abort() (uml_abort()),
# SIGABRT; the host's OOM killer and the timeout end it by SIGKILL
PANIC = 'Kernel panic - not syncing'
# ... unless the host's /dev/shm, UML's memory, ran out: SIGBUS, then a panic
HOST_SHM = ('Bus error - the host', 'Kernel mode signal 7')


def verdict_key(work):
    """What a verdict of a run in WORK holds for: its tree stamp (written by
    mutation.sh), and the judge, this file."""
    try:
        with open(os.path.join(work, 'tree.stamp')) as f:
            stamp = f.read().strip()
    except OSError as e:
        sys.exit(f'mutation: no tree stamp in {work}: {e}')
    if not stamp:
        sys.exit(f'mutation: an empty tree stamp in {work}')
    with open(os.path.abspath(__file__), 'rb') as f:
        return f'{stamp}-{hashlib.sha1(f.read()).hexdigest()[:8]}'


def read_results(work):
    """The records of WORK/results.jsonl, in order."""
    path = os.path.join(work, 'results.jsonl')
    if not os.path.exists(path):
        return []
    out = []
    with open(path) as f:
        for line in f:
            try:
                out.append(json.loads(line))
            except ValueError:
                continue  # the last line of a worker killed mid-write
    return out


def log(msg):
    print(time.strftime('[%H:%M:%S] ') + msg, file=sys.stderr, flush=True)


class Runner:
    def __init__(self, args):
        self.work, self.tree, self.build = args.work, args.tree, args.build
        self.kunitconfig = args.kunitconfig
        self.jobs = args.jobs
        self.pristine = os.path.join(self.work, 'pristine')
        self.worker, self.workers = args.worker, args.workers
        self.logs = os.path.join(self.work, 'logs')
        os.makedirs(self.logs, exist_ok=True)
        with open(os.path.join(self.work, 'mutants.json')) as f:
            self.data = json.load(f)
        self.files = sorted({m['file'] for m in self.data['mutants']})
        self.key = verdict_key(self.work)

    # -- the tree --------------------------------------------------------
    def put_back(self):
        """Put the unmutated files back in the tree, and drop the objects
        built from them, which a run stopped halfway may have built from a
        mutant after its file was put back."""
        for rel in self.files:
            if not os.path.exists(os.path.join(self.pristine, rel)):
                sys.exit(f'mutation_run.py: no unmutated copy of {rel} in {self.pristine}')
            self.restore(rel)
            for obj in self.objects(rel):
                os.remove(os.path.join(self.build, obj))

    def write(self, rel, lines):
        """Replace rel in the tree (a new file with a new mtime)."""
        path = os.path.join(self.tree, rel)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix='.mutation.')
        with os.fdopen(fd, 'w') as f:
            f.writelines(lines)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)

    def restore(self, rel):
        with open(os.path.join(self.pristine, rel)) as f:
            lines = f.readlines()
        with open(os.path.join(self.tree, rel)) as f:
            if f.readlines() != lines:
                self.write(rel, lines)

    # -- the build -------------------------------------------------------
    def make(self, targets, logfile):
        cmd = ['make', 'ARCH=um', f'O={self.build}', f'-j{self.jobs}',
               'CC=ccache gcc'] + targets
        with open(logfile, 'a') as out:
            p = subprocess.Popen(cmd, cwd=self.tree, stdout=out, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, start_new_session=True)
            try:
                return p.wait() == 0
            finally:
                # a run stopped halfway: make's compilers too
                if p.poll() is None:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()

    def objects(self, rel):
        """The objects of the build that rel goes into."""
        if rel.endswith('.c'):
            obj = rel[:-2] + '.o'
            return [obj] if os.path.exists(os.path.join(self.build, obj)) else []
        out = []
        for cmd in glob.glob(os.path.join(self.build, '**', '.*.o.cmd'), recursive=True):
            with open(cmd, errors='replace') as f:
                if f'/{rel}' not in f.read():
                    continue
            d, base = os.path.split(os.path.relpath(cmd, self.build))
            obj = os.path.join(d, base[1:-4])
            if not obj.startswith('vmlinux') and os.path.exists(os.path.join(self.build, obj)):
                out.append(obj)
        return sorted(out)

    def stripped(self, obj):
        """The object's bytes without debug information."""
        with tempfile.NamedTemporaryFile(dir=self.work) as tmp:
            subprocess.run(['objcopy', '--strip-debug', os.path.join(self.build, obj),
                            tmp.name], check=True)
            return tmp.read()

    # -- the run ---------------------------------------------------------
    def run_kunit(self, name, timeout):
        """(state, {case: status}) of one boot of the UML kernel: state
        'ok' (it ran to its end), 'timeout', 'died' (it died of its own
        before its last case) or 'error' (see the module's comment)."""
        raw = os.path.join(self.logs, name + '.log')
        with open(raw, 'w') as out:
            # a session of its own: a panicking UML kernel signals its
            # process group (os_dump_core())
            p = subprocess.Popen([os.path.join(self.build, 'linux'), 'kunit.filter_glob=' + FILTER,
                                  'mem=1G', 'console=tty', 'kunit_shutdown=halt'],
                                 stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                 cwd=self.build, start_new_session=True)
            try:
                rc = p.wait(timeout=timeout)
                state = 'ok'
            except subprocess.TimeoutExpired:
                state = 'timeout'
            finally:
                # its helpers too, however the wait ended
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait()
        if state != 'ok':
            return state, {}
        with open(raw, errors='replace') as f:
            text = f.read()
        if any(h in text for h in HOST_SHM):
            return 'error', {}
        died = rc == -signal.SIGABRT and PANIC in text
        if rc < 0 and not died:
            # a signal it did not raise: the host's
            return 'error', {}
        js = os.path.join(self.logs, name + '.json')
        if os.path.exists(js):
            os.remove(js)
        # kunit.py parse exits 1 on a failed case: its JSON tells the rest
        subprocess.run([sys.executable, 'tools/testing/kunit/kunit.py', 'parse', '--json=' + js,
                        raw], cwd=self.tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            cases = kunit_cases(js)
        except (OSError, ValueError):
            return ('died' if died else 'error'), {}
        if died:
            return 'died', cases
        if not cases or set(self.passing) - set(cases):
            # short of its last case, without dying of its own
            return 'error', cases
        return 'ok', cases

    def baseline(self):
        log(f'worker {self.worker}: building the unmutated tree')
        blog = os.path.join(self.logs, f'baseline-{self.worker}.build')
        if os.path.exists(blog):
            os.remove(blog)
        if not self.make([], blog):
            sys.exit(f'mutation_run.py: the unmutated tree does not build (log: {blog})')
        self.objs, self.orig = {}, {}
        for rel in self.files:
            self.objs[rel] = self.objects(rel)
            if not self.objs[rel]:
                sys.exit(f'mutation_run.py: no object of {self.build} is built from {rel}')
            for obj in self.objs[rel]:
                self.orig[obj] = self.stripped(obj)
        runs = []
        self.passing = set()
        for i in range(2):
            t0 = time.time()
            state, cases = self.run_kunit(f'baseline-{self.worker}.{i}', 600)
            runs.append(time.time() - t0)
            passing = {c for c, s in cases.items() if s == 'PASS'}
            if state != 'ok' or not passing:
                sys.exit('mutation_run.py: the unmutated suite did not run to its end')
            self.passing = passing if i == 0 else self.passing & passing
        self.timeout = max(20, 10 * max(runs))
        log(f'worker {self.worker}: {len(self.passing)} cases pass, a run takes {max(runs):.0f} s, '
            f'timeout {self.timeout:.0f} s')

    def judge(self, m):
        name = m['id']
        blog = os.path.join(self.logs, name + '.build')
        if os.path.exists(blog):
            os.remove(blog)
        with open(os.path.join(self.pristine, m['file'])) as f:
            lines = f.readlines()
        lines[m['line'] - 1] = m['new'] + '\n'
        self.write(m['file'], lines)
        try:
            objs = self.objs[m['file']]
            if not self.make(objs, blog):
                return 'nobuild', [], []
            if all(self.stripped(o) == self.orig[o] for o in objs):
                return 'equivalent', [], []
            if not self.make([], blog):
                return 'nobuild', [], []
            state, cases = self.run_kunit(name, self.timeout)
        finally:
            self.restore(m['file'])
        if state in ('timeout', 'error'):
            return state, [], []
        failed = sorted(c for c in self.passing if c in cases and cases[c] not in ('PASS', 'SKIP'))
        skipped = sorted(c for c in self.passing if cases.get(c) == 'SKIP')
        if state == 'died':
            return 'killed', ['(the kernel panicked)'] + failed[:4], skipped
        if not failed:
            return 'survived', [], skipped
        return 'killed', failed[:5], skipped

    def done(self):
        """{id: record} of the recorded verdicts that hold: of this stamp,
        and not an error."""
        return {r['id']: r for r in read_results(self.work)
                if r.get('key') == self.key and r['verdict'] != 'error'}

    def selection(self, sample, only):
        ms = self.data['mutants']
        if only:
            unknown = only - {m['id'] for m in ms}
            if unknown:
                sys.exit(f'mutation_run.py: no such mutant: {" ".join(sorted(unknown))}')
            chosen = [m for m in ms if m['id'] in only]
        else:
            chosen = [m for m in ms if m['stratum'] == 'census' or m['order'] < sample]
        chosen.sort(key=lambda m: m['id'])
        random.Random(self.data['seed']).shuffle(chosen)
        return chosen[self.worker::self.workers]

    def run(self, sample, only, limit):
        self.put_back()
        done = self.done()
        todo = [m for m in self.selection(sample, only) if m['id'] not in done]
        if limit:
            # LIMIT is the run's: this worker's share of it
            todo = todo[:limit // self.workers + (self.worker < limit % self.workers)]
        log(f'worker {self.worker}: {len(todo)} mutants to run (stamp {self.key})')
        if not todo:
            return
        self.baseline()
        results = os.path.join(self.work, 'results.jsonl')
        for n, m in enumerate(todo):
            t0 = time.time()
            verdict, failed, skipped = self.judge(m)
            secs = round(time.time() - t0, 1)
            rec = {'id': m['id'], 'verdict': verdict, 'secs': secs, 'failed': failed,
                   'key': self.key}
            if skipped:
                rec['skipped'] = skipped[:5]
            with open(results, 'a') as f:
                f.write(json.dumps(rec) + '\n')
            log(f'{self.worker}: {n + 1}/{len(todo)} {verdict:10s} {m["func"]}:{m["line"]} {m["new"].strip()[:60]} '
                f'({secs} s)')
        self.make([], os.path.join(self.logs, f'final-{self.worker}.build'))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('work')
    ap.add_argument('tree')
    ap.add_argument('build')
    ap.add_argument('kunitconfig')
    ap.add_argument('--sample', type=int, default=300)
    ap.add_argument('--only', default='')
    ap.add_argument('--limit', type=int, default=0)
    ap.add_argument('--jobs', type=int, default=os.cpu_count())
    ap.add_argument('--worker', type=int, default=0)
    ap.add_argument('--workers', type=int, default=1)
    a = ap.parse_args()
    # a SIGTERM unwinds as Ctrl-C does: the finally clauses put the file back
    # (and a background job of a script starts with SIGINT ignored)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    Runner(a).run(a.sample, set(a.only.split()), a.limit)


if __name__ == '__main__':
    main()
