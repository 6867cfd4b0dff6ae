#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the guest: the kill campaign of one mm/mglru kselftest. At
# each of SECONDS into a run, the test is sent SIGTERM (what the kselftest
# runner's timeout sends; the test cleans up in its handler), then, in a
# second run, SIGKILL (no cleanup is possible: the next run, here `TEST -C`,
# must find what it left and undo it). After each kill nothing may be left:
# memcgs, mounts, loop and dm devices, swap, zram devices, journals, and
# lru_gen/enabled, vm.swappiness and the vm.dirty*_ratio knobs as they were.
# One KTAP line per kill.
#
# usage: guest-kill.sh INSTALL_DIR TEST "SECONDS..."

install=$1 test=$2 times=$3

snapshot()
{
	echo "lru_gen/enabled: $(cat /sys/kernel/mm/lru_gen/enabled)"
	echo "vm.swappiness: $(cat /proc/sys/vm/swappiness)"
	echo "vm.dirty_ratio: $(cat /proc/sys/vm/dirty_ratio)"
	echo "vm.dirty_background_ratio: $(cat /proc/sys/vm/dirty_background_ratio)"
	for q in /sys/block/loop*/queue/read_ahead_kb; do
		[ -e "$q" ] && echo "$q: $(cat "$q")"
	done
	find /sys/fs/cgroup -mindepth 1 -type d | sed 's/^/memcg: /'
	sed 's/^/mount: /' /proc/mounts
	losetup -a | sed 's/^/loop: /'
	dmsetup ls 2>/dev/null | grep -v 'No devices found' | sed 's/^/dm: /'
	tail -n +2 /proc/swaps | sed 's/^/swap: /'
	find /sys/block -maxdepth 1 -name 'zram*' | sed 's/^/zram: /'
	find /tmp -maxdepth 1 -name 'mglru*' | sed 's/^/tmp: /'
}

# non-default values, so that a missing restore shows
echo 0x0003 >/sys/kernel/mm/lru_gen/enabled
echo 33 >/proc/sys/vm/swappiness
echo 21 >/proc/sys/vm/dirty_ratio
echo 11 >/proc/sys/vm/dirty_background_ratio
snapshot >/tmp/before

cd "$install/mm/mglru" || exit 1
n=0 leaks=0 early=0
echo "TAP version 13"
echo "1..$(($(echo "$times" | wc -w) * 2))"
for secs in $times; do
	for sig in TERM KILL; do
		n=$((n + 1))
		point="$test SIG$sig at ${secs}s"
		timeout -s $sig "$secs" "./$test" >/tmp/test.out 2>&1
		rc=$?
		if [ $sig = KILL ]; then
			"./$test" -C >/tmp/sweep.out 2>&1
			grep '^# cleanup' /tmp/sweep.out | head -n 20
		fi
		sleep 1
		snapshot >/tmp/after
		if [ $rc -ne 124 ] && [ $rc -ne 137 ]; then
			early=$((early + 1))
			tail -n 3 /tmp/test.out | sed 's/^/# /'
			echo "not ok $n $point: it exited ($rc) before the signal"
		elif ! diff -u /tmp/before /tmp/after | sed 's/^/# /' | grep '^# [-+][^-+]'; then
			echo "ok $n $point"
		else
			leaks=$((leaks + 1))
			tail -n 5 /tmp/test.out | sed 's/^/# /'
			echo "not ok $n $point: state left behind"
			# start the next kill from a clean state
			"./$test" -C >/dev/null 2>&1
			snapshot >/tmp/before
		fi
	done
done
echo "# kills: $n, leaks: $leaks, exited early: $early"
[ $leaks -eq 0 ] && [ $early -eq 0 ]
