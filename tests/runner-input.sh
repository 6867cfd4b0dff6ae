#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad input to the runner gets a one-line "mglru: error: ..." and a nonzero
# exit: a KDIR that is not a kernel tree, unknown variables' values, an
# unknown test name, a package that cannot be installed, a kernel config
# without MGLRU, a guest that does not boot.

cd "$(dirname "$0")/.." || exit 1
. runner/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0

# expect_error NAME PATTERN CMD...: CMD fails and its last stderr line is
# "mglru: error: ..." matching PATTERN.
expect_error()
{
	local name=$1 pattern=$2 got last
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	got=$?
	last=$(grep -a 'mglru: error:' "$tmp/err" | tail -n1)
	if [ "$got" -ne 0 ] && [ -n "$last" ] && echo "$last" | grep -q -- "$pattern"; then
		echo "ok   $name: $last"
	else
		echo "FAIL $name: exit $got, stderr:"
		tail -n 5 "$tmp/err" | sed 's/^/  | /'
		rc=1
	fi
}

expect_error "KDIR missing" "no such directory" \
	env KDIR=/nonexistent/linux runner/suite.sh kunit
mkdir -p "$tmp/notakernel"
expect_error "KDIR not a kernel tree" "is not a kernel source tree" \
	env KDIR="$tmp/notakernel" runner/suite.sh kunit
expect_error "ACCEL unknown" "ACCEL=warp" env ACCEL=warp runner/suite.sh kselftest
expect_error "VARIANT unknown" "VARIANT=nope" env VARIANT=nope runner/suite.sh all
expect_error "LRU_MODE unknown" "LRU_MODE=both" env LRU_MODE=both runner/suite.sh kselftest
expect_error "ARCH unsupported" "ARCH=riscv" env ARCH=riscv runner/suite.sh kselftest
expect_error "KUNIT_ARCH unsupported" "KUNIT_ARCH=sparc" \
	runner/kunit.sh "$(runner/tree.sh kunit)" "$tmp/k" sparc
expect_error "uninstallable package" "cannot install" \
	env EXTRA_PKGS=mglru-no-such-package runner/deps.sh kunit

gtree=$(runner/tree.sh guest) || exit 1
expect_error "unknown test name" "unknown test 'no_such_test'" \
	env TESTS=no_such_test runner/kselftest.sh "$gtree" /nonexistent/bzImage "$tmp/r"

printf '# CONFIG_LRU_GEN is not set\n' >"$tmp/no-lru-gen.config"
expect_error "config without LRU_GEN" "lacks CONFIG_LRU_GEN" \
	env EXTRA_CONFIG="$tmp/no-lru-gen.config" GUEST_BUILD="$tmp/build" \
	CONFIGURE_ONLY=1 runner/guest-kernel.sh "$gtree"

# a "kernel" that is not one: QEMU cannot boot it
head -c 4096 /dev/urandom >"$tmp/bzImage"
expect_error "guest that does not boot" "the guest did not run its command" \
	env GUEST_ACCEL=tcg BOOT_TIMEOUT=60 runner/vm.sh run "$tmp/bzImage" "$tmp/vm" true
grep -aq '    | ' "$tmp/err" || { echo "FAIL: no console tail shown"; rc=1; }
exit $rc
