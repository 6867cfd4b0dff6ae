#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: switch MGLRU off and on FLIPS times, as the kselftests do
# when they choose an LRU mode (each write of lru_gen/enabled enables or
# disables its static keys: live text patches), while one process a vCPU
# but one faults shared anonymous memory (shmem) in and out, so that the
# other vCPUs run the
# patched code (lru_gen_enabled() is tested on every folio added to an
# LRU). Each flip is logged to the console, where
# runner/validate/emulator-stress.sh counts the flips a boot made before it
# died; the first value is put back at the end.
#
# usage: flip.sh FLIPS

f=/sys/kernel/mm/lru_gen/enabled
[ -w "$f" ] || { echo "flip.sh: no $f" >&2; exit 4; }
orig=$(cat "$f")
pids=
for _ in $(seq 2 "$(nproc)"); do
	python3 -I -c '
import mmap
while True:
    m = mmap.mmap(-1, 32 << 20)
    for i in range(0, 32 << 20, 4096):
        m[i] = 1
    m.close()
' &
	pids="$pids $!"
done
echo "mglru-stress: start $1 flips, lru_gen/enabled $orig, load:$pids" >/dev/kmsg
i=0
while [ "$i" -lt "$1" ]; do
	if [ $((i % 2)) -eq 0 ]; then echo n >"$f"; else echo y >"$f"; fi || break
	i=$((i + 1))
	echo "mglru-stress: flip $i" >/dev/kmsg
done
# shellcheck disable=SC2086
[ -z "$pids" ] || kill $pids
echo "$orig" >"$f"
echo "mglru-stress: done $i flips" >/dev/kmsg
[ "$i" = "$1" ]
