#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# refresh_tree, which switches the scratch kernel tree between validation
# kernels, must leave an unchanged file's timestamp alone and make a changed
# file newer than the objects built from it. Taking a variant's patch out
# restores the pristine file, whose mtime is older than the object built
# from the patched one: copied with its old mtime, make would keep the
# stale object (a "default" kernel with readahead-old-ptes' mm/memory.o).

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
. tests/expect.sh

mkdir -p "$tmp/staging" "$tmp/tree" "$tmp/build"
echo pristine >"$tmp/staging/memory.c"
echo same >"$tmp/staging/vmscan.c"
touch -d '2025-01-01' "$tmp/staging/memory.c" "$tmp/staging/vmscan.c"
refresh_tree "$tmp/staging" "$tmp/tree"

# a variant patches memory.c, and the tree is built (O=, as the runner does)
echo patched >"$tmp/tree/memory.c"
sleep 1
touch "$tmp/build/memory.o" "$tmp/build/vmscan.o"

# the next kernel is the default one again
refresh_tree "$tmp/staging" "$tmp/tree"
expect_rc 0 "reverted file has its content back" \
	cmp "$tmp/staging/memory.c" "$tmp/tree/memory.c"
expect_rc 0 "reverted file is newer than its stale object" \
	test "$tmp/tree/memory.c" -nt "$tmp/build/memory.o"
expect_rc 0 "unchanged file keeps its timestamp" \
	test "$tmp/build/vmscan.o" -nt "$tmp/tree/vmscan.c"
exit $rc
