#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The suite's main job, one phase per line:
#   all        KUnit (UML), then the guest kernel (Debian's binary image, or
#              built: lib.sh's guest_kind) and the kselftests, then
#              the summary against the kernel's expectations;
#   kunit      KUnit only (KUNIT_ARCH=um|x86_64);
#   kselftest  the guest kernel and the kselftests only;
#   vm-shell   an interactive shell in the guest on the test kernel;
#   selftest-check  check the kselftests themselves in the guest: each can
#              fail, and each cleans up when killed mid-scenario;
#   emulator-stress  how often the emulator crashes the guest
#              (runner/validate/emulator-stress.sh).
# Variables: see the Makefile and doc/runner.rst.

. "$(dirname "$0")/../lib.sh"

what=${1:-all}
case $what in
all|kunit|kselftest|vm-shell|selftest-check|emulator-stress) ;;
*) die "suite.sh: unknown job '$what' (all, kunit, kselftest, vm-shell, selftest-check or emulator-stress)" ;;
esac
# each variable a job uses, before any slow work
check_inputs KDIR KERNEL EXPECT GUEST_KERNEL GUEST BASE_CONFIG HZ ACCEL ARCH JOBS MEM CPUS TCG_THREAD GUEST_APPEND
case $what in
kunit) check_inputs KUNIT_ARCH KUNIT_SANITIZE ;;
all) check_inputs KUNIT_ARCH KUNIT_SANITIZE TESTS LRU_MODE TEST_ARGS REPEAT PROVOKE_FLIPS ;;
kselftest) check_inputs TESTS LRU_MODE TEST_ARGS REPEAT PROVOKE_FLIPS ;;
selftest-check) check_inputs KILLS ;;
emulator-stress) check_inputs BOOTS FLIPS MITIGATION ;;
esac
check_inputs VARIANT

run_id=$(date +%Y%m%d-%H%M%S)-$(tree_name)-${VARIANT:-default}
RESULTS=${RESULTS:-$SUITE_ROOT/results/$run_id}
mkdir -p "$RESULTS" || die "cannot create $RESULTS"
RESULTS=$(realpath "$RESULTS")
export LOGDIR=$RESULTS/logs
# results/latest names the newest run kept in results/, never one elsewhere
# (a check's scratch folder, which may be gone and taken by anyone)
case $RESULTS in
"$SUITE_ROOT/results/"*) ln -sfn "$RESULTS" "$SUITE_ROOT/results/latest" 2>/dev/null ;;
esac
t0=$(date +%s)
note "results: $RESULTS"

# Runs that share the cache wait for each other on a kernel's scratch trees:
# the KUnit tree (which make mutants patches in place) and the guest tree,
# its build and its installed kselftests. Taken in this order.
if [ "$what" = all ] || [ "$what" = kunit ]; then
	hold_lock "$(tree_name)-kunit"
fi
[ "$what" != kunit ] && hold_lock "$(tree_name)-guest"

deps=guest
[ "$what" = kunit ] && [ "${KUNIT_ARCH:-um}" = um ] && deps=kunit
phase deps "$SUITE_ROOT/runner/run/deps.sh" $deps || exit 1
# a binary guest's packages, before KUnit: a missing one is an error now
[ "$what" = kunit ] || prepare_image || exit 1

rc=0
if [ "$what" = all ] || [ "$what" = kunit ]; then
	phase tree-kunit "$SUITE_ROOT/runner/run/tree.sh" kunit || exit 1
	ktree=$(tree_dir kunit)
	phase "kunit-${KUNIT_ARCH:-um}" "$SUITE_ROOT/runner/run/kunit.sh" "$ktree" "$RESULTS" \
		"${KUNIT_ARCH:-um}" || rc=1
	cp "$ktree/.mglru-suite" "$RESULTS/tree-info"
fi

if [ "$what" != kunit ]; then
	prepare_guest || exit 1
	if [ "$what" = vm-shell ]; then
		exec "$SUITE_ROOT/runner/run/vm.sh" shell "$kernel"
	fi
	if [ "$what" = selftest-check ]; then
		"$SUITE_ROOT/runner/validate/selftest-check.sh" "$gtree" "$kernel" "$RESULTS"
		exit
	fi
	if [ "$what" = emulator-stress ]; then
		"$SUITE_ROOT/runner/validate/emulator-stress.sh" "$kernel" "$RESULTS"
		exit
	fi
	"$SUITE_ROOT/runner/run/kselftest.sh" "$gtree" "$kernel" "$RESULTS" || rc=1
	{ cat "$gtree/.mglru-suite"; guest_info; } >"$RESULTS/tree-info"
	config=$(guest_config)
	[ ! -f "$config" ] || cp "$config" "$RESULTS/guest.config"
fi

expect=$(expectations_file) || exit 1
python3 "$SUITE_ROOT/runner/run/summary.py" "$RESULTS" ${expect:+--expect "$expect"} \
	--tree-info "$RESULTS/tree-info" --config "$RESULTS/guest.config" || rc=1
# the pictures and the KCIDB document: the venv's Python has their packages
# (a KUnit-only run on UML installs no venv)
if [ -x "$VENV/bin/python3" ]; then
	if svg=$("$VENV/bin/python3" "$SUITE_ROOT/runner/run/plots.py" sweep "$RESULTS"); then
		case $svg in
		*.svg) note "picture: $svg" ;;
		esac
	else
		note "no swappiness_sweep.svg (runner/run/plots.py failed)"
	fi
	"$VENV/bin/python3" "$SUITE_ROOT/runner/export/kcidb.py" "$RESULTS" -o "$RESULTS/kcidb.json" ||
		note "no kcidb.json (runner/export/kcidb.py failed)"
fi
note "total: $(($(date +%s) - t0))s"
exit $rc
