#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The mm/mglru kselftests build (and install) warning-free against the guest
# tree with the kselftest machinery. They are never run on the host: its
# kernel has no MGLRU and mounts cgroup v1.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
. tests/expect.sh
tree=$(runner/run/tree.sh guest) || exit 1
install_kselftests "$tree" "$tmp/build" "$tmp/install" 2>&1 | tee "$tmp/log"
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
if grep -E 'warning:|error:' "$tmp/log"; then
	echo "selftests-build: the kselftests build with warnings"
	exit 1
fi
grep -q '^mm/mglru:' "$tmp/install/kselftest-list.txt" ||
	{ echo "selftests-build: no mm/mglru tests installed"; exit 1; }

# Bad input is rejected before a test touches anything (safe on the host):
# a bad LRU mode, an unknown option or a stray argument gets one line (the
# usage) on stderr, nothing on stdout, and exit status 1.
one_line()
{
	[ "$(wc -l <"$tmp/out")" -eq 1 ] && return
	echo "FAIL $1: not one line:"
	sed 's/^/  | /' "$tmp/out"
	rc=1
}

# the default run (kselftest-list.txt) is the Makefile's TEST_GEN_PROGS;
# every program installed, extended ones too, has its line in
# runner/selftests.txt, and every line a program
sed -n 's/^mm\/mglru://p' "$tmp/install/kselftest-list.txt" | sort >"$tmp/listed"
if [ "$(cat "$tmp/listed")" != "$(selftest_progs TEST_GEN_PROGS)" ]; then
	echo "FAIL: kselftest-list.txt ($(tr '\n' ' ' <"$tmp/listed")) is not the Makefile's TEST_GEN_PROGS"
	rc=1
fi
installed_progs "$tmp/install" >"$tmp/tests"
if [ "$(cat "$tmp/tests")" != "$(selftest_names | sort)" ]; then
	echo "FAIL: the programs ($(tr '\n' ' ' <"$tmp/tests")) are not runner/selftests.txt's tests ($(selftest_names | sort | tr '\n' ' '))"
	rc=1
fi
# an extended program runs through the install's runner functions as a
# listed one runs through run_kselftest.sh: its arguments, its KTAP line
ext=$(comm -23 "$tmp/tests" "$tmp/listed" | head -n 1)
if [ -n "$ext" ]; then
	var=$(ksft_args_var "$ext")
	# (through a pipe: the runner reopens /dev/stdout to append the
	# program's output, which a file's offset would overwrite)
	env "$var=-M 1" sh runner/run/ksft-one.sh "$tmp/install" 30 mm/mglru "$ext" 2>&1 |
		cat >"$tmp/one"
	for want in "^1\.\.1\$" "-M memcg_size must be at least" \
		    "^not ok 1 selftests: mm/mglru: $ext # exit=1\$"; do
		grep -q -- "$want" "$tmp/one" ||
			{ echo "FAIL: ksft-one.sh $ext: no line $want:"; sed 's/^/  | /' "$tmp/one"; rc=1; }
	done
fi
while read -r t; do
	bin=$tmp/install/mm/mglru/$t
	# a program's option must not take a letter of the library's (-C, -M, ...)
	dup=$("$bin" -h 2>&1 </dev/null | grep -o '\[-[A-Za-z]' | sort | uniq -d | tr -d '[' | tr '\n' ' ')
	[ -z "$dup" ] || { echo "FAIL $t: options defined twice: $dup"; rc=1; }
	for args in "-m both" "-y" "stray" "-m"; do
		# shellcheck disable=SC2086
		expect_rc 1 "$t $args" "$bin" $args </dev/null
		one_line "$t $args"
	done
	# a memcg too small to hold the scenario: refused before any setup,
	# within a second, naming the option and its minimum
	for args in "-M 1" "-M 1K"; do
		t0=$(date +%s%N)
		# shellcheck disable=SC2086
		expect_rc 1 "$t $args" "$bin" $args </dev/null
		ms=$((($(date +%s%N) - t0) / 1000000))
		one_line "$t $args"
		grep -q -- '-M memcg_size must be at least [0-9]* MiB' "$tmp/out" ||
			{ echo "FAIL $t $args: no minimum named: $(cat "$tmp/out")"; rc=1; }
		[ "$ms" -lt 1000 ] || { echo "FAIL $t $args: refused after $ms ms"; rc=1; }
	done
done <"$tmp/tests"
# dirty_throttle's clean page cache (-P) must fit in half the machine
expect_rc 1 "dirty_throttle -P beyond half the memory" \
	"$tmp/install/mm/mglru/dirty_throttle" -P 999999999 </dev/null
one_line "dirty_throttle -P 999999999"
# and a size that fits is taken: run as nobody, the program parses its
# options, then skips (no root) before it touches anything
mkdir "$tmp/nobody" && cp "$tmp/install/mm/mglru/dirty_throttle" "$tmp/nobody/" &&
	chmod 711 "$tmp" "$tmp/nobody" && chmod 755 "$tmp/nobody/dirty_throttle"
for args in "-P 1" "-S 5 -K 2 -L 1 -N 1 -R 1"; do
	# shellcheck disable=SC2086
	expect_rc 4 "dirty_throttle $args taken (a skip as nobody)" \
		setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$tmp/nobody/dirty_throttle" $args </dev/null
done
expect_rc 1 "dirty_throttle -S not below -t refused" \
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$tmp/nobody/dirty_throttle" -S 60 -t 60 </dev/null
exit $rc
