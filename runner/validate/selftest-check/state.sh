# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the guest scripts: what a mm/mglru kselftest may change on the
# guest, and must leave as it found it.
# shellcheck shell=sh

# ok COND_RC DESCRIPTION: KTAP line $n (counted here) for a check; a failed
# check sets rc=1
ok()
{
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		# shellcheck disable=SC2034 # the sourcing script's status
		rc=1
	fi
}

tfs=/sys/kernel/tracing
ev=events/vmscan/mm_vmscan_throttled

# tracing_state: the global tracing setup (someone else's, to the tests)
# and the instances, where tracefs is mounted
tracing_state()
{
	[ -d $tfs/instances ] || return 0
	for f in tracing_on buffer_size_kb set_event set_event_pid \
		 $ev/enable $ev/filter; do
		[ -e "$tfs/$f" ] && echo "tracing $f: $(tr "\n" " " <"$tfs/$f")"
	done
	find $tfs/instances -mindepth 1 -maxdepth 1 | sed 's/^/tracing instance: /'
}

# snapshot: the knobs the tests set, and what they create: memcgs, mounts,
# loop and dm devices, swap, zram devices, files in the suite's home (its
# lock stays), and tracing (tracing_state)
snapshot()
{
	echo "lru_gen/enabled: $(cat /sys/kernel/mm/lru_gen/enabled)"
	echo "vm.swappiness: $(cat /proc/sys/vm/swappiness)"
	echo "vm.dirty_ratio: $(cat /proc/sys/vm/dirty_ratio)"
	echo "vm.dirty_background_ratio: $(cat /proc/sys/vm/dirty_background_ratio)"
	[ -e /sys/kernel/debug/fault_around_bytes ] &&
		echo "fault_around_bytes: $(cat /sys/kernel/debug/fault_around_bytes)"
	for q in /sys/block/loop*/queue/read_ahead_kb; do
		[ -e "$q" ] && echo "$q: $(cat "$q")"
	done
	find /sys/fs/cgroup -mindepth 1 -type d | sed 's/^/memcg: /'
	sed 's/^/mount: /' /proc/mounts
	losetup -a | sed 's/^/loop: /'
	dmsetup ls 2>/dev/null | grep -v 'No devices found' | sed 's/^/dm: /'
	tail -n +2 /proc/swaps | sed 's/^/swap: /'
	find /sys/block -maxdepth 1 -name 'zram*' | sed 's/^/zram: /'
	[ -d /run/mglru-selftest ] &&
		find /run/mglru-selftest -mindepth 1 ! -name lock | sed 's/^/home: /'
	tracing_state
}

# foreign_tracing: a tracing setup of someone else's, on the tests' own
# event, that they must leave alone (where tracefs is mounted). Nothing is
# enabled: enabling an event patches the scheduler's code live, which has
# crashed TCG guests (trace.c).
foreign_tracing()
{
	[ -e $tfs/$ev/enable ] || return 0
	echo 0 >$tfs/tracing_on
	echo 'nid != 7' >$tfs/$ev/filter
	echo 97 >$tfs/buffer_size_kb
}

# unusual_knobs: non-default values, so that a missing restore shows
unusual_knobs()
{
	echo 0x0003 >/sys/kernel/mm/lru_gen/enabled
	echo 33 >/proc/sys/vm/swappiness
	echo 21 >/proc/sys/vm/dirty_ratio
	echo 11 >/proc/sys/vm/dirty_background_ratio
	[ -w /sys/kernel/debug/fault_around_bytes ] &&
		echo 16384 >/sys/kernel/debug/fault_around_bytes
	foreign_tracing
}

# load_modules: the modules the tests load where the kernel builds them as
# modules (Debian's), loaded as the tests load them. A test leaves them
# loaded, as any kselftest does: loop's devices are not state left behind,
# and the checks' own victims (loop, dm) need them too.
load_modules()
{
	modprobe -q loop 2>/dev/null
	modprobe -q zram num_devices=0 2>/dev/null
	modprobe -q dm-delay 2>/dev/null
}

# begin: a scratch folder $out (removed at exit), tracefs mounted (so that
# the snapshot shows the instances), unusual knobs, and the state from
# before in $out/before
begin()
{
	mountpoint -q $tfs || mount -t tracefs tracefs $tfs 2>/dev/null
	out=$(mktemp -d) || exit 1
	trap 'rm -rf "$out"' EXIT
	load_modules
	unusual_knobs
	snapshot >"$out/before"
}
