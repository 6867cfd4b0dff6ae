#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Source-level branch coverage of the code the MGLRU fixes changed, under
# the KUnit suites on UML: the LLVM recipe of Documentation/dev-tools/kunit/
# running_tips.rst (CONFIG_GCOV=y, which on UML with clang is source-based
# coverage; gcc 7 and later lose .gcda files there). llvm-cov counts every
# condition as written: each if, each operand of && and ||, each ?:.
# runner/validate/coverage_report.py keeps the regions mutation_gen.py
# mutates and says, for each branch, whether the suites took it both ways;
# a branch that is not has its reason in runner/validate/branch-reasons.txt
# or is listed as having none.
#
# The kernel needs clang 17 or later: clang-19 from Debian 12 (bookworm).
# OUT=DIR also writes DIR/kunit-branches.txt.

. "$(dirname "$0")/../lib.sh"

check_inputs KDIR KERNEL JOBS
if [ -n "${OUT:-}" ] && { [ ! -d "$OUT" ] || [ ! -w "$OUT" ]; }; then
	die "OUT=$OUT: not a folder this user can write"
fi
LLVM_SUFFIX=-19
EXTRA_PKGS="clang$LLVM_SUFFIX lld$LLVM_SUFFIX llvm$LLVM_SUFFIX libclang-rt$LLVM_SUFFIX-dev" \
	phase deps "$SUITE_ROOT/runner/run/deps.sh" mutation || exit 1
hold_lock "$(tree_name)-kunit"
phase tree-kunit "$SUITE_ROOT/runner/run/tree.sh" kunit || exit 1
tree=$(tree_dir kunit)
build=$CACHE/build/$(tree_name)/kunit-um-coverage
work=$CACHE/coverage/$(tree_name)
mkdir -p "$build" "$work"
rm -f "$build"/*.profraw "$work/kunit.json"

# the profile goes where LLVM_PROFILE_FILE says, when the UML kernel exits
# (one file a process: %p)
(cd "$tree" && LLVM_PROFILE_FILE="$build/kunit-%p.profraw" python3 tools/testing/kunit/kunit.py run \
	--arch=um --build_dir="$build" --jobs="$JOBS" --make_options "LLVM=$LLVM_SUFFIX" \
	--kunitconfig="$SUITE_ROOT/kunitconfig" \
	--kunitconfig=tools/testing/kunit/configs/coverage_uml.config \
	--kernel_args 'kunit.filter_glob=mglru*' --json="$work/kunit.json") >"$work/kunit.log" 2>&1
grep -q 'CONFIG_GCOV=y' "$build/.config" || die "$build/.config lacks CONFIG_GCOV=y"
# coverage of a run that did not reach its end, or failed, is no report
python3 - "$work/kunit.json" "$SUITE_ROOT/runner" <<'EOF' ||
import sys
sys.path.insert(0, sys.argv[2])
from run.kunit_cases import kunit_cases
cases = kunit_cases(sys.argv[1])
bad = {c: s for c, s in cases.items() if s != 'PASS'}
if not cases or bad:
    sys.exit(f'{len(cases)} cases, not passed: {bad}')
EOF
	die "the KUnit run under coverage did not pass (log: $work/kunit.log)"
compgen -G "$build/kunit-*.profraw" >/dev/null || die "the KUnit run wrote no profile (log: $work/kunit.log)"
"llvm-profdata$LLVM_SUFFIX" merge -sparse "$build"/kunit-*.profraw -o "$work/kunit.profdata" ||
	die "llvm-profdata could not merge $build/kunit-*.profraw"
"llvm-cov$LLVM_SUFFIX" export -format=text -skip-functions "$build/vmlinux" \
	-instr-profile "$work/kunit.profdata" \
	"$tree/mm/vmscan.c" "$tree/mm/memory.c" "$tree/include/linux/mm_inline.h" \
	"$tree/mm/folio.c" "$tree/mm/swap.c" >"$work/coverage.json" ||
	die "llvm-cov export failed"
"$VENV/bin/python3" "$SUITE_ROOT/runner/validate/coverage_report.py" "$tree" "$work/coverage.json" \
	"$SUITE_ROOT/runner/validate/branch-reasons.txt" ${OUT:+--out "$OUT/kunit-branches.txt"}
