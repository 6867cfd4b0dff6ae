#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the guest: readahead_refault where debugfs is not mounted.
# The test must mount debugfs in its run's scratch directory, turn
# fault-around off there for the run, and leave the knob and the mounts as
# it found them: the system's debugfs not mounted, the knob at its value
# from before. One KTAP line per check.
#
# usage: debugfs.sh INSTALL_DIR

install=$1
dbg=/sys/kernel/debug
home=/run/mglru-selftest
. "$(dirname "$0")/state.sh"
cd "$install/mm/mglru" || exit 1
n=0 rc=0

mountpoint -q $dbg || mount -t debugfs debugfs $dbg
if [ ! -w $dbg/fault_around_bytes ]; then
	echo "1..0 # SKIP no debugfs fault_around_bytes"
	exit 0
fi
before=$(cat $dbg/fault_around_bytes)
echo 16384 >$dbg/fault_around_bytes
umount $dbg || exit 1
echo "1..5"

./readahead_refault -m mglru -w 2 -W 4 >/dev/null 2>&1 &
pid=$!
# while the run runs, its own debugfs mount shows the knob it set
seen='' i=0
while [ -z "$seen" ] && kill -0 $pid 2>/dev/null && [ $i -lt 1200 ]; do
	seen=$(cat $home/scratch/debugfs/fault_around_bytes 2>/dev/null)
	i=$((i + 1))
	sleep 0.05
done
wait $pid
ok "$([ "$seen" = 4096 ]; echo $?)" "fault_around_bytes 4096 in the run's own debugfs mount (read: ${seen:-nothing})"
! grep -q " $home/" /proc/mounts
ok $? "no mount left in $home"
! mountpoint -q $dbg
ok $? "the system's debugfs left unmounted"
mount -t debugfs debugfs $dbg || exit 1
after=$(cat $dbg/fault_around_bytes)
ok "$([ "$after" = 16384 ]; echo $?)" "fault_around_bytes restored to 16384 (read: $after)"
./readahead_refault -C >/dev/null 2>&1
ok "$([ -z "$(find $home -mindepth 1 ! -name lock)" ]; echo $?)" "nothing left in $home after -C"
echo "$before" >$dbg/fault_around_bytes
exit $rc
