#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# runner/matrix.py on recorded runs: a check holds only when it fails on
# the bug kernel in at least 9 of 10 runs and never on the fixed kernel;
# and runner/matrix.sh rejects a malformed matrix before building anything.

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
for k in thrash calm flaky; do
	runner/summary.py "$r/$k" >/dev/null
done

echo "readahead_refault classic thrash calm" >"$tmp/m/matrix.txt"
expect_rc 0 "matrix: fails on the bug kernel, passes on the fixed one" \
	runner/matrix.py "$tmp/m"
grep -q '1/1 .* 0/1 .* holds' "$tmp/out" || { echo "FAIL: no detection row"; rc=1; }
# the same runs hold the mglru point too (it passes on both kernels)
ln -s readahead_refault_classic "$tmp/m/readahead_refault_mglru"
echo "readahead_refault mglru thrash calm" >"$tmp/m/matrix.txt"
expect_rc 1 "matrix: a check that passes on the bug kernel does not hold" \
	runner/matrix.py "$tmp/m"
echo "readahead_refault classic thrash flaky" >"$tmp/m/matrix.txt"
expect_rc 1 "matrix: 2 false alarms in 10 runs do not hold" runner/matrix.py "$tmp/m"
grep -q '2/10' "$tmp/out" || { echo "FAIL: false alarms not counted"; rc=1; }
echo "readahead_refault classic nokernel calm" >"$tmp/m/matrix.txt"
expect_rc 1 "matrix: a kernel without results is an error" runner/matrix.py "$tmp/m"

echo "aging_oom sometimes default default" >"$tmp/bad.txt"
expect_rc 1 "matrix.sh: a malformed row is an error" runner/matrix.sh "$tmp/bad.txt"
grep -q 'mglru: error:' "$tmp/out" || { echo "FAIL: no one-line error"; rc=1; }
expect_rc 1 "matrix.sh: REPEAT must be a number" env REPEAT=x runner/matrix.sh
exit $rc
