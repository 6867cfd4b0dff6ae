#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The LAVA side: runner/export/lava-jobs.py writes one job per cell of the
# validation matrix, each valid by LAVA's own job schema (lava-common's
# lava_common.schemas.validate, strict, as lava-server validates a
# submission); lava/mglru-kselftest.yaml is valid by LAVA's test definition
# schema (lava_common.schemas.test.testdef: validate(), what lava-server's
# REST API validate_testdef runs, and the strict form LAVA applies to an
# inline definition). A broken job and a broken test definition must be
# rejected. Then the definition's steps run as LAVA's dispatcher writes
# them into run.sh, against a stub kselftest runner that prints a recorded
# KTAP and a stub lava-test-case, and lava/mglru-ktap-to-lava.sh reports
# each test point and key metric of a real KTAP. LAVA's dispatcher itself
# (lava-run --validate) takes make lava-local's job on LAVA's qemu device
# type and rejects jobs the schema takes; runner/export/lava-local.py reads a
# recorded lava-run log.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
. tests/expect.sh

# lava-common is Debian's python3 package: Debian's interpreter, not a venv's
py=${LAVA_PYTHON:-/usr/bin/python3}
testdef=lava/mglru-kselftest.yaml
ktap2lava=lava/mglru-ktap-to-lava.sh

if ! "$py" -c 'import lava_common.schemas, yaml' 2>/dev/null; then
	echo "FAIL: no lava_common for $py (apt-get install lava-common)"
	exit 1
fi
echo "ok   lava-common $("$py" -c 'import lava_common, os
print(open(os.path.join(os.path.dirname(lava_common.__file__), "VERSION")).read().strip())')"

# lava_check job|testdef FILE...: each FILE by LAVA's schema; prints
# "valid FILE" or "REJECTED FILE: <path>: <message>"; exits 1 if one is
# rejected. (Run through expect_rc.)
# shellcheck disable=SC2317
lava_check()
{
	"$py" - "$@" <<'PY'
import sys
import yaml
import voluptuous
from lava_common.schemas import validate
from lava_common.schemas.test import testdef

kind, files, rc = sys.argv[1], sys.argv[2:], 0
for path in files:
    try:
        with open(path) as f:
            data = yaml.safe_load(f)
        if kind == 'job':
            validate(data, strict=True, extra_context_variables=[])
        else:
            # what lava-server's REST API validate_testdef runs (extra keys
            # allowed) ...
            testdef.validate(data)
            # ... and the strict schema of an inline definition
            voluptuous.Schema(testdef.testdef(), extra=voluptuous.PREVENT_EXTRA)(data)
        print('valid', path)
    except (voluptuous.Invalid, yaml.YAMLError, TypeError, KeyError) as e:
        where = '/'.join(str(p) for p in getattr(e, 'path', []))
        print(f'REJECTED {path}: {where}: {getattr(e, "msg", e)}')
        rc = 1
sys.exit(rc)
PY
}

# mutate IN OUT PYTHON: OUT is IN's YAML with PYTHON applied to it (as d)
mutate()
{
	"$py" - "$@" <<'PY'
import sys
import yaml
d = yaml.safe_load(open(sys.argv[1]))
exec(sys.argv[3])
yaml.safe_dump(d, open(sys.argv[2], 'w'), sort_keys=False)
PY
}

# --- the jobs -------------------------------------------------------------
jobs=$tmp/jobs
expect_rc 0 "lava-jobs.py writes the matrix's jobs" runner/export/lava-jobs.py --out "$jobs"
# one job per cell: both kernels of each row, per test and LRU mode
want=$(python3 runner/tables.py matrix-rows expectations/matrix.txt |
	awk '{ print $1, $2, $3; print $1, $2, $4 }' | sort -u | wc -l)
got=$(find "$jobs" -name '*.yaml' | wc -l)
if [ "$want" -ne "$got" ] || [ "$got" -eq 0 ]; then
	echo "FAIL: $got jobs for $want matrix cells"
	rc=1
else
	echo "ok   $got jobs for the $want cells of expectations/matrix.txt"
fi
expect_rc 0 "every job is valid by LAVA's job schema (strict)" lava_check job "$jobs"/*.yaml
[ "$(grep -c '^valid' "$tmp/out")" -eq "$got" ] ||
	{ echo "FAIL: not every job was validated"; cat "$tmp/out"; rc=1; }

# what the schema does not know: the cell's parameters, the test definition
# and the timeouts against the kselftest runner's
settings=$(sed -n 's/^timeout=//p' tools/testing/selftests/mm/mglru/settings)
"$py" - "$jobs" "$settings" >"$tmp/cells" 2>&1 <<'PY' || rc=1
import glob, os, sys, yaml
jobs, settings, bad = sys.argv[1], int(sys.argv[2]), 0
for path in sorted(glob.glob(os.path.join(jobs, '*.yaml'))):
    d = yaml.safe_load(open(path))
    a = {next(iter(x)): x[next(iter(x))] for x in d['actions']}
    md, df = d['metadata'], a['test']['definitions'][0]
    p = df['params']
    name = f"{p['TEST']}-{p['LRU_MODE']}-{md['mglru.kernel']}+{md['mglru.variant']}.yaml"
    slow = 3 if p['KSFT_MACHINE_SLOW'] == 'yes' else 1
    test_s = a['test']['timeout']['minutes'] * 60
    kernel = md['mglru.kernel'] + ':' + md['mglru.variant']
    cmdline = a['deploy']['images']['kernel']['image_arg']
    checks = {
        'file name is the cell': os.path.basename(path) == name,
        'job name has the cell': all(s in d['job_name']
                                     for s in (p['TEST'], p['LRU_MODE'], kernel)),
        'definition in the repo': df['path'] == 'lava/mglru-kselftest.yaml' and
                                  os.path.isfile(df['path']),
        'context arch x86_64': d['context'].get('arch') == 'x86_64',
        'TCG asks for no KVM': (slow == 3) == bool(d['context'].get('no_kvm')),
        'test timeout above the runner\'s': test_s >= settings * slow + 120,
        'cgroup v2 on the command line': 'cgroup_no_v1=all' in cmdline,
        'boots on qemu': a['boot']['method'] == 'qemu' and d['device_type'] == 'qemu',
        # a device dictionary's memory wins over the context's: QEMU's last
        # -m, from the job's extra options, must be the job's memory
        'QEMU gets the job\'s memory': f"-m {d['context']['memory']}" in
                                        d['context'].get('extra_options', []),
        # under TCG, the suite's guests' machine and CPU (virtme-ng's)
        'TCG boots q35 with -cpu max': (slow == 3) == all(
            o in d['context'].get('extra_options', []) for o in ('-machine q35', '-cpu max')),
    }
    for what, ok in checks.items():
        if not ok:
            print(f'FAIL {path}: {what}')
            bad = 1
if not bad:
    print(f'ok   each job runs its cell ({len(glob.glob(os.path.join(jobs, "*.yaml")))} checked)')
sys.exit(bad)
PY
cat "$tmp/cells"

# a lab's URLs, KVM and a modules overlay: still valid
expect_rc 0 "lava-jobs.py with a lab's URLs, KVM and modules" \
	env ACCEL=kvm LAVA_KERNEL_URL='https://lab.example/{kernel}/{variant}/bzImage' \
	LAVA_ROOTFS_URL='https://lab.example/{kernel}/rootfs.ext4.gz' \
	LAVA_MODULES_URL='https://lab.example/{kernel}/{variant}/modules.tar.xz' \
	LAVA_TESTDEF_REPO=https://git.example/mglru.git LAVA_TESTDEF_REVISION=0123abc \
	runner/export/lava-jobs.py --out "$tmp/lab"
grep -q 'placeholders' "$tmp/out" && { echo "FAIL: placeholders left with every URL given"; rc=1; }
expect_rc 0 "the lab's jobs are valid by LAVA's job schema" lava_check job "$tmp/lab"/*.yaml
f=$tmp/lab/aging_oom-mglru-debian-6.12+aging-window.yaml
for s in 'https://lab.example/debian-6.12/aging-window/bzImage' 'modules.tar.xz' \
	 'KSFT_MACHINE_SLOW: "no"' 'revision: "0123abc"'; do
	grep -qF "$s" "$f" || { echo "FAIL: $f has no '$s'"; rc=1; }
done
grep -q no_kvm "$f" && { echo "FAIL: $f: a KVM job asks for no KVM"; rc=1; }

# the generator's errors
echo "aging_oom sometimes debian-6.12:default debian-6.12:default" >"$tmp/bad.txt"
expect_rc 1 "lava-jobs.py: a malformed matrix row is an error" \
	runner/export/lava-jobs.py --out "$tmp/bad" "$tmp/bad.txt"
grep -q 'mglru: error:' "$tmp/out" || { echo "FAIL: no one-line error"; rc=1; }
echo "aging_oom mglru debian-6.12:no-such-variant debian-6.12:default" >"$tmp/bad.txt"
expect_rc 1 "lava-jobs.py: an unknown variant is an error" \
	runner/export/lava-jobs.py --out "$tmp/bad" "$tmp/bad.txt"

# rejects KIND FILE MUTATION...: each mutation of FILE fails lava_check KIND
rejects()
{
	local kind=$1 file=$2 broken i=0

	shift 2
	for broken in "$@"; do
		i=$((i + 1))
		mutate "$file" "$tmp/broken-$kind-$i.yaml" "$broken"
		expect_rc 1 "a broken $kind is rejected ($broken)" \
			lava_check "$kind" "$tmp/broken-$kind-$i.yaml"
		grep -q '^REJECTED' "$tmp/out" && sed -n 's/^REJECTED [^:]*: /     -> /p' "$tmp/out"
	done
}

# broken jobs are rejected: the schema check can fail
job=$jobs/aging_oom-mglru-debian-6.12+aging-window.yaml
rejects job "$job" 'del d["timeouts"]' \
	'd["actions"][0]["deploy"]["kernel_url"] = "x"' \
	'd["actions"][2]["test"]["timeout"] = {"hours": 24}' \
	'd["actions"][2]["test"]["definitions"][0]["from"] = "svn"' \
	'd["context"]["qemu_memory"] = 4096'

# --- the test definition --------------------------------------------------
expect_rc 0 "$testdef is valid by LAVA's test definition schema" lava_check testdef "$testdef"
# ... and inline in a job, by the job schema (strict)
mutate "$job" "$tmp/inline.yaml" "
df = d['actions'][2]['test']['definitions'][0]
df['repository'] = yaml.safe_load(open('$testdef'))
df['from'] = 'inline'
for k in ('params', 'revision'):
    df.pop(k, None)"
expect_rc 0 "$testdef inline in a job is valid by the job schema" lava_check job "$tmp/inline.yaml"
rejects testdef "$testdef" 'd["metadata"]["format"] = "Lava-Test Test Definition 2.0"' \
	'del d["metadata"]["name"]' \
	'd["run"]["steps"] = "./run.sh"' \
	'd["parms"] = d.pop("params")' \
	'd["run"] = {"step": d["run"]["steps"]}'

# --- ktap to LAVA ---------------------------------------------------------
# a stub lava-test-case on PATH logs its arguments, one call a line
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "$*" >>"%s"\n' "$tmp/cases" >"$tmp/bin/lava-test-case"
chmod +x "$tmp/bin/lava-test-case"
export PATH=$tmp/bin:$PATH

# want_point POINT VERDICT METRIC=VALUE...: the cases of POINT, each
# metric's unit runner/tables.py's, the one KCIDB gets
want_point()
{
	local point=$1 verdict=$2 kv u
	shift 2
	for kv; do
		u=$(tables unit "${kv%%=*}")
		[ "$u" = - ] && u='' || u=" --units $u"
		echo "$point.${kv%%=*} --result pass --measurement ${kv#*=}$u"
	done
	echo "$point --result $verdict"
}
units=$(tables units)

fx=tests/fixtures/reworked/kselftest-aging_oom.ktap
rm -f "$tmp/cases"
# every metric (-m all): the key metrics' filter is checked with the steps
expect_rc 0 "ktap-to-lava on $fx" $ktap2lava -t aging_oom -m all -u "$units" "$fx"
{
	want_point aging_oom_mglru fail duration_s=42.8 oom_kill=1 rounds_done=20 reader_passes=81 \
		refault_file=457713 reclaimed_pages=457713 oom_file_mib=169 oom_anon_mib=340
	want_point aging_oom_classic pass duration_s=43.1 oom_kill=0 rounds_done=20 reader_passes=80 \
		refault_file=548222 reclaimed_pages=548222
	echo "aging_oom --result fail"
} >"$tmp/want"
grep -q 'reclaimed_pages .* --units pages$' "$tmp/want" || { echo "FAIL: a count of pages has no unit"; rc=1; }
if ! diff -u "$tmp/want" "$tmp/cases" >"$tmp/diff"; then
	echo "FAIL: ktap-to-lava reported:"
	sed 's/^/  | /' "$tmp/diff"
	rc=1
fi

rm -f "$tmp/cases"
expect_rc 0 "ktap-to-lava on a skipped run" $ktap2lava tests/fixtures/skip/kselftest-aging_oom.ktap
[ "$(cat "$tmp/cases" 2>/dev/null)" = "aging_oom_mglru --result skip
aging_oom_classic --result skip
aging_oom --result skip" ] || { echo "FAIL: skips reported as:"; cat "$tmp/cases"; rc=1; }

rm -f "$tmp/cases"
expect_rc 0 "ktap-to-lava on a runner timeout" \
	$ktap2lava tests/fixtures/fail/kselftest-aging_oom.ktap
[ "$(cat "$tmp/cases" 2>/dev/null)" = "aging_oom --result fail" ] ||
	{ echo "FAIL: a timeout reported as:"; cat "$tmp/cases"; rc=1; }

# every numeric metric with -m all; a non-numeric one is left out
printf '%s\n' 'TAP version 13' '1..1' '# selftests: mm/mglru: swappiness_sweep' \
	'# TAP version 13' '# 1..1' '# # metric swappiness_sweep_mglru split_source=pgsteal' \
	'# # metric swappiness_sweep_mglru swp10_pswpout=12' \
	'# # metric swappiness_sweep_mglru swp10_anon_pct=1.5' \
	'# ok 1 swappiness_sweep_mglru' 'ok 1 selftests: mm/mglru: swappiness_sweep' >"$tmp/sweep.ktap"
rm -f "$tmp/cases"
expect_rc 0 "ktap-to-lava -m all" $ktap2lava -m all -u "$units" "$tmp/sweep.ktap"
want='swappiness_sweep_mglru.swp10_pswpout --result pass --measurement 12
swappiness_sweep_mglru.swp10_anon_pct --result pass --measurement 1.5 --units %
swappiness_sweep_mglru --result pass
swappiness_sweep --result pass'
[ "$(cat "$tmp/cases" 2>/dev/null)" = "$want" ] ||
	{ echo "FAIL: -m all reported:"; cat "$tmp/cases"; rc=1; }

# every suffix of runner/tables.py's units, and names that end in none:
# the LAVA script's unit is the one KCIDB gets
metrics=(mib=1 read_mib=2 mib_per_s=3 fio_mib_per_s=4 reclaimed_pages=5 pages=6 full_pct=7
	 teardown_s=8 mib_s=9 rounds=10 s_rounds=11)
{
	printf '%s\n' 'TAP version 13' '1..1' '# TAP version 13' '# 1..1'
	printf '# # metric u_mglru %s\n' "${metrics[@]}"
	printf '%s\n' '# ok 1 u_mglru' 'ok 1 selftests: mm/mglru: u'
} >"$tmp/units.ktap"
rm -f "$tmp/cases"
expect_rc 0 "ktap-to-lava: the units" $ktap2lava -m all -u "$units" "$tmp/units.ktap"
{ want_point u_mglru pass "${metrics[@]}"; echo 'u --result pass'; } >"$tmp/want"
diff -u "$tmp/want" "$tmp/cases" >"$tmp/diff" ||
	{ echo "FAIL: the LAVA script's units are not runner/tables.py's:"; sed 's/^/  | /' "$tmp/diff"; rc=1; }

# no runner result (the runner did not start): the test fails, exit 1
: >"$tmp/empty.ktap"
rm -f "$tmp/cases"
expect_rc 1 "ktap-to-lava on an empty KTAP fails" $ktap2lava -t dirty_throttle "$tmp/empty.ktap"
[ "$(cat "$tmp/cases" 2>/dev/null)" = "dirty_throttle --result fail" ] ||
	{ echo "FAIL: an empty KTAP reported as:"; cat "$tmp/cases"; rc=1; }

# --- the definition's steps, as LAVA runs them ----------------------------
# LAVA's dispatcher (2023.01, actions/deploy/testdef.py) writes run.sh: the
# definition's params, then the job's, as NAME='value' lines, "set -e",
# a cd to the definition's checkout, then the steps; lava-test-runner runs
# it with "$SHELL -e". Here: a checkout of lava/ and
# runner/run/ksft-one.sh alone (the key metrics come with the job's
# params, KEYS), the params of a generated job
# (KSELFTEST_DIR pointed at a stub install whose run_kselftest.sh checks
# what it is given and prints a recorded KTAP).
co=$tmp/checkout ksft=$tmp/ksft
mkdir -p "$co" "$ksft/mm/mglru"
cp -r lava "$co/"
mkdir -p "$co/runner/run"
cp runner/run/ksft-one.sh "$co/runner/run/"
cp tools/testing/selftests/mm/mglru/settings "$ksft/mm/mglru/"
echo mm/mglru:readahead_refault >"$ksft/kselftest-list.txt"
cat >"$ksft/run_kselftest.sh" <<EOF
#!/bin/sh
args=\$KSELFTEST_READAHEAD_REFAULT_ARGS
[ "\$*" = "--override-timeout 900 -t mm/mglru:readahead_refault" ] ||
	{ echo "stub: arguments \$*"; exit 2; }
[ "\$args" = "-m mglru" ] || { echo "stub: KSELFTEST_READAHEAD_REFAULT_ARGS=\$args"; exit 2; }
[ "\$KSFT_MACHINE_SLOW" = yes ] || { echo "stub: KSFT_MACHINE_SLOW=\$KSFT_MACHINE_SLOW"; exit 2; }
cat "$SUITE_ROOT/tests/fixtures/pass/kselftest-readahead_refault.ktap"
exit 1
EOF
chmod +x "$ksft/run_kselftest.sh"
# the MGLRU readahead cell of the matrix's default kernel
cell=$(find "$jobs" -name 'readahead_refault-mglru-*+default.yaml' | head -n1)
[ -n "$cell" ] || { echo "FAIL: the matrix has no MGLRU readahead cell of a default kernel"; exit 1; }
"$py" - "$testdef" "$cell" \
	"$ksft" "$co" >"$tmp/run.sh" <<'PY'
import sys, yaml
td, job = yaml.safe_load(open(sys.argv[1])), yaml.safe_load(open(sys.argv[2]))
ksft, co = sys.argv[3], sys.argv[4]
params = [a['test'] for a in job['actions'] if 'test' in a][0]['definitions'][0]['params']
params = dict(params, KSELFTEST_DIR=ksft)
print('###default parameters from test definition###')
for k, v in td.get('params', {}).items():
    print(f"{k}='{v or ''}'")
print('######')
print('###test parameters from job submission###')
for k, v in params.items():
    print(f"{k}='{v or ''}'")
print('######')
print('set -e\nset -x\nexport TESTRUN_ID=1_mglru\ncd ' + co + '\nset +x')
print('echo "<LAVA_SIGNAL_STARTRUN $TESTRUN_ID>"\nset -x')
for step in td['run']['steps']:
    print(step)
print('set +x\necho "<LAVA_SIGNAL_ENDRUN $TESTRUN_ID>"')
PY
want='readahead_refault_mglru.refault_file --result pass --measurement 13
readahead_refault_mglru.mib_per_s --result pass --measurement 9000 --units MiB/s
readahead_refault_mglru --result pass
readahead_refault --result fail'
for sh in sh bash; do
	rm -f "$tmp/cases"
	expect_rc 0 "the definition's steps under $sh -e, as LAVA's run.sh" "$sh" -e "$tmp/run.sh"
	grep -q 'LAVA_SIGNAL_ENDRUN' "$tmp/out" ||
		{ echo "FAIL: run.sh stopped early"; tail -n 5 "$tmp/out"; rc=1; }
	# the fixture has both modes; the MGLRU run reports its own points
	got=$(grep 'mglru\|^readahead_refault ' "$tmp/cases" 2>/dev/null)
	[ "$got" = "$want" ] ||
		{ echo "FAIL: under $sh, reported:"; cat "$tmp/cases"; tail -n 5 "$tmp/out"; rc=1; }
	[ -s "$co/mglru-readahead_refault-mglru.ktap" ] || { echo "FAIL: no KTAP kept"; rc=1; }
done
# --- lava-run's own parser -----------------------------------------------
# make lava-local's job and device, validated by LAVA's dispatcher (lava-run
# --validate: the pipeline built, each action's validate() run), with
# file:// URLs to stand-in files: no network, no boot. The device is LAVA's
# qemu device type (lava-server's qemu.jinja2) with a dictionary, rendered
# with the job's context as lava-server renders it.
if ! command -v lava-run >/dev/null; then
	echo "FAIL: no lava-run (runner/run/deps.sh check installs lava-dispatcher)"
	exit 1
fi
local_run=$tmp/local
expect_rc 0 "lava-run --validate: make lava-local's job on LAVA's qemu device type" \
	env RESULTS="$local_run" runner/export/lava-local.sh validate
if ! grep -q 'file://' "$local_run/job.yaml" || grep -q 'invalid' "$local_run/job.yaml"; then
	echo "FAIL: the validated job has URLs other than file://"
	rc=1
fi
# the device runs what the job asks for: 2 vCPUs, the job's memory last
"$py" - "$local_run/device.yaml" <<'PY' || rc=1
import sys, yaml
q = yaml.safe_load(open(sys.argv[1]))['actions']['boot']['methods']['qemu']['parameters']
opts = q['options'] + q.get('extra', [])
mem = [o for o in opts if o.startswith('-m ')]
ok = q['command'] == 'qemu-system-x86_64' and '-smp 2' in opts and mem[-1] == '-m 2048' \
     and '-enable-kvm' not in opts
print(('ok  ' if ok else 'FAIL') + ' the device runs ' + ' '.join([q['command']] + opts))
sys.exit(0 if ok else 1)
PY
# jobs that LAVA's job schema accepts and its dispatcher rejects: the
# dispatcher's validation is the one that can fail. (It does not clone the
# test definition's repository: a wrong repository or path, or a prompt
# that is no regular expression, passes; the job checks above cover the
# definition's path.)
# lava_validate JOB: lava-run --validate on JOB with make lava-local's device
# shellcheck disable=SC2317
lava_validate()
{
	lava-run --validate --job-id "$$" --output-dir "$tmp/lava-out" \
		--device "$local_run/device.yaml" --dispatcher "$local_run/dispatcher.yaml" "$1" |
		grep -q '"case": "validate", "definition": "lava", "result": "pass"'
}
i=0
for broken in 'd["context"]["arch"] = "x86-64"' \
	'del d["context"]["arch"]' \
	'd["actions"][0]["deploy"]["images"]["kernel"]["url"] = "file:///nonexistent/bzImage"'; do
	i=$((i + 1))
	mutate "$local_run/job.yaml" "$tmp/lava-broken-$i.yaml" "$broken"
	expect_rc 0 "schema-valid: $broken" lava_check job "$tmp/lava-broken-$i.yaml"
	expect_rc 1 "... and lava-run rejects it" lava_validate "$tmp/lava-broken-$i.yaml"
done
# what validation leaves in the dispatcher's folder (its dispatcher.yaml's prefix)
rm -rf "/var/lib/lava/dispatcher/tmp/mglru-$$"

# --- lava-run's log -------------------------------------------------------
# runner/export/lava-local.py on a recorded lava-run log (make lava-local, the
# readahead MGLRU cell on 7.3 default, a rootfs image: fio's own pages
# refault in the test's memcg there, so the fixed kernel fails): the test
# cases LAVA recorded, the guest's memory from its console, and the verdict
# against make's
ll=runner/export/lava-local.py lfx=tests/fixtures/lava
log=$lfx/lava-run-readahead_refault-mglru.log
expect_rc 0 "lava-local.py: the test cases of a lava-run log" \
	"$py" $ll results "$log" "$tmp/results.yaml"
want='0_mglru-readahead_refault-mglru readahead_refault_mglru.refault_file pass 3928.0 -
0_mglru-readahead_refault-mglru readahead_refault_mglru.mib_per_s pass 653.7 MiB/s
0_mglru-readahead_refault-mglru readahead_refault_mglru.file_full_pct pass 98.0 %
0_mglru-readahead_refault-mglru readahead_refault_mglru fail - -
0_mglru-readahead_refault-mglru readahead_refault fail - -'
got=$("$py" -c 'import sys, yaml
for c in yaml.safe_load(open(sys.argv[1])):
    if c["definition"] != "lava":
        print(c["definition"], c["case"], c["result"], c.get("measurement", "-"), c.get("units", "-"))' \
	"$tmp/results.yaml")
[ "$got" = "$want" ] || { echo "FAIL: lava-local.py results read:"; echo "$got"; rc=1; }
expect_rc 0 "lava-local.py: the guest had the job's 2048 MiB" "$py" $ll memory "$log" 2048
expect_rc 1 "lava-local.py: ... and not 1024" "$py" $ll memory "$log" 1024
expect_rc 1 "lava-local.py: LAVA's FAIL differs from make's PASS" \
	"$py" $ll compare "$tmp/results.yaml" $lfx/summary-readahead_refault.json readahead_refault mglru
if ! grep -q 'DIFFERS: readahead_refault_mglru: LAVA FAIL, make PASS' "$tmp/out" ||
   ! grep -q 'refault_file: LAVA 3928.0, make median 0.0 \[0 .. 0\] (OUTSIDE' "$tmp/out"; then
	echo "FAIL: no verdict or metric line"
	rc=1
fi
sed 's/"verdict": "PASS"/"verdict": "FAIL"/' $lfx/summary-readahead_refault.json >"$tmp/fail.json"
expect_rc 0 "lava-local.py: ... and agrees with make's FAIL" \
	"$py" $ll compare "$tmp/results.yaml" "$tmp/fail.json" readahead_refault mglru
exit $rc
