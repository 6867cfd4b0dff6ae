#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The binary guest on stand-in packages (runner/run/fetch-image.sh): an
# image is extracted, its modules.dep written and its path printed, then
# reused; the results name it (guest_info, guest_config). Each broken
# image is one "mglru: error: ..." line: a package that does not extract,
# no kernel image, no config, a config without MGLRU, a module the
# scenarios need missing. And `make` with an image package the archive
# does not serve stops before KUnit starts.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
. tests/expect.sh
real_cache=$CACHE
version=$(tables kernel-field debian-7.3 version) || exit 1
rel=9.9.9-standin

# standin_debs DIR [SKIP...]: the stand-in packages in DIR's apt cache,
# without the parts named in SKIP (vmlinuz, config, lru_gen, a module);
# "boot" in SKIP lays them out as older packages do: /boot/vmlinuz-<release>,
# /boot/config-<release> and /lib/modules/<release>/
standin_debs()
{
	local dir=$1 pkg root m mods kfile cfile
	shift
	for pkg in standin-base standin-binary standin-modules; do
		root=$tmp/pkg/$pkg
		rm -rf "$root"
		mods=$root/usr/lib/modules/$rel kfile=$mods/vmlinuz cfile=$mods/config
		case " $* " in *" boot "*)
			mods=$root/lib/modules/$rel kfile=$root/boot/vmlinuz-$rel
			cfile=$root/boot/config-$rel ;;
		esac
		mkdir -p "$root/DEBIAN" "$mods" "$root/boot"
		printf 'Package: %s\nVersion: %s\nArchitecture: amd64\nMaintainer: mglru <mglru@localhost>\nDescription: stand-in\n' \
			"$pkg" "$version" >"$root/DEBIAN/control"
		case $pkg in
		standin-base)
			case " $* " in *" config "*) ;; *)
				printf 'CONFIG_HZ=250\nCONFIG_MEMCG=y\n' >"$cfile"
				case " $* " in *" lru_gen "*) ;; *)
					echo CONFIG_LRU_GEN=y >>"$cfile" ;;
				esac ;;
			esac ;;
		standin-binary)
			case " $* " in *" vmlinuz "*) ;; *)
				echo stand-in >"$kfile" ;;
			esac ;;
		standin-modules)
			for m in fs/9p/9p net/9p/9pnet_virtio md/dm-delay block/zram/zram \
				 block/loop fs/ext4/ext4; do
				case " $* " in *" ${m##*/} "*) continue ;; esac
				mkdir -p "$mods/kernel/${m%/*}"
				: >"$mods/kernel/$m.ko.xz"
			done
			echo kernel/drivers/virtio/virtio_pci.ko >"$mods/modules.builtin" ;;
		esac
		mkdir -p "$dir/apt/debs"
		dpkg-deb -b -Zgzip "$root" "$dir/apt/debs/${pkg}_${version}_amd64.deb" >/dev/null ||
			{ echo "FAIL: dpkg-deb -b $pkg"; exit 1; }
	done
}

# the kernels table with the stand-in packages as debian-7.3's image
sed "s/^\(debian-7.3 .*\) [^ ]*\$/\1 standin-base,standin-binary,standin-modules/" \
	runner/kernels.txt >"$tmp/kernels.txt"
export KERNELS_TABLE=$tmp/kernels.txt

# a whole stand-in image: extracted, depmod'ed, its path printed; reused
standin_debs "$tmp/good"
kimg=$(CACHE=$tmp/good runner/run/fetch-image.sh debian-7.3 2>"$tmp/err")
want=$tmp/good/images/debian-7.3/root/usr/lib/modules/$rel/vmlinuz
if [ "$kimg" = "$want" ] && [ -f "${want%/*}/modules.dep" ] &&
   grep -q '^kernel/md/dm-delay.ko.xz:' "${want%/*}/modules.dep"; then
	echo "ok   a stand-in image: ${kimg#"$tmp"/}, modules.dep written"
else
	echo "FAIL a stand-in image: got '$kimg'"
	sed 's/^/  | /' "$tmp/err"
	rc=1
fi
again=$(CACHE=$tmp/good runner/run/fetch-image.sh debian-7.3 2>&1)
if [ "$again" = "$want" ]; then
	echo "ok   the image is reused, silently"
else
	echo "FAIL the second fetch: $again"
	rc=1
fi

# what the results say of the guest
info=$(CACHE=$tmp/good bash -c '. runner/lib.sh; kernel=$1; guest_info; guest_config' - "$kimg")
for l in guest=binary image=standin-base,standin-binary,standin-modules \
	 "image_version=$version" "image_release=$rel" "${want%/*}/config"; do
	grep -qxF -- "$l" <<<"$info" || { echo "FAIL tree-info lacks '$l'"; rc=1; }
done
[ "$rc" != 0 ] || echo "ok   tree-info names the image: $(grep -c = <<<"$info") lines, its config"
hz=$(CACHE=$tmp/good bash -c '. runner/lib.sh; guest_hz')
if [ "$hz" = 250 ]; then
	echo "ok   the image's tick is its config's"
else
	echo "FAIL guest_hz of the image: $hz"
	rc=1
fi

# an image of the older layout: the results name the same release and
# the config beside the image in /boot, and take the tick from it
standin_debs "$tmp/boot" boot
kimg=$(CACHE=$tmp/boot runner/run/fetch-image.sh debian-7.3 2>"$tmp/err")
info=$(CACHE=$tmp/boot bash -c '. runner/lib.sh; kernel=$1; guest_info; guest_config; guest_hz' - "$kimg")
want=$tmp/boot/images/debian-7.3/root/boot
if [ "$kimg" = "$want/vmlinuz-$rel" ] && grep -qxF "image_release=$rel" <<<"$info" &&
   grep -qxF "$want/config-$rel" <<<"$info" && [ "$(tail -n1 <<<"$info")" = 250 ]; then
	echo "ok   an image in /boot: its release, config and tick"
else
	echo "FAIL an image in /boot: ${kimg#"$tmp"/}, $(tr '\n' ' ' <<<"$info")"
	sed 's/^/  | /' "$tmp/err"
	rc=1
fi

# each broken image, one error
broken()	# broken NAME PATTERN SKIP...
{
	local name=$1 pattern=$2
	shift 2
	rm -rf "$tmp/bad"
	standin_debs "$tmp/bad" "$@"
	expect_error "$name" "$pattern" env CACHE="$tmp/bad" runner/run/fetch-image.sh debian-7.3
}
broken "no kernel image" "hold no kernel image of $rel" vmlinuz
broken "no config" "hold no config of $rel" config
broken "a config without MGLRU" "lacks CONFIG_LRU_GEN=y" lru_gen
broken "no dm-delay module" "has no module dm-delay" dm-delay
broken "no loop module" "has no module loop" loop
rm -rf "$tmp/bad"
standin_debs "$tmp/bad"
head -c 4096 /dev/urandom >"$tmp/bad/apt/debs/standin-modules_${version}_amd64.deb"
expect_error "a package that does not extract" "cannot extract .*standin-modules" \
	env CACHE="$tmp/bad" runner/run/fetch-image.sh debian-7.3
[ -e "$tmp/bad/apt/debs/standin-modules_${version}_amd64.deb" ] &&
	{ echo "FAIL the broken package was kept"; rc=1; }
expect_error "a kernel without an image" "debian-7.2 has no binary image" \
	runner/run/fetch-image.sh debian-7.2

# make: an image package the archive does not serve stops the run before
# KUnit, after the deps (the venv is the real cache's)
sed "s/^\(debian-7.3 .*\) [^ ]*\$/\1 mglru-no-such-image/" runner/kernels.txt >"$tmp/kernels.txt"
mkdir -p "$tmp/cache"
ln -s "$real_cache/venv" "$tmp/cache/venv"
expect_error "make with an image not served" "mglru-no-such-image $version is not served" \
	env CACHE="$tmp/cache" RESULTS="$tmp/results" runner/run/suite.sh all
if grep -q 'kunit' "$tmp/err"; then
	echo "FAIL KUnit started before the image was fetched"
	rc=1
fi
exit $rc
