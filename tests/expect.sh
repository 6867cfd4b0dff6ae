# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the offline tests of runner/*/*.py: a scratch folder $tmp, the
# result $rc, and expect_rc.
# shellcheck shell=bash disable=SC2034

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0

# expect_rc WANT NAME CMD...: CMD exits WANT; its output is kept in $tmp/out
expect_rc()
{
	local want=$1 name=$2
	shift 2
	"$@" >"$tmp/out" 2>&1
	local got=$?
	if [ "$got" -ne "$want" ]; then
		echo "FAIL $name: exit $got, expected $want"
		sed 's/^/  | /' "$tmp/out"
		rc=1
	else
		echo "ok   $name"
	fi
}
