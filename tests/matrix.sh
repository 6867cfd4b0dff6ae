#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# runner/validate/matrix.py on recorded runs: a check holds only when it fails on
# the bug kernel in at least 9 of 10 runs and never on the fixed kernel,
# and with enough runs that Fisher's exact test could reach p < 0.01 (3
# runs a side: "too few runs", 5: enough); its Fisher's p is scipy's; and
# runner/validate/matrix.sh rejects a malformed matrix before building anything.

cd "$(dirname "$0")/.." || exit 1
fx=tests/fixtures
. tests/expect.sh

# kernel "thrash": readahead_refault_classic fails; kernel "calm": it passes
r=$tmp/m/readahead_refault_classic
mkdir -p "$r/thrash" "$r/calm" "$r/flaky"
cp "$fx/pass/kselftest-readahead_refault.ktap" "$r/thrash/"
sed 's/^# not ok 2 readahead_refault_classic/# ok 2 readahead_refault_classic/' \
	"$fx/pass/kselftest-readahead_refault.ktap" >"$r/calm/kselftest-readahead_refault.ktap"
for i in $(seq 10); do
	k=calm
	[ "$i" -le 2 ] && k=thrash
	cp "$r/$k/kselftest-readahead_refault.ktap" "$r/flaky/kselftest-readahead_refault.r$i.ktap"
done
# thrash3, calm3, thrash5, calm5: the same run 3 and 5 times
for n in 3 5; do
	for k in thrash calm; do
		mkdir -p "$r/$k$n"
		for i in $(seq "$n"); do
			cp "$r/$k/kselftest-readahead_refault.ktap" "$r/$k$n/kselftest-readahead_refault.r$i.ktap"
		done
	done
done
for k in thrash calm flaky thrash3 calm3 thrash5 calm5; do
	runner/run/summary.py "$r/$k" >/dev/null
done

echo "readahead_refault classic thrash5 calm5" >"$tmp/m/matrix.txt"
expect_rc 0 "matrix: fails on the bug kernel, passes on the fixed one" \
	runner/validate/matrix.py "$tmp/m"
grep -q '5/5 .* 0/5 .* holds' "$tmp/out" || { echo "FAIL: no detection row"; rc=1; }
# 3 runs a side: 3/3 against 0/3 is Fisher's p = 2/C(6,3) = 0.1 at best
for n in 1 3; do
	echo "readahead_refault classic thrash$n calm$n" | sed 's/thrash1/thrash/; s/calm1/calm/' \
		>"$tmp/m/matrix.txt"
	expect_rc 1 "matrix: $n run(s) a side are too few runs for p < 0.01" \
		runner/validate/matrix.py "$tmp/m"
	grep -q "$n/$n .* 0/$n .* too few runs" "$tmp/out" ||
		{ echo "FAIL: $n run(s) a side not too few"; rc=1; }
	grep -q 'holds' "$tmp/out" && { echo "FAIL: $n run(s) a side hold"; rc=1; }
done
# 4 a side: p = 2/C(8,4) = 0.029, still too few; 5 a side: 0.0079
expect_rc 0 "matrix: Fisher's smallest p: too few at 4 runs a side, enough at 5" \
	python3 -c 'import sys; sys.path.insert(0, "runner"); from validate import matrix
assert abs(matrix.smallest_p(4, 4) - 2 / 70) < 1e-12, matrix.smallest_p(4, 4)
assert abs(matrix.smallest_p(5, 5) - 2 / 252) < 1e-12, matrix.smallest_p(5, 5)
assert matrix.smallest_p(10, 2) >= 0.01 > matrix.smallest_p(10, 3)'
# the hand-written Fisher's p is scipy's, where the venv has scipy
py=${CACHE:-$HOME/.cache/mglru-suite}/venv/bin/python3
if "$py" -c 'import scipy' 2>/dev/null; then
	expect_rc 0 "matrix: Fisher's p is scipy's fisher_exact on every table to 12 runs a side" \
		"$py" -c 'import sys; sys.path.insert(0, "runner"); from validate import matrix
from scipy.stats import fisher_exact
bad = [(n, m, a, b) for n in range(1, 13) for m in range(1, 13)
       for a in range(n + 1) for b in range(m + 1)
       if abs(fisher_exact([[a, n - a], [b, m - b]]).pvalue
              - matrix.fisher_p(a, n - a, b, m - b)) > 1e-9]
assert not bad, bad[:5]'
fi
# the same runs hold the mglru point too (it passes on both kernels)
ln -s readahead_refault_classic "$tmp/m/readahead_refault_mglru"
echo "readahead_refault mglru thrash calm" >"$tmp/m/matrix.txt"
expect_rc 1 "matrix: a check that passes on the bug kernel does not hold" \
	runner/validate/matrix.py "$tmp/m"
echo "readahead_refault classic thrash flaky" >"$tmp/m/matrix.txt"
expect_rc 1 "matrix: 2 false alarms in 10 runs do not hold" runner/validate/matrix.py "$tmp/m"
grep -q '2/10' "$tmp/out" || { echo "FAIL: false alarms not counted"; rc=1; }
echo "readahead_refault classic nokernel calm" >"$tmp/m/matrix.txt"
expect_rc 1 "matrix: a kernel without results is an error" runner/validate/matrix.py "$tmp/m"

echo "aging_oom sometimes default default" >"$tmp/bad.txt"
expect_rc 1 "matrix.sh: a malformed row is an error" runner/validate/matrix.sh "$tmp/bad.txt"
grep -q 'mglru: error:' "$tmp/out" || { echo "FAIL: no one-line error"; rc=1; }
expect_rc 1 "matrix.sh: REPEAT must be a number" env REPEAT=x runner/validate/matrix.sh
expect_rc 1 "matrix.sh: REPEAT=4 is said to be too few runs before any build" \
	env REPEAT=4 runner/validate/matrix.sh "$tmp/bad.txt"
grep -q "REPEAT=4: too few runs" "$tmp/out" || { echo "FAIL: no warning"; rc=1; }
expect_rc 1 "matrix.sh: REPEAT=5 is enough" env REPEAT=5 runner/validate/matrix.sh "$tmp/bad.txt"
grep -q "too few runs" "$tmp/out" && { echo "FAIL: REPEAT=5 warned"; rc=1; }
exit $rc
