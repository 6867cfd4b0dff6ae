#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs that share a CACHE wait for each other on what they share: a second
# run that needs a scratch tree another run holds waits, saying so, and
# goes on once it is free; a script started by the run that holds a lock
# (MGLRU_HELD) does not wait for its own parent.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
. tests/expect.sh
export CACHE=$tmp/cache

# another run holds the 7.3 KUnit tree for 3 s
bash -c '. runner/lib.sh; hold_lock debian-7.3-kunit; : >"$1"; sleep 3' _ "$tmp/held" &
while [ ! -f "$tmp/held" ]; do sleep 0.1; done

# tree.sh for that tree must wait (killed after 1 s, before it got the lock)
expect_rc 124 "a second run waits for the tree another run holds" \
	env -u KDIR KERNEL=debian-7.3 timeout 1 runner/run/tree.sh kunit
grep -q "waiting for another run that uses debian-7.3-kunit" "$tmp/out" ||
	{ echo "FAIL: the waiting run does not say so"; rc=1; }

# once the holder is gone, the lock is free
t0=$(date +%s)
expect_rc 0 "the lock is taken once the other run ends" \
	bash -c '. runner/lib.sh; hold_lock debian-7.3-kunit'
[ $(($(date +%s) - t0)) -le 5 ] || { echo "FAIL: waited too long"; rc=1; }

# a child of the holder does not wait for its own parent
expect_rc 0 "a lock held by an ancestor is held already" \
	timeout 5 bash -c '. runner/lib.sh; hold_lock t; bash -c ". runner/lib.sh; hold_lock t"'
wait
exit $rc
