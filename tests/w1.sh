#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mm/vmscan.o with the suite applied (hook, port where needed, the KUnit
# suite compiled in) builds with W=1 without warnings. Debian's unpatched
# 6.12 and 7.3 mm/vmscan.c have none under this config either, so any
# warning is new.
# Runs after the KUnit phase, whose build folder it reuses.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
tree=$(runner/run/tree.sh kunit) || exit 1
build=$CACHE/build/$(tree_name)/kunit-um
[ -f "$build/.config" ] || die "w1.sh: no KUnit build in $build (run make kunit first)"
grep -q '^CONFIG_MGLRU_KUNIT_TEST=y' "$build/.config" ||
	die "w1.sh: $build is not configured with CONFIG_MGLRU_KUNIT_TEST"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
make -C "$tree" O="$build" ARCH=um W=1 mm/vmscan.o >"$log" 2>&1 ||
	{ cat "$log"; die "W=1 build of mm/vmscan.o failed"; }
if grep -E 'warning:' "$log"; then
	die "W=1 warnings in mm/vmscan.o"
fi
echo "mm/vmscan.o: W=1 clean"
