#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the guest, as root: the mm/mglru kselftests obey no file that
# another user wrote, and no state line outside its rules. With
# fs.protected_symlinks at 0 (restored afterwards):
#   1. user nobody plants journals and a symlink in /tmp, where the
#      journal once was; a teardown (TEST -C) must not act on them;
#   2. root plants, in the suite's home, what a run must refuse and leave
#      alone: a state file owned by nobody, a symlink, group- or
#      world-writable, a hard link, of another boot, lines outside the
#      rules; a symlinked scratch directory, symlinked mount points, a dm
#      target of the suite's name over another loop device, the starting
#      run's own state file as a symlink, a lock symlink;
#   3. the home itself with the wrong mode, owner, or as a symlink: SKIP;
#   4. a scenario that needs more memory than the machine has: SKIP.
# Victims stand where each plant points: a hostname, the knobs, a cgroup
# with a live process, a mount, a loop device, a dm target, files and
# directories. None may change. One KTAP line per check.
#
# usage: security.sh INSTALL_DIR [TEST]

install=$1 test=${2:-aging_oom}
home=/run/mglru-selftest
. "$(dirname "$0")/state.sh"
cd "$install/mm/mglru" || exit 1
load_modules
work=$(mktemp -d) || exit 1
n=0 rc=0

knobs()
{
	for k in /proc/sys/kernel/hostname /proc/sys/kernel/core_pattern \
		 /sys/kernel/mm/lru_gen/enabled /proc/sys/vm/swappiness \
		 /proc/sys/vm/dirty_ratio /proc/sys/vm/dirty_background_ratio \
		 "/sys/block/${vloop#/dev/}/queue/read_ahead_kb"; do
		echo "$k: $(cat "$k")"
	done
}

old_symlinks=$(cat /proc/sys/fs/protected_symlinks)
old_hostname=$(hostname)
echo 0 >/proc/sys/fs/protected_symlinks
hostname mglru-guest
boot=$(cat /proc/sys/kernel/random/boot_id)

# the victims
mkdir -p /sys/fs/cgroup/mglru_victim "$work/mnt" "$work/victimdir"
sleep 1000 &
victim=$!
echo "$victim" >/sys/fs/cgroup/mglru_victim/cgroup.procs
mount -t tmpfs mglru_victim "$work/mnt"
truncate -s 16M "$work/img"
vloop=$(losetup --find --show "$work/img")
dmsetup create mglru_victim --table "0 32768 linear $vloop 0"
# tracefs instances, which the tests never write: another's, and one of
# their own name
mountpoint -q "$tfs" || mount -t tracefs tracefs "$tfs"
mkdir "$tfs/instances/mglru_victim" "$tfs/instances/mglru_selftest"
for f in victim victim2 victim3 fake.journal; do
	echo intact >"$work/$f"
done
knobs >"$work/knobs.before"

# intact WHEN: nothing the plants pointed at has changed
intact()
{
	knobs >"$work/knobs.after"
	diff -u "$work/knobs.before" "$work/knobs.after" | sed 's/^/# /'
	cmp -s "$work/knobs.before" "$work/knobs.after"
	ok $? "$1: hostname, core_pattern, lru_gen, vm knobs and read_ahead_kb unchanged"
	kill -0 "$victim" && grep -qx "$victim" /sys/fs/cgroup/mglru_victim/cgroup.procs
	ok $? "$1: the victim cgroup's process alive"
	grep -q " $work/mnt tmpfs " /proc/mounts
	ok $? "$1: the victim mount still mounted"
	losetup "$vloop" | grep -q "$work/img"
	ok $? "$1: the victim loop device still attached"
	dmsetup table mglru_victim 2>/dev/null | grep -q linear
	ok $? "$1: the victim dm target there, table unchanged"
	for f in victim victim2 victim3; do
		[ "$(cat "$work/$f")" = intact ] && [ ! -L "$work/$f" ]
		ok $? "$1: the victim file $f intact"
	done
	[ -d "$work/victimdir" ]
	ok $? "$1: the victim directory there"
	[ -d "$tfs/instances/mglru_victim" ] && [ -d "$tfs/instances/mglru_selftest" ]
	ok $? "$1: the victim tracefs instances there"
}

# shellcheck disable=SC2317 # (called by the trap)
cleanup()
{
	kill "$victim" 2>/dev/null
	sleep 0.5
	rmdir /sys/fs/cgroup/mglru_victim 2>/dev/null
	dmsetup remove mglru_victim 2>/dev/null
	rmdir "$tfs/instances/mglru_victim" "$tfs/instances/mglru_selftest" 2>/dev/null
	dmsetup table mglru_selftest 2>/dev/null | grep -q ' 100$' &&
		dmsetup remove mglru_selftest
	[ -n "$vloop2" ] && losetup -d "$vloop2" 2>/dev/null
	losetup -d "$vloop" 2>/dev/null
	umount "$work/mnt" 2>/dev/null
	[ -L "$home/scratch" ] && rm "$home/scratch"
	rm -rf "$home/state" "$home/keep-state" "$home/scratch" \
		/tmp/mglru_selftest.4242* "$work"
	echo "$old_symlinks" >/proc/sys/fs/protected_symlinks
	hostname "$old_hostname"
}
trap cleanup EXIT

# 1. an unprivileged user plants in /tmp, where 5fafbdf looked
setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "
	printf 'boot %s\nrestore 0 /proc/sys/kernel/hostname\tPWNED\nmemcg 0 /sys/fs/cgroup/mglru_victim\t\nmount 0 $work/mnt\t\ndm 0 \tmglru_victim\n' \
		'$boot' >/tmp/mglru_selftest.424242.journal
	ln -s $work/victim /tmp/mglru_selftest.424243.journal.tmp
	mkdir $home 2>/dev/null || :"
"./$test" -C >"$work/sweep1" 2>&1
ok $? "$test -C runs after nobody's plants in /tmp"
grep '^#' "$work/sweep1" | head -n 20
intact "after nobody's plants"

# 2. root plants in the home: the state file a killed run leaves, not
# root's own 0600 file, or with lines outside the rules; the scratch
# directory, a dm target and loop devices that are not the run's
if [ ! -d "$home" ]; then
	ok 1 "$test -C makes its home $home"
	echo "1..$n"
	exit 1
fi
state=$home/state vloop2=
valid()	# a state file that would set swappiness back to 7
{
	printf 'boot %s\nknob /proc/sys/vm/swappiness 7\n' "$boot"
}
for bad in owner symlink group world hardlink; do
	rm -f "$state" "$work/valid.state" "$home/keep-state"
	valid >"$state"
	chmod 0600 "$state"
	case $bad in
	owner) chown 65534:65534 "$state" ;;
	symlink) mv "$state" "$work/valid.state"; ln -s "$work/valid.state" "$state" ;;
	group) chmod 0620 "$state" ;;
	world) chmod 0606 "$state" ;;
	hardlink) ln "$state" "$home/keep-state" ;;
	esac
	"./$test" -C >"$work/sweep-$bad" 2>&1
	why=$(sed -n "s|.*cleanup: refused $state: ||p" "$work/sweep-$bad")
	[ -n "$why" ] && { [ -e "$state" ] || [ -L "$state" ]; }
	ok $? "a state file ($bad) refused and left alone: $why"
done
rm -f "$state" "$work/valid.state" "$home/keep-state"
cat >"$state" <<EOF
boot $boot
knob /proc/sys/kernel/hostname PWNED
knob /proc/sys/kernel/core_pattern |/bin/false
knob /sys/block/${vloop#/dev/}/queue/read_ahead_kb 4
knob /proc/sys/vm/swappiness PWNED
knob /proc/sys/vm/../../sys/kernel/hostname 7
knob /proc/sys/vm/swappiness 7 extra
zram 99999
zram 0 2
swap /dev/zram0
dm mglru_victim
EOF
chmod 0600 "$state"
"./$test" -C >"$work/sweep2" 2>&1
grep '^#' "$work/sweep2" | head -n 20
refused=$(grep -c "cleanup: refused $state line" "$work/sweep2")
[ "$refused" -eq 10 ]
ok $? "10 of 10 state lines outside the rules refused ($refused)"
grep -q "refused $state line 4: not the run's loop device" "$work/sweep2"
ok $? "the victim loop device's read_ahead_kb refused: not the run's"
printf 'boot 00000000-0000-0000-0000-000000000000\nknob /proc/sys/vm/swappiness 7\n' >"$state"
chmod 0600 "$state"
"./$test" -C >"$work/sweep3" 2>&1
grep -q "refused $state line 2: not of this boot" "$work/sweep3"
ok $? "a state file of another boot: its knobs left alone"

# the scratch directory as a symlink to the victims; then a real one whose
# mount points and tmpfs are symlinks to them, under a dm target of the
# suite's name over the victim loop device, with a loop device on a file
# named as the run's, reached through the symlinked tmpfs
ln -s "$work" "$home/scratch"
mkdir "$work/debugfs"
echo intact >"$work/debugfs/fault_around_bytes"
printf 'boot %s\nknob %s/scratch/debugfs/fault_around_bytes 7\n' "$boot" "$home" >"$state"
chmod 0600 "$state"
"./$test" -C >"$work/sweep4" 2>&1
grep -q "cleanup: refused $home/scratch: a symlink" "$work/sweep4"
ok $? "a symlinked scratch directory refused"
grep -q "refused $state line 2: not in the run's scratch directory" "$work/sweep4" &&
	[ "$(cat "$work/debugfs/fault_around_bytes")" = intact ]
ok $? "a knob line through the symlinked scratch directory refused"
rm "$home/scratch"
mkdir -m 0700 "$home/scratch"
ln -s "$work/mnt" "$home/scratch/mnt"
ln -s "$work" "$home/scratch/tmpfs"
truncate -s 16M "$work/disk.img"
vloop2=$(losetup --find --show "$work/disk.img")
dmsetup create mglru_selftest --table "0 32768 delay $vloop 0 0 $vloop 0 100"
"./$test" -C >"$work/sweep5" 2>&1
grep '^#' "$work/sweep5" | head -n 10
grep -q "cleanup: refused mglru_selftest: not over the run's loop device" "$work/sweep5" &&
	dmsetup table mglru_selftest | grep -q ' 100$'
ok $? "a dm target of the suite's name over another loop device refused, its table unchanged"
losetup "$vloop2" | grep -q "$work/disk.img"
ok $? "a loop device on a file reached through a symlinked tmpfs left attached"
[ -L "$home/scratch/mnt" ] && [ -L "$home/scratch/tmpfs" ]
ok $? "the symlinked mount points left alone"
dmsetup remove mglru_selftest
losetup -d "$vloop2"
rm -rf "$home/scratch"

# the starting run's own state file, planted as a symlink before it starts
ln -s "$work/victim2" "$state"
"./$test" -m mglru >"$work/run3" 2>&1
grep -q '^not ok 1 ' "$work/run3" && grep -q "cannot write $state: File exists" "$work/run3" &&
	! grep -q "lru_gen/enabled =" "$work/run3"
ok $? "a run whose state file is planted sets nothing up"
grep '^#' "$work/run3" | head -n 8
rm -f "$state"

# the lock as a symlink
rm -f "$home/lock"
ln -s "$work/victim3" "$home/lock"
"./$test" -C >"$work/run4" 2>&1
lrc=$?
why=$(grep -o 'SKIP.*' "$work/run4" | head -n 1)
[ $lrc -eq 4 ] && grep -q "lock is a symlink" "$work/run4"
ok $? "a symlinked lock: $why"
rm -f "$home/lock"

# 3. the home itself
for bad in mode owner symlink; do
	case $bad in
	mode) chmod 0755 "$home" ;;
	owner) chown 65534 "$home" ;;
	symlink) mv "$home" "$home.real"; mkdir -m 0700 "$work/fakehome"
		valid >"$work/fakehome/state"
		chmod 0600 "$work/fakehome/state"
		ln -s "$work/fakehome" "$home" ;;
	esac
	"./$test" -C >"$work/home-$bad" 2>&1
	hrc=$?
	case $bad in
	mode) chmod 0700 "$home" ;;
	owner) chown 0 "$home" ;;
	symlink) rm "$home"; mv "$home.real" "$home" ;;
	esac
	why=$(grep -o 'SKIP.*' "$work/home-$bad" | head -n 1)
	[ $hrc -eq 4 ]
	ok $? "home: $bad wrong: $why"
done
[ -f "$work/fakehome/state" ]
ok $? "the state file in a symlinked home left alone"

# 4. a scenario bigger than the machine skips before it sets anything up
"./$test" -M 64G >"$work/big" 2>&1
brc=$?
why=$(grep -o 'SKIP.*' "$work/big" | head -n 1)
[ $brc -eq 4 ] && grep -q "MiB missing" "$work/big" && ! grep -q "lru_gen/enabled =" "$work/big"
ok $? "a 64G memcg: $why"

intact "at the end"
echo "1..$n"
exit $rc
