#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# runner/validate/interleave.py, the summary of a kernel's interleaved
# runs: the four runs of a recorded REPEAT=4 run (compare-a), each put in a
# results folder of its own as make interleave writes them, must merge
# into the summary summary.py writes of the four together: per point the
# verdict, its counts, every run's metrics and their medians. A run that
# failed counts (the control: one run's KTAP turned into a failure), and
# so does a run with no metrics. interleave.sh refuses bad input before
# any build.
# shellcheck disable=SC2317 # (same is called through expect_rc)

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
. tests/expect.sh
fx=tests/fixtures

cp -r "$fx/compare-a" "$tmp/whole"
runner/run/summary.py "$tmp/whole" >/dev/null
# split WHOLE INTO: each run of WHOLE as INTO/run-<i>, reversed in name so
# that the merge must order the runs by number, not by the listing
split()
{
	local i f
	for i in 1 2 3 4; do
		mkdir -p "$2/run-$i"
		for f in "$1"/kselftest-*.r"$i".ktap; do
			cp "$f" "$2/run-$i/$(basename "$f" .r"$i".ktap).ktap"
		done
		cp "$1/guest-uname" "$2/run-$i/"
		runner/run/summary.py "$2/run-$i" >/dev/null
	done
}
split "$tmp/whole" "$tmp/kernel"
expect_rc 0 "four single runs merge" runner/validate/interleave.py "$tmp/kernel"

# same WHOLE MERGED: the kselftest entries agree
same()
{
	python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
ea = {(e['test'], e['mode']): e for e in a['kselftest']}
eb = {(e['test'], e['mode']): e for e in b['kselftest']}
assert ea.keys() == eb.keys(), (ea.keys(), eb.keys())
for k in ea:
    for f in ('verdict', 'verdicts', 'runs', 'metrics', 'all_metrics'):
        assert ea[k].get(f) == eb[k].get(f), (k, f, ea[k].get(f), eb[k].get(f))
assert [r['run'] for r in b['interleaved']] == ['run-1', 'run-2', 'run-3', 'run-4']
PY
}
expect_rc 0 "the merge is summary.py's REPEAT=4 summary" same "$tmp/whole/summary.json" \
	"$tmp/kernel/summary.json"

# the control: run 3 of dirty_throttle fails, in both
for f in "$tmp/whole/kselftest-dirty_throttle.r3.ktap" "$tmp/kernel/run-3/kselftest-dirty_throttle.ktap"; do
	sed -i 's/^# ok 1 dirty_throttle_mglru$/# not ok 1 dirty_throttle_mglru/' "$f"
done
runner/run/summary.py "$tmp/whole" >/dev/null
runner/run/summary.py "$tmp/kernel/run-3" >/dev/null
runner/validate/interleave.py "$tmp/kernel" >"$tmp/merged.txt"
expect_rc 0 "a failed run counts in the merge as in summary.py" same \
	"$tmp/whole/summary.json" "$tmp/kernel/summary.json"
grep -q 'dirty_throttle.*mglru.*\[1/4 failed\]' "$tmp/merged.txt" ||
	{ echo "FAIL: the failed run is not counted"; cat "$tmp/merged.txt"; rc=1; }
# and the check itself: a run that differs in one folder only is seen
sed -i 's/^# ok 1 dirty_throttle_mglru$/# not ok 1 dirty_throttle_mglru/' \
	"$tmp/whole/kselftest-dirty_throttle.r4.ktap"
runner/run/summary.py "$tmp/whole" >/dev/null
expect_rc 1 "a run failed in one folder only differs" same "$tmp/whole/summary.json" \
	"$tmp/kernel/summary.json"

# The rounds, on a copy of the runner whose suite.sh only records each
# run (its kernel, variant and GUEST_KERNEL) and writes a summary: the
# order rotates each round, each kernel's first run builds it and the
# next ones boot the copy of that build, and KDIR gives way to a kernel
# the argument names.
fake=$tmp/suite
mkdir -p "$fake/patches"
cp -r runner "$fake/" && cp -r patches/variants "$fake/patches/"
cat >"$fake/runner/run/suite.sh" <<'SH'
#!/bin/bash
. "$(dirname "$0")/../lib.sh"
echo "${KERNEL:-?} $VARIANT ${KDIR:-nokdir} ${GUEST_KERNEL:+prebuilt}" >>"$CALLS"
echo "${BASE_CONFIG:+base}${GUEST_KERNEL:+prebuilt}" >>"$CALLS.base"
b=$(guest_build_dir) && mkdir -p "$b/arch/x86/boot" &&
	echo "$VARIANT" >"$b/arch/x86/boot/bzImage" && echo "CONFIG_HZ=250" >"$b/.config"
printf '{"kernel": {"variant": "%s"}, "kselftest": [{"test": "t", "mode": "mglru",
  "verdict": "PASS", "runs": 1, "verdicts": {"PASS": 1}, "metrics": {"m": %s}}], "ok": true}\n' \
	"$VARIANT" "${#VARIANT}" >"$RESULTS/summary.json"
SH
export CALLS=$tmp/calls CACHE=$tmp/cache
mkdir -p "$tmp/kdir/mm" && touch "$tmp/kdir/Makefile" "$tmp/kdir/Kconfig" "$tmp/kdir/mm/vmscan.c"
expect_rc 0 "three rounds of two kernels" env REPEAT=3 KDIR="$tmp/kdir" \
	KERNELS="debian-7.3:aging-busy debian-7.3:default" \
	"$fake/runner/validate/interleave.sh" "$tmp/rounds" debian-7.3:aging-busy debian-7.3:default
cat >"$tmp/want" <<'EOF2'
debian-7.3 aging-busy nokdir 
debian-7.3 default nokdir 
debian-7.3 default nokdir prebuilt
debian-7.3 aging-busy nokdir prebuilt
debian-7.3 aging-busy nokdir prebuilt
debian-7.3 default nokdir prebuilt
EOF2
diff "$tmp/want" "$CALLS" >/dev/null ||
	{ echo "FAIL: the rounds ran"; diff "$tmp/want" "$CALLS" | sed 's/^/  | /'; rc=1; }
if [ "$(cat "$tmp/rounds/debian-7.3+aging-busy/bzImage")" != aging-busy ] ||
   [ "$(cat "$tmp/rounds/debian-7.3+default/bzImage")" != default ]; then
	echo "FAIL: a kernel's build was not kept as its own"; rc=1
fi
python3 - "$tmp/rounds/debian-7.3+aging-busy/summary.json" <<'PY' || rc=1
import json, sys
s = json.load(open(sys.argv[1]))
e = s['kselftest'][0]
assert e['runs'] == 3 and e['all_metrics'] == [{'m': 10}] * 3, e
PY

# A BASE_CONFIG builds the first run of each kernel; the next ones boot
# that build, without it (suite.sh refuses the two together).
printf 'CONFIG_HZ_250=y\n' >"$tmp/base.config"
rm -f "$CALLS.base"
expect_rc 0 "two rounds from a BASE_CONFIG" env REPEAT=2 BASE_CONFIG="$tmp/base.config" \
	"$fake/runner/validate/interleave.sh" "$tmp/based" debian-7.3:aging-busy debian-7.3:default
printf 'base\nbase\nprebuilt\nprebuilt\n' | diff - "$CALLS.base" >/dev/null ||
	{ echo "FAIL: BASE_CONFIG went with a prebuilt kernel"; sed 's/^/  | /' "$CALLS.base"; rc=1; }

expect_error "a kernel named twice" "named twice" \
	runner/validate/interleave.sh "$tmp/out" debian-7.3:aging-busy debian-7.3:aging-busy
expect_error "an unknown variant" "not <KERNEL>:<VARIANT>" \
	runner/validate/interleave.sh "$tmp/out" debian-7.3:aging-busy debian-7.3:no-such
expect_error "one kernel" "usage" runner/validate/interleave.sh "$tmp/out" debian-7.3:aging-busy
expect_error "a VARIANT beside the kernels" "VARIANT" env VARIANT=aging-busy \
	runner/validate/interleave.sh "$tmp/out" debian-7.3:aging-busy debian-7.3
exit $rc
