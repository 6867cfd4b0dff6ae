#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kselftests' journal parser on the host, with AddressSanitizer and
# UBSan (tests/journal-fuzz.c): valid journals are taken, lines outside the
# rules are refused, and mutated journals reach the stub only with entries
# inside the rules. Then each mutant of the rules below must be caught, so
# that the check is seen failing.

cd "$(dirname "$0")/.." || exit 1
. tests/expect.sh

src=tools/testing/selftests/mm/mglru
N=${FUZZ_N:-20000}
cflags=(-g -O1 "-fsanitize=address,undefined" -fno-sanitize-recover=all)

build()	# build DIR [GCC_FLAGS]: the harness against DIR/journal.c
{
	gcc "${2:--Wall}" "${cflags[@]}" -I"$1" -o "$1/journal-fuzz" \
		tests/journal-fuzz.c "$1/journal.c"
}

mkdir -p "$tmp/src"
cp "$src/journal.c" "$src/journal.h" "$tmp/src/"
build "$tmp/src" || { echo "FAIL: the harness does not build"; exit 1; }
expect_rc 0 "$N mutated journals, nothing outside the rules taken" \
	"$tmp/src/journal-fuzz" "$N"
cat "$tmp/out"

# mutants of the rules: each must be caught
mutants=(
	's/if (!canonical(path) || strncmp(path, dir, n))/if (strncmp(path, dir, n))/'
	's/|| !has_zram(j, zram))/)/'
	's/return knob_value(e->val) ? NULL : "not a knob.s value";/return NULL;/'
	's/if (strcmp(e->val, own))/if (0)/'
	's/if (!is_knob(e->path, pid))/if (0)/'
	's/return n \&\& n <= 6 \&\& !strcmp(path + 15 + n, ra);/return n \&\& n <= 6;/'
	's|strcat(own, "/debugfs/fault_around_bytes");|strcat(own, "/debugfs");|'
)
for m in "${mutants[@]}"; do
	mkdir -p "$tmp/mut"
	cp "$src/journal.h" "$tmp/mut/"
	sed "$m" "$src/journal.c" >"$tmp/mut/journal.c"
	if cmp -s "$src/journal.c" "$tmp/mut/journal.c"; then
		echo "FAIL mutant does not apply: $m"
		rc=1
		continue
	fi
	build "$tmp/mut" -w || { echo "FAIL mutant does not build: $m"; rc=1; continue; }
	expect_rc 1 "mutant caught: $m" "$tmp/mut/journal-fuzz" "$N"
done
exit $rc
