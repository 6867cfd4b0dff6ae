#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The emulator's death rate from make emulator-stress runs: for each
boots.tsv given (runner/validate/emulator-stress.sh), the boots, the
emulator's deaths (runner/crash.py) as the guest booted (before flip.sh
started, its console says) and while it flipped, the kernel's crashes,
the flips made, and the deaths per 1,000 flips with its exact 95 % Poisson
interval; for each run after the first, the exact conditional test of its
rate against the first's (two-sided binomial test of the deaths split in
proportion to the flips). One pipe row a run, as doc/results/ keeps them.

usage: emulator_rates.py LABEL=BOOTS_TSV...   (the venv's Python: scipy)"""

import os
import statistics
import sys

from scipy.stats import binomtest, chi2


def flipping(folder, boot):
    """Whether flip.sh had started in the boot (its console's line)."""
    try:
        with open(os.path.join(folder, f'boot-{boot}', 'console.log'), errors='replace') as f:
            return 'mglru-stress: start' in f.read()
    except OSError:
        return True


def read(path):
    boots = [line.rstrip('\n').split('\t') for line in open(path) if line.strip()]
    flips = sum(int(b[3]) for b in boots)
    dead = [b for b in boots if b[2] == 'emulator']
    at_boot = sum(not flipping(os.path.dirname(path), b[0]) for b in dead)
    kernel = sum(b[2] == 'kernel' for b in boots)
    secs = [int(b[4]) for b in boots]
    return (len(boots), flips, at_boot, len(dead) - at_boot, kernel,
            f'{statistics.median(secs):g}' if secs else 0)


def interval(k, exposure):
    lo = chi2.ppf(0.025, 2 * k) / 2 if k else 0.0
    hi = chi2.ppf(0.975, 2 * k + 2) / 2
    return 1000 * lo / exposure, 1000 * hi / exposure


def main(args):
    if not args or any('=' not in a for a in args):
        sys.exit(__doc__)
    rows, first = [], None
    for arg in args:
        label, path = arg.split('=', 1)
        n, flips, at_boot, died, kernel, med = read(path)
        rate = 1000 * died / flips if flips else float('nan')
        lo, hi = interval(died, flips) if flips else (float('nan'),) * 2
        p = '-'
        if first is None:
            first = (died, flips)
        elif flips and first[1]:
            d0, f0 = first
            p = f'{binomtest(died, died + d0, flips / (flips + f0)).pvalue:.2g}' \
                if died + d0 else '1'
        rows.append(f'{label} | {n} | {at_boot} | {flips} | {died} | {kernel} | '
                    f'{rate:.1f} ({lo:.1f}-{hi:.1f}) | {p} | {med}')
    print('run | boots | emulator deaths at boot | flips | emulator deaths flipping | '
          'kernel crashes | deaths per 1,000 flips (95 % interval) | p against the first | '
          'median boot s')
    print('\n'.join(rows))


if __name__ == '__main__':
    main(sys.argv[1:])
