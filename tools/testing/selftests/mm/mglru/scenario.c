// SPDX-License-Identifier: GPL-2.0
/*
 * The main() of every MGLRU selftest: common options, prerequisites, then
 * for each LRU mode the scenario's setup, its run function and teardown, and
 * one KTAP result <scenario>_<mode>.
 *
 * Common options: -m mglru|classic runs one LRU mode (the kselftest runner
 * passes it through KSELFTEST_<TEST>_ARGS); -C only undoes what earlier,
 * killed runs left behind. KSFT_MACHINE_SLOW=yes (slow or emulated machines,
 * as kernel CI sets it) multiplies the scenario's time limits by three.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mglru.h"

#define SLOW_FACTOR	3
/* how long a run waits for another run's lock, before SLOW_FACTOR */
#define LOCK_WAIT_S	60
/* memory the machine must keep beyond what a scenario takes */
#define MEM_RESERVE	(128 * SZ_1M)
/*
 * The least memory.max a scenario's own processes (fio, dd, the readers)
 * start in: below the smallest memcg any run has used (readahead_refault's
 * overload control runs fio in 24 MiB).
 */
#define MEMCG_PROCS	(16 * SZ_1M)

/* -m: the LRU modes to run, a bit each */
static int parse_mode(const char *arg, void *val)
{
	int i;

	for (i = 0; i < MGLRU_NR_MODES; i++) {
		if (!strcmp(arg, mglru_mode_names[i])) {
			*(unsigned int *)val = 1U << i;
			return 0;
		}
	}
	return -1;
}

static int set_flag(const char *arg, void *val)
{
	*(bool *)val = true;
	return 0;
}

static int usage(const char *arg, void *val)
{
	return -1;
}

/* The ext4 image for the data: its size, and the tmpfs around it. */
static unsigned long fs_size(const struct mglru_setup *setup)
{
	return setup->data_size + setup->data_size / 8 + 64 * SZ_1M +
	       setup->fs_free;
}

/*
 * 0 if the machine can give the scenario what it takes (its memcg, the
 * tmpfs under its filesystem and what it can swap to zram) and keep
 * MEM_RESERVE, so that no run pushes it into global reclaim; else SKIP.
 */
static int check_memory(const struct mglru_setup *setup)
{
	unsigned long need = setup->memcg_max + MEM_RESERVE, avail;
	char buf[8192], *p;

	if (setup->data_size)
		need += mglru_tmpfs_size(fs_size(setup));
	if (setup->zram_size)
		need += setup->swapped_max < setup->zram_size ?
			setup->swapped_max : setup->zram_size;
	p = mglru_read_str("/proc/meminfo", buf, sizeof(buf)) ? NULL :
	    strstr(buf, "MemAvailable:");
	if (!p || sscanf(p + 13, "%lu", &avail) != 1)
		return mglru_skip("cannot read MemAvailable from /proc/meminfo");
	avail <<= 10;
	if (avail >= need)
		return 0;
	return mglru_skip("needs %lu MiB of memory, %lu MiB available: %lu MiB missing",
			  need >> 20, avail >> 20, (need - avail) >> 20);
}

/* Everything the scenario asked for, in @ctx; the cleanup stack undoes it. */
static int set_up(struct mglru_ctx *ctx, const struct mglru_setup *setup,
		  const char *name)
{
	int ret;

	ret = mglru_need_tools(setup->tools);
	if (!ret)
		ret = check_memory(setup);
	if (ret)
		return ret;
	if (mglru_set_lru_mode(ctx->mode))
		return -1;
	if (setup->zram_size) {
		ret = mglru_zram_swap_setup(setup->zram_size);
		if (ret)
			return ret;
	}
	if (setup->data_size) {
		ret = mglru_bdev_setup(ctx, fs_size(setup),
				       setup->write_delay_ms);
		if (ret)
			return ret;
	}
	if (setup->data_file && mglru_create_file(ctx, setup->data_size))
		return -1;
	ctx->cg = mglru_memcg_create(name, setup->memcg_max,
				     setup->swap ? -1 : 0);
	return ctx->cg ? 0 : -1;
}

/*
 * One KTAP line for @test, named in it as the kselftest summary and
 * kunit.py read it: "ok N <test> # SKIP <reason>", "not ok N <test>".
 */
static void report(const char *test, int ret)
{
	if (ret == KSFT_SKIP) {
		ksft_test_result_code(KSFT_SKIP, test, "%s", mglru_skip_reason);
		return;
	}
	if (ret < 0)
		ksft_print_msg("%s: setup failed\n", test);
	ksft_test_result_code(ret == KSFT_PASS ? KSFT_PASS : KSFT_FAIL, test,
			      NULL);
}

/* 0 if the machine can run the tests at all, else KSFT_SKIP. */
static int prerequisites(void)
{
	int ret;

	if (geteuid())
		return mglru_skip("must be run as root");
	ret = mglru_lru_gen_check();
	return ret ? ret : mglru_memcg_check();
}

/* Set up, run and tear down one LRU mode, unless @init failed. */
static void run_mode(const struct mglru_scenario *s, enum mglru_mode mode,
		     unsigned int slow, int init)
{
	struct mglru_ctx ctx = { .mode = mode, .slow = slow };
	int mark = mglru_cleanup_mark();
	int ret = init;

	snprintf(ctx.test, sizeof(ctx.test), "%s_%s", s->name,
		 mglru_mode_names[mode]);
	if (!ret)
		ret = set_up(&ctx, s->setup, s->name);
	if (!ret)
		ret = s->run(&ctx);
	mglru_cleanup_to(mark);
	report(ctx.test, ret);
}

int mglru_main(int argc, char **argv, const struct mglru_scenario *s)
{
	struct mglru_setup *setup = s->setup;
	unsigned int modes = (1U << MGLRU_NR_MODES) - 1;
	bool sweep_only = false;
	const struct mglru_opt common_opts[] = {
		{ 'm', "mglru|classic", parse_mode, &modes },
		{ 'C', NULL, set_flag, &sweep_only },
		{ 'h', NULL, usage, NULL },
		{ 'M', "memcg_size", mglru_opt_size, &setup->memcg_max },
		{ 'f', "data_size", mglru_opt_size, &setup->data_size },
		{ 0 }
	};
	const char *slow_env = getenv("KSFT_MACHINE_SLOW");
	unsigned int slow = 1;
	char path[4096];
	int mode, ret;

	if (mglru_parse_opts(argc, argv, common_opts, s->opts) ||
	    s->configure())
		mglru_usage(argv[0], common_opts, s->opts);
	/*
	 * A memcg that cannot hold the scenario's processes fails every
	 * kernel: refuse it before any setup.
	 */
	if (setup->memcg_max < MEMCG_PROCS) {
		fprintf(stderr, "%s: -M memcg_size must be at least %lu MiB, not %lu KiB\n",
			argv[0], MEMCG_PROCS >> 20, setup->memcg_max >> 10);
		exit(1);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* The tools (losetup, dmsetup, mkswap) live in sbin. */
	snprintf(path, sizeof(path), "%s:/usr/sbin:/sbin",
		 getenv("PATH") ?: "/usr/bin:/bin");
	setenv("PATH", path, 1);

	ksft_print_header();
	ksft_set_plan(sweep_only ? 0 : __builtin_popcount(modes));
	if (!sweep_only) {
		ksft_print_msg("memcg %lu MiB (swap %s), data %lu MiB\n",
			       setup->memcg_max >> 20,
			       setup->swap ? "max" : "0",
			       setup->data_size >> 20);
		s->describe();
	}
	if (slow_env && !strcmp(slow_env, "yes")) {
		slow = SLOW_FACTOR;
		ksft_print_msg("KSFT_MACHINE_SLOW=yes: time limits x%u\n", slow);
	}

	ret = prerequisites();
	if (!ret)
		ret = mglru_home_init();
	if (!ret)
		ret = mglru_home_lock(LOCK_WAIT_S * slow);
	if (sweep_only && ret)
		ksft_exit_skip("%s\n", mglru_skip_reason);
	if (!ret) {
		mglru_cleanup_init();
		if (!mglru_sweep() && sweep_only)
			ksft_print_msg("cleanup: nothing left by earlier runs\n");
		if (sweep_only)
			ksft_finished();
		ret = mglru_lru_gen_save();
		if (!ret)
			ret = mglru_parent_create();
	}
	for (mode = 0; mode < MGLRU_NR_MODES; mode++) {
		if (!(modes & (1U << mode)))
			continue;
		run_mode(s, mode, slow, ret);
	}
	if (ksft_plan && ksft_get_xskip_cnt() == (int)ksft_plan) {
		ksft_print_cnts();
		exit(KSFT_SKIP);
	}
	ksft_finished();
}
