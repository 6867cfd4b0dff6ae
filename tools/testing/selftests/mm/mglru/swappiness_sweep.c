// SPDX-License-Identifier: GPL-2.0
/*
 * Swappiness sweep: a memcg with zram swap runs anon memory touched over and
 * over next to a mapped file read over and over, both hot and together larger
 * than memory.max (a file streamed once per pass would always be the cheaper
 * victim and reclaim would never touch anon, whatever the swappiness).
 * For each vm.swappiness value (cgroup v2 memcgs use the global value) the
 * anon share of reclaim is measured from /proc/vmstat deltas; it has to grow
 * (within a tolerance) with swappiness.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "../../kselftest.h"
#include "mglru_lib.h"

#define MAX_VALUES	16
#define SWAPPINESS	"/proc/sys/vm/swappiness"

static struct {
	unsigned long memcg;
	unsigned long anon;
	unsigned long file;
	unsigned long zram;
	unsigned long warmup_s;
	unsigned long period_s;
	unsigned long settle_s;
	unsigned long tolerance;
	unsigned long values[MAX_VALUES];
	int nr_values;
} cfg = {
	.memcg = 256 * SZ_1M,
	.anon = 160 * SZ_1M,
	.file = 160 * SZ_1M,
	.zram = 1024 * SZ_1M,
	.warmup_s = 10,
	.period_s = 8,
	.settle_s = 2,
	.tolerance = 5,
	.values = { 10, 60, 100, 150, 200 },
	.nr_values = 5,
};

static char file_path[MGLRU_PATH_LEN + 16];

static int anon_worker(void *arg)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long off, pass = 0;
	char *p;

	p = mmap(NULL, cfg.anon, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	for (;; pass++)
		for (off = 0; off < cfg.anon; off += page)
			p[off] = (char)pass;
	return 0;
}

static int file_reader(void *arg)
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
	for (;;)
		for (off = 0; off < cfg.file; off += page)
			__atomic_load_n(&map[off], __ATOMIC_RELAXED);
	return 0;
}

struct sample {
	long anon;
	long file;
	long swpout;
};

static bool use_pgsteal;

static void snap(struct sample *s)
{
	s->swpout = mglru_vmstat("pswpout");
	if (use_pgsteal) {
		s->anon = mglru_vmstat("pgsteal_anon");
		s->file = mglru_vmstat("pgsteal_file");
	} else {
		/* Fallback: swap-outs are the anon part of all steals. */
		s->anon = s->swpout;
		s->file = mglru_vmstat("pgsteal_kswapd") +
			  mglru_vmstat("pgsteal_direct") - s->swpout;
	}
}

static void run_mode(int mode)
{
	double share[MAX_VALUES], start;
	struct sample a, b;
	struct mglru_bdev bdev;
	char test[64], key[64], val[16];
	bool ok = true;
	long oom_kill;
	const char *cg;
	int mark, ret, i;
	pid_t anon, file;

	snprintf(test, sizeof(test), "swappiness_sweep_%s",
		 mglru_mode_names[mode]);
	mark = mglru_cleanup_mark();

	if (mglru_set_lru_mode(mode))
		goto error;
	ret = mglru_zram_swap_setup(cfg.zram);
	if (ret == MGLRU_OK)
		ret = mglru_bdev_setup(&bdev,
				       cfg.file + cfg.file / 8 + 64 * SZ_1M, -1);
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
	snprintf(val, sizeof(val), "%lu", cfg.values[0]);
	if (mglru_write_restore(SWAPPINESS, val))
		goto error;
	cg = mglru_memcg_create("swappiness_sweep", cfg.memcg, -1);
	if (!cg)
		goto error;

	start = mglru_now();
	anon = mglru_spawn(cg, anon_worker, NULL);
	file = mglru_spawn(cg, file_reader, NULL);
	if (anon < 0 || file < 0)
		goto error;
	/* Let the memcg fill up before the first value is measured. */
	mglru_sleep_ms(cfg.warmup_s * 1000);

	for (i = 0; i < cfg.nr_values; i++) {
		long da, df;

		snprintf(val, sizeof(val), "%lu", cfg.values[i]);
		if (mglru_write(SWAPPINESS, val))
			goto error;
		mglru_sleep_ms(cfg.settle_s * 1000);
		snap(&a);
		mglru_sleep_ms(cfg.period_s * 1000);
		snap(&b);
		if (mglru_wait(anon, NULL, 0) || mglru_wait(file, NULL, 0)) {
			ksft_print_msg("%s: workload died\n", test);
			ok = false;
			break;
		}
		da = b.anon - a.anon;
		df = b.file - a.file;
		share[i] = da + df > 0 ? 100.0 * da / (da + df) : 0.0;
		snprintf(key, sizeof(key), "swp%lu_anon_pct", cfg.values[i]);
		mglru_metric(test, key, "%.1f", share[i]);
		snprintf(key, sizeof(key), "swp%lu_steal_anon", cfg.values[i]);
		mglru_metric(test, key, "%ld", da);
		snprintf(key, sizeof(key), "swp%lu_steal_file", cfg.values[i]);
		mglru_metric(test, key, "%ld", df);
		snprintf(key, sizeof(key), "swp%lu_pswpout", cfg.values[i]);
		mglru_metric(test, key, "%ld", b.swpout - a.swpout);
		if (!da && !df) {
			ksft_print_msg("%s: no reclaim at swappiness %lu\n",
				       test, cfg.values[i]);
			ok = false;
		}
		if (i && share[i] + cfg.tolerance < share[i - 1]) {
			ksft_print_msg("%s: anon %.1f%% -> %.1f%% at %lu -> %lu\n",
				       test, share[i - 1], share[i],
				       cfg.values[i - 1], cfg.values[i]);
			ok = false;
		}
	}
	if (ok && share[cfg.nr_values - 1] <= share[0]) {
		ksft_print_msg("%s: anon %.1f%% at %lu not above %.1f%% at %lu\n",
			       test, share[cfg.nr_values - 1],
			       cfg.values[cfg.nr_values - 1], share[0],
			       cfg.values[0]);
		ok = false;
	}
	oom_kill = mglru_memcg_event(cg, "oom_kill");
	mglru_metric(test, "duration_s", "%.1f", mglru_now() - start);
	mglru_metric(test, "oom_kill", "%ld", oom_kill);
	mglru_metric(test, "split_source", "%s",
		     use_pgsteal ? "pgsteal" : "pswpout");
	mglru_cleanup_to(mark);

	ksft_test_result(ok && !oom_kill, "%s\n", test);
	return;
error:
	mglru_cleanup_to(mark);
	ksft_test_result_error("%s: setup failed\n", test);
}

static int parse_values(const char *arg, void *val)
{
	char buf[256], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", arg);
	cfg.nr_values = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (cfg.nr_values >= MAX_VALUES ||
		    mglru_parse_ulong(tok, &cfg.values[cfg.nr_values]) ||
		    cfg.values[cfg.nr_values] > 200)
			return -1;
		if (cfg.nr_values &&
		    cfg.values[cfg.nr_values] <= cfg.values[cfg.nr_values - 1])
			return -1;
		cfg.nr_values++;
	}
	return cfg.nr_values < 2 ? -1 : 0;
}

static unsigned int modes = MGLRU_MODES_ALL;

static const struct mglru_opt opts[] = {
	{ 'm', "mglru|classic", mglru_opt_mode, &modes },
	{ 'M', "memcg_size", mglru_opt_size, &cfg.memcg },
	{ 'a', "anon_size", mglru_opt_size, &cfg.anon },
	{ 'f', "file_size", mglru_opt_size, &cfg.file },
	{ 'z', "zram_size", mglru_opt_size, &cfg.zram },
	{ 'w', "warmup_s", mglru_opt_ulong, &cfg.warmup_s },
	{ 'p', "period_s", mglru_opt_ulong, &cfg.period_s },
	{ 'S', "settle_s", mglru_opt_ulong, &cfg.settle_s },
	{ 'v', "v1,v2,...", parse_values, NULL },
	{ 'T', "tolerance_pct", mglru_opt_ulong, &cfg.tolerance },
	{ 0 }
};

int main(int argc, char **argv)
{
	int ret;

	mglru_parse_opts(argc, argv, opts);
	if (!cfg.period_s)
		mglru_opts_usage(argv[0], opts);

	ksft_print_header();
	ksft_set_plan(__builtin_popcount(modes));
	ksft_print_msg("memcg %lu M, anon %lu M, file %lu M, zram %lu M\n",
		       cfg.memcg >> 20, cfg.anon >> 20, cfg.file >> 20,
		       cfg.zram >> 20);
	ksft_print_msg("warm-up %lu s, %d swappiness values x %lu s\n",
		       cfg.warmup_s, cfg.nr_values, cfg.period_s);

	use_pgsteal = mglru_vmstat("pgsteal_anon") >= 0 &&
		      mglru_vmstat("pgsteal_file") >= 0;
	ret = mglru_init();
	mglru_run_modes("swappiness_sweep", modes, ret, run_mode);
	mglru_finished();
}
