#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The binary image's config, reduced to what its guest runs: the modules
# the image loaded in a run of make kselftest (each run's /proc/modules,
# guest-*/*.modules) built in (make localyesconfig), every other module
# left out. BASE_CONFIG=<it> then builds a source guest as close to the
# image as the suite's own guests are to allnoconfig, to bisect what of the
# image's config moves a result (doc/runner.rst).
#
# usage: image-config.sh RESULTS OUT
# RESULTS is a make kselftest results folder of the binary image (its
# tree-info says guest=binary); OUT the reduced config to write. KERNEL
# (default: the run's) names the tree whose kconfig reduces it.

. "$(dirname "$0")/../lib.sh"

[ $# = 2 ] || die "usage: image-config.sh RESULTS OUT"
results=$1 out=$2
[ -f "$results/tree-info" ] || die "$results: no tree-info (not a make kselftest results folder)"
grep -qx 'guest=binary' "$results/tree-info" ||
	die "$results: not a run of the binary image (tree-info has no guest=binary)"
KERNEL=$(sed -n 's/^kernel=//p' "$results/tree-info")
check_inputs KERNEL
config=$(image_field config)
[ -f "$config" ] || die "no config of $KERNEL's image: run make kselftest on it first"
mods=$(cat "$results"/guest-*/*.modules 2>/dev/null | awk '{ print $1 }' | sort -u)
[ -n "$mods" ] || die "$results: no guest-*/*.modules (a run made before the runner kept them)"

tree=$(tree_dir guest)
[ -f "$tree/scripts/kconfig/streamline_config.pl" ] ||
	die "no guest tree of $KERNEL with kconfig's streamline_config.pl: run make kselftest first"
work=$(mktemp -d) || die "no scratch folder"
trap 'rm -rf "$work"' EXIT
echo "$mods" >"$work/lsmod"
cp "$config" "$work/.config"
make -C "$tree" O="$work" LSMOD="$work/lsmod" localyesconfig >"$work/log" 2>&1 ||
	die "make localyesconfig failed: $(tail -n 3 "$work/log")"
cp "$work/.config" "$out" || die "cannot write $out"
note "$out: $(grep -c '=y$' "$out") options built in, $(echo "$mods" | wc -l) modules of the run among them"
