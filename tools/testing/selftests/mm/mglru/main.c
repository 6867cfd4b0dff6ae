// SPDX-License-Identifier: GPL-2.0
/*
 * The main() of every MGLRU selftest. The parent checks the options and the
 * prerequisites, takes the lock and tears down what a killed run left; then
 * for each LRU mode a child sets up the scenario and runs it, and the parent
 * tears down and prints the KTAP result <scenario>_<mode>. Its signal
 * handler notes the signal; the parent then kills the child and tears down.
 *
 * -m mglru|classic runs one LRU mode; -C only tears down what killed runs
 * left. KSFT_MACHINE_SLOW=yes multiplies the time limits by three.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "mglru.h"

#define LOCK_WAIT_S	60	/* for another run's lock */
#define MEM_RESERVE	(128 * SZ_1M)	/* kept beyond what a scenario takes */
#define MEMCG_PROCS	(16 * SZ_1M)	/* the least room for the processes */
#define NR_OPTS		64

static const char * const mode_names[] = { "mglru", "classic" };

static int *child_ret;	/* shared: the child's result, -2 until it has one */

/* the bit of one mode in *@val */
static int parse_mode(const char *arg, void *val)
{
	int i;

	for (i = 0; i < MGLRU_NR_MODES; i++)
		if (!strcmp(arg, mode_names[i]))
			return *(unsigned int *)val = 1U << i, 0;
	return -1;
}

static int set_flag(const char *arg, void *val)
{
	return val ? (*(bool *)val = true, 0) : -1;
}

/* 0, or -1 for the usage line; a flag's parse() gets NULL */
static int parse_opts(int argc, char **argv, const struct mglru_opt *opts)
{
	const struct mglru_opt *o;
	char letters[2 * NR_OPTS + 1];
	size_t len = 0;
	int c;

	for (o = opts; o->name; o++)
		len += sprintf(letters + len, "%c%s", o->name, o->arg ? ":" : "");
	opterr = 0;
	while ((c = getopt(argc, argv, letters)) != -1) {
		for (o = opts; o->name && o->name != c; o++)
			;
		if (!o->name || o->parse(o->arg ? optarg : NULL, o->val))
			return -1;
	}
	return optind < argc ? -1 : 0;
}

static unsigned long fs_size(const struct mglru_setup *setup)
{
	return setup->data_size + setup->data_size / 8 + 64 * SZ_1M +
	       setup->fs_free;
}

/* 0 if the machine has the memory for the scenario and MEM_RESERVE */
static int check_memory(const struct mglru_setup *setup)
{
	unsigned long need = setup->memcg_max + MEM_RESERVE, avail;

	if (setup->data_size)
		need += mglru_tmpfs_size(fs_size(setup));
	if (setup->zram_size)
		need += setup->swapped_max < setup->zram_size ?
			setup->swapped_max : setup->zram_size;
	avail = mglru_meminfo_kib("MemAvailable:") << 10;
	if (avail >= need)
		return 0;
	return mglru_skip("needs %lu MiB of memory, %lu MiB available: %lu MiB missing",
			  need >> 20, avail >> 20, (need - avail) >> 20);
}

/* in the child: everything the scenario asked for, in @ctx */
static int set_up(struct mglru_ctx *ctx, const struct mglru_setup *setup,
		  const char *name)
{
	int ret = mglru_need_tools(setup->tools) ?: check_memory(setup);

	if (ret)
		return ret;
	ctx->cg = mglru_memcg_create(name, setup->memcg_max,
				     setup->swap ? -1 : 0);
	if (!ctx->cg ||
	    mglru_write_restore("/sys/kernel/mm/lru_gen/enabled",
				ctx->mode == MGLRU_MODE_MGLRU ? "y" : "n"))
		return -1;
	ksft_print_msg("lru_gen/enabled = %s\n", mode_names[ctx->mode]);
	ret = setup->zram_size ? mglru_zram_swap_setup(setup->zram_size) : 0;
	if (!ret && setup->data_size)
		ret = mglru_bdev_setup(ctx, setup, fs_size(setup));
	return ret;
}

/*
 * Undo what the run made, by name, each step a no-op where there is nothing
 * to undo: kill the memcgs' processes and remove the memcgs, restore the
 * knobs, take the storage apart. The number of things found.
 */
static int teardown(bool report)
{
	int found = mglru_memcg_remove(report);

	found += mglru_state_undo(report);
	return found + mglru_bdev_teardown(report);
}

/* one LRU mode: a child sets it up and runs it, then the teardown */
static int run_mode(const struct mglru_scenario *s, struct mglru_ctx *ctx)
{
	pid_t pid, parent = getpid();
	int status = 0;

	*child_ret = -2;
	if (mglru_caught() || mglru_state_create())
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		mglru_catch_signals(false);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		*child_ret = set_up(ctx, s->setup, s->name) ?: s->run(ctx);
		fflush(stdout);
		_exit(0);
	}
	/* polled: a signal caught is seen within 0.1 s, whenever it came */
	while (pid > 0 && !mglru_wait(pid, &status, 0.1))
		if (mglru_caught())
			kill(pid, SIGKILL);
	teardown(false);
	if (*child_ret != -2 || !WIFSIGNALED(status))
		return *child_ret == -2 ? -1 : *child_ret;
	ksft_print_msg("%s: the harness was killed by signal %d\n", ctx->test,
		       WTERMSIG(status));
	return KSFT_FAIL;
}

static void report(const char *test, int ret)
{
	if (ret < 0)
		ksft_print_msg("%s: setup failed\n", test);
	if (ret == KSFT_SKIP)
		ksft_test_result_code(KSFT_SKIP, test, "%s", mglru_skip_reason);
	else
		ksft_test_result_code(ret ? KSFT_FAIL : KSFT_PASS, test, NULL);
}

/* after a teardown, die of the signal that was caught, if one was */
static void exit_if_caught(void)
{
	int sig = mglru_caught();

	if (!sig)
		return;
	ksft_print_msg("caught signal %d, cleaned up\n", sig);
	signal(sig, SIG_DFL);
	raise(sig);
	exit(1);
}

int mglru_main(int argc, char **argv, const struct mglru_scenario *s)
{
	struct mglru_setup *setup = s->setup;
	unsigned int modes = 3, slow = 1;
	bool teardown_only = false;
	struct mglru_opt opts[NR_OPTS] = {
		{ 'm', "mglru|classic", parse_mode, &modes },
		{ 'C', NULL, set_flag, &teardown_only },
		{ 'h', NULL, set_flag, NULL },
		{ 'M', "memcg_size", mglru_opt_size, &setup->memcg_max },
		{ 'f', "data_size", mglru_opt_size, &setup->data_size },
	};
	const char *env = getenv("KSFT_MACHINE_SLOW");
	char path[4096];
	int i, ret;

	for (i = 0; s->opts[i].name && i < NR_OPTS - 6; i++)
		opts[i + 5] = s->opts[i];
	if (parse_opts(argc, argv, opts) || s->configure()) {
		fprintf(stderr, "usage: %s", argv[0]);
		for (i = 0; opts[i].name; i++)
			fprintf(stderr, " [-%c%s%s]", opts[i].name,
				opts[i].arg ? " " : "", opts[i].arg ?: "");
		fprintf(stderr, " (sizes: MiB or K/M/G suffix)\n");
		exit(1);
	}
	if (setup->memcg_max < MEMCG_PROCS) {
		fprintf(stderr, "%s: -M memcg_size must be at least %lu MiB, not %lu KiB\n",
			argv[0], MEMCG_PROCS >> 20, setup->memcg_max >> 10);
		exit(1);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* losetup, dmsetup and mkswap live in sbin */
	snprintf(path, sizeof(path), "%s:/usr/sbin:/sbin", getenv("PATH") ?: "/bin");
	setenv("PATH", path, 1);
	mglru_skip_reason = mglru_shared_alloc(256);
	child_ret = mglru_shared_alloc(sizeof(*child_ret));
	if (!mglru_skip_reason || !child_ret)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	mglru_catch_signals(true);

	ksft_print_header();
	ksft_set_plan(teardown_only ? 0 : __builtin_popcount(modes));
	if (!teardown_only) {
		ksft_print_msg("memcg %lu MiB (swap %s), data %lu MiB\n",
			       setup->memcg_max >> 20, setup->swap ? "max" : "0",
			       setup->data_size >> 20);
		s->describe();
	}
	if (env && !strcmp(env, "yes")) {
		slow = 3;
		ksft_print_msg("KSFT_MACHINE_SLOW=yes: time limits x%u\n", slow);
	}
	if (geteuid())
		ret = mglru_skip("must be run as root");
	else if (access("/sys/kernel/mm/lru_gen/enabled", W_OK))
		ret = mglru_skip("lru_gen/enabled not available (CONFIG_LRU_GEN=n?)");
	else
		ret = mglru_memcg_check() ?: mglru_home_init(LOCK_WAIT_S * slow);
	if (ret && teardown_only)
		ksft_exit_skip("%s\n", mglru_skip_reason);
	if (!ret && !teardown(true) && teardown_only)
		ksft_print_msg("cleanup: nothing left by earlier runs\n");
	exit_if_caught();
	if (teardown_only)
		ksft_finished();
	for (i = 0; i < MGLRU_NR_MODES; i++) {
		struct mglru_ctx ctx = { .mode = i, .slow = slow };

		if (!(modes & (1U << i)))
			continue;
		snprintf(ctx.test, sizeof(ctx.test), "%s_%s", s->name,
			 mode_names[i]);
		report(ctx.test, ret ?: run_mode(s, &ctx));
		exit_if_caught();
	}
	if (ksft_plan && ksft_get_xskip_cnt() == (int)ksft_plan) {
		ksft_print_cnts();
		exit(KSFT_SKIP);
	}
	ksft_finished();
}
