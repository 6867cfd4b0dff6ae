#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every KUnit case passes a second run in the same boot: each suite of
# lib/tests/mglru_kunit.c registered a second time (kunit_test_suites() at
# the end of the KUnit tree's copy, which the next tree.sh puts back), one
# kunit.py run on UML, and each case's two runs must both pass. A case that
# leaves state behind (a reference, a page on the root LRU, a spent
# WARN_ON_ONCE() it counts on) fails its second run. The folio cases run
# while the kernel boots, as in any kunit.py run: past boot they skip
# (doc/kunit.rst), so a debugfs rerun cannot show this.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
. tests/expect.sh

hold_lock "$(tree_name)-kunit"
runner/run/tree.sh kunit >/dev/null || exit 1
tree=$(tree_dir kunit)
file=$tree/lib/tests/mglru_kunit.c
suites=$(sed -n 's/^kunit_test_suite(\([a-z_0-9]*\));$/\&\1/p' "$file" | paste -sd, | sed 's/,/, /g')
[ -n "$suites" ] || { echo "FAIL: no kunit_test_suite() in $file"; exit 1; }
cp -p "$file" "$tmp/unmutated.c" || { echo "FAIL: cannot save $file"; exit 1; }
# put back newer than the objects built from the second registration, so
# that the next build of this tree rebuilds them
trap 'cp "$tmp/unmutated.c" "$file" && touch "$file"; rm -rf "$tmp"' EXIT
printf '\n/* tests/kunit-twice.sh: every suite a second time */\nkunit_test_suites(%s);\n' \
	"$suites" >>"$file"

runner/run/kunit.sh "$tree" "$tmp/run" um >"$tmp/kunit.log" 2>&1 ||
	{ echo "FAIL: the KUnit run did not complete"; tail -n 20 "$tmp/kunit.log"; exit 1; }
python3 - "$tmp/run/kunit-um.json" "$(grep -o '&' <<<"$suites" | wc -l)" runner <<'PY' || rc=1
import sys
sys.path.insert(0, sys.argv[3])
from run.kunit_cases import kunit_case_runs
runs = kunit_case_runs(sys.argv[1])
suites = {name.split('.')[1] for name in runs}
bad = {c: st for c, st in runs.items() if st != ['PASS', 'PASS']}
print(f'{len(suites)} suites, {len(runs)} cases, each run {min(map(len, runs.values()))}-'
      f'{max(map(len, runs.values()))} times')
if len(suites) != int(sys.argv[2]) or bad:
    for c, st in sorted(bad.items())[:20]:
        print(f'FAIL {c}: {" ".join(st)}')
    sys.exit(1)
print(f'ok   every case passed twice in one boot')
PY
exit $rc
