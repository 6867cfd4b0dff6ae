#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build and install the mm/mglru kselftests from the guest tree, then run
# them in the guest with the kernel's own kselftest runner, one guest boot
# per test so that each test is a phase of its own.
#
# usage: kselftest.sh TREE BZIMAGE RESULTS_DIR
# TESTS="a b" runs a subset (names as in kselftest-list.txt, without the
# mm/mglru: prefix); REPEAT=N runs each test N times, one run after the
# other in the test's guest boot (the summary reports how many runs failed
# and the median metrics; a run the guest did not finish counts as a
# failure without output); LRU_MODE=mglru|classic runs
# one LRU mode only (-m, through the runner's KSELFTEST_<TEST>_ARGS).
# Under TCG the guest is a slow machine as kernel CI means it:
# KSFT_MACHINE_SLOW=yes (the tests' time limits x3) and the runner's
# timeout x3 (--override-timeout).

. "$(dirname "$0")/../lib.sh"

tree=$1 kernel=$2 results=$3
install=$KSELFTEST_INSTALL
case $results in
*:*) die "results folder $results: virtme-ng cannot share a path with ':'" ;;
esac
mkdir -p "$results"

phase kselftest-build install_kselftests "$tree" || die "kselftest build failed"

# the build installed every test of the table (TESTS is checked already):
# the default run's, which kselftest-list.txt names, and the extended ones
# (TEST_GEN_PROGS_EXTENDED), installed but left out of that list
listed=$(sed -n 's/^mm\/mglru://p' "$install/kselftest-list.txt")
tests=${TESTS:-$(selftest_names)}
for t in $tests; do
	[ -x "$install/mm/mglru/$t" ] ||
		die "kselftest build: no program $t in $install/mm/mglru"
done
# ksft_cmd TEST: the guest's command that runs TEST once: run_kselftest.sh
# for a listed test, as CI runs it; the same runner functions for the others
ksft_cmd()
{
	if grep -qx -- "$1" <<<"$listed"; then
		echo "./run_kselftest.sh --override-timeout $tmo -t mm/mglru:$1"
	else
		echo "sh $SUITE_ROOT/runner/run/ksft-one.sh $install $tmo mm/mglru $1"
	fi
}

GUEST_ACCEL=${GUEST_ACCEL:-$(pick_accel)} || exit 1
export GUEST_ACCEL
echo "$GUEST_ACCEL" >"$results/accel"

repeat=${REPEAT:-1}

slow=1
[ "$GUEST_ACCEL" = tcg ] && slow=3
tmo=$(($(sed -n 's/^timeout=//p' "$install/mm/mglru/settings") * slow))
# the guest gets the runner's timeout for each run plus time to boot and
# power off, so that the runner's timeout (and the tests' cleanup) fires first
export BOOT_TIMEOUT=${BOOT_TIMEOUT:-$((tmo * repeat + 120))}

rc=0
for t in $tests; do
	runs=$t
	[ "$repeat" -gt 1 ] && runs=$(seq -f "$t.r%g" "$repeat" | tr '\n' ' ')
	dir=$results/guest-$t
	rm -rf "$dir"
	# The runs are a script in the shared folder: the kernel command line,
	# which carries the guest's command, has no room for ten of them. Each
	# run's KTAP goes through a pipe into a file of its own: the kselftest
	# runner reopens /dev/stdout in append mode (see vm.sh). Before each run
	# the guest's memory is put back as after boot, as far as it can be:
	# clean page cache and slab dropped (the memory a run leaves behind
	# slowed the next ones down).
	mkdir -p "$dir"
	cat >"$dir/runs.sh" <<-EOF
	cd $install || exit 1
	for run in $runs; do
		sync; echo 3 >/proc/sys/vm/drop_caches
		date +%s.%N >$dir/\$run.start
		cat /proc/meminfo >$dir/\$run.meminfo
		$(ksft_env "$t" "${LRU_MODE:+-m $LRU_MODE}") $(ksft_cmd "$t") 2>&1 | cat >$dir/\$run.ktap
	done
	EOF
	# a test's verdict is the summary's to judge against the kernel's
	# expectations; a guest that did not run the test fails the run
	phase "test-$t" "$SUITE_ROOT/runner/run/vm.sh" run "$kernel" "$dir" \
		"uname -r; sh $dir/runs.sh" ||
		[ -f "$dir/guest.rc" ] || rc=1
	[ -s "$dir/guest.out" ] && head -n1 "$dir/guest.out" >"$results/guest-uname"
	for run in $runs; do
		# a run without a file: the summary counts it as failed, "no output"
		if [ -f "$dir/$run.ktap" ]; then
			mv "$dir/$run.ktap" "$results/kselftest-$run.ktap"
		else
			: >"$results/kselftest-$run.ktap"
		fi
	done
done
exit $rc
