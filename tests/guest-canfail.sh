#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the guest: each mm/mglru kselftest's failure criterion must be
# able to fail. Every scenario is run with options that overload it (anon
# churn beyond the memcg, a memcg too small for the reader, a write delay no
# memcg survives, a memcg that never reclaims) and must report "not ok".
#
# usage: guest-canfail.sh INSTALL_DIR

cd "$1/mm/mglru" || exit 1
rc=0

expect_not_ok()
{
	point=$1
	shift
	out=$("$@" 2>&1)
	echo "$out" | grep '^# metric' | tr '\n' ' ' | cut -c1-400
	echo
	if echo "$out" | grep -q "^not ok [0-9]* $point"; then
		echo "ok - $point fails when overloaded: $*"
	else
		echo "not ok - $point did not fail when overloaded: $*"
		echo "$out" | tail -n 5
		rc=1
	fi
}

# anon churn alone exceeds the memcg: the OOM kill must be reported
expect_not_ok aging_oom_mglru ./aging_oom -m mglru -M 256 -a 480 -r 2
# a memcg too small for the touched pages: the reader stalls (about
# 10 MiB/s at 24M) with few refaults counted, so the bandwidth floor fails
# it, in either LRU mode. (The classic LRU's thrash at the default size is
# the kernel's bug, not an overload: the validation matrix measures it.)
for mode in mglru classic; do
	expect_not_ok readahead_refault_$mode ./readahead_refault -m $mode -M 24 -X 30 -W 10
done
# writes delayed 10 s each into a 64M memcg
expect_not_ok dirty_throttle_mglru ./dirty_throttle -m mglru -M 64 -s 512 -d 10000 -t 60
# a memcg larger than the workload never reclaims: no split to measure
expect_not_ok swappiness_sweep_classic ./swappiness_sweep -m classic -M 1G -v 10,200 -p 4
exit $rc
