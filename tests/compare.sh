#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# runner/compare.py on REPEAT runs: Welch's t-test marks the metric whose
# runs differ (p < 0.05) and not one whose runs overlap; a side with one run
# says "too few runs"; the verdicts and exit codes are kept; compare.svg and
# the sweep's picture (runner/plots.py) are SVG. A broken marking must be
# caught. The fixtures are real runs, their metric lines trimmed:
# compare-a is one REPEAT=4 run of debian-7.3, compare-b four (three)
# separate single runs of the same kernel; dirty_throttle's classic
# max_dirty_mib differs between them (p = 0.0055), the rest does not.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
. tests/expect.sh
fx=tests/fixtures
py=$VENV/bin/python3
"$py" -c 'import scipy, matplotlib' 2>/dev/null ||
	{ echo "FAIL: no scipy and matplotlib in $VENV (runner/deps.sh)"; exit 1; }

for r in a b; do
	cp -r "$fx/compare-$r" "$tmp/$r"
	runner/summary.py "$tmp/$r" >/dev/null
	[ -f "$tmp/$r/summary.json" ] || { echo "FAIL: no summary.json for compare-$r"; exit 1; }
done
# one run a side: the first run of compare-b, as a run without REPEAT
mkdir "$tmp/one"
for f in "$tmp"/b/kselftest-*.r1.ktap; do
	cp "$f" "$tmp/one/$(basename "$f" .r1.ktap).ktap"
done
cp "$tmp/b/guest-uname" "$tmp/one/"
runner/summary.py "$tmp/one" >/dev/null

# row FILE TEST MODE METRIC: the metric's line of a compare.py table
row()
{
	awk -v t="$2 $3" -v k="$4" '$3 == "verdict" { cur = $1 " " $2; next }
		cur == t && $1 == k { print; exit }' "$1"
}

# marked FILE TEST MODE METRIC yes|no|too-few: the line has a p-value and
# ends with "*" (yes) or not (no), or says "too few runs"
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

# the marks of the A-B table in FILE: the differing metric is marked, the
# overlapping ones are not, a metric that never varies is n/a; the p-value
# is Welch's (Student's t-test, equal variances, gives 0.0012)
check_marks()
{
	marked "$1" dirty_throttle classic max_dirty_mib yes &&
		ends "$1" dirty_throttle classic max_dirty_mib " 0.0055 *" &&
		marked "$1" dirty_throttle mglru duration_s no &&
		marked "$1" dirty_throttle mglru max_dirty_mib no &&
		marked "$1" swappiness_sweep mglru swp10_anon_pct no &&
		ends "$1" dirty_throttle mglru oom_kill " n/a" &&
		ends "$1" dirty_throttle mglru duration_s " 0.59" &&
		{ grep -q '^significant: 1 of 14 ' "$1" || { echo "FAIL: not 1 of 14 significant"; false; }; }
}

expect_rc 0 "compare: A against B, every metric: no test point regressed" \
	"$py" runner/compare.py --all --svg "$tmp/all.svg" "$tmp/a" "$tmp/b"
cp "$tmp/out" "$tmp/ab"
if check_marks "$tmp/ab"; then
	echo "ok   compare: the differing metric is marked (p < 0.05), the others are not"
else
	sed 's/^/  | /' "$tmp/ab"
	rc=1
fi
# the control: the same table with the mark moved must fail the check
sed -e '/max_dirty_mib .* \*$/s/ \*$//' -e '0,/duration_s .*[0-9]$/s/\([0-9]\)$/\1 */' \
	"$tmp/ab" >"$tmp/broken"
if check_marks "$tmp/broken" >/dev/null; then
	echo "FAIL: a table with the mark on the wrong metric passed the check"
	rc=1
else
	echo "ok   compare: a mark on the wrong metric is caught"
fi

expect_rc 0 "compare: REPEAT runs against one run" \
	"$py" runner/compare.py --no-svg "$tmp/b" "$tmp/one"
marked "$tmp/out" dirty_throttle mglru duration_s too-few &&
	marked "$tmp/out" swappiness_sweep mglru swp200_anon_pct too-few &&
	grep -q '^significant: 0 of 0 ' "$tmp/out" &&
	echo "ok   compare: a side with one run says too few runs" || rc=1

# the verdicts and exit codes: swappiness_sweep mglru passes in B, fails in A
expect_rc 0 "compare: the same run is not a regression" \
	"$py" runner/compare.py --no-svg "$tmp/a" "$tmp/a"
grep -q '^verdict: same verdicts$' "$tmp/out" || { echo "FAIL: no same-verdicts line"; rc=1; }
expect_rc 1 "compare: PASS in A and FAIL in B is a regression" \
	"$py" runner/compare.py --no-svg "$tmp/b" "$tmp/a"
tail -n1 "$tmp/out" | grep -q '^verdict: regressed (1 test point' ||
	{ echo "FAIL: no regressed verdict last"; rc=1; }
expect_rc 1 "compare: a missing run is an error" \
	"$py" runner/compare.py --no-svg "$tmp/a" "$tmp/none"

# the pictures: compare.svg in B's folder by default, the sweep's in the run's
expect_rc 0 "compare: the key metrics, compare.svg in B's folder" \
	"$py" runner/compare.py "$tmp/a" "$tmp/b"
grep -q "^picture: $tmp/b/compare.svg$" "$tmp/out" || { echo "FAIL: no picture line"; rc=1; }
expect_rc 0 "plots.py: the sweep's picture" "$py" runner/plots.py sweep "$tmp/a"
cp -r "$fx/repeat" "$tmp/nosweep"
runner/summary.py "$tmp/nosweep" >/dev/null
expect_rc 0 "plots.py: a run without the sweep has no picture" \
	"$py" runner/plots.py sweep "$tmp/nosweep"
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
        ('all.svg', 20, ['max_dirty_mib  p=0.0055 *', 'duration_s  p=0.59', 'B (4)']),
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
