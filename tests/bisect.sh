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
# timeout are bad; one that does not boot cannot be tested.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh

. tests/expect.sh
fx=tests/fixtures

# ktap TEST POINT ok|"not ok": one finished run of TEST in which POINT
# has that result
ktap()
{
	printf 'TAP version 13\n1..1\n# selftests: mm/mglru: %s\n# TAP version 13\n# 1..1\n# %s 1 %s\nok 1 selftests: mm/mglru: %s\n' \
		"$1" "$3" "$2" "$1"
}
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
mkdir -p "$kdir/mm"
touch "$kdir/mm/vmscan.c" "$kdir/Kconfig"
printf 'kernelversion:\n\t@echo 7.3.4\n' >"$kdir/Makefile"
b=runner/export/bisect-run.sh
# (RESULTS: a step that gets past its input checks writes nothing here)
export RESULTS=$tmp/bad-input
expect_rc 128 "no TEST" env -u TEST KDIR="$kdir" LRU_MODE=mglru $b
expect_rc 128 "an unknown TEST" env KDIR="$kdir" TEST=nope LRU_MODE=mglru $b
expect_rc 128 "no LRU_MODE" env -u LRU_MODE KDIR="$kdir" TEST=aging_oom $b
expect_rc 128 "a bad REPEAT" env KDIR="$kdir" TEST=aging_oom LRU_MODE=mglru REPEAT=x $b
expect_rc 128 "a REPEAT too small for the point" env KDIR="$kdir" TEST=aging_oom LRU_MODE=mglru REPEAT=1 $b
expect_rc 128 "not a kernel tree" env KDIR=/ TEST=aging_oom LRU_MODE=mglru $b

# The stand-in tree: the hook in place (tree.sh applies nothing), a
# kernel version, and a kselftest Makefile whose install writes the list,
# the programs and the settings kselftest.sh reads.
echo "/* CONFIG_MGLRU_KUNIT_TEST */" >"$kdir/mm/vmscan.c"
mkdir -p "$kdir/tools/testing/selftests"
# shellcheck disable=SC2016 # $(INSTALL_PATH) is make's
printf '%s\n' 'TARGETS += mm' 'install:' \
	'	mkdir -p $(INSTALL_PATH)/mm/mglru' \
	"	printf 'mm/mglru:%s\\n' $(selftest_names | tr '\n' ' ') >\$(INSTALL_PATH)/kselftest-list.txt" \
	"	cd \$(INSTALL_PATH)/mm/mglru && touch $(selftest_names | tr '\n' ' ') && chmod +x $(selftest_names | tr '\n' ' ')" \
	'	echo timeout=60 >$(INSTALL_PATH)/mm/mglru/settings' \
	>"$kdir/tools/testing/selftests/Makefile"
# A cache of its own, whose venv needs no install (deps.sh)
mkdir -p "$tmp/cache/venv"
sha1sum <runner/requirements.txt >"$tmp/cache/venv/.mglru-requirements"

# The stand-in virtme-ng: the kernel image (-r) says what the guest does.
# It writes what runs.sh's runs would (each run's meminfo as it starts,
# its KTAP) and the console the kernel would: the kselftest runner's
# line as each run starts, and the kernel's messages.
{
	echo '#!/bin/bash'
	declare -f ktap
	cat <<'EOS'
while [ $# -gt 0 ]; do
	case $1 in
	-r) kernel=$2; shift ;;
	--rwdir=*) dir=${1#--rwdir=} ;;
	esac
	shift
done
how=$(cat "$kernel")
echo "Linux version 7.3.4 (stand-in: $how)"
case $how in
noboot) echo "Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)"; exit 1 ;;
boothang) exec sleep 300 ;;
esac
for run in $(sed -n 's/^for run in \(.*\); do$/\1/p' "$dir/runs.sh"); do
	test=${run%%.*}
	: >"$dir/$run.meminfo"
	echo "kselftest: Running tests in mm/mglru"
	case $how in
	panic)
		printf '%s\n' "BUG: kernel NULL pointer dereference, address: 0000000000000008" \
			"Oops: Oops: 0000 [#1] PREEMPT SMP NOPTI" \
			"RIP: 0010:lru_gen_look_around+0x4d/0x3c0" \
			"Kernel panic - not syncing: Fatal exception"
		exit 1 ;;
	hang)
		printf 'TAP version 13\n1..1\n# selftests: mm/mglru: %s\n# TAP version 13\n' "$test" >"$dir/$run.ktap"
		exec sleep 300 ;;
	lockup)
		echo "watchdog: BUG: soft lockup - CPU#1 stuck for 26s! [$test:212]"
		ktap "$test" "${test}_mglru" ok >"$dir/$run.ktap" ;;
	fail) ktap "$test" "${test}_mglru" "not ok" >"$dir/$run.ktap" ;;
	*) ktap "$test" "${test}_mglru" ok >"$dir/$run.ktap" ;;
	esac
done
echo 0 >"$dir/guest.rc"
echo "reboot: Power down"
EOS
} >"$tmp/vng"
chmod +x "$tmp/vng"

# standin NAME WANT WHY: a bisection step on the stand-in kernel NAME exits
# WANT, and its verdict line says WHY
standin()
{
	echo "$1" >"$tmp/$1.bzImage"
	expect_rc "$2" "a stand-in kernel that does '$1'" \
		env KDIR="$kdir" TEST=aging_oom LRU_MODE=mglru REPEAT=3 \
		GUEST_KERNEL="$tmp/$1.bzImage" VNG="$tmp/vng" GUEST_ACCEL=tcg \
		BOOT_TIMEOUT=3 CACHE="$tmp/cache" RESULTS="$tmp/step-$1" $b
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
exit $rc
