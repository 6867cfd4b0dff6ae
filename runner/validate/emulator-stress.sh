#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# How often the emulator kills a guest: BOOTS boots of the guest kernel,
# each switching MGLRU off and on FLIPS times (emulator-stress/flip.sh),
# and for each boot the flips it made and how it ended, judged by
# runner/crash.py: "emulator" (an int3 that the text no longer holds, under
# TCG), "kernel" (any other crash) or "ok". MITIGATION picks how the guest
# runs: "none"; "quiet", no module loaded at boot that no test needs
# (vm.sh's GUEST_QUIET); "single", single-threaded TCG (vm.sh's
# TCG_THREAD=single). Writes RESULTS/boots.tsv, "<boot> <mitigation> <end>
# <flips> <seconds>", and prints the deaths per 1,000 flips.
#
# usage: emulator-stress.sh BZIMAGE RESULTS_DIR (make emulator-stress)

. "$(dirname "$0")/../lib.sh"

kernel=$1 results=$2
boots=${BOOTS:-20} flips=${FLIPS:-1000} mitigation=${MITIGATION:-none}
# (BOOTS, FLIPS and MITIGATION were checked by suite.sh, the entry point)
case $mitigation in
quiet) export GUEST_QUIET=1 ;;
single) export TCG_THREAD=single ;;
esac
GUEST_ACCEL=${GUEST_ACCEL:-$(pick_accel)} || exit 1
export GUEST_ACCEL
[ "$GUEST_ACCEL" = tcg ] ||
	die "make emulator-stress measures QEMU's TCG, and this guest runs under $GUEST_ACCEL (ACCEL=tcg)"
# a boot's own time limit: the flips take 12-18 ms each under TCG, about
# 60 ms single-threaded
export BOOT_TIMEOUT=${BOOT_TIMEOUT:-$((120 + flips / 5))}
tsv=$results/boots.tsv
mkdir -p "$results"
rm -f "$tsv"

for b in $(seq "$boots"); do
	dir=$results/boot-$b
	t0=$(date +%s)
	VM_RETRY=0 "$SUITE_ROOT/runner/run/vm.sh" run "$kernel" "$dir" \
		"sh $SUITE_ROOT/runner/validate/emulator-stress/flip.sh $flips" >"$dir.log" 2>&1
	vrc=$?
	secs=$(($(date +%s) - t0))
	made=$(sed -n 's/.*mglru-stress: flip \([0-9]*\).*$/\1/p' "$dir/console.log" | tail -n1)
	why=$(python3 "$SUITE_ROOT/runner/crash.py" "$dir/console.log" "$GUEST_ACCEL")
	case $why in
	emulator:*) end=emulator ;;
	kernel:*) end=kernel ;;
	*) [ "$vrc" = 0 ] && end=ok || end="error-$vrc" ;;
	esac
	printf '%s\t%s\t%s\t%s\t%s\n' "$b" "$mitigation" "$end" "${made:-0}" "$secs" >>"$tsv"
	note "boot $b: $end after ${made:-0} flips, ${secs}s${why:+ ($why)}"
done
awk -F'\t' -v m="$mitigation" '$2 == m { n++; f += $4; if ($3 == "emulator") d++ }
	END { printf "mglru: %s: %d boots, %d flips, %d emulator deaths: %.2f per 1,000 flips\n",
	      m, n, f, d, f ? 1000 * d / f : 0 }' "$tsv" >&2
