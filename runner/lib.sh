# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # (variables used by the scripts that source it)
#
# Shared by the runner's scripts: paths, one-line errors and phase timing.
# Source it; do not run it.

SUITE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${CACHE:-$HOME/.cache/mglru-suite}
ARCH=${ARCH:-x86_64}
JOBS=${JOBS:-$(nproc)}
VENV=$CACHE/venv

# The embedded default kernel: Debian's packaged source.
DEBIAN_SRC_PKG=linux-source-6.12
DEBIAN_SRC_TAR=/usr/src/linux-source-6.12.tar.xz

die()
{
	echo "mglru: error: $*" >&2
	exit 1
}

note()
{
	echo "mglru: $*" >&2
}

# phase NAME CMD...: run CMD as one named phase and print one line with its
# elapsed time; the phase's own output goes to $LOGDIR/NAME.log.
phase()
{
	local name=$1 t0 rc log
	shift
	log=${LOGDIR:-$CACHE/logs}/$name.log
	mkdir -p "$(dirname "$log")"
	t0=$(date +%s)
	printf '[%(%T)T] %-24s ...\n' -1 "$name" >&2
	"$@" >"$log" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		printf '[%(%T)T] %-24s FAILED after %ss (log: %s)\n' -1 "$name" \
			$(($(date +%s) - t0)) "$log" >&2
		tail -n 15 "$log" | sed 's/^/    | /' >&2
		return $rc
	fi
	printf '[%(%T)T] %-24s done in %ss\n' -1 "$name" $(($(date +%s) - t0)) >&2
}

# The kernel source tree a run uses: KDIR if given, else the Debian one.
check_kdir()
{
	local kdir=$1

	[ -d "$kdir" ] || die "KDIR=$kdir: no such directory"
	if [ ! -f "$kdir/Makefile" ] || [ ! -f "$kdir/mm/vmscan.c" ] || [ ! -f "$kdir/Kconfig" ]; then
		die "KDIR=$kdir is not a kernel source tree (no Makefile, Kconfig and mm/vmscan.c)"
	fi
}

# A short name for a tree: "debian-<version>" or "kdir-<hash of its path>".
tree_name()
{
	if [ -n "${KDIR:-}" ]; then
		echo "kdir-$(realpath "$KDIR" | sha1sum | cut -c1-10)"
	else
		echo "debian-6.12"
	fi
}

# refresh_tree STAGING TREE: make TREE a copy of STAGING for an incremental
# build. A file whose content did not change keeps its timestamp; a changed
# one gets the current time, even when STAGING's copy is older (a variant's
# patch taken out brings back the pristine file's old mtime), so that make
# rebuilds its objects.
refresh_tree()
{
	rsync -a --no-times --checksum --delete "$1/" "$2/"
}

# The mm/mglru kselftests of a tree, built with the kselftest machinery.
KSELFTEST_INSTALL=$CACHE/build/$(tree_name)/kselftest-install

# install_kselftests TREE [BUILD INSTALL]: build TREE's mm/mglru kselftests
# in BUILD and install them, with run_kselftest.sh, in INSTALL (by default
# the cached build folder and $KSELFTEST_INSTALL).
install_kselftests()
{
	make -C "$1/tools/testing/selftests" TARGETS=mm/mglru \
		O="${2:-$CACHE/build/$(tree_name)/kselftest}" \
		INSTALL_PATH="${3:-$KSELFTEST_INSTALL}" install
}
