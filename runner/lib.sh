# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # (variables used by the scripts that source it)
#
# Shared by the runner's scripts: paths, one-line errors, phase timing,
# locks and the check of each input variable. Source it; do not run it.

SUITE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=$(realpath -m "${CACHE:-$HOME/.cache/mglru-suite}")
ARCH=${ARCH:-x86_64}
JOBS=${JOBS:-$(nproc)}
VENV=$CACHE/venv

# The suite's tables (kernels.txt, selftests.txt, the matrix and the
# expectations) are read by runner/tables.py alone: tables ARGS... runs it.
tables()
{
	python3 "$SUITE_ROOT/runner/tables.py" "$@"
}

# kernel_names: the known kernel names, the default first, on one line.
kernel_names()
{
	local names

	names=$(tables kernels) || return 1
	echo "${names//$'\n'/ }"
}

# kernel_port NAME: the port NAME's tree needs (a folder of patches/), or -
kernel_port()
{
	tables kernel-field "$1" port
}

# hook_dir PORT PORTED: the folder of the KUnit hook's patches, relative to
# the suite: the port's own hook (patches/PORT/hook/) where the tree got
# the port's helpers (PORTED 1) or where the port is nothing but a hook
# (port-7.2), else patches/hook/
hook_dir()
{
	local d=patches/$1

	if [ "$1" != - ] && [ -d "$SUITE_ROOT/$d/hook" ] &&
	   { [ "$2" = 1 ] || ! compgen -G "$SUITE_ROOT/$d/*.patch" >/dev/null; }; then
		echo "$d/hook"
	else
		echo patches/hook
	fi
}

KERNEL=${KERNEL:-$(tables kernels | head -n 1)}

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
		# (EX_EMULATOR: vm.sh's status for a guest that the emulator crashed)
		local what=FAILED
		[ $rc -ne "$EX_EMULATOR" ] || what="EMULATOR CRASH"
		printf '[%(%T)T] %-24s %s after %ss (log: %s)\n' -1 "$name" "$what" \
			$(($(date +%s) - t0)) "$log" >&2
		tail -n 15 "$log" | sed 's/^/    | /' >&2
		return $rc
	fi
	printf '[%(%T)T] %-24s done in %ss\n' -1 "$name" $(($(date +%s) - t0)) >&2
}

# build_failed NAME LOG [TREE_INFO]: record in $RESULTS/build-NAME.failed
# (key=value lines, for runner/export/kcidb.py) that the build NAME failed, with
# its log and the tree's .mglru-suite as tree-info. status=FAIL when the
# compiler, the linker or make found an error in the code, else ERROR: the
# configuration, the tools or the machine (a disk or memory exhausted).
BUILD_CODE_ERROR='^[^ :]+:[0-9]+(:[0-9]+)?: (fatal )?error: |undefined reference to '
BUILD_CODE_ERROR+='|multiple definition of |No rule to make target |^ERROR: modpost: '
BUILD_MACHINE_ERROR='No space left on device|Disk quota exceeded|Read-only file system'
BUILD_MACHINE_ERROR+='|Killed signal terminated program|virtual memory exhausted|Cannot allocate memory'
build_failed()
{
	local status=ERROR

	if grep -qE "$BUILD_CODE_ERROR" "$2" && ! grep -qE "$BUILD_MACHINE_ERROR" "$2"; then
		status=FAIL
	fi
	[ -z "${3:-}" ] || [ "$3" -ef "$RESULTS/tree-info" ] || cp "$3" "$RESULTS/tree-info"
	printf 'build=%s\nstatus=%s\nphase=build-%s\nlog=%s\nhz=%s\n' "$1" "$status" "$1" \
		"${2#"$RESULTS"/}" "$(guest_hz)" >"$RESULTS/build-$1.failed"
	note "build $1: $status, recorded in $RESULTS/build-$1.failed (make kcidb R=$RESULTS)"
}

# live MODULE_DIR: the module is loaded and initialised (a module built in
# has no initstate: its folder is enough)
live()
{
	[ -d "$1" ] || return 1
	[ ! -f "$1/initstate" ] || [ "$(cat "$1/initstate")" = live ]
}

# pick_accel: KVM where the host's /dev/kvm runs ordinary guests, else TCG.
# kvm_pvm (PVM) serves /dev/kvm on some hosts but runs only PVM-built guest
# kernels, so it is told apart by the module that provides /dev/kvm rather
# than by a boot that cannot succeed.
pick_accel()
{
	local why='' sysmod

	[ "${ACCEL:-auto}" != tcg ] || { echo tcg; return; }
	sysmod=${SYSFS_MODULES:-/sys/module}
	if [ ! -w "${KVM_DEV:-/dev/kvm}" ]; then
		why="no usable /dev/kvm"
	elif [ -d "$sysmod/kvm_pvm" ]; then
		why="/dev/kvm is served by kvm_pvm, which runs only PVM guest kernels"
	elif live "$sysmod/kvm_intel" || live "$sysmod/kvm_amd"; then
		note "accelerator: kvm"
		echo kvm
		return
	else
		why="/dev/kvm has neither kvm_intel nor kvm_amd behind it"
	fi
	[ "${ACCEL:-auto}" = kvm ] && die "ACCEL=kvm but $why"
	note "accelerator: tcg ($why)"
	echo tcg
}

# A guest that the emulator killed (runner/crash.py) is an infrastructure
# error, never the kernel's failure: vm.sh exits with this status when the
# emulator crashed the guest again after its retry (or at once, VM_RETRY=0).
EX_EMULATOR=75

# max_attempts: how often a command is booted at most: once, and once more
# after the emulator's crash (runner/crash.py's ATTEMPTS)
max_attempts()
{
	python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import crash; print(crash.ATTEMPTS)' \
		"$SUITE_ROOT/runner"
}

# keep_attempt DIR [FILE...]: move the files of a boot that the emulator
# crashed (its console, output, status, error and reason, and FILEs of
# DIR) to DIR/attempt1/, or DIR/attempt1.N where DIR holds one already
keep_attempt()
{
	local dir=$1 to f n=1
	shift
	to=$dir/attempt1
	while [ -e "$to" ]; do
		n=$((n + 1))
		to=$dir/attempt1.$n
	done
	mkdir -p "$to"
	for f in console.log guest.out guest.rc guest.err guest.emulator "$@"; do
		[ ! -e "$dir/$f" ] || mv "$dir/$f" "$to/"
	done
}

# emulator_death CONSOLE ACCEL: print why CONSOLE shows a guest that the
# emulator crashed, and succeed; fail when it does not (no crash, or the
# kernel's)
emulator_death()
{
	local why

	why=$(python3 "$SUITE_ROOT/runner/crash.py" "$1" "$2") || return 1
	case $why in
	emulator:*) echo "${why#emulator: }" ;;
	*) return 1 ;;
	esac
}

# guest_hz: the guest kernel's tick, HZ=100, 250 or 1000 (default below);
# the binary image's own tick when the guest is one.
# The kselftest fragment sets no tick: a CI kernel keeps its own.
GUEST_HZ_DEFAULT=250
guest_hz()
{
	local hz

	if [ -z "${HZ:-}" ] && [ "$(guest_kind)" = binary ]; then
		hz=$(sed -n 's/^CONFIG_HZ=//p' "$(image_field config)" 2>/dev/null)
		echo "${hz:-$GUEST_HZ_DEFAULT}"
		return
	fi
	echo "${HZ:-$GUEST_HZ_DEFAULT}"
}

# guest_kind: the kernel the guest boots. "prebuilt": GUEST_KERNEL's;
# "binary": the kernel's Debian binary image (its image column in
# runner/kernels.txt), the default; "source": the guest kernel built from
# the source tree, with the suite's config. A binary image is booted only
# for a kernel of runner/kernels.txt that has one, as shipped: KDIR, a
# VARIANT (a patched kernel), HZ= (another tick, or the same one built
# from the same config as the other ticks) and GUEST=source build from
# source.
guest_kind()
{
	if [ -n "${GUEST_KERNEL:-}" ]; then
		echo prebuilt
	elif [ "${GUEST:-auto}" = source ] || [ -n "${KDIR:-}" ] || [ -n "${HZ:-}" ] ||
	     [ -n "${BASE_CONFIG:-}" ] ||
	     [ "${VARIANT:-default}" != default ] ||
	     [ "$(tables kernel-field "$KERNEL" image)" = - ]; then
		echo source
	else
		echo binary
	fi
}

# image_dir: where runner/run/fetch-image.sh extracts KERNEL's image.
image_dir()
{
	echo "$CACHE/images/$KERNEL"
}

# image_field KEY: the kernel image (kimg), its config or its release, as
# runner/run/fetch-image.sh found them in KERNEL's image; empty before it
# ran.
image_field()
{
	sed -n "s/^$1=//p" "$(image_dir)/image-info" 2>/dev/null
}

# hold_lock NAME: hold $CACHE/locks/NAME.lock until this process exits,
# saying so when another run holds it. Runs that share a cache serialise on
# what they share: a kernel's fetch, a scratch tree and its build. A lock
# an ancestor holds (MGLRU_HELD) is held already: taking it again through
# another open file would wait for ever.
hold_lock()
{
	local fd

	case " ${MGLRU_HELD:-} " in
	*" $1 "*) return 0 ;;
	esac
	mkdir -p "$CACHE/locks" || die "cannot create $CACHE/locks"
	exec {fd}>>"$CACHE/locks/$1.lock" || die "cannot open $CACHE/locks/$1.lock"
	if ! flock -n "$fd"; then
		note "waiting for another run that uses $1"
		flock "$fd" || die "cannot lock $CACHE/locks/$1.lock"
	fi
	export MGLRU_HELD="${MGLRU_HELD:-} $1"
}

# debian_download PKG VERSION WHERE: download the Debian package PKG at
# VERSION into $CACHE/apt/debs/ (once) and print the .deb's path; WHERE
# ("<archive> <suite>") names the kernel's archive in the errors. apt-get
# runs with a private configuration under $CACHE/apt (its own sources list,
# lists, cache and preferences, the suites of runner/kernels.txt), so that
# the host's apt sources and preferences are neither read nor changed. apt
# checks the suites' signatures against the Debian archive keyring and the
# .deb against the signed index. A version the archive does not serve is an
# error that lists the versions it does.
debian_download()
{
	local pkg=$1 version=$2 where=$3 apt=$CACHE/apt keyring deb
	local -a apt_opts

	deb=$(find "$apt/debs" -maxdepth 1 -name "${pkg}_${version//:/%3a}_*.deb" 2>/dev/null | head -n1)
	if [ -n "$deb" ]; then
		echo "$deb"
		return 0
	fi
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	[ -f "$keyring" ] || die "$keyring missing: install debian-archive-keyring"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/parts" \
		"$apt/prefs" "$apt/debs"
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
	served | grep -qxF "$version" ||
		die "$pkg $version is not served by $where; it serves: $(served | tr '\n' ' ')(update runner/kernels.txt)"
	note "downloading $pkg $version"
	# into a folder of its own, so that an interrupted download is never
	# taken for a whole package
	rm -rf "$apt/debs/partial"
	mkdir -p "$apt/debs/partial"
	(cd "$apt/debs/partial" && apt-get "${apt_opts[@]}" -qq download "$pkg=$version") \
		>"$apt/download.log" 2>&1 ||
		die "apt-get download $pkg=$version failed (log: $apt/download.log)"
	deb=$(find "$apt/debs/partial" -maxdepth 1 -name "${pkg}_*.deb" | head -n1)
	[ -n "$deb" ] || die "apt-get download left no ${pkg}_*.deb"
	mv "$deb" "$apt/debs/" || die "cannot move $deb to $apt/debs/"
	echo "$apt/debs/${deb##*/}"
}

# A short name for a tree: KERNEL's name or "kdir-<hash of its path>".
tree_name()
{
	if [ -n "${KDIR:-}" ]; then
		echo "kdir-$(realpath "$KDIR" | sha1sum | cut -c1-10)"
	else
		echo "$KERNEL"
	fi
}

# tree_dir ROLE: where runner/run/tree.sh ROLE (kunit or guest) puts the tree.
tree_dir()
{
	echo "$CACHE/trees/$(tree_name)/$1"
}

# guest_build_dir: runner/run/guest-kernel.sh's build folder, one a tick (HZ=);
# GUEST_BUILD overrides it. Its bzImage is the guest kernel.
guest_build_dir()
{
	local base=

	# a base config of its own builds apart, by its content
	[ -z "${BASE_CONFIG:-}" ] || base=-base$(sha1sum <"$BASE_CONFIG" | cut -c1-10)
	echo "${GUEST_BUILD:-$CACHE/build/$(tree_name)/guest-$ARCH-hz$(guest_hz)$base}"
}

# prepare_image: for a binary guest, its image fetched (once; a package
# that is missing or broken is an error before any slow work) in the
# caller's kernel. Nothing for the other guests.
prepare_image()
{
	[ "$(guest_kind)" = binary ] || return 0
	[ -z "${kernel:-}" ] || return 0
	phase fetch-image "$SUITE_ROOT/runner/run/fetch-image.sh" "$KERNEL" || return 1
	kernel=$(image_field kimg)
	[ -n "$kernel" ] || die "no kernel image in $(image_dir)/image-info"
	note "guest kernel: $kernel (Debian's binary image, not built)"
}

# prepare_guest: the guest tree refreshed (its kselftests are built from
# it), and the guest kernel in the caller's kernel: the binary image, or
# GUEST_KERNEL's, or built. A build that fails is recorded in RESULTS,
# when there is one, for make kcidb.
prepare_guest()
{
	phase tree-guest "$SUITE_ROOT/runner/run/tree.sh" guest || return 1
	gtree=$(tree_dir guest)
	case $(guest_kind) in
	prebuilt)
		kernel=$(realpath "$GUEST_KERNEL")
		note "guest kernel: $kernel (GUEST_KERNEL, not built)"
		return 0
		;;
	binary)
		prepare_image
		return
		;;
	esac
	if ! phase build-guest "$SUITE_ROOT/runner/run/guest-kernel.sh" "$gtree"; then
		[ -z "${RESULTS:-}" ] ||
			build_failed guest "$LOGDIR/build-guest.log" "$gtree/.mglru-suite"
		return 1
	fi
	kernel=$(guest_build_dir)/arch/x86/boot/bzImage
}

# guest_info: key=value lines on the guest kernel, for the results'
# tree-info (after the tree's own .mglru-suite): which kernel the guest
# booted, and for a binary image its packages, version and release.
guest_info()
{
	local kind

	kind=$(guest_kind)
	echo "guest=$kind"
	[ "$kind" = binary ] || return 0
	tables kernel-field "$KERNEL" image version | {
		read -r image version
		echo "image=$image"
		echo "image_version=$version"
	}
	echo "image_release=$(image_field release)"
}

# guest_config: the guest kernel's .config, for the results (none for a
# GUEST_KERNEL image).
guest_config()
{
	case $(guest_kind) in
	binary) image_field config ;;
	source) echo "$(guest_build_dir)/.config" ;;
	esac
}

# expectations_file: the expectations a run is judged by. EXPECT= if
# given; else the kernel's own (KERNEL, or for KDIR the kernels.txt row
# whose upstream version is the tree's `make kernelversion`), for the run's
# VARIANT, or "binary" for its binary image; else, for a KDIR tree of another version, the default kernel's,
# with a note. Prints nothing when the kernel has no file for VARIANT.
expectations_file()
{
	local name=$KERNEL version row variant=${VARIANT:-default}

	if [ -n "${EXPECT:-}" ]; then
		realpath "$EXPECT"
		return
	fi
	if [ -n "${KDIR:-}" ]; then
		version=$(make -s -C "$KDIR" kernelversion 2>/dev/null)
		row=$(tables kernel-of-version "$version")
		name=${row:-$(tables kernels | head -n 1)}
		[ -n "$row" ] ||
			note "KDIR's version ${version:-unknown} is no kernel of runner/kernels.txt: judged by $name's expectations (EXPECT= to choose)"
	fi
	# a binary guest has expectations of its own (its config is Debian's)
	[ "$(guest_kind)" = binary ] && variant=binary
	tables expect-file "$name" "$variant"
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

# slow_env: under TCG, the environment that marks the guest a slow machine
# as kernel CI does (KSFT_MACHINE_SLOW=yes: the tests' time limits x3).
slow_env()
{
	[ "${GUEST_ACCEL:-}" != tcg ] || printf 'KSFT_MACHINE_SLOW=yes '
}

# ksft_args_var TEST: the kselftest runner's variable of TEST's arguments,
# KSELFTEST_<TEST>_ARGS, named as runner.sh names it.
ksft_args_var()
{
	printf 'KSELFTEST_%s_ARGS' "$(printf %s "$1" | tr '[:lower:]' '[:upper:]' | tr -c '[:alnum:]_' _)"
}

# ksft_env TEST ARGS: slow_env, and ARGS handed to TEST through the
# kselftest runner (ksft_args_var).
ksft_env()
{
	slow_env
	[ -z "$2" ] || printf "%s='%s'" "$(ksft_args_var "$1")" "$2"
}

# selftest_progs VAR: the programs the mm/mglru Makefile names in VAR
# (TEST_GEN_PROGS, the default run, or TEST_GEN_PROGS_EXTENDED), sorted.
# installed_progs INSTALL: the programs a kselftest install has in mm/mglru.
selftest_progs()
{
	sed -n "s/^$1 *[+:]*= *//p" "$SUITE_ROOT/tools/testing/selftests/mm/mglru/Makefile" |
		tr ' ' '\n' | sed '/^$/d' | sort
}

installed_progs()
{
	find "$1/mm/mglru" -maxdepth 1 -type f -perm -u+x -printf '%f\n' 2>/dev/null | sort
}

# selftest_names: the kselftests. selftest_kill_times TEST: TEST's kill times.
selftest_names()
{
	tables names
}

selftest_kill_times()
{
	tables kill-times "$1"
}

# --- the inputs -------------------------------------------------------------
#
# check_inputs VAR...: each variable's value is one it takes, or one line
# "mglru: error: ..." and exit 1. The entry points (the scripts the
# Makefile, make check and git bisect run call) call it once, before any
# slow work, for the variables they use; the scripts they run trust them.
# check_<var> checks VAR, unset or empty meaning its default.
check_inputs()
{
	local v

	for v; do
		"check_${v,,}"
	done
}

# positive NAME: $NAME, if set, is a positive whole number.
positive()
{
	case ${!1:-1} in
	''|*[!0-9]*|0) die "$1=${!1}: expected a positive number" ;;
	esac
}

check_repeat() { positive REPEAT; }
check_boots() { positive BOOTS; }
check_flips() { positive FLIPS; }
check_provoke_flips() { positive PROVOKE_FLIPS; }
check_jobs() { positive JOBS; }
check_cpus() { positive CPUS; }

check_mem()
{
	[[ ${MEM:-2G} =~ ^[1-9][0-9]*[KMGT]?$ ]] ||
		die "MEM=$MEM: expected a size such as 2G or 2048M"
}

check_kdir()
{
	[ -n "${KDIR:-}" ] || return 0
	[ -d "$KDIR" ] || die "KDIR=$KDIR: no such directory"
	if [ ! -f "$KDIR/Makefile" ] || [ ! -f "$KDIR/mm/vmscan.c" ] || [ ! -f "$KDIR/Kconfig" ]; then
		die "KDIR=$KDIR is not a kernel source tree (no Makefile, Kconfig and mm/vmscan.c)"
	fi
}

# KERNEL must name a line of kernels.txt (unless KDIR is set)
check_kernel()
{
	[ -n "${KDIR:-}" ] && return
	tables kernel-field "$KERNEL" name >/dev/null || exit 1
}

# EXPECT=/dev/null judges by no expectations: every point must pass, as CI
# reads raw KTAP
check_expect()
{
	[ -z "${EXPECT:-}" ] || [ -f "$EXPECT" ] || [ "$EXPECT" = /dev/null ] ||
		die "EXPECT=$EXPECT: no such file"
}

# GUEST=binary asks for the image and says why there is none
check_guest()
{
	case ${GUEST:-auto} in
	auto|source) return 0 ;;
	binary) ;;
	*) die "GUEST=$GUEST: expected auto, binary or source" ;;
	esac
	[ -z "${GUEST_KERNEL:-}" ] || die "GUEST=binary and GUEST_KERNEL: choose one"
	[ -z "${KDIR:-}" ] || die "GUEST=binary: a KDIR tree has no binary image"
	[ -z "${HZ:-}" ] || die "GUEST=binary: the image keeps its own tick (no HZ=)"
	[ "${VARIANT:-default}" = default ] ||
		die "GUEST=binary: VARIANT=$VARIANT is a patched kernel, built from source"
	[ "$(tables kernel-field "$KERNEL" image)" != - ] ||
		die "GUEST=binary: $KERNEL has no binary image in runner/kernels.txt"
}

# BASE_CONFIG: a kernel .config the source guest starts from, instead of
# allnoconfig (runner/run/guest-kernel.sh)
check_base_config()
{
	[ -n "${BASE_CONFIG:-}" ] || return 0
	[ -f "$BASE_CONFIG" ] || die "BASE_CONFIG=$BASE_CONFIG: no such file"
	grep -q '^CONFIG_[A-Z0-9_]*=' "$BASE_CONFIG" ||
		die "BASE_CONFIG=$BASE_CONFIG: not a kernel config (no CONFIG_ line)"
	{ [ "${GUEST:-auto}" != binary ] && [ -z "${GUEST_KERNEL:-}" ]; } ||
		die "BASE_CONFIG is a config to build from: not with GUEST=binary or GUEST_KERNEL"
}

check_guest_kernel()
{
	[ -z "${GUEST_KERNEL:-}" ] || [ -f "$GUEST_KERNEL" ] ||
		die "GUEST_KERNEL=$GUEST_KERNEL: no such file"
}

check_hz()
{
	case ${HZ:-$GUEST_HZ_DEFAULT} in
	100|250|1000) ;;
	*) die "HZ=$HZ: expected 100, 250 or 1000" ;;
	esac
}

check_accel()
{
	case ${ACCEL:-auto} in
	auto|kvm|tcg) ;;
	*) die "ACCEL=$ACCEL: expected auto, kvm or tcg" ;;
	esac
}

check_arch()
{
	[ "$ARCH" = x86_64 ] || die "ARCH=$ARCH: only x86_64 guests are supported"
}

check_kunit_arch()
{
	case ${KUNIT_ARCH:-um} in
	um|x86_64) ;;
	*) die "KUNIT_ARCH=$KUNIT_ARCH: expected um or x86_64" ;;
	esac
}

check_kunit_sanitize()
{
	case ${KUNIT_SANITIZE:-0} in
	0|1) ;;
	*) die "KUNIT_SANITIZE=$KUNIT_SANITIZE: 0 or 1" ;;
	esac
}

check_lru_mode()
{
	case ${LRU_MODE:-} in
	''|mglru|classic) ;;
	*) die "LRU_MODE=$LRU_MODE: expected mglru or classic (empty: both)" ;;
	esac
}

check_kills()
{
	case ${KILLS:-all} in
	all|[1-9]|[1-9][0-9]) ;;
	*) die "KILLS=$KILLS: expected all or a number of kill times per test" ;;
	esac
}

check_tcg_thread()
{
	case ${TCG_THREAD:-} in
	''|single|multi) ;;
	*) die "TCG_THREAD=$TCG_THREAD: expected single or multi" ;;
	esac
}

# GUEST_APPEND: kernel command line words added to the guest's boot, to
# try a run-time switch of the kernel (mitigations=off, preempt=none):
# name or name=value words only, nothing the shell or QEMU would read, no
# "--" (which would hand virtme-ng's own init= to init) and none of the
# parameters virtme-ng boots the guest with.
check_guest_append()
{
	local w

	[ -n "${GUEST_APPEND:-}" ] || return 0
	[[ $GUEST_APPEND =~ ^[A-Za-z0-9_][A-Za-z0-9_.,=:-]*(\ [A-Za-z0-9_][A-Za-z0-9_.,=:-]*)*$ ]] ||
		die "GUEST_APPEND=${GUEST_APPEND@Q}: expected kernel parameters (name or name=value, spaced)"
	for w in $GUEST_APPEND; do
		case $w in
		init=*|rdinit=*|virtme*|console=*|panic=*)
			die "GUEST_APPEND: $w is virtme-ng's to set" ;;
		esac
	done
}

check_mitigation()
{
	case ${MITIGATION:-none} in
	none|quiet|single) ;;
	*) die "MITIGATION=$MITIGATION: expected none, quiet or single" ;;
	esac
}

check_tests()
{
	local known t

	known=$(selftest_names) || exit 1
	for t in ${TESTS:-}; do
		grep -qx -- "$t" <<<"$known" ||
			die "TESTS: unknown test '$t' (known: $(echo "$known" | tr '\n' ' '))"
	done
}

# TEST_ARGS: arguments added to one test's program (TESTS names it), as
# KSELFTEST_<TEST>_ARGS hands them: a control of a scenario, such as
# dirty_throttle -N 1. Plain options only; -m is LRU_MODE's.
check_test_args()
{
	[ -n "${TEST_ARGS:-}" ] || return 0
	[[ $TEST_ARGS =~ ^[-A-Za-z0-9\ .,]+$ ]] ||
		die "TEST_ARGS=$TEST_ARGS: expected options and numbers only"
	[ "$(wc -w <<<"${TESTS:-}")" = 1 ] ||
		die "TEST_ARGS: name the one test they are for (TESTS=<test>)"
	local w
	for w in $TEST_ARGS; do
		case $w in
		-m*) die "TEST_ARGS: -m is LRU_MODE's" ;;
		-C*|-h*) die "TEST_ARGS: $w runs no scenario" ;;
		esac
	done
}

check_variant()
{
	case ${VARIANT:-} in
	''|default) ;;
	port) [ -n "${KDIR:-}" ] || [ "$(kernel_port "$KERNEL")" != - ] ||
		die "VARIANT=port: $KERNEL has the helpers already (no port in runner/kernels.txt)" ;;
	*) [ -d "$SUITE_ROOT/patches/variants/$VARIANT" ] ||
		die "VARIANT=$VARIANT: unknown (default, port or one of: $(find "$SUITE_ROOT/patches/variants" -mindepth 1 -maxdepth 1 -type d -printf '%f ' 2>/dev/null))" ;;
	esac
}
