#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the guest: dirty_throttle's tracing. With someone else's
# tracing setup on the same event (state.sh's foreign_tracing), the test
# must trace dd alone in an instance of its own and leave the setup, and
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
echo "1..9"

# watch FS: while the run runs, what its instance in FS/instances traces
# once the task has exec'd ("<set_event_pid> <the task's comm> <enable>"),
# in $out/seen
watch()
{
	./dirty_throttle -m mglru >"$out/test.out" 2>&1 &
	pid=$! i=0
	: >"$out/seen"
	while [ ! -s "$out/seen" ] && kill -0 $pid 2>/dev/null && [ $i -lt 1200 ]; do
		for d in "$1"/instances/mglru_selftest-*; do
			p=$(cat "$d/set_event_pid" 2>/dev/null)
			c=$(cat /proc/"$p"/comm 2>/dev/null)
			[ "$c" = dd ] || continue
			echo "$p $c $(cat "$d/$ev/enable")" >"$out/seen"
		done
		i=$((i + 1))
		sleep 0.05
	done
	wait $pid
	status=$?
}

watch $tfs
ok $status "dirty_throttle passed beside a foreign setup (exit $status)"
read -r p comm enable <"$out/seen"
ok "$([ "$comm" = dd ] && [ "$enable" = 1 ]; echo $?)" "its instance traced dd alone (pid ${p:-?} ${comm:-?}, enable ${enable:-?})"
grep -q 'throttled_writeback=[1-9]' "$out/test.out"
ok $? "it counted dd's throttles"
tracing_state >"$out/after"
diff -u "$out/before" "$out/after" | sed 's/^/# /' | grep '^# [-+][^-+]'
ok "$((!$?))" "the foreign setup left as it was, no instance left"

umount $tfs || exit 1
watch $home/scratch/tracefs
ok $status "dirty_throttle passed with tracefs unmounted (exit $status)"
read -r p comm enable <"$out/seen"
ok "$([ "$comm" = dd ]; echo $?)" "its instance in its own mount traced dd (pid ${p:-?} ${comm:-?})"
! grep -q " $home/" /proc/mounts
ok $? "no mount left in $home"
! mountpoint -q $tfs
ok $? "the system's tracefs left unmounted"
mount -t tracefs tracefs $tfs || exit 1
tracing_state >"$out/after"
diff -u "$out/before" "$out/after" | sed 's/^/# /' | grep '^# [-+][^-+]'
ok "$((!$?))" "the foreign setup left as it was, no instance left"
exit $rc
