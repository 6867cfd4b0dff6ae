// SPDX-License-Identifier: GPL-2.0
/*
 * The main() of every MGLRU selftest. The parent parses the options, checks
 * the prerequisites, takes the lock and tears down what a killed run left;
 * then, for each LRU mode, a child sets up the scenario and runs it while
 * the parent waits, and the parent tears down and prints the KTAP result
 * <scenario>_<mode>. The parent's signal handler only notes the signal and
 * kills the child: the teardown runs in the parent's main line.
 *
 * Common options: -m mglru|classic runs one LRU mode (the kselftest runner
 * passes it through KSELFTEST_<TEST>_ARGS); -C only tears down what earlier,
 * killed runs left. KSFT_MACHINE_SLOW=yes (slow or emulated machines, as
 * kernel CI sets it) multiplies the scenario's time limits by three.
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

#define SLOW_FACTOR	3
#define LOCK_WAIT_S	60	/* for another run's lock, before SLOW_FACTOR */
#define MEM_RESERVE	(128 * SZ_1M)	/* kept beyond what a scenario takes */
/* below the smallest memcg any run has used: the processes need room */
#define MEMCG_PROCS	(16 * SZ_1M)

static const char * const mode_names[MGLRU_NR_MODES] = { "mglru", "classic" };
static const int signals[] = { SIGTERM, SIGINT, SIGHUP, SIGALRM };

volatile sig_atomic_t mglru_caught;
static volatile pid_t child;
static int *child_ret;	/* shared: the child's result, -2 until it has one */

static void on_signal(int sig)
{
	mglru_caught = sig;
	if (child > 0)
		kill(child, SIGKILL);
}

static int parse_mode(const char *arg, void *val)
{
	int i;

	for (i = 0; i < MGLRU_NR_MODES; i++) {
		if (!strcmp(arg, mode_names[i])) {
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

/* The ext4 image for the data. */
static unsigned long fs_size(const struct mglru_setup *setup)
{
	return setup->data_size + setup->data_size / 8 + 64 * SZ_1M +
	       setup->fs_free;
}

/*
 * 0 if the machine can give the scenario its memcg, the tmpfs under its
 * filesystem and what it can swap to zram, and keep MEM_RESERVE; else SKIP.
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

/* In the child: everything the scenario asked for, in @ctx. */
static int set_up(struct mglru_ctx *ctx, const struct mglru_setup *setup,
		  const char *name)
{
	int ret;

	ret = mglru_need_tools(setup->tools);
	if (!ret)
		ret = check_memory(setup);
	if (ret)
		return ret;
	if (mglru_memcg_enter_harness() ||
	    mglru_write_restore("/sys/kernel/mm/lru_gen/enabled",
				ctx->mode == MGLRU_MODE_MGLRU ? "y" : "n"))
		return -1;
	ksft_print_msg("lru_gen/enabled = %s\n", mode_names[ctx->mode]);
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

static __noreturn void run_child(const struct mglru_scenario *s,
				 struct mglru_ctx *ctx, pid_t parent)
{
	sigset_t none;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(signals); i++)
		signal(signals[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	ret = set_up(ctx, s->setup, s->name);
	if (!ret)
		ret = s->run(ctx);
	*child_ret = ret;
	fflush(stdout);
	_exit(0);
}

/* One LRU mode: the child's setup and run, then the teardown; a result. */
static int run_mode(const struct mglru_scenario *s, struct mglru_ctx *ctx)
{
	pid_t pid, self = getpid();
	int status = 0, ret;

	*child_ret = -2;
	if (mglru_caught || mglru_state_create())
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0)
		run_child(s, ctx, self);
	child = pid;
	if (pid > 0 && mglru_caught)
		kill(pid, SIGKILL);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	child = 0;
	mglru_teardown(false);
	ret = *child_ret;
	if (ret != -2)
		return ret;
	if (WIFSIGNALED(status))
		ksft_print_msg("%s: the harness was killed by signal %d\n",
			       ctx->test, WTERMSIG(status));
	return WIFSIGNALED(status) ? KSFT_FAIL : -1;
}

/* "ok N <test> # SKIP <reason>" or "[not ]ok N <test>" */
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

/* 0 if the machine can run the tests at all, and the lock; else KSFT_SKIP */
static int prerequisites(unsigned int slow)
{
	int ret;

	if (geteuid())
		return mglru_skip("must be run as root");
	if (access("/sys/kernel/mm/lru_gen/enabled", W_OK))
		return mglru_skip("lru_gen/enabled not available (CONFIG_LRU_GEN=n?)");
	ret = mglru_memcg_check();
	if (!ret)
		ret = mglru_home_init();
	return ret ?: mglru_home_lock(LOCK_WAIT_S * slow);
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(signals); i++)
		sigaction(signals[i], &sa, NULL);
}

/* After a teardown, die of the signal that was caught, if one was. */
static void exit_if_caught(void)
{
	int sig = mglru_caught;

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
	unsigned int modes = (1U << MGLRU_NR_MODES) - 1, slow = 1;
	bool teardown_only = false;
	const struct mglru_opt common_opts[] = {
		{ 'm', "mglru|classic", parse_mode, &modes },
		{ 'C', NULL, set_flag, &teardown_only },
		{ 'h', NULL, usage, NULL },
		{ 'M', "memcg_size", mglru_opt_size, &setup->memcg_max },
		{ 'f', "data_size", mglru_opt_size, &setup->data_size },
		{ 0 }
	};
	const char *env = getenv("KSFT_MACHINE_SLOW");
	char path[4096];
	int mode, ret;

	if (mglru_parse_opts(argc, argv, common_opts, s->opts) ||
	    s->configure())
		mglru_usage(argv[0], common_opts, s->opts);
	/* a memcg that cannot hold the processes fails every kernel */
	if (setup->memcg_max < MEMCG_PROCS) {
		fprintf(stderr, "%s: -M memcg_size must be at least %lu MiB, not %lu KiB\n",
			argv[0], MEMCG_PROCS >> 20, setup->memcg_max >> 10);
		exit(1);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* losetup, dmsetup and mkswap live in sbin */
	snprintf(path, sizeof(path), "%s:/usr/sbin:/sbin",
		 getenv("PATH") ?: "/usr/bin:/bin");
	setenv("PATH", path, 1);
	mglru_skip_reason = mglru_shared_alloc(256);
	child_ret = mglru_shared_alloc(sizeof(*child_ret));
	if (!mglru_skip_reason || !child_ret)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	catch_signals();

	ksft_print_header();
	ksft_set_plan(teardown_only ? 0 : __builtin_popcount(modes));
	if (!teardown_only) {
		ksft_print_msg("memcg %lu MiB (swap %s), data %lu MiB\n",
			       setup->memcg_max >> 20,
			       setup->swap ? "max" : "0",
			       setup->data_size >> 20);
		s->describe();
	}
	if (env && !strcmp(env, "yes")) {
		slow = SLOW_FACTOR;
		ksft_print_msg("KSFT_MACHINE_SLOW=yes: time limits x%u\n", slow);
	}

	ret = prerequisites(slow);
	if (ret && teardown_only)
		ksft_exit_skip("%s\n", mglru_skip_reason);
	if (!ret && !mglru_teardown(true) && teardown_only)
		ksft_print_msg("cleanup: nothing left by earlier runs\n");
	exit_if_caught();
	if (teardown_only)
		ksft_finished();
	for (mode = 0; mode < MGLRU_NR_MODES; mode++) {
		struct mglru_ctx ctx = { .mode = mode, .slow = slow };

		if (!(modes & (1U << mode)))
			continue;
		snprintf(ctx.test, sizeof(ctx.test), "%s_%s", s->name,
			 mode_names[mode]);
		report(ctx.test, ret ?: run_mode(s, &ctx));
		exit_if_caught();
	}
	if (ksft_plan && ksft_get_xskip_cnt() == (int)ksft_plan) {
		ksft_print_cnts();
		exit(KSFT_SKIP);
	}
	ksft_finished();
}
