#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# No guest outlives its run: runner/run/vm.sh, given a stand-in for virtme-ng
# that starts a "QEMU" child and hangs, must leave no process behind when
# the guest times out, when vm.sh itself is stopped with SIGTERM, and when
# the guest returns but its child lingers. Also checks that ACCEL=auto
# tells kvm_pvm from real KVM by the module behind /dev/kvm, without a boot.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
tmp=$(mktemp -d)
marker=mglru-reap-$$-$RANDOM
trap 'pkill -KILL -f "$marker" 2>/dev/null; rm -rf "$tmp"' EXIT
rc=0

# the stand-in: a child that sleeps "forever" under the marker's name, then
# either hang (hang) or return at once leaving the child behind (linger)
cat >"$tmp/vng" <<EOS
#!/bin/bash
: >"$tmp/started"
bash -c 'exec -a $marker-qemu sleep 300' &
[ "\$MGLRU_FAKE" = linger ] && exit 0
exec -a $marker-vng sleep 300
EOS
chmod +x "$tmp/vng"
: >"$tmp/bzImage"

leftovers()
{
	sleep 1
	pgrep -f "$marker" >/dev/null
}

report()
{
	if [ ! -f "$tmp/started" ]; then
		echo "FAIL $1: the stand-in guest never started"
		rc=1
	elif leftovers; then
		echo "FAIL $1: processes left behind:"
		pgrep -af "$marker" | sed 's/^/  | /'
		pkill -KILL -f "$marker"
		rc=1
	else
		echo "ok   $1"
	fi
	rm -f "$tmp/started"
}

VNG=$tmp/vng GUEST_ACCEL=tcg BOOT_TIMEOUT=2 runner/run/vm.sh run "$tmp/bzImage" "$tmp/a" true \
	>/dev/null 2>&1
grep -qs "timed out" "$tmp/a/guest.err" || { echo "FAIL: no timeout reported"; rc=1; }
report "guest timed out"

VNG=$tmp/vng GUEST_ACCEL=tcg BOOT_TIMEOUT=60 runner/run/vm.sh run "$tmp/bzImage" "$tmp/b" true \
	>/dev/null 2>&1 &
pid=$!
sleep 2
kill -TERM "$pid"
wait "$pid"
report "vm.sh stopped with SIGTERM"

MGLRU_FAKE=linger VNG=$tmp/vng GUEST_ACCEL=tcg BOOT_TIMEOUT=60 \
	runner/run/vm.sh run "$tmp/bzImage" "$tmp/c" true >/dev/null 2>&1
report "guest returned, its child lingered"

# ACCEL=auto reads the module behind /dev/kvm
accel_with()
{
	mkdir -p "$tmp/mod-$1/$1" && echo live >"$tmp/mod-$1/$1/initstate" && : >"$tmp/kvm"
	SYSFS_MODULES=$tmp/mod-$1 KVM_DEV=$tmp/kvm VNG=$tmp/vng ACCEL=${2:-auto} \
		runner/run/vm.sh accel "$tmp/bzImage" 2>"$tmp/accel.err"
}
t0=$(date +%s%N)
got="$(accel_with kvm_pvm) $(accel_with kvm_intel) $(accel_with kvm_amd)"
ms=$((($(date +%s%N) - t0) / 1000000))
if [ "$got" = "tcg kvm kvm" ] && [ "$ms" -lt 3000 ]; then
	echo "ok   ACCEL=auto: kvm_pvm -> tcg, kvm_intel/kvm_amd -> kvm (${ms} ms, no boot)"
else
	echo "FAIL ACCEL=auto: got '$got' in ${ms} ms (expected 'tcg kvm kvm', no boot)"
	rc=1
fi
if accel_with kvm_pvm kvm >/dev/null 2>&1 || ! grep -q "kvm_pvm" "$tmp/accel.err"; then
	echo "FAIL ACCEL=kvm on kvm_pvm: no one-line error"
	rc=1
else
	echo "ok   ACCEL=kvm on kvm_pvm: $(tail -n1 "$tmp/accel.err")"
fi
exit $rc
