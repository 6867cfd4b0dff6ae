// SPDX-License-Identifier: GPL-2.0
/*
 * Aging OOM: readers keep a mapped file hot while anon workers allocate,
 * touch and free anon memory in rounds; file + anon exceed memory.max and
 * memory.swap.max is 0, so only the file cache can be reclaimed. A memcg OOM
 * kill while evictable file pages are left is the bug: MGLRU's aging racing
 * with a second reclaimer, which then finds nothing to evict.
 * Precondition: reclaim ran in the memcg (pgsteal).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "mglru.h"

#define MAX_PROCS	64

static struct mglru_setup setup = {
	.memcg_max = 512 * SZ_1M, .data_size = 256 * SZ_1M, .data_file = true,
};

static struct {
	unsigned long anon, rounds, readers, workers, pause_ms, timeout_s;
} cfg = {
	.anon = 448 * SZ_1M, .rounds = 20, .readers = 4, .workers = 4,
	.pause_ms = 120, .timeout_s = 100,
};

static const struct mglru_opt opts[] = {
	MGLRU_SIZE('a', cfg, anon), MGLRU_ULONG('r', cfg, rounds),
	MGLRU_ULONG('R', cfg, readers), MGLRU_ULONG('w', cfg, workers),
	MGLRU_ULONG('p', cfg, pause_ms), MGLRU_ULONG('t', cfg, timeout_s), { 0 }
};

static struct shared {
	int stop;
	unsigned long passes;
	unsigned long rounds_done[MAX_PROCS];
} *sh;

static const char *file_path;

static int reader(void *arg)
{
	char *map = mglru_map_file(file_path, setup.data_size);

	if (!map)
		return 1;
	while (!__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) {
		mglru_touch(map, setup.data_size, getpagesize(), false);
		__atomic_add_fetch(&sh->passes, 1, __ATOMIC_RELAXED);
		mglru_sleep_ms(cfg.pause_ms);
	}
	return 0;
}

static int anon_worker(void *arg)
{
	unsigned long idx = (unsigned long)arg;
	unsigned long size = cfg.anon / cfg.workers;
	unsigned long r;
	char *p;

	for (r = 0; r < cfg.rounds; r++) {
		p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return 1;
		mglru_touch(p, size, getpagesize(), true);
		munmap(p, size);
		sh->rounds_done[idx] = r + 1;
	}
	return 0;
}

/* Wait for the workers, sampling the memcg until its first OOM kill. */
static bool wait_workers(struct mglru_ctx *ctx, pid_t *workers,
			 long *oom_file, long *oom_anon, bool *failed)
{
	double end = mglru_now() + cfg.timeout_s * ctx->slow;
	unsigned long i, nr_done = 0;
	int status;

	while (nr_done < cfg.workers) {
		if (mglru_memcg_event(ctx->cg, "oom_kill") <= 0) {
			*oom_file = mglru_memcg_stat(ctx->cg, "file");
			*oom_anon = mglru_memcg_stat(ctx->cg, "anon");
		}
		for (i = 0; i < cfg.workers; i++) {
			if (!workers[i] || mglru_wait(workers[i], &status, 0) != 1)
				continue;
			workers[i] = 0;
			nr_done++;
			*failed |= !WIFEXITED(status) || WEXITSTATUS(status);
		}
		if (mglru_now() > end)
			return false;
		mglru_sleep_ms(100);
	}
	return true;
}

static int run(struct mglru_ctx *ctx)
{
	pid_t readers[MAX_PROCS], workers[MAX_PROCS];
	long oom_kill, oom_file = -1, oom_anon = -1, reclaimed;
	unsigned long i, min_rounds = ~0UL;
	bool failed = false, done;
	double start = mglru_now();

	memset(sh, 0, sizeof(*sh));
	file_path = ctx->file;
	for (i = 0; i < cfg.readers; i++) {
		readers[i] = mglru_spawn(ctx->cg, reader, NULL);
		if (readers[i] < 0)
			return -1;
	}
	for (i = 0; i < cfg.workers; i++) {
		workers[i] = mglru_spawn(ctx->cg, anon_worker, (void *)i);
		if (workers[i] < 0)
			return -1;
	}
	done = wait_workers(ctx, workers, &oom_file, &oom_anon, &failed);
	mglru_metric(ctx, "duration_s", "%.1f", mglru_now() - start);
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < cfg.readers; i++)
		if (mglru_wait(readers[i], NULL, 10) != 1)
			mglru_kill(readers[i]);

	oom_kill = mglru_memcg_event(ctx->cg, "oom_kill");
	reclaimed = mglru_memcg_stat(ctx->cg, "pgsteal");
	for (i = 0; i < cfg.workers; i++)
		if (sh->rounds_done[i] < min_rounds)
			min_rounds = sh->rounds_done[i];
	mglru_metric(ctx, "oom_kill", "%ld", oom_kill);
	mglru_metric(ctx, "rounds_done", "%lu", min_rounds);
	mglru_metric(ctx, "reader_passes", "%lu", sh->passes);
	mglru_metric(ctx, "refault_file", "%ld",
		     mglru_memcg_stat(ctx->cg, "workingset_refault_file"));
	mglru_metric(ctx, "reclaimed_pages", "%ld", reclaimed);
	if (oom_kill > 0) {
		mglru_metric(ctx, "oom_file_mib", "%ld", oom_file >> 20);
		mglru_metric(ctx, "oom_anon_mib", "%ld", oom_anon >> 20);
	}

	if (mglru_check(ctx, done, "workers still running after %lu s",
			cfg.timeout_s * ctx->slow) &&
	    mglru_check(ctx, reclaimed > 0,
			"precondition not met: no reclaim in the memcg") &&
	    mglru_check(ctx, !oom_kill, "%ld OOM kills", oom_kill) &&
	    mglru_check(ctx, !failed && min_rounds == cfg.rounds,
			"a worker failed after %lu of %lu rounds", min_rounds,
			cfg.rounds))
		return KSFT_PASS;
	return KSFT_FAIL;
}

static int configure(void)
{
	if (!cfg.readers || cfg.readers > MAX_PROCS || !cfg.workers ||
	    cfg.workers > MAX_PROCS || !cfg.rounds || !cfg.timeout_s)
		return -1;
	sh = mglru_shared_alloc(sizeof(*sh));
	return sh ? 0 : -1;
}

static void describe(void)
{
	ksft_print_msg("%lu readers of the file, %lu workers x %lu M anon x %lu rounds\n",
		       cfg.readers, cfg.workers, cfg.anon >> 20, cfg.rounds);
}

static const struct mglru_scenario scenario = {
	.name = "aging_oom", .setup = &setup, .opts = opts,
	.configure = configure, .describe = describe, .run = run,
};

int main(int argc, char **argv)
{
	return mglru_main(argc, argv, &scenario);
}
