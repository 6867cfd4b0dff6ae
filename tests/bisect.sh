#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: the git bisect oracle's exit codes. bisect_verdict.py turns
# recorded runs into 0 (good), 1 (bad) or 125 (cannot test), and
# bisect-run.sh rejects bad input with 128 (which aborts a bisection)
# before building anything, a REPEAT too small for the point included.
# Then whole steps of bisect-run.sh on stand-in kernels: a prebuilt
# "image" (a file naming how the kernel behaves) booted by a stand-in
# virtme-ng (VNG=), so that nothing is built or booted. A kernel that
# panics, one that locks up and one that hangs until the runner's outer
# timeout are bad; one that does not boot cannot be tested. A boot that
# the emulator crashed is run again: a step whose retry passes (or fails)
# has its verdict, one whose retry died too cannot be tested; an int3
# oops on a real int3 is the kernel's.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh

. tests/expect.sh
. tests/standin-guest.sh
fx=tests/fixtures

# runs DIR TEST POINT RESULT...: one run of each result, in DIR
runs()
{
	local dir=$1 test=$2 point=$3 n=0
	shift 3
	mkdir -p "$dir"
	for r in "$@"; do
		n=$((n + 1))
		ktap "$test" "$point" "$r" >"$dir/kselftest-$test.r$n.ktap"
	done
}
runs "$tmp/ok3" aging_oom aging_oom_mglru ok ok ok
runs "$tmp/bad3" aging_oom aging_oom_mglru "not ok" "not ok" "not ok"
runs "$tmp/split3" aging_oom aging_oom_mglru "not ok" ok "not ok"
runs "$tmp/split8" aging_oom aging_oom_mglru ok "not ok" ok ok ok ok ok ok
runs "$tmp/bad5" readahead_refault readahead_refault_classic "not ok" "not ok" "not ok" "not ok" "not ok"
runs "$tmp/split3c" readahead_refault readahead_refault_classic "not ok" ok "not ok"

v=runner/export/bisect_verdict.py
expect_rc 0 "a passing run is good" python3 $v $fx/pass readahead_refault mglru 1
expect_rc 0 "3 passing runs of a validated point are good" python3 $v "$tmp/ok3" aging_oom mglru 3
expect_rc 1 "3 failing runs of a validated point are bad" python3 $v "$tmp/bad3" aging_oom mglru 3
grep -q "a wrong verdict at REPEAT=3: 1.7%" "$tmp/out" ||
	{ echo "FAIL the step's chance of a wrong verdict: not 1.7% at REPEAT=3"; rc=1; }
expect_rc 125 "2 of 3 runs failed: they disagree, refused" python3 $v "$tmp/split3" aging_oom mglru 3
expect_rc 0 "7 of 8 runs passed: a majority no coin gives" python3 $v "$tmp/split8" aging_oom mglru 8
expect_rc 125 "2 of 3 runs of a point without a matrix row: refused" python3 $v "$tmp/split3c" readahead_refault classic 3
expect_rc 1 "5 of 5 failing runs of a point without a matrix row: bad" python3 $v "$tmp/bad5" readahead_refault classic 5
expect_rc 125 "a failing run of a point without a matrix row: refused" python3 $v $fx/pass readahead_refault classic 1
expect_rc 125 "1 pass, 2 missing of 3: no majority" python3 $v $fx/pass readahead_refault mglru 3
expect_rc 125 "a skipped run cannot be tested" python3 $v $fx/skip aging_oom mglru 1
expect_rc 125 "no run at all (build or boot failed)" python3 $v /nonexistent aging_oom mglru 1
expect_rc 128 "bad usage" python3 $v $fx/pass readahead_refault
expect_rc 0 "REPEAT=3 is enough for a validated point" python3 $v --check aging_oom mglru 3
expect_rc 128 "REPEAT=2 is too few for a validated point" python3 $v --check aging_oom mglru 2
expect_rc 128 "REPEAT=4 is too few for a point without a matrix row" python3 $v --check readahead_refault classic 4
expect_rc 0 "REPEAT=5 is enough for a point without a matrix row" python3 $v --check readahead_refault classic 5

kdir=$tmp/linux
standin_tree "$kdir"
b=runner/export/bisect-run.sh
# (RESULTS: a step that gets past its input checks writes nothing here)
export RESULTS=$tmp/bad-input
expect_rc 128 "no TEST" env -u TEST KDIR="$kdir" LRU_MODE=mglru $b
expect_rc 128 "an unknown TEST" env KDIR="$kdir" TEST=nope LRU_MODE=mglru $b
expect_rc 128 "no LRU_MODE" env -u LRU_MODE KDIR="$kdir" TEST=aging_oom $b
expect_rc 128 "a bad REPEAT" env KDIR="$kdir" TEST=aging_oom LRU_MODE=mglru REPEAT=x $b
expect_rc 128 "a REPEAT too small for the point" env KDIR="$kdir" TEST=aging_oom LRU_MODE=mglru REPEAT=1 $b
expect_rc 128 "not a kernel tree" env KDIR=/ TEST=aging_oom LRU_MODE=mglru $b

standin_vng "$tmp/vng"

# standin NAME WANT WHY: a bisection step on the stand-in kernel NAME exits
# WANT, and its verdict line says WHY
standin()
{
	local f=${1// /-}
	echo "$1" >"$tmp/$f.bzImage"
	expect_rc "$2" "a stand-in kernel that does '$1'" \
		env KDIR="$kdir" TEST=aging_oom LRU_MODE=mglru REPEAT=3 \
		GUEST_KERNEL="$tmp/$f.bzImage" VNG="$tmp/vng" GUEST_ACCEL=tcg \
		BOOT_TIMEOUT=3 CACHE="$tmp/cache" RESULTS="$tmp/step-$f" $b
	if grep -q "mglru: bisect: aging_oom_mglru: .*$3" "$tmp/out"; then
		grep "mglru: bisect: aging_oom_mglru: .*(exit" "$tmp/out" | sed 's/^/     /'
	else
		echo "FAIL '$1': no verdict line saying '$3'"
		grep 'mglru: bisect:' "$tmp/out" | sed 's/^/  | /'
		rc=1
	fi
	[ -d "$tmp/cache/build/kdir-$(realpath "$kdir" | sha1sum | cut -c1-10)/guest-x86_64-hz250" ] &&
		{ echo "FAIL '$1': a guest kernel build was started"; rc=1; }
}
standin pass 0 "3 pass, 0 fail"
standin fail 1 "0 pass, 3 fail"
standin panic 1 "crashed during the scenario: BUG: kernel NULL pointer"
standin lockup 1 "crashed during the scenario: watchdog: BUG: soft lockup"
standin hang 1 "killed at the outer timeout (timed out after 3s) while the test was running"
standin noboot 125 "crashed before the test started: Kernel panic"
standin boothang 125 "the build or the boot failed (timed out after 3s)"
# the emulator's crash (runner/crash.py) is retried, never the kernel's
standin "emu-boot pass" 0 "3 pass, 0 fail"
standin "emu-boot fail" 1 "0 pass, 3 fail"
standin "emu-mid pass" 0 "3 pass, 0 fail"
standin "emu-boot emu-boot" 125 "the emulator crashed the guest twice, not the kernel"
standin int3-cc 125 "crashed before the test started: Oops: int3"
exit $rc
