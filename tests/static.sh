#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Static checks: the tree's own checkpatch.pl --strict on the kernel patches
# and on the suite's C sources, an SPDX line on every source file, and
# shellcheck on the runner's scripts.
#
# usage: static.sh KERNEL_TREE

cd "$(dirname "$0")/.." || exit 1
tree=$1
cp=$tree/scripts/checkpatch.pl
[ -x "$cp" ] || { echo "static.sh: no checkpatch.pl in $tree" >&2; exit 1; }
rc=0

# The kernel patches carried by the suite (mutants are broken on purpose and
# are not submitted anywhere).
for p in patches/hook/*.patch patches/port-6.12/*.patch; do
	"$cp" --strict -q "$p" || { echo "checkpatch: $p"; rc=1; }
done

for f in lib/tests/*.c tools/testing/selftests/mm/mglru/*.[ch]; do
	[ -e "$f" ] || continue
	"$cp" --strict -q --no-tree --ignore FILE_PATH_CHANGES -f "$f" ||
		{ echo "checkpatch: $f"; rc=1; }
done

for f in $(git ls-files '*.c' '*.h' '*.sh' '*.py' '*.rst' '*.config' \
	   'Makefile' '*/Makefile' kunitconfig .ci/run); do
	grep -q 'SPDX-License-Identifier' "$f" || { echo "no SPDX line: $f"; rc=1; }
done

shellcheck -x runner/*.sh tests/*.sh .ci/run || rc=1
exit $rc
