#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Show what the MGLRU KUnit suites do on a machine that is not a test
# kernel's: an x86_64 guest booted with MGLRU off (the default,
# CONFIG_LRU_GEN_ENABLED unset) and 1 GiB of page cache, the suites built
# in and run through debugfs twice once it is up
# (runner/validate/kunit-guest/). Two boots, a line a run: the suites with
# MGLRU as booted, and with MGLRU switched on by the harness; MGLRU's state
# and Cached before and after, passes, skips, failures and the kernel's
# warnings. The helper cases pass and the folio cases skip with the reason,
# the same in both runs. The KTAP lands in RESULTS (default
# results/kunit-guest-<kernel>, -<variant> added for a VARIANT).
#
# usage: kunit-guest.sh   (KERNEL=, KDIR=, VARIANT=, MEM= (default 4G), CPUS=,
#                          ACCEL=)

. "$(dirname "$0")/../lib.sh"

export ARCH=x86_64 MEM=${MEM:-4G}
# the KUnit suite is built into the guest kernel: always from source
export GUEST=source
check_inputs KDIR KERNEL VARIANT JOBS MEM CPUS ACCEL GUEST_APPEND
[ "${VARIANT:-}" != port ] || die "VARIANT=port: kunit-guest runs a kernel that has the helpers"
GUEST_BUILD=$CACHE/build/$(tree_name)/guest-kunit-$ARCH
export GUEST_BUILD
export EXTRA_CONFIG=$SUITE_ROOT/runner/validate/kunit-guest/config
variant=${VARIANT:+-$VARIANT}
export LOGDIR=${LOGDIR:-$SUITE_ROOT/results/kunit-guest-$(tree_name)${variant%-default}}
RESULTS=$LOGDIR
mkdir -p "$RESULTS"
hold_lock "$(tree_name)-guest"
phase deps "$SUITE_ROOT/runner/run/deps.sh" guest || exit 1
prepare_guest || exit 1
for phase in booted mglru_on; do
	"$SUITE_ROOT/runner/run/vm.sh" run "$kernel" "$RESULTS" \
		"sh $SUITE_ROOT/runner/validate/kunit-guest/in-guest.sh $RESULTS $phase" ||
		die "the guest run failed (console: $RESULTS/console.log)"
	cat "$RESULTS/guest.out"
	[ "$(cat "$RESULTS/guest.rc" 2>/dev/null)" = 0 ] ||
		die "in-guest.sh failed: $RESULTS/guest.out"
done
