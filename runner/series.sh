#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Write the suite as a `git format-patch` series against the default kernel
# tree (Debian's 7.3), with a cover letter, ready to be posted to linux-mm:
#
#   1. mm/mglru: the KUnit suite and its hook (CONFIG_MGLRU_KUNIT_TEST,
#      lib/tests/mglru_kunit.c included by mm/vmscan.c);
#   2. selftests/mm: the kselftests of tools/testing/selftests/mm/mglru/ and
#      mm/mglru in the kselftest TARGETS;
#   3. docs/mm: what the tests check and need, in the MGLRU design document.
#
# Patches 1 and 2 add their files to the MGLRU entry of MAINTAINERS.
#
# usage: series.sh [OUTDIR]        the series, in OUTDIR (results/series/)
#        series.sh --baseline DIR  only a fresh baseline repository in DIR
#
# The series is committed in a scratch git repository, $CACHE/series/<tree>/,
# whose baseline commit holds only the files of the kernel tree that the
# series changes and those checkpatch.pl reads (BASE_FILES): a git copy of
# the whole tree would take minutes. The suite's files are taken from its
# working tree, so the series follows the repository. Every commit is
# dated as the suite's last commit (outside git, as its newest file), so
# that an unchanged suite gives the same series, byte for byte.

. "$(dirname "$0")/lib.sh"
set -o pipefail

# The scratch repositories use no configuration of the host's or the user's
# (diff.noprefix, format.signature, a commit template, ...).
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C

# The kernel files in the baseline: those the series changes, then those
# scripts/checkpatch.pl reads: the top-level files its top_of_kernel_tree()
# looks for, get_maintainer.pl for its "obsolete" check, MGLRU's headers for
# its CamelCase check (it takes the known names from include/). Not
# spdxcheck.py: it needs python3-git and python3-ply, which the suite does
# not install, and when its import fails checkpatch.pl prints the traceback
# and takes the SPDX tag as valid anyway; without it, checkpatch.pl checks
# the tag's place and form only. Last, the kselftests' .gitignore, which
# decides what of their folder is tracked, as in the kernel's git.
BASE_FILES=(
	MAINTAINERS
	mm/Kconfig
	mm/vmscan.c
	tools/testing/selftests/Makefile
	Documentation/mm/multigen_lru.rst
	COPYING CREDITS Kbuild Makefile README
	scripts/checkpatch.pl
	scripts/spelling.txt
	scripts/const_structs.checkpatch
	scripts/get_maintainer.pl
	include/linux/mm_inline.h
	include/linux/mmzone.h
	tools/testing/selftests/mm/.gitignore
)
# Read by get_maintainer.pl where the tree has them.
OPTIONAL_FILES=(.get_maintainer.ignore)
# The other folders top_of_kernel_tree() wants to exist; none of their files
# is needed, so they are created empty (and are not in git).
TREE_DIRS=(Documentation arch include drivers fs init ipc kernel lib scripts)
MGLRU_SELFTESTS=tools/testing/selftests/mm/mglru

# The kernel tree the series is written against: KDIR, or KERNEL's.
source_tree()
{
	if [ -n "${KDIR:-}" ]; then
		check_kdir "$KDIR"
		realpath "$KDIR"
	else
		check_kernel
		"$SUITE_ROOT/runner/fetch-kernel.sh" "$KERNEL"
	fi
}

# tree_version SRC: "7.3.4" from SRC's Makefile, and Debian's version if any.
tree_version()
{
	local v

	v=$(awk '/^VERSION =/ { v = $3 } /^PATCHLEVEL =/ { p = $3 }
		/^SUBLEVEL =/ { s = $3 } /^EXTRAVERSION =/ { e = $3 }
		END { printf "%s.%s.%s%s", v, p, s, e }' "$1/Makefile")
	if [ -f "$1/.mglru-version" ]; then
		echo "$v (Debian linux-source $(cat "$1/.mglru-version"))"
	else
		echo "$v"
	fi
}

# The identity of the suite's patches (their From: line), and the date of
# its last commit, for every commit of the series.
identity()
{
	local hook info

	hook=$(find "$SUITE_ROOT/patches/hook" -name '*.patch' | sort | head -n1)
	[ -n "$hook" ] || die "series.sh: no patch in patches/hook/"
	info=$(git mailinfo /dev/null /dev/null <"$hook") ||
		die "series.sh: cannot read the From: line of $hook"
	NAME=$(sed -n 's/^Author: //p' <<<"$info")
	EMAIL=$(sed -n 's/^Email: //p' <<<"$info")
	if [ -z "$NAME" ] || [ -z "$EMAIL" ]; then
		die "series.sh: no From: line in $hook"
	fi
	DATE=$(git -C "$SUITE_ROOT" log -1 --format=%ct 2>/dev/null)
	# not a git checkout: the newest of the suite's files in the series
	[ -n "$DATE" ] || DATE=$(find "$SUITE_ROOT/lib/tests" "$SUITE_ROOT/patches/hook" \
		"$SUITE_ROOT/$MGLRU_SELFTESTS" -type f -printf '%T@\n' | sort -n | tail -n1)
	DATE=${DATE%.*}
	export GIT_AUTHOR_NAME=$NAME GIT_AUTHOR_EMAIL=$EMAIL \
		GIT_COMMITTER_NAME=$NAME GIT_COMMITTER_EMAIL=$EMAIL \
		GIT_AUTHOR_DATE="$DATE +0000" GIT_COMMITTER_DATE="$DATE +0000"
}

# baseline SRC DIR: a new git repository in DIR (absent or empty) whose one
# commit, tagged "baseline", holds BASE_FILES of SRC.
baseline()
{
	local src=$1 dir=$2 d f

	if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
		die "series.sh: $dir is not empty"
	fi
	mkdir -p "$dir" || die "series.sh: cannot create $dir"
	for f in "${BASE_FILES[@]}"; do
		[ -f "$src/$f" ] || die "series.sh: $src has no $f"
	done
	(cd "$src" && cp --parents "${BASE_FILES[@]}" "$dir/") ||
		die "series.sh: cannot copy the baseline files of $src"
	for f in "${OPTIONAL_FILES[@]}"; do
		[ ! -f "$src/$f" ] || cp "$src/$f" "$dir/$f" || die "series.sh: cannot copy $src/$f"
	done
	for d in "${TREE_DIRS[@]}"; do
		mkdir -p "$dir/$d"
	done
	in_git "$dir" init -q -b mglru-tests
	in_git "$dir" add -A
	in_git "$dir" commit -q -m "Linux $(tree_version "$src")" \
		-m "The files of the tree that the MGLRU test series changes or checkpatch.pl reads."
	in_git "$dir" tag baseline
}

# in_git DIR ARGS: git ARGS in DIR, or die.
in_git()
{
	git -C "$@" || die "series.sh: git ${*:2} failed in $1"
}

# maintainers_add PATTERN: add "F: PATTERN" to the MGLRU entry, in order.
maintainers_add()
{
	awk -v f="$1" '
		/^MEMORY MANAGEMENT - MGLRU / { entry = 1 }
		entry && !done && /^F:\t/ && substr($0, 4) > f { print "F:\t" f; done = 1 }
		entry && /^$/ { if (!done) print "F:\t" f; entry = 0; done = 1 }
		{ print }
	' MAINTAINERS >MAINTAINERS.new && mv MAINTAINERS.new MAINTAINERS
	grep -q "^F:	$1\$" MAINTAINERS || die "series.sh: no MGLRU entry in MAINTAINERS"
}

# commit MESSAGE_FUNCTION: commit everything, signed off.
commit()
{
	if ! git add -A || ! "$1" | git commit -q -s -F -; then
		die "series.sh: cannot commit ($1)"
	fi
}

msg_kunit()
{
	cat <<'EOF'
mm/mglru: add KUnit tests for the reclaim sizing helpers

lruvec_evictable_size(), get_nr_to_scan() and should_run_aging() decide
how many folios a multi-gen LRU reclaim pass scans and whether it ages
first. The series "mm/mglru: improve reclaim loop and dirty folio
handling" gave them their current form. Nothing tests them short of a
reclaim workload, where a wrong budget shows only as an OOM kill or as
reclaim that does too much or too little.

Add a KUnit suite, mglru, that builds the generation state of a test
lruvec by hand (min_seq, max_seq and the per-generation page counters;
no folio is involved) and checks:

- lruvec_evictable_size(): which generations and types count, for each
  swappiness, and each type from its own min_seq;
- get_nr_to_scan(): the budget by priority, for an offline memcg, by
  swappiness, for the anon-only swappiness, and under proportional
  memcg protection;
- should_run_aging(): when the oldest generations have run out, by
  swappiness and priority.

Most cases also check that the helper left min_seq and max_seq alone.

A second suite, mglru_evict (lib/tests/mglru_evict_kunit.c, included by
the first), puts charged, unmapped page cache folios of its own on the
root memcg's lruvec and checks that evict_folios() reports what it
isolated and found dirty in sc->nr, from which shrink_node() throttles a
memcg whose folios wait for writeback, and that isolate_folios() at
swappiness 1 stays on a file type it scanned, even when every folio it
scanned was protected, instead of turning to anon. A third,
mglru_place (lib/tests/mglru_place_kunit.c), checks that a clean folio
added in a page fault lands in the second oldest generation and a
refaulted workingset one in the youngest.

The helpers are static and take struct scan_control, which only
mm/vmscan.c defines, so the suite cannot be an object of its own. As
mm/damon/core.c does for its tests, add CONFIG_MGLRU_KUNIT_TEST, which
depends on KUNIT, LRU_GEN and MEMCG and defaults to KUNIT_ALL_TESTS, and
include lib/tests/mglru_kunit.c from mm/vmscan.c when it is set, at the
end of the CONFIG_LRU_GEN section, where every helper it tests is
defined. A kernel built without the option is unchanged.

To run it under UML:

  ./tools/testing/kunit/kunit.py run --kconfig_add CONFIG_CGROUPS=y \
      --kconfig_add CONFIG_MEMCG=y --kconfig_add CONFIG_LRU_GEN=y \
      --kconfig_add CONFIG_MGLRU_KUNIT_TEST=y mglru
EOF
}

msg_selftests()
{
	cat <<'EOF'
selftests/mm: add MGLRU reclaim regression tests

The multi-gen LRU's reclaim failures fixed in 2026, by the series
"mm/mglru: improve reclaim loop and dirty folio handling" and by "mm/mglru:
Use folio_mark_accessed to replace folio_set_active in PF", were reported
with workloads, not tests:

- aging OOM: a memcg was OOM-killed while evictable file folios
  remained, under mmap readers and anon churn, when a reclaimer found
  another one aging and had nothing left to evict;
- dirty throttling: dd writing more than memory.max to a slow device
  from a small memcg was OOM-killed, because MGLRU's reclaim did not
  feed the writeback statistics that throttle reclaim;
- strided mmap readahead: folios prefaulted but never touched were
  placed as if used and pushed the touched ones out, so that reads kept
  refaulting.

Add them as the kselftest target mm/mglru: aging_oom, dirty_throttle and
readahead_refault (the published fio job), and a fourth test,
swappiness_sweep, which checks that the anon share of reclaim rises with
vm.swappiness.

Each test runs its scenario in a memcg of its own, with MGLRU and then
with the classic LRU (lru_gen/enabled; -m mglru or -m classic runs one),
and reports one KTAP result per LRU, <test>_<lru>, with its metrics on
"# metric" lines. Each also checks its precondition (reclaim ran, or the
memcg filled with dirty folios) and fails without it: a pass without
memory pressure is not a pass.

The data lives on ext4 on a loop device backed by tmpfs, so that its
readahead, writeback and page cache are the test's own; dirty_throttle
puts a dm-delay target under it, and swappiness_sweep swaps to zram.
Everything a test creates or changes is pushed on an undo stack, kept
in a journal in /run/mglru-selftest (root's alone, 0700), before it is
made, and is undone at exit and on SIGTERM, SIGINT, SIGALRM and SIGHUP;
a run undoes first what killed runs left behind, refusing any journal
that is not root's own 0600 file and any entry outside what that run
could have made. The cgroup helpers are the cgroup selftests'.

The tests need root, cgroup v2 with the memory controller, the options
of their config file, and losetup, mkfs.ext4, dd, dmsetup, mkswap and
fio; a test whose needs are not met is skipped with the reason. With
KSFT_MACHINE_SLOW=yes their time limits are three times longer.
EOF
}

msg_docs()
{
	cat <<'EOF'
docs/mm: multigen_lru: describe the regression tests

Say in the design document how the multi-gen LRU is tested: what the
KUnit suite and the mm/mglru kselftests check, how to run them, and what
the kselftests need from the machine, so that a skipped test can be told
from a missing feature.
EOF
}

# The Testing section of Documentation/mm/multigen_lru.rst.
doc_testing()
{
	cat <<'EOF'

Testing
=======
A KUnit suite, ``mglru``, checks the helpers that size and pace a
reclaim pass, ``lruvec_evictable_size()``, ``get_nr_to_scan()`` and
``should_run_aging()``, on generations built by hand in a test lruvec.
``CONFIG_MGLRU_KUNIT_TEST`` builds it into ``mm/vmscan.c``, whose
helpers are static. To run it under UML::

    ./tools/testing/kunit/kunit.py run --kconfig_add CONFIG_CGROUPS=y \
        --kconfig_add CONFIG_MEMCG=y --kconfig_add CONFIG_LRU_GEN=y \
        --kconfig_add CONFIG_MGLRU_KUNIT_TEST=y mglru

The kselftests in ``tools/testing/selftests/mm/mglru/`` reproduce reclaim
failures under memory pressure. Each runs its scenario in a memcg of its
own, with the multi-gen LRU and then with the classic LRU (``-m mglru``
or ``-m classic`` runs one), and reports one result for each:

* ``aging_oom``: mapped file readers next to anon churn are not
  OOM-killed while evictable file folios remain;
* ``dirty_throttle``: ``dd`` writing more than ``memory.max`` to a slow
  (dm-delay) device is throttled, not OOM-killed;
* ``readahead_refault``: a strided mmap read (fio) keeps the folios it
  touches, rather than losing them to the folios read ahead around them;
* ``swappiness_sweep``: the anon share of reclaim rises with
  ``vm.swappiness``.

Each scenario also checks that it did put the memcg under pressure and
fails otherwise. The tests need root, cgroup v2 mounted at
``/sys/fs/cgroup`` with the memory controller, the kernel options of
their ``config`` file (``make kselftest-merge`` adds them), and
``losetup``, ``mkfs.ext4``, ``dd``, ``dmsetup`` (``dirty_throttle``),
``mkswap`` (``swappiness_sweep``, which swaps to zram) and ``fio``
(``readahead_refault``). A test whose needs are not met is skipped with
the reason. The data lives on ext4 on a loop device backed by tmpfs, not
on the root file system, and a test undoes everything it changed when it
exits or is stopped; a run first undoes what killed runs left behind.
To run them::

    make -C tools/testing/selftests TARGETS=mm/mglru run_tests
EOF
}

# The cover letter: its subject, a blank line, its body.
cover_letter()
{
	cat <<EOF
mm/mglru: KUnit and kselftest regression tests for MGLRU reclaim

This series adds tests for the multi-gen LRU's reclaim: a KUnit suite
for the helpers that size and pace a reclaim pass, and kselftests that
reproduce, under real memory pressure, the reclaim failures fixed in
2026 by "mm/mglru: improve reclaim loop and dirty folio handling" and
"mm/mglru: Use folio_mark_accessed to replace folio_set_active in PF",
each with MGLRU and with the classic LRU.

Patch 1 builds the KUnit suite into mm/vmscan.c, whose helpers are
static, behind CONFIG_MGLRU_KUNIT_TEST. Patch 2 adds the kselftests as
the target mm/mglru: aging_oom, dirty_throttle, readahead_refault and
swappiness_sweep. Patch 3 documents both in the MGLRU design document.
MAINTAINERS lists the new files under MGLRU.

The series is against Linux $SERIES_BASE.

Results recorded with the out-of-tree suite these tests come from
(x86_64; the kselftests in a QEMU guest with 2 vCPUs and 2 GiB):

- KUnit on 7.3.4, under UML and x86_64: every case passes, and each of
  16 deliberately broken versions of the three helpers fails a case.
- Each failure scenario's check was seen failing on a kernel with the
  bug and passing on one without it, in 9 or 10 runs of 10 with no
  false alarm in 10: aging_oom on 6.12 with a widened aging window
  against the same with the principle of the aging fix, dirty_throttle
  on 7.3 against 7.3 without the handle_reclaim_writeback() call in
  evict_folios(), and readahead_refault with MGLRU on 7.3 with the fault
  path fix reverted against 7.3, both with x86's prefaulted PTEs made
  old.
- On 7.3.4 itself, aging_oom passes (one MGLRU run in 7 OOM-killed a
  reader with 169 MiB of file cache left) and dirty_throttle passes with
  MGLRU; it fails with the classic LRU, which OOM-kills dd once
  vm.dirty_ratio 100 lets the memcg fill with dirty folios.
  readahead_refault fails with both LRUs on x86, where fault-around maps
  prefaulted PTEs young while the fault path fix relies on old ones, as
  on arm64 (with arch_wants_old_prefaulted_pte() true, 0 refaults).
  swappiness_sweep passes with either LRU (3 runs of 3); with the type
  fallback fix reverted it fails 2 runs in 3.
EOF
}

# series SRC REPO OUTDIR
series()
{
	local src=$1 repo=$2 out=$3

	rm -rf "$repo"
	baseline "$src" "$repo"
	cd "$repo" || exit 1
	grep -q 'lruvec_evictable_size(' mm/vmscan.c ||
		die "series.sh: $src lacks lruvec_evictable_size(): the series is for 7.2 and later"

	git apply "$SUITE_ROOT"/patches/hook/*.patch ||
		die "series.sh: patches/hook does not apply to $src"
	mkdir -p lib/tests
	for f in "$SUITE_ROOT"/lib/tests/mglru_*.c; do
		cp "$f" lib/tests/ || exit 1
		maintainers_add "lib/tests/${f##*/}"
	done
	commit msg_kunit

	# as runner/tree.sh does
	mkdir -p "$MGLRU_SELFTESTS"
	rsync -a --delete "$SUITE_ROOT/$MGLRU_SELFTESTS/" "$MGLRU_SELFTESTS/" || exit 1
	sed -i 's|^TARGETS += mm$|&\nTARGETS += mm/mglru|' tools/testing/selftests/Makefile
	grep -q '^TARGETS += mm/mglru$' tools/testing/selftests/Makefile ||
		die "series.sh: cannot add mm/mglru to the kselftest TARGETS of $src"
	maintainers_add "$MGLRU_SELFTESTS/"
	commit msg_selftests

	doc_testing >>Documentation/mm/multigen_lru.rst
	commit msg_docs

	SERIES_BASE=$(tree_version "$src")
	in_git . config branch.mglru-tests.description "$(cover_letter)"
	mkdir -p "$out" || die "series.sh: cannot create $out"
	rm -f "$out"/*.patch
	in_git . format-patch -q --cover-letter --cover-from-description=subject \
		-o "$out" baseline..mglru-tests
	note "series: $(git rev-list --count baseline..mglru-tests) patches and a cover letter in $out"
}

if [ "${1:-}" = --baseline ]; then
	[ -n "${2:-}" ] || die "usage: series.sh --baseline DIR"
	src=$(source_tree) || exit 1
	identity
	baseline "$src" "$(realpath -m "$2")"
	exit 0
fi

out=$(realpath -m "${1:-$SUITE_ROOT/results/series}")
src=$(source_tree) || exit 1
hold_lock "series-$(tree_name)"
identity
series "$src" "$CACHE/series/$(tree_name)" "$out"
