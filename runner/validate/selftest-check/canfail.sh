#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the guest: each mm/mglru kselftest's failure criterion, and
# its precondition, must be able to fail. Every scenario is run with each
# control of its line in runner/selftests.txt, in the LRU modes named there
# (CONTROLS: one "<test> <mode> <arguments>" line each, which
# runner/tables.py writes on the host):
# arguments that overload it (anon churn beyond the memcg, a memcg too small
# for fio, a write delay no memcg survives) or that take its pressure away
# (a memcg that never fills, default dirty ratios), and must report
# "not ok"; the reason line is shown.
#
# usage: canfail.sh INSTALL_DIR CONTROLS

cd "$1/mm/mglru" || exit 1
rc=0
while read -r test mode args; do
	point=${test}_$mode
	# shellcheck disable=SC2086
	out=$("./$test" -m "$mode" $args 2>&1 </dev/null)
	echo "$out" | grep '^# metric' | tr '\n' ' ' | cut -c1-400
	echo
	echo "$out" | grep "^# $point: " | head -n 3
	if echo "$out" | grep -q "^not ok [0-9]* $point"; then
		echo "ok - $point fails when overloaded: -m $mode $args"
	else
		echo "not ok - $point did not fail when overloaded: -m $mode $args"
		echo "$out" | tail -n 5
		rc=1
	fi
done <"$2"
exit $rc
