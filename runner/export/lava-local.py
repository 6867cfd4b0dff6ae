#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The LAVA side of make lava-local (runner/export/lava-local.sh): what a lab's
server does around its dispatcher, here for lava-run on this machine.

  device TEMPLATES JOB OUT   write OUT.jinja2, a qemu device dictionary
                             (extends LAVA's qemu.jinja2: mac_addr, memory
                             and arch set, as a lab's admin writes one), and
                             OUT, the device configuration lava-run reads:
                             the dictionary rendered with JOB's context, as
                             lava-server renders it for a job (a sandboxed
                             Jinja2 environment over the device and
                             device-type folders, trim_blocks)
  memory LOG MIB             the guest's memory, from the kernel's
                             "Memory: .../<total>K available" line on the
                             serial console in lava-run's LOG: exits 1
                             unless it is MIB (within 2%)
  results LOG OUT            the test cases of lava-run's log (its YAML
                             lines, "lvl: results") as OUT, a results.yaml
                             of the cases LAVA recorded; prints them
  compare RESULTS SUMMARY TEST MODE
                             LAVA's verdicts against a make kselftest run's
                             summary.json: the test point TEST_MODE must
                             have the same verdict, each key metric is
                             shown beside the run's median and range.
                             Exits 1 on a verdict that differs or a point
                             LAVA did not record.

Runs under Debian's python3: jinja2 and yaml are lava-dispatcher's
dependencies.
"""

import json
import os
import sys

import yaml

MAC = '52:54:00:12:34:59'
LAB_MEMORY = 1024


def device(templates, job_path, out):
    import jinja2
    import jinja2.sandbox

    with open(job_path) as f:
        job = yaml.safe_load(f)
    ctx = job.get('context', {})
    # a lab's device dictionary: the device type, its MAC, and what the
    # admin fixes for every job on it. Its memory is less than the jobs
    # ask for, as a lab's default may be: a dictionary's memory wins over
    # the job's context, so the job's own -m (extra_options) must win
    # over it (checked on the guest's console: memory below)
    name = os.path.basename(out)
    name = name[:-5] if name.endswith('.yaml') else name
    dict_path = os.path.join(os.path.dirname(os.path.abspath(out)), name + '.jinja2')
    with open(dict_path, 'w') as f:
        f.write("{% extends 'qemu.jinja2' %}\n"
                f"{{% set mac_addr = '{MAC}' %}}\n"
                f"{{% set memory = {LAB_MEMORY} %}}\n"
                f"{{% set arch = '{ctx.get('arch', 'x86_64')}' %}}\n")
    env = jinja2.sandbox.SandboxedEnvironment(
        loader=jinja2.FileSystemLoader([os.path.dirname(dict_path), templates]),
        autoescape=False, trim_blocks=True)
    rendered = env.get_template(name + '.jinja2').render(**ctx)
    conf = yaml.safe_load(rendered)
    qemu = conf['actions']['boot']['methods']['qemu']['parameters']
    with open(out, 'w') as f:
        f.write(rendered)
    print(f'device: {out} ({qemu["command"]} {" ".join(qemu["options"])}'
          f' {" ".join(qemu.get("extra", []))})')


def target_lines(log):
    """The guest's serial console lines in lava-run's LOG."""
    with open(log, errors='replace') as f:
        for line in f:
            line = line[2:] if line.startswith('- {') else line
            if '"lvl": "target"' not in line:
                continue
            try:
                msg = yaml.safe_load(line).get('msg')
            except (yaml.YAMLError, AttributeError):
                continue
            if isinstance(msg, str):
                yield msg


def memory(log, mib):
    import re
    for msg in target_lines(log):
        m = re.search(r'Memory: \d+K/(\d+)K available', msg)
        if m:
            got = int(m.group(1)) / 1024
            ok = abs(got - int(mib)) <= int(mib) * 0.02
            print(f"{'ok' if ok else 'DIFFERS'}: the guest has {got:.0f} MiB"
                  f" (the job asks for {mib}, the device dictionary sets {LAB_MEMORY})")
            return 0 if ok else 1
    print('DIFFERS: no "Memory: ...K available" line on the guest\'s console')
    return 1


def results(log, out):
    cases = []
    with open(log, errors='replace') as f:
        for line in f:
            # one YAML mapping a line ("- " before it in a lab's log)
            line = line[2:] if line.startswith('- {') else line
            if not line.startswith('{') or '"lvl": "results"' not in line:
                continue
            try:
                entry = yaml.safe_load(line)
            except yaml.YAMLError:
                continue
            if not isinstance(entry, dict):
                continue
            msg = entry.get('msg', {})
            if not isinstance(msg, dict) or 'case' not in msg:
                continue
            case = {k: msg[k] for k in ('definition', 'case', 'result',
                                        'measurement', 'units') if k in msg}
            # LAVA logs a measurement as a string ('! "3928.0"')
            if 'measurement' in case:
                try:
                    case['measurement'] = float(case['measurement'])
                except ValueError:
                    pass
            cases.append(case)
    with open(out, 'w') as f:
        yaml.safe_dump(cases, f, sort_keys=False)
    for c in cases:
        if c.get('definition') == 'lava':
            continue
        m = f" {c['measurement']} {c.get('units', '')}".rstrip() if 'measurement' in c else ''
        print(f"{c['definition']:<32} {c['case']:<40} {c['result']}{m}")
    return cases


def compare(results_path, summary_path, test, mode):
    with open(results_path) as f:
        cases = yaml.safe_load(f) or []
    with open(summary_path) as f:
        summary = json.load(f)
    entry = next((e for e in summary.get('kselftest', [])
                  if e['test'] == test and e['mode'] == mode), None)
    if entry is None:
        sys.exit(f'mglru: error: {summary_path} has no {test} {mode} run')
    point = f'{test}_{mode}'
    mine = [c for c in cases if c.get('definition') != 'lava']
    got = {c['case']: c for c in mine}
    rc = 0
    want = entry['verdict']
    lava = got.get(point, {}).get('result')
    lava_verdict = {'pass': 'PASS', 'fail': 'FAIL', 'skip': 'SKIP'}.get(lava, 'none')
    k = summary.get('kernel', {})
    print(f"make: {summary_path}: {k.get('kernel')}:{k.get('variant')} HZ={k.get('hz')},"
          f" {entry['runs']} run(s), {point} {want} ({entry['verdicts']})")
    ok = lava_verdict == want
    print(f"{'ok' if ok else 'DIFFERS'}: {point}: LAVA {lava_verdict}, make {want}")
    if not ok:
        rc = 1
    runs = entry.get('all_metrics') or [entry.get('metrics', {})]
    for name, c in got.items():
        if not name.startswith(point + '.') or 'measurement' not in c:
            continue
        metric = name[len(point) + 1:]
        vals = sorted(r[metric] for r in runs if metric in r)
        if not vals:
            print(f'note: {name}: {c["measurement"]} (make has no {metric})')
            continue
        v = float(c['measurement'])
        where = 'within' if vals[0] <= v <= vals[-1] else 'OUTSIDE'
        print(f"     {name}: LAVA {c['measurement']}, make median "
              f"{entry['metrics'].get(metric)} [{vals[0]} .. {vals[-1]}] ({where} make's range)")
    if point not in got:
        print(f'DIFFERS: LAVA recorded no {point} test case')
        rc = 1
    return rc


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == 'device' and len(args) == 3:
        device(*args)
    elif cmd == 'results' and len(args) == 2:
        if not results(*args):
            print('mglru: lava-run recorded no test case', file=sys.stderr)
            return 1
    elif cmd == 'memory' and len(args) == 2:
        return memory(*args)
    elif cmd == 'compare' and len(args) == 4:
        return compare(*args)
    else:
        sys.exit(__doc__)
    return 0


if __name__ == '__main__':
    sys.exit(main())
