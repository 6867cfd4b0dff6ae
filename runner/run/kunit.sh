#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the KUnit suite with the scratch tree's own kunit.py.
#
# usage: kunit.sh TREE RESULTS_DIR [ARCH]   (ARCH: um, the default, or x86_64)
# Writes RESULTS_DIR/kunit-ARCH.ktap (the kernel's KTAP output) and
# RESULTS_DIR/kunit-ARCH.json (kunit.py's parsed result).
#
# KUNIT_SANITIZE=1 builds the kernel with KASAN and UBSAN (in a build folder
# of its own) and boots it with panic_on_warn=1: any report or WARN ends the
# run, and fails it.

. "$(dirname "$0")/../lib.sh"

tree=$1 results=$2 karch=${3:-um}
[ -f "$tree/tools/testing/kunit/kunit.py" ] || die "kunit.sh: $tree has no tools/testing/kunit/kunit.py"
mkdir -p "$results"

build=$CACHE/build/$(tree_name)/kunit-$karch
sanitize=()
if [ "${KUNIT_SANITIZE:-0}" = 1 ]; then
	build=$build-sanitize
	sanitize=(--kconfig_add CONFIG_KASAN=y --kconfig_add CONFIG_UBSAN=y
		  --kernel_args panic_on_warn=1)
fi
mkdir -p "$(dirname "$build")"
make_opts=()
if command -v ccache >/dev/null; then
	export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
	make_opts=(--make_options "CC=ccache gcc")
fi

# kunit.py starts QEMU with "-accel kvm -accel hvf -accel tcg": where
# /dev/kvm cannot run our guests (kvm_pvm), QEMU takes KVM and hangs. Then
# run kunit.py in a mount namespace of its own where /dev/kvm is /dev/null,
# so that QEMU falls back to TCG.
hide_kvm=()
if [ "$karch" != um ] && [ -e /dev/kvm ] && [ "$(pick_accel 2>/dev/null)" = tcg ]; then
	note "kunit: /dev/kvm hidden from QEMU, which runs under TCG"
	hide_kvm=(unshare --mount sh -c 'mount --bind /dev/null /dev/kvm && exec "$@"' sh)
fi

cd "$tree" || exit 1
"${hide_kvm[@]}" python3 tools/testing/kunit/kunit.py run --kunitconfig="$SUITE_ROOT/kunitconfig" \
	--arch="$karch" --build_dir="$build" --jobs="$JOBS" "${make_opts[@]}" \
	--json="$results/kunit-$karch.json" --timeout=300 "${sanitize[@]}"
rc=$?
[ -f "$build/test.log" ] && cp "$build/test.log" "$results/kunit-$karch.ktap"
if [ ${#sanitize[@]} -gt 0 ]; then
	reports=$(grep -E 'BUG: KASAN|UBSAN:|WARNING:|Kernel panic' "$build/test.log")
	[ -z "$reports" ] || die "kunit.sh: the sanitized run reported: $(echo "$reports" | head -n3)"
fi
# kunit.py exits 1 when any case fails; the summary judges each case
# against the kernel's expectations. Fail here only when there is nothing
# to judge or the kernel did not run every case to its end.
json=$results/kunit-$karch.json
[ -f "$json" ] || { echo "kunit.sh: kunit.py wrote no results (exit $rc)" >&2; exit 1; }
python3 - "$json" "$SUITE_ROOT/runner" <<'EOF' || exit 1
import json, sys
sys.path.insert(0, sys.argv[2])
from run.kunit_cases import kunit_cases
# kunit.py's summary counts (newer trees) and every case's own status
misc = json.load(open(sys.argv[1])).get('misc', {})
bad = {k: misc[k] for k in ('crashed', 'errors') if misc.get(k)}
cases = kunit_cases(sys.argv[1])
bad.update({p: st for p, st in cases.items() if st not in ('PASS', 'FAIL', 'SKIP')})
if not cases or bad:
    sys.exit(f'kunit.sh: the KUnit run did not complete: {len(cases)} cases, {bad}')
EOF
[ $rc -ne 0 ] && echo "kunit.sh: some cases failed: the summary judges them" >&2
exit 0
