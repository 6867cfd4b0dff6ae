#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the guest: SIGTERM one mm/mglru kselftest in the middle of its
# scenario, as the kselftest runner's timeout does, and check that it left
# nothing behind: memcgs, mounts, loop and dm devices, swap, zram devices,
# and that lru_gen/enabled and the vm.swappiness and vm.dirty*_ratio knobs
# are as they were.
#
# usage: guest-cleanup.sh INSTALL_DIR TEST SECONDS

install=$1 test=$2 secs=$3

snapshot()
{
	echo "lru_gen/enabled: $(cat /sys/kernel/mm/lru_gen/enabled)"
	echo "vm.swappiness: $(cat /proc/sys/vm/swappiness)"
	echo "vm.dirty_ratio: $(cat /proc/sys/vm/dirty_ratio)"
	echo "vm.dirty_background_ratio: $(cat /proc/sys/vm/dirty_background_ratio)"
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
timeout -s TERM "$secs" "./$test" >/tmp/test.out 2>&1
rc=$?
sleep 1
snapshot >/tmp/after

tail -n 3 /tmp/test.out
if [ $rc -ne 124 ]; then
	echo "not ok $test: it exited ($rc) before the SIGTERM after ${secs}s: nothing was checked"
	exit 1
fi
if ! diff -u /tmp/before /tmp/after; then
	echo "not ok $test: state left behind after SIGTERM at ${secs}s"
	exit 1
fi
echo "ok $test: SIGTERM at ${secs}s left no memcg, mount, loop, dm, swap or zram device; lru_gen, swappiness and dirty ratios restored"
