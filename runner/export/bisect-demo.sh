#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The bisection demo (doc/bisect.rst, "Bisecting a regression"): a git
# repository of the default 7.3 tree with a short history, one commit of
# which is the REVERT OF UPSTREAM of Barry Song's page-fault fix
# (patches/variants/readahead-old-ptes-pf-reverted/0002), and git bisect
# run with runner/export/bisect-run.sh over it. The bisection must name that
# commit; the script exits 1 when it does not.
#
# usage: bisect-demo.sh [REPO]   (default $CACHE/bisect-demo/linux)
# REPEAT (default 3, the fewest bisect-run.sh takes for this point) runs
# per step; readahead_refault in MGLRU mode. Each step prints the chance
# that its verdict is wrong at that REPEAT; the transcript, what git bisect
# run and the steps print, is kept in REPO.bisect.log.

. "$(dirname "$0")/../lib.sh"
set -o pipefail

repo=${1:-$CACHE/bisect-demo/linux}
variants=$SUITE_ROOT/patches/variants
KDIR='' KERNEL=debian-7.3 check_kernel
src=$(KDIR='' "$SUITE_ROOT/runner/run/fetch-kernel.sh" debian-7.3) || exit 1

gitc()
{
	git -C "$repo" -c user.name="MGLRU suite" -c user.email=mglru-suite@example.org "$@"
}

# each commit: a subject and a patch, or a sed edit of one file
commit_patch()
{
	patch -d "$repo" -p1 --quiet <"$2" || die "$(basename "$2") does not apply"
	gitc commit -qam "$1" || die "cannot commit '$1'"
}

commit_edit()
{
	sed -i "$3" "$repo/$2" || die "cannot edit $2"
	gitc commit -qam "$1" || die "cannot commit '$1'"
}

if [ ! -d "$repo/.git" ]; then
	note "bisect-demo: a git repository of $src in $repo"
	rm -rf "$repo"
	mkdir -p "$(dirname "$repo")"
	cp -a "$src" "$repo" || die "cannot copy $src"
	rm -f "$repo/.mglru-version"
	# Debian's .gitignore ignores the whole top level of its source package
	sed -i '/^# Debian packaging/,$d' "$repo/.gitignore"
	if ! gitc init -q || ! gitc add -A ||
	   ! gitc commit -qm "Linux $(cat "$src/.mglru-version")"; then
		die "cannot create the repository"
	fi
	commit_patch "validation: map fault-around PTEs old" \
		"$variants/readahead-old-ptes/0001-validation-mm-map-fault-around-ptes-old.patch"
	gitc tag -f demo-good
	commit_edit "Documentation: mm: multigen_lru: name the KUnit suite" \
		Documentation/admin-guide/mm/multigen_lru.rst \
		"\$a\\\\nMGLRU's KUnit suite is CONFIG_MGLRU_KUNIT_TEST."
	commit_patch "Revert \"mm/mglru: Use folio_mark_accessed to replace folio_set_active in PF\"" \
		"$variants/readahead-old-ptes-pf-reverted/0002-revert-mm-mglru-use-folio_mark_accessed-in-pf.patch"
	commit_edit "mm/vmscan: say Swap reorganized" mm/vmscan.c \
		's/^ \*  Swap reorganised 29.12.95/ *  Swap reorganized 29.12.95/'
	commit_edit "mm/workingset: say what the file does first" mm/workingset.c \
		's/^ \* Workingset detection$/ * Workingset detection: refault distances/'
	gitc tag -f demo-bad
fi

log=$repo.bisect.log
gitc bisect reset >/dev/null 2>&1
gitc log --oneline demo-good~1..demo-bad
t0=$(date +%s)
gitc bisect start demo-bad demo-good >/dev/null || die "git bisect start failed"
(cd "$repo" && KDIR=$repo TEST=readahead_refault LRU_MODE=mglru REPEAT=${REPEAT:-3} \
	git bisect run "$SUITE_ROOT/runner/export/bisect-run.sh" 2>&1) | tee "$log" ||
	die "git bisect run failed (log: $log)"
first=$(gitc rev-parse -q --verify refs/bisect/bad)
gitc bisect log >>"$log"
gitc bisect reset >/dev/null 2>&1
note "bisect-demo: $(($(date +%s) - t0))s"
subject=$(gitc log -1 --format=%s "$first")
echo "first bad commit: $(gitc log -1 --format='%h %s' "$first")"
case $subject in
Revert*folio_mark_accessed*) exit 0 ;;
*) die "the bisection named '$subject', not the revert" ;;
esac
