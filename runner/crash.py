#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What a guest's console says of a crash, here and nowhere else.

A crash is the first of the kernel's reports that stop a task or the
kernel: a panic, an Oops or any other die() ("...: 0000 [#1]"), BUG_ON()
or a BUG: report (soft lockup, NULL pointer dereference, bad page
state...). It is the kernel's, with one exception, the emulator's: under
TCG, an "Oops: int3" that no WARNING precedes, whose
trapping byte is not an int3. After an int3 trap RIP points just past the
int3 byte, and the oops' "Code:" line marks the byte at RIP (<xx>), so
the byte that trapped is the one before the mark. When it is not 0xcc,
the CPU executed an int3 that the text no longer holds: a breakpoint that
text_poke_bp() had already replaced (a static key or an alternative
patched live), still run from a stale translation of QEMU's TCG. Under
KVM or on hardware the same oops is a real text-patching race, and stays
the kernel's; so does an int3 oops whose Code: line is missing or shows
0xcc.

The suite's guests write "mglru: run <name> finished" to /dev/kmsg as a
kselftest run ends (runner/run/kselftest.sh): the runs that finished
before the crash keep their verdicts.

usage: crash.py CONSOLE ACCEL           "emulator: <why>", "kernel: <line>"
                                        or nothing
       crash.py --finished CONSOLE ACCEL
                                        the runs finished before the crash
                                        (all of them when none), a line each
"""

import os
import re
import sys

from ktap import TIMESTAMP  # the kernel's "[   1.234567] " prefix

# die(), panic, BUG_ON() and the BUG: reports
CRASH = re.compile(r'Kernel panic - not syncing|\bOops\b|: [0-9a-f]{4} \[#\d+\]|'
                   r'kernel BUG at|\bBUG: ')
# the kernel's WARN() (not virtme-ng's or its init's "WARNING: " lines)
WARNING = re.compile(r'\bWARNING: CPU: \d+ PID: \d+ at ')
# die("int3"): "Oops: int3: 0000 [#1] ..." (6.12: "int3: 0000 [#1] ...")
INT3 = re.compile(r'(?:^|\]\s|\s)(?:Oops: )?int3: [0-9a-f]{4} \[#\d+\]')
CODE = re.compile(r'\bCode: (.*)$')
RIP = re.compile(r'\bRIP: ')
KERNEL_RIP = re.compile(r'\bRIP: 0010:')
FINISHED = re.compile(r'mglru: run (\S+) finished')
# how far below the oops line its RIP: and Code: lines may be
CODE_WITHIN = 40
CODE_AFTER_RIP = 6
EXCERPT = 60


class Crash:
    """kind ('emulator' or 'kernel'), the report's line, its index in the
    console's lines, the console from there (EXCERPT lines) and why."""

    def __init__(self, kind, line, index, excerpt, why):
        self.kind, self.line, self.index = kind, line, index
        self.excerpt, self.why = excerpt, why


def trapping_byte(code):
    """The byte before the marked one in a Code: line's bytes, or None."""
    toks = code.split()
    for i, tok in enumerate(toks):
        if re.fullmatch(r'<[0-9a-f]{2}>', tok):
            prev = toks[i - 1] if i else ''
            return prev if re.fullmatch(r'[0-9a-f]{2}', prev) else None
    return None


def kernel_code(lines):
    """The bytes of the Code: line that follows an oops' first RIP: line,
    when that RIP is the kernel's (CS 0010; a user frame's Code: line, as
    a Call Trace ends with, says nothing of the kernel text), or None.
    Another CPU's lines may come between the two, not the next RIP:, Call
    Trace or report."""
    for j, line in enumerate(lines):
        if RIP.search(line):
            if not KERNEL_RIP.search(line):
                return None
            for x in lines[j + 1:j + 1 + CODE_AFTER_RIP]:
                m = CODE.search(x)
                if m:
                    return m.group(1)
                if RIP.search(x) or 'Call Trace:' in x or CRASH.search(x):
                    return None
            return None
    return None


def strip_time(line):
    return TIMESTAMP.sub('', line).strip()


def classify(lines, accel):
    """The first crash report of a console (its lines) and whose it is, or
    None when the kernel reported nothing. accel is the guest's
    accelerator: only 'tcg' has the emulator's kind."""
    i = next((i for i, line in enumerate(lines) if CRASH.search(line)), None)
    if i is None:
        return None
    warned = any(WARNING.search(x) for x in lines[:i])
    line = strip_time(lines[i])
    excerpt = [strip_time(x) for x in lines[i:i + EXCERPT]]
    if INT3.search(lines[i]):
        code = kernel_code(lines[i + 1:i + CODE_WITHIN])
        byte = trapping_byte(code) if code else None
        if accel == 'tcg' and byte and byte != 'cc' and not warned:
            return Crash('emulator', line, i, excerpt,
                         f'the emulator (QEMU TCG) ran an int3 that the kernel text no '
                         f'longer holds (trapping byte 0x{byte}, not 0xcc): "{line}"')
        if warned:
            why = 'a WARNING came first'
        elif byte == 'cc':
            why = 'its trapping byte is an int3 (0xcc)'
        elif accel != 'tcg':
            why = f'under {accel or "an unknown accelerator"}, not TCG'
        else:
            why = 'no Code: line shows its trapping byte'
        return Crash('kernel', line, i, excerpt, f'{line} ({why}: the kernel\'s)')
    return Crash('kernel', line, i, excerpt, line)


def read_lines(path):
    try:
        with open(path, errors='replace') as f:
            return f.read().splitlines()
    except OSError:
        return []


def console_crash(path, accel):
    """classify() of a console file; None when there is no file."""
    return classify(read_lines(path), accel)


def finished(lines, crash=None):
    """The runs whose end the console shows before the crash (all of them
    when crash is None)."""
    end = crash.index if crash else len(lines)
    return [m.group(1) for m in map(FINISHED.search, lines[:end]) if m]


def run_name(test, n):
    """A kselftest run's name: TEST, or TEST.rN with REPEAT."""
    return test if n is None else f'{test}.r{n}'


# a run is booted at most this often: once, and once more when the
# emulator crashed its first boot (runner/run/kselftest.sh, vm.sh)
ATTEMPTS = 2


def attempts(results):
    """runner/run/kselftest.sh's record of the runs of boots that the
    emulator crashed, attempts.tsv: {run: [(attempt, 'KEPT'|'ERROR', why)]}
    in attempt order."""
    out = {}
    for line in read_lines(os.path.join(results, 'attempts.tsv')):
        f = line.split('\t', 4)
        if len(f) == 5 and f[2].isdigit() and f[3] in ('KEPT', 'ERROR'):
            out.setdefault(f[1], []).append((int(f[2]), f[3], f[4]))
    for recs in out.values():
        recs.sort()
    return out


def verdict_attempt(recs):
    """The attempt whose verdict a run has, from its attempts() records
    (1 without any), or None when the emulator crashed every attempt."""
    if not recs:
        return 1
    last, status, _ = recs[-1]
    if status == 'KEPT':
        return last
    return last + 1 if last < ATTEMPTS else None


def main(argv):
    if len(argv) == 3 and argv[0] == '--finished':
        lines = read_lines(argv[1])
        print('\n'.join(finished(lines, classify(lines, argv[2]))))
        return 0
    if len(argv) != 2 or argv[0].startswith('-'):
        print('usage: crash.py CONSOLE ACCEL | --finished CONSOLE ACCEL', file=sys.stderr)
        return 2
    c = console_crash(argv[0], argv[1])
    if c:
        print(f'{c.kind}: {c.why}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
