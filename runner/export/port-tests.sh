#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Write the KUnit file's port patches, patches/port-<kernel>/tests/*.patch,
# from lib/tests/mglru_kunit.c: the cut of runner/export/port_tests.py as a
# diff against the suite's file, under the message the patch already has.
# Run it after every edit of lib/tests/mglru_kunit.c.
#
# usage: port-tests.sh           rewrite the port patches
#        port-tests.sh --check   only fail when one is not what the suite's
#                                file makes (tests/static.sh)

. "$(dirname "$0")/../lib.sh"

check=
case $* in
'') ;;
--check) check=1 ;;
*) die "usage: port-tests.sh [--check]" ;;
esac

src=$SUITE_ROOT/lib/tests/mglru_kunit.c
file=lib/tests/mglru_kunit.c
work=$(mktemp -d) || die "no scratch directory"
trap 'rm -rf "$work"' EXIT
rc=0
for kernel in 7.2 6.12; do
	dir=$SUITE_ROOT/patches/port-$kernel/tests
	set -- "$dir"/*.patch
	{ [ $# = 1 ] && [ -f "$1" ]; } || die "want one patch in ${dir#"$SUITE_ROOT"/}"
	patch=$1
	python3 "$SUITE_ROOT/runner/export/port_tests.py" "$kernel" "$src" >"$work/cut.c" ||
		die "the $kernel cut no longer fits $file: edit runner/export/port_tests.py"
	{
		sed '/^diff --git /,$d' "$patch"
		echo "diff --git a/$file b/$file"
		diff -u --label "a/$file" --label "b/$file" "$src" "$work/cut.c"
		printf -- '-- \n2.39.5\n'
	} >"$work/new.patch"
	# the patch must turn the suite's file into the cut
	mkdir -p "$work/t/lib/tests" && cp "$src" "$work/t/$file"
	{ (cd "$work/t" && git apply "$work/new.patch") && cmp -s "$work/t/$file" "$work/cut.c"; } ||
		die "the $kernel patch does not make the cut"
	if cmp -s "$work/new.patch" "$patch"; then
		continue
	elif [ -n "$check" ]; then
		echo "${patch#"$SUITE_ROOT"/} is stale: run runner/export/port-tests.sh" >&2
		rc=1
	else
		cp "$work/new.patch" "$patch"
		note "rewrote ${patch#"$SUITE_ROOT"/}"
	fi
done
exit $rc
