#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the guest: dirty_throttle's tracing. The test samples dd's
# throttle events through perf events and writes nothing of tracefs: with
# someone else's tracing setup on the same event (state.sh's
# foreign_tracing), it must count dd's throttles and leave the setup, and
# no instance, behind; where tracefs is not mounted, it must mount it in
# its run's scratch directory and leave it unmounted. One KTAP line per
# check.
#
# usage: tracing.sh INSTALL_DIR

install=$1
home=/run/mglru-selftest
. "$(dirname "$0")/state.sh"
cd "$install/mm/mglru" || exit 1
n=0 rc=0

mountpoint -q $tfs || mount -t tracefs tracefs $tfs
if [ ! -e $tfs/$ev/enable ]; then
	echo "1..0 # SKIP no trace event $ev"
	exit 0
fi
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
foreign_tracing
tracing_state >"$out/before"
echo "1..7"

./dirty_throttle -m mglru >"$out/test.out" 2>&1
ok $? "dirty_throttle passed beside a foreign setup"
grep -q 'throttled_writeback=[1-9]' "$out/test.out"
ok $? "it counted dd's throttles ($(grep -o 'throttled_writeback=[0-9]*' "$out/test.out"))"
tracing_state >"$out/after"
diff -u "$out/before" "$out/after" | sed 's/^/# /' | grep '^# [-+][^-+]'
ok "$((!$?))" "the foreign setup left as it was, no instance made"

umount $tfs || exit 1
./dirty_throttle -m mglru >"$out/test.out" 2>&1
ok $? "dirty_throttle passed with tracefs unmounted"
! grep -q " $home/" /proc/mounts
ok $? "no mount left in $home"
! mountpoint -q $tfs
ok $? "the system's tracefs left unmounted"
mount -t tracefs tracefs $tfs || exit 1
tracing_state >"$out/after"
diff -u "$out/before" "$out/after" | sed 's/^/# /' | grep '^# [-+][^-+]'
ok "$((!$?))" "the foreign setup left as it was, no instance made"
exit $rc
