#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A new kselftest is its program, one line of runner/selftests.txt and its
# name in the Makefile's TEST_GEN_PROGS_EXTENDED, and nothing else. In a
# throwaway copy of the suite, the test anon_swap of
# tests/fixtures/new-kselftest/ is added as a newcomer adds one: the program
# into tools/testing/selftests/mm/mglru/, its line appended to the table and
# its name to the Makefile (git in the copy shows that these three files are
# the whole edit). Then each
# tool of the copy picks it up: the kselftest build installs it and it
# rejects bad input as the others do (it is never run: the host has no
# MGLRU); make list names it and the runner takes TESTS=anon_swap; its kill
# times and overload controls reach selftest-check; the summary shows its
# points with the table's key metrics; KCIDB has its points and key metrics,
# valid by kcidb-io; LAVA reports its KTAP's points and key metrics and,
# once a matrix row names it, writes its jobs, which LAVA's job schema and
# lava-run --validate accept; the matrix judges its row. Before the edit,
# the copy's make list and runner do not know it. The suite's own tree is
# only read.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
. tests/expect.sh

fx=$PWD/tests/fixtures/new-kselftest
new=anon_swap
suite=$tmp/suite
vpy=$VENV/bin/python3
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE TESTS LRU_MODE VARIANT KDIR EXPECT RESULTS
# the copy's phases log here, not into make check's logs
export LOGDIR=$tmp/logs

# fail WHAT: a failed expectation
fail()
{
	echo "FAIL $*"
	rc=1
}

# has NAME PATTERN: $tmp/out has a line matching PATTERN (grep -E)
has()
{
	if grep -qE -- "$2" "$tmp/out"; then
		echo "ok   $1"
	else
		fail "$1: no line /$2/ in:"
		sed 's/^/  | /' "$tmp/out"
	fi
}

# tables ARGS...: the copy's table reader (runner/tables.py)
tables()
{
	python3 "$suite/runner/tables.py" "$@"
}

# in_copy CMD...: CMD (a function of lib.sh) with the copy's lib.sh sourced
in_copy()
{
	# shellcheck disable=SC2016
	bash -c '. "$0/runner/lib.sh" && "$@"' "$suite" "$@"
}

# commit MESSAGE: the copy's changes, committed in its own git
commit()
{
	git -C "$suite" add -A &&
		git -C "$suite" -c user.name=newcomer -c user.email=newcomer@example.org \
			-c commit.gpgsign=false commit -q -m "$1"
}

# --- the copy -------------------------------------------------------------
# the suite's files as they are (tracked or new, not ignored, not deleted)
mkdir -p "$suite"
git ls-files -co --exclude-standard | grep -vxFf <(git ls-files -d; echo /) |
	tar -cf - -T - | tar -xf - -C "$suite" || { echo "FAIL: cannot copy the suite"; exit 1; }
if ! git -C "$suite" init -q || ! commit "the suite"; then
	echo "FAIL: no git in the copy"
	exit 1
fi

# before the edit, the copy does not know the test
expect_rc 0 "before: make list" make -s --no-print-directory -C "$suite" list
grep -qx "$new" "$tmp/out" && fail "before: make list names $new already"
expect_rc 1 "before: the runner rejects TESTS=$new" \
	env TESTS="aging_oom $new" VARIANT=no-such-variant "$suite/runner/run/suite.sh" kselftest
has "... as an unknown test" "mglru: error: TESTS: unknown test '$new'"

# --- the newcomer's edit: the program and one line --------------------------
# (a new program joins TEST_GEN_PROGS_EXTENDED: the default run takes it
# only once it has passed every run of a stock kernel; doc/kselftests.rst)
cp "$fx/$new.c" "$suite/tools/testing/selftests/mm/mglru/"
cat "$fx/selftests.txt" >>"$suite/runner/selftests.txt"
mk=$suite/tools/testing/selftests/mm/mglru/Makefile
awk -v n="$new" '{ line[NR] = $0 } /^TEST_GEN_PROGS_EXTENDED \+= / { last = NR }
	END { for (i = 1; i <= NR; i++) { print line[i]; if (i == last) print "TEST_GEN_PROGS_EXTENDED += " n } }' \
	"$mk" >"$mk.new" && mv "$mk.new" "$mk"
commit "selftests/mm/mglru: add $new"
want=$(printf '%s\n' runner/selftests.txt "tools/testing/selftests/mm/mglru/Makefile" \
	"tools/testing/selftests/mm/mglru/$new.c")
got=$(git -C "$suite" diff --name-only HEAD~1 HEAD)
if [ "$got" = "$want" ]; then
	echo "ok   the edit is the program, the table's line and the Makefile's: $(echo "$got" | tr '\n' ' ')"
else
	fail "the edit changed: $(echo "$got" | tr '\n' ' ')"
fi

# --- the kselftest build --------------------------------------------------
# The guest tree (selftests-build's), mirrored by symlinks, with the copy's
# mm/mglru in it as runner/run/tree.sh puts it; the copy's lib.sh builds it.
tree=$(tree_dir guest)
[ -f "$tree/tools/testing/selftests/lib.mk" ] || tree=$(runner/run/tree.sh guest) || exit 1
mirror=$tmp/tree dst=$tmp/tree src=$tree
for part in tools testing selftests mm mglru; do
	mkdir -p "$dst"
	for e in "$src"/* "$src"/.[!.]*; do
		[ -e "$e" ] && [ "${e##*/}" != "$part" ] && ln -s "$e" "$dst/"
	done
	src=$src/$part dst=$dst/$part
done
cp -r "$suite/tools/testing/selftests/mm/mglru/." "$dst/"
in_copy install_kselftests "$mirror" "$tmp/build" "$tmp/install" >"$tmp/build.log" 2>&1 ||
	{ fail "the kselftest build:"; tail -n 20 "$tmp/build.log"; }
grep -E 'warning:|error:' "$tmp/build.log" && fail "the kselftests build with warnings"
in_copy installed_progs "$tmp/install" >"$tmp/installed"
names=$(in_copy selftest_names | sort)
if grep -qx "$new" "$tmp/installed" && ! grep -qx "mm/mglru:$new" "$tmp/install/kselftest-list.txt" &&
   [ "$(cat "$tmp/installed")" = "$names" ]; then
	echo "ok   the build installs $new out of the default run, and the programs are the table's tests"
else
	fail "installed: $(tr '\n' ' ' <"$tmp/installed"); the table: $(echo "$names" | tr '\n' ' ')"
fi
# bad input, as selftests-build checks every program: exit 1, the usage
# line alone on stderr, nothing on stdout (and nothing run)
for args in "-m both" "-y" "stray" "-m" "-z 0"; do
	# shellcheck disable=SC2086
	"$tmp/install/mm/mglru/$new" $args </dev/null >"$tmp/stdout" 2>"$tmp/stderr"
	got=$?
	if [ "$got" -eq 1 ] && [ ! -s "$tmp/stdout" ] && [ "$(wc -l <"$tmp/stderr")" -eq 1 ] &&
	   grep -q '^usage: .* \[-m mglru|classic\]' "$tmp/stderr"; then
		echo "ok   $new $args: the usage, exit 1"
	else
		fail "$new $args: exit $got, stdout $(wc -l <"$tmp/stdout") lines, stderr:"
		sed 's/^/  | /' "$tmp/stderr"
	fi
done

# --- make list, TESTS, selftest-check -------------------------------------
expect_rc 0 "make list" make -s --no-print-directory -C "$suite" list
has "... names $new" "^$new\$"
# the runner's input checks pass TESTS; the bad VARIANT after them stops it
expect_rc 1 "the runner takes TESTS=$new" \
	env TESTS="aging_oom $new" VARIANT=no-such-variant "$suite/runner/run/suite.sh" kselftest
has "... and stops at a later check, VARIANT's" "mglru: error: VARIANT=no-such-variant"
grep -q "unknown test" "$tmp/out" && fail "the runner still rejects TESTS=$new"
expect_rc 0 "selftest-check's kill times" in_copy selftest_kill_times "$new"
has "... are the table's" '^3 1 5 10$'
expect_rc 0 "selftest-check's overload controls" tables controls
has "... have $new's in MGLRU mode" "^$new mglru -z 16\$"
has "... and in classic mode" "^$new classic -z 16\$"

# --- the summary ----------------------------------------------------------
# a run as the runner writes it (the folder's name is its start)
run=$tmp/20261125-101540-debian-7.3-default
cp -r "$fx/run" "$run"
expect_rc 1 "summary: $new's failing point fails the run" \
	"$suite/runner/run/summary.py" "$run" --tree-info "$run/tree-info"
has "... named" "unexpected result\(s\): ${new}_classic\$"
expect_rc 0 "summary: ... unless expected" "$suite/runner/run/summary.py" "$run" \
	--tree-info "$run/tree-info" --expect "$fx/expect.txt"
# the key metrics of the table's line, in its order, and no other
has "... its points with the table's key metrics" \
	"^$new +mglru +PASS +oom_kill=0 swapped_mib=141 mib_per_s=82.6 full_pct=55\$"
has "..." \
	"^$new +classic +FAIL \(expected\) +oom_kill=1 swapped_mib=97 mib_per_s=0.0 full_pct=37\$"
expect_rc 0 "summary.json has $new's points and every metric" \
	python3 - "$run/summary.json" "$new" <<'PY'
import json, sys
s, new = json.load(open(sys.argv[1])), sys.argv[2]
m = {(t['test'], t['mode']): t for t in s['kselftest']}
assert set(m) == {(new, 'mglru'), (new, 'classic')}, m
assert m[(new, 'mglru')]['verdict'] == 'PASS' and m[(new, 'classic')]['expected'] == 'FAIL', m
assert m[(new, 'mglru')]['metrics']['touched_pages'] == 131072, m
PY

# --- KCIDB ----------------------------------------------------------------
if "$vpy" -c 'import kcidb_io' 2>/dev/null; then
	expect_rc 0 "kcidb: the run converts" "$vpy" "$suite/runner/export/kcidb.py" "$run" -o "$tmp/kcidb.json"
	expect_rc 0 "kcidb: kcidb-io validates it, with $new's points and key metrics" \
		"$vpy" - "$tmp/kcidb.json" "$new" <<'PY'
import json, sys
import kcidb_io
d, new = json.load(open(sys.argv[1])), sys.argv[2]
kcidb_io.schema.LATEST.validate(d)
t = {x['path']: x for x in d['tests']}
p = f'kselftest.mm.mglru.{new}'
keys = ('oom_kill', 'swapped_mib', 'mib_per_s', 'full_pct')
assert sorted(x for x in t if x.startswith(p)) == sorted(
    [f'{p}.mglru', f'{p}.classic'] +
    [f'{p}.{m}.{k}' for m in ('mglru', 'classic') for k in keys]), sorted(t)
g, c = t[f'{p}.mglru'], t[f'{p}.classic']
assert g['status'] == 'PASS' and g['duration'] == 6.2, g
assert g['misc']['metrics']['touched_pages'] == 131072, g
assert g['start_time'].startswith('2026-11-2'), g
assert f'# ok 1 {new}_mglru' in g['log_excerpt'], g
assert c['status'] == 'FAIL' and c['misc']['expected'] == 'FAIL', c
assert not c['misc']['unexpected'], c
assert [i['test_id'] for i in d['incidents']] == [c['id']], d['incidents']
n = {k: t[f'{p}.mglru.{k}']['number'] for k in keys}
assert n == {'oom_kill': {'value': 0}, 'swapped_mib': {'value': 141, 'unit': 'MiB'},
             'mib_per_s': {'value': 82.6, 'unit': 'MiB/s'},
             'full_pct': {'value': 55, 'unit': '%'}}, n
PY
else
	fail "kcidb: kcidb-io is not installed in $VENV (runner/run/deps.sh installs it)"
fi

# --- LAVA -----------------------------------------------------------------
# the definition's reporter on the KTAP, with a stub lava-test-case
printf '#!/bin/sh\necho "$*" >>"%s"\n' "$tmp/cases" >"$tmp/lava-test-case"
chmod +x "$tmp/lava-test-case"
expect_rc 0 "lava: ktap-to-lava reports $new's KTAP" env LAVA_TEST_CASE="$tmp/lava-test-case" \
	"$suite/lava/mglru-ktap-to-lava.sh" -t "$new" -k "$(tables key-metrics "$new")" -u "$(tables units)" \
	"$run/kselftest-$new.ktap"
for mode in mglru classic; do
	sed -n "s/^# # metric ${new}_$mode \(oom_kill\|swapped_mib\|mib_per_s\|full_pct\)=/\1 /p" \
		"$fx/run/kselftest-$new.ktap" | while read -r k v; do
		u=$(printf '%s' "$k" | sed -n 's/^mib_per_s$/MiB\/s/p; s/.*_mib$/MiB/p; s/.*_pct$/%/p')
		echo "${new}_$mode.$k --result pass --measurement $v${u:+ --units $u}"
	done
	echo "${new}_$mode --result $([ $mode = mglru ] && echo pass || echo fail)"
done >"$tmp/want"
echo "$new --result fail" >>"$tmp/want"
if diff -u "$tmp/want" "$tmp/cases" >"$tmp/diff" 2>&1; then
	echo "ok   ... its points and the table's key metrics, with their units"
else
	fail "ktap-to-lava reported:"
	sed 's/^/  | /' "$tmp/diff"
fi
# a matrix row for it: its cells' jobs, valid by LAVA's job schema
expect_rc 0 "lava: lava-jobs.py writes the jobs of a matrix row of $new" \
	"$suite/runner/export/lava-jobs.py" --out "$tmp/jobs" "$fx/matrix.txt"
expect_rc 0 "lava: LAVA's job schema (strict) accepts them, each running $new" \
	"${LAVA_PYTHON:-/usr/bin/python3}" - "$tmp/jobs" "$new" <<'PY'
import glob, os, sys, yaml
from lava_common.schemas import validate
jobs, new = sys.argv[1], sys.argv[2]
files = sorted(os.path.basename(f) for f in glob.glob(os.path.join(jobs, '*.yaml')))
assert files == [f'{new}-classic-debian-6.12+default.yaml',
                 f'{new}-classic-debian-7.3+default.yaml'], files
for f in files:
    d = yaml.safe_load(open(os.path.join(jobs, f)))
    validate(d, strict=True, extra_context_variables=[])
    p = [a for a in d['actions'] if 'test' in a][0]['test']['definitions'][0]['params']
    assert (p['TEST'], p['LRU_MODE']) == (new, 'classic'), p
    assert p['UNITS'] and p['KEYS'], p
PY
# the row in the copy's matrix (adding a validation row, a commit of its
# own): make lava-local's job for its cell, through lava-run --validate
cat "$fx/matrix.txt" >>"$suite/expectations/matrix.txt"
commit "expectations: a matrix row for $new"
expect_rc 0 "lava: lava-run --validate takes make lava-local's job for $new" \
	env TESTS="$new" LRU_MODE=classic KERNEL=debian-7.3 RESULTS="$tmp/lava-local" \
	"$suite/runner/export/lava-local.sh" validate
grep -q "TEST: \"$new\"" "$tmp/lava-local/job.yaml" 2>/dev/null ||
	fail "lava-local's job does not run $new"

# --- the matrix -----------------------------------------------------------
# five runs a side: the recorded run on the bug kernel, and with its classic
# point passing on the fixed one
m=$tmp/matrix
r=$m/${new}_classic
mkdir -p "$r/bug" "$r/fixed"
for i in 1 2 3 4 5; do
	cp "$fx/run/kselftest-$new.ktap" "$r/bug/kselftest-$new.r$i.ktap"
	sed "s/^# not ok 2 ${new}_classic/# ok 2 ${new}_classic/" "$fx/run/kselftest-$new.ktap" \
		>"$r/fixed/kselftest-$new.r$i.ktap"
done
for k in bug fixed; do
	"$suite/runner/run/summary.py" "$r/$k" >/dev/null
done
echo "$new classic bug fixed" >"$m/matrix.txt"
expect_rc 0 "matrix: the row of $new holds" "$suite/runner/validate/matrix.py" "$m"
has "... detected 5/5, no false alarm" "^$new +classic +bug +5/5 +fixed +0/5 +holds\$"
has "... with the table's key metrics" \
	"^$new +bug \(bug\) +classic +5/5 failed +oom_kill=1 swapped_mib=97 mib_per_s=0.0 full_pct=37\$"
exit $rc
