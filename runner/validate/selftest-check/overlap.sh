#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the guest: two runs of one mm/mglru kselftest at once. The
# second waits for the first's lock; both are killed, in both orders, with
# SIGTERM and with SIGKILL, then `TEST -C` sweeps. Every knob must be back
# at its value from before, and nothing left (state.sh). One KTAP
# line per case.
#
# usage: overlap.sh INSTALL_DIR TEST SECONDS
#   SECONDS: how long the first run runs before the second starts

install=$1 test=$2 secs=$3
lock=/run/mglru-selftest/lock
. "$(dirname "$0")/state.sh"
begin
cd "$install/mm/mglru" || exit 1

# until CMD...: poll CMD for up to 60 s
until_()
{
	i=0
	while ! "$@"; do
		i=$((i + 1))
		[ $i -lt 600 ] || return 1
		sleep 0.1
	done
}

# shellcheck disable=SC2317 # (holds and gone are called through until_)
holds()	# holds PID: PID's pid is in the lock file
{
	[ "$(cat "$lock" 2>/dev/null)" = "$1" ]
}

# shellcheck disable=SC2317
gone()	# gone PID
{
	! kill -0 "$1" 2>/dev/null
}

n=0 rc=0
echo "TAP version 13"
echo "1..4"
for sig in TERM KILL; do
	for order in first second; do
		n=$((n + 1))
		point="two runs, SIG$sig to the $order first"
		"./$test" >"$out/a" 2>&1 &
		a=$!
		until_ holds $a
		sleep "$secs"
		"./$test" >"$out/b" 2>&1 &
		b=$!
		until_ grep -q "waiting up to" "$out/b"
		waited=$?
		if [ $order = first ]; then
			kill -$sig $a
			# the second takes over the lock, sweeps the first and runs
			until_ holds $b
			took=$?
			sleep "$secs"
			kill -$sig $b
		else
			kill -$sig $b
			until_ gone $b
			took=$?
			kill -$sig $a
		fi
		wait $a $b 2>/dev/null
		"./$test" -C >"$out/sweep" 2>&1
		sleep 1
		snapshot >"$out/after"
		grep -h '^# \(cleanup\|waiting\)' "$out/b" "$out/sweep" | head -n 12
		if [ $waited -ne 0 ] || [ $took -ne 0 ]; then
			tail -n 5 "$out/a" "$out/b" | sed 's/^/# /'
			echo "not ok $n $point: the second run did not wait, or not take over"
			rc=1
		elif ! diff -u "$out/before" "$out/after" | sed 's/^/# /' | grep '^# [-+][^-+]'; then
			echo "ok $n $point"
		else
			echo "not ok $n $point: state left behind"
			rc=1
			"./$test" -C >/dev/null 2>&1
			snapshot >"$out/before"
		fi
	done
done
exit $rc
