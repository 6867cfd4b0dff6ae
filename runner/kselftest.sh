#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build and install the mm/mglru kselftests from the guest tree, then run
# them in the guest with the kernel's own kselftest runner, one guest boot
# per test so that each test is a phase of its own.
#
# usage: kselftest.sh TREE BZIMAGE RESULTS_DIR
# TESTS="a b" runs a subset (names as in kselftest-list.txt, without the
# mm/mglru: prefix); REPEAT=N runs each test N times (the summary reports
# how many runs failed and the median metrics); LRU_MODE=mglru|classic runs
# one LRU mode only (-m, through the runner's KSELFTEST_<TEST>_ARGS).
# Under TCG the guest is a slow machine as kernel CI means it:
# KSFT_MACHINE_SLOW=yes (the tests' time limits x3) and the runner's
# timeout x3 (--override-timeout).

. "$(dirname "$0")/lib.sh"

tree=$1 kernel=$2 results=$3
install=$KSELFTEST_INSTALL
case $results in
*:*) die "results folder $results: virtme-ng cannot share a path with ':'" ;;
esac
mkdir -p "$results"

phase kselftest-build install_kselftests "$tree" || die "kselftest build failed"

known=$(sed -n 's/^mm\/mglru://p' "$install/kselftest-list.txt")
[ -n "$known" ] || die "no mm/mglru tests in $install/kselftest-list.txt"
tests=${TESTS:-$known}
for t in $tests; do
	echo "$known" | grep -qx "$t" ||
		die "unknown test '$t' (known: $(echo "$known" | tr '\n' ' '))"
done

GUEST_ACCEL=${GUEST_ACCEL:-$(pick_accel)} || exit 1
export GUEST_ACCEL
echo "$GUEST_ACCEL" >"$results/accel"

slow=1
[ "$GUEST_ACCEL" = tcg ] && slow=3
tmo=$(($(sed -n 's/^timeout=//p' "$install/mm/mglru/settings") * slow))
# the guest gets the runner's timeout plus time to boot and power off, so
# that the runner's timeout (and the tests' cleanup) fires first
export BOOT_TIMEOUT=${BOOT_TIMEOUT:-$((tmo + 120))}

repeat=${REPEAT:-1}
case $repeat in
''|*[!0-9]*|0) die "REPEAT=$repeat: expected a positive number" ;;
esac

rc=0
for t in $tests; do
	for i in $(seq "$repeat"); do
		run=$t
		[ "$repeat" -gt 1 ] && run=$t.r$i
		dir=$results/guest-$run
		# a test's verdict is the summary's to judge against the kernel's
		# expectations; a guest that did not run the test fails the run
		phase "test-$run" "$SUITE_ROOT/runner/vm.sh" run "$kernel" "$dir" \
			"uname -r; cd $install && $(ksft_env "$t" "${LRU_MODE:+-m $LRU_MODE}") ./run_kselftest.sh --override-timeout $tmo -t mm/mglru:$t" ||
			[ -f "$dir/guest.rc" ] || rc=1
		[ -f "$dir/guest.out" ] || continue
		sed '1d' "$dir/guest.out" >"$results/kselftest-$run.ktap"
		head -n1 "$dir/guest.out" >"$results/guest-uname"
	done
done
exit $rc
