#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the KUnit suite with the scratch tree's own kunit.py.
#
# usage: kunit.sh TREE RESULTS_DIR [ARCH]   (ARCH: um, the default, or x86_64)
# Writes RESULTS_DIR/kunit-ARCH.ktap (the kernel's KTAP output) and
# RESULTS_DIR/kunit-ARCH.json (kunit.py's parsed result).

. "$(dirname "$0")/lib.sh"

tree=$1 results=$2 karch=${3:-um}
[ -f "$tree/tools/testing/kunit/kunit.py" ] || die "kunit.sh: $tree has no tools/testing/kunit/kunit.py"
case $karch in
um|x86_64) ;;
*) die "KUNIT_ARCH=$karch: only um and x86_64 are supported" ;;
esac
mkdir -p "$results"

build=$CACHE/build/$(tree_name)/kunit-$karch
mkdir -p "$(dirname "$build")"
make_opts=()
if command -v ccache >/dev/null; then
	export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
	make_opts=(--make_options "CC=ccache gcc")
fi

cd "$tree" || exit 1
python3 tools/testing/kunit/kunit.py run --kunitconfig="$SUITE_ROOT/kunitconfig" \
	--arch="$karch" --build_dir="$build" --jobs="$JOBS" "${make_opts[@]}" \
	--json="$results/kunit-$karch.json" --timeout=300
rc=$?
[ -f "$build/test.log" ] && cp "$build/test.log" "$results/kunit-$karch.ktap"
exit $rc
