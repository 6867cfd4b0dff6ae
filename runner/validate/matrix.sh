#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The regression gate's validation matrix (make matrix): for every row of
# expectations/matrix.txt, run the scenario REPEAT times on the kernel that
# has its bug and on the kernel that does not, then report detection and
# false-alarm counts (runner/validate/matrix.py). Each row runs in the LRU mode it
# checks (LRU_MODE), into RESULTS/<test>_<mode>/<kernel>+<variant>/. A
# kernel that two rows of the same test point name (a second bug kernel
# against the same fixed one) runs once.
#
# usage: matrix.sh [MATRIX_FILE]
# REPEAT (default 10), KDIR, ACCEL, MEM, CPUS: as for make kselftest.
# MATRIX_ROWS="test ..." keeps only these rows.
# INTERLEAVE=1 runs each row's two kernels in turn, one run each a round
# (runner/validate/interleave.sh), not each kernel's REPEAT runs in a block:
# a drift over the session then falls on both; a kernel two rows name runs
# for each row.

. "$(dirname "$0")/../lib.sh"
set -o pipefail

matrix=${1:-$SUITE_ROOT/expectations/matrix.txt}
[ -f "$matrix" ] || die "no matrix file $matrix"
export REPEAT=${REPEAT:-10}
check_inputs REPEAT KDIR KERNEL HZ ACCEL MEM CPUS JOBS GUEST_KERNEL GUEST_APPEND
case ${INTERLEAVE:-0} in
0|1) ;;
*) die "INTERLEAVE=$INTERLEAVE: 0 or 1" ;;
esac
# the rows compare kernels built from one config: the stock kernel too is
# built from source, never Debian's binary image
export GUEST=source
# the verdicts would all be "too few runs": say so before the builds
if python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); from validate import matrix
n = int(sys.argv[2])
sys.exit(matrix.smallest_p(n, n) < matrix.ALPHA)' "$SUITE_ROOT/runner" "$REPEAT"; then
	note "warning: REPEAT=$REPEAT: too few runs for Fisher's p < 0.01 on any row" \
		"(REPEAT=5 at least): every row that detects will say 'too few runs'"
fi

# the rows, checked (tests, modes, kernels and variants) by runner/tables.py
# shellcheck disable=SC2086 # (MATRIX_ROWS is a list of tests)
rows=$(tables matrix-rows "$matrix" ${MATRIX_ROWS:-}) || exit 1

out=${RESULTS:-$SUITE_ROOT/results/$(date +%Y%m%d-%H%M%S)-matrix}
mkdir -p "$out" || die "cannot create $out"
out=$(realpath "$out")
case $out in
"$SUITE_ROOT/results/"*) ln -sfn "$out" "$SUITE_ROOT/results/latest-matrix" 2>/dev/null ;;
esac
note "matrix: $out (REPEAT=$REPEAT)"
t0=$(date +%s)

# each row on its two kernels, in the LRU mode it checks; a kernel that
# several rows name is rebuilt incrementally (one object per variant)
declare -A done_runs
while read -r test mode bug fixed; do
	if [ "${INTERLEAVE:-0}" = 1 ]; then
		TESTS=$test LRU_MODE=$mode "$SUITE_ROOT/runner/validate/interleave.sh" \
			"$out/${test}_$mode" "$bug" "$fixed" </dev/null || exit 1
		continue
	fi
	for k in "$bug" "$fixed"; do
		dir=$out/${test}_$mode/$(tables on-disk "$k")
		[ -z "${done_runs[$dir]:-}" ] || continue
		done_runs[$dir]=1
		note "$test ($mode) on kernel $k"
		# a bug kernel fails its scenario by design: matrix.py judges the runs
		# a row that names its kernel runs that kernel, whatever KDIR says
		kenv=()
		[ "$k" != "${k#*:}" ] && kenv=(-u KDIR KERNEL="${k%%:*}")
		env "${kenv[@]}" VARIANT="${k#*:}" TESTS="$test" LRU_MODE="$mode" \
			RESULTS="$dir" "$SUITE_ROOT/runner/run/suite.sh" kselftest </dev/null || true
		[ -f "$dir/summary.json" ] ||
			die "kernel $k produced no summary (see $dir/logs)"
	done
done <<<"$rows"

echo "$rows" >"$out/matrix.txt"
note "total: $(($(date +%s) - t0))s"
python3 "$SUITE_ROOT/runner/validate/matrix.py" "$out"
