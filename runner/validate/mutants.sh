#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Show that the KUnit suite catches wrong helpers: apply each deliberately
# broken variant of the helpers to the KUnit tree, run the suite and count
# the variants it kills (the suite fails). Prints the kill count and exits 0
# only when every mutant applied and was killed by failing cases (not by
# crashing the kernel).
#
# The mutants are written against the code they break: patches/mutants/
# upstream/ for trees that carry the helpers (7.2, 7.3, mm-new) and
# patches/mutants/<port>/ for a tree that got them from the suite's port.
# A mutant that changes a file the tree lacks (the page-fault fix is in
# mm/folio.c on 7.3, mm/swap.c on 7.2), or whose "Requires: <line>" lines
# name code the tree lacks (lines that must follow each other; 7.2 has no
# anon-only early return in get_nr_to_scan()), is reported as not
# applicable; any other mutant that does not apply is an error. Every file
# the mutants change is put back afterwards.
#
# MUTANTS="01 05" runs only the mutants whose names start with these.

. "$(dirname "$0")/../lib.sh"

check_inputs KDIR KERNEL JOBS VARIANT KUNIT_SANITIZE
export LOGDIR=${LOGDIR:-$SUITE_ROOT/results/mutants-$(tree_name)}
mkdir -p "$LOGDIR"
hold_lock "$(tree_name)-kunit"
phase deps "$SUITE_ROOT/runner/run/deps.sh" kunit || exit 1
phase tree-kunit "$SUITE_ROOT/runner/run/tree.sh" kunit || exit 1
tree=$(tree_dir kunit)

# A mutant is killed when a case that passes on the unmutated tree fails
# (or the suite no longer builds). The baseline may have expected failures
# (7.2 lacks 7.3's anon-only checks): those cases cannot kill anything.
rm -rf "$LOGDIR/baseline"
"$SUITE_ROOT/runner/run/kunit.sh" "$tree" "$LOGDIR/baseline" um >"$LOGDIR/mutant-baseline.log" 2>&1
cases=$SUITE_ROOT/runner/run/kunit_cases.py
baseline=$("$cases" "$LOGDIR/baseline/kunit-um.json" 2>/dev/null | awk '$2 == "PASS" { print $1 }')
[ -n "$baseline" ] ||
	die "no case passes on the unmutated tree: no mutant can be judged (log: $LOGDIR/mutant-baseline.log)"
note "baseline: $(echo "$baseline" | wc -l) cases pass$("$cases" "$LOGDIR/baseline/kunit-um.json" |
	awk '$2 != "PASS" { printf ", %s %s", $1, $2 }')"

# the port whose helpers the tree got (its own patches, not its hook)
port=$(sed -n 's|^applied=.*patches/\(port-[^/ ]*\)/[^/ ]*\.patch.*|\1|p' "$tree/.mglru-suite")
set=$SUITE_ROOT/patches/mutants/${port:-upstream}
[ -d "$set" ] || die "no mutants for this tree: $set missing"
note "mutants: ${set#"$SUITE_ROOT"/}"

# targets PATCH: the files PATCH changes
targets()
{
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$1" | sort -u
}

# Every file a mutant changes that the tree has is saved here, and put back
# before each mutant and when this script exits, however it exits.
saved=$LOGDIR/unmutated
rm -rf "$saved"
files=$(for p in "$set"/*.patch; do targets "$p"; done | sort -u)
for f in $files; do
	[ -f "$tree/$f" ] || continue
	if ! mkdir -p "$saved/$(dirname "$f")" || ! cp -p "$tree/$f" "$saved/$f"; then
		die "cannot save $f"
	fi
done
restore()
{
	local f
	for f in $files; do
		[ -f "$saved/$f" ] && cp "$saved/$f" "$tree/$f"
	done
}
trap restore EXIT

# has_lines LINES FILE: FILE has LINES, one after the other (each compared
# without its indentation)
has_lines()
{
	awk -v want="$1" '
		BEGIN { n = split(want, w, "\n") }
		{ gsub(/^[ \t]+|[ \t]+$/, ""); i = ($0 == w[i + 1]) ? i + 1 : ($0 == w[1]) }
		i == n { found = 1; exit }
		END { exit !found }' "$2"
}

total=0 killed=0 survivors='' crashed='' unfit='' na=0
for p in "$set"/*.patch; do
	name=$(basename "$p" .patch)
	if [ -n "${MUTANTS:-}" ]; then
		echo " $MUTANTS " | grep -q " ${name%%-*} " || continue
	fi
	restore
	mine=$(targets "$p")
	lacks=
	for f in $mine; do
		[ -f "$saved/$f" ] || lacks="$lacks $f"
	done
	req=$(sed -n 's/^Requires: //p' "$p")
	if [ -z "$lacks" ] && [ -n "$req" ] &&
	   ! has_lines "$req" <(for f in $mine; do cat "$saved/$f"; done); then
		lacks=" ${req//$'\n'/ | }"
	fi
	if [ -n "$lacks" ]; then
		printf '[%(%T)T] %-8s %s (the tree lacks:%s)\n' -1 "n/a" "$name" "$lacks" >&2
		na=$((na + 1))
		continue
	fi
	if ! patch -d "$tree" -p1 --quiet --forward <"$p" >/dev/null; then
		printf '[%(%T)T] %-8s %s\n' -1 "UNFIT" "$name (does not apply)" >&2
		unfit="$unfit $name"
		continue
	fi
	total=$((total + 1))
	t0=$(date +%s)
	rm -rf "${LOGDIR:?}/$name"
	"$SUITE_ROOT/runner/run/kunit.sh" "$tree" "$LOGDIR/$name" um >"$LOGDIR/$name.log" 2>&1
	passing=$("$cases" "$LOGDIR/$name/kunit-um.json" 2>/dev/null | awk '$2 == "PASS" { print $1 }')
	if [ -z "$(comm -23 <(echo "$baseline" | sort) <(echo "$passing" | sort))" ]; then
		survivors="$survivors $name"
		verdict=SURVIVED
	elif grep -q "the KUnit run did not complete" "$LOGDIR/$name.log"; then
		# a broken helper must fail cases, not take the kernel down
		crashed="$crashed $name"
		verdict=CRASHED
	else
		killed=$((killed + 1))
		verdict=killed
	fi
	printf '[%(%T)T] %-8s %s (%ss)\n' -1 "$verdict" "$name" $(($(date +%s) - t0)) >&2
done

echo "mutants killed: $killed of $total ($na not applicable to this tree)"
[ "$total" -gt 0 ] || die "no mutant applied"
[ -z "$unfit" ] || die "mutants that do not apply:$unfit (update them to this tree's helpers)"
[ -z "$survivors" ] || die "surviving mutants:$survivors"
[ -z "$crashed" ] || die "mutants that crashed the kernel:$crashed (its log: $LOGDIR/<mutant>.log)"
