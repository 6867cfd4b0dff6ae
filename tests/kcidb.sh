#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# runner/export/kcidb.py: a real run (tests/fixtures/kcidb-run: KUnit under UML
# and dirty_throttle on debian-7.3, its classic mode an expected failure)
# becomes a KCIDB document that kcidb-io's current schema accepts, with
# the statuses, the expected failure's issue and incident and the metrics
# where they belong; the summary fixtures' timeout, repeats, skips and
# KUnit failures become ERROR, one test per run, SKIP and FAIL; tests
# start with the run (or as the guest recorded), points sit under their
# program's path; an issue has its culprit, a short comment and a version
# that follows its text in git; a KDIR git tree's checkout has its commit,
# branch and https URL, every checkout KCIDB's patchset_hash; a failed
# guest build (lib.sh's build_failed) is a build of status FAIL or ERROR
# without tests; a crashed guest's program is ERROR with the oops; kcidb-io
# rejects a document with a status KCIDB does not know and one without a
# required field; bad input is a one-line error.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
fx=tests/fixtures
. tests/expect.sh

py=$VENV/bin/python3
"$py" -c 'import kcidb_io' 2>/dev/null ||
	die "kcidb-io is not installed in $VENV (runner/run/deps.sh installs runner/requirements.txt)"

# expect_one_error NAME CMD...: CMD exits 1 with one line, "mglru: error: ..."
expect_one_error()
{
	local name=$1
	shift
	expect_rc 1 "$name" "$@"
	if [ "$(wc -l <"$tmp/out")" -ne 1 ] || ! grep -q '^mglru: error: ' "$tmp/out"; then
		echo "FAIL $name: not one 'mglru: error:' line"
		sed 's/^/  | /' "$tmp/out"
		rc=1
	fi
}

# check NAME DOC PYTHON: PYTHON (asserts on the parsed document d and on
# t, its tests by path, path:rN for a run of several) passes on the KCIDB
# document DOC, which kcidb-io validates first
check()
{
	local name=$1 doc=$2
	if "$py" - "$doc" >"$tmp/check" 2>&1 <<PY; then
import json, sys
import kcidb_io
d = json.load(open(sys.argv[1]))
kcidb_io.schema.LATEST.validate(d)
t = {x['path'] + (':r%d' % x['misc']['run'] if 'run' in x['misc'] else ''): x
     for x in d['tests']}
$3
PY
		echo "ok   $name"
	else
		echo "FAIL $name"
		sed 's/^/  | /' "$tmp/check"
		rc=1
	fi
}

cp -r "$fx/kcidb-run" "$tmp/run"
expect_rc 0 "a real run converts to KCIDB" "$py" runner/export/kcidb.py "$tmp/run" -o "$tmp/run.json"
check "kcidb-io validates it, in its current schema, with what the run holds" "$tmp/run.json" '
V = kcidb_io.schema.LATEST
assert (d["version"]["major"], d["version"]["minor"]) == (V.major, V.minor), d["version"]
assert len(d["checkouts"]) == 1 and d["checkouts"][0]["tree_name"] == "debian-7.3"
b = {x["id"].rsplit(":", 1)[1]: x for x in d["builds"]}
assert b["kunit-um"]["architecture"] == "um" and b["guest"]["architecture"] == "x86_64", b
assert all(x["status"] == "PASS" for x in b.values()), b
assert not b["guest"]["config_name"].endswith("_250"), b["guest"]
assert len(set(x["id"] for x in d["tests"])) == len(d["tests"])
assert set(x["build_id"] for x in d["tests"]) == set(x["id"] for x in d["builds"])
k = [x for x in d["tests"] if x["path"].startswith("kunit.mglru.")]
assert len(k) == 48 and all(x["status"] == "PASS" for x in k), len(k)
p = t["kunit.mglru.mglru_test_evictable_size.empty_lruvec_is_zero"]
assert "ok 1 empty_lruvec_is_zero" in p["log_excerpt"], p
m = t["kselftest.mm.mglru.dirty_throttle.mglru"]
assert m["status"] == "PASS" and m["duration"] == 12.5, m
assert "# ok 1 dirty_throttle_mglru" in m["log_excerpt"], m
assert t["kselftest.mm.mglru.dirty_throttle.mglru.duration_s"]["number"] == \
	{"value": 12.5, "unit": "s"}
assert t["kselftest.mm.mglru.dirty_throttle.mglru.oom_kill"]["status"] == "DONE"
c = t["kselftest.mm.mglru.dirty_throttle.classic"]
assert c["status"] == "FAIL" and c["misc"]["expected"] == "FAIL", c
assert not c["misc"]["unexpected"] and c["misc"]["expected_reason"], c
assert c["misc"]["metrics"]["oom_kill"] == 1, c
assert "# not ok 2 dirty_throttle_classic" in c["log_excerpt"], c
i, = d["incidents"]
assert i["test_id"] == c["id"] and i["present"], i
assert [x["id"] for x in d["issues"]] == [i["issue_id"]], d["issues"]
'
expect_rc 0 "kcidb.py --check accepts it" "$py" runner/export/kcidb.py --check "$tmp/run.json"

# a guest whose summary has its tick (summary.py reads it from guest.config)
cp -r "$fx/kcidb-run" "$tmp/hz"
"$py" - "$tmp/hz/summary.json" <<'PY' || rc=1
import json, sys
s = json.load(open(sys.argv[1]))
s['kernel']['hz'] = 250
json.dump(s, open(sys.argv[1], 'w'))
PY
expect_rc 0 "a run with its guest's tick converts" "$py" runner/export/kcidb.py "$tmp/hz" -o "$tmp/hz.json"
check "the guest build's config_name says its tick" "$tmp/hz.json" '
g, = [x for x in d["builds"] if x["id"].endswith(":guest")]
assert g["config_name"].endswith(" + CONFIG_HZ_250"), g
'

# a guest that booted Debian's binary image: its build is Debian's, named
# by the image's release and version, with the packages in misc
cp -r "$fx/kcidb-run" "$tmp/bin"
"$py" - "$tmp/bin/summary.json" <<'PY' || rc=1
import json, sys
s = json.load(open(sys.argv[1]))
s['kernel'].update(hz=250, guest='binary', image='linux-base-7.3.4+deb13-amd64,'
                   'linux-binary-7.3.4+deb13-amd64,linux-modules-7.3.4+deb13-amd64',
                   image_version='7.3.4-1~bpo13+1', image_release='7.3.4+deb13-amd64')
json.dump(s, open(sys.argv[1], 'w'))
PY
expect_rc 0 "a run on the binary image converts" "$py" runner/export/kcidb.py "$tmp/bin" -o "$tmp/bin.json"
check "the binary image's build is Debian's" "$tmp/bin.json" '
g, = [x for x in d["builds"] if x["id"].endswith(":guest")]
assert g["config_name"] == "Debian 7.3.4+deb13-amd64 (7.3.4-1~bpo13+1)", g
assert g["misc"]["guest"] == "binary" and "linux-binary-7.3.4+deb13-amd64" in g["misc"]["image"], g
'

# the same failure out of the gate on purpose (INFO): reported as it is,
# never unexpected, with its issue
cp -r "$fx/kcidb-run" "$tmp/info"
"$py" - "$tmp/info/summary.json" <<'PY' || rc=1
import json, sys
s = json.load(open(sys.argv[1]))
e, = [e for e in s['kselftest'] if (e['test'], e['mode']) == ('dirty_throttle', 'classic')]
e['expected'], e['expected_reason'] = 'INFO', 'the jiffy-bound throttle (doc/x.rst)'
json.dump(s, open(sys.argv[1], 'w'))
PY
expect_rc 0 "a run with an INFO point converts" "$py" runner/export/kcidb.py "$tmp/info" -o "$tmp/info.json"
check "an INFO point keeps its status, is not unexpected and has its issue" "$tmp/info.json" '
c = t["kselftest.mm.mglru.dirty_throttle.classic"]
assert c["status"] == "FAIL" and c["misc"]["expected"] == "INFO", c
assert not c["misc"]["unexpected"], c
i, = d["incidents"]
assert i["test_id"] == c["id"] and i["present"], i
assert d["issues"][0]["misc"]["expected"] == "INFO", d["issues"]
'

# kcidb-io rejects broken documents: a status it does not know, a test
# without the build it belongs to (a required field)
"$py" - "$tmp/run.json" "$tmp" <<'PY' || rc=1
import copy, json, sys
import jsonschema
import kcidb_io
d = json.load(open(sys.argv[1]))
rc = 0
for name, field, value, where, what in (
        ('bad-status', 'status', 'XFAIL', ['tests', 0, 'status'], "'XFAIL' is not one of"),
        ('no-build-id', 'build_id', None, ['tests', 0], "'build_id' is a required property")):
    bad = copy.deepcopy(d)
    if value is None:
        del bad['tests'][0][field]
    else:
        bad['tests'][0][field] = value
    json.dump(bad, open(f'{sys.argv[2]}/{name}.json', 'w'))
    try:
        kcidb_io.schema.LATEST.validate(bad)
    except jsonschema.exceptions.ValidationError as e:
        if list(e.absolute_path) == where and what in e.message:
            print(f'ok   kcidb-io rejects {name}: {e.message}')
            continue
        print(f'FAIL {name}: rejected for another reason: {e.message} at {list(e.absolute_path)}')
    else:
        print(f'FAIL {name}: kcidb-io accepts it')
    rc = 1
sys.exit(rc)
PY
expect_one_error "kcidb.py --check rejects the unknown status" \
	"$py" runner/export/kcidb.py --check "$tmp/bad-status.json"
expect_one_error "kcidb.py --check rejects the missing build_id" \
	"$py" runner/export/kcidb.py --check "$tmp/no-build-id.json"
grep -q "'build_id' is a required property" "$tmp/out" ||
	{ echo "FAIL: the missing build_id is not named"; rc=1; }

# the summary fixtures: a timeout, repeats, skips, KUnit failures
for f in fail repeat skip kunit; do
	cp -r "$fx/$f" "$tmp/$f"
done
runner/run/summary.py "$tmp/fail" >/dev/null
runner/run/summary.py "$tmp/repeat" >/dev/null
runner/run/summary.py "$tmp/kunit" --expect "$fx/expect-kunit.txt" >/dev/null
for f in fail repeat skip kunit; do
	expect_rc 0 "$f: converts" "$py" runner/export/kcidb.py "$tmp/$f" -o "$tmp/$f.json"
done
check "a timeout is ERROR, not FAIL" "$tmp/fail.json" '
e = t["kselftest.mm.mglru.aging_oom"]
assert e["status"] == "ERROR" and "TIMEOUT 900 seconds" in e["misc"]["runner"], e
assert "# TIMEOUT 900 seconds" in e["log_excerpt"], e
'
check "REPEAT: one test per run, with its own verdict and metrics" "$tmp/repeat.json" '
r = [t["kselftest.mm.mglru.dirty_throttle.mglru:r%d" % n] for n in (1, 2, 3)]
assert [x["status"] for x in r] == ["FAIL", "FAIL", "PASS"], r
assert [x["misc"]["metrics"]["duration_s"] for x in r] == [100, 200, 300], r
assert all(x["misc"]["runs"] == 3 and x["misc"]["verdict"] == "FAIL" for x in r), r
assert t["kselftest.mm.mglru.dirty_throttle.mglru.oom_kill:r2"]["number"] == {"value": 0}
'
check "skipped points are SKIP" "$tmp/skip.json" '
s = [x for x in d["tests"] if x["path"].startswith("kselftest.")]
assert [x["status"] for x in s] == ["SKIP", "SKIP"], s
'
check "KUnit: an expected failure is FAIL with its incident, a skip SKIP" "$tmp/kunit.json" '
f = t["kunit.mglru.mglru_test_budget_anon_only_without_swap"]
assert f["status"] == "FAIL" and not f["misc"]["unexpected"], f
assert t["kunit.mglru.mglru_test_budget_offline_memcg"]["status"] == "SKIP"
assert [i["test_id"] for i in d["incidents"]] == [f["id"]], d["incidents"]
'
# summary.json alone: its verdicts
rm "$tmp/skip/"*.ktap
expect_rc 0 "summary.json without KTAP converts" "$py" runner/export/kcidb.py "$tmp/skip" -o "$tmp/s.json"
check "summary.json without KTAP: its verdicts" "$tmp/s.json" '
assert t["kselftest.mm.mglru.aging_oom.mglru"]["status"] == "SKIP"
'

# a run named by its start (runner/run/suite.sh): each test starts then, each
# point's path sits under its program's, and the expected failure's issue
# blames the code, with the reason's start as its comment and a version
run=$tmp/20261125-101500-debian-7.3-default
cp -r "$fx/kcidb-run" "$run"
expect_rc 0 "a run named by its start converts" "$py" runner/export/kcidb.py "$run" -o "$tmp/started.json"
check "tests start at the run's start; points sit under their program" "$tmp/started.json" '
assert all(x["start_time"].startswith("2026-11-25T10:15:00") for x in d["tests"]), d["tests"][0]
k = [x["path"] for x in d["tests"] if x["path"].startswith("kselftest.")]
assert all(p.startswith("kselftest.mm.mglru.dirty_throttle.") for p in k), k
assert {p.split(".")[4] for p in k} == {"mglru", "classic"}, k
assert t["kselftest.mm.mglru.dirty_throttle.classic"]["status"] == "FAIL"
assert t["kselftest.mm.mglru.dirty_throttle.mglru.duration_s"]["status"] == "DONE"
'
check "an expected FAIL's issue: the code's, a short comment, a version" "$tmp/started.json" '
i, = d["issues"]
assert i["culprit"] == {"code": True, "tool": False, "harness": False}, i
assert i["comment"].startswith("dirty_throttle_classic FAIL: the classic LRU OOM-kills dd"), i
assert "Not the series" not in i["comment"] and len(i["comment"]) <= 240, i
assert i["misc"]["reason"].endswith("has not been looked into"), i
assert isinstance(i["version"], int) and i["version"] > 0, i
assert d["incidents"][0]["issue_version"] == i["version"], d["incidents"]
'
check "an INFO point's issue is the test's (tool), not the code's" "$tmp/info.json" '
i, = d["issues"]
assert i["culprit"] == {"code": False, "tool": True, "harness": False}, i
assert i["comment"] == "dirty_throttle_classic INFO: the jiffy-bound throttle (doc/x.rst)", i
'

# an issue's version is the commit time of its expectation line's last
# change: another line's change leaves it, an uncommitted edit raises it
gitc()
{
	local when=$1
	shift
	GIT_AUTHOR_DATE=$when GIT_COMMITTER_DATE=$when git -c user.name=t \
		-c user.email=t@example.org "$@" >/dev/null
}
exp=$tmp/exp
mkdir "$exp"
git -C "$exp" init -q
printf 'dirty_throttle_classic FAIL old reason. More.\naging_oom_mglru FLAKY x\n' >"$exp/e.txt"
gitc 2026-01-01T00:00:00Z -C "$exp" add e.txt
gitc 2026-01-01T00:00:00Z -C "$exp" commit -q -m one
sed -i 's/old reason/new reason/' "$exp/e.txt"
gitc 2026-02-01T00:00:00Z -C "$exp" commit -q -a -m two
sed -i 's/FLAKY x/FLAKY y/' "$exp/e.txt"
gitc 2026-03-01T00:00:00Z -C "$exp" commit -q -a -m three
sed -i 's/new reason/newest reason/' "$exp/e.txt"
for v in old new newest; do
	cp -r "$fx/kcidb-run" "$tmp/v-$v"
	"$py" - "$tmp/v-$v/summary.json" "$exp/e.txt" "$v reason. More." <<'PY' || rc=1
import json, sys
s = json.load(open(sys.argv[1]))
s['expectations'] = sys.argv[2]
e, = [e for e in s['kselftest'] if (e['test'], e['mode']) == ('dirty_throttle', 'classic')]
e['expected_reason'] = sys.argv[3]
json.dump(s, open(sys.argv[1], 'w'))
PY
	expect_rc 0 "a run judged by the $v text converts" \
		"$py" runner/export/kcidb.py "$tmp/v-$v" -o "$tmp/v-$v.json"
done
check "the issue's version follows its line's text" "$tmp/v-old.json" '
import datetime
def version(name):
	i, = json.load(open(sys.argv[1].replace("old", name)))["issues"]
	return i["version"]
def at(day):
	return int(datetime.datetime.fromisoformat(day + "T00:00:00+00:00").timestamp())
v = [version(n) for n in ("old", "new", "newest")]
assert v[0] == at("2026-01-01") and v[1] == at("2026-02-01"), v
assert v[2] > at("2026-03-01"), v
assert d["issues"][0]["comment"] == "dirty_throttle_classic FAIL: old reason.", d["issues"]
'

# a KDIR git tree: the checkout has its commit, branch and https remote
# (without its credentials), and the patches' hash as KCIDB defines it
phash=$(sha256sum patches/hook/0001-*.patch | cut -c-64 | sha256sum | cut -c-64)
kdir=$tmp/linux
mkdir -p "$kdir/mm"
touch "$kdir/Makefile" "$kdir/Kconfig" "$kdir/mm/vmscan.c"
git -C "$kdir" init -q
git -C "$kdir" checkout -q -b mglru-test
gitc 2026-01-01T00:00:00Z -C "$kdir" add .
gitc 2026-01-01T00:00:00Z -C "$kdir" commit -q -m tree
git -C "$kdir" remote add origin https://user:token@git.example.org/pub/linux.git
run=$tmp/20261125-111500-kdir-0123456789-default
cp -r "$fx/kcidb-run" "$run"
"$py" - "$run/summary.json" "$kdir" <<'PY' || rc=1
import json, sys
s = json.load(open(sys.argv[1]))
s['kernel'].update(kernel='kdir-0123456789', source=sys.argv[2], version='7.3.0')
json.dump(s, open(sys.argv[1], 'w'))
PY
expect_rc 0 "a KDIR git tree's run converts" "$py" runner/export/kcidb.py "$run" -o "$tmp/git.json"
HEAD_SHA=$(git -C "$kdir" rev-parse HEAD)
export HEAD_SHA PHASH=$phash
check "a git tree's checkout: commit, branch, https URL, patchset_hash" "$tmp/git.json" '
import os
c, = d["checkouts"]
assert c["git_commit_hash"] == os.environ["HEAD_SHA"], c
assert c["git_repository_branch"] == "mglru-test", c
assert c["git_repository_url"] == "https://git.example.org/pub/linux.git", c
assert c["patchset_hash"] == os.environ["PHASH"], c
assert "applied" not in c.get("misc", {}), c
assert os.environ["HEAD_SHA"][:12] in c["id"], c
'
check "a Debian source's checkout: patchset_hash, no git fields" "$tmp/started.json" '
import os
c, = d["checkouts"]
assert c["patchset_hash"] == os.environ["PHASH"], c
assert not [k for k in c if k.startswith("git_")], c
'
git -C "$kdir" remote set-url origin git@git.example.org:pub/linux.git
expect_rc 0 "a KDIR git tree with an ssh remote converts" "$py" runner/export/kcidb.py "$run" -o "$tmp/ssh.json"
check "an ssh remote is no git_repository_url (KCIDB takes https only)" "$tmp/ssh.json" '
c, = d["checkouts"]
assert "git_repository_url" not in c and c["git_repository_branch"] == "mglru-test", c
'

# a guest kernel that does not build: runner/run/suite.sh records it in
# build-guest.failed and stops; the run is a build of status FAIL (the
# compiler's error) or ERROR (the machine's), and no tests
run=$tmp/20261125-121500-debian-7.3-default
cp -r "$fx/kcidb-build-failed" "$run"
# shellcheck disable=SC2317 # (called through expect_rc)
record_failed_build()
{
	RESULTS=$1 build_failed guest "$1/logs/build-guest.log" "$1/tree-info"
}
expect_rc 0 "lib.sh records a failed guest build" record_failed_build "$run"
grep -qx 'status=FAIL' "$run/build-guest.failed" 2>/dev/null ||
	{ echo "FAIL a compiler's error is not recorded as status=FAIL"; rc=1; }
expect_rc 0 "a run whose guest kernel did not build converts" \
	"$py" runner/export/kcidb.py "$run" -o "$tmp/build-fail.json"
check "a failed build: status FAIL, the compiler's error, no tests" "$tmp/build-fail.json" '
b, = d["builds"]
assert b["id"].endswith(":guest") and b["status"] == "FAIL", b
assert "error: implicit declaration of function" in b["log_excerpt"], b
assert b["start_time"].startswith("2026-11-25T12:15:00"), b
assert d["tests"] == [] and d["checkouts"][0]["tree_name"] == "debian-7.3", d
'
run=$tmp/20261125-121501-debian-7.3-default
cp -r "$fx/kcidb-build-failed" "$run"
cat >"$run/logs/build-guest.log" <<'EOF'
  CC      mm/vmscan.o
mm/vmscan.c:4712: fatal error: error writing to /tmp/ccXk2a.s: No space left on device
mglru: error: guest kernel build failed
EOF
expect_rc 0 "lib.sh records a build the machine failed" record_failed_build "$run"
expect_rc 0 "a run whose guest build ran out of disk converts" \
	"$py" runner/export/kcidb.py "$run" -o "$tmp/build-error.json"
check "a build the machine failed: status ERROR" "$tmp/build-error.json" '
b, = d["builds"]
assert b["status"] == "ERROR" and "No space left" in b["log_excerpt"], b
assert d["tests"] == [], d["tests"]
'

# a guest that crashed after the first point: the program is ERROR with
# the oops, under it the point that passed, started as the guest says
run=$tmp/20261125-131500-debian-7.3-default
cp -r "$fx/kcidb-crash" "$run"
runner/run/summary.py "$run" --tree-info "$run/tree-info" >/dev/null
expect_rc 0 "a run whose guest crashed converts" "$py" runner/export/kcidb.py "$run" -o "$tmp/crash.json"
check "a crashed guest: its program ERROR with the oops, its point under it" "$tmp/crash.json" '
import datetime
p = t["kselftest.mm.mglru.aging_oom"]
assert p["status"] == "ERROR" and "crashed" in p["misc"]["runner"], p
assert "BUG: kernel NULL pointer dereference" in p["misc"]["runner"], p
assert "Kernel panic - not syncing: Fatal exception" in p["log_excerpt"], p
m = t["kselftest.mm.mglru.aging_oom.mglru"]
assert m["status"] == "PASS", m
assert all(x["path"].startswith("kselftest.mm.mglru.aging_oom") for x in d["tests"])
s = {datetime.datetime.fromisoformat(x["start_time"]).timestamp() for x in d["tests"]}
assert s == {1795601742}, s
'

mkdir "$tmp/empty"
expect_one_error "a missing results folder is an error" "$py" runner/export/kcidb.py "$tmp/nonexistent"
expect_one_error "a folder without summary.json is an error" "$py" runner/export/kcidb.py "$tmp/empty"
echo '{' >"$tmp/empty/summary.json"
expect_one_error "a broken summary.json is an error" "$py" runner/export/kcidb.py "$tmp/empty"
expect_one_error "a bad origin is an error" "$py" runner/export/kcidb.py "$tmp/run" --origin Bad-Name
exit $rc
