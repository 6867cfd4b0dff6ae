#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the guest: the kill campaign of one mm/mglru kselftest. At
# each of SECONDS into a run, the test is sent SIGTERM (what the kselftest
# runner's timeout sends; the test cleans up in its handler), then, in a
# second run, SIGKILL (no cleanup is possible: the next run, here `TEST -C`,
# must find what it left and undo it). After each kill nothing may be left:
# memcgs, mounts, loop and dm devices, swap, zram devices, files in the
# suite's home, and the knobs as they were (state.sh).
# One KTAP line per kill.
#
# usage: kill.sh INSTALL_DIR TEST "SECONDS..."

install=$1 test=$2 times=$3
. "$(dirname "$0")/state.sh"
begin

cd "$install/mm/mglru" || exit 1
n=0 leaks=0 early=0
echo "TAP version 13"
echo "1..$(($(echo "$times" | wc -w) * 2))"
for secs in $times; do
	for sig in TERM KILL; do
		n=$((n + 1))
		point="$test SIG$sig at ${secs}s"
		timeout -s $sig "$secs" "./$test" >"$out/test.out" 2>&1
		rc=$?
		if [ $sig = KILL ]; then
			"./$test" -C >"$out/sweep.out" 2>&1
			grep '^# cleanup' "$out/sweep.out" | head -n 20
		fi
		sleep 1
		snapshot >"$out/after"
		if [ $rc -ne 124 ] && [ $rc -ne 137 ]; then
			early=$((early + 1))
			tail -n 3 "$out/test.out" | sed 's/^/# /'
			echo "not ok $n $point: it exited ($rc) before the signal"
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
