#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# runner/validate/compare.py on recorded runs whose answers are known. Each line is
# tested by the test runner/selftests.txt declares for its metric, the
# p-values corrected together (Holm) and '*' at p < 0.01:
# - equal runs differ in nothing after the correction: compare-a is one
#   REPEAT=4 run of debian-7.3, compare-b four (three) separate single runs
#   of the same kernel; dirty_throttle's classic max_dirty_mib has Welch's
#   p = 0.0055 between them, 0.077 after the correction over 14 lines;
# - 10 failed runs of 10 against 0 of 10 differ (Fisher), and refault_file,
#   declared mwu, is Mann-Whitney's (thrash and calm: readahead_refault's
#   recorded run, ten times, its classic point failing or passing);
# - a binary metric (dd_completed, oom_kill) is never Welch's;
# - a line that cannot reach p < 0.01 (one run a side; 4 runs a side for
#   Fisher) says "too few runs".
# --equivalent: two one-sided tests (TOST) show B within a bound of A, or
# do not. The verdicts and exit codes are kept; compare.svg and the sweep's
# picture (runner/run/plots.py) are SVG. Each check has a control: the same
# table, broken by sed, must fail it.
# shellcheck disable=SC2317 # (the check_* functions are called through check)

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
. tests/expect.sh
fx=tests/fixtures
py=$VENV/bin/python3
"$py" -c 'import scipy, matplotlib' 2>/dev/null ||
	{ echo "FAIL: no scipy and matplotlib in $VENV (runner/run/deps.sh)"; exit 1; }

for r in a b; do
	cp -r "$fx/compare-$r" "$tmp/$r"
	runner/run/summary.py "$tmp/$r" >/dev/null
	[ -f "$tmp/$r/summary.json" ] || { echo "FAIL: no summary.json for compare-$r"; exit 1; }
done
# one run a side: the first run of compare-b, as a run without REPEAT
mkdir "$tmp/one"
for f in "$tmp"/b/kselftest-*.r1.ktap; do
	cp "$f" "$tmp/one/$(basename "$f" .r1.ktap).ktap"
done
cp "$tmp/b/guest-uname" "$tmp/one/"
runner/run/summary.py "$tmp/one" >/dev/null
# ten runs a side: readahead_refault_classic fails in each run of thrash
# and passes in each of calm; its refault_file differs (all of thrash's
# above calm's), by Mann-Whitney p = 0.00018 and Welch p = 7e-21
mkdir "$tmp/thrash" "$tmp/calm"
for i in $(seq 10); do
	sed "s/classic refault_file=.*/classic refault_file=$((423312 + 1000 * i))/" \
		"$fx/pass/kselftest-readahead_refault.ktap" >"$tmp/thrash/kselftest-readahead_refault.r$i.ktap"
	sed -e "s/classic refault_file=.*/classic refault_file=$((13 + i))/" \
		-e 's/^# not ok 2 readahead_refault_classic/# ok 2 readahead_refault_classic/' \
		"$fx/pass/kselftest-readahead_refault.ktap" >"$tmp/calm/kselftest-readahead_refault.r$i.ktap"
done
runner/run/summary.py "$tmp/thrash" >/dev/null
runner/run/summary.py "$tmp/calm" >/dev/null

# row FILE TEST MODE METRIC: the metric's line of a compare.py table
# ("verdict": the test point's failure counts)
row()
{
	awk -v t="$2 $3" -v k="$4" '$3 == "verdict" { cur = $1 " " $2 }
		$3 == "verdict" && k == "verdict" && cur == t { print; exit }
		$3 == "verdict" { next }
		cur == t && $1 == k { print; exit }' "$1"
}

# marked FILE TEST MODE METRIC yes|no|too-few: the line has its p-values
# and ends with "*" (yes) or not (no), or says "too few runs"
marked()
{
	local line
	line=$(row "$1" "$2" "$3" "$4")
	case $5 in
	yes) [[ $line =~ [0-9]\ \*$ ]] ;;
	no) [[ $line =~ [0-9]$ ]] ;;
	too-few) [[ $line == *"too few runs" ]] ;;
	esac || { echo "FAIL: $2 $3 $4: expected '$5', got '$line'"; return 1; }
}

# ends FILE TEST MODE METRIC TEXT: the metric's line ends with TEXT
ends()
{
	local line
	line=$(row "$1" "$2" "$3" "$4")
	[[ $line == *"$5" ]] || { echo "FAIL: $2 $3 $4: expected '... $5', got '$line'"; return 1; }
}

# significant FILE TEXT: the table's "significant:" line starts with TEXT
significant()
{
	grep -q "^significant: $2" "$1" || { echo "FAIL: no 'significant: $2' line"; return 1; }
}

# check FUNCTION FILE SED NAME: FUNCTION passes on the table in FILE, and
# fails on the same table edited by SED (the control: a broken table)
check()
{
	if "$1" "$2"; then
		echo "ok   compare: $4"
	else
		sed 's/^/  | /' "$2"
		rc=1
	fi
	sed -e "$3" "$2" >"$tmp/broken"
	if "$1" "$tmp/broken" >/dev/null; then
		echo "FAIL: compare: $4: the control (sed '$3') passed the check"
		rc=1
	fi
}

# equal runs: A against B, every metric; max_dirty_mib's p is Welch's
# (Student's t-test, equal variances, gives 0.0012) and Holm's 14 times it;
# a binary metric is Fisher's; Fisher's test on 4 runs against 4 is out of
# reach of p < 0.01 (its smallest p is 2/70)
check_equal()
{
	ends "$1" dirty_throttle classic max_dirty_mib " welch   0.0055   0.077" &&
		marked "$1" dirty_throttle classic max_dirty_mib no &&
		marked "$1" dirty_throttle mglru duration_s no &&
		ends "$1" dirty_throttle mglru duration_s " welch     0.59       1" &&
		marked "$1" swappiness_sweep mglru swp10_anon_pct no &&
		ends "$1" dirty_throttle mglru dd_completed " fisher too few runs" &&
		ends "$1" dirty_throttle classic oom_kill " fisher too few runs" &&
		ends "$1" swappiness_sweep mglru verdict " fisher too few runs" &&
		marked "$1" dirty_throttle classic verdict too-few &&
		significant "$1" '0 of 14 tested line(s) differ (Holm p < 0.01)'
}

# a binary metric: every line of dd_completed and oom_kill is Fisher's
check_binary()
{
	local lines
	lines=$(awk '$1 == "dd_completed" || $1 == "oom_kill"' "$1")
	if [ "$(echo "$lines" | wc -l)" -lt 6 ] || echo "$lines" | grep -qv ' fisher '; then
		echo "FAIL: a binary metric not by Fisher's test:"
		echo "$lines"
		return 1
	fi
}

# 10 failed runs of 10 against 0 of 10: Fisher's p = 2/C(20, 10) is
# significant, so is refault_file by Mann-Whitney; two lines are tested
check_fisher()
{
	ends "$1" readahead_refault classic refault_file " mwu    0.00018 0.00018 *" &&
		ends "$1" readahead_refault classic verdict "FAIL 10/10 fail       PASS  0/10 fail         fisher 1.1e-05 2.2e-05 *" &&
		ends "$1" readahead_refault mglru verdict " fisher n/a" &&
		ends "$1" readahead_refault mglru refault_file " mwu    n/a" &&
		significant "$1" '2 of 2 tested line(s) differ'
}

# one run a side: nothing can reach p < 0.01
check_one()
{
	marked "$1" dirty_throttle mglru duration_s too-few &&
		marked "$1" swappiness_sweep mglru swp200_anon_pct too-few &&
		marked "$1" swappiness_sweep mglru verdict too-few &&
		significant "$1" 'too few runs (no line could reach p < 0.01)'
}

expect_rc 0 "compare: A against B, every metric: no test point regressed" \
	"$py" runner/validate/compare.py --all --svg "$tmp/all.svg" "$tmp/a" "$tmp/b"
cp "$tmp/out" "$tmp/ab"
check check_equal "$tmp/ab" '/max_dirty_mib .*[0-9]$/s/$/ */' \
	"equal runs differ in nothing after Holm's correction"
check check_binary "$tmp/ab" '/^ *dd_completed .*too few/s/fisher/welch /' \
	"a binary metric is Fisher's, never Welch's"
expect_rc 0 "compare: 10 failed runs of 10 against 0 of 10" \
	"$py" runner/validate/compare.py --no-svg "$tmp/thrash" "$tmp/calm"
cp "$tmp/out" "$tmp/fisher"
check check_fisher "$tmp/fisher" 's/ \*$//' \
	"10/10 failed against 0/10 is significant (Fisher), refault_file by Mann-Whitney"
expect_rc 0 "compare: REPEAT runs against one run" \
	"$py" runner/validate/compare.py --no-svg "$tmp/b" "$tmp/one"
cp "$tmp/out" "$tmp/one.out"
check check_one "$tmp/one.out" 's/too few runs$/   0.5    1/' \
	"a side with one run says too few runs"
# Holm's adjusted p-values of a textbook example (as statsmodels' multipletests)
if "$py" -c 'import sys; sys.path.insert(0, "runner"); from validate import compare
sys.exit(compare.holm([0.01, 0.04, 0.03, 0.005]) != [0.03, 0.06, 0.06, 0.02])'; then
	echo "ok   compare: Holm-Bonferroni's adjusted p-values"
else
	echo "FAIL: compare.holm() is not Holm-Bonferroni"
	rc=1
fi
# an unknown test in runner/selftests.txt is an error that names it
mkdir "$tmp/suite"
cp -r runner "$tmp/suite/"
sed -i 's/oom_kill:fisher/oom_kill:ttest/' "$tmp/suite/runner/selftests.txt"
expect_rc 1 "compare: an unknown test in runner/selftests.txt is an error" \
	"$py" "$tmp/suite/runner/validate/compare.py" --no-svg "$tmp/a" "$tmp/b"
grep -q '^mglru: error: .*selftests.txt:[0-9]*: oom_kill:ttest: expected <metric>:<test>' \
	"$tmp/out" || { echo "FAIL: no error naming oom_kill:ttest"; rc=1; }

# equivalence (TOST): refault_file of ten runs a side, B one above A
# (equivalent within 10 % of A's median), or fifty above (not shown);
# max_dirty_mib of the equal runs by Welch's, its p as two one-sided t-tests
# by hand; a count has no TOST
mkdir "$tmp/near" "$tmp/base" "$tmp/far"
for i in $(seq 10); do
	for d in base:100 near:101 far:150; do
		sed -e "s/classic refault_file=.*/classic refault_file=$((${d#*:} + i))/" \
			-e 's/^# not ok 2 readahead_refault_classic/# ok 2 readahead_refault_classic/' \
			"$fx/pass/kselftest-readahead_refault.ktap" >"$tmp/${d%:*}/kselftest-readahead_refault.r$i.ktap"
	done
done
# three runs a side: Mann-Whitney's smallest one-sided p is 1/20
mkdir "$tmp/base3" "$tmp/near3"
for i in 1 2 3; do
	cp "$tmp/base/kselftest-readahead_refault.r$i.ktap" "$tmp/base3/"
	cp "$tmp/near/kselftest-readahead_refault.r$i.ktap" "$tmp/near3/"
done
for d in near base far base3 near3; do
	runner/run/summary.py "$tmp/$d" >/dev/null
done
# equivalent FILE TEST MODE METRIC TEXT: the metric's TOST line ends with TEXT
equivalent()
{
	local line
	line=$(sed -n '/^equivalence (TOST)/,$p' "$1" | awk -v t="$2" -v m="$3" -v k="$4" \
		'$1 == t && $2 == m && $3 == k { print; exit }')
	[[ $line == *"$5" ]] || { echo "FAIL: TOST $2 $3 $4: expected '... $5', got '$line'"; return 1; }
}
# (mib_per_s, Welch's, is the same in every run: within any bound)
check_near()
{
	equivalent "$1" readahead_refault classic refault_file " equivalent" &&
		equivalent "$1" readahead_refault mglru mib_per_s " welch        0       0 equivalent"
}
check_three() { equivalent "$1" readahead_refault classic refault_file "mwu    too few runs"; }
check_far() { equivalent "$1" readahead_refault classic refault_file " not shown"; }
check_count()
{
	equivalent "$1" dirty_throttle classic oom_kill "fisher a count: no TOST" &&
		equivalent "$1" dirty_throttle classic max_dirty_mib " not shown"
}
expect_rc 0 "compare --equivalent: B one above A, ten runs a side" \
	"$py" runner/validate/compare.py --no-svg --equivalent refault_file=10% \
	--equivalent mib_per_s=1% "$tmp/base" "$tmp/near"
cp "$tmp/out" "$tmp/near.out"
check check_near "$tmp/near.out" '/^readahead_refault  classic  refault_file /s/ equivalent$/ not shown/' \
	"B within 10 % of A is equivalent (TOST, Mann-Whitney; Welch's on equal runs)"
expect_rc 0 "compare --equivalent: three runs a side" \
	"$py" runner/validate/compare.py --no-svg --equivalent refault_file=10% "$tmp/base3" "$tmp/near3"
cp "$tmp/out" "$tmp/three.out"
check check_three "$tmp/three.out" 's/too few runs$/ 0.05 0.05 equivalent/' \
	"three runs a side cannot show equivalence (too few runs)"
expect_rc 0 "compare --equivalent: B fifty above A" \
	"$py" runner/validate/compare.py --no-svg --equivalent refault_file=10% "$tmp/base" "$tmp/far"
cp "$tmp/out" "$tmp/far.out"
check check_far "$tmp/far.out" '/^readahead_refault  classic  refault_file /s/ not shown$/ equivalent/' \
	"B fifty above A is not shown equivalent within 10 %"
expect_rc 0 "compare --equivalent: a count, and a Welch line" \
	"$py" runner/validate/compare.py --no-svg --all --equivalent oom_kill=1 \
	--equivalent max_dirty_mib=1 "$tmp/a" "$tmp/b"
cp "$tmp/out" "$tmp/count.out"
check check_count "$tmp/count.out" 's/a count: no TOST/ 0.01 0.01 equivalent/' \
	"a count has no TOST; max_dirty_mib's 4 runs a side do not show 1 MiB"
if "$py" - "$tmp/a" "$tmp/b" <<'PY'; then
import json, statistics, sys
sys.path.insert(0, 'runner')
from scipy import stats
from run.summary import runs_of
from validate import compare
side = []
for d in sys.argv[1:]:
    t = {(x['test'], x['mode']): x for x in json.load(open(d + '/summary.json'))['kselftest']}
    side.append([r['max_dirty_mib'] for r in runs_of(t[('dirty_throttle', 'classic')])])
a, b = side
# Welch's two one-sided tests by hand: t on each shifted difference
d, bound = statistics.fmean(b) - statistics.fmean(a), 10.0
va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
se = (va + vb) ** 0.5
df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
want = max(stats.t.sf((d + bound) / se, df), stats.t.cdf((d - bound) / se, df))
got, _ = compare.tost('welch', a, b, bound)
sys.exit(int(abs(got - want) > 1e-9 * max(1, want)))
PY
	echo "ok   compare: Welch's TOST p as two one-sided t-tests by hand"
else
	echo "FAIL: compare.tost() is not Welch's two one-sided tests"
	rc=1
fi
expect_rc 1 "compare --equivalent: a bound that is not a number" \
	"$py" runner/validate/compare.py --no-svg --equivalent refault_file=ten "$tmp/base" "$tmp/near"
grep -q '^mglru: error: --equivalent refault_file=ten: expected METRIC=BOUND' "$tmp/out" ||
	{ echo "FAIL: no error naming refault_file=ten"; rc=1; }
expect_rc 1 "compare --equivalent: a metric of no line, before the table" \
	"$py" runner/validate/compare.py --no-svg --equivalent no_such=1 "$tmp/base" "$tmp/near"
[ "$(head -n1 "$tmp/out")" = "mglru: error: --equivalent: no line of no_such in these runs (a key metric, or every metric with --all)" ] ||
	{ echo "FAIL: not a one-line error for a metric of no line"; rc=1; }

# runs of a control (TEST_ARGS) are not compared with runs without it
cp -r "$tmp/a" "$tmp/a-args"
echo "-N 1" >"$tmp/a-args/test-args"
runner/run/summary.py "$tmp/a-args" >/dev/null
expect_rc 1 "compare: runs of other TEST_ARGS" \
	"$py" runner/validate/compare.py --no-svg "$tmp/a" "$tmp/a-args"
[ "$(head -n1 "$tmp/out")" = "mglru: error: A ran with TEST_ARGS '', B with '-N 1': compare runs of the same arguments" ] ||
	{ echo "FAIL: not a one-line error for runs of other arguments"; rc=1; }

# the verdicts and exit codes: swappiness_sweep mglru passes in B, fails in A;
# a run against itself differs in nothing
expect_rc 0 "compare: the same run is not a regression" \
	"$py" runner/validate/compare.py --no-svg "$tmp/a" "$tmp/a"
grep -q '^verdict: same verdicts$' "$tmp/out" || { echo "FAIL: no same-verdicts line"; rc=1; }
significant "$tmp/out" '0 of 4 tested line(s) differ' || rc=1
expect_rc 1 "compare: PASS in A and FAIL in B is a regression" \
	"$py" runner/validate/compare.py --no-svg "$tmp/b" "$tmp/a"
tail -n1 "$tmp/out" | grep -q '^verdict: regressed (1 test point' ||
	{ echo "FAIL: no regressed verdict last"; rc=1; }
expect_rc 1 "compare: a missing run is an error" \
	"$py" runner/validate/compare.py --no-svg "$tmp/a" "$tmp/none"

# the pictures: compare.svg in B's folder by default, the sweep's in the run's
expect_rc 0 "compare: the key metrics, compare.svg in B's folder" \
	"$py" runner/validate/compare.py "$tmp/a" "$tmp/b"
grep -q "^picture: $tmp/b/compare.svg$" "$tmp/out" || { echo "FAIL: no picture line"; rc=1; }
expect_rc 0 "plots.py: the sweep's picture" "$py" runner/run/plots.py sweep "$tmp/a"
cp -r "$fx/repeat" "$tmp/nosweep"
runner/run/summary.py "$tmp/nosweep" >/dev/null
expect_rc 0 "plots.py: a run without the sweep has no picture" \
	"$py" runner/run/plots.py sweep "$tmp/nosweep"
[ ! -e "$tmp/nosweep/swappiness_sweep.svg" ] ||
	{ echo "FAIL: a sweep picture without a sweep"; rc=1; }

# SVG FILE PANELS TEXT...: FILE parses as SVG, with PANELS plot areas and
# each TEXT in its text
"$py" - "$tmp" <<'PY' || rc=1
import sys
import xml.etree.ElementTree as ET
tmp = sys.argv[1]
NS = '{http://www.w3.org/2000/svg}'
ok = True
for name, panels, texts in (
        ('all.svg', 20, ['max_dirty_mib  welch p=0.077', 'duration_s  welch p=1',
                         'dd_completed  fisher too few runs', 'Holm-adjusted', 'B (4)']),
        ('b/compare.svg', None, ['A (4)']),
        ('a/swappiness_sweep.svg', 1, ['mglru (4 runs, median)', 'classic (4 runs, median)',
                                       'vm.swappiness', 'anon share of reclaim (%)'])):
    try:
        root = ET.parse(f'{tmp}/{name}').getroot()
    except (OSError, ET.ParseError) as e:
        print(f'FAIL {name}: not SVG: {e}')
        ok = False
        continue
    areas = [g for g in root.iter(NS + 'g') if g.get('id', '').startswith('axes_')]
    words = '\n'.join(''.join(t.itertext()) for t in root.iter(NS + 'text'))
    missing = [t for t in texts if t not in words]
    if root.tag != NS + 'svg' or (panels and len(areas) != panels) or missing:
        print(f'FAIL {name}: root {root.tag}, {len(areas)} plot areas (want {panels}),'
              f' missing text {missing}')
        ok = False
    else:
        print(f'ok   {name} is SVG: {len(areas)} plot area(s), the expected text')
sys.exit(0 if ok else 1)
PY
exit $rc
