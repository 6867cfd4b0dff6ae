#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kselftests' KTAP is KTAP as the kernel's own parser reads it: every
# recorded run (the kselftest runner's output, and each test's own output
# nested in it) parses with `kunit.py parse` without errors, and its results
# are the ones runner/ktap.py reads. A broken control must be caught.

cd "$(dirname "$0")/.." || exit 1
. tests/expect.sh
tree=$(runner/run/tree.sh kunit) || exit 1
kunit=$tree/tools/testing/kunit/kunit.py

# ours FILE outer|inner: what runner/ktap.py reads from FILE, "<status>
# <name>" per test: the runner's result, or the test points nested in it
ours()
{
	python3 - "$1" "$2" <<'PY'
import sys
sys.path.insert(0, 'runner')
from ktap import verdicts
points, _, outer = verdicts(sys.argv[1])
if sys.argv[2] == 'outer' and outer:
    print(outer[1], 'selftests: mm/mglru: ' + outer[0])
for point, verdict in points.items() if sys.argv[2] == 'inner' else ():
    print(verdict, point)
PY
}

# parse FILE: kunit.py's "<status> <name>" per test case, or exit 1 on errors
parse()
{
	python3 "$kunit" parse --json="$tmp/json" "$(realpath "$1")" >"$tmp/log" 2>&1
	if grep -q 'ERROR\|Could not find any KTAP' "$tmp/log"; then
		grep 'ERROR\|Could not' "$tmp/log" | head -n 3
		return 1
	fi
	python3 - "$tmp/json" <<'PY'
import json, sys
def cases(g):
    for c in g.get('test_cases', []):
        yield c
    for s in g.get('sub_groups', []):
        yield from cases(s)
for c in cases(json.load(open(sys.argv[1]))):
    print(c['status'], c['name'])
PY
}

check_file()
{
	local f=$1 inner=$tmp/inner.ktap got want
	got=$(parse "$f" | sort) || { echo "FAIL $f: kunit.py parse errors"; return 1; }
	want=$(ours "$f" outer | sort)
	if [ "$got" != "$want" ]; then
		echo "FAIL $f: kunit.py read '$got', ktap.py '$want'"
		return 1
	fi
	# the test's own output, one "# " level down
	sed -n '/^# selftests: /,/^\(not \)\{0,1\}ok [0-9]* selftests: /{/^# /s/^# //p}' "$f" |
		sed '1d' >"$inner"
	if ! grep -q 'TAP version' "$inner"; then
		echo "ok   $f: $(echo "$want" | tr '\n' ' ')(the test printed no KTAP)"
		return 0
	fi
	got=$(parse "$inner" | sort) || { echo "FAIL $f (nested): kunit.py parse errors"; return 1; }
	want=$(ours "$f" inner | sort)
	if [ -z "$want" ] || [ "$got" != "$want" ]; then
		echo "FAIL $f (nested): kunit.py read '$got', ktap.py '$want'"
		return 1
	fi
	echo "ok   $f: $(echo "$want" | tr '\n' ' ')"
}

# a run cut short by a kernel crash (its console shows it) is the
# exception: its KTAP stops mid-plan, and kunit.py must say so
for f in tests/fixtures/*/kselftest-*.ktap; do
	t=${f##*/kselftest-}
	t=${t%%.*}
	if [ -n "$(python3 runner/crash.py "${f%/*}/guest-$t/console.log" "$(cat "${f%/*}/accel" 2>/dev/null)")" ]; then
		if check_file "$f" >"$tmp/crash.out" 2>&1; then
			echo "FAIL $f: a run cut short by a crash parsed cleanly"
			rc=1
		else
			echo "ok   $f: cut short by a crash: $(grep -o 'missing expected subtest' "$tmp/crash.out" | head -n1)"
		fi
		continue
	fi
	check_file "$f" || rc=1
done

# a broken file: a result line with a number out of the plan
sed 's/^# ok 2 aging_oom_classic/# ok 7 aging_oom_classic/' \
	tests/fixtures/reworked/kselftest-aging_oom.ktap >"$tmp/broken.ktap"
if check_file "$tmp/broken.ktap" >"$tmp/broken.out" 2>&1; then
	echo "FAIL: a test number out of sequence parsed cleanly: the check cannot fail"
	rc=1
else
	echo "ok   a broken KTAP file is caught: $(head -n1 "$tmp/broken.out")"
fi
exit $rc
