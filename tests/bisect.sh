#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: the git bisect oracle's exit codes. bisect_verdict.py turns
# recorded runs into 0 (good), 1 (bad) or 125 (cannot test), and
# bisect-run.sh rejects bad input with 128 (which aborts a bisection)
# before building anything.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh

. tests/expect.sh
fx=tests/fixtures

v=runner/bisect_verdict.py
expect_rc 0 "a passing run is good" python3 $v $fx/pass readahead_refault mglru 1
expect_rc 1 "a failing run is bad" python3 $v $fx/pass readahead_refault classic 1
expect_rc 1 "2 of 3 runs failed: bad" python3 $v $fx/repeat dirty_throttle mglru 3
expect_rc 125 "1 pass, 2 missing of 3: no majority" python3 $v $fx/pass readahead_refault mglru 3
expect_rc 125 "a skipped run cannot be tested" python3 $v $fx/skip aging_oom mglru 1
expect_rc 125 "no run at all (build or boot failed)" python3 $v /nonexistent aging_oom mglru 1
expect_rc 128 "bad usage" python3 $v $fx/pass readahead_refault

kdir=$tmp/linux
mkdir -p "$kdir/mm"
touch "$kdir/mm/vmscan.c" "$kdir/Kconfig"
b=runner/bisect-run.sh
expect_rc 128 "no TEST" env -u TEST KDIR="$kdir" LRU_MODE=mglru $b
expect_rc 128 "an unknown TEST" env KDIR="$kdir" TEST=nope LRU_MODE=mglru $b
expect_rc 128 "no LRU_MODE" env -u LRU_MODE KDIR="$kdir" TEST=aging_oom $b
expect_rc 128 "a bad REPEAT" env KDIR="$kdir" TEST=aging_oom LRU_MODE=mglru REPEAT=x $b
expect_rc 128 "not a kernel tree" env KDIR=/ TEST=aging_oom LRU_MODE=mglru $b
exit $rc
