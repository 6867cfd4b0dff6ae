#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The series `make series` writes, applied to the whole default kernel tree
# (not the baseline of tests/series.sh), builds and passes its own tests:
# the KUnit suite on UML with kunit.py and the suite's kunitconfig, every
# case passing, and the mm/mglru kselftests build with the kselftest
# Makefile, every program of runner/selftests.txt installed. The kselftests
# need a guest with MGLRU to run: `make` runs them on the same sources.
#
# The tree is a hard-linked copy of the pristine source: patch(1) replaces
# the files it changes, so the cached source stays pristine. The builds go
# to $CACHE/build/<kernel>/series-*, kept for the next run (ccache).

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
. tests/expect.sh
unset KDIR
KERNEL=$(kernel_names | cut -d' ' -f1)
export KERNEL

src=$(runner/run/fetch-kernel.sh "$KERNEL") || die "series-build: no source of $KERNEL"
build=$CACHE/build/$(tree_name)
mkdir -p "$build" || die "series-build: cannot create $build"
runner/export/series.sh "$tmp/series" >/dev/null || die "series-build: make series failed"

cp -al "$src" "$tmp/linux" || die "series-build: cannot copy $src"
for p in "$tmp"/series/[0-9][0-9][0-9][0-9]-*.patch; do
	[ "${p##*/}" != 0000-cover-letter.patch ] || continue
	patch -s -p1 -d "$tmp/linux" --no-backup-if-mismatch <"$p" ||
		die "series-build: $(basename "$p") does not apply to $src"
done

# shellcheck disable=SC2016
expect_rc 0 "series: the KUnit suite builds and passes on UML" \
	python3 "$tmp/linux/tools/testing/kunit/kunit.py" run \
	--kunitconfig="$SUITE_ROOT/kunitconfig" --build_dir="$build/series-kunit-um" \
	--jobs="$JOBS" --json="$tmp/kunit.json"
python3 - "$tmp/kunit.json" <<'PY' || rc=1
import json, sys
cases = []
def walk(t):
    cases.extend(t.get('test_cases', []))
    for s in t.get('sub_groups', []):
        walk(s)
walk(json.load(open(sys.argv[1])))
bad = [c['name'] for c in cases if c['status'] != 'PASS']
if not cases or bad:
    sys.exit(f'FAIL series: {len(cases)} KUnit cases, not passing: {bad}')
print(f'ok   series: {len(cases)} KUnit cases passed')
PY

expect_rc 0 "series: the mm/mglru kselftests build and install" \
	make -s -C "$tmp/linux/tools/testing/selftests" TARGETS=mm/mglru \
	O="$build/series-kselftest" INSTALL_PATH="$tmp/install" install
for t in $(selftest_names); do
	[ -x "$tmp/install/mm/mglru/$t" ] || { echo "FAIL series: no $t installed"; rc=1; }
done
exit $rc
