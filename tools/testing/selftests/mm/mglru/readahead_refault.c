// SPDX-License-Identifier: GPL-2.0
/*
 * Strided mmap readahead refaults: a reader touches 4 KiB of every 64 KiB
 * of a file larger than its memcg through a shared read-only mapping. The
 * touched pages (about 6% of the file) fit easily, the readahead pages
 * around them do not; reclaim should evict the never-touched readahead pages
 * and keep the touched ones, so refaults after the warm-up stay near zero
 * and the reader runs at memory speed. Both are checked: a reader stalled
 * in a memcg too small for its touched pages can count few refaults (340 at
 * 24M, at 10 MiB/s), so the window's bandwidth must also reach -B MiB/s
 * (the thrash reported upstream ran at 58.5 MiB/s, the fixed kernel at
 * 5078 MiB/s).
 *
 * The file lives on ext4 over a loop device backed by tmpfs: not tmpfs
 * itself (no readahead) and not 9p/virtiofs (host page cache semantics).
 *
 * The warm-up lasts at least -w seconds and until the reader has finished
 * -P full passes (the first, cold pass alone can take longer than 10 s under
 * TCG, and its refaults are not the steady state), but at most -X seconds.
 *
 * fio is deliberately not used: fio 3.33's strided zonemode job
 * (--zonemode=strided --zonesize=4K --zonerange=64K --ioengine=mmap) was
 * checked with fincore and left only ~7 MB of a 600 MB file resident, i.e.
 * it cycled over a few zones instead of striding the whole file, so it puts
 * no pressure on the memcg. The C reader below is the reference workload.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "../../kselftest.h"
#include "mglru_lib.h"

static struct {
	unsigned long memcg;
	unsigned long file;
	unsigned long stride;
	unsigned long warmup_s;
	unsigned long warmup_passes;
	unsigned long warmup_max_s;
	unsigned long window_s;
	unsigned long threshold;
	unsigned long min_mib_s;
} cfg = {
	.memcg = 400 * SZ_1M,
	.file = 600 * SZ_1M,
	.stride = 64 << 10,
	.warmup_s = 10,
	.warmup_passes = 2,
	.warmup_max_s = 90,
	.window_s = 20,
	.threshold = 1000,
	.min_mib_s = 100,
};

#define TOUCH_SIZE	4096

struct shared {
	unsigned long touches;
	unsigned long passes;
};

static struct shared *sh;
static char file_path[MGLRU_PATH_LEN + 16];

static int reader(void *arg)
{
	unsigned long off;
	char *map;
	int fd;

	fd = open(file_path, O_RDONLY);
	if (fd < 0)
		return 1;
	map = mmap(NULL, cfg.file, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return 1;
	for (;;) {
		for (off = 0; off < cfg.file; off += cfg.stride) {
			/* One load maps the whole 4 KiB page of the zone. */
			__atomic_load_n(&map[off], __ATOMIC_RELAXED);
			__atomic_store_n(&sh->touches, sh->touches + 1,
					 __ATOMIC_RELAXED);
		}
		__atomic_store_n(&sh->passes, sh->passes + 1,
				 __ATOMIC_RELAXED);
	}
	return 0;
}

static void run_mode(int mode)
{
	long refault0, refault1, oom_kill, file_mem;
	unsigned long touches0, touches1, passes0, passes1;
	double start, t0, t1, mib_s;
	struct mglru_bdev bdev;
	char test[64];
	int mark, ret, status;
	const char *cg;
	pid_t pid;

	snprintf(test, sizeof(test), "readahead_refault_%s",
		 mglru_mode_names[mode]);
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
	cg = mglru_memcg_create("readahead_refault", cfg.memcg, 0);
	if (!cg)
		goto error;

	start = mglru_now();
	pid = mglru_spawn(cg, reader, NULL);
	if (pid < 0)
		goto error;
	do {
		if (mglru_wait(pid, &status, 0.5) != 0)
			goto died;
		t0 = mglru_now() - start;
	} while ((t0 < cfg.warmup_s ||
		  __atomic_load_n(&sh->passes, __ATOMIC_RELAXED) <
		  cfg.warmup_passes) && t0 < cfg.warmup_max_s);
	mglru_metric(test, "warmup_s", "%.1f", t0);
	mglru_metric(test, "warmup_passes", "%lu",
		     __atomic_load_n(&sh->passes, __ATOMIC_RELAXED));

	t0 = mglru_now();
	refault0 = mglru_memcg_stat(cg, "workingset_refault_file");
	touches0 = __atomic_load_n(&sh->touches, __ATOMIC_RELAXED);
	passes0 = __atomic_load_n(&sh->passes, __ATOMIC_RELAXED);
	if (mglru_wait(pid, &status, cfg.window_s) != 0)
		goto died;
	t1 = mglru_now();
	refault1 = mglru_memcg_stat(cg, "workingset_refault_file");
	touches1 = __atomic_load_n(&sh->touches, __ATOMIC_RELAXED);
	passes1 = __atomic_load_n(&sh->passes, __ATOMIC_RELAXED);
	file_mem = mglru_memcg_stat(cg, "file");
	oom_kill = mglru_memcg_event(cg, "oom_kill");
	mglru_kill(pid);

	mib_s = (double)(touches1 - touches0) * TOUCH_SIZE / SZ_1M / (t1 - t0);
	mglru_metric(test, "duration_s", "%.1f", mglru_now() - start);
	mglru_metric(test, "oom_kill", "%ld", oom_kill);
	mglru_metric(test, "refault_file", "%ld", refault1 - refault0);
	mglru_metric(test, "mib_per_s", "%.1f", mib_s);
	mglru_metric(test, "passes", "%lu", passes1 - passes0);
	mglru_metric(test, "file_mib", "%ld", file_mem >> 20);
	mglru_metric(test, "threshold", "%lu", cfg.threshold);
	mglru_metric(test, "min_mib_per_s", "%lu", cfg.min_mib_s);
	mglru_cleanup_to(mark);

	ksft_test_result(!oom_kill && refault1 - refault0 <= (long)cfg.threshold &&
			 mib_s >= cfg.min_mib_s, "%s\n", test);
	return;
died:
	oom_kill = mglru_memcg_event(cg, "oom_kill");
	mglru_metric(test, "duration_s", "%.1f", mglru_now() - start);
	mglru_metric(test, "oom_kill", "%ld", oom_kill);
	mglru_cleanup_to(mark);
	ksft_test_result_fail("%s: reader died (status 0x%x)\n", test, status);
	return;
error:
	mglru_cleanup_to(mark);
	ksft_test_result_error("%s: setup failed\n", test);
}

/* the stride is given in KiB */
static int parse_kib(const char *arg, void *val)
{
	unsigned long *bytes = val;

	if (mglru_parse_ulong(arg, bytes) || *bytes > ULONG_MAX >> 10)
		return -1;
	*bytes <<= 10;
	return 0;
}

static unsigned int modes = MGLRU_MODES_ALL;

static const struct mglru_opt opts[] = {
	{ 'm', "mglru|classic", mglru_opt_mode, &modes },
	{ 'M', "memcg_size", mglru_opt_size, &cfg.memcg },
	{ 'f', "file_size", mglru_opt_size, &cfg.file },
	{ 's', "stride_kib", parse_kib, &cfg.stride },
	{ 'w', "min_warmup_s", mglru_opt_ulong, &cfg.warmup_s },
	{ 'P', "min_warmup_passes", mglru_opt_ulong, &cfg.warmup_passes },
	{ 'X', "max_warmup_s", mglru_opt_ulong, &cfg.warmup_max_s },
	{ 'W', "window_s", mglru_opt_ulong, &cfg.window_s },
	{ 'T', "max_refaults", mglru_opt_ulong, &cfg.threshold },
	{ 'B', "min_mib_per_s", mglru_opt_ulong, &cfg.min_mib_s },
	{ 0 }
};

int main(int argc, char **argv)
{
	int ret;

	mglru_parse_opts(argc, argv, opts);
	if (cfg.stride < TOUCH_SIZE || cfg.stride % TOUCH_SIZE ||
	    cfg.file < cfg.stride || !cfg.window_s)
		mglru_opts_usage(argv[0], opts);

	ksft_print_header();
	ksft_set_plan(__builtin_popcount(modes));
	ksft_print_msg("memcg %lu M, file %lu M, 4 KiB every %lu KiB\n",
		       cfg.memcg >> 20, cfg.file >> 20, cfg.stride >> 10);
	ksft_print_msg("warm-up %lu-%lu s and %lu passes, window %lu s\n",
		       cfg.warmup_s, cfg.warmup_max_s, cfg.warmup_passes,
		       cfg.window_s);

	ret = mglru_init();
	sh = mglru_shared_alloc(sizeof(*sh));
	if (ret == MGLRU_OK && !sh)
		ret = MGLRU_ERR;
	mglru_run_modes("readahead_refault", modes, ret, run_mode);
	mglru_finished();
}
