#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# runner/kcidb.py: a real run (tests/fixtures/kcidb-run: KUnit under UML
# and dirty_throttle on debian-7.3, its classic mode an expected failure)
# becomes a KCIDB document that kcidb-io's current schema accepts, with
# the statuses, the expected failure's issue and incident and the metrics
# where they belong; the summary fixtures' timeout, repeats, skips and
# KUnit failures become ERROR, one test per run, SKIP and FAIL; kcidb-io
# rejects a document with a status KCIDB does not know and one without a
# required field; bad input is a one-line error.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
fx=tests/fixtures
. tests/expect.sh

py=$VENV/bin/python3
"$py" -c 'import kcidb_io' 2>/dev/null ||
	die "kcidb-io is not installed in $VENV (runner/deps.sh installs runner/requirements.txt)"

# expect_error NAME CMD...: CMD exits 1 with one line, "mglru: error: ..."
expect_error()
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
expect_rc 0 "a real run converts to KCIDB" "$py" runner/kcidb.py "$tmp/run" -o "$tmp/run.json"
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
m = t["kselftest.mm.mglru.dirty_throttle_mglru"]
assert m["status"] == "PASS" and m["duration"] == 12.5, m
assert "# ok 1 dirty_throttle_mglru" in m["log_excerpt"], m
assert t["kselftest.mm.mglru.dirty_throttle_mglru.duration_s"]["number"] == \
	{"value": 12.5, "unit": "s"}
assert t["kselftest.mm.mglru.dirty_throttle_mglru.oom_kill"]["status"] == "DONE"
c = t["kselftest.mm.mglru.dirty_throttle_classic"]
assert c["status"] == "FAIL" and c["misc"]["expected"] == "FAIL", c
assert not c["misc"]["unexpected"] and c["misc"]["expected_reason"], c
assert c["misc"]["metrics"]["oom_kill"] == 1, c
assert "# not ok 2 dirty_throttle_classic" in c["log_excerpt"], c
i, = d["incidents"]
assert i["test_id"] == c["id"] and i["present"], i
assert [x["id"] for x in d["issues"]] == [i["issue_id"]], d["issues"]
'
expect_rc 0 "kcidb.py --check accepts it" "$py" runner/kcidb.py --check "$tmp/run.json"

# a guest whose summary has its tick (summary.py reads it from guest.config)
cp -r "$fx/kcidb-run" "$tmp/hz"
"$py" - "$tmp/hz/summary.json" <<'PY' || rc=1
import json, sys
s = json.load(open(sys.argv[1]))
s['kernel']['hz'] = 250
json.dump(s, open(sys.argv[1], 'w'))
PY
expect_rc 0 "a run with its guest's tick converts" "$py" runner/kcidb.py "$tmp/hz" -o "$tmp/hz.json"
check "the guest build's config_name says its tick" "$tmp/hz.json" '
g, = [x for x in d["builds"] if x["id"].endswith(":guest")]
assert g["config_name"].endswith(" + CONFIG_HZ_250"), g
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
expect_rc 0 "a run with an INFO point converts" "$py" runner/kcidb.py "$tmp/info" -o "$tmp/info.json"
check "an INFO point keeps its status, is not unexpected and has its issue" "$tmp/info.json" '
c = t["kselftest.mm.mglru.dirty_throttle_classic"]
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
expect_error "kcidb.py --check rejects the unknown status" \
	"$py" runner/kcidb.py --check "$tmp/bad-status.json"
expect_error "kcidb.py --check rejects the missing build_id" \
	"$py" runner/kcidb.py --check "$tmp/no-build-id.json"
grep -q "'build_id' is a required property" "$tmp/out" ||
	{ echo "FAIL: the missing build_id is not named"; rc=1; }

# the summary fixtures: a timeout, repeats, skips, KUnit failures
for f in fail repeat skip kunit; do
	cp -r "$fx/$f" "$tmp/$f"
done
runner/summary.py "$tmp/fail" >/dev/null
runner/summary.py "$tmp/repeat" >/dev/null
runner/summary.py "$tmp/kunit" --expect "$fx/expect-kunit.txt" >/dev/null
for f in fail repeat skip kunit; do
	expect_rc 0 "$f: converts" "$py" runner/kcidb.py "$tmp/$f" -o "$tmp/$f.json"
done
check "a timeout is ERROR, not FAIL" "$tmp/fail.json" '
e = t["kselftest.mm.mglru.aging_oom"]
assert e["status"] == "ERROR" and "TIMEOUT 900 seconds" in e["misc"]["runner"], e
assert "# TIMEOUT 900 seconds" in e["log_excerpt"], e
'
check "REPEAT: one test per run, with its own verdict and metrics" "$tmp/repeat.json" '
r = [t["kselftest.mm.mglru.dirty_throttle_mglru:r%d" % n] for n in (1, 2, 3)]
assert [x["status"] for x in r] == ["FAIL", "FAIL", "PASS"], r
assert [x["misc"]["metrics"]["duration_s"] for x in r] == [100, 200, 300], r
assert all(x["misc"]["runs"] == 3 and x["misc"]["verdict"] == "FAIL" for x in r), r
assert t["kselftest.mm.mglru.dirty_throttle_mglru.oom_kill:r2"]["number"] == {"value": 0}
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
expect_rc 0 "summary.json without KTAP converts" "$py" runner/kcidb.py "$tmp/skip" -o "$tmp/s.json"
check "summary.json without KTAP: its verdicts" "$tmp/s.json" '
assert t["kselftest.mm.mglru.aging_oom_mglru"]["status"] == "SKIP"
'

mkdir "$tmp/empty"
expect_error "a missing results folder is an error" "$py" runner/kcidb.py "$tmp/nonexistent"
expect_error "a folder without summary.json is an error" "$py" runner/kcidb.py "$tmp/empty"
echo '{' >"$tmp/empty/summary.json"
expect_error "a broken summary.json is an error" "$py" runner/kcidb.py "$tmp/empty"
expect_error "a bad origin is an error" "$py" runner/kcidb.py "$tmp/run" --origin Bad-Name
exit $rc
