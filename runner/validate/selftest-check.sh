#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Checks of the kselftests themselves, in the guest, from runner/selftests.txt:
#   canfail   each test's failure criterion fails when its scenario is
#             overloaded (runner/validate/selftest-check/canfail.sh);
#   kill      the kill campaign: each test is sent SIGTERM and SIGKILL at
#             the table's times (the first KILLS of them, all by default)
#             and nothing may be left once the next run has swept
#             (runner/validate/selftest-check/kill.sh); a leaky control must be caught;
#   overlap   two runs at once, killed in both orders with SIGTERM and
#             SIGKILL, leave every knob as it was (runner/validate/selftest-check/overlap.sh);
#   security  the tests obey no file another user wrote and no state line
#             outside its rules (runner/validate/selftest-check/security.sh);
#   debugfs   where debugfs is not mounted, readahead_refault sets its knob
#             in a mount of its own and leaves it all as it was
#             (runner/validate/selftest-check/debugfs.sh).
#
# usage: selftest-check.sh TREE BZIMAGE RESULTS_DIR

. "$(dirname "$0")/../lib.sh"

tree=$1 kernel=$2 results=$3
install=$KSELFTEST_INSTALL
kills=${KILLS:-all}
phase kselftest-build install_kselftests "$tree" || die "kselftest build failed"
GUEST_ACCEL=${GUEST_ACCEL:-$(pick_accel)} || exit 1
export GUEST_ACCEL

rc=0
dir=$results/canfail
mkdir -p "$dir"
tables controls >"$dir/controls" ||
	die "cannot list the overload controls"
# the overloaded scenarios in one boot take about four minutes under TCG
if BOOT_TIMEOUT=${BOOT_TIMEOUT:-900} phase canfail "$SUITE_ROOT/runner/run/vm.sh" run "$kernel" "$dir" \
	"$(slow_env)sh $SUITE_ROOT/runner/validate/selftest-check/canfail.sh $install $dir/controls"; then
	grep '^ok - ' "$dir/guest.out" >&2
else
	grep -A5 '^not ok - ' "$dir/guest.out" >&2
	rc=1
fi

total=0 leaks=0
for name in $(selftest_names); do
	times=$(selftest_kill_times "$name")
	[ "$kills" = all ] || times=$(echo "$times" | cut -d' ' -f"1-$kills")
	dir=$results/kill-$name
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-1800} phase "kill-$name" "$SUITE_ROOT/runner/run/vm.sh" run "$kernel" "$dir" \
		"$(slow_env)sh $SUITE_ROOT/runner/validate/selftest-check/kill.sh $install $name '$times'" || rc=1
	grep -E '^(not ok|# kills)' "$dir/guest.out" >&2
	read -r k l < <(sed -n 's/^# kills: \([0-9]*\), leaks: \([0-9]*\),.*/\1 \2/p' \
		"$dir/guest.out")
	total=$((total + ${k:-0})) leaks=$((leaks + ${l:-0}))
done
echo "selftest-check: kill campaign: $total kills, $leaks leaks" >&2

# the first test of the table: its first kill time is well into its setup
first=$(selftest_names | head -n 1)
secs=$(selftest_kill_times "$first" | cut -d' ' -f1)
for job in overlap security debugfs tracing; do
	dir=$results/$job
	case $job in
	overlap) args="$first $secs" ;;
	security) args=$first ;;
	debugfs | tracing) args= ;;
	esac
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-900} phase "$job" "$SUITE_ROOT/runner/run/vm.sh" run "$kernel" "$dir" \
		"$(slow_env)sh $SUITE_ROOT/runner/validate/selftest-check/$job.sh $install $args" || rc=1
	grep -E '^(not ok|ok)' "$dir/guest.out" >&2
done

# the negative control: a "test" that leaks must be caught
dir=$results/kill-control
"$SUITE_ROOT/runner/run/vm.sh" run "$kernel" "$dir" \
	"sh $SUITE_ROOT/runner/validate/selftest-check/kill.sh $SUITE_ROOT/runner/validate/selftest-check/leaky leaky 3" \
	>/dev/null 2>"$dir.err"
vrc=$?
if [ "$vrc" = 0 ]; then
	echo "selftest-check: the leaky control passed: the check cannot fail" >&2
	rc=1
elif [ "$vrc" = "$EX_EMULATOR" ]; then
	tail -n 1 "$dir.err" >&2
	rc=1
elif grep -q '^# +memcg: /sys/fs/cgroup/mglru-leak' "$dir/guest.out" &&
     grep -q '^# +home: /run/mglru-selftest/state' "$dir/guest.out" &&
     grep -q '^not ok 1 leaky SIGTERM' "$dir/guest.out"; then
	echo "selftest-check: the leaky control was caught, as it must be" >&2
else
	echo "selftest-check: the leaky control failed for another reason:" >&2
	cat "$dir/guest.out" >&2
	rc=1
fi
exit $rc
