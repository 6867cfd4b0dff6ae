#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare the scratch kernel tree a run builds: a copy of KDIR (or of the
# KERNEL of runner/kernels.txt) with the suite applied. The source tree itself
# is never modified. Prints the scratch tree's path on stdout.
#
# usage: tree.sh kunit|guest
#
# Applied, in order:
#   patches/<port>/*.patch  the kernel's port (kernels.txt; port-6.12 for
#                      KDIR trees) to the kunit tree when it lacks
#                      lruvec_evictable_size(), and to the guest tree only
#                      when VARIANT=port;
#   the hook           to every tree that has the helpers, unless it already
#                      has the hook: patches/hook/, or patches/<port>/hook/
#                      where the port was applied or has no other patches
#                      (port-7.2: the hook rebased onto 7.2). A tree without
#                      the helpers (a 6.12 guest) cannot build the KUnit
#                      suite and gets no hook;
#   patches/variants/$VARIANT/ to the guest tree: a validation kernel;
#   lib/tests/ and tools/testing/selftests/mm/mglru/ copied over, and
#   mm/mglru added to the kselftest TARGETS;
#   patches/<port>/tests/ to the copied suites, where the port was applied
#                      or is only a hook (port-7.2): what of the suites the
#                      older kernel can build.
#
# The copy is refreshed from a staging copy by refresh_tree (lib.sh): files
# whose content did not change keep their timestamps, so a warm rebuild is
# incremental, and changed ones are rebuilt.

. "$(dirname "$0")/../lib.sh"
set -o pipefail

role=$1
case $role in
kunit|guest) ;;
*) die "tree.sh: unknown role '$role' (kunit or guest)" ;;
esac
staging=$(tree_dir "$role").staging
tree=$(tree_dir "$role")
mkdir -p "$CACHE/trees/$(tree_name)" "$CACHE/src"

# one run at a time per scratch tree (the runner's phases already hold it)
hold_lock "$(tree_name)-$role"

if [ -n "${KDIR:-}" ]; then
	src=$(realpath "$KDIR")
	port='port-6.12'
else
	src=$("$SUITE_ROOT/runner/run/fetch-kernel.sh" "$KERNEL") || exit 1
	version=$(cat "$src/.mglru-version")
	port=$(kernel_port "$KERNEL")
fi

rsync -a --delete --exclude=/.git --exclude=/.mglru-version "$src/" "$staging/" ||
	die "cannot copy $src to $staging"
if [ -f "$staging/.config" ] || [ -d "$staging/include/config" ]; then
	# KDIR was built in-tree: O= builds need a clean source tree
	make -s -C "$staging" mrproper >/dev/null || die "make mrproper failed in $staging"
fi

cd "$staging" || exit 1
applied=

apply()
{
	local p

	for p in "$@"; do
		patch -p1 --forward --quiet <"$p" >/dev/null ||
			die "$(basename "$p") does not apply to $src"
		applied="$applied ${p#"$SUITE_ROOT"/}"
	done
}

port_dir=$SUITE_ROOT/patches/$port
ported=0
if [ "$role" = kunit ] || [ "${VARIANT:-}" = port ]; then
	if ! grep -q 'lruvec_evictable_size(' mm/vmscan.c; then
		if [ "$port" = - ] || ! compgen -G "$port_dir/*.patch" >/dev/null; then
			die "$src lacks lruvec_evictable_size() and $(tree_name) has no port"
		fi
		apply "$port_dir"/*.patch
		port_tests=$port_dir/tests
		ported=1
	fi
fi
if grep -q 'lruvec_evictable_size(' mm/vmscan.c; then
	grep -q CONFIG_MGLRU_KUNIT_TEST mm/vmscan.c ||
		apply "$SUITE_ROOT/$(hook_dir "$port" "$ported")"/*.patch
	# a port that is only a hook (no helper patches of its own) has the
	# tests cut for its kernel too
	if [ "$port" != - ] && ! compgen -G "$port_dir/*.patch" >/dev/null; then
		port_tests=$port_dir/tests
	fi
fi
if [ "$role" = guest ] && [ -n "${VARIANT:-}" ] && [ "$VARIANT" != default ] &&
   [ "$VARIANT" != port ]; then
	apply "$SUITE_ROOT/patches/variants/$VARIANT"/*.patch
fi

mkdir -p lib/tests tools/testing/selftests/mm/mglru
cp "$SUITE_ROOT"/lib/tests/mglru_*.c lib/tests/
if [ -n "${port_tests:-}" ] && [ -d "$port_tests" ]; then
	apply "$port_tests"/*.patch
fi
rsync -a --delete "$SUITE_ROOT/tools/testing/selftests/mm/mglru/" tools/testing/selftests/mm/mglru/
grep -q '^TARGETS += mm/mglru$' tools/testing/selftests/Makefile ||
	sed -i 's|^TARGETS += mm$|&\nTARGETS += mm/mglru|' tools/testing/selftests/Makefile
grep -q '^TARGETS += mm/mglru$' tools/testing/selftests/Makefile ||
	die "cannot add mm/mglru to the kselftest TARGETS of $src"

{
	echo "kernel=$(tree_name)"
	echo "source=$src"
	echo "version=${version:-$(make -s kernelversion 2>/dev/null)}"
	echo "variant=${VARIANT:-default}"
	echo "applied=${applied# }"
} >.mglru-suite

refresh_tree "$staging" "$tree" || die "cannot refresh $tree"
echo "$tree"
