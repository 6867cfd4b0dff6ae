#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the guest, as root: the mm/mglru kselftests obey no file that
# another user wrote, and no journal outside its rules. With
# fs.protected_symlinks at 0 (restored afterwards):
#   1. user nobody plants journals and a .tmp symlink in /tmp, the old
#      place; a sweep (TEST -C) must not act on them;
#   2. root plants, in the suite's home, journals of dead runs that a run
#      must refuse and leave alone: owned by nobody, a symlink, group- or
#      world-writable, a hard link, entries outside the rules, entries
#      that reach outside through a symlink in the run's scratch, a .tmp
#      symlink (a dead run's and the starting run's own), a lock symlink;
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
pid_max=$(cat /proc/sys/kernel/pid_max)

# the victims
mkdir -p /sys/fs/cgroup/mglru_victim "$work/mnt" "$work/victimdir"
sleep 1000 &
victim=$!
echo "$victim" >/sys/fs/cgroup/mglru_victim/cgroup.procs
mount -t tmpfs mglru_victim "$work/mnt"
truncate -s 16M "$work/img"
vloop=$(losetup --find --show "$work/img")
dmsetup create mglru_victim --table "0 32768 linear $vloop 0"
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
}

# shellcheck disable=SC2317 # (called by the trap)
cleanup()
{
	kill "$victim" 2>/dev/null
	for p in $sleepers; do kill "$p" 2>/dev/null; done
	sleep 0.5
	rmdir /sys/fs/cgroup/mglru_victim /sys/fs/cgroup/mglru_selftest.999990* 2>/dev/null
	dmsetup remove mglru_victim 2>/dev/null
	losetup -d "$vloop" 2>/dev/null
	umount "$work/mnt" 2>/dev/null
	rm -rf "$home"/999990* "$home/keep-99999005" "$home"/*.journal.tmp \
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

# 2. root plants in the home, for runs that cannot be alive
if [ ! -d "$home" ]; then
	ok 1 "$test -C makes its home $home"
	echo "1..$n"
	exit 1
fi
sleepers=
allowed()	# allowed PID: a cgroup, a directory and a knob of run PID
{
	mkdir -p "/sys/fs/cgroup/mglru_selftest.$1" "$home/$1"
	sleep 1000 &
	echo $! >"/sys/fs/cgroup/mglru_selftest.$1/cgroup.procs"
	sleepers="$sleepers $!"
	printf 'boot %s\nrestore 0 /proc/sys/vm/swappiness\t7\nmemcg 0 /sys/fs/cgroup/mglru_selftest.%s\t\ndir 0 %s/%s\t\n' \
		"$boot" "$1" "$home" "$1"
}
[ "$pid_max" -lt 99999001 ] || { echo "Bail out! pid_max $pid_max"; exit 1; }
allowed 99999001 >"$home/99999001.journal"
chmod 0600 "$home/99999001.journal"
chown 65534:65534 "$home/99999001.journal"
allowed 99999002 >"$work/valid.journal"
chmod 0600 "$work/valid.journal"
ln -s "$work/valid.journal" "$home/99999002.journal"
allowed 99999003 >"$home/99999003.journal"
chmod 0620 "$home/99999003.journal"
allowed 99999004 >"$home/99999004.journal"
chmod 0606 "$home/99999004.journal"
allowed 99999005 >"$home/99999005.journal"
chmod 0600 "$home/99999005.journal"
ln "$home/99999005.journal" "$home/keep-99999005"
# a root-owned journal asking for what the run 99999006 did not create
mkdir -p "$home/99999006"
ln -s "$work/mnt" "$home/99999006/mnt"
cat >"$home/99999006.journal" <<EOF
boot $boot
restore 0 /proc/sys/kernel/hostname	PWNED
restore 0 /proc/sys/kernel/core_pattern	|/bin/false
restore 0 /sys/block/${vloop#/dev/}/queue/read_ahead_kb	4
memcg 0 /sys/fs/cgroup/mglru_victim	
memcg 0 /sys/fs/cgroup/mglru_selftest.99999006/../mglru_victim	
mount 0 $work/mnt	
mount 0 $home/99999006/mnt	
loop 0 $work/img	
loop 0 $home/99999006/../../..$work/img	
dm 0 	mglru_victim
undelay 0 0 32768 delay $vloop 0 0 $vloop 0 0	mglru_victim
undelay 0 0 32768 delay $vloop 0 0 $vloop 0 0	mglru_selftest_99999006
swap 0 /dev/zram0	
zram 99999 	hot
dir 0 $work/victimdir	
dir 0 $home/99999006/../../..$work/victimdir	
EOF
chmod 0600 "$home/99999006.journal"
# within the rules by name, but through a symlink in the run's scratch
mkdir -p "$home/99999009"
ln -s "$work" "$home/99999009/lnk"
printf 'boot %s\nloop 0 %s\t\nmount 0 %s\t\ndir 0 %s\t\n' "$boot" \
	"$home/99999009/lnk/img" "$home/99999009/lnk/mnt" \
	"$home/99999009/lnk/victimdir" >"$home/99999009.journal"
chmod 0600 "$home/99999009.journal"
ln -s "$work/victim" "$home/99999007.journal.tmp"

"./$test" -C >"$work/sweep2" 2>&1
ok $? "$test -C runs after root's plants in $home"
grep '^#' "$work/sweep2" | head -n 40
for p in 99999001 99999002 99999003 99999004 99999005; do
	why=$(sed -n "s|.*cleanup: refused $home/$p.journal: ||p" "$work/sweep2")
	[ -n "$why" ]
	ok $? "journal $p refused: $why"
	[ -e "$home/$p.journal" ] || [ -L "$home/$p.journal" ]
	ok $? "journal $p left alone"
	[ -d "$home/$p" ] && grep -q . "/sys/fs/cgroup/mglru_selftest.$p/cgroup.procs"
	ok $? "run $p's directory and memcg members untouched"
done
refused=$(grep -c "cleanup: refused $home/99999006.journal line" "$work/sweep2")
[ "$refused" -eq 13 ]
ok $? "13 of 13 lines outside the rules refused ($refused)"
grep -q "refused restore /sys/block/${vloop#/dev/}/queue/read_ahead_kb" "$work/sweep2" &&
	grep -q "refused undelay mglru_selftest_99999006" "$work/sweep2"
ok $? "the loop device's knob and table refused when acted on: not the run's"
for what in loop mount dir; do
	grep -q "cleanup: refused $what $home/99999009/lnk/.*: $home/99999009/lnk is a symlink" \
		"$work/sweep2"
	ok $? "a $what entry through a symlink in the run's scratch refused"
done
grep -q "cleanup: refused $home/99999007.journal.tmp: a symlink" "$work/sweep2" &&
	[ -L "$home/99999007.journal.tmp" ]
ok $? "a dead run's .tmp symlink refused and left alone"

# the starting run's own journal names, planted as symlinks before it starts
sh -c "ln -s $work/victim2 $home/\$\$.journal.tmp; exec ./$test -m mglru" \
	>"$work/run3" 2>&1
grep -q '^not ok 1 ' "$work/run3" && grep -q 'cannot write .*File exists' "$work/run3"
ok $? "a run whose .journal.tmp is planted writes no journal and sets nothing up"
grep '^#' "$work/run3" | head -n 8

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
printf 'boot %s\nrestore 0 /proc/sys/vm/swappiness\t7\n' "$boot" >"$work/fake.journal"
for bad in mode owner symlink; do
	case $bad in
	mode) chmod 0755 "$home" ;;
	owner) chown 65534 "$home" ;;
	symlink) mv "$home" "$home.real"; mkdir -m 0700 "$work/fakehome"
		cp "$work/fake.journal" "$work/fakehome/99999008.journal"
		chmod 0600 "$work/fakehome/99999008.journal"
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
[ -f "$work/fakehome/99999008.journal" ]
ok $? "the journal in a symlinked home left alone"

# 4. a scenario bigger than the machine skips before it sets anything up
"./$test" -M 64G >"$work/big" 2>&1
brc=$?
why=$(grep -o 'SKIP.*' "$work/big" | head -n 1)
[ $brc -eq 4 ] && grep -q "MiB missing" "$work/big" && ! grep -q "lru_gen/enabled =" "$work/big"
ok $? "a 64G memcg: $why"

intact "at the end"
echo "1..$n"
exit $rc
