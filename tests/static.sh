#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Static checks: the tree's own checkpatch.pl --strict on the kernel patches
# and on the suite's C sources, the KUnit file's port patches up to date
# (runner/export/port-tests.sh), an SPDX line on every source file, the
# kselftest config fragment's rule, the default kernel's expectations
# (every point gates or is INFO), the runner's scripts checked by
# ShellCheck, and README.rst parsed by docutils.
#
# usage: static.sh KERNEL_TREE

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
top=$PWD
tree=$1
[ -x "$tree/scripts/checkpatch.pl" ] || { echo "static.sh: no checkpatch.pl in $tree" >&2; exit 1; }
rc=0

# checkpatch.pl runs from the kernel tree: run from another git checkout, it
# misreads patch files.
checkpatch()
{
	(cd "$tree" && scripts/checkpatch.pl "$@")
}

# The kernel patches carried by the suite, validation kernels included
# (mutants are broken on purpose and are not submitted anywhere). The
# Debian trees have no git history, so the upstream commits a message
# names (Fixes:, "commit <id>") are unknown to them, as in tests/series.sh.
for p in patches/hook/*.patch patches/port-*/hook/*.patch patches/port-6.12/*.patch patches/port-*/tests/*.patch \
	 patches/variants/*/*.patch; do
	checkpatch --strict -q --ignore UNKNOWN_COMMIT_ID "$top/$p" ||
		{ echo "checkpatch: $p"; rc=1; }
done

# The port patches of the KUnit file are what its port cuts make of it now
runner/export/port-tests.sh --check || rc=1

for f in lib/tests/*.c tools/testing/selftests/mm/mglru/*.[ch]; do
	[ -e "$f" ] || continue
	checkpatch --strict -q --no-tree -f "$top/$f" ||
		{ echo "checkpatch: $f"; rc=1; }
done

# No call cycle between the kselftest library's files: each object's
# undefined symbols, joined to the object that defines them (nm), are the
# file graph, and tsort fails on a loop in it.
objs=$(mktemp -d)
trap 'rm -rf "$objs"' EXIT
sel=$objs/tools/testing/selftests
inc=$tree/tools/testing/selftests/cgroup/lib/include
[ -d "$inc" ] || inc=$tree/tools/testing/selftests/cgroup
mkdir -p "$sel/mm/mglru" && cp tools/testing/selftests/mm/mglru/*.[ch] "$sel/mm/mglru/" &&
	cp "$tree/tools/testing/selftests/kselftest.h" "$sel/" || rc=1
for c in "$sel"/mm/mglru/*.c; do
	gcc -c -I"$inc" -o "${c%.c}.o" "$c" || { echo "static.sh: $c does not build"; rc=1; }
done
for o in "$sel"/mm/mglru/*.o; do	# the library's objects: no main()
	nm "$o" | grep -q ' T main$' ||
		nm -g --defined-only "$o" | awk -v o="${o##*/}" '{ print $3, o }'
done | LC_ALL=C sort >"$objs/defs"
awk '{ print $2 }' "$objs/defs" | sort -u | while read -r o; do
	nm -u "$sel/mm/mglru/$o" | awk '{ print $2 }' | LC_ALL=C sort |
		LC_ALL=C join - "$objs/defs" | awk -v o="$o" '$2 != o { print o, $2 }'
done | sort -u >"$objs/edges"
awk '{ e[$1 " " $2] = 1 } END { for (k in e) { split(k, f)
	if (f[1] < f[2] && e[f[2] " " f[1]]) print "call cycle: " f[1] " <-> " f[2] } }' "$objs/edges"
tsort "$objs/edges" >/dev/null || { echo "the kselftest library's files call each other in a loop"; rc=1; }

for f in $(git ls-files '*.c' '*.h' '*.sh' '*.py' '*.rst' '*.config' \
	   'Makefile' '*/Makefile' kunitconfig .ci/run); do
	grep -q 'SPDX-License-Identifier' "$f" || { echo "no SPDX line: $f"; rc=1; }
done

# kselftest-merge merges every selftest fragment into CI kernels: ours may
# only ask for what the tests need (CONFIG_X=y or =m), never a choice (the
# tick, preemption), a default-on switch or an option turned off.
frag=tools/testing/selftests/mm/mglru/config
bad=$(grep -v '^$' "$frag" | grep -Ev '^CONFIG_[A-Z0-9_]+=[ym]$|^#' ;
      grep -E '^#.*is not set|^CONFIG_(HZ_|HZ=|PREEMPT)|_ENABLED=|_DEFAULT_ON=' "$frag")
[ -z "$bad" ] || { echo "$frag: lines a CI kernel must not get:"; echo "$bad"; rc=1; }

# The default kernel is the gate: each of its points passes, skips or is
# INFO (out of the gate on purpose, its numbers in the doc/ file it names),
# and the validation matrix checks no INFO point.
def=$(tables kernels | head -n 1)
exp=$(tables expect-file "$def" default)
exp=${exp#"$top"/}
bad=$(for k in FAIL FLAKY; do tables expect-points "$exp" $k | awk -v k=$k '{ print "  " $1, k }'; done)
[ -z "$bad" ] || { echo "$exp: points that do not gate:"; echo "$bad"; rc=1; }
checked=$(tables matrix-rows expectations/matrix.txt | awk '{ print $1 "_" $2 }')
# The kselftest default run (TEST_GEN_PROGS) is what CI judges raw: no
# INFO point of a program there, and doc/results/default-run.txt, which
# README.rst renders, says which programs it holds as the Makefile does.
mk=tools/testing/selftests/mm/mglru/Makefile
gate=$(selftest_progs TEST_GEN_PROGS)
extended=$(selftest_progs TEST_GEN_PROGS_EXTENDED)
[ -n "$gate" ] || { echo "$mk: no TEST_GEN_PROGS"; rc=1; }
[ "$(printf '%s\n' "$gate" "$extended" | sort)" = "$(selftest_names | sort)" ] ||
	{ echo "$mk: TEST_GEN_PROGS and _EXTENDED are not runner/selftests.txt's tests"; rc=1; }
data=doc/results/default-run.txt
for run in default extended; do
	want=$gate
	[ $run = extended ] && want=$extended
	got=$(grep -v '^#' "$data" | awk -F' *[|] *' -v r=$run 'NR > 1 && $2 == r { print $1 }' | sort)
	[ "$got" = "$want" ] ||
		{ echo "$data: its $run programs ($(tr '\n' ' ' <<<"$got")) are not $mk's ($(tr '\n' ' ' <<<"$want"))"; rc=1; }
done
while read -r point reason; do
	if grep -qx "${point%_*}" <<<"$gate"; then
		echo "$exp: INFO $point, a program of the default run ($mk)"; rc=1
	fi
	doc=$(grep -o 'doc/[A-Za-z0-9_.-]*\.rst' <<<"$reason" | head -n 1)
	if [ -z "$doc" ] || [ ! -f "$doc" ]; then
		echo "$exp: INFO $point names no doc/*.rst that exists"; rc=1
	fi
	if grep -qx "$point" <<<"$checked"; then
		echo "expectations/matrix.txt: a row checks $point, INFO in $exp"; rc=1
	fi
done < <(tables expect-points "$exp" INFO)

# doc/kunit.rst's contract table: every case it names is a KUnit case,
# every mutant it names exists, and every mutant from 29 on (written from
# that table) is in it and names its fix and the observable it breaks.
contracts=$(sed -n '/^Contracts$/,/^No case sees these/p' doc/kunit.rst)
# the backquotes are reStructuredText's literal markers, not a command
# shellcheck disable=SC2016
for c in $(grep '^     - ``' <<<"$contracts" | grep -o '``[a-z_]*``' | tr -d '`' | sort -u); do
	case $c in mglru|mglru_evict|mglru_shrink|mglru_place|mglru_test_) continue ;; esac
	grep -qE "KUNIT_CASE(_PARAM)?\(mglru_test_${c}[,)]" lib/tests/mglru*_kunit.c ||
		{ echo "doc/kunit.rst: no KUnit case mglru_test_$c"; rc=1; }
done
named=$(grep -o '^     - [0-9][0-9, ]*$' <<<"$contracts" | grep -o '[0-9][0-9]*' | sort -u)
for n in $named; do
	compgen -G "patches/mutants/upstream/$n-*.patch" >/dev/null ||
		{ echo "doc/kunit.rst: no mutant $n"; rc=1; }
done
for p in patches/mutants/upstream/*.patch; do
	n=$(basename "$p" | cut -d- -f1)
	[ "$n" -ge 29 ] || continue
	grep -qx "$n" <<<"$named" || { echo "doc/kunit.rst: mutant $n is in no contract row"; rc=1; }
	{ grep -q '^Fix: ' "$p" && grep -q '^Observable: ' "$p"; } ||
		{ echo "$p: no Fix: or Observable: line"; rc=1; }
done

shellcheck -x --source-path=SCRIPTDIR runner/*.sh runner/*/*.sh runner/validate/selftest-check/*.sh \
	runner/validate/emulator-stress/*.sh tests/*.sh .ci/run || rc=1
shellcheck -s sh lava/*.sh || rc=1

# README.rst and doc/ are reStructuredText, as kernel docs are: they must
# parse cleanly
python3 -c 'import docutils.core, sys
for f in sys.argv[1:]:
	docutils.core.publish_string(open(f).read(), source_path=f, writer_name="null",
		settings_overrides={"report_level": 2, "halt_level": 2})' README.rst doc/*.rst || rc=1
exit $rc
