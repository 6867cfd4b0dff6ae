#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what the suite needs on a fresh Debian 12 host: the kernel build
# dependencies, QEMU, the scenarios' tools (they run in the guest from the
# host's filesystem) and virtme-ng in a project venv. Installs only what is
# missing, so a warm rerun costs a few dpkg queries.
#
# usage: deps.sh [kunit|mutation|check|guest|lava|all]

. "$(dirname "$0")/../lib.sh"

what=${1:-all}

# kunit: build a UML kernel and run kunit.py; checkpatch needs perl.
pkgs_kunit="build-essential bc bison flex libelf-dev libssl-dev python3 perl
	    rsync xz-utils ccache patch debian-archive-keyring"
# guest: build an x86_64 kernel and boot it under virtme-ng; the guest runs
# the scenarios with the host's fio, dmsetup, losetup and mkfs.ext4.
pkgs_guest="cpio kmod udev qemu-system-x86 python3-venv fio dmsetup
	    e2fsprogs util-linux busybox-static"
# lava: make lava-local, a matrix cell through LAVA's own dispatcher
# (lava-run, which make check's lava check runs with --validate);
# mmdebstrap builds the rootfs image a lab would provide.
pkgs_lava="lava-dispatcher git mmdebstrap python3-jinja2 qemu-utils
	   debian-archive-keyring"

case $what in
kunit) pkgs="$pkgs_kunit" ;;
mutation) pkgs="$pkgs_kunit python3-venv" ;;
check) pkgs="$pkgs_kunit shellcheck python3-docutils lava-common $pkgs_lava" ;;
guest) pkgs="$pkgs_kunit $pkgs_guest" ;;
lava) pkgs="$pkgs_guest $pkgs_lava" ;;
all) pkgs="$pkgs_kunit $pkgs_guest shellcheck python3-docutils lava-common $pkgs_lava" ;;
*) die "deps.sh: unknown set '$what' (kunit, mutation, check, guest, lava or all)" ;;
esac
pkgs="$pkgs ${EXTRA_PKGS:-}"

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done

if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] || die "missing packages:$missing (run as root to install them)"
	note "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null 2>&1 || die "apt-get update failed"
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1 ||
		die "cannot install:$missing (apt-get install failed)"
fi

# The venv's Python packages are runner/requirements.txt; a changed file
# is reinstalled once (its hash is stamped in the venv).
if [ "$what" != kunit ]; then
	req=$SUITE_ROOT/runner/requirements.txt
	stamp=$VENV/.mglru-requirements
	if [ "$(cat "$stamp" 2>/dev/null)" != "$(sha1sum <"$req")" ]; then
		note "installing runner/requirements.txt into $VENV"
		[ -x "$VENV/bin/pip" ] || python3 -m venv "$VENV" ||
			die "cannot create the venv $VENV"
		"$VENV/bin/pip" install -q -r "$req" >/dev/null 2>&1 ||
			die "cannot install runner/requirements.txt from PyPI into $VENV"
		sha1sum <"$req" >"$stamp"
	fi
fi
exit 0
