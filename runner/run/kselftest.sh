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
# one LRU mode only (-m, through the runner's KSELFTEST_<TEST>_ARGS);
# TEST_ARGS adds arguments of TESTS' one program there (a control).
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
rm -f "$results/tcg-thread" "$results/test-args" "$results/guest-append"
[ -z "${TEST_ARGS:-}" ] || echo "$TEST_ARGS" >"$results/test-args"
[ -z "${GUEST_APPEND:-}" ] || echo "$GUEST_APPEND" >"$results/guest-append"
[ "$GUEST_ACCEL" != tcg ] || echo "${TCG_THREAD:-multi}" >"$results/tcg-thread"

repeat=${REPEAT:-1}

slow=1
[ "$GUEST_ACCEL" = tcg ] && slow=3
tmo=$(($(sed -n 's/^timeout=//p' "$install/mm/mglru/settings") * slow))
# the guest gets the runner's timeout for each run plus time to boot and
# power off, so that the runner's timeout (and the tests' cleanup) fires first
export BOOT_TIMEOUT=${BOOT_TIMEOUT:-$((tmo * repeat + 120))}

# provoke ATTEMPT: with PROVOKE_FLIPS=N, the first boot of each test
# switches MGLRU off and on N times under load before its runs, which
# provokes the emulator's crash (make emulator-stress): a validation knob
# of the retry, never of a verdict
provoke()
{
	[ -n "${PROVOKE_FLIPS:-}" ] && [ "$1" = 1 ] || return 0
	echo "sh $SUITE_ROOT/runner/validate/emulator-stress/flip.sh $PROVOKE_FLIPS >/dev/null 2>&1"
}

# boot TEST DIR ATTEMPT RUNS...: one boot of the guest that runs RUNS of
# TEST, one after the other. The runs are a script in the shared folder:
# the kernel command line, which carries the guest's command, has no room
# for ten of them. Each run's KTAP goes through a pipe into a file of its
# own: the kselftest runner reopens /dev/stdout in append mode (see vm.sh).
# Before each run the guest's memory is put back as after boot, as far as
# it can be: clean page cache and slab dropped (the memory a run leaves
# behind slowed the next ones down). After each run the guest says so on
# its console, where runner/crash.py finds the runs that finished before a
# crash. The modules loaded by then are kept (<run>.modules), for
# runner/validate/image-config.sh. vm.sh exits $EX_EMULATOR when the
# emulator crashed the guest.
boot()
{
	local t=$1 dir=$2 attempt=$3 name=test-$1
	shift 3
	[ "$attempt" = 1 ] || name=$name.attempt$attempt
	cat >"$dir/runs.sh" <<-EOF
	cd $install || exit 1
	$(provoke "$attempt")
	for run in $*; do
		sync; echo 3 >/proc/sys/vm/drop_caches
		date +%s.%N >$dir/\$run.start
		cat /proc/meminfo >$dir/\$run.meminfo
		$(ksft_env "$t" "${LRU_MODE:+-m $LRU_MODE}${TEST_ARGS:+ $TEST_ARGS}") $(ksft_cmd "$t") 2>&1 | cat >$dir/\$run.ktap
		cat /proc/modules >$dir/\$run.modules 2>/dev/null
		echo "mglru: run \$run finished" >/dev/kmsg
	done
	EOF
	VM_RETRY=0 phase "$name" "$SUITE_ROOT/runner/run/vm.sh" run "$kernel" "$dir" \
		"uname -r; sh $dir/runs.sh"
}

# A boot that the emulator crashed (runner/crash.py) is not the kernel's
# failure. Its runs that finished before the crash keep their verdicts;
# the others run again, once, in a new boot. A run that the emulator
# crashed twice has no verdict: ERROR. $results/attempts.tsv records each
# run of a crashed boot, "<test> <run> <attempt> KEPT|ERROR <why>", for the
# summary and KCIDB; the crashed boot's files move to guest-<test>/attempt1/.
rc=0
attempts=$(max_attempts)
# a results folder run again (RESULTS=) keeps no record of an earlier run's
# crashed boots
rm -f "$results/attempts.tsv" "$results/provoke-flips"
[ -z "${PROVOKE_FLIPS:-}" ] || echo "$PROVOKE_FLIPS" >"$results/provoke-flips"
for t in $tests; do
	runs=$t
	[ "$repeat" -gt 1 ] && runs=$(seq -f "$t.r%g" "$repeat" | tr '\n' ' ')
	dir=$results/guest-$t
	rm -rf "$dir"
	mkdir -p "$dir"
	todo=$runs
	for attempt in $(seq "$attempts"); do
		# a test's verdict is the summary's to judge against the kernel's
		# expectations; a guest that did not run the test fails the run
		# shellcheck disable=SC2086
		boot "$t" "$dir" "$attempt" $todo
		vrc=$?
		[ -s "$dir/guest.out" ] && head -n1 "$dir/guest.out" >"$results/guest-uname"
		# (the command's own status 75 is no emulator's: guest.emulator says)
		if [ "$vrc" != "$EX_EMULATOR" ] || [ ! -s "$dir/guest.emulator" ]; then
			[ "$vrc" = 0 ] || [ -f "$dir/guest.rc" ] || rc=1
			break
		fi
		why=$(cat "$dir/guest.emulator")
		finished=$(python3 "$SUITE_ROOT/runner/crash.py" --finished "$dir/console.log" \
			   "$GUEST_ACCEL")
		left=
		for run in $todo; do
			if grep -qxF -- "$run" <<<"$finished"; then
				printf '%s\t%s\t%s\tKEPT\t%s\n' "$t" "$run" "$attempt" "$why"
				mv "$dir/$run.ktap" "$results/kselftest-$run.ktap"
			else
				printf '%s\t%s\t%s\tERROR\t%s\n' "$t" "$run" "$attempt" "$why"
				left="$left $run"
			fi
		done >>"$results/attempts.tsv"
		todo=$left
		[ -n "$todo" ] || break
		if [ "$attempt" = "$attempts" ]; then
			rc=1
			break
		fi
		# the crashed boot's files, and its unfinished runs' partial KTAP
		# shellcheck disable=SC2046 # (run names and their files: no spaces)
		keep_attempt "$dir" runs.sh $(cd "$dir" && for run in $todo; do echo "$run".*; done)
		note "$t: the emulator crashed the guest, not the kernel ($why): runs again:$todo"
	done
	for run in $todo; do
		# a run without a file: the summary counts it as failed, "no output"
		# (ERROR, when attempts.tsv says the emulator crashed it twice)
		if [ -f "$dir/$run.ktap" ]; then
			mv "$dir/$run.ktap" "$results/kselftest-$run.ktap"
		else
			: >"$results/kselftest-$run.ktap"
		fi
	done
done
exit $rc
