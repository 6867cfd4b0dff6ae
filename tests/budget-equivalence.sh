#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The hook's first patch ("mm/vmscan: separate the MGLRU scan budget
# arithmetic from the memcg lookups") claims no functional change: the
# old and new get_nr_to_scan() and apply_proportional_protection(), cut
# from the default kernel's mm/vmscan.c before and after the patch and
# compiled against stand-ins for the memcg lookups
# (tests/budget-equivalence/harness.c), give the same budget, scan count,
# memcg_low_skipped and warnings on a million inputs (edges and random
# values of every width, each swappiness class, priorities 0-12); and a
# changed comparison in the new code is seen.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
k=$(kernel_names | cut -d' ' -f1)
src=$(runner/run/fetch-kernel.sh "$k") || die "budget-equivalence: cannot fetch $k"

# cut NAME FILE: the definition of the function NAME in FILE, with the
# comment above it
cut_fn()
{
	awk -v name="$1" '
		/^\/\*/ { c = ""; incomment = 1 }
		incomment { c = c $0 "\n"; if (/\*\//) incomment = 0; next }
		!infn && $0 ~ "^static [a-z ]*\\**" name "\\(" { infn = 1; printf "%s", c }
		infn { print; if ($0 == "}") exit }
		!infn && !/^$/ { c = "" }' "$2"
}

mkdir -p "$tmp/mm"
cp "$src/mm/vmscan.c" "$tmp/mm/" && cp "$tmp/mm/vmscan.c" "$tmp/old-vmscan.c" || exit 1
(cd "$tmp" && patch -p1 --quiet <"$SUITE_ROOT"/patches/hook/0001-*.patch) ||
	die "budget-equivalence: patches/hook/0001 does not apply to $k"
for f in apply_proportional_protection get_nr_to_scan; do
	cut_fn "$f" "$tmp/old-vmscan.c"
done >"$tmp/old.c"
for f in __apply_proportional_protection apply_proportional_protection \
	 lru_gen_scan_budget lru_gen_memcg_scan_budget get_nr_to_scan; do
	cut_fn "$f" "$tmp/mm/vmscan.c"
done >"$tmp/new.c"
grep -q lru_gen_scan_budget "$tmp/new.c" || die "budget-equivalence: no lru_gen_scan_budget() after the patch"

run()
{
	cp "$SUITE_ROOT/tests/budget-equivalence/harness.c" "$tmp/" || return 2
	if ! gcc -O1 -Wall -o "$tmp/harness" "$tmp/harness.c" 2>"$tmp/cc.log"; then
		cat "$tmp/cc.log"
		return 2
	fi
	"$tmp/harness" 1000000
}

out=$(run) || { echo "FAIL the refactor is not equivalent: $out"; rc=1; }
[ $rc = 0 ] && echo "ok   $out"
# the control: a new budget that shifts an offline memcg's size too differs
sed -i 's/^\t\treturn evictable;$/\t\treturn evictable >> sc->priority;/' "$tmp/new.c"
if out=$(run); then
	echo "FAIL a changed budget went unseen: $out"
	rc=1
else
	echo "ok   a changed budget is seen: ${out##*$'\n'}"
fi
exit $rc
