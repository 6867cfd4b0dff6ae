#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The mm/mglru kselftests build (and install) warning-free against the guest
# tree with the kselftest machinery. They are never run on the host: its
# kernel has no MGLRU and mounts cgroup v1.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
tree=$(runner/tree.sh guest) || exit 1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
install_kselftests "$tree" "$out/build" "$out/install" 2>&1 | tee "$out/log"
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
if grep -E 'warning:|error:' "$out/log"; then
	echo "selftests-build: the kselftests build with warnings"
	exit 1
fi
grep -q '^mm/mglru:' "$out/install/kselftest-list.txt" ||
	{ echo "selftests-build: no mm/mglru tests installed"; exit 1; }

# Bad input is rejected before a test touches anything (safe on the host):
# a bad option or MGLRU_MODE gets one line on stderr and exit status 1.
sed -n 's/^mm\/mglru://p' "$out/install/kselftest-list.txt" >"$out/tests"
while read -r t; do
	for bad in "-m both" "MGLRU_MODE=both"; do
		if [ "$bad" = "-m both" ]; then
			env -u MGLRU_MODE "$out/install/mm/mglru/$t" -m both
		else
			env MGLRU_MODE=both "$out/install/mm/mglru/$t"
		fi </dev/null >/dev/null 2>"$out/err"
		got=$?
		if [ $got -ne 1 ] || [ "$(wc -l <"$out/err")" -ne 1 ]; then
			echo "selftests-build: $t $bad: exit $got, stderr:"
			cat "$out/err"
			exit 1
		fi
		echo "ok $t $bad: $(cat "$out/err")"
	done
done <"$out/tests"
