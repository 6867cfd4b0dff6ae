# SPDX-License-Identifier: GPL-2.0
#
# MGLRU regression suite: the front door. Each target is one script of a
# job folder of runner/ (runner/README), or tests/; README.rst explains them.
#
#   make              KUnit, guest kernel (Debian's binary), kselftests, summary
#   make check        the project's own tests (what CI runs)
#   make docs         the docs' tables regenerated from doc/results/
#
# Variables (environment or command line):
#   KERNEL=debian-7.3 a kernel of runner/kernels.txt (debian-7.3, the default,
#                     debian-7.2 or debian-6.12), fetched from Debian's archive
#   KDIR=<path>       a kernel tree to use instead (never modified: the
#                     suite works on a scratch copy)
#   EXPECT=<file>     the expectations to judge by (default: the kernel's;
#                     for KDIR, the known kernel of the tree's version;
#                     /dev/null: none, every point must pass, as CI reads)
#   ARCH=x86_64       guest architecture
#   ACCEL=auto        auto|kvm|tcg: auto uses KVM where kvm_intel or kvm_amd
#                     serves /dev/kvm, else TCG
#   JOBS, MEM, CPUS   build jobs, guest memory and vCPUs
#   HZ=250            the guest kernel's tick: 100, 250 or 1000 (built from
#                     source; the binary image keeps its own, Debian's 250)
#   TESTS="a b"       run only these kselftests (see `make list`)
#   REPEAT=N          run each kselftest N times (detection rates)
#   LRU_MODE=mglru    run the kselftests in one LRU mode (mglru|classic; -m
#                     through the runner's KSELFTEST_<TEST>_ARGS)
#   TEST_ARGS="-N 1"  arguments added to the one test TESTS names (a control,
#                     e.g. dirty_throttle's; summary.json records them)
#   A=, B=            two results folders for `make compare`; OUT= its picture;
#   EQUIVALENT="m=b"  and a TOST that B's metric m is within b (or b% of A's median)
#                     (default B's compare.svg)
#   R=, KCIDB_ORIGIN= results folder (default results/latest) and KCIDB
#                     origin for `make kcidb`
#   KUNIT_ARCH=um     um|x86_64 for `make kunit`
#   KUNIT_SANITIZE=1  `make kunit` with KASAN, UBSAN and panic_on_warn=1
#   VARIANT=port      the guest kernel with the kernel's helper port applied, or
#                     a validation kernel of patches/variants/
#   MATRIX_ROWS="t"   `make matrix`: only these rows of expectations/matrix.txt
#   INTERLEAVE=1      `make matrix`: each row's two kernels in turn, a run each
#   KERNELS="a b"     `make interleave`: kernels (<KERNEL>:<VARIANT>, as the
#                     matrix names them) run in turn, REPEAT rounds, into
#                     RESULTS/<kernel>/ (make compare A= B= reads them)
#   SAMPLE, LIMIT,    `make mutation`: how many of the rest join the census
#   WORKERS,          (300), stop after N mutants (a rerun goes on), mutants
#   MUTATION_IDS,     at a time (2), only these ids; the work folder (an
#   MUTATION_WORK     absolute path: new, or one make mutation made); OUT=<dir>
#                     the report tables (doc/kunit.rst, "Mutation score")
#   KILLS=N           `make selftest-check`: the first N kill times per test
#   BOOTS, FLIPS,     `make emulator-stress`: BOOTS boots (20), each switching
#   MITIGATION        MGLRU off and on FLIPS times (1000) under load; MITIGATION
#                     none, quiet (no module loaded at boot that no test
#                     needs) or single (single-threaded TCG)
#   TCG_THREAD=single QEMU's TCG single-threaded (multi, its default, when
#                     unset): no emulator crash, slower guests (doc/runner.rst)
#   GUEST_APPEND="a=b" kernel parameters added to the guest's command line (a
#                     run-time switch of the kernel under test: mitigations=off)
#   PROVOKE_FLIPS=N   make kselftest: N MGLRU flips under load before the
#                     first boot's runs, to provoke the emulator's crash
#                     and see the retry (validation only)
#   CACHE, RESULTS    cache folder, results folder of this run
#   GUEST=auto        the guest kernel: auto boots the kernel's Debian binary
#                     image (runner/kernels.txt) where it has one and the run
#                     asks for no KDIR, VARIANT or HZ; else it is built from
#                     source; GUEST=source always builds, GUEST=binary insists
#   GUEST_KERNEL=<f>  a prebuilt guest kernel (bzImage) to boot: no build
#   BASE_CONFIG=<f>   the source guest built from this .config instead of
#                     allnoconfig (the fragments merged on top)
#   LAVA_*            `make lava-jobs`: artifact URL templates and the test
#                     definition's repository (doc/ci.rst, LAVA)
#   LAVA_COMPARE=<r>  `make lava-local` (one matrix cell, TESTS= LRU_MODE=
#                     KERNEL= VARIANT=, through LAVA's lava-run here): the
#                     make kselftest results its verdict must agree with

JOBS ?= $(shell nproc)
export KERNEL KDIR EXPECT GUEST ARCH ACCEL JOBS MEM CPUS HZ TESTS REPEAT LRU_MODE KUNIT_ARCH KUNIT_SANITIZE VARIANT CACHE \
	RESULTS EQUIVALENT MATRIX_ROWS INTERLEAVE KERNELS TEST_ARGS BASE_CONFIG SAMPLE LIMIT MUTATION_IDS MUTATION_WORK WORKERS OUT KILLS BOOTS FLIPS MITIGATION PROVOKE_FLIPS TCG_THREAD GUEST_APPEND
export LAVA_JOBS_DIR LAVA_KERNEL_URL LAVA_ROOTFS_URL LAVA_MODULES_URL \
	LAVA_TESTDEF_REPO LAVA_TESTDEF_REVISION LAVA_KSELFTEST_DIR LAVA_COMPARE

.PHONY: all kunit kselftest vm-shell selftest-check emulator-stress matrix interleave mutants mutation coverage kunit-guest compare deps check \
	list kernels clean lava-jobs lava-local kcidb series bisect-demo docs

all:
	@runner/run/suite.sh all

kunit:
	@runner/run/suite.sh kunit

kselftest:
	@runner/run/suite.sh kselftest

vm-shell:
	@runner/run/suite.sh vm-shell

selftest-check:
	@runner/run/suite.sh selftest-check

emulator-stress:
	@runner/run/suite.sh emulator-stress

matrix:
	@runner/validate/matrix.sh

interleave:
	@runner/validate/interleave.sh "$(or $(RESULTS),results/$(shell date +%Y%m%d-%H%M%S)-interleave)" $(KERNELS)

mutants:
	@runner/validate/mutants.sh

mutation:
	@runner/validate/mutation.sh

coverage:
	@runner/validate/coverage.sh

kunit-guest:
	@runner/validate/kunit-guest.sh

PY = "$${CACHE:-$$HOME/.cache/mglru-suite}/venv/bin/python3"

compare:
	@$(PY) runner/validate/compare.py "$(A)" "$(B)" $(if $(OUT),--svg "$(OUT)") \
		$(foreach e,$(EQUIVALENT),--equivalent "$(e)")

kcidb:
	@$(PY) runner/export/kcidb.py "$(or $(R),results/latest)" \
		$(if $(KCIDB_ORIGIN),--origin "$(KCIDB_ORIGIN)") \
		-o "$(or $(R),results/latest)/kcidb.json"

bisect-demo:
	@runner/export/bisect-demo.sh

series:
	@runner/export/series.sh

lava-jobs:
	@runner/export/lava-jobs.py

lava-local:
	@runner/export/lava-local.sh

deps:
	@runner/run/deps.sh all

check:
	@tests/run.sh

docs:
	@runner/export/doc_tables.py

list:
	@runner/tables.py names

kernels:
	@runner/tables.py kernel-versions

clean:
	rm -rf results
	rm -rf $${CACHE:-$$HOME/.cache/mglru-suite}/build $${CACHE:-$$HOME/.cache/mglru-suite}/trees
