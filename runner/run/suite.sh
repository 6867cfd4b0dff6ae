#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The suite's main job, one phase per line:
#   all        KUnit (UML), then the guest kernel and the kselftests, then
#              the summary against the kernel's expectations;
#   kunit      KUnit only (KUNIT_ARCH=um|x86_64);
#   kselftest  the guest kernel and the kselftests only;
#   vm-shell   an interactive shell in the guest on the test kernel;
#   selftest-check  check the kselftests themselves in the guest: each can
#              fail, and each cleans up when killed mid-scenario.
# Variables: see the Makefile and doc/runner.rst.

. "$(dirname "$0")/../lib.sh"

what=${1:-all}
case $what in
all|kunit|kselftest|vm-shell|selftest-check) ;;
*) die "suite.sh: unknown job '$what' (all, kunit, kselftest, vm-shell or selftest-check)" ;;
esac
[ -n "${KDIR:-}" ] && check_kdir "$KDIR"
[ -z "${EXPECT:-}" ] || [ -f "$EXPECT" ] || die "EXPECT=$EXPECT: no such file"
[ -z "${GUEST_KERNEL:-}" ] || [ -f "$GUEST_KERNEL" ] || die "GUEST_KERNEL=$GUEST_KERNEL: no such file"
guest_hz >/dev/null || exit 1
check_kernel
case ${ACCEL:-auto} in
auto|kvm|tcg) ;;
*) die "ACCEL=$ACCEL: expected auto, kvm or tcg" ;;
esac
case ${LRU_MODE:-} in
''|mglru|classic) ;;
*) die "LRU_MODE=$LRU_MODE: expected mglru or classic (empty: both)" ;;
esac
case ${KILLS:-all} in
all|[1-9]|[1-9][0-9]) ;;
*) die "KILLS=$KILLS: expected all or a number of kill times per test" ;;
esac
[ "$ARCH" = x86_64 ] || die "ARCH=$ARCH: only x86_64 guests are supported"
case ${KUNIT_ARCH:-um} in
um|x86_64) ;;
*) die "KUNIT_ARCH=$KUNIT_ARCH: expected um or x86_64" ;;
esac
case ${REPEAT:-1} in
''|*[!0-9]*|0) die "REPEAT=$REPEAT: expected a positive number" ;;
esac
for v in JOBS CPUS; do
	case ${!v:-1} in
	*[!0-9]*|0) die "$v=${!v}: expected a positive number" ;;
	esac
done
known=$(suite_tests)
for t in ${TESTS:-}; do
	echo "$known" | grep -qx -- "$t" ||
		die "TESTS: unknown test '$t' (known: $(echo "$known" | tr '\n' ' '))"
done
case ${VARIANT:-} in
''|default) ;;
port) [ -n "${KDIR:-}" ] || [ "$(kernel_port "$KERNEL")" != - ] ||
	die "VARIANT=port: $KERNEL has the helpers already (no port in runner/kernels.txt)" ;;
*) [ -d "$SUITE_ROOT/patches/variants/$VARIANT" ] ||
	die "VARIANT=$VARIANT: unknown (default, port or one of: $(find "$SUITE_ROOT/patches/variants" -mindepth 1 -maxdepth 1 -type d -printf '%f ' 2>/dev/null))" ;;
esac

run_id=$(date +%Y%m%d-%H%M%S)-$(tree_name)-${VARIANT:-default}
RESULTS=${RESULTS:-$SUITE_ROOT/results/$run_id}
mkdir -p "$RESULTS" || die "cannot create $RESULTS"
RESULTS=$(realpath "$RESULTS")
export LOGDIR=$RESULTS/logs
ln -sfn "$RESULTS" "$SUITE_ROOT/results/latest" 2>/dev/null
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
	"$SUITE_ROOT/runner/run/kselftest.sh" "$gtree" "$kernel" "$RESULTS" || rc=1
	cp "$gtree/.mglru-suite" "$RESULTS/tree-info"
	config=$(dirname "$kernel")/../../../.config
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
