#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch a kernel of runner/kernels.txt and extract it under
# $CACHE/src/<name>/; print the source tree's path.
#
# usage: fetch-kernel.sh NAME
#
# The package is downloaded with apt-get and a private configuration under
# $CACHE/apt (its own sources list, lists, cache and preferences), so that
# the host's apt sources and preferences are neither read nor changed.
# apt checks the suites' signatures against the Debian archive keyring and
# the .deb against the signed index; the .deb is extracted, never
# installed. A tree already extracted at the pinned version is reused.

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

keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || die "$keyring missing: install debian-archive-keyring"

apt=$CACHE/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/parts" \
	"$apt/prefs" "$apt/debs" "$src"
hold_lock apt

tables archives | while read -r a s; do
	echo "deb [signed-by=$keyring] $a $s main"
done >"$apt/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=$apt/sources.list"
	  -o "Dir::Etc::SourceParts=$apt/parts"
	  -o "Dir::Etc::Preferences=$apt/prefs/none"
	  -o "Dir::Etc::PreferencesParts=$apt/prefs"
	  -o "Dir::State::Lists=$apt/lists"
	  -o "Dir::Cache=$apt/cache"
	  -o "APT::Sandbox::User=root")

deb=$apt/debs/${pkg}_${version//:/%3a}_all.deb
if [ ! -f "$deb" ]; then
	served()
	{
		apt-cache "${apt_opts[@]}" madison "$pkg" 2>/dev/null |
			awk -F'|' '{ gsub(/ /, "", $2); print $2 }'
	}
	if ! served | grep -qxF "$version"; then
		note "updating the private apt lists ($apt)"
		apt-get "${apt_opts[@]}" -qq update >"$apt/update.log" 2>&1 ||
			die "apt-get update failed for the kernels' suites (log: $apt/update.log)"
	fi
	if ! served | grep -qxF "$version"; then
		die "$pkg $version is not served by $archive $suite; it serves: $(served | tr '\n' ' ')(update runner/kernels.txt)"
	fi
	note "downloading $pkg $version"
	# into a folder of its own, so that an interrupted download is never
	# taken for a whole package
	rm -rf "$apt/debs/partial"
	mkdir -p "$apt/debs/partial"
	(cd "$apt/debs/partial" && apt-get "${apt_opts[@]}" -qq download "$pkg=$version") \
		>"$apt/download.log" 2>&1 ||
		die "apt-get download $pkg=$version failed (log: $apt/download.log)"
	mv "$apt/debs/partial/${deb##*/}" "$deb" 2>/dev/null ||
		die "apt-get download left no ${deb##*/}"
fi

note "extracting $pkg $version"
rm -rf "$src/deb" "$tree"
dpkg-deb -x "$deb" "$src/deb" ||
	{ rm -f "$deb"; die "cannot extract $deb (removed: rerun to download it again)"; }
tarball=$(find "$src/deb/usr/src" -maxdepth 1 -name 'linux-source-*.tar.*' | head -n1)
[ -n "$tarball" ] || die "$deb holds no linux-source tarball"
mkdir -p "$tree"
tar -C "$tree" --strip-components=1 -xf "$tarball" || die "cannot extract $tarball"
rm -rf "$src/deb"
echo "$version" >"$tree/.mglru-version"
echo "$tree"
