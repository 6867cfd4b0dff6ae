#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The KUnit hook applies as README.rst's manual recipe applies it, with
# `patch -p1` and with `git apply`, to every kernel of runner/kernels.txt
# (fetched if need be): patches/hook/, or the hook of the kernel's port
# (patches/<port>/hook/), after the port's own patches, and before the
# port's patches to the copied suites (patches/<port>/tests/). Each
# tree is checked on a copy of the files the patches touch.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0

[ -n "$(kernel_names)" ] || { echo "FAIL: no kernels in runner/kernels.txt"; exit 1; }
for k in $(kernel_names); do
	src=$(runner/run/fetch-kernel.sh "$k") || { echo "FAIL $k: cannot fetch"; rc=1; continue; }
	port=$(kernel_port "$k")
	# in the runner's order (runner/run/tree.sh): the port, the hook (the
	# port's own, if it has one), then the port's patches to the copied
	# suites
	patches=()
	if [ "$port" != - ] && compgen -G "patches/$port/*.patch" >/dev/null; then
		patches+=(patches/"$port"/*.patch)
	fi
	patches+=("$(hook_dir "$port" 1)"/*.patch)
	tests=()
	[ "$port" != - ] && [ -d "patches/$port/tests" ] && tests=(patches/"$port"/tests/*.patch)
	for tool in "patch -p1 --forward --quiet" "git apply"; do
		w=$tmp/$k-${tool%% *}
		mkdir -p "$w/lib/tests" && cp lib/tests/mglru_*.c "$w/lib/tests/"
		files=$(cat "${patches[@]/#/$SUITE_ROOT/}" | sed -n 's|^+++ b/||p' | sort -u)
		# shellcheck disable=SC2086
		(cd "$src" && cp --parents $files "$w/") ||
			{ echo "FAIL $k: cannot copy $files"; rc=1; continue; }
		ok=1
		for p in "${patches[@]}" "${tests[@]}"; do
			# shellcheck disable=SC2086
			(cd "$w" && $tool <"$SUITE_ROOT/$p") >"$tmp/out" 2>&1 || {
				ok=0
				echo "FAIL $k: $tool < $p:"
				sed 's/^/  | /' "$tmp/out"
			}
		done
		if [ $ok = 1 ] && grep -q CONFIG_MGLRU_KUNIT_TEST "$w/mm/vmscan.c"; then
			echo "ok   $k: ${tool%% --*} applies ${patches[*]##*/} ${tests[*]##*/}"
		else
			rc=1
		fi
	done
done
exit $rc
