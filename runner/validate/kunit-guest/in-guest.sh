#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In the guest of kunit-guest.sh: give the machine 1 GiB of page cache of
# its own (a file on ext4 over a loop device on tmpfs), then run the MGLRU
# KUnit suites through debugfs twice, with MGLRU as booted (off) or, for
# PHASE mglru_on, switched on here by the harness first. One line a run:
# MGLRU's state and Cached before and after, the cases that passed,
# skipped and failed, and the kernel's warnings and bugs since boot. The
# suites' KTAP goes to OUT/<phase>-<run>-<suite>.ktap.
#
# usage: in-guest.sh OUT booted|mglru_on
set -u
out=${1:?usage: in-guest.sh OUT booted|mglru_on} phase=${2:-booted}
en=/sys/kernel/mm/lru_gen/enabled
cached() { awk '/^Cached:/ { print $2 }' /proc/meminfo; }

mount -t debugfs none /sys/kernel/debug 2>/dev/null
for s in mglru mglru_evict mglru_shrink mglru_place; do
	[ -w /sys/kernel/debug/kunit/$s/run ] ||
		{ echo "no debugfs run file for $s"; exit 1; }
done
mkdir -p /run/kunit-guest && mount -t tmpfs -o size=1300m tmpfs /run/kunit-guest || exit 1
dd if=/dev/zero of=/run/kunit-guest/img bs=1M count=1250 status=none &&
	mkfs.ext4 -q -F /run/kunit-guest/img || exit 1
loop=$(losetup -f --show /run/kunit-guest/img) || exit 1
mkdir -p /run/kunit-guest/mnt && mount "$loop" /run/kunit-guest/mnt || exit 1
dd if=/dev/urandom of=/run/kunit-guest/mnt/cache bs=1M count=1024 status=none && sync

suites()
{
	tag=$1 en0=$(cat $en) c0=$(cached)
	for s in mglru mglru_evict mglru_shrink mglru_place; do
		echo run >/sys/kernel/debug/kunit/$s/run
		cat /sys/kernel/debug/kunit/$s/results >"$out/$tag-$s.ktap"
	done
	cases=$(cat "$out/$tag"-*.ktap | grep -E '^ {4}(not )?ok [0-9]+ mglru_test_')
	echo "$tag lru_gen_before=$en0 lru_gen_after=$(cat $en)" \
	     "cached_kib_before=$c0 cached_kib_after=$(cached)" \
	     "pass=$(echo "$cases" | grep -c '^ *ok [0-9]* [a-z_]*$')" \
	     "skip=$(echo "$cases" | grep -c '# SKIP')" \
	     "fail=$(echo "$cases" | grep -c '^ *not ok')" \
	     "warn_bug=$(dmesg | grep -cE 'WARNING:|BUG:|Oops')"
	echo "$cases" | sed 's/^ */    /' >"$out/$tag.cases"
}

[ "$phase" = mglru_on ] && echo y >$en
suites "$phase-1"
suites "$phase-2"
verdicts() { sed 's/ # SKIP .*/ # SKIP/' "$out/$1.cases"; }
[ "$(verdicts "$phase-1")" = "$(verdicts "$phase-2")" ] &&
	echo "$phase: the second run's verdicts are the first's" ||
	echo "$phase: the second run's verdicts differ from the first's"
[ "$phase" = mglru_on ] && echo n >$en
umount /run/kunit-guest/mnt
losetup -d "$loop"
umount /run/kunit-guest
