// SPDX-License-Identifier: GPL-2.0
/*
 * Swappiness sweep: a memcg with zram swap runs anon memory touched over and
 * over next to a mapped file read over and over, both hot and together larger
 * than memory.max (a file streamed once per pass would always be the cheaper
 * victim and reclaim would never touch anon, whatever the swappiness).
 * For each vm.swappiness value (cgroup v2 memcgs use the global value) the
 * workload starts afresh and the anon share of reclaim is measured from
 * /proc/vmstat deltas; then it is stopped and the memcg's pages reclaimed
 * through memory.reclaim. The share must rise by at least -R points from
 * the lowest value to the highest. Each value starts afresh because MGLRU's
 * reclaim keeps to the type it has been reclaiming: a workload carried
 * from one value to the next measures its history, not the swappiness.
 * Precondition: both anon and file pages were reclaimed during the sweep.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "mglru.h"

#define MAX_VALUES	16
#define SWAPPINESS	"/proc/sys/vm/swappiness"

static struct mglru_setup setup = {
	.memcg_max = 256 * SZ_1M, .data_size = 160 * SZ_1M, .data_file = true,
	.swap = true, .zram_size = 1024 * SZ_1M,
};

static struct {
	unsigned long anon, warmup_s, period_s, min_rise;
	unsigned long values[MAX_VALUES];
	int nr_values;
} cfg = {
	.anon = 160 * SZ_1M, .warmup_s = 10, .period_s = 8, .min_rise = 20,
	.values = { 1, 100, 200 }, .nr_values = 3,
};

static const char *file_path;

static int anon_worker(void *arg)
{
	char *p = mmap(NULL, cfg.anon, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return 1;
	for (;;)
		mglru_touch(p, cfg.anon, getpagesize(), true);
	return 0;
}

static int file_reader(void *arg)
{
	char *map = mglru_map_file(file_path, setup.data_size);

	if (!map)
		return 1;
	for (;;)
		mglru_touch(map, setup.data_size, getpagesize(), false);
	return 0;
}

/* Pages reclaimed so far: anon and file. */
static void reclaimed(long *anon, long *file)
{
	*anon = mglru_vmstat("pgsteal_anon");
	*file = mglru_vmstat("pgsteal_file");
	if (*anon >= 0 && *file >= 0)
		return;
	/* Before 5.19: swap-outs are the anon part of all steals. */
	*anon = mglru_vmstat("pswpout");
	*file = mglru_vmstat("pgsteal_kswapd") + mglru_vmstat("pgsteal_direct") -
		*anon;
}

/* Stop a workload child: reap it if it died, else kill it; true if it died. */
static bool stop(pid_t pid)
{
	if (mglru_wait(pid, NULL, 0) == 1)
		return true;
	mglru_kill(pid);
	return false;
}

/*
 * Measure the anon share of what is reclaimed at swappiness @value into
 * @share: the workload starts in the memcg, fills it for the warm-up, is
 * measured for the period, then is stopped and the memcg's pages reclaimed
 * (as far as memory.reclaim goes) for the next value. KSFT_PASS, KSFT_FAIL
 * (the workload died) or -1.
 */
static int measure(struct mglru_ctx *ctx, unsigned long value, double *share,
		   long *total_anon, long *total_file)
{
	char key[64], val[32], path[MGLRU_PATH_LEN + 32];
	long a0, f0, a1, f1, da, df, act0, act1, sa0, sf0, sa1, sf1;
	pid_t anon, file;
	bool died;

	snprintf(val, sizeof(val), "%lu", value);
	if (mglru_write(SWAPPINESS, val)) {
		ksft_print_msg("write %s to %s: %s\n", val, SWAPPINESS,
			       strerror(errno));
		return -1;
	}
	anon = mglru_spawn(ctx->cg, anon_worker, NULL);
	file = mglru_spawn(ctx->cg, file_reader, NULL);
	if (anon < 0 || file < 0)
		return -1;
	mglru_sleep_ms(cfg.warmup_s * 1000);
	reclaimed(&a0, &f0);
	sa0 = mglru_vmstat("pgscan_anon");
	sf0 = mglru_vmstat("pgscan_file");
	act0 = mglru_memcg_stat(ctx->cg, "workingset_activate_file");
	mglru_sleep_ms(cfg.period_s * 1000);
	reclaimed(&a1, &f1);
	sa1 = mglru_vmstat("pgscan_anon");
	sf1 = mglru_vmstat("pgscan_file");
	act1 = mglru_memcg_stat(ctx->cg, "workingset_activate_file");
	died = stop(anon) | stop(file);
	/* memory.reclaim says EAGAIN when it reclaims less than asked: ignored */
	snprintf(path, sizeof(path), "%s/memory.reclaim", ctx->cg);
	snprintf(val, sizeof(val), "%lu", setup.memcg_max);
	mglru_write(path, val);
	if (!mglru_check(ctx, !died, "workload died at swappiness %lu", value))
		return KSFT_FAIL;

	da = a1 - a0;
	df = f1 - f0;
	*total_anon += da;
	*total_file += df;
	*share = da + df ? 100.0 * da / (da + df) : 0.0;
	snprintf(key, sizeof(key), "swp%lu_steal_anon", value);
	mglru_metric(ctx, key, "%ld", da);
	snprintf(key, sizeof(key), "swp%lu_steal_file", value);
	mglru_metric(ctx, key, "%ld", df);
	snprintf(key, sizeof(key), "swp%lu_anon_pct", value);
	mglru_metric(ctx, key, "%.1f", *share);
	/*
	 * What get_scan_count() chose to scan, as against what reclaim got:
	 * anon that is scanned but found referenced is kept, not stolen.
	 */
	if (sa0 >= 0 && sf0 >= 0 && sa1 >= 0 && sf1 >= 0) {
		snprintf(key, sizeof(key), "swp%lu_scan_anon_pct", value);
		mglru_metric(ctx, key, "%.1f", sa1 - sa0 + sf1 - sf0 ?
			     100.0 * (sa1 - sa0) / (sa1 - sa0 + sf1 - sf0) : 0.0);
	}
	/*
	 * File refaults that activated: with none, the classic LRU's
	 * cache_trim_mode reclaims file only, whatever the swappiness.
	 */
	snprintf(key, sizeof(key), "swp%lu_activate_file", value);
	mglru_metric(ctx, key, "%ld", act0 < 0 || act1 < 0 ? -1 : act1 - act0);
	return KSFT_PASS;
}

static int run(struct mglru_ctx *ctx)
{
	long total_anon = 0, total_file = 0, oom_kill;
	double share[MAX_VALUES], start = mglru_now();
	int i, ret, last = cfg.nr_values - 1;
	char val[16];

	/* the first value, so that the old one is restored afterwards */
	snprintf(val, sizeof(val), "%lu", cfg.values[0]);
	if (mglru_write_restore(SWAPPINESS, val))
		return -1;
	file_path = ctx->file;
	for (i = 0; i < cfg.nr_values; i++) {
		ret = measure(ctx, cfg.values[i], &share[i], &total_anon,
			      &total_file);
		if (ret != KSFT_PASS)
			return ret;
	}
	oom_kill = mglru_memcg_event(ctx->cg, "oom_kill");
	mglru_metric(ctx, "duration_s", "%.1f", mglru_now() - start);
	mglru_metric(ctx, "oom_kill", "%ld", oom_kill);
	mglru_metric(ctx, "anon_pct_rise", "%.1f", share[last] - share[0]);

	if (!mglru_check(ctx, total_anon > 0 && total_file > 0,
			 "precondition not met: reclaimed %ld anon and %ld file pages",
			 total_anon, total_file) ||
	    !mglru_check(ctx, !oom_kill, "%ld OOM kills", oom_kill) ||
	    !mglru_check(ctx, share[last] >= share[0] + cfg.min_rise,
			 "anon %.1f%% at %lu -> %.1f%% at %lu: below a %lu-point rise",
			 share[0], cfg.values[0], share[last], cfg.values[last],
			 cfg.min_rise))
		return KSFT_FAIL;
	return KSFT_PASS;
}

static int parse_values(const char *arg, void *val)
{
	char buf[256], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", arg);
	cfg.nr_values = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (cfg.nr_values >= MAX_VALUES ||
		    mglru_opt_ulong(tok, &cfg.values[cfg.nr_values]) ||
		    cfg.values[cfg.nr_values] > 200)
			return -1;
		if (cfg.nr_values &&
		    cfg.values[cfg.nr_values] <= cfg.values[cfg.nr_values - 1])
			return -1;
		cfg.nr_values++;
	}
	return cfg.nr_values < 2 ? -1 : 0;
}

static const struct mglru_opt opts[] = {
	MGLRU_SIZE('a', cfg, anon), MGLRU_SIZE('z', setup, zram_size),
	MGLRU_ULONG('w', cfg, warmup_s), MGLRU_ULONG('p', cfg, period_s),
	{ 'v', "v1,v2,...", parse_values, NULL },
	MGLRU_ULONG('R', cfg, min_rise), { 0 }
};

static int configure(void)
{
	setup.swapped_max = cfg.anon;
	return cfg.period_s && cfg.min_rise <= 100 ? 0 : -1;
}

static void describe(void)
{
	ksft_print_msg("anon %lu MiB beside the file, zram %lu MiB\n",
		       cfg.anon >> 20, setup.zram_size >> 20);
	ksft_print_msg("%d swappiness values, each: warm-up %lu s, %lu s measured\n",
		       cfg.nr_values, cfg.warmup_s, cfg.period_s);
	ksft_print_msg("anon share must rise %lu points\n", cfg.min_rise);
}

static const struct mglru_scenario scenario = {
	.name = "swappiness_sweep", .setup = &setup, .opts = opts,
	.configure = configure, .describe = describe, .run = run,
};

int main(int argc, char **argv)
{
	return mglru_main(argc, argv, &scenario);
}
