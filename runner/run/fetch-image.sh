#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch the binary kernel of a kernel of runner/kernels.txt (its image
# column: the packages that hold the built kernel and its modules), extract
# it under $CACHE/images/<name>/root/ and print the kernel image's path.
# virtme-ng boots that image and finds its modules beside it
# (root/usr/lib/modules/<release>): it loads
# those it needs to mount the host's root (9p, virtio) from an initramfs,
# and links the folder at /lib/modules/<release> in the guest, where
# modprobe finds dm-delay, zram and loop.
#
# usage: fetch-image.sh NAME
#
# The packages are downloaded with the suite's private apt configuration
# (debian_download, lib.sh) and extracted, never installed. Debian's
# packages ship no modules.dep (their postinst runs depmod): depmod writes
# it into the extracted tree. Where the image, its config and its release
# are is written to $CACHE/images/<name>/image-info, which lib.sh reads.
# A package that is not served, that does not
# extract, or that lacks a kernel image, its config, or a module the
# scenarios need is an error. An image already extracted at the pinned
# version is reused.

. "$(dirname "$0")/../lib.sh"
set -o pipefail

name=$1
row=$(tables kernel-field "$name" version archive suite image) || exit 1
read -r version archive suite image <<<"$row"
[ "$image" != - ] || die "$name has no binary image in runner/kernels.txt (GUEST=source)"

dir=$CACHE/images/$name
root=$dir/root
stamp="$version $image"
hold_lock "image-$name"
if [ "$(cat "$dir/.mglru-version" 2>/dev/null)" != "$stamp" ]; then
	rm -rf "$dir"
	mkdir -p "$root" || die "cannot create $root"
	for pkg in ${image//,/ }; do
		deb=$(debian_download "$pkg" "$version" "$archive $suite") || exit 1
		note "extracting $pkg $version"
		dpkg-deb -x "$deb" "$root" ||
			{ rm -f "$deb"; die "cannot extract $deb (removed: rerun to download it again)"; }
	done
fi

# the image, its config and its modules, of one release: Debian's
# packages put them in /usr/lib/modules/<release>/ (vmlinuz and config;
# older ones have /boot/vmlinuz-<release>, /boot/config-<release> and
# /lib/modules/<release>/)
mods=$(find "$root/usr/lib/modules" "$root/lib/modules" -mindepth 1 -maxdepth 1 \
	-type d 2>/dev/null)
if [ -z "$mods" ] || [ "$(wc -l <<<"$mods")" != 1 ]; then
	die "$name's image packages ($image) hold no single lib/modules/<release>"
fi
release=${mods##*/}
kimg=$mods/vmlinuz config=$mods/config
[ -f "$kimg" ] || kimg=$root/boot/vmlinuz-$release
[ -f "$config" ] || config=$root/boot/config-$release
[ -f "$kimg" ] || die "$name's image packages ($image) hold no kernel image of $release"
[ -f "$config" ] || die "$name's image packages ($image) hold no config of $release"

if [ "$(cat "$dir/.mglru-version" 2>/dev/null)" != "$stamp" ]; then
	depmod -b "${mods%/lib/modules/*}" "$release" 2>/dev/null ||
		die "depmod failed on $name's modules ($mods)"
	# the scenarios need MGLRU and memcg built in, and these drivers as
	# modules or built in: the 9p root, dm-delay, zram, loop and ext4
	for opt in CONFIG_LRU_GEN CONFIG_MEMCG; do
		grep -qx "$opt=y" "$config" || die "$name's image config ($config) lacks $opt=y"
	done
	for m in 9p 9pnet_virtio virtio_pci dm-delay zram loop ext4; do
		grep -Eq "/$m\\.ko(\\.[a-z]+)?:" "$mods/modules.dep" ||
			grep -Eq "/$m\\.ko\$" "$mods/modules.builtin" 2>/dev/null ||
			die "$name's image has no module $m (nor built in)"
	done
	echo "$stamp" >"$dir/.mglru-version"
fi
# where they are, for lib.sh (image_field): the one place that knows
printf 'kimg=%s\nconfig=%s\nrelease=%s\n' "$kimg" "$config" "$release" >"$dir/image-info" ||
	die "cannot write $dir/image-info"
echo "$kimg"
