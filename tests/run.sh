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
check docs runner/export/doc_tables.py --check
# the checks that are one script of tests/ each, named after it
for t in summary compare interleave kcidb matrix tree-refresh runner-input guest-image guest-reaping emulator locks \
	 hook-applies budget-equivalence series series-build selftests-build ktap-parses lava \
	 new-kselftest bisect; do
	check "$t" "tests/$t.sh"
done
if [ -n "${KDIR:-}" ]; then
	check kunit-um runner/run/suite.sh kunit
else
	for k in $(kernel_names); do
		check "kunit-um-$k" env KERNEL="$k" runner/run/suite.sh kunit
	done
fi
# every case passes a second run in the same boot
check kunit-twice tests/kunit-twice.sh
# KASAN, UBSAN and panic_on_warn: 0 reports, no WARN
check kunit-sanitize env KUNIT_SANITIZE=1 runner/run/suite.sh kunit
check w1-vmscan tests/w1.sh
check mutants runner/validate/mutants.sh
check mutation tests/mutation.sh
# one kill time per test here (8 kills); make selftest-check runs them all.
# On Debian's image, the default guest, with TCG single-threaded: with
# the default threads about one boot in ten dies of the emulator's "Oops:
# int3" (runner/crash.py), and vm.sh's one retry would still leave about
# one make check in ten failed by the emulator over its ten boots;
# single-threaded, none died in 8,000 flips of MGLRU
# (doc/results/emulator-deaths.txt). These checks judge cleanup and
# failure criteria, not timings (doc/checks.rst).
check selftest-check env KILLS=1 TCG_THREAD=single runner/run/suite.sh selftest-check
grep -h "mutants killed" "$LOGDIR/mutants.log" >&2

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
