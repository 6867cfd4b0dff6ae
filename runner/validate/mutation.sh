#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Score the KUnit suite with a mutation tool: every universalmutator mutant
# of the code the MGLRU fixes changed (runner/validate/mutation_gen.py), run
# through the suites on UML (mutation_run.py), scored in two strata
# (mutation_report.py). Hours on a two-core machine; resumable: a rerun
# picks up where the last one stopped.
#
# SAMPLE=N   how many of the rest (the mutants of lines the fixes did not
#            touch) join the census; 300 by default.
# LIMIT=N    stop after N mutants (a rerun goes on).
# MUTATION_IDS="id ..."  run only these mutants (ids of mutants.json).
# WORKERS=N  mutants built and run at a time (below).
# The work folder is $CACHE/mutation/<tree>/ (MUTATION_WORK= another, with
# its build folders inside); the report is written there as report.txt, and
# to OUT= when given.

. "$(dirname "$0")/../lib.sh"

check_inputs KDIR KERNEL JOBS
positive SAMPLE
positive LIMIT
positive WORKERS
[[ "${MUTATION_IDS:-}" =~ ^[0-9a-f\ ]*$ ]] || die "MUTATION_IDS takes mutant ids (hex), not '$MUTATION_IDS'"
workers=${WORKERS:-$((JOBS < 2 ? JOBS : 2))}
[ "$workers" -le "$JOBS" ] || die "WORKERS=$workers: at most JOBS=$JOBS"
if [ -n "${OUT:-}" ] && { [ ! -d "$OUT" ] || [ ! -w "$OUT" ]; }; then
	die "OUT=$OUT: not a folder this user can write"
fi

# MUTATION_WORK: a folder of this user's, new or one this script made for
# the same kernel (.mglru-mutation names it), for it removes and replaces
# what it holds; no symlink on the way
builds=$CACHE/build/$(tree_name)/mutation-um
if [ -n "${MUTATION_WORK:-}" ]; then
	[[ $MUTATION_WORK == /* ]] || die "MUTATION_WORK=$MUTATION_WORK: not an absolute path"
	work=$(realpath -m "$MUTATION_WORK")
	[ "$work" = "$(realpath -ms "$MUTATION_WORK")" ] ||
		die "MUTATION_WORK=$MUTATION_WORK: a symlink on the way"
	case $work in
	/ | "$(realpath -m "$HOME")" | "$CACHE") die "MUTATION_WORK=$work: not a folder of its own" ;;
	esac
	if [ -e "$work" ]; then
		{ [ -d "$work" ] && [ -O "$work" ]; } || die "MUTATION_WORK=$work: not a folder of this user's"
		if [ -f "$work/.mglru-mutation" ]; then
			[ "$(cat "$work/.mglru-mutation")" = "$(tree_name)" ] ||
				die "MUTATION_WORK=$work: a folder of make mutation on $(cat "$work/.mglru-mutation")"
		elif [ -n "$(ls -A "$work")" ]; then
			die "MUTATION_WORK=$work: not empty, and not a folder make mutation made"
		fi
	fi
	builds=$work/build
else
	work=$CACHE/mutation/$(tree_name)
fi
{ mkdir -p "$work" && tree_name >"$work/.mglru-mutation"; } || die "cannot create $work"
# one run a work folder
hold_lock "$(tree_name)-mutation-$(echo "$work" | sha1sum | cut -c1-8)"
phase deps "$SUITE_ROOT/runner/run/deps.sh" mutation || exit 1
phase tree-kunit "$SUITE_ROOT/runner/run/tree.sh" kunit || exit 1
kunit_tree=$(tree_dir kunit)
# the kernel from before the fixes, for the census of the lines they touched
old=$("$SUITE_ROOT/runner/run/fetch-kernel.sh" debian-6.12) || exit 1

# WORKERS mutants at a time (2 by default, at most JOBS), each in a tree
# and a UML build folder of its own: a mutant builds one object on one core,
# and each worker's make gets JOBS / WORKERS jobs.
# The trees are copies of the KUnit tree, made again when anything a
# mutant's verdict depends on changes: the tree's stamp, the files the
# mutants change, the test file or the kunitconfig (which also configures
# the builds again); pristine/ keeps the unmutated files.
stamp=$(cd "$kunit_tree" && for f in .mglru-suite lib/tests/mglru_kunit.c "$SUITE_ROOT/kunitconfig" \
	mm/vmscan.c mm/memory.c include/linux/mm_inline.h mm/folio.c mm/swap.c; do
		[ ! -f "$f" ] || cat "$f"
	done | sha1sum | cut -c1-12)
if [ "$(cat "$work/tree.stamp" 2>/dev/null)" != "$stamp" ]; then
	note "mutation: copying the KUnit tree"
	# and building it afresh: a copied file may be older than an object
	# of the last tree (ccache keeps the rebuild short)
	rm -rf "$work"/tree.* "$work/pristine" "$builds".*
	cp -a "$kunit_tree" "$work/tree.0" || die "cannot copy $kunit_tree"
	for f in mm/vmscan.c mm/memory.c mm/folio.c mm/swap.c include/linux/mm_inline.h; do
		[ -f "$work/tree.0/$f" ] || continue
		if ! mkdir -p "$work/pristine/$(dirname "$f")" ||
		   ! cp "$work/tree.0/$f" "$work/pristine/$f"; then
			die "cannot keep $f"
		fi
	done
	echo "$stamp" >"$work/tree.stamp"
fi
if [ ! -f "$work/mutants.json" ] || [ "$work/mutants.json" -ot "$work/tree.stamp" ]; then
	phase generate "$VENV/bin/python3" "$SUITE_ROOT/runner/validate/mutation_gen.py" \
		"$work/tree.0" "$old" "$work/mutants.json" || exit 1
fi

export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
pids=()
for ((k = 0; k < workers; k++)); do
	tree=$work/tree.$k
	if [ ! -d "$tree" ]; then
		cp -a "$kunit_tree" "$tree" || die "cannot copy $kunit_tree"
	fi
	build=$builds.$k
	if [ ! -f "$build/.config" ]; then
		(cd "$tree" && python3 tools/testing/kunit/kunit.py config --arch=um \
			--kunitconfig="$SUITE_ROOT/kunitconfig" --build_dir="$build" \
			--make_options "CC=ccache gcc") >"$work/config.$k.log" 2>&1 ||
			die "cannot configure $build (log: $work/config.$k.log)"
	fi
	# one line a mutant, on the terminal and in run.log
	"$VENV/bin/python3" "$SUITE_ROOT/runner/validate/mutation_run.py" "$work" "$tree" \
		"$build" "$SUITE_ROOT/kunitconfig" --sample "${SAMPLE:-300}" --limit "${LIMIT:-0}" \
		--jobs $((JOBS / workers)) --worker "$k" --workers "$workers" --only "${MUTATION_IDS:-}" \
		2> >(tee -a "$work/run.log" >&2) &
	pids+=($!)
done
# Ctrl-C or a SIGTERM stops the workers, which put the mutated files back
trap 'kill -TERM "${pids[@]}" 2>/dev/null; wait; exit 130' INT TERM
rc=0
for p in "${pids[@]}"; do
	wait "$p" || rc=1
done
[ $rc = 0 ] || die "a mutation worker failed (log: $work/run.log)"
"$VENV/bin/python3" "$SUITE_ROOT/runner/validate/mutation_report.py" "$work" \
	--sample "${SAMPLE:-300}" --reasons "$SUITE_ROOT/runner/validate/survivor-reasons.txt" ${OUT:+--out "$OUT"}
