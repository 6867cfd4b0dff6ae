#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the guest kernel with virtme-ng and run one command in it.
#
# usage: vm.sh accel BZIMAGE          print the accelerator to use (kvm|tcg)
#        vm.sh run BZIMAGE DIR CMD    run CMD in the guest; DIR is a host
#                                     directory the guest may write; CMD's
#                                     output lands in DIR/guest.out and its
#                                     exit status in DIR/guest.rc
#
# A boot that the emulator crashed (runner/crash.py: an "Oops: int3" under
# TCG whose trapping byte is not an int3) is not the kernel's failure: its
# console and output move to DIR/attempt1/, with the reason in
# DIR/attempt1/guest.emulator (attempt1.N where DIR holds one already),
# and CMD runs once more in a new boot. When that boot dies the same way,
# vm.sh exits $EX_EMULATOR with "mglru: error: the emulator crashed the
# guest ...", the reason in DIR/guest.emulator; with VM_RETRY=0 (a caller
# that retries itself, runner/run/kselftest.sh) it exits so at once. Any
# other crash is the kernel's and never retried.
#        vm.sh shell BZIMAGE          an interactive guest shell
#
# MEM, CPUS, ACCEL (auto|kvm|tcg) and BOOT_TIMEOUT (seconds) tune the guest;
# VNG replaces virtme-ng (make check's stand-in guests).

. "$(dirname "$0")/../lib.sh"

MEM=${MEM:-2G}
CPUS=${CPUS:-2}
ACCEL=${ACCEL:-auto}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-120}
vng=${VNG:-$VENV/bin/vng}
export PATH=$VENV/bin:$PATH
[ -x "$vng" ] || die "virtme-ng is not installed in $VENV (make deps)"

cmd=$1 kernel=$2
shift 2
[ -f "$kernel" ] || die "no guest kernel at $kernel"

# vng_args ACCEL: virtme-ng's arguments, in the array vng_argv. TCG_THREAD
# (single|multi) picks QEMU's TCG threading, multi by default for x86 on
# x86; GUEST_QUIET=1 keeps udev from loading any module at boot
# (emulator-stress's mitigation: fewer live patches of the kernel text);
# GUEST_APPEND adds kernel parameters (checked by check_guest_append).
QUIET_APPEND=modprobe.blacklist=kvm_amd,kvm_intel,kvm,ccp,sr_mod,cdrom,sg,ahci,libahci,libata,iTCO_wdt,intel_pmc_bxt,i6300esb,watchdog,i2c_i801,lpc_ich,psmouse,serio_raw,evdev,pcspkr,aesni_intel,qemu_fw_cfg,button
vng_args()
{
	local accel=$1 append=${GUEST_APPEND:-}

	check_guest_append
	vng_argv=(-r "$kernel" --memory "$MEM" --cpus "$CPUS" --user root)
	[ "$accel" = tcg ] && [ "${GUEST_QUIET:-0}" != 0 ] &&
		append="$QUIET_APPEND${append:+ $append}"
	[ -z "$append" ] || vng_argv+=(--append "$append")
	[ "$accel" = tcg ] || return 0
	check_tcg_thread
	vng_argv+=(--disable-kvm)
	[ -z "${TCG_THREAD:-}" ] || vng_argv+=("--qemu-opts=-accel tcg,thread=$TCG_THREAD")
}

# guest ACCEL TIMEOUT DIR CMD: boot, run CMD with its output in DIR, power off.
# The console goes to DIR/console.log; CMD's status to DIR/guest.rc. CMD's
# output goes through a pipe: the kselftest runner reopens /dev/stdout in
# append mode, which on a plain file would be overwritten by later writes.
# virtme-ng points /dev/stdout and /dev/stderr at its own virtio ports:
# point them back at the command's descriptors, or the kselftest runner's
# output (written to /dev/stdout) bypasses DIR/guest.out.
#
# virtme-ng runs QEMU as its child: the guest runs in a process group of
# its own (timeout's, in a new session), which is killed whole on timeout,
# when this script is stopped, and after the guest powers off, so that no
# QEMU outlives its run.
std_links='ln -sfn /proc/self/fd/1 /dev/stdout; ln -sfn /proc/self/fd/2 /dev/stderr;'
guest_pgid=

kill_guest()
{
	[ -n "$guest_pgid" ] || return 0
	kill -TERM -- -"$guest_pgid" 2>/dev/null && sleep 1
	kill -KILL -- -"$guest_pgid" 2>/dev/null
	guest_pgid=
	return 0
}
# die of the signal that stopped us, so that a calling script stops too
trap 'kill_guest; trap - TERM; kill -TERM $$' TERM
trap 'kill_guest; trap - INT; kill -INT $$' INT
trap 'kill_guest' EXIT

guest()
{
	local accel=$1 tmo=$2 dir=$3 rc
	shift 3

	rm -f "$dir/guest.rc" "$dir/guest.out"
	vng_args "$accel"
	setsid timeout -k 10 "$tmo" "$vng" "${vng_argv[@]}" --verbose \
		--rwdir="$dir" \
		--exec "$std_links cd /; { ( $* ); echo \$? >$dir/guest.rc; } 2>&1 | cat >$dir/guest.out" \
		</dev/null >"$dir/console.log" 2>&1 &
	guest_pgid=$!
	wait "$guest_pgid"
	rc=$?
	kill_guest
	[ -f "$dir/guest.rc" ] && return 0
	[ $rc -eq 124 ] && echo "timed out after ${tmo}s" >"$dir/guest.err" ||
		echo "vng exited with status $rc" >"$dir/guest.err"
	return 1
}

case $cmd in
accel)
	pick_accel
	;;
run)
	dir=$1
	shift
	mkdir -p "$dir"
	accel=${GUEST_ACCEL:-$(pick_accel)}
	rm -f "$dir/guest.emulator"
	attempts=$(max_attempts)
	for attempt in $(seq "$attempts"); do
		guest "$accel" "$BOOT_TIMEOUT" "$dir" "$@"
		ok=$?
		why=$(emulator_death "$dir/console.log" "$accel") || break
		echo "$why" >"$dir/guest.emulator"
		if [ "${VM_RETRY:-1}" = 0 ]; then
			# the caller retries: not an error yet
			note "the emulator crashed the guest, not the kernel: $why"
			exit "$EX_EMULATOR"
		fi
		if [ "$attempt" = "$attempts" ]; then
			echo "mglru: error: the emulator crashed the guest, not the kernel: twice; the second time: $why" >&2
			exit "$EX_EMULATOR"
		fi
		note "the emulator crashed the guest, not the kernel: $why; booting again"
		keep_attempt "$dir"
	done
	if [ "$ok" != 0 ]; then
		echo "mglru: error: the guest did not run its command ($(cat "$dir/guest.err")); console tail:" >&2
		tail -n 20 "$dir/console.log" | sed 's/^/    | /' >&2
		exit 1
	fi
	exit "$(cat "$dir/guest.rc")"
	;;
shell)
	accel=${GUEST_ACCEL:-$(pick_accel)}
	trap - EXIT
	vng_args "$accel"
	exec "$vng" "${vng_argv[@]}"
	;;
*)
	die "vm.sh: unknown command '$cmd' (accel, run or shell)"
	;;
esac
