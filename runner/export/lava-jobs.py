#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the validation matrix as LAVA jobs (make lava-jobs), so that a LAVA
lab or KernelCI runs its cells in parallel: one job definition per cell,
a kernel (both kernels of each row of expectations/matrix.txt), a test and
an LRU mode, into OUT/<test>-<mode>-<kernel>+<variant>.yaml.

Each job boots the cell's kernel under QEMU (device type qemu, x86_64) on a
rootfs image with the kselftests installed, and runs the test definition
lava/mglru-kselftest.yaml from this repository's git URL with the cell's
TEST and LRU_MODE. The artifacts' URLs are templates that a lab fills, with
{kernel}, {variant}, {test}, {mode} and {arch} replaced per cell; their
defaults are placeholders under the reserved domain .invalid (RFC 2606),
which no lab resolves.

usage: lava-jobs.py [options] [MATRIX]
Options (and the environment variables that set their defaults):
  --out DIR              LAVA_JOBS_DIR    results/lava-jobs
  --kernel-url TEMPLATE  LAVA_KERNEL_URL  the guest bzImage
  --rootfs-url TEMPLATE  LAVA_ROOTFS_URL  a raw ext4 image (.xz, .gz, .bz2,
                                          .zst: compressed), kselftests in it
  --modules-url TEMPLATE LAVA_MODULES_URL a tar.xz of /lib/modules, unpacked
                                          into the rootfs (none by default:
                                          the suite's guest config has
                                          CONFIG_MODULES=n)
  --repo URL             LAVA_TESTDEF_REPO     git URL of this repository
  --revision REV         LAVA_TESTDEF_REVISION commit of the test definition
  --kselftest-dir DIR    LAVA_KSELFTEST_DIR    INSTALL_PATH in the rootfs
  --accel tcg|kvm        ACCEL (auto: tcg)     tcg: the job asks for no KVM
                                               and KSFT_MACHINE_SLOW=yes, the
                                               timeouts x3
  --memory SIZE          MEM (2G)              guest memory
  --cpus N               CPUS (2)              guest vCPUs
  --prompt REGEX         the rootfs's shell prompt (repeatable)
  --login USER           auto-login user at "login:" ('' for none)
  --cmdline ARGS         extra kernel command line
A row's kernel without ':' is a variant of KERNEL (runner/validate/matrix.sh's
rule). LAVA records raw verdicts: no expectation applies, and no row checks
an INFO point (tests/static.sh). Exits 1 on a malformed matrix, with a one-line error.
"""

import argparse
import json
import math
import os
import re
import sys

RUNNER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, RUNNER)  # the core (tables, ktap) and the job folders
import tables  # noqa: E402

TOP = os.path.dirname(RUNNER)
TESTDEF = 'lava/mglru-kselftest.yaml'
HEADER = 'Written by runner/export/lava-jobs.py'
PLACEHOLDER = 'https://lab.invalid/mglru'
# What the suite's guests need on the kernel command line besides a console
# and a root: the kselftests use the cgroup v2 memory controller at
# /sys/fs/cgroup (virtme-ng's init mounts cgroup2 there; under systemd,
# the unified hierarchy, and no v1 hierarchy may hold the memory controller).
# MGLRU itself needs nothing: each test switches lru_gen/enabled itself.
CMDLINE = ('console=ttyS0,115200 root=/dev/vda rw rootwait '
           'systemd.unified_cgroup_hierarchy=1 cgroup_no_v1=all')


def die(msg):
    sys.exit(f'mglru: error: {msg}')


def settings_timeout():
    path = os.path.join(TOP, 'tools/testing/selftests/mm/mglru/settings')
    with open(path) as f:
        for line in f:
            if line.startswith('timeout='):
                return int(line.split('=', 1)[1])
    die(f'{path}: no timeout=')


def read_matrix(path, default_kernel):
    """The matrix's cells, {(kernel, variant, test, mode): [(role, row)]}."""
    cells = {}
    for row in tables.matrix(os.path.abspath(path)):
        for role, k in (('bug', row.bug), ('fixed', row.fixed)):
            kernel, variant = tables.matrix_kernel(k, default_kernel)
            cells.setdefault((kernel, variant, row.test, row.mode), []).append(
                (role, ' '.join(row)))
    return cells


def mib(size):
    m = re.fullmatch(r'(\d+)([KMGT]?)i?B?', size.strip(), re.I)
    if not m:
        die(f'MEM={size}: expected a size such as 2G or 2048M')
    n = int(m.group(1))
    unit = m.group(2).upper()
    return {'': n // (1 << 20), 'K': n // 1024, 'M': n, 'G': n << 10, 'T': n << 20}[unit]


def minutes(seconds):
    return {'minutes': max(1, math.ceil(seconds / 60))}


def compression(url):
    for ext, name in (('.xz', 'xz'), ('.gz', 'gz'), ('.bz2', 'bz2'), ('.zst', 'zstd')):
        if url.endswith(ext):
            return name
    return None


def job(cell, roles, opt, tmo):
    kernel, variant, test, mode = cell
    subst = {'kernel': kernel, 'variant': variant, 'test': test, 'mode': mode,
             'arch': 'x86_64'}

    def url(template):
        try:
            return template.format(**subst)
        except (KeyError, IndexError, ValueError) as e:
            die(f'URL template {template}: {e!r} (known: {{{"}, {".join(subst)}}})')

    slow = 3 if opt.accel == 'tcg' else 1
    runner_tmo = tmo * slow
    # the runner's timeout fires first; then the test's cleanup, the
    # runner's own exit and the ktap reporting
    t_test = runner_tmo + 300
    t_deploy = 15 * 60
    t_boot = 10 * 60 if slow > 1 else 5 * 60
    t_job = t_deploy + t_boot + t_test + 5 * 60

    rootfs_url = url(opt.rootfs_url)
    rootfs = {
        'url': rootfs_url,
        'image_arg': '-drive format=raw,if=virtio,file={rootfs}',
        'format': 'ext4',
        # LAVA's test overlay goes into the image itself (libguestfs on the
        # worker): no second disk, which the guest kernel could not read
        'overlays': {'lava': True},
    }
    if compression(rootfs_url):
        rootfs['compression'] = compression(rootfs_url)
    if opt.modules_url:
        murl = url(opt.modules_url)
        rootfs['overlays']['modules'] = {'url': murl, 'format': 'tar', 'path': '/'}
        if compression(murl):
            rootfs['overlays']['modules']['compression'] = compression(murl)

    cmdline = CMDLINE + (' ' + opt.cmdline if opt.cmdline else '')
    boot = {
        'timeout': minutes(t_boot),
        'method': 'qemu',
        'media': 'tmpfs',
        'prompts': opt.prompt,
    }
    if opt.login:
        boot['auto_login'] = {'login_prompt': 'login:', 'username': opt.login}

    definition = {
        'repository': opt.repo,
        'from': 'git',
        'path': TESTDEF,
        'name': f'mglru-{test}-{mode}',
        'params': {
            'TEST': test,
            'LRU_MODE': mode,
            'KSELFTEST_DIR': opt.kselftest_dir,
            'KSFT_MACHINE_SLOW': 'yes' if slow > 1 else 'no',
            'METRICS': 'key',
            'KEYS': ' '.join(tables.key_metrics(test)),
            'UNITS': tables.units_param(),
        },
    }
    if opt.revision:
        definition['revision'] = opt.revision

    role = '+'.join(sorted({r for r, _ in roles}))
    # LAVA's qemu.jinja2 takes the job's memory only when the device
    # dictionary sets none: a dictionary's "{% set memory = ... %}" wins
    # over the job's context (lava-server renders the dictionary with the
    # context as its variables). The verdicts hold for the memory they
    # were validated with, so the job also asks QEMU for it: extra
    # options come after the template's "-m", and QEMU's last -m wins.
    context = {
        'arch': 'x86_64',
        'memory': opt.memory,
        'extra_options': [f'-smp {opt.cpus}', f'-m {opt.memory}'],
    }
    if opt.accel == 'tcg':
        context['no_kvm'] = True
        # qemu.jinja2 gives x86_64 no machine and, without KVM, no CPU:
        # QEMU's i440FX and qemu64. The suite's TCG guests (virtme-ng) are
        # q35 with -cpu max, whose features (PCID among them) decide how
        # long a TLB entry outlives a cleared accessed bit: the aging the
        # verdicts were validated with.
        context['extra_options'] += ['-machine q35', '-cpu max']
    return {
        'job_name': f'mglru-suite {test} lru={mode} kernel={kernel}:{variant} ({role})',
        'device_type': 'qemu',
        'priority': 'medium',
        'visibility': 'public',
        'timeouts': {
            'job': minutes(t_job),
            'connection': {'minutes': 2},
        },
        'context': context,
        'metadata': {
            'mglru.test': test,
            'mglru.lru_mode': mode,
            'mglru.kernel': kernel,
            'mglru.variant': variant,
            'mglru.role': role,
            'mglru.matrix_rows': '; '.join(r for _, r in roles),
            'mglru.accel': opt.accel,
        },
        'actions': [
            {'deploy': {
                'timeout': minutes(t_deploy),
                'to': 'tmpfs',
                'os': 'debian',
                'images': {
                    'kernel': {
                        'url': url(opt.kernel_url),
                        'image_arg': f'-kernel {{kernel}} -append "{cmdline}"',
                    },
                    'rootfs': rootfs,
                },
            }},
            {'boot': boot},
            {'test': {
                'timeout': minutes(t_test),
                'definitions': [definition],
            }},
        ],
    }


PLAIN_KEY = re.compile(r'^[A-Za-z_][A-Za-z0-9_.-]*$')


def scalar(v):
    if v is True or v is False:
        return 'true' if v else 'false'
    if v is None:
        return 'null'
    if isinstance(v, int):
        return str(v)
    # a JSON string is a YAML double-quoted scalar: never read as a bool,
    # a number or a mapping
    return json.dumps(str(v))


def key(k):
    return k if PLAIN_KEY.match(k) else json.dumps(k)


def to_yaml(v, indent=0):
    """Block-style YAML of dicts, lists and scalars (the jobs need no more)."""
    pad = ' ' * indent
    out = []
    if isinstance(v, dict):
        for k, x in v.items():
            if isinstance(x, (dict, list)) and x:
                out.append(f'{pad}{key(k)}:')
                out += to_yaml(x, indent + 2)
            elif isinstance(x, dict):
                out.append(f'{pad}{key(k)}: {{}}')
            elif isinstance(x, list):
                out.append(f'{pad}{key(k)}: []')
            else:
                out.append(f'{pad}{key(k)}: {scalar(x)}')
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, (dict, list)) and x:
                sub = to_yaml(x, indent + 2)
                out.append(f'{pad}- {sub[0].lstrip()}')
                out += sub[1:]
            else:
                out.append(f'{pad}- {scalar(x)}')
    else:
        out.append(pad + scalar(v))
    return out


def main():
    env = os.environ.get
    p = argparse.ArgumentParser(
        description='Write expectations/matrix.txt as LAVA job definitions.')
    p.add_argument('matrix', nargs='?',
                   default=os.path.join(TOP, 'expectations/matrix.txt'))
    p.add_argument('--out', default=env('LAVA_JOBS_DIR') or
                   os.path.join(TOP, 'results/lava-jobs'))
    p.add_argument('--kernel-url', default=env('LAVA_KERNEL_URL') or
                   PLACEHOLDER + '/{kernel}/{variant}/bzImage')
    p.add_argument('--rootfs-url', default=env('LAVA_ROOTFS_URL') or
                   PLACEHOLDER + '/{kernel}/rootfs.ext4.xz')
    p.add_argument('--modules-url', default=env('LAVA_MODULES_URL') or '')
    p.add_argument('--repo', default=env('LAVA_TESTDEF_REPO') or
                   'https://git.invalid/mglru-suite.git')
    p.add_argument('--revision', default=env('LAVA_TESTDEF_REVISION') or '')
    p.add_argument('--kselftest-dir', default=env('LAVA_KSELFTEST_DIR') or '/opt/kselftest')
    p.add_argument('--accel', default=env('ACCEL') or 'tcg',
                   choices=('auto', 'tcg', 'kvm'))
    p.add_argument('--memory', default=env('MEM') or '2G')
    p.add_argument('--cpus', default=env('CPUS') or '2')
    p.add_argument('--prompt', action='append')
    p.add_argument('--login', default='root')
    p.add_argument('--cmdline', default='')
    opt = p.parse_args()
    if opt.accel not in ('auto', 'tcg', 'kvm'):
        die(f'ACCEL={opt.accel}: expected auto, kvm or tcg')
    # a lab's workers may or may not have KVM: auto is the safe choice, TCG
    if opt.accel == 'auto':
        opt.accel = 'tcg'
    opt.memory = mib(opt.memory)
    if not opt.cpus.isdigit() or int(opt.cpus) < 1:
        die(f'CPUS={opt.cpus}: expected a positive number')
    opt.prompt = opt.prompt or ['root@(.*):[/~]#']

    default_kernel = tables.kernel(env('KERNEL') or tables.default_kernel()).name
    cells = read_matrix(opt.matrix, default_kernel)
    tmo = settings_timeout()

    os.makedirs(opt.out, exist_ok=True)
    # jobs of an earlier matrix would be submitted with the new ones
    for f in os.listdir(opt.out):
        path = os.path.join(opt.out, f)
        if f.endswith('.yaml') and os.path.isfile(path):
            with open(path) as old:
                mine = HEADER in old.read(200)
            if mine:
                os.unlink(path)
    for cell, roles in cells.items():
        kernel, variant, test, mode = cell
        name = f'{test}-{mode}-{tables.on_disk(f"{kernel}:{variant}")}.yaml'
        data = job(cell, roles, opt, tmo)
        with open(os.path.join(opt.out, name), 'w') as f:
            f.write('# SPDX-License-Identifier: GPL-2.0\n'
                    f'# {HEADER} from '
                    f'{os.path.relpath(opt.matrix, TOP)}: one cell of the\n'
                    '# validation matrix as a LAVA job. Submit it with '
                    '`lavacli jobs submit FILE`.\n')
            f.write('\n'.join(to_yaml(data)) + '\n')
    print(f'mglru: {len(cells)} LAVA jobs in {opt.out} ({opt.accel})', file=sys.stderr)
    todo = [n for n, v in (('--kernel-url/LAVA_KERNEL_URL', opt.kernel_url),
                           ('--rootfs-url/LAVA_ROOTFS_URL', opt.rootfs_url),
                           ('--repo/LAVA_TESTDEF_REPO', opt.repo)) if '.invalid' in v]
    if todo:
        print(f'mglru: placeholders left for a lab to fill: {", ".join(todo)}',
              file=sys.stderr)


if __name__ == '__main__':
    main()
