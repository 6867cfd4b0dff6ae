#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run one program of a kselftest install as run_kselftest.sh -t runs a
# listed one, with the install's own runner functions: the same KTAP, the
# settings file's timeout, --override-timeout and KSELFTEST_<TEST>_ARGS.
# run_kselftest.sh only runs what kselftest-list.txt names; this also runs
# the TEST_GEN_PROGS_EXTENDED programs, which are installed but left out of
# the default run. Run in the guest by runner/run/kselftest.sh.
#
# usage: ksft-one.sh INSTALL TIMEOUT COLLECTION TEST

[ $# -eq 4 ] || { echo "usage: $0 INSTALL TIMEOUT COLLECTION TEST" >&2; exit 1; }
BASE_DIR=$(cd "$1" && pwd -P) || exit 1
# read by runner.sh's run_one
# shellcheck disable=SC2034
kselftest_override_timeout=$2
[ -x "$BASE_DIR/$3/$4" ] || { echo "$0: no program $3/$4 in $BASE_DIR" >&2; exit 1; }
cd "$BASE_DIR" || exit 1
# shellcheck source=/dev/null
. ./kselftest/runner.sh

# 6.12's run_many prints the header and plan itself; later kernels' runner
# leaves them, and the totals its counters add up, to run_kselftest.sh
if command -v ktap_print_header >/dev/null; then
	ktap_print_header
	ktap_set_plan 1
	cd "$3" && run_many "$4"
	ktap_print_totals
else
	cd "$3" && run_many "$4"
fi
