#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make series` (runner/export/series.sh) writes a series that can be posted: it
# applies with `git am --whitespace=error` to a fresh baseline of the default
# kernel, the tree it gives holds the suite's files as they are in its
# working tree (every test program named in the selftests' commit message
# and in the docs), and the tree's own scripts/checkpatch.pl --strict, in
# tree mode, finds no error, warning or check in any patch (the cover
# letter is not a patch). Two runs write the same series. The cover
# letter's figures are those of the recorded data, doc/results/: a copy of
# each data file it shows, with one count changed, must fail the check.
# The checks must catch broken copies: a trailing space (checkpatch and
# git am), a missing Signed-off-by (checkpatch) and a hunk whose context
# is not the tree's (git am).

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
. tests/expect.sh
# the series is posted against the default kernel, whatever the run's
unset KDIR
KERNEL=$(kernel_names | cut -d' ' -f1)
export KERNEL GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C
export GIT_COMMITTER_NAME=mglru-check GIT_COMMITTER_EMAIL=mglru-check@localhost
selftests=tools/testing/selftests/mm/mglru
# the kselftest library's files and a program's own helpers (a Makefile
# line "$(OUTPUT)/<program>: <file>.c"), which are no test program
# shellcheck disable=SC2016 # (a make variable, not the shell's)
read -ra library < <({ sed -n 's/^MGLRU_LIB [:+]= //p' "$selftests/Makefile"
		       sed -n 's/^\$(OUTPUT)\/[a-z_]*: //p' "$selftests/Makefile"; } | tr '\n' ' ')

fail()
{
	echo "FAIL $*"
	rc=1
}

# The two checks, run through expect_rc.
# apply DIR: a fresh baseline with the patches of DIR (not its cover
# letter) applied by git am, in $tmp/am.
# shellcheck disable=SC2317
apply()
{
	local patches=()

	mapfile -t patches < <(find "$1" -maxdepth 1 -name '*.patch' ! -name '0000-cover-letter.patch' | sort)
	[ ${#patches[@]} -gt 0 ] || { echo "no patches in $1"; return 1; }
	rm -rf "$tmp/am"
	cp -a "$tmp/base" "$tmp/am"
	git -C "$tmp/am" am -q --whitespace=error "${patches[@]}" || return 1
}

# added PATCH: the files PATCH adds
# shellcheck disable=SC2317 # (called from functions run through expect_rc)
added()
{
	awk 'prev == "--- /dev/null" && /^[+][+][+] b\// { print substr($0, 7) }
		{ prev = $0 }' "$1"
}

# covered PATCH: every file PATCH adds is in a folder that the applied
# tree's MAINTAINERS lists
# shellcheck disable=SC2317 # (called through checkpatch)
covered()
{
	local f

	while read -r f; do
		grep -q "^F:	${f%/*}/\$" "$tmp/am/MAINTAINERS" || return 1
	done < <(added "$1")
}

# checkpatch PATCH: the tree's checkpatch.pl --strict, in tree mode (the
# baseline holds what it reads), reports nothing. It asks whether
# MAINTAINERS needs updating of any patch that adds a file and leaves
# MAINTAINERS alone; where a folder entry covers the new files, it does not.
# The baseline is one commit, the Debian tree without its history, so the
# ids of the fixes the messages name are unknown to it: guarded() checks
# their form instead.
# shellcheck disable=SC2317
checkpatch()
{
	local out ret ignore=(--ignore UNKNOWN_COMMIT_ID)

	if ! grep -q '^ MAINTAINERS ' "$1" && covered "$1"; then
		ignore+=(--ignore FILE_PATH_CHANGES)
	fi
	out=$(cd "$tmp/base" && scripts/checkpatch.pl --strict "${ignore[@]}" "$1")
	ret=$?
	echo "$out"
	[ "$ret" -eq 0 ] && grep -q '^total: 0 errors, 0 warnings, 0 checks' <<<"$out"
}

# The tree the series gives holds the suite's files and its registrations.
applied()
{
	local c f t tracked

	for f in lib/tests/mglru_*.c; do
		cmp -s "$f" "$tmp/am/$f" || fail "$f differs from the suite's"
		grep -q "^F:	$f\$" "$tmp/am/MAINTAINERS" || fail "MAINTAINERS does not list $f"
	done
	tracked=$(git -C "$tmp/am" ls-files "$selftests" | sort)
	for f in $tracked; do
		cmp -s "$f" "$tmp/am/$f" || fail "$f differs from the suite's"
	done
	for f in "$selftests"/*.[ch] "$selftests"/Makefile "$selftests"/config "$selftests"/settings; do
		grep -qx "$f" <<<"$tracked" || fail "$f is not in the series"
	done
	grep -q '^#include "../lib/tests/mglru_kunit.c"' "$tmp/am/mm/vmscan.c" ||
		fail "mm/vmscan.c does not include the KUnit suite"
	grep -q '^config MGLRU_KUNIT_TEST$' "$tmp/am/mm/Kconfig" || fail "no MGLRU_KUNIT_TEST in mm/Kconfig"
	grep -q '^TARGETS += mm/mglru$' "$tmp/am/tools/testing/selftests/Makefile" ||
		fail "mm/mglru is not a kselftest TARGET"
	grep -q "^F:	$selftests/\$" "$tmp/am/MAINTAINERS" || fail "MAINTAINERS does not list $selftests/"
	# every test program is described in the selftests' patch and the docs
	for c in "$selftests"/*.c; do
		t=$(basename "$c" .c)
		case " ${library[*]} " in *" $t.c "*) continue ;; esac
		p=$(adding "$selftests/$t.c")
		message "$p" | grep -q "\b$t\b" ||
			fail "$t is not in the message of ${p##*/}"
		grep -q "^\* \`\`$t\`\`:" "$tmp/am/Documentation/mm/multigen_lru.rst" ||
			fail "$t is not in Documentation/mm/multigen_lru.rst"
	done
}

# message PATCH: the commit message of PATCH (its body, up to "---")
# adding FILE: the one patch that adds FILE
adding()
{
	awk -v f="+++ b/$1" 'FNR == 1 { prev = "" }
		prev == "--- /dev/null" && $0 == f { print FILENAME; nextfile } { prev = $0 }' "${patches[@]}"
}

# suites PATCH: the KUnit suites PATCH registers
# shellcheck disable=SC2317 # (called through expect_rc)
suites()
{
	sed -n 's/^[+]kunit_test_suite(\(.*\));$/\1/p' "$1"
}

# split: one patch per KUnit suite (the suites share lib/tests/mglru_kunit.c)
# and per kselftest program, none of them with another's file, and no
# patch over about 1600 lines (the eviction suite's, the longest, is
# about 1,500: its folio helpers and 20 cases; the shrink loop has its own)
# shellcheck disable=SC2317 # (called through expect_rc)
split()
{
	local f p n s ret=0

	while read -r s; do
		n=0
		for p in "${patches[@]}"; do
			suites "$p" | grep -qxF "$s" && n=$((n + 1))
		done
		[ "$n" -eq 1 ] || { echo "$s: registered by $n patches"; ret=1; }
	done < <(sed -n 's/^kunit_test_suite(\(.*\));$/\1/p' lib/tests/mglru_kunit.c)
	for p in "${patches[@]}"; do
		[ "$(suites "$p" | wc -l)" -le 1 ] || { echo "${p##*/}: more than one suite"; ret=1; }
	done
	for f in "$selftests"/*.c; do
		case " ${library[*]} " in *" ${f##*/} "*) continue ;; esac
		p=$(adding "$f")
		[ "$(wc -w <<<"$p")" -eq 1 ] || { echo "$f: added by ${p:-no patch}"; ret=1; continue; }
		# the suites and programs the patch adds: its new files, the
		# library's (which may come with their first user) aside
		n=$(awk -v s="^[+][+][+] b/(lib/tests/mglru_|$selftests/[a-z_]*[.]c)" \
			'prev == "--- /dev/null" && $0 ~ s { print $2 } { prev = $0 }' "$p" |
			sed 's,.*/,,' | grep -cvxF -f <(printf '%s\n' "${library[@]}"))
		[ "$n" -eq 1 ] || { echo "${p##*/}: $n suites or programs"; ret=1; }
	done
	for p in "${patches[@]}"; do
		n=$(($(grep -c '^+' "$p") - $(grep -c '^+++ ' "$p")))
		[ "$n" -le 1600 ] || { echo "${p##*/}: $n lines added"; ret=1; }
	done
	return "$ret"
}

# guarded PATCH...: the message of each patch that registers a KUnit suite
# or adds a test program names a commit it guards, as commit <12 hex> ("subject"),
# one the cover letter lists, and a Link: to where the fix was posted
# shellcheck disable=SC2317 # (called through expect_rc)
guarded()
{
	local p id ret=0

	for p in "$@"; do
		if [ -z "$(suites "$p")" ]; then
			added "$p" | grep -E "^$selftests/[a-z_]*[.]c\$" |
				sed 's,.*/,,' | grep -qvxF -f <(printf '%s\n' "${library[@]}") || continue
		fi
		id=$(message "$p" | tr '\n' ' ' | grep -o '[Cc]ommit [0-9a-f]\{12\} ("[^"]*")' |
			head -n 1 | cut -d' ' -f2)
		if [ -z "$id" ]; then
			echo "${p##*/}: names no commit as commit <12 hex> (\"subject\")"
			ret=1
		elif ! grep -q "^  $id (\"" "$cover"; then
			echo "${p##*/}: commit $id is not in the cover letter's list"
			ret=1
		fi
		message "$p" | grep -q '^Link: https://' ||
			{ echo "${p##*/}: no Link:"; ret=1; }
	done
	return "$ret"
}

message()
{
	awk '!body && /^$/ { body = 1 } body && /^---$/ { exit } body' "$1"
}

expect_rc 0 "series.sh writes the series" runner/export/series.sh "$tmp/series"
expect_rc 0 "series.sh writes it again" runner/export/series.sh "$tmp/again"
diff -r "$tmp/series" "$tmp/again" >/dev/null ||
	fail "two runs wrote different series: $(diff -rq "$tmp/series" "$tmp/again")"
expect_rc 0 "series.sh --baseline" runner/export/series.sh --baseline "$tmp/base"
[ -d "$tmp/base/.git" ] || { echo "FAIL: no baseline repository"; exit 1; }

mapfile -t patches < <(find "$tmp/series" -maxdepth 1 -name '0*.patch' ! -name '0000-*' | sort)
[ ${#patches[@]} -ge 3 ] || { echo "FAIL: ${#patches[@]} patches, expected 3 or more"; exit 1; }
cover=$tmp/series/0000-cover-letter.patch
[ -f "$cover" ] || fail "no cover letter"
grep -q '\*\*\* .* HERE \*\*\*' "$cover" && fail "the cover letter has placeholders"

# The letter's figures are the data's, and a changed count is seen: in a
# copy of each data file the letter shows, the first failed-runs count
# of a repeat-*.txt, the first killed mutant of kunit-mutants.txt (and its
# kernel's total), the first 10/10 of a matrix-*.txt's tables (not of its
# notes).
# shellcheck disable=SC2317
figures() { runner/export/series/cover_letter.py --data "$1" --check "$cover"; }
expect_rc 0 "the cover letter's figures are those of doc/results/" figures doc/results
while read -r name; do
	rm -rf "$tmp/data"
	cp -r doc/results "$tmp/data"
	f=$tmp/data/$name.txt
	case $name in
	repeat-*) awk '!done && !/^#/ && NF >= 4 { $4++; done = 1 } { print }' "doc/results/$name.txt" ;;
	kunit-mutants) awk '!k && !/^#/ && $3 == "killed" { $3 = "survived"; k = $1 }
		k && index($0, "# " k ": ") == 1 { $3-- } { print }' "doc/results/$name.txt" ;;
	matrix-*) awk '!done && !/^#/ && sub(/ 10\/10 /, " 9/10  ") { done = 1 } { print }' \
		"doc/results/$name.txt" ;;
	*) cat "doc/results/$name.txt" ;;
	esac >"$f"
	if cmp -s "$f" "doc/results/$name.txt"; then
		fail "the check cannot change a count of $name.txt"
		continue
	fi
	expect_rc 1 "the check sees a count changed in $name.txt" figures "$tmp/data"
	grep -q "the figures of $name are not" "$tmp/out" || fail "the check did not name $name"
	sed 's/^/  | /' "$tmp/out"
done < <(sed -n 's/^{{figures \(.*\)}}$/\1/p' runner/export/series/0-cover-letter.txt)

expect_rc 0 "one patch per KUnit suite and per program, none over about 1600 lines" split
expect_rc 0 "each suite's and program's patch names the commit it guards, with a Link:" \
	guarded "${patches[@]}"
expect_rc 0 "the series applies with git am --whitespace=error" apply "$tmp/series"
if [ "$(git -C "$tmp/am" rev-list --count baseline..HEAD)" = ${#patches[@]} ]; then
	applied
else
	fail "git am applied $(git -C "$tmp/am" rev-list --count baseline..HEAD) of ${#patches[@]} patches: the applied tree is not checked"
fi

# checkpatch.pl runs in the baseline, the tree the series is for
for p in "${patches[@]}"; do
	expect_rc 0 "checkpatch.pl --strict: ${p##*/}" checkpatch "$p"
	grep '^total:' "$tmp/out"
done

# Each patch is addressed to whom get_maintainer.pl names for it, the KUnit
# one also to KUnit's lists, and the cover letter to them all, with the
# base commit; a letter without them is seen.
# shellcheck disable=SC2317
addressed()
{
	local a p

	for a in 'To: Andrew Morton <akpm@linux-foundation.org>' 'Cc: linux-mm@kvack.org' \
		 'Cc: linux-kselftest@vger.kernel.org' 'Cc: kunit-dev@googlegroups.com'; do
		grep -qxF "$a" "$1" || { echo "${1##*/}: no '$a'"; return 1; }
	done
	grep -q '^base-commit: [0-9a-f]\{40\}$' "$1" || { echo "${1##*/}: no base-commit"; return 1; }
	for p in "${patches[@]}"; do
		[ -z "$(suites "$p")" ] || grep -qxF 'Cc: kunit-dev@googlegroups.com' "$p" ||
			{ echo "${p##*/}: adds a KUnit suite, not to kunit-dev"; return 1; }
	done
	for p in "${patches[@]}"; do
		grep -q '^To: ' "$p" || { echo "${p##*/}: no To:"; return 1; }
	done
}
expect_rc 0 "the patches and the cover letter are addressed, with a base commit" addressed "$cover"
grep -v '^Cc: kunit-dev@' "$cover" >"$tmp/cover-unaddressed"
expect_rc 1 "a cover letter without kunit-dev is seen" addressed "$tmp/cover-unaddressed"
grep -v '^base-commit: ' "$cover" >"$tmp/cover-unbased"
expect_rc 1 "a cover letter without its base commit is seen" addressed "$tmp/cover-unbased"

# The fixes the suite proposes, beside the series: each an RFC that
# applies to the baseline by itself, passes checkpatch.pl --strict, is
# addressed to mm (and a memcg-* one to the memcg maintainers and cgroups)
# and says what it fixes.
# shellcheck disable=SC2317
rfc_addressed()
{
	grep -q '^Subject: \[RFC PATCH' "$1" || { echo "${1##*/}: not an RFC PATCH"; return 1; }
	if ! grep -qxF 'To: Andrew Morton <akpm@linux-foundation.org>' "$1" ||
	   ! grep -qxF 'Cc: linux-mm@kvack.org' "$1"; then
		echo "${1##*/}: not to mm"
		return 1
	fi
	if [[ $1 == */rfc-memcg-* ]] && { ! grep -qxF 'Cc: cgroups@vger.kernel.org' "$1" ||
	   ! grep -qE '^(To|Cc): Johannes Weiner <' "$1"; }; then
		echo "${1##*/}: not to the memcg maintainers and cgroups"
		return 1
	fi
	# no Fixes: but one a backport needs, and then in its form
	! grep -q '^Fixes: ' "$1" || grep -q '^Fixes: [0-9a-f]\{12\} ("' "$1" ||
		{ echo "${1##*/}: a malformed Fixes:"; return 1; }
}
rfcs=("$tmp"/series/rfc-*/)
[ -d "${rfcs[0]}" ] || fail "no RFC beside the series"
for d in "${rfcs[@]}"; do
	[ -d "$d" ] || continue
	expect_rc 0 "the RFC $(basename "$d") applies to the baseline by itself" apply "$d"
	n=$(find "$d" -name '0*.patch' ! -name '0000-cover-letter.patch' | wc -l)
	if [ "$n" -gt 1 ]; then
		expect_rc 0 "the RFC of $n patches has its cover letter" \
			grep -q "^Subject: \[RFC PATCH 0/$n\] [^*]" "$d/0000-cover-letter.patch"
	fi
	for p in "$d"*.patch; do
		if [ "${p##*/}" != 0000-cover-letter.patch ]; then
			expect_rc 0 "checkpatch.pl --strict: rfc ${p##*/}" checkpatch "$p"
			grep '^total:' "$tmp/out"
		fi
		expect_rc 0 "the RFC $(basename "$d") is addressed" rfc_addressed "$p"
		grep -v '^Cc: linux-mm@' "$p" >"$tmp/rfc-unmm.patch"
		expect_rc 1 "an RFC not to linux-mm is seen" rfc_addressed "$tmp/rfc-unmm.patch"
		if [[ $d == */rfc-memcg-* ]]; then
			mkdir -p "$tmp/$(basename "$d")"
			grep -v '^Cc: cgroups@' "$p" >"$tmp/$(basename "$d")/uncc.patch"
			expect_rc 1 "a memcg RFC not to cgroups is seen" \
				rfc_addressed "$tmp/$(basename "$d")/uncc.patch"
		fi
		[ "${p##*/}" != 0000-cover-letter.patch ] || continue
		sed '0,/^Signed-off-by: /s//Fixes: the old code\n&/' "$p" >"$tmp/rfc-badfix.patch"
		expect_rc 1 "an RFC's malformed Fixes: is seen" rfc_addressed "$tmp/rfc-badfix.patch"
	done
done

# Broken copies, each checked by what must catch it.
b=$tmp/broken
docs=${patches[-1]}
mkdir -p "$b/space" "$b/sob" "$b/context" "$b/guard"

# a program's patch that names its fix by subject only, or without a Link:
p=$(adding "$selftests/aging_oom.c")
sed 's/[Cc]ommit \([0-9a-f]\{12\}\) (/the fix (/' "$p" >"$b/guard/unnamed.patch"
expect_rc 1 "a patch that names no commit id is seen" guarded "$b/guard/unnamed.patch"
sed '/^Link: /d' "$p" >"$b/guard/unlinked.patch"
expect_rc 1 "a patch without a Link: is seen" guarded "$b/guard/unlinked.patch"

# a trailing space on an added line: the hunk still applies without
# --whitespace=error, so only the checks catch it
cp "${patches[@]}" "$b/space/"
sed -i '0,/^+Testing$/s//+Testing /' "$b/space/${docs##*/}"
grep -q '^+Testing $' "$b/space/${docs##*/}" || fail "cannot break ${docs##*/}"
expect_rc 1 "checkpatch.pl rejects a trailing space" checkpatch "$b/space/${docs##*/}"
grep -q 'ERROR: trailing whitespace' "$tmp/out" || fail "checkpatch did not name the trailing space"
expect_rc 1 "git am rejects a trailing space" apply "$b/space"

# no Signed-off-by
sed '/^Signed-off-by: /d' "$docs" >"$b/sob/${docs##*/}"
expect_rc 1 "checkpatch.pl rejects a patch without Signed-off-by" checkpatch "$b/sob/${docs##*/}"
grep -q 'ERROR: Missing Signed-off-by' "$tmp/out" || fail "checkpatch did not name the missing Signed-off-by"

# a context line that is not the tree's
cp "${patches[@]}" "$b/context/"
sed -i 's/^ static long get_nr_to_scan(/ static long get_nr_to_scan_broken(/' "$b/context/${patches[0]##*/}"
grep -q 'get_nr_to_scan_broken' "$b/context/${patches[0]##*/}" || fail "cannot break ${patches[0]##*/}"
expect_rc 1 "git am rejects a hunk that does not apply" apply "$b/context"
grep -q 'patch does not apply' "$tmp/out" || fail "git am did not say the patch does not apply"
exit $rc
