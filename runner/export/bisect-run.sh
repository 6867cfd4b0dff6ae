#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A git bisect oracle: run from a kernel tree by
#
#   git bisect run <suite>/runner/export/bisect-run.sh
#
# with TEST=<kselftest> and LRU_MODE=mglru|classic in the environment. It
# builds the guest kernel from the tree at HEAD (incrementally: the suite's
# scratch copy of the tree keeps its build), runs that one test point
# REPEAT times (default 3) and exits as git bisect run wants:
#
#   0    good: the runs passed
#   1    bad: the runs failed, or the kernel crashed (panic, Oops, BUG,
#        soft lockup) during the scenario, or the guest was killed at the
#        runner's outer timeout while the test was still running
#   125  cannot test: the build or the boot failed, the test was skipped
#        (a precondition not met), or the runs did not agree enough
#   128  bad input (aborts the bisection before anything slow runs),
#        REPEAT too small for the point included
#
# A step is judged only when its verdict is wrong with at most 5% chance
# (runner/export/bisect_verdict.py says how, and prints the chance each step).
# KDIR defaults to the git top level of the working directory; VARIANT,
# ACCEL, MEM, CPUS, CACHE and GUEST_KERNEL (a prebuilt guest kernel: no
# build) are passed on to the runner. Each step's results go to
# results/bisect/<commit>-<time>/ (RESULTS= names another folder).

. "$(dirname "$0")/../lib.sh"
suite=$SUITE_ROOT

abort()
{
	echo "mglru: error: $*" >&2
	exit 128
}

KDIR=${KDIR:-$(git rev-parse --show-toplevel 2>/dev/null)} ||
	abort "not in a git kernel tree (run it from one, or set KDIR)"
REPEAT=${REPEAT:-3}
# the variables' checks, as for make kselftest, with git bisect run's status
(check_inputs KDIR REPEAT LRU_MODE VARIANT GUEST_KERNEL HZ ACCEL ARCH JOBS MEM CPUS GUEST_APPEND) || exit 128
[ -n "${TEST:-}" ] || abort "TEST=<kselftest> is required (one of: $(selftest_names | tr '\n' ' '))"
selftest_names | grep -qx -- "$TEST" ||
	abort "TEST=$TEST: unknown test (known: $(selftest_names | tr '\n' ' '))"
[ -n "${LRU_MODE:-}" ] || abort "LRU_MODE= is required: mglru or classic"
# a REPEAT too small for the point: its one-line error
python3 "$suite/runner/export/bisect_verdict.py" --check "$TEST" "$LRU_MODE" "$REPEAT" || exit 128

commit=$(git -C "$KDIR" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
results=${RESULTS:-$suite/results/bisect/$commit-$(date +%Y%m%d-%H%M%S)}
note "bisect: $commit: $TEST ($LRU_MODE) x $REPEAT into $results"
KDIR=$KDIR TESTS=$TEST LRU_MODE=$LRU_MODE REPEAT=$REPEAT RESULTS=$results \
	"$suite/runner/run/suite.sh" kselftest >&2
# the suite's own exit says whether the verdicts met the expectations,
# which a bisection does not care about: the runs' verdicts decide
python3 "$suite/runner/export/bisect_verdict.py" "$results" "$TEST" "$LRU_MODE" "$REPEAT"
