# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the checks that run whole jobs on stand-in kernels
# (tests/bisect.sh, tests/emulator.sh): nothing is built or booted.
#   standin_tree KDIR   a kernel tree with the hook in place (tree.sh applies
#                       nothing), a version, and a kselftest Makefile whose
#                       install writes the list, the programs and the
#                       settings kselftest.sh reads; $tmp/cache, a cache
#                       whose venv needs no install (deps.sh)
#   standin_vng FILE    a stand-in virtme-ng: the kernel image (-r) is a file
#                       of words, how each boot behaves, the Nth word for the
#                       Nth boot of the same folder (the last word after)
#   ktap TEST POINT ok|"not ok"  one finished run of TEST
# shellcheck shell=bash
# ($tmp is tests/expect.sh's, sourced first)
# shellcheck disable=SC2154

ktap()
{
	printf 'TAP version 13\n1..1\n# selftests: mm/mglru: %s\n# TAP version 13\n# 1..1\n# %s 1 %s\nok 1 selftests: mm/mglru: %s\n' \
		"$1" "$3" "$2" "$1"
}

standin_tree()
{
	local kdir=$1 names

	names=$(selftest_names | tr '\n' ' ')
	mkdir -p "$kdir/mm" "$kdir/tools/testing/selftests"
	echo "/* CONFIG_MGLRU_KUNIT_TEST */" >"$kdir/mm/vmscan.c"
	touch "$kdir/Kconfig"
	printf 'kernelversion:\n\t@echo 7.3.4\n' >"$kdir/Makefile"
	# shellcheck disable=SC2016 # $(INSTALL_PATH) is make's
	printf '%s\n' 'TARGETS += mm' 'install:' \
		'	mkdir -p $(INSTALL_PATH)/mm/mglru' \
		"	printf 'mm/mglru:%s\\n' $names >\$(INSTALL_PATH)/kselftest-list.txt" \
		"	cd \$(INSTALL_PATH)/mm/mglru && touch $names && chmod +x $names" \
		'	echo timeout=60 >$(INSTALL_PATH)/mm/mglru/settings' \
		>"$kdir/tools/testing/selftests/Makefile"
	mkdir -p "$tmp/cache/venv"
	sha1sum <runner/requirements.txt >"$tmp/cache/venv/.mglru-requirements"
}

# The boots: each writes what runs.sh's runs would (each run's meminfo as
# it starts, its KTAP, "mglru: run <run> finished" on the console as it
# ends) and the console the kernel would: the kselftest runner's line as
# each run starts, and the kernel's messages. A boot that crashes exits
# nonzero without guest.rc, as virtme-ng does after a panic.
#   pass, fail       each run passes, fails
#   panic, lockup    a kernel crash in the first run; a soft lockup report
#   hang, boothang   hangs in the first run; before it
#   noboot           a panic before any run
#   emu-boot         the emulator's "Oops: int3" (trapping byte 0x66, not
#                    0xcc) as the guest boots, before any run
#   emu-mid          the first run finishes, the emulator's oops in the next
#   emu-after        every run finishes, the emulator's oops at power-off
#   emu-nonfatal     the emulator's oops in the second run, which the kernel
#                    survives: every run finishes
#   int3-cc          an "Oops: int3" whose trapping byte is an int3: the
#                    kernel's, at boot
standin_vng()
{
	{
		echo '#!/bin/bash'
		declare -f ktap
		cat <<'EOS'
oops() # oops BYTE [nonfatal]: the oops of an int3 that trapped on BYTE,
{      # and the panic
	printf '[   11.370000] %s\n' "Oops: int3: 0000 [#1] SMP NOPTI" \
		"CPU: 1 UID: 0 PID: 212 Comm: perl Not tainted 7.3.4 #1" \
		"RIP: 0010:kmem_cache_alloc_noprof+0x61/0x2f0" \
		"Code: 48 8b 07 48 85 c0 0f 84 d2 00 00 00 8b 4f 28 48 8d 14 08 $1 <90> f7 c5 00 00 04 00"
	[ "$2" = nonfatal ] && return
	echo "Kernel panic - not syncing: Fatal exception"
	exit 1
}
while [ $# -gt 0 ]; do
	case $1 in
	-r) kernel=$2; shift ;;
	--rwdir=*) dir=${1#--rwdir=} ;;
	esac
	shift
done
n=$(($(cat "$dir/.standin-boots" 2>/dev/null || echo 0) + 1))
echo "$n" >"$dir/.standin-boots"
read -ra words <"$kernel"
how=${words[n - 1]:-${words[-1]}}
echo "Linux version 7.3.4 (stand-in: $how)"
case $how in
noboot) echo "Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)"; exit 1 ;;
boothang) exec sleep 300 ;;
emu-boot) oops 66 ;;
int3-cc) oops cc ;;
esac
i=0
for run in $(sed -n 's/^for run in \(.*\); do$/\1/p' "$dir/runs.sh"); do
	i=$((i + 1))
	test=${run%%.*}
	: >"$dir/$run.meminfo"
	echo "kselftest: Running tests in mm/mglru"
	case $how in
	panic)
		printf '%s\n' "BUG: kernel NULL pointer dereference, address: 0000000000000008" \
			"Oops: Oops: 0000 [#1] PREEMPT SMP NOPTI" \
			"RIP: 0010:lru_gen_look_around+0x4d/0x3c0" \
			"Kernel panic - not syncing: Fatal exception"
		exit 1 ;;
	hang)
		printf 'TAP version 13\n1..1\n# selftests: mm/mglru: %s\n# TAP version 13\n' "$test" >"$dir/$run.ktap"
		exec sleep 300 ;;
	emu-nonfatal)
		[ "$i" = 2 ] && oops 66 nonfatal
		ktap "$test" "${test}_mglru" ok >"$dir/$run.ktap" ;;
	emu-mid)
		if [ "$i" = 2 ]; then
			printf 'TAP version 13\n1..1\n# selftests: mm/mglru: %s\n# TAP version 13\n' "$test" >"$dir/$run.ktap"
			oops 66
		fi
		ktap "$test" "${test}_mglru" ok >"$dir/$run.ktap" ;;
	lockup)
		echo "watchdog: BUG: soft lockup - CPU#1 stuck for 26s! [$test:212]"
		ktap "$test" "${test}_mglru" ok >"$dir/$run.ktap" ;;
	fail) ktap "$test" "${test}_mglru" "not ok" >"$dir/$run.ktap" ;;
	*) ktap "$test" "${test}_mglru" ok >"$dir/$run.ktap" ;;
	esac
	echo "[   20.000000] mglru: run $run finished"
done
[ "$how" = emu-after ] && oops 66
echo 0 >"$dir/guest.rc"
echo "reboot: Power down"
EOS
	} >"$1"
	chmod +x "$1"
}
