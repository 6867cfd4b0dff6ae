// SPDX-License-Identifier: GPL-2.0
/*
 * Aging OOM: file readers keep a mapped file hot while anon workers
 * allocate, touch and free anon memory in rounds; file + anon exceed
 * memory.max and memory.swap.max is 0, so only the file cache can be
 * reclaimed. A memcg OOM while evictable file pages are left is the bug
 * (MGLRU aging racing with a second reclaimer and finding nothing to evict).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../../kselftest.h"
#include "mglru_lib.h"

#define MAX_PROCS	64

static struct {
	unsigned long memcg;
	unsigned long file;
	unsigned long anon;
	unsigned long rounds;
	unsigned long readers;
	unsigned long workers;
	unsigned long pause_ms;
	unsigned long timeout_s;
} cfg = {
	.memcg = 512 * SZ_1M,
	.file = 256 * SZ_1M,
	.anon = 448 * SZ_1M,
	.rounds = 20,
	.readers = 4,
	.workers = 4,
	.pause_ms = 120,
	.timeout_s = 300,
};

struct shared {
	int stop;
	unsigned long passes;
	unsigned long rounds_done[MAX_PROCS];
};

static struct shared *sh;
static char file_path[MGLRU_PATH_LEN + 16];

static int reader(void *arg)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long off;
	char *map;
	int fd;

	fd = open(file_path, O_RDONLY);
	if (fd < 0)
		return 1;
	map = mmap(NULL, cfg.file, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return 1;
	while (!__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) {
		for (off = 0; off < cfg.file; off += page)
			__atomic_load_n(&map[off], __ATOMIC_RELAXED);
		__atomic_add_fetch(&sh->passes, 1, __ATOMIC_RELAXED);
		mglru_sleep_ms(cfg.pause_ms);
	}
	return 0;
}

static int anon_worker(void *arg)
{
	unsigned long idx = (unsigned long)arg;
	unsigned long size = cfg.anon / cfg.workers;
	long page = sysconf(_SC_PAGESIZE);
	unsigned long r, off;
	char *p;

	for (r = 0; r < cfg.rounds; r++) {
		p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return 1;
		for (off = 0; off < size; off += page)
			p[off] = (char)r;
		munmap(p, size);
		sh->rounds_done[idx] = r + 1;
	}
	return 0;
}

static void run_mode(int mode)
{
	char test[64];
	pid_t readers[MAX_PROCS], workers[MAX_PROCS];
	long file = 0, anon = 0, oom_file = -1, oom_anon = -1;
	long oom_kill = 0, refaults;
	unsigned long i, nr_done = 0, min_rounds = ~0UL;
	bool failed_worker = false, timed_out = false;
	struct mglru_bdev bdev;
	const char *cg;
	double start, end;
	int mark, ret, status;

	snprintf(test, sizeof(test), "aging_oom_%s", mglru_mode_names[mode]);
	mark = mglru_cleanup_mark();
	memset(sh, 0, sizeof(*sh));

	if (mglru_set_lru_mode(mode))
		goto error;
	ret = mglru_bdev_setup(&bdev, cfg.file + cfg.file / 8 + 64 * SZ_1M,
			       -1);
	if (ret == MGLRU_SKIP) {
		mglru_cleanup_to(mark);
		ksft_test_result_skip("%s: %s\n", test, mglru_skip_reason);
		return;
	}
	if (ret)
		goto error;
	snprintf(file_path, sizeof(file_path), "%s/file", bdev.mnt);
	if (mglru_create_file(file_path, cfg.file) ||
	    mglru_bdev_remount(&bdev))
		goto error;
	cg = mglru_memcg_create("aging_oom", cfg.memcg, 0);
	if (!cg)
		goto error;

	start = mglru_now();
	for (i = 0; i < cfg.readers; i++) {
		readers[i] = mglru_spawn(cg, reader, NULL);
		if (readers[i] < 0)
			goto error;
	}
	for (i = 0; i < cfg.workers; i++) {
		workers[i] = mglru_spawn(cg, anon_worker, (void *)i);
		if (workers[i] < 0)
			goto error;
	}

	/* Sample memory.stat so the last sample before an OOM kill is known. */
	while (nr_done < cfg.workers) {
		long kills = mglru_memcg_event(cg, "oom_kill");

		if (kills > 0 && oom_file < 0) {
			oom_file = file;
			oom_anon = anon;
		}
		if (kills >= 0)
			oom_kill = kills;
		if (!kills) {
			file = mglru_memcg_stat(cg, "file");
			anon = mglru_memcg_stat(cg, "anon");
		}
		for (i = 0; i < cfg.workers; i++) {
			if (!workers[i])
				continue;
			if (mglru_wait(workers[i], &status, 0) == 1) {
				workers[i] = 0;
				nr_done++;
				if (!WIFEXITED(status) || WEXITSTATUS(status))
					failed_worker = true;
			}
		}
		if (mglru_now() - start > cfg.timeout_s) {
			timed_out = true;
			break;
		}
		mglru_sleep_ms(100);
	}
	end = mglru_now();
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < cfg.readers; i++) {
		if (mglru_wait(readers[i], &status, 10) != 1)
			mglru_kill(readers[i]);
	}

	ret = mglru_memcg_event(cg, "oom_kill");
	if (ret > oom_kill)
		oom_kill = ret;
	if (oom_kill > 0 && oom_file < 0) {
		oom_file = file;
		oom_anon = anon;
	}
	refaults = mglru_memcg_stat(cg, "workingset_refault_file");
	for (i = 0; i < cfg.workers; i++)
		if (sh->rounds_done[i] < min_rounds)
			min_rounds = sh->rounds_done[i];

	mglru_metric(test, "duration_s", "%.1f", end - start);
	mglru_metric(test, "oom_kill", "%ld", oom_kill);
	mglru_metric(test, "rounds_done", "%lu", min_rounds);
	mglru_metric(test, "rounds", "%lu", cfg.rounds);
	mglru_metric(test, "reader_passes", "%lu", sh->passes);
	mglru_metric(test, "refault_file", "%ld", refaults);
	if (oom_kill > 0) {
		mglru_metric(test, "oom_file_mib", "%ld", oom_file >> 20);
		mglru_metric(test, "oom_anon_mib", "%ld", oom_anon >> 20);
	}
	mglru_cleanup_to(mark);

	if (timed_out)
		ksft_print_msg("%s: timed out after %lu s\n", test,
			       cfg.timeout_s);
	ksft_test_result(!oom_kill && !failed_worker && !timed_out &&
			 min_rounds == cfg.rounds, "%s\n", test);
	return;
error:
	mglru_cleanup_to(mark);
	ksft_test_result_error("%s: setup failed\n", test);
}

static unsigned int modes = MGLRU_MODES_ALL;

static const struct mglru_opt opts[] = {
	{ 'm', "mglru|classic", mglru_opt_mode, &modes },
	{ 'M', "memcg_size", mglru_opt_size, &cfg.memcg },
	{ 'f', "file_size", mglru_opt_size, &cfg.file },
	{ 'a', "anon_per_round", mglru_opt_size, &cfg.anon },
	{ 'r', "rounds", mglru_opt_ulong, &cfg.rounds },
	{ 'R', "readers", mglru_opt_ulong, &cfg.readers },
	{ 'w', "anon_workers", mglru_opt_ulong, &cfg.workers },
	{ 'p', "reader_pause_ms", mglru_opt_ulong, &cfg.pause_ms },
	{ 't', "timeout_s", mglru_opt_ulong, &cfg.timeout_s },
	{ 0 }
};

int main(int argc, char **argv)
{
	int ret;

	mglru_parse_opts(argc, argv, opts);
	if (!cfg.readers || cfg.readers > MAX_PROCS || !cfg.workers ||
	    cfg.workers > MAX_PROCS || !cfg.rounds || !cfg.timeout_s)
		mglru_opts_usage(argv[0], opts);

	ksft_print_header();
	ksft_set_plan(__builtin_popcount(modes));
	ksft_print_msg("memcg %lu M, file %lu M, anon %lu M x %lu rounds\n",
		       cfg.memcg >> 20, cfg.file >> 20, cfg.anon >> 20,
		       cfg.rounds);
	ksft_print_msg("%lu readers, %lu anon workers\n", cfg.readers,
		       cfg.workers);

	ret = mglru_init();
	sh = mglru_shared_alloc(sizeof(*sh));
	if (ret == MGLRU_OK && !sh)
		ret = MGLRU_ERR;
	mglru_run_modes("aging_oom", modes, ret, run_mode);
	mglru_finished();
}
