#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Report one mm/mglru kselftest run to LAVA: read the KTAP the kselftest
# runner printed (run_kselftest.sh -t mm/mglru:<test>) and record
#
#   <test>                 the runner's result for the test (a TIMEOUT fails)
#   <point>                each test point of the test's own KTAP
#                          (aging_oom_mglru, ...)
#   <point>.<metric>       each key metric of a point, from its
#                          "# metric <point> <key>=<value>" line, as a
#                          measurement (result pass)
#
# with `lava-test-case <name> --result pass|fail|skip [--measurement V
# --units U]`. A "# SKIP" directive is skip, "ok" pass, anything else fail,
# as runner/ktap.py reads them. Non-numeric metrics are left out.
#
# usage: mglru-ktap-to-lava.sh [-t TEST] [-m key|all] [-k KEYS] [-u UNITS] KTAP
#   -t TEST     the test that was run: without a runner's result line in
#               KTAP (no output, the runner did not start), TEST is reported
#               as a failure
#   -k KEYS     the test's key metrics, separated by spaces (runner/export/lava-jobs.py
#               writes them into the job from runner/selftests.txt)
#   -u UNITS    the metrics' units, "<suffix>=<unit> ..." (runner/tables.py's,
#               written into the job): a metric's is the first whose suffix
#               ends "_<metric>"; without -u, no units
#   -m all      every numeric metric, not only the key metrics (without
#               -k, every one too)
# LAVA_TEST_CASE replaces lava-test-case (make check's stub). Exits 1 when
# KTAP has no runner's result line, else 0 (the verdicts are LAVA's).
# POSIX sh and awk: it runs in the guest's rootfs.

test='' metrics=key keys='' units=''
while getopts t:m:k:u: opt; do
	case $opt in
	t) test=$OPTARG ;;
	m) metrics=$OPTARG ;;
	k) keys=$OPTARG ;;
	u) units=$OPTARG ;;
	*) echo "usage: $0 [-t TEST] [-m key|all] [-k KEYS] [-u UNITS] KTAP" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
ktap=$1
case $metrics in
key|all) ;;
*) echo "$0: -m $metrics: expected key or all" >&2; exit 2 ;;
esac
if [ $# -ne 1 ] || [ ! -r "$ktap" ]; then
	echo "usage: $0 [-t TEST] [-m key|all] [-k KEYS] [-u UNITS] KTAP (no readable KTAP '$ktap')" >&2
	exit 2
fi
ltc=${LAVA_TEST_CASE:-lava-test-case}

# the runner's test: the one -t names, else the KTAP's
[ -n "$test" ] || test=$(sed -n \
	's/^\(not \)\{0,1\}ok [0-9]* selftests: mm\/mglru: \([^ ]*\).*/\2/p' "$ktap" | head -n1)
# the key metrics as " a b c "; none: every metric
if [ "$metrics" = key ] && [ -n "$keys" ]; then
	keys=" $keys "
else
	keys=
fi

# one line per LAVA test case: "<name> <result> [<value> [<units>]]"
cases=$(awk -v test="$test" -v keys="$keys" -v unitmap="$units" '
function units(k,    n, i, p, eq, s)
{
	k = "_" k
	n = split(unitmap, p, " ")
	for (i = 1; i <= n; i++) {
		eq = index(p[i], "=")
		s = substr(p[i], 1, eq - 1)
		if (eq > 1 && length(k) >= length(s) && substr(k, length(k) - length(s) + 1) == s)
			return substr(p[i], eq + 1)
	}
	return ""
}
function verdict(ok, rest)
{
	if (rest ~ /#[ \t]*SKIP([ \t]|$)/) return "skip"
	return ok == "ok" ? "pass" : "fail"
}
{
	sub(/\r$/, "")
}
# the runner result for the test, at the top level
/^(not )?ok [0-9]+ selftests: mm\/mglru: / {
	ok = $1 == "ok" ? "ok" : "not"
	name = ok == "ok" ? $5 : $6
	if (test != "" && name != test) next
	print name, verdict(ok, $0)
	outer = 1
	next
}
# the test points and metrics, one "# " level (or more) down
/^# / {
	line = $0
	while (substr(line, 1, 2) == "# ") line = substr(line, 3)
	if (line ~ /^metric [^ ]+ [A-Za-z0-9_.]+=[^ ]+$/) {
		split(line, f, " ")
		eq = index(f[3], "=")
		k = substr(f[3], 1, eq - 1)
		v = substr(f[3], eq + 1)
		if (v !~ /^-?[0-9]+(\.[0-9]+)?$/) next
		if (keys != "" && index(keys, " " k " ") == 0) next
		print f[2] "." k, "pass", v, units(k)
		next
	}
	if (line ~ /^(not )?ok [0-9]+ [^ ]+/ && line !~ / selftests: /) {
		split(line, f, " ")
		ok = f[1] == "ok" ? "ok" : "not"
		print (ok == "ok" ? f[3] : f[4]), verdict(ok, line)
	}
}
END { exit outer ? 0 : 1 }
' "$ktap")
found=$?

rc=0
if [ $found -ne 0 ]; then
	echo "$0: no runner result for mm/mglru:${test:-?} in $ktap" >&2
	cases="$cases
${test:-mglru-kselftest} fail"
	rc=1
fi

echo "$cases" | while read -r name result value unit; do
	[ -n "$name" ] || continue
	if [ -z "$value" ]; then
		"$ltc" "$name" --result "$result"
	elif [ -z "$unit" ]; then
		"$ltc" "$name" --result "$result" --measurement "$value"
	else
		"$ltc" "$name" --result "$result" --measurement "$value" --units "$unit"
	fi
done
exit $rc
