#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# runner/run/summary.py on recorded KTAP: a failure must fail the run unless the
# kernel's expectations list it, an unexpected pass must fail it too, a test
# that died without reporting counts as failed, and metrics reach the JSON.

cd "$(dirname "$0")/.." || exit 1
fx=tests/fixtures
. tests/expect.sh

cp -r "$fx/pass" "$tmp/run"
expect_rc 1 "a failing test point fails the run" runner/run/summary.py "$tmp/run"
expect_rc 0 "an expected failure passes the run" \
	runner/run/summary.py "$tmp/run" --expect "$fx/expect-classic-fails.txt"
expect_rc 1 "an unexpected pass fails the run" \
	runner/run/summary.py "$tmp/run" --expect "$fx/expect-mglru-fails.txt"
grep -q 'UNEXPECTED PASS' "$tmp/out" || { echo "FAIL: no UNEXPECTED PASS line"; rc=1; }
echo "include $PWD/$fx/expect-classic-fails.txt" >"$tmp/include.txt"
expect_rc 0 "an included list's known failure is expected" \
	runner/run/summary.py "$tmp/run" --expect "$tmp/include.txt"
expect_rc 1 "an included list's failure fixed by PASS is no longer expected" \
	runner/run/summary.py "$tmp/run" --expect "$fx/expect-include.txt"
expect_rc 0 "a known-flaky failure passes the run" \
	runner/run/summary.py "$tmp/run" --expect "$fx/expect-flaky.txt"
grep -q 'known flaky' "$tmp/out" || { echo "FAIL: flaky result not reported"; rc=1; }
expect_rc 0 "an INFO point's failure and pass both leave the run passing" \
	runner/run/summary.py "$tmp/run" --expect "$fx/expect-info.txt"
[ "$(grep -c '(info)' "$tmp/out")" = 2 ] || { echo "FAIL: INFO results not reported"; rc=1; }
printf 'readahead_refault_classic LATER reason\n' >"$tmp/bad-keyword.txt"
expect_rc 1 "an unknown keyword is an error" \
	runner/run/summary.py "$tmp/run" --expect "$tmp/bad-keyword.txt"
grep -q 'FAIL|SKIP|FLAKY|INFO|PASS' "$tmp/out" || { echo "FAIL: no keyword list"; rc=1; }

printf 'CONFIG_MMU=y\nCONFIG_HZ_1000=y\nCONFIG_HZ=1000\n' >"$tmp/guest.config"
expect_rc 0 "a run with its guest's config" runner/run/summary.py "$tmp/run" \
	--expect "$fx/expect-classic-fails.txt" --config "$tmp/guest.config"
python3 - "$tmp/run/summary.json" <<'PY' || rc=1
import json, sys
s = json.load(open(sys.argv[1]))
assert s['kernel']['hz'] == 1000 and len(s['kernel']['config_sha1']) == 40, s['kernel']
m = {(t['test'], t['mode']): t for t in s['kselftest']}
assert m[('readahead_refault', 'classic')]['metrics']['refault_file'] == 423312, m
assert m[('readahead_refault', 'mglru')]['verdict'] == 'PASS', m
print('ok   metrics and modes reach summary.json')
PY

# KUnit: each case is a test point; a skipped case is not a pass
cp -r "$fx/kunit" "$tmp/kunit"
expect_rc 1 "a failing KUnit case fails the run" runner/run/summary.py "$tmp/kunit"
grep -q 'unexpected result(s):.*anon_only_without_swap' "$tmp/out" ||
	{ echo "FAIL: the failing case is not named"; rc=1; }
expect_rc 0 "expected KUnit failure and skip pass the run" \
	runner/run/summary.py "$tmp/kunit" --expect "$fx/expect-kunit.txt"
expect_rc 1 "an unexpected KUnit skip fails the run" \
	runner/run/summary.py "$tmp/kunit" --expect "$fx/expect-kunit-fail-only.txt"
grep -q 'unexpected result(s): kunit.mglru.mglru_test_budget_offline_memcg$' "$tmp/out" ||
	{ echo "FAIL: the skipped case is not named alone"; rc=1; }
sed 's/"FAIL"/"PASS"/' "$fx/kunit/kunit-um.json" >"$tmp/kunit/kunit-um.json"
expect_rc 1 "an unexpected KUnit pass fails the run" \
	runner/run/summary.py "$tmp/kunit" --expect "$fx/expect-kunit.txt"
grep -q 'UNEXPECTED PASS' "$tmp/out" || { echo "FAIL: no UNEXPECTED PASS line for KUnit"; rc=1; }

cp -r "$fx/fail" "$tmp/dead"
expect_rc 1 "a test that timed out fails the run" runner/run/summary.py "$tmp/dead"
grep -q 'TIMEOUT' "$tmp/dead/summary.json" || { echo "FAIL: timeout not recorded"; rc=1; }

cp -r "$fx/repeat" "$tmp/rep"
expect_rc 1 "REPEAT: a majority of failing runs fails the test" runner/run/summary.py "$tmp/rep"
grep -q '\[2/3 failed\]' "$tmp/out" || { echo "FAIL: no failure count shown"; rc=1; }
python3 - "$tmp/rep/summary.json" <<'PY' || rc=1
import json, sys
t = json.load(open(sys.argv[1]))['kselftest'][0]
assert t['runs'] == 3 and t['verdicts'] == {'FAIL': 2, 'PASS': 1}, t
assert t['metrics']['duration_s'] == 200 and t['metrics']['oom_kill'] == 1, t
print('ok   REPEAT: counts and median metrics reach summary.json')
PY

# runner/validate/compare.py (the venv's Python): tests/compare.sh

expect_rc 1 "a missing results folder is an error" runner/run/summary.py "$tmp/nonexistent"
exit $rc
