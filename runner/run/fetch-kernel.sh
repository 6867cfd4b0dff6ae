#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch a kernel of runner/kernels.txt and extract it under
# $CACHE/src/<name>/; print the source tree's path.
#
# usage: fetch-kernel.sh NAME
#
# The package is downloaded with the suite's private apt configuration
# (debian_download, lib.sh) and extracted, never installed. A tree already
# extracted at the pinned version is reused.

. "$(dirname "$0")/../lib.sh"
set -o pipefail

name=$1
row=$(tables kernel-field "$name" package version archive suite) || exit 1
read -r pkg version archive suite <<<"$row"

src=$CACHE/src/$name
tree=$src/linux
# one fetch at a time: a second run waits, then finds the tree extracted
hold_lock "fetch-$name"
if [ "$(cat "$tree/.mglru-version" 2>/dev/null)" = "$version" ]; then
	echo "$tree"
	exit 0
fi

deb=$(debian_download "$pkg" "$version" "$archive $suite") || exit 1

note "extracting $pkg $version"
rm -rf "$src/deb" "$tree"
mkdir -p "$src" || die "cannot create $src"
dpkg-deb -x "$deb" "$src/deb" ||
	{ rm -f "$deb"; die "cannot extract $deb (removed: rerun to download it again)"; }
tarball=$(find "$src/deb/usr/src" -maxdepth 1 -name 'linux-source-*.tar.*' | head -n1)
[ -n "$tarball" ] || die "$deb holds no linux-source tarball"
mkdir -p "$tree"
tar -C "$tree" --strip-components=1 -xf "$tarball" || die "cannot extract $tarball"
rm -rf "$src/deb"
echo "$version" >"$tree/.mglru-version"
echo "$tree"
