# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the offline tests: a scratch folder $tmp, the result $rc,
# expect_rc and expect_error.
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
