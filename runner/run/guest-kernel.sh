#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Configure and build the guest kernel: allnoconfig plus the virtme-ng guest
# fragment plus the scenarios' own kselftest fragment plus the tick (HZ=),
# merged with the tree's scripts/kconfig/merge_config.sh. Prints the bzImage
# path. BASE_CONFIG=<.config> starts from that config instead of allnoconfig
# (a distribution's, reduced to what it loads with localyesconfig: the
# guest loads no module), in a build folder of its own.
#
# usage: guest-kernel.sh TREE
#
# HZ=100|250|1000 is the guest's tick; each has its own build folder, so
# switching does not rebuild the others.
# EXTRA_CONFIG=<fragment> is merged last; GUEST_BUILD overrides the build
# folder; CONFIGURE_ONLY=1 stops after the configuration and its check.

. "$(dirname "$0")/../lib.sh"

tree=$1
hz=$(guest_hz)
build=$(guest_build_dir) || exit 1
mkdir -p "$build"
printf 'CONFIG_HZ_%s=y\n' "$hz" >"$build/.mglru-hz.config"
frags=("$SUITE_ROOT/configs/vng-guest-$ARCH.config"
       "$tree/tools/testing/selftests/mm/mglru/config"
       "$build/.mglru-hz.config")
if [ -n "${EXTRA_CONFIG:-}" ]; then
	[ -f "$EXTRA_CONFIG" ] || die "EXTRA_CONFIG=$EXTRA_CONFIG: no such file"
	frags+=("$EXTRA_CONFIG")
fi

cc=gcc
if command -v ccache >/dev/null; then
	export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
	cc="ccache gcc"
fi
kmake()
{
	make -C "$tree" O="$build" ARCH="$ARCH" CC="$cc" -j"$JOBS" "$@"
}

# Reconfigure only when a fragment changed (or on the first build).
stamp=$build/.mglru-config-hash
hash=$(cat ${BASE_CONFIG:+"$BASE_CONFIG"} "${frags[@]}" | sha1sum | cut -c1-16)
if [ "$(cat "$stamp" 2>/dev/null)" != "$hash" ] || [ ! -f "$build/.config" ]; then
	if [ -n "${BASE_CONFIG:-}" ]; then
		{ cp "$BASE_CONFIG" "$build/.config" && kmake olddefconfig >/dev/null; } ||
			die "BASE_CONFIG=$BASE_CONFIG: olddefconfig failed"
	else
		kmake allnoconfig >/dev/null || die "allnoconfig failed"
	fi
	(cd "$build" && "$tree/scripts/kconfig/merge_config.sh" -m -O "$build" \
		"$build/.config" "${frags[@]}") >/dev/null || die "merge_config.sh failed"
	kmake olddefconfig >/dev/null || die "olddefconfig failed"
	echo "$hash" >"$stamp"
fi

# Every option the fragments ask for must have survived olddefconfig, and
# the scenarios cannot run without MGLRU and memcg whatever the fragments say.
# An option the tree does not define at all is a rename between kernels
# (6.12's PROC_SYSCTL is 7.x's SYSCTL; the fragment names both): skip it.
missing=$( (cat "${frags[@]}" | grep -E '^CONFIG_[A-Z0-9_]+=y'
	    printf 'CONFIG_LRU_GEN=y\nCONFIG_MEMCG=y\n') | sort -u | while read -r l; do
	grep -qx "$l" "$build/.config" && continue
	sym=${l%=y}
	# the fragment's way to trace events on allnoconfig; a base config
	# that has a tracer hides it (depends on !GENERIC_TRACER), tracing on
	[ "$sym" = CONFIG_ENABLE_DEFAULT_TRACERS ] &&
		grep -qx 'CONFIG_GENERIC_TRACER=y' "$build/.config" && continue
	grep -rqx --include='Kconfig*' "\(menu\)\?config ${sym#CONFIG_}" "$tree" || continue
	echo "$sym"
done)
[ -z "$missing" ] || die "the guest kernel config lacks $(echo "$missing" | tr "\n" " ")"
[ "${CONFIGURE_ONLY:-0}" = 1 ] && exit 0

kmake bzImage >&2 || die "guest kernel build failed"
echo "$build/arch/x86/boot/bzImage"
