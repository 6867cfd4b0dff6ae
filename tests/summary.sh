#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# runner/summary.py on recorded KTAP: a failure must fail the run unless the
# kernel's expectations list it, an unexpected pass must fail it too, a test
# that died without reporting counts as failed, and metrics reach the JSON.

cd "$(dirname "$0")/.." || exit 1
fx=tests/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0

expect_rc()
{
	local want=$1 name=$2
	shift 2
	"$@" >"$tmp/out" 2>&1
	local got=$?
	if [ "$got" -ne "$want" ]; then
		echo "FAIL $name: exit $got, expected $want"
		sed 's/^/  | /' "$tmp/out"
		rc=1
	else
		echo "ok   $name"
	fi
}

cp -r "$fx/pass" "$tmp/run"
expect_rc 1 "a failing test point fails the run" runner/summary.py "$tmp/run"
expect_rc 0 "an expected failure passes the run" \
	runner/summary.py "$tmp/run" --expect "$fx/expect-classic-fails.txt"
expect_rc 1 "an unexpected pass fails the run" \
	runner/summary.py "$tmp/run" --expect "$fx/expect-mglru-fails.txt"
grep -q 'UNEXPECTED PASS' "$tmp/out" || { echo "FAIL: no UNEXPECTED PASS line"; rc=1; }

python3 - "$tmp/run/summary.json" <<'PY' || rc=1
import json, sys
s = json.load(open(sys.argv[1]))
m = {(t['test'], t['mode']): t for t in s['kselftest']}
assert m[('readahead_refault', 'classic')]['metrics']['refault_file'] == 423312, m
assert m[('readahead_refault', 'mglru')]['verdict'] == 'PASS', m
print('ok   metrics and modes reach summary.json')
PY

cp -r "$fx/fail" "$tmp/dead"
expect_rc 1 "a test that timed out fails the run" runner/summary.py "$tmp/dead"
grep -q 'TIMEOUT' "$tmp/dead/summary.json" || { echo "FAIL: timeout not recorded"; rc=1; }

expect_rc 1 "a missing results folder is an error" runner/summary.py "$tmp/nonexistent"
exit $rc
