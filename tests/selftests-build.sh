#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The mm/mglru kselftests build (and install) warning-free against the guest
# tree with the kselftest machinery. They are never run on the host: its
# kernel has no MGLRU and mounts cgroup v1.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
. tests/expect.sh
tree=$(runner/tree.sh guest) || exit 1
install_kselftests "$tree" "$tmp/build" "$tmp/install" 2>&1 | tee "$tmp/log"
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
if grep -E 'warning:|error:' "$tmp/log"; then
	echo "selftests-build: the kselftests build with warnings"
	exit 1
fi
grep -q '^mm/mglru:' "$tmp/install/kselftest-list.txt" ||
	{ echo "selftests-build: no mm/mglru tests installed"; exit 1; }

# Bad input is rejected before a test touches anything (safe on the host):
# a bad option or MGLRU_MODE gets one line (the usage or the error) and
# exit status 1.
one_line()
{
	[ "$(wc -l <"$tmp/out")" -eq 1 ] && return
	echo "FAIL $1: not one line:"
	sed 's/^/  | /' "$tmp/out"
	rc=1
}

sed -n 's/^mm\/mglru://p' "$tmp/install/kselftest-list.txt" >"$tmp/tests"
while read -r t; do
	bin=$tmp/install/mm/mglru/$t
	expect_rc 1 "$t -m both" env -u MGLRU_MODE "$bin" -m both </dev/null
	one_line "$t -m both"
	expect_rc 1 "$t MGLRU_MODE=both" env MGLRU_MODE=both "$bin" </dev/null
	one_line "$t MGLRU_MODE=both"
done <"$tmp/tests"
exit $rc
