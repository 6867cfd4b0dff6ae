#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build and install the mm/mglru kselftests from the guest tree, then run
# them in the guest with the kernel's own kselftest runner, one guest boot
# per test so that each test is a phase of its own.
#
# usage: kselftest.sh TREE BZIMAGE RESULTS_DIR
# TESTS="a b" runs a subset (names as in kselftest-list.txt, without the
# mm/mglru: prefix).

. "$(dirname "$0")/lib.sh"

tree=$1 kernel=$2 results=$3
build=$CACHE/build/$(tree_name)/kselftest
install=$CACHE/build/$(tree_name)/kselftest-install
mkdir -p "$results"

phase kselftest-build make -C "$tree/tools/testing/selftests" TARGETS=mm/mglru \
	O="$build" INSTALL_PATH="$install" install || die "kselftest build failed"

known=$(sed -n 's/^mm\/mglru://p' "$install/kselftest-list.txt")
[ -n "$known" ] || die "no mm/mglru tests in $install/kselftest-list.txt"
tests=${TESTS:-$known}
for t in $tests; do
	echo "$known" | grep -qx "$t" ||
		die "unknown test '$t' (known: $(echo "$known" | tr '\n' ' '))"
done

export GUEST_ACCEL=${GUEST_ACCEL:-$("$SUITE_ROOT/runner/vm.sh" accel "$kernel")} || exit 1
echo "$GUEST_ACCEL" >"$results/accel"

rc=0
for t in $tests; do
	dir=$results/guest-$t
	phase "test-$t" "$SUITE_ROOT/runner/vm.sh" run "$kernel" "$dir" \
		"uname -r; cd $install && ./run_kselftest.sh -t mm/mglru:$t" || rc=1
	[ -f "$dir/guest.out" ] && sed '1d' "$dir/guest.out" >"$results/kselftest-$t.ktap"
	[ -f "$dir/guest.out" ] && head -n1 "$dir/guest.out" >"$results/guest-uname"
done
exit $rc
