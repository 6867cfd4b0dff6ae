#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make lava-local: one cell of the validation matrix through LAVA's own
# dispatcher (lava-run, Debian 12's lava-dispatcher) on this machine, as a
# lab's qemu worker would run it: the job runner/export/lava-jobs.py writes, with
# file:// URLs to what a lab provides, built here:
#
# - the cell's guest kernel (bzImage), as make kselftest builds it;
# - a Debian 12 rootfs image (mmdebstrap from deb.debian.org into the
#   cache, reused while this script's package list is unchanged): systemd,
#   root's serial login without a password, the scenarios' tools and the
#   kernel's mm/mglru kselftests at /opt/kselftest;
# - the device: LAVA's qemu device type (qemu.jinja2 and base.jinja2 from
#   Debian's lava-server package, unpacked into the cache, not installed)
#   and a device dictionary, rendered with the job's context as lava-server
#   renders it (runner/export/lava-local.py);
# - the test definition's repository: this checkout, at HEAD.
#
# Then lava-run, and LAVA's own test cases (results.yaml) against a make
# kselftest run of the same kernel (LAVA_COMPARE, default: the newest
# results folder with the cell's test on that kernel and variant).
#
# usage: lava-local.sh [run|validate|rootfs]
#   run       (default) the whole job; exits 1 when it fails or its verdict
#             differs from make's
#   validate  lava-run --validate on the job and device (no boot, no
#             network): stand-in files for the kernel and rootfs unless
#             they are built
#   rootfs    build the base rootfs only
# TESTS (one test, default readahead_refault), LRU_MODE (mglru), KERNEL,
# VARIANT, HZ, MEM, CPUS, ACCEL as for make kselftest (the cell must be in
# expectations/matrix.txt); GUEST_KERNEL=<bzImage> boots that image
# instead of building one. Output: results/<date>-lava-<cell>/ (job.yaml,
# device.yaml, lava-run.log, results.yaml, compare.txt).

. "$(dirname "$0")/../lib.sh"
set -o pipefail

what=${1:-run}
case $what in
run|validate|rootfs) ;;
*) die "lava-local.sh: unknown command '$what' (run, validate or rootfs)" ;;
esac

LAVA_CACHE=$CACHE/lava
PY=/usr/bin/python3
check_inputs KDIR KERNEL VARIANT TESTS LRU_MODE HZ ACCEL ARCH JOBS MEM CPUS GUEST_KERNEL
[ -z "${TEST_ARGS:-}" ] || die "TEST_ARGS: lava-local runs a cell as CI runs it, without a control's arguments"
# the job boots the suite's built kernel, as the matrix runs it
export GUEST=source
test=${TESTS:-readahead_refault}
mode=${LRU_MODE:-mglru}
variant=${VARIANT:-default}
case $test in
*' '*) die "TESTS=$test: make lava-local runs one test" ;;
esac
cell=$test-$mode-$(tables on-disk "$KERNEL:$variant")

# owned_dir DIR: DIR is ours (this user's, not a symlink) or absent
owned_dir()
{
	[ ! -e "$1" ] && [ ! -L "$1" ] && return 0
	if [ ! -d "$1" ] || [ -L "$1" ] || [ "$(stat -c %u "$1")" != "$(id -u)" ]; then
		die "$1 is not a directory of user $(id -un): not trusted"
	fi
}

# templates: LAVA's device types of the installed dispatcher's version,
# from the lava-server package (downloaded and unpacked, not installed)
templates()
{
	local ver dir tmp

	ver=$(dpkg-query -W -f='${Version}' lava-dispatcher 2>/dev/null) ||
		die "no lava-dispatcher (runner/run/deps.sh lava)"
	dir=$LAVA_CACHE/lava-server-$ver
	owned_dir "$LAVA_CACHE"
	owned_dir "$dir"
	if [ ! -f "$dir/usr/share/lava-server/device-types/qemu.jinja2" ]; then
		mkdir -p "$LAVA_CACHE" || die "cannot create $LAVA_CACHE"
		tmp=$(mktemp -d "$LAVA_CACHE/lava-server.XXXXXX") || die "mktemp failed"
		(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "lava-server=$ver") >&2 ||
			die "apt-get download lava-server=$ver failed"
		dpkg-deb -x "$tmp"/lava-server_*.deb "$tmp/root" || die "cannot unpack lava-server"
		rm -rf "$dir"
		mv "$tmp/root" "$dir" && rm -rf "$tmp"
	fi
	echo "$dir/usr/share/lava-server/device-types"
}

# guestfs_env: libguestfs, which puts LAVA's overlay into the rootfs
# image, boots an appliance that supermin builds from the host's kernel.
# A host with none in /boot (a container, a VM booted from outside) gets
# Debian's, unpacked into the cache with its modules' depmod. The
# appliance is cached in the cache folder, not in /var/tmp; TCG where
# /dev/kvm runs no ordinary guest (lib.sh's pick_accel).
guestfs_env()
{
	local pkg dir tmp ver

	export LIBGUESTFS_BACKEND=direct
	export LIBGUESTFS_CACHEDIR=$LAVA_CACHE/guestfs
	owned_dir "$LIBGUESTFS_CACHEDIR"
	mkdir -p "$LIBGUESTFS_CACHEDIR" || die "cannot create $LIBGUESTFS_CACHEDIR"
	[ "$(ACCEL=${ACCEL:-auto} pick_accel 2>/dev/null)" = kvm ] ||
		export LIBGUESTFS_BACKEND_SETTINGS=force_tcg
	compgen -G '/boot/vmlinuz-*' >/dev/null && return 0
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
	[ -n "$pkg" ] || die "no linux-image-amd64 in apt's lists, for libguestfs's appliance"
	dir=$LAVA_CACHE/$pkg
	owned_dir "$dir"
	if [ ! -f "$dir/.mglru-kernel" ]; then
		note "libguestfs: no kernel in /boot; unpacking Debian's $pkg into $dir"
		tmp=$(mktemp -d "$LAVA_CACHE/kernel.XXXXXX") || die "mktemp failed"
		(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$pkg") >&2 || die "apt-get download $pkg failed"
		dpkg-deb -x "$tmp"/"$pkg"_*.deb "$tmp/root" || die "cannot unpack $pkg"
		ver=$(basename "$(find "$tmp/root" -path '*/lib/modules/*' -maxdepth 4 -mindepth 3 -type d | head -n1)")
		depmod -b "$tmp/root" "$ver" || die "depmod failed for $pkg"
		echo "$ver" >"$tmp/root/.mglru-kernel"
		rm -rf "$dir"
		mv "$tmp/root" "$dir" && rm -rf "$tmp"
	fi
	ver=$(cat "$dir/.mglru-kernel")
	export SUPERMIN_KERNEL=$dir/boot/vmlinuz-$ver SUPERMIN_KERNEL_VERSION=$ver
	SUPERMIN_MODULES=$(find "$dir" -path "*/lib/modules/$ver" -maxdepth 4 -type d | head -n1)
	export SUPERMIN_MODULES
}

# The rootfs's packages: systemd for a serial login, the scenarios' tools
# (fio, dmsetup, losetup and mkswap of util-linux, mkfs.ext4, dd, mount),
# udev for dmsetup's device nodes, procps for the LAVA shell's helpers.
ROOTFS_PKGS="systemd-sysv udev fio dmsetup e2fsprogs util-linux mount procps"
ROOTFS_SUITE=bookworm
ROOTFS_MIRROR=${LAVA_ROOTFS_MIRROR:-http://deb.debian.org/debian}

# rootfs: the base tree (no kselftests), built once per package list
rootfs()
{
	local key dir tmp

	key=$(printf '%s\n' "$ROOTFS_PKGS" "$ROOTFS_SUITE" "$ROOTFS_MIRROR" \
		"$(sed -n '/^rootfs_hooks()/,/^}/p' "$0")" | sha1sum | cut -c1-12)
	dir=$LAVA_CACHE/rootfs-$key
	owned_dir "$LAVA_CACHE"
	owned_dir "$dir"
	if [ ! -f "$dir/.mglru-rootfs" ]; then
		mkdir -p "$LAVA_CACHE" || die "cannot create $LAVA_CACHE"
		tmp=$(mktemp -d "$LAVA_CACHE/rootfs.XXXXXX") || die "mktemp failed"
		note "building the rootfs (mmdebstrap $ROOTFS_SUITE, $ROOTFS_MIRROR) in $dir"
		mmdebstrap --quiet --mode=root --variant=minbase \
			--include="$(echo "$ROOTFS_PKGS" | tr ' ' ,)" \
			--dpkgopt='path-exclude=/usr/share/doc/*' \
			--dpkgopt='path-exclude=/usr/share/man/*' \
			--dpkgopt='path-exclude=/usr/share/locale/*' \
			--customize-hook="$(rootfs_hooks)" \
			"$ROOTFS_SUITE" "$tmp/root" "$ROOTFS_MIRROR" >&2 ||
			{ rm -rf "$tmp"; die "mmdebstrap failed"; }
		rm -rf "$dir"
		mv "$tmp/root" "$dir" && rm -rf "$tmp"
		date -u +%FT%TZ >"$dir/.mglru-rootfs"
	fi
	echo "$dir"
}

# rootfs_hooks: mmdebstrap's customize hook ("$1" is the tree): root logs
# in on the serial console without a password at a "root@<host>:~#"
# prompt, as the jobs expect; no fstab (root= on the command line).
rootfs_hooks()
{
	cat <<'EOF'
chroot "$1" passwd -d root &&
echo mglru-lava >"$1/etc/hostname" &&
printf '127.0.0.1 localhost\n127.0.1.1 mglru-lava\n' >"$1/etc/hosts" &&
: >"$1/etc/machine-id" &&
chroot "$1" systemctl mask systemd-timesyncd.service apt-daily.timer apt-daily-upgrade.timer 2>/dev/null;
true
EOF
}

# image BASE KSELFTESTS OUT: the raw ext4 rootfs image, BASE plus the
# kselftest install at /opt/kselftest (called through phase)
# shellcheck disable=SC2317
image()
{
	local base=$1 ksft=$2 out=$3 stage mib

	stage=$(mktemp -d "$run/stage.XXXXXX") || return 1
	if ! cp -al "$base/." "$stage/" || ! rm -f "$stage/.mglru-rootfs" ||
	   ! mkdir -p "$stage/opt" || ! cp -a "$ksft" "$stage/opt/kselftest"; then
		echo "cannot stage the rootfs"
		rm -rf "$stage"
		return 1
	fi
	# the data: room for LAVA's overlay and the tests' logs (the tests'
	# files are on their own tmpfs)
	mib=$(( $(du -sm "$stage" | cut -f1) + 256 ))
	mkfs.ext4 -q -F -L mglru-root -d "$stage" "$out" "${mib}M" ||
		{ echo "mkfs.ext4 -d failed"; rm -rf "$stage"; return 1; }
	rm -rf "$stage"
}

if [ "$what" = rootfs ]; then
	rootfs >/dev/null && guestfs_env
	exit
fi

phase deps "$SUITE_ROOT/runner/run/deps.sh" lava || exit 1
command -v lava-run >/dev/null || die "no lava-run (runner/run/deps.sh lava)"
[ "$(id -u)" = 0 ] || die "lava-run runs as root only"
types=$(templates) || exit 1

run=${RESULTS:-$SUITE_ROOT/results/$(date +%Y%m%d-%H%M%S)-lava-$cell}
mkdir -p "$run" || die "cannot create $run"
run=$(realpath "$run")
owned_dir "$run"
export LOGDIR=$run/logs
mkdir -p "$LOGDIR" || die "cannot create $LOGDIR"
note "lava-local: $run"
t0=$(date +%s)

# the kernel and the kselftests, built as make kselftest builds them,
# under the kernel's guest lock (released once copied)
if [ "$what" = run ]; then
	rootfs=$(rootfs) || exit 1
	(
		hold_lock "$(tree_name)-guest"
		prepare_guest || exit 1
		cp "$kernel" "$run/bzImage" || exit 1
		phase kselftest-build install_kselftests "$gtree" || exit 1
		cp -a "$KSELFTEST_INSTALL" "$run/kselftest" || exit 1
		cp "$gtree/.mglru-suite" "$run/tree-info"
	) || die "no kernel or kselftests for $KERNEL:$variant"
	phase rootfs-image image "$rootfs" "$run/kselftest" "$run/rootfs.ext4" || exit 1
else
	# validation reads the artifacts' names, not their content
	for f in bzImage rootfs.ext4; do
		[ -e "$run/$f" ] || : >"$run/$f"
	done
fi

# the job: runner/export/lava-jobs.py's, for this cell, with file:// URLs and this
# checkout as the test definition's repository
rev=$(git -C "$SUITE_ROOT" rev-parse HEAD) || die "$SUITE_ROOT is not a git checkout"
git -C "$SUITE_ROOT" diff --quiet HEAD -- lava ||
	note "warning: lava/ has uncommitted changes: the job runs HEAD's"
LAVA_KERNEL_URL="file://$run/bzImage" LAVA_ROOTFS_URL="file://$run/rootfs.ext4" \
	LAVA_TESTDEF_REPO=$SUITE_ROOT LAVA_TESTDEF_REVISION=$rev \
	LAVA_MODULES_URL='' ACCEL=${ACCEL:-auto} \
	"$SUITE_ROOT/runner/export/lava-jobs.py" --out "$run/jobs" 2>"$LOGDIR/lava-jobs.log" ||
	die "runner/export/lava-jobs.py failed (see $LOGDIR/lava-jobs.log)"
[ -f "$run/jobs/$cell.yaml" ] ||
	die "no cell $cell in expectations/matrix.txt (cells: $(find "$run/jobs" -name '*.yaml' -printf '%f ' | sed 's/\.yaml//g'))"
cp "$run/jobs/$cell.yaml" "$run/job.yaml"
"$PY" "$SUITE_ROOT/runner/export/lava-local.py" device "$types" "$run/job.yaml" "$run/device.yaml" ||
	die "cannot render the device dictionary"
# the dispatcher's own configuration: no network lookup for its address
printf 'dispatcher_ip: 127.0.0.1\nprefix: mglru-\n' >"$run/dispatcher.yaml"
# a lab's job id is a number: the dispatcher names the guest's /lava-<id>
# and its own /var/lib/lava/dispatcher/tmp/<prefix><id> after it
job_id=$(date +%Y%m%d%H%M%S)$$
trap 'rm -rf "/var/lib/lava/dispatcher/tmp/mglru-$job_id"' EXIT

if [ "$what" = validate ]; then
	lava-run --validate --job-id "$job_id" --output-dir "$run/lava" \
		--device "$run/device.yaml" --dispatcher "$run/dispatcher.yaml" \
		"$run/job.yaml" >"$run/lava-validate.log" 2>&1
	rc=$?
	grep -q '"case": "validate", "definition": "lava", "result": "pass"' \
		"$run/lava-validate.log" || rc=1
	[ "$rc" = 0 ] || { grep -E '"lvl": "(error|exception)"|rror' \
		"$run/lava-validate.log" | tail -n 5 >&2; die "lava-run --validate failed"; }
	note "lava-run --validate: valid ($(($(date +%s) - t0))s)"
	exit 0
fi

guestfs_env
note "lava-run: job $job_id ($cell)"
rc=0
lava-run --job-id "$job_id" --output-dir "$run/lava" \
	--device "$run/device.yaml" --dispatcher "$run/dispatcher.yaml" \
	"$run/job.yaml" >"$run/lava-run.log" 2>&1 || rc=1
rm -f "$run/rootfs.ext4"
note "lava-run: exit $rc ($(($(date +%s) - t0))s); log $run/lava-run.log"
"$PY" "$SUITE_ROOT/runner/export/lava-local.py" results "$run/lava-run.log" "$run/results.yaml" || rc=1
"$PY" "$SUITE_ROOT/runner/export/lava-local.py" memory "$run/lava-run.log" \
	"$(sed -n 's/^  memory: //p' "$run/job.yaml")" | tee "$run/compare.txt" || rc=1
grep -h '"lvl": "error"\|"error_msg"' "$run/lava-run.log" | tail -n 3 >&2

# make's verdict for the same kernel: the run with the most runs of the
# cell's test on that kernel, variant and tick, the newest of those
cmp=${LAVA_COMPARE:-}
if [ -z "$cmp" ]; then
	cmp=$("$PY" - "$KERNEL" "$variant" "$test" "$mode" "$(guest_hz)" \
		"$SUITE_ROOT"/results/*/summary.json \
		"$SUITE_ROOT"/results/*-matrix*/*/*/summary.json <<'PY'
import json, os, sys
kernel, variant, test, mode, hz = sys.argv[1:6]
best = []
for s in sys.argv[6:]:
    try:
        d = json.load(open(s))
    except (OSError, ValueError):
        continue
    k = d.get('kernel', {})
    if k.get('kernel') != kernel or k.get('variant') != variant or str(k.get('hz')) != hz:
        continue
    runs = max([e['runs'] for e in d.get('kselftest', [])
                if e['test'] == test and e['mode'] == mode] or [0])
    if runs:
        best.append((runs, os.path.getmtime(s), s))
print(max(best)[2] if best else '')
PY
)
fi
[ -d "$cmp" ] && cmp=$cmp/summary.json
if [ -f "$cmp" ]; then
	"$PY" "$SUITE_ROOT/runner/export/lava-local.py" compare "$run/results.yaml" "$cmp" \
		"$test" "$mode" | tee -a "$run/compare.txt" || rc=1
else
	note "no make kselftest run of $KERNEL:$variant at HZ=$(guest_hz) with $test $mode to compare with (LAVA_COMPARE=<results>)"
fi
note "total: $(($(date +%s) - t0))s"
exit $rc
