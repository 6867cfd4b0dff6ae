#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: a guest that the emulator crashed is not the kernel's failure
# (runner/crash.py). Whole make kselftest jobs on stand-in kernels
# (tests/standin-guest.sh), then the KCIDB document of each:
#   - the emulator's oops (an int3 under TCG whose trapping byte is not
#     0xcc) at boot, or mid-test: the runs it cut short run once more in a
#     new boot and give their verdicts, the runs that finished keep theirs
#     (all of them when it came after the last: no boot more);
#     summary.json and KCIDB show the first attempt ERROR, with its reason,
#     and the rerun with the verdict;
#   - the same oops twice: the program is ERROR, make exits nonzero and
#     says the emulator did it;
#   - an int3 oops whose trapping byte is 0xcc, and the emulator's
#     signature under KVM: the kernel's crash, not run again;
# and vm.sh's own retry for the jobs that boot one command (selftest-check).

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
. tests/expect.sh
. tests/standin-guest.sh

py=$VENV/bin/python3
"$py" -c 'import kcidb_io' 2>/dev/null ||
	die "kcidb-io is not installed in $VENV (runner/run/deps.sh installs runner/requirements.txt)"
# runner/crash.py on a real console: Debian's 7.3 image under QEMU 7.2 TCG,
# MGLRU switched off and on under load (runner/validate/emulator-stress.sh)
con=tests/fixtures/consoles/emulator-int3.log
sed 's/ 66 <90> 48 8b 07/ cc <90> 48 8b 07/' "$con" >"$tmp/cc.log"
sed '3i [   14.000000] WARNING: CPU: 0 PID: 1 at mm/vmscan.c:1 foo+0x0/0x10' "$con" >"$tmp/warn.log"
grep -v 'folio_add_lru+0x11/0x70' "$con" | grep -v ' 66 <90> 48 8b 07' >"$tmp/nocode.log"
classify()	# classify NAME WANT CONSOLE ACCEL
{
	local got
	got=$(python3 runner/crash.py "$3" "$4")
	if [[ $got == "$2"* ]]; then
		echo "ok   crash.py: $1: $got"
	else
		echo "FAIL crash.py: $1: got '$got', expected '$2...'"
		rc=1
	fi
}
classify "the emulator's int3 under TCG" "emulator: the emulator (QEMU TCG) ran an int3 that the kernel text no longer holds (trapping byte 0x66" "$con" tcg
classify "the same oops under KVM" "kernel: Oops: int3: 0000 [#1] SMP NOPTI (under kvm" "$con" kvm
classify "an int3 that the text holds (0xcc)" "kernel: Oops: int3: 0000 [#1] SMP NOPTI (its trapping byte is an int3" "$tmp/cc.log" tcg
classify "a WARNING before the oops" "kernel: Oops: int3: 0000 [#1] SMP NOPTI (a WARNING came first" "$tmp/warn.log" tcg
classify "no Code: line after the oops" "kernel: Oops: int3: 0000 [#1] SMP NOPTI (no Code: line" "$tmp/nocode.log" tcg
classify "a NULL dereference" "kernel: BUG: kernel NULL pointer dereference" \
	tests/fixtures/kcidb-crash/guest-aging_oom/console.log tcg
got=$(python3 runner/crash.py "$tmp/nocrash" tcg)
if [ -z "$got" ]; then
	echo "ok   crash.py: no console, no crash"
else
	echo "FAIL crash.py: no console: '$got'"
	rc=1
fi

kdir=$tmp/linux
standin_tree "$kdir"
standin_vng "$tmp/vng"

# job NAME ACCEL REPEAT BOOTS...: make kselftest of aging_oom, REPEAT runs,
# on a stand-in kernel whose boots behave as BOOTS say; its results in
# $tmp/NAME, its exit status in $job_rc, its output in $tmp/NAME.out
job()
{
	local name=$1 accel=$2 repeat=$3
	shift 3
	echo "$*" >"$tmp/$name.bzImage"
	env KDIR="$kdir" TESTS=aging_oom REPEAT="$repeat" EXPECT=/dev/null \
		GUEST_KERNEL="$tmp/$name.bzImage" VNG="$tmp/vng" GUEST_ACCEL="$accel" \
		BOOT_TIMEOUT=5 CACHE="$tmp/cache" RESULTS="$tmp/$name" \
		runner/run/suite.sh kselftest >"$tmp/$name.out" 2>&1 </dev/null
	job_rc=$?
	"$py" runner/export/kcidb.py "$tmp/$name" -o "$tmp/$name/kcidb.json" \
		>>"$tmp/$name.out" 2>&1 || { echo "FAIL $name: kcidb.py failed"; rc=1; }
}

# holds NAME ok|fails WHAT PYTHON: the job exited 0 (ok) or not (fails),
# and PYTHON holds, run with s (summary.json), k (kcidb.json's tests),
# boots (the guest's boots), out (the job's output), point(MODE) (the
# summary's entry of aging_oom in that mode, '' the program's) and tries
# (the sorted (run, attempt, status) of the summary's attempts)
holds()
{
	local name=$1 want=$2 what="$3; exit $job_rc"
	if { { [ "$want" = ok ] && [ "$job_rc" = 0 ]; } || { [ "$want" = fails ] && [ "$job_rc" != 0 ]; }; } &&
	   "$py" - "$tmp/$name" "$tmp/$name.out" "$4" >"$tmp/holds" 2>&1 <<'EOP'
import glob, json, os, sys
res, out_file, code = sys.argv[1:]
s = json.load(open(os.path.join(res, 'summary.json')))
k = json.load(open(os.path.join(res, 'kcidb.json')))['tests']
boots = int(open(os.path.join(res, 'guest-aging_oom', '.standin-boots')).read())
out = open(out_file).read()
def point(mode):
    return [x for x in s['kselftest'] if x['mode'] == mode][0]
tries = sorted((x['run'], x['attempt'], x['status']) for x in s['attempts'])
exec(code)
EOP
	then
		echo "ok   $name: $what"
	else
		echo "FAIL $name: $what (expected the job to exit ${want/fails/nonzero})"
		sed 's/^/  | /' "$tmp/holds"
		tail -n 12 "$tmp/$name.out" | sed 's/^/  | /'
		rc=1
	fi
}

job boot tcg 1 emu-boot pass
holds boot ok "the emulator at boot: run again once, then passes" '
assert boots == 2, boots
e = point("mglru")
assert e["verdict"] == "PASS" and s["ok"], e
a = s["attempts"]
assert [(x["run"], x["attempt"], x["status"]) for x in a] == [("aging_oom", 1, "ERROR")], a
assert "trapping byte 0x66" in a[0]["reason"], a
err = [t for t in k if t["status"] == "ERROR"]
assert len(err) == 1 and err[0]["id"].endswith(":attempt1"), err
assert err[0]["misc"]["attempt"] == 1 and "run again" in err[0]["misc"]["runner"], err
assert err[0]["misc"]["unexpected"] is False, err
assert "Oops: int3" in err[0]["log_excerpt"], err
ok = [t for t in k if t["path"].endswith("aging_oom.mglru")]
assert ok and ok[0]["status"] == "PASS" and ok[0]["misc"]["attempt"] == 2, ok
assert "emulator crashed the guest" in out and "runs again" in out
'

job mid tcg 3 emu-mid pass
holds mid ok "the emulator mid-test: the finished run kept, the others run again" '
assert boots == 2, boots
e = point("mglru")
assert e["verdict"] == "PASS" and e["runs"] == 3 and s["ok"], e
assert tries == [("aging_oom.r1", 1, "KEPT"), ("aging_oom.r2", 1, "ERROR"),
             ("aging_oom.r3", 1, "ERROR")], tries
assert os.path.exists(os.path.join(res, "guest-aging_oom", "attempt1", "aging_oom.r2.ktap"))
err = sorted(t["id"][t["id"].index("kselftest."):] for t in k if t["status"] == "ERROR")
assert err == ["kselftest.mm.mglru.aging_oom:r2:attempt1",
               "kselftest.mm.mglru.aging_oom:r3:attempt1"], err
att = {t["misc"]["run"]: t["misc"].get("attempt") for t in k if t["path"].endswith(".mglru")}
assert att == {1: 1, 2: 2, 3: 2}, att
'

job after tcg 2 emu-after pass
holds after ok "the emulator after every run finished: verdicts kept, no boot more" '
assert boots == 1, boots
e = point("mglru")
assert e["verdict"] == "PASS" and e["runs"] == 2 and s["ok"], e
assert tries == [("aging_oom.r1", 1, "KEPT"), ("aging_oom.r2", 1, "KEPT")], tries
assert not [t for t in k if t["status"] == "ERROR"], k
'

job nonfatal tcg 3 emu-nonfatal pass
holds nonfatal ok "an oops the kernel survived: the runs after it run again" '
assert boots == 2, boots
assert tries == [("aging_oom.r1", 1, "KEPT"), ("aging_oom.r2", 1, "ERROR"),
             ("aging_oom.r3", 1, "ERROR")], tries
e = point("mglru")
assert e["verdict"] == "PASS" and e["runs"] == 3 and s["ok"], e
'

job lost tcg 3 emu-mid emu-boot pass
holds lost fails "a finished run, then two crashed boots: ERROR beside its verdict" '
assert boots == 2, boots
e = {x["mode"]: x for x in s["kselftest"]}
assert e["mglru"]["verdict"] == "PASS" and e["mglru"]["runs"] == 1, e
assert e[""]["verdict"] == "ERROR" and e[""]["runs"] == 2 and not s["ok"], e
err = sorted((t["misc"]["run"], t["misc"]["attempt"], t["misc"]["unexpected"])
             for t in k if t["status"] == "ERROR")
assert err == [(2, 1, True), (2, 2, True), (3, 1, True), (3, 2, True)], err
'

job twice tcg 1 emu-boot emu-boot pass
holds twice fails "the emulator twice: ERROR naming it" '
assert boots == 2, boots
e = [x for x in s["kselftest"] if x["test"] == "aging_oom"]
assert len(e) == 1 and e[0]["verdict"] == "ERROR" and not s["ok"], e
assert "emulator crashed the guest twice" in e[0]["metrics"]["runner"], e
assert "ERROR (emulator)" in out and "mglru: error: the emulator (QEMU TCG) crashed the guest twice" in out, out
err = [t for t in k if t["status"] == "ERROR"]
assert sorted(t["misc"]["attempt"] for t in err) == [1, 2], err
assert "no attempt left" in err[1]["misc"]["runner"], err
assert not [t for t in k if t["status"] in ("PASS", "FAIL")], k
'

job cc tcg 1 int3-cc pass
holds cc fails "an int3 oops on 0xcc: the kernel's, not run again" '
assert boots == 1, boots
assert not s["attempts"] and not s["ok"], s
e = [x for x in s["kselftest"] if x["test"] == "aging_oom"][0]
assert e["verdict"] == "FAIL", e
assert "emulator" not in out, out
t = [t for t in k if t["status"] == "ERROR"]
assert t and "the guest crashed: Oops: int3" in t[0]["misc"]["runner"], t
'

job kvm kvm 1 emu-boot pass
holds kvm fails "the emulator signature under KVM: the kernel crash, not run again" '
assert boots == 1, boots
assert not s["attempts"] and not s["ok"], s
assert [x["verdict"] for x in s["kselftest"]] == ["FAIL"], s
assert "emulator" not in out, out
t = [t for t in k if t["status"] == "ERROR"]
assert t and "the guest crashed: Oops: int3" in t[0]["misc"]["runner"], t
'

# vm.sh's own retry (selftest-check's, kunit-guest's boots): once
: >"$tmp/bzImage"
echo "emu-boot pass" >"$tmp/bzImage"
mkdir -p "$tmp/vm1" "$tmp/vm2"
echo 'for run in x; do' >"$tmp/vm1/runs.sh"
cp "$tmp/vm1/runs.sh" "$tmp/vm2/"
expect_rc 0 "vm.sh: the emulator's crash, then a boot that runs" \
	env VNG="$tmp/vng" GUEST_ACCEL=tcg BOOT_TIMEOUT=5 runner/run/vm.sh run "$tmp/bzImage" "$tmp/vm1" true
if [ -s "$tmp/vm1/attempt1/guest.emulator" ] && [ -f "$tmp/vm1/guest.rc" ]; then
	echo "ok   vm.sh: the crashed boot's console and reason in attempt1/"
else
	echo "FAIL vm.sh: no attempt1/guest.emulator"
	rc=1
fi
echo "emu-boot emu-boot" >"$tmp/bzImage"
expect_rc "$EX_EMULATOR" "vm.sh: the emulator's crash twice: exit $EX_EMULATOR" \
	env VNG="$tmp/vng" GUEST_ACCEL=tcg BOOT_TIMEOUT=5 runner/run/vm.sh run "$tmp/bzImage" "$tmp/vm2" true
grep -q "^mglru: error: the emulator crashed the guest, not the kernel: twice" "$tmp/out" ||
	{ echo "FAIL vm.sh: no error line naming the emulator"; sed 's/^/  | /' "$tmp/out"; rc=1; }
exit $rc
