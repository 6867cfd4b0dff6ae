#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the guest: the kill campaign of one mm/mglru kselftest. At
# each of SECONDS into a run, the test is sent SIGTERM (what the kselftest
# runner's timeout sends; the test tears down, then dies of it), then, in a
# second run, SIGKILL (no teardown is possible: the next run, here
# `TEST -C`, must find what it left by name and undo it), then, in a third
# run of one LRU mode, SIGKILL to its child alone, the harness that sets
# up and measures (the parent must tear down and report the mode failed;
# where the mode ends before the kill time, its own teardown is checked).
# After each kill nothing may be left: memcgs, mounts, loop and dm
# devices, swap, zram devices, files in the suite's home, and the knobs as
# they were (state.sh). One KTAP line per kill.
#
# usage: kill.sh INSTALL_DIR TEST "SECONDS..."

install=$1 test=$2 times=$3
. "$(dirname "$0")/state.sh"
begin

# harness PID: PID's child in the harness memcg, once there is one (10 s)
harness()
{
	i=0
	while [ $i -lt 100 ] && kill -0 "$1" 2>/dev/null; do
		for c in $(pgrep -P "$1"); do
			if grep -qx "$c" /sys/fs/cgroup/mglru_selftest/harness/cgroup.procs 2>/dev/null; then
				echo "$c"
				return
			fi
		done
		i=$((i + 1))
		sleep 0.1
	done
}

cd "$install/mm/mglru" || exit 1
n=0 leaks=0 early=0
echo "TAP version 13"
echo "1..$(($(echo "$times" | wc -w) * 3))"
for secs in $times; do
	for sig in TERM KILL CHILD; do
		n=$((n + 1))
		point="$test SIG$sig at ${secs}s"
		if [ $sig = CHILD ]; then
			point="$test's child SIGKILL at ${secs}s"
			"./$test" -m mglru >"$out/test.out" 2>&1 &
			pid=$!
			sleep "$secs"
			child=$(harness "$pid")
			[ -n "$child" ] && kill -KILL "$child"
			wait "$pid"
			rc=$?
			# the mode failed: "not ok", exit 1. A mode that ended
			# before the kill time had no child left to kill: its
			# own teardown is checked instead.
			if [ -n "$child" ] && [ $rc -eq 1 ]; then
				rc=124
			elif [ -z "$child" ] && [ $rc -le 1 ]; then
				rc=124 point="$point (the mode ended before it)"
			fi
		else
			timeout -s $sig "$secs" "./$test" >"$out/test.out" 2>&1
			rc=$?
		fi
		if [ $sig = KILL ]; then
			"./$test" -C >"$out/sweep.out" 2>&1
			grep '^# cleanup' "$out/sweep.out" | head -n 20
		fi
		sleep 1
		snapshot >"$out/after"
		if [ $rc -ne 124 ] && [ $rc -ne 137 ]; then
			early=$((early + 1))
			tail -n 3 "$out/test.out" | sed 's/^/# /'
			echo "not ok $n $point: it exited ($rc) before the kill"
		elif ! diff -u "$out/before" "$out/after" | sed 's/^/# /' | grep '^# [-+][^-+]'; then
			echo "ok $n $point"
		else
			leaks=$((leaks + 1))
			tail -n 5 "$out/test.out" | sed 's/^/# /'
			echo "not ok $n $point: state left behind"
			# start the next kill from a clean state
			"./$test" -C >/dev/null 2>&1
			snapshot >"$out/before"
		fi
	done
done
echo "# kills: $n, leaks: $leaks, exited early: $early"
[ $leaks -eq 0 ] && [ $early -eq 0 ]
