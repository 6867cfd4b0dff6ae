#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Show that the KUnit suite catches wrong helpers: apply each deliberately
# broken variant in patches/mutants/ to the KUnit tree, run the suite and
# count the variants it kills (the suite fails). Prints the kill count and
# exits 0 only when every mutant was killed.
#
# MUTANTS="01 05" runs only the mutants whose names start with these.

. "$(dirname "$0")/lib.sh"

export LOGDIR=${LOGDIR:-$SUITE_ROOT/results/mutants}
mkdir -p "$LOGDIR"
phase deps "$SUITE_ROOT/runner/deps.sh" kunit || exit 1
phase tree-kunit "$SUITE_ROOT/runner/tree.sh" kunit || exit 1
tree=$(tail -n1 "$LOGDIR/tree-kunit.log")

# the unmutated tree must pass, or no kill means anything
phase mutant-baseline "$SUITE_ROOT/runner/kunit.sh" "$tree" "$LOGDIR/baseline" um ||
	die "the suite fails on the unmutated tree: no mutant can be judged"

saved=$(mktemp)
cp -p "$tree/mm/vmscan.c" "$saved"
trap 'cp "$saved" "$tree/mm/vmscan.c"; rm -f "$saved"' EXIT

total=0 killed=0 survivors=
for p in "$SUITE_ROOT"/patches/mutants/*.patch; do
	name=$(basename "$p" .patch)
	if [ -n "${MUTANTS:-}" ]; then
		echo " $MUTANTS " | grep -q " ${name%%-*} " || continue
	fi
	cp "$saved" "$tree/mm/vmscan.c"
	if ! patch -d "$tree" -p1 --quiet --forward <"$p" >/dev/null; then
		note "$name: does not apply to this tree, not counted"
		continue
	fi
	total=$((total + 1))
	t0=$(date +%s)
	if "$SUITE_ROOT/runner/kunit.sh" "$tree" "$LOGDIR/$name" um >"$LOGDIR/$name.log" 2>&1; then
		survivors="$survivors $name"
		verdict=SURVIVED
	else
		killed=$((killed + 1))
		verdict=killed
	fi
	printf '[%(%T)T] %-8s %s (%ss)\n' -1 "$verdict" "$name" $(($(date +%s) - t0)) >&2
done

echo "mutants killed: $killed of $total"
[ "$total" -gt 0 ] || die "no mutant applied"
[ -z "$survivors" ] || die "surviving mutants:$survivors"
