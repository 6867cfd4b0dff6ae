#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Write the suite as a `git format-patch` series against the default kernel
# tree (Debian's 7.3), with a cover letter, ready to be posted to linux-mm:
#
#   1. mm/vmscan: the scan budget's arithmetic apart from the memcg lookups
#      (patches/hook/0001, with its own message);
#   2-5. mm/mglru: a KUnit suite each, in lib/tests/mglru_kunit.c, the
#      first with patches/hook/0002, which includes that file at the end of
#      mm/vmscan.c (CONFIG_MGLRU_KUNIT_TEST), the second with the static
#      stubs of patches/hook/0003 (the third's cases use them); the next
#      three append their suite to it;
#   6-7. selftests/mm: the kselftests' library, in two (no program built
#      yet), and mm/mglru in the kselftest TARGETS;
#   8-11. selftests/mm/mglru: a kselftest program each, with its Makefile line;
#   12. docs/mm: what the tests check and need, in the MGLRU design document.
#
# Beside it, in OUTDIR/rfc-<variant>/, each fix the suite proposes
# (RFC_VARIANTS: a validation kernel of patches/variants/ whose patches
# are for upstream, not INJECTED) as an "[RFC PATCH]" against the same
# baseline, addressed to whom get_maintainer.pl names for it and, for a
# change to how a memcg reclaims (a variant named memcg-*), to the memcg
# maintainers and lists (get_maintainer.pl of mm/memcontrol.c). A variant
# of more than one patch has a cover letter, from its folder's
# cover-letter.txt (the subject on the first line, then the body).
#
# Patches 2 and 6 add their files to the MGLRU entry of MAINTAINERS. Each
# patch is addressed to whom scripts/get_maintainer.pl names for it (and
# the KUnit patches also to KUnit's lists), the cover letter to them all,
# and the cover letter ends with the base commit, the baseline's.
#
# The text is in runner/export/series/, a file a message: 0-cover-letter.txt,
# whose figures cover_letter.py fills in from the recorded data of
# doc/results/, then NN-<subject>.txt for patch NN + 1, and the section
# patch 12 adds to the design document, docs-testing.txt.
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

. "$(dirname "$0")/../lib.sh"
set -o pipefail
check_inputs KDIR KERNEL

# The scratch repositories use no configuration of the host's or the user's
# (diff.noprefix, format.signature, a commit template, ...).
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C

# The kernel files in the baseline: those the series changes or its RFCs
# may (the memcg charge path: mm/memcontrol.c and its header), then those
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
	mm/memcontrol.c
	mm/vmscan.c
	tools/testing/selftests/Makefile
	Documentation/mm/multigen_lru.rst
	COPYING CREDITS Kbuild Makefile README
	scripts/checkpatch.pl
	scripts/spelling.txt
	scripts/const_structs.checkpatch
	scripts/get_maintainer.pl
	include/linux/memcontrol.h
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
# the fixes put out as RFCs beside the tests (above)
RFC_VARIANTS=(memcg-dirty-wait swappiness-age-preferred)
# the series' text (above)
TEXT=$SUITE_ROOT/runner/export/series

# The kernel tree the series is written against: KDIR, or KERNEL's.
source_tree()
{
	if [ -n "${KDIR:-}" ]; then
		realpath "$KDIR"
	else
		"$SUITE_ROOT/runner/run/fetch-kernel.sh" "$KERNEL"
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
		"$SUITE_ROOT/$MGLRU_SELFTESTS" "$TEXT" "$SUITE_ROOT/doc/results" \
		-type f -printf '%T@\n' | sort -n | tail -n1)
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

# commit MESSAGE: commit everything, signed off, with the message of
# $TEXT/MESSAGE.
commit()
{
	if ! git add -A || ! git commit -q -s -F "$TEXT/$1"; then
		die "series.sh: cannot commit ($1)"
	fi
}

# commit_patch PATCH: apply PATCH and commit it with its own message
commit_patch()
{
	local info msg subject

	info=$(mktemp) msg=$(mktemp)
	git mailinfo "$msg" /dev/null <"$1" >"$info" ||
		die "series.sh: cannot read the message of ${1##*/}"
	subject=$(sed -n 's/^Subject: //p' "$info")
	{ echo "$subject"; echo; cat "$msg"; } >"$info"
	git apply "$1" || die "series.sh: ${1##*/} does not apply"
	if ! git add -A || ! git commit -q -F "$info"; then
		die "series.sh: cannot commit ${1##*/}"
	fi
	rm -f "$info" "$msg"
}

# The headers each KUnit suite of lib/tests/mglru_kunit.c adds to those of
# the suites before it, and the line that opens its section.
KUNIT_SUITES=(mglru mglru_evict mglru_shrink mglru_place)
KUNIT_HEADERS=('' 'linux/blkdev.h linux/mman.h linux/pagewalk.h' 'kunit/static_stub.h' '')

# kunit_upto N: lib/tests/mglru_kunit.c with its first N suites, and only
# their headers
kunit_upto()
{
	local k=$SUITE_ROOT/lib/tests/mglru_kunit.c i h drop=()

	for ((i = $1; i < ${#KUNIT_SUITES[@]}; i++)); do
		for h in ${KUNIT_HEADERS[i]}; do
			drop+=(-e "\\|^#include <$h>\$|d")
		done
	done
	awk -v next_suite="${KUNIT_SUITES[$1]:-}" '
		next_suite != "" && index($0, " * " next_suite ": ") == 1 { exit }
		{ lines[++n] = $0 }
		END {
			# without the comment opener and the blank lines before it
			if (next_suite != "") n--
			while (n > 0 && lines[n] == "") n--
			for (i = 1; i <= n; i++) print lines[i]
		}' "$k" | sed "${drop[@]:-s/^//}"
}

# recipients PATCH: whom scripts/get_maintainer.pl names for PATCH, one a
# line, and for a patch that adds KUnit tests the lists of KUnit's own
# MAINTAINERS entry, which no file of the patch is in. A fixed hash seed
# keeps get_maintainer.pl's order from run to run; --no-fixes, as the
# baseline has no history to find a Fixes: commit in (a patch that fixes
# one Cc:s its author in its message).
recipients()
{
	PERL_HASH_SEED=0 perl scripts/get_maintainer.pl --no-git --no-git-fallback --no-fixes --no-rolestats "$1" ||
		die "series.sh: get_maintainer.pl failed on ${1##*/}"
	if grep -q '^+++ b/lib/tests/' "$1"; then
		awk '/^KERNEL UNIT TESTING FRAMEWORK/ { e = 1 } e && /^$/ { exit }
			e && /^L:\t/ { print $2 }' MAINTAINERS
	fi
}

# address FILE RECIPIENTS: To: the first of RECIPIENTS (one a line), Cc:
# the others, in FILE's mail header after its Date: line, where git
# send-email reads them.
address()
{
	awk -v r="$2" '
		!done && /^Date: / {
			print
			n = split(r, a, "\n")
			print "To: " a[1]
			for (i = 2; i <= n; i++)
				print "Cc: " a[i]
			done = 1
			next
		}
		{ print }' "$1" >"$1.new" || die "series.sh: cannot address ${1##*/}"
	mv "$1.new" "$1" || die "series.sh: cannot address ${1##*/}"
}

# memcg_recipients: whom get_maintainer.pl names for mm/memcontrol.c, the
# memcg maintainers and the cgroups list among them
memcg_recipients()
{
	PERL_HASH_SEED=0 perl scripts/get_maintainer.pl --no-git --no-git-fallback --no-fixes \
		--no-rolestats -f mm/memcontrol.c ||
		die "series.sh: get_maintainer.pl failed on mm/memcontrol.c"
}

# address_patches DIR [memcg]: each patch of DIR but its cover letter
# addressed to whom recipients() names for it (and memcg_recipients());
# prints them all, once each
address_patches()
{
	local p r all=

	for p in "$1"/0*.patch; do
		[ "${p##*/}" != 0000-cover-letter.patch ] || continue
		r=$({ recipients "$p" && { [ -z "${2:-}" ] || memcg_recipients; }; } |
		    awk '!seen[$0]++') || exit 1
		address "$p" "$r"
		all+=$r$'\n'
	done
	awk 'NF && !seen[$0]++' <<<"$all"
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

	local hook=("$SUITE_ROOT"/patches/hook/*.patch)
	[ ${#hook[@]} = 3 ] ||
		die "series.sh: patches/hook/ should hold the refactor, the include and the stubs"
	commit_patch "${hook[0]}"
	# a patch per KUnit suite, each appended to the file: the first with
	# the include, the second with the static stubs the third uses
	local k=$SUITE_ROOT/lib/tests/mglru_kunit.c i
	mkdir -p lib/tests
	for i in 1 2 3 4; do
		if [ "$i" -le 2 ]; then
			git apply "${hook[i]}" || die "series.sh: ${hook[i]##*/} does not apply to $src"
		fi
		kunit_upto "$i" >lib/tests/mglru_kunit.c || exit 1
		[ "$i" != 1 ] || maintainers_add lib/tests/mglru_kunit.c
		commit "$(printf '%02d-%s.txt' "$i" "$(echo "${KUNIT_SUITES[i - 1]}" | sed 's/^mglru/kunit/; s/_/-/g')")"
	done
	cmp -s "$k" lib/tests/mglru_kunit.c ||
		die "series.sh: the series' lib/tests/mglru_kunit.c is not the suite's"

	# the kselftests: the harness in two patches, then a patch a program,
	# each with its Makefile line
	local sel=$SUITE_ROOT/$MGLRU_SELFTESTS mk=$MGLRU_SELFTESTS/Makefile
	local progs=(readahead_refault aging_oom dirty_throttle swappiness_sweep) i
	mkdir -p "$MGLRU_SELFTESTS"
	# dirty_throttle's own helpers (dirty_probes.[ch]) come with it
	local probes=(-e 's/ dirty_probes\.h$//' -e '/dirty_probes\.c$/d'
		      -e "/^# dirty_throttle's controls/d")
	rsync -a --exclude '*.c' --exclude dirty_probes.h "$sel/" "$MGLRU_SELFTESTS/" || exit 1
	cp "$sel/util.c" "$sel/memcg.c" "$MGLRU_SELFTESTS/" || exit 1
	sed -e '/^TEST_GEN_PROGS\(_EXTENDED\)\? += /d' -e '/^MGLRU_LIB :=/s/ main\.c home\.c bdev\.c trace\.c$//' \
		"${probes[@]}" "$sel/Makefile" >"$mk"
	sed -i 's|^TARGETS += mm$|&\nTARGETS += mm/mglru|' tools/testing/selftests/Makefile
	grep -q '^TARGETS += mm/mglru$' tools/testing/selftests/Makefile ||
		die "series.sh: cannot add mm/mglru to the kselftest TARGETS of $src"
	maintainers_add "$MGLRU_SELFTESTS/"
	commit 05-selftests-library.txt
	cp "$sel/main.c" "$sel/home.c" "$sel/bdev.c" "$MGLRU_SELFTESTS/" || exit 1
	grep -v '^TEST_GEN_PROGS\(_EXTENDED\)\? += ' "$sel/Makefile" |
		sed -e '/^MGLRU_LIB :=/s/ trace\.c$//' "${probes[@]}" >"$mk"
	commit 06-selftests-run.txt
	for i in "${!progs[@]}"; do
		cp "$sel/${progs[i]}.c" "$MGLRU_SELFTESTS/" || exit 1
		# trace.c and the probes come with their user
		[ "${progs[i]}" != dirty_throttle ] ||
			cp "$sel/trace.c" "$sel/dirty_probes.c" "$sel/dirty_probes.h" \
				"$MGLRU_SELFTESTS/" || exit 1
		# the Makefile without the lines of the programs still to come
		grep -vxE "TEST_GEN_PROGS(_EXTENDED)? \+= ($(IFS='|'; echo "${progs[*]:i+1}"))" \
			"$sel/Makefile" >"$mk"
		[ -f "$MGLRU_SELFTESTS/trace.c" ] ||
			sed -i -e '/^MGLRU_LIB :=/s/ trace\.c$//' "${probes[@]}" "$mk"
		commit "$(printf '%02d-%s.txt' $((i + 7)) "${progs[i]//_/-}")"
	done
	diff -r "$sel" "$MGLRU_SELFTESTS" >/dev/null ||
		die "series.sh: the series' $MGLRU_SELFTESTS is not the suite's"

	cat "$TEXT/docs-testing.txt" >>Documentation/mm/multigen_lru.rst || exit 1
	commit 11-docs.txt

	letter=$("$TEXT/cover_letter.py" --base "$(tree_version "$src")") ||
		die "series.sh: no cover letter (its figures are from doc/results/)"
	in_git . config branch.mglru-tests.description "$letter"
	mkdir -p "$out" || die "series.sh: cannot create $out"
	rm -f "$out"/*.patch
	in_git . format-patch -q --cover-letter --cover-from-description=subject \
		--base=baseline -o "$out" baseline..mglru-tests
	local all
	all=$(address_patches "$out") || exit 1
	address "$out/0000-cover-letter.patch" "$all"
	note "series: $(git rev-list --count baseline..mglru-tests) patches and a cover letter in $out"

	local v
	for v in "${RFC_VARIANTS[@]}"; do
		rfc "$v" "$out/rfc-$v"
	done
}

# rfc VARIANT OUTDIR: the patches of patches/variants/VARIANT, applied by
# git am to the baseline on a branch of their own, as "[RFC PATCH]"s in
# OUTDIR, each addressed to whom get_maintainer.pl names for it (and, for a
# memcg-* variant, to the memcg maintainers)
rfc()
{
	local p n cover=$SUITE_ROOT/patches/variants/$1/cover-letter.txt all

	in_git . checkout -q -b "rfc-$1" baseline
	# the checkout drops the folders that only the series' files were in
	mkdir -p "${TREE_DIRS[@]}"
	for p in "$SUITE_ROOT/patches/variants/$1/"*.patch; do
		in_git . am -q --whitespace=error "$p"
		# git am dates a mail without a Date: line now: date it as the series
		in_git . commit -q --amend --no-edit --date="$GIT_AUTHOR_DATE"
	done
	rm -rf "$2"
	n=$(in_git . rev-list --count "baseline..rfc-$1") || exit 1
	[ "$n" = 1 ] || [ -f "$cover" ] ||
		die "series.sh: $1 has $n patches and no cover-letter.txt"
	# a placeholder left in a message must not be posted
	if grep -n '@@' "$cover" "$SUITE_ROOT/patches/variants/$1/"*.patch 2>/dev/null |
		grep -qv ':@@ -[0-9]'; then
		die "series.sh: $1 has a '@@' placeholder in its cover letter or a changelog"
	fi
	if [ "$n" = 1 ]; then
		in_git . format-patch -q --subject-prefix="RFC PATCH" --base=baseline \
			-o "$2" "baseline..rfc-$1"
	else
		in_git . config "branch.rfc-$1.description" "$(cat "$cover")"
		in_git . format-patch -q --subject-prefix="RFC PATCH" --base=baseline \
			--cover-letter --cover-from-description=subject -o "$2" "baseline..rfc-$1"
	fi
	all=$(address_patches "$2" "$([[ $1 != memcg-* ]] || echo memcg)") || exit 1
	# and whom the patches Cc: in their messages (git send-email adds them
	# to each patch)
	all=$(printf '%s\n' "$all" &&
	      awk 'FNR == 1 { m = 1 } /^---$/ { m = 0 } m && sub(/^Cc: /, "")' "$2"/0*.patch)
	all=$(awk 'NF && !seen[$0]++' <<<"$all")
	[ "$n" = 1 ] || address "$2/0000-cover-letter.patch" "$all"
	in_git . checkout -q mglru-tests
	note "series: $(git rev-list --count "baseline..rfc-$1") RFC patch of $1 in $2"
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
