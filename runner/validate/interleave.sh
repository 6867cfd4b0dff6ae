#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run kselftests on two or more kernels in turn, in one session (make
# interleave): round i runs each kernel once, the first round in the order
# given and each next one rotated by one (A B, B A, A B, ... for two), so
# that a drift of the machine over the session (the host's load, its
# caches, the emulator's warm-up) falls on every kernel alike instead of on
# the kernel that ran last. Runs one after the other on the same kernel, as
# make kselftest REPEAT=N runs them, would put any drift between kernels.
#
# usage: interleave.sh OUT KERNEL...
# KERNEL is <KERNEL>:<VARIANT> or a VARIANT of KERNEL (KDIR), as the rows of
# expectations/matrix.txt name them; always built from source (GUEST=source)
# with the same config, so that only the variant differs.
# REPEAT (default 10) rounds; TESTS, LRU_MODE, TEST_ARGS, HZ, BASE_CONFIG,
# ACCEL, MEM, CPUS, JOBS: as for make kselftest.
#
# Each kernel's runs go to OUT/<kernel>/run-<i>/ (a make kselftest results
# folder of one run each); each kernel's first run builds it, and the next
# ones boot a copy of that build (OUT/<kernel>/bzImage), so that no run
# waits for a relink. OUT/<kernel>/summary.json then holds all its runs
# (runner/validate/interleave.py), as make kselftest REPEAT=N writes it:
# make compare A=OUT/<a> B=OUT/<b>, and runner/validate/matrix.py, read it.

. "$(dirname "$0")/../lib.sh"
set -o pipefail

[ $# -ge 3 ] || die "usage: interleave.sh OUT KERNEL KERNEL..."
out=$1
shift
export REPEAT=${REPEAT:-10}
check_inputs REPEAT KDIR KERNEL HZ ACCEL MEM CPUS JOBS TESTS LRU_MODE TEST_ARGS GUEST_APPEND BASE_CONFIG
[ -z "${GUEST_KERNEL:-}" ] || die "GUEST_KERNEL: interleave.sh builds each kernel itself"
[ "${VARIANT:-default}" = default ] || die "VARIANT: name each kernel's variant as <KERNEL>:<VARIANT>"
export GUEST=source

# each kernel checked before any build: "<kernel> <variant>", and a name
# for its folder
default=${KERNEL:-$(tables kernels | head -n 1)}
declare -a names variants dirs
for k in "$@"; do
	kv=$(tables matrix-kernel "$k" "$default") || exit 1
	read -r name variant <<<"$kv"
	case $k in
	*:*) names+=("$name"); dirs+=("$(tables on-disk "$k")") ;;
	*) names+=(""); dirs+=("$(tables on-disk "$default:$variant")") ;;
	esac
	variants+=("$variant")
done
[ "$(printf '%s\n' "${dirs[@]}" | sort -u | wc -l)" = $# ] || die "a kernel named twice"

mkdir -p "$out" || die "cannot create $out"
out=$(realpath "$out")
note "interleave: $out ($*; REPEAT=$REPEAT${TESTS:+, TESTS=$TESTS}${LRU_MODE:+, LRU_MODE=$LRU_MODE})"
t0=$(date +%s)

# run_one N ROUND: kernel N's run of ROUND
run_one()
{
	local n=$1 round=$2 dir=$out/${dirs[$1]} drop=() kenv=() bz
	local run=$dir/run-$round

	rm -rf "$run"
	mkdir -p "$run"
	# a kernel the row names replaces KDIR, as in matrix.sh
	[ -z "${names[$n]}" ] || { drop=(-u KDIR); kenv=(KERNEL="${names[$n]}"); }
	# the next rounds boot the first one's build, which BASE_CONFIG made
	[ ! -f "$dir/bzImage" ] || { drop+=(-u BASE_CONFIG); kenv+=(GUEST_KERNEL="$dir/bzImage"); }
	note "round $round: ${dirs[$n]}"
	date +%s >"$run/started"
	env "${drop[@]}" "${kenv[@]}" VARIANT="${variants[$n]}" REPEAT=1 RESULTS="$run" \
		"$SUITE_ROOT/runner/run/suite.sh" kselftest </dev/null >"$run/suite.log" 2>&1 || true
	[ -f "$run/summary.json" ] ||
		die "kernel ${dirs[$n]} produced no summary (see $run/suite.log)"
	[ -f "$dir/bzImage" ] && return 0
	# the first run built it: keep that build for the next rounds
	bz=$([ -z "${names[$n]}" ] || { unset KDIR; KERNEL=${names[$n]}; }
	     VARIANT=${variants[$n]} guest_build_dir)
	{ cp "$bz/arch/x86/boot/bzImage" "$dir/bzImage" && cp "$bz/.config" "$dir/guest.config"; } ||
		die "cannot keep the build of ${dirs[$n]} ($bz)"
}

for round in $(seq "$REPEAT"); do
	for i in $(seq 0 $(($# - 1))); do
		run_one $(((i + round - 1) % $#)) "$round"
	done
done

for d in "${dirs[@]}"; do
	echo "${d}:"
	python3 "$SUITE_ROOT/runner/validate/interleave.py" "$out/$d" || exit 1
done
note "total: $(($(date +%s) - t0))s"
