#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make mutation on a fixed handful of mutants, in a work folder of its own
# ($CACHE/check/mutation): the generator finds every region and makes
# one-line mutants only, each stratum has mutants, and the runner gives the
# verdict each of these has on the default kernel:
#   killed      lru_gen_exit_fault() no longer clears the flag
#   equivalent  evict_folios() starts nr_isolated at -1, which it
#               overwrites before any use: the object is identical
#   nobuild     handle_reclaim_writeback() called with its arguments
#               swapped (a pointer where a count goes)
# Minutes warm; the first run builds the UML kernel of its work folder.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh

check_inputs KDIR KERNEL JOBS
work=$CACHE/check/mutation
# a work folder of make mutation's, which it may empty
{ mkdir -p "$work" && tree_name >"$work/.mglru-mutation"; } || die "cannot create $work"
runner/run/tree.sh kunit >/dev/null 2>&1 || die "mutation: the KUnit tree cannot be prepared"
old=$(runner/run/fetch-kernel.sh debian-6.12) || die "mutation: cannot fetch debian-6.12"
"$VENV/bin/python3" runner/validate/mutation_gen.py "$(tree_dir kunit)" "$old" "$work/gen.json" \
	>"$work/gen.log" || die "mutation: mutation_gen.py failed (log: $work/gen.log)"

ids=$("$VENV/bin/python3" - "$work/gen.json" <<'EOF'
import json, sys

d = json.load(open(sys.argv[1]))
ms = d['mutants']
bad = [m['id'] for m in ms if '\n' in m['new'] or m['new'] == m['old']]
if bad:
    sys.exit(f'mutants that are not one changed line: {bad[:3]}')
funcs = {m['func'] for m in ms}
missing = {r['func'] for r in d['regions']} - funcs
if missing:
    sys.exit(f'regions with no mutant: {sorted(missing)}')
for stratum in ('census', 'rest'):
    if not any(m['stratum'] == stratum for m in ms):
        sys.exit(f'no mutant in the {stratum}')
want = {
    'killed': ('lru_gen_exit_fault', '/*current->in_lru_fault = false;*/'),
    'equivalent': ('evict_folios', 'int isolated = 0, nr_isolated = -1, type, type_scanned;'),
    'nobuild': ('evict_folios', 'handle_reclaim_writeback(isolated , sc, pgdat, &stat);'),
}
for verdict, (func, new) in want.items():
    hit = [m['id'] for m in ms if m['func'] == func and m['new'].strip() == new]
    if len(hit) != 1:
        sys.exit(f'{len(hit)} mutants of {func}() read "{new}"')
    print(hit[0], verdict)
EOF
) || die "mutation: the generated mutants: $ids"

rm -f "$work/results.jsonl"
MUTATION_WORK=$work WORKERS=1 MUTATION_IDS="$(echo "$ids" | cut -d' ' -f1 | tr '\n' ' ')" \
	runner/validate/mutation.sh >"$work/run.out" 2>&1 ||
	die "mutation: the runner failed (log: $work/run.out)"
rc=0
while read -r id want; do
	got=$(sed -n "s/.*\"id\": \"$id\", \"verdict\": \"\([a-z]*\)\".*/\1/p" "$work/results.jsonl")
	if [ "$got" != "$want" ]; then
		echo "mutation: $id: $got, expected $want" >&2
		rc=1
	fi
done <<<"$ids"
[ $rc = 0 ] && echo "mutation: 3 of 3 verdicts as expected"
exit $rc
