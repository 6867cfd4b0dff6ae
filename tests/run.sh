#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check`: the project's own tests, what CI runs. Each check is one
# line; the last line is "N passed, N failed". Logs: results/check/.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh

export LOGDIR=$SUITE_ROOT/results/check
rm -rf "$LOGDIR"
mkdir -p "$LOGDIR"
passed=0 failed=0

check()
{
	local name=$1
	shift
	if phase "$name" "$@"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
}

check deps runner/run/deps.sh all
check tree-kunit runner/run/tree.sh kunit
check static tests/static.sh "$(tree_dir kunit)"
check summary tests/summary.sh
check docs runner/export/doc_tables.py --check
check compare tests/compare.sh
check kcidb tests/kcidb.sh
check matrix tests/matrix.sh
check tree-refresh tests/tree-refresh.sh
check runner-input tests/runner-input.sh
check guest-reaping tests/guest-reaping.sh
check locks tests/locks.sh
check journal-fuzz tests/journal-fuzz.sh
check hook-applies tests/hook-applies.sh
check series tests/series.sh
check series-build tests/series-build.sh
check selftests-build tests/selftests-build.sh
check ktap-parses tests/ktap-parses.sh
check lava tests/lava.sh
check new-kselftest tests/new-kselftest.sh
check bisect tests/bisect.sh
if [ -n "${KDIR:-}" ]; then
	check kunit-um runner/run/suite.sh kunit
else
	for k in $(kernel_names); do
		check "kunit-um-$k" env KERNEL="$k" runner/run/suite.sh kunit
	done
fi
# KASAN, UBSAN and panic_on_warn: 0 reports, no WARN
check kunit-sanitize env KUNIT_SANITIZE=1 runner/run/suite.sh kunit
check w1-vmscan tests/w1.sh
check mutants runner/validate/mutants.sh
# one kill time per test here (8 kills); make selftest-check runs them all
check selftest-check env KILLS=1 runner/run/suite.sh selftest-check
grep -h "mutants killed" "$LOGDIR/mutants.log" >&2

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
