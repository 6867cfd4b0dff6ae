#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad input to the runner gets a one-line "mglru: error: ..." and a nonzero
# exit: a KDIR that is not a kernel tree, unknown variables' values and test
# names (within a second), a pinned kernel the archive no longer serves, a
# package that cannot be installed, a kernel config without MGLRU, a guest
# that does not boot. And which expectations judge a run.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
. tests/expect.sh

# fast_error NAME PATTERN CMD...: as expect_error, and within a second,
# before any slow work
fast_error()
{
	local t0 ms

	t0=$(date +%s%N)
	expect_error "$@"
	ms=$((($(date +%s%N) - t0) / 1000000))
	if [ "$ms" -ge 1000 ]; then
		echo "FAIL $1: the error took ${ms} ms (more than a second)"
		rc=1
	fi
}

fast_error "KERNEL unknown" "KERNEL=debian-9.9: unknown (one of: debian-7.3" \
	env -u KDIR KERNEL=debian-9.9 runner/run/suite.sh all
fast_error "VARIANT=port on a kernel with the helpers" "VARIANT=port: debian-7.3 has the helpers" \
	env -u KDIR KERNEL=debian-7.3 VARIANT=port runner/run/suite.sh kselftest
fast_error "TESTS unknown" "unknown test 'no_such_test'" \
	env TESTS="aging_oom no_such_test" runner/run/suite.sh kselftest
fast_error "REPEAT not a number" "REPEAT=ten" env REPEAT=ten runner/run/suite.sh kselftest
fast_error "REPEAT zero" "REPEAT=0" env REPEAT=0 runner/run/suite.sh kselftest
fast_error "JOBS not a number" "JOBS=many" env JOBS=many runner/run/suite.sh kunit
fast_error "KUNIT_ARCH unknown" "KUNIT_ARCH=sparc" env KUNIT_ARCH=sparc runner/run/suite.sh kunit
fast_error "KUNIT_SANITIZE unknown" "KUNIT_SANITIZE=2: 0 or 1" env KUNIT_SANITIZE=2 runner/run/suite.sh kunit
fast_error "GUEST_APPEND with a quote" "GUEST_APPEND=.*b'*: expected kernel parameters" \
	env GUEST_APPEND="a='b" runner/run/suite.sh kselftest
fast_error "GUEST_APPEND with a command" "GUEST_APPEND='a;reboot': expected kernel parameters" \
	env GUEST_APPEND="a;reboot" runner/run/suite.sh kselftest
fast_error "GUEST_APPEND with --" "GUEST_APPEND='--': expected kernel parameters" \
	env GUEST_APPEND="--" runner/run/suite.sh kselftest
fast_error "GUEST_APPEND with init=" "GUEST_APPEND: init=1 is virtme-ng's" \
	env GUEST_APPEND="quiet init=1" runner/run/suite.sh kselftest
fast_error "MEM not a size" "MEM=lots: expected a size" env MEM=lots runner/run/suite.sh kselftest
fast_error "CPUS zero" "CPUS=0: expected a positive number" env CPUS=0 runner/run/suite.sh kselftest
expect_error "KDIR missing" "no such directory" \
	env KDIR=/nonexistent/linux runner/run/suite.sh kunit
mkdir -p "$tmp/notakernel"
expect_error "KDIR not a kernel tree" "is not a kernel source tree" \
	env KDIR="$tmp/notakernel" runner/run/suite.sh kunit
fast_error "ACCEL unknown" "ACCEL=warp" env ACCEL=warp runner/run/suite.sh kselftest
fast_error "VARIANT unknown" "VARIANT=nope" env VARIANT=nope runner/run/suite.sh all
fast_error "LRU_MODE unknown" "LRU_MODE=both" env LRU_MODE=both runner/run/suite.sh kselftest
fast_error "TEST_ARGS without its test" "TEST_ARGS: name the one test" \
	env TEST_ARGS="-N 1" runner/run/suite.sh kselftest
fast_error "TEST_ARGS with a quote" "TEST_ARGS=-N '1: expected options" \
	env TESTS=dirty_throttle TEST_ARGS="-N '1" runner/run/suite.sh kselftest
fast_error "TEST_ARGS with -m" "TEST_ARGS: -m is LRU_MODE's" \
	env TESTS=dirty_throttle TEST_ARGS="-N 1 -m classic" runner/run/suite.sh kselftest
fast_error "TEST_ARGS with -mclassic" "TEST_ARGS: -m is LRU_MODE's" \
	env TESTS=dirty_throttle TEST_ARGS="-N 1 -mclassic" runner/run/suite.sh kselftest
fast_error "TEST_ARGS with -C" "TEST_ARGS: -C runs no scenario" \
	env TESTS=dirty_throttle TEST_ARGS="-C" runner/run/suite.sh kselftest
fast_error "interleave: TEST_ARGS for two tests" "TEST_ARGS: name the one test" \
	env TESTS="aging_oom dirty_throttle" TEST_ARGS="-N 1" runner/validate/interleave.sh "$tmp/il" debian-7.3:default debian-7.3:aging-busy
fast_error "KILLS not a number" "KILLS=x" env KILLS=x runner/run/suite.sh selftest-check
fast_error "ARCH unsupported" "ARCH=riscv" env ARCH=riscv runner/run/suite.sh kselftest
fast_error "HZ unsupported" "HZ=300: expected 100, 250 or 1000" \
	env HZ=300 runner/run/suite.sh kselftest
fast_error "matrix: HZ unsupported" "HZ=300: expected 100, 250 or 1000" \
	env HZ=300 runner/validate/matrix.sh
fast_error "lava-local: ACCEL unknown" "ACCEL=warp" env ACCEL=warp runner/export/lava-local.sh
fast_error "lava-local: ARCH unsupported" "ARCH=riscv" env ARCH=riscv runner/export/lava-local.sh
fast_error "lava-local: TEST_ARGS" "TEST_ARGS: lava-local runs a cell" env TEST_ARGS="-N 1" runner/export/lava-local.sh
fast_error "lava-local: JOBS not a number" "JOBS=many" env JOBS=many runner/export/lava-local.sh
fast_error "mutants: KERNEL unknown" "KERNEL=debian-9.9: unknown" \
	env -u KDIR KERNEL=debian-9.9 runner/validate/mutants.sh
fast_error "mutation: MUTATION_WORK relative" "MUTATION_WORK=work: not an absolute path" \
	env MUTATION_WORK=work runner/validate/mutation.sh
mkdir -p "$tmp/foreign" && touch "$tmp/foreign/theirs"
fast_error "mutation: MUTATION_WORK a folder it did not make" "not a folder make mutation made" \
	env MUTATION_WORK="$tmp/foreign" runner/validate/mutation.sh
fast_error "series: KDIR missing" "KDIR=/nonexistent/linux: no such directory" \
	env KDIR=/nonexistent/linux runner/export/series.sh "$tmp/series"
fast_error "EXPECT missing" "EXPECT=/nonexistent/x.txt: no such file" \
	env EXPECT=/nonexistent/x.txt runner/run/suite.sh kselftest
fast_error "GUEST unknown" "GUEST=disk: expected auto, binary or source" \
	env GUEST=disk runner/run/suite.sh kselftest
fast_error "GUEST=binary with HZ=" "GUEST=binary: the image keeps its own tick" \
	env GUEST=binary HZ=100 runner/run/suite.sh kselftest
fast_error "GUEST=binary with a VARIANT" "VARIANT=aging-busy is a patched kernel" \
	env GUEST=binary VARIANT=aging-busy runner/run/suite.sh kselftest
mkdir -p "$tmp/ktree/mm"
touch "$tmp/ktree/Makefile" "$tmp/ktree/Kconfig" "$tmp/ktree/mm/vmscan.c"
fast_error "GUEST=binary with KDIR" "GUEST=binary: a KDIR tree has no binary image" \
	env GUEST=binary KDIR="$tmp/ktree" runner/run/suite.sh all
fast_error "GUEST=binary on a kernel without one" "debian-7.2 has no binary image" \
	env -u KDIR GUEST=binary KERNEL=debian-7.2 runner/run/suite.sh kselftest

# which guest each run boots: Debian's binary image where the kernel has
# one and nothing asks for a build
guest_is()	# guest_is NAME WANT ENV...: guest_kind prints WANT
{
	local name=$1 want=$2 got
	shift 2
	got=$(env -u KDIR -u HZ -u VARIANT -u GUEST -u GUEST_KERNEL "$@" \
		bash -c '. runner/lib.sh; guest_kind')
	if [ "$got" = "$want" ]; then
		echo "ok   guest of $name: $got"
	else
		echo "FAIL guest of $name: got '$got', want '$want'"
		rc=1
	fi
}
guest_is "the default kernel" binary KERNEL=debian-7.3
guest_is "a kernel without an image" source KERNEL=debian-7.2
guest_is "HZ=250" source HZ=250
guest_is "a VARIANT" source VARIANT=aging-busy
guest_is "VARIANT=default" binary VARIANT=default
guest_is "KDIR" source KDIR="$SUITE_ROOT"
guest_is "GUEST=source" source GUEST=source
guest_is "GUEST_KERNEL" prebuilt GUEST_KERNEL=/dev/null
printf 'CONFIG_MMU=y\n' >"$tmp/base.config"
guest_is "BASE_CONFIG" source BASE_CONFIG="$tmp/base.config"
fast_error "BASE_CONFIG missing" "BASE_CONFIG=/nonexistent: no such file" \
	env -u KDIR BASE_CONFIG=/nonexistent runner/run/suite.sh kselftest
fast_error "BASE_CONFIG not a config" "not a kernel config" \
	env -u KDIR BASE_CONFIG=/etc/hostname runner/run/suite.sh kselftest
fast_error "BASE_CONFIG with GUEST=binary" "not with GUEST=binary" \
	env -u KDIR GUEST=binary BASE_CONFIG="$tmp/base.config" runner/run/suite.sh kselftest
fast_error "interleave: BASE_CONFIG missing" "BASE_CONFIG=/nonexistent: no such file" \
	env -u KDIR BASE_CONFIG=/nonexistent runner/validate/interleave.sh "$tmp/il" debian-7.3:default debian-7.3:aging-busy
# a base config builds apart from the others, by its content
dirs=$(for c in "" "$tmp/base.config"; do
	env -u KDIR -u GUEST_BUILD KERNEL=debian-7.3 HZ=250 BASE_CONFIG="$c" \
		bash -c '. runner/lib.sh; guest_build_dir'
done | sort -u | wc -l)
[ "$dirs" = 2 ] || { echo "FAIL: a BASE_CONFIG guest shares the build folder of the others"; rc=1; }

# which expectations judge a run: EXPECT=, else the kernel's own, else (a
# KDIR tree of an unknown version) the default kernel's, with a note
expect_file()	# expect_file NAME WANT ENV...: expectations_file prints WANT
{
	local name=$1 want=$2 got
	shift 2
	got=$(env "$@" bash -c '. runner/lib.sh; expectations_file' 2>"$tmp/err")
	if [ "$got" = "$want" ]; then
		echo "ok   expectations of $name: ${got#"$SUITE_ROOT"/}"
	else
		echo "FAIL expectations of $name: got '$got', want '$want'"
		rc=1
	fi
}
mkfake()	# mkfake DIR VERSION: a "tree" whose make kernelversion says VERSION
{
	mkdir -p "$1"
	printf 'kernelversion:\n\t@echo %s\n' "$2" >"$1/Makefile"
}
mkfake "$tmp/k7.2" 7.2.13
mkfake "$tmp/k9" 9.0.0-rc1
e=$SUITE_ROOT/expectations
expect_file "KERNEL=debian-6.12" "$e/debian-6.12-default.txt" -u KDIR KERNEL=debian-6.12
expect_file "KERNEL=debian-7.3, its binary image" "$e/debian-7.3-binary.txt" \
	-u KDIR -u HZ -u GUEST KERNEL=debian-7.3
expect_file "KERNEL=debian-7.3 GUEST=source" "$e/debian-7.3-default.txt" \
	-u KDIR KERNEL=debian-7.3 GUEST=source
expect_file "KERNEL=debian-7.3 VARIANT=aging-busy" "$e/debian-7.3-aging-busy.txt" \
	-u KDIR KERNEL=debian-7.3 VARIANT=aging-busy
expect_file "a KDIR tree of 7.2.13" "$e/debian-7.2-default.txt" KDIR="$tmp/k7.2"
expect_file "a KDIR tree of 9.0.0-rc1" "$e/debian-7.3-default.txt" KDIR="$tmp/k9"
grep -q "9.0.0-rc1 is no kernel of runner/kernels.txt: judged by debian-7.3" "$tmp/err" ||
	{ echo "FAIL: no note on the unknown tree's version"; rc=1; }
expect_file "EXPECT= over a KDIR tree" "$e/debian-6.12-port.txt" \
	KDIR="$tmp/k7.2" EXPECT="$e/debian-6.12-port.txt"
expect_file "EXPECT=/dev/null (none: every point must pass)" /dev/null \
	-u KDIR KERNEL=debian-7.3 EXPECT=/dev/null
bash -c '. runner/lib.sh; EXPECT=/dev/null check_expect' ||
	{ echo "FAIL: check_expect refuses EXPECT=/dev/null"; rc=1; }

expect_error "uninstallable package" "cannot install" \
	env EXTRA_PKGS=mglru-no-such-package runner/run/deps.sh kunit

gtree=$(runner/run/tree.sh guest) || exit 1

# a pinned version the archive no longer serves: the error lists those it does
sed 's/^\(debian-7.3 *linux-source-7.3 *\)[^ ]*/\17.3.0-0~gone/' runner/kernels.txt \
	>"$tmp/kernels.txt"
expect_error "pinned version not served" "linux-source-7.3 7.3.0-0~gone is not served.*it serves: 7\.3" \
	env KERNELS_TABLE="$tmp/kernels.txt" CACHE="$tmp/cache" runner/run/fetch-kernel.sh debian-7.3

printf '# CONFIG_LRU_GEN is not set\n' >"$tmp/no-lru-gen.config"
expect_error "config without LRU_GEN" "lacks CONFIG_LRU_GEN" \
	env EXTRA_CONFIG="$tmp/no-lru-gen.config" GUEST_BUILD="$tmp/build" \
	CONFIGURE_ONLY=1 runner/run/guest-kernel.sh "$gtree"

# a "kernel" that is not one: QEMU cannot boot it
head -c 4096 /dev/urandom >"$tmp/bzImage"
expect_error "guest that does not boot" "the guest did not run its command" \
	env GUEST_ACCEL=tcg BOOT_TIMEOUT=60 runner/run/vm.sh run "$tmp/bzImage" "$tmp/vm" true
grep -aq '    | ' "$tmp/err" || { echo "FAIL: no console tail shown"; rc=1; }
# runner/selftests.txt is read by runner/tables.py alone, which checks
# each column: a malformed line is one error naming the line
mkdir -p "$tmp/table"
cp runner/tables.py runner/kernels.txt "$tmp/table/"
while IFS='@' read -r name pattern line; do
	printf '%s\n' "$line" >"$tmp/table/selftests.txt"
	fast_error "selftests.txt: $name" "$pattern" \
		python3 "$tmp/table/tables.py" names
done <<'LINES'
three columns@selftests.txt:1: expected <test> | <kill times>@aging_oom | 4 1 | oom_kill:fisher
kill times@selftests.txt:1: 4s: kill times are whole seconds@aging_oom | 4s | oom_kill:fisher | mglru: -M 1G
statistical test@selftests.txt:1: oom_kill:ttest: expected <metric>:<test>@aging_oom | 4 | oom_kill:ttest | mglru: -M 1G
control's mode@selftests.txt:1: lru: -M 1G: expected <modes>: <arguments>@aging_oom | 4 | oom_kill:fisher | lru: -M 1G
control without modes@selftests.txt:1: -M 1G: expected <modes>@aging_oom | 4 | oom_kill:fisher | -M 1G
LINES

exit $rc
