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
 * Each value also reports the laps each worker made over its memory in
 * the measured period (laps_anon, laps_file). Against -T's max_seq
 * advance: a worker that laps more often than the memcg ages has touched
 * all of its memory by each aging, which finds that type young.
 *
 * -J 1 mounts the ext4 with data=journal, which gives the file's page cache
 * base pages only: on a kernel with large page-cache folios (THP=y) the
 * mapped file is otherwise read into folios as large as read-ahead makes
 * them, and reclaim's goal, counted in pages, is met in fewer folios.
 *
 * -T 1 (MGLRU mode) reports, for each value's measured period, what reclaim
 * did and what it had: the type and priority of each list evict_folios()
 * passed to shrink_folio_list() for the two workers (the event
 * vmscan:mm_vmscan_lru_shrink_inactive), and every 0.5 s, from debugfs's
 * lru_gen, whether each type had pages in the generations eviction may
 * take (all but the two youngest), and how far max_seq advanced (aging).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "mglru.h"

#define MAX_VALUES	16
#define SWAPPINESS	"/proc/sys/vm/swappiness"
#define EVENT		"vmscan/mm_vmscan_lru_shrink_inactive"
#define RECLAIM_WB_FILE	0x0002	/* include/trace/events/vmscan.h */
#define DEF_PRIORITY	12	/* include/linux/mmzone.h */
#define MIN_NR_GENS	2	/* include/linux/mmzone.h */
#define MAX_NR_GENS	4
#define SAMPLE_MS	500

static struct mglru_setup setup = {
	.memcg_max = 256 * SZ_1M, .data_size = 160 * SZ_1M, .data_file = true,
	.swap = true, .zram_size = 1024 * SZ_1M,
};

static struct {
	unsigned long anon, warmup_s, period_s, min_rise, journal, trace;
	unsigned long values[MAX_VALUES];
	int nr_values;
} cfg = {
	.anon = 160 * SZ_1M, .warmup_s = 10, .period_s = 8, .min_rise = 20,
	.values = { 1, 100, 200 }, .nr_values = 3,
};

static const char *file_path;

/* the workers, held until they are traced: they wait for *go */
static int *go;
/* laps each worker made over its memory */
static struct {
	long anon, file;
} *laps;

/* -T 1: the measured period's eviction passes and generation samples */
static struct {
	bool on;
	int priority_off, flags_off;
	long passes[2], def_passes, samples, no_evictable[2], lost;
	unsigned long first_seq, last_seq;	/* max_seq at the samples */
	int min_priority;
	char lru_gen[MGLRU_PATH_LEN];
} probe;

static int anon_worker(void *arg)
{
	char *p = mmap(NULL, cfg.anon, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return 1;
	mglru_hold(go);
	for (;;) {
		mglru_touch(p, cfg.anon, getpagesize(), true);
		__atomic_add_fetch(&laps->anon, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

static int file_reader(void *arg)
{
	char *map = mglru_map_file(file_path, setup.data_size);

	if (!map)
		return 1;
	mglru_hold(go);
	for (;;) {
		mglru_touch(map, setup.data_size, getpagesize(), false);
		__atomic_add_fetch(&laps->file, 1, __ATOMIC_RELAXED);
	}
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

/* the metric swp<value>_<name> */
static void swp_metric(struct mglru_ctx *ctx, unsigned long value,
		       const char *name, const char *fmt, ...)
{
	char key[64], val[64];
	va_list ap;

	snprintf(key, sizeof(key), "swp%lu_%s", value, name);
	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	mglru_metric(ctx, key, "%s", val);
}

static void count_pass(const char *raw, void *arg)
{
	int flags, priority;

	if (!arg)	/* before the measured period: dropped */
		return;
	memcpy(&flags, raw + probe.flags_off, sizeof(flags));
	memcpy(&priority, raw + probe.priority_off, sizeof(priority));
	probe.passes[!!(flags & RECLAIM_WB_FILE)]++;
	probe.def_passes += priority == DEF_PRIORITY;
	if (probe.min_priority < 0 || priority < probe.min_priority)
		probe.min_priority = priority;
}

/*
 * Add one node's generations (oldest first, max_seq last) to @old; its
 * max_seq to @max_seq if that has none yet.
 */
static void add_evictable(unsigned long (*gen)[3], int n, unsigned long *old,
			  unsigned long *max_seq)
{
	int i;

	for (i = 0; n && gen[i][0] + MIN_NR_GENS <= gen[n - 1][0]; i++) {
		old[0] += gen[i][1];
		old[1] += gen[i][2];
	}
	if (n && !*max_seq)
		*max_seq = gen[n - 1][0];
}

/*
 * One sample of the memcg @cg's generations in lru_gen: for each type,
 * whether the generations eviction may take hold none of its pages on any
 * node.
 */
static void sample_gens(const char *cg)
{
	unsigned long seq, anon, file, old[2] = {}, gen[MAX_NR_GENS][3];
	unsigned long max_seq = 0;
	char line[512], name[MGLRU_PATH_LEN];
	const char *rel = strstr(cg, "/" MGLRU_NAME "/");
	bool ours = false, found = false;
	size_t len;
	int n = 0;
	FILE *f;

	f = fopen(probe.lru_gen, "re");
	while (f && rel && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "memcg %*s %255s", name) == 1) {
			if (ours)
				break;
			/* the path from the hierarchy's top: ours ends it */
			len = strlen(name);
			ours = len >= strlen(rel) &&
			       !strcmp(name + len - strlen(rel), rel);
			found |= ours;
		} else if (!ours) {
			continue;
		} else if (!strncmp(line, " node ", 6)) {
			add_evictable(gen, n, old, &max_seq);
			n = 0;
		} else if (n < MAX_NR_GENS &&
			   sscanf(line, "%lu %*u %lu %lu", &seq, &anon, &file) == 3) {
			gen[n][0] = seq;
			gen[n][1] = anon;
			gen[n++][2] = file;
		}
	}
	if (f)
		fclose(f);
	if (!found)
		return;
	add_evictable(gen, n, old, &max_seq);
	if (!probe.samples)
		probe.first_seq = max_seq;
	probe.last_seq = max_seq;
	probe.samples++;
	probe.no_evictable[0] += !old[0];
	probe.no_evictable[1] += !old[1];
}

/* Start the measured period's counts: events so far are dropped. */
static void probe_begin(void)
{
	if (!probe.on)
		return;
	memset(&probe.passes, 0, sizeof(probe.passes));
	memset(&probe.no_evictable, 0, sizeof(probe.no_evictable));
	probe.def_passes = 0;
	probe.samples = 0;
	probe.lost = 0;
	probe.min_priority = -1;
	mglru_trace_read(count_pass, NULL);
}

/*
 * Wait @ms, and if -T asks, drain the events meanwhile: counted, with the
 * memcg @cg sampled, if @count; else dropped.
 */
static void period(const char *cg, unsigned int ms, bool count)
{
	double now = mglru_now(), end = now + ms / 1000.0;
	double sample = now + SAMPLE_MS / 1000.0;
	long lost;

	if (!probe.on) {
		mglru_sleep_ms(ms);
		return;
	}
	while ((now = mglru_now()) < end) {
		mglru_sleep_ms(end - now < 0.1 ? (end - now) * 1000 + 1 : 100);
		lost = mglru_trace_read(count_pass, count ? &probe : NULL);
		if (!count)
			continue;
		probe.lost += lost;
		if (mglru_now() >= sample && mglru_now() < end) {
			sample_gens(cg);
			sample = mglru_now() + SAMPLE_MS / 1000.0;
		}
	}
}

/*
 * Start the probe's events on the two workers, held before their first
 * access: 0, -1 or KSFT_SKIP.
 */
static int probe_open(const struct mglru_ctx *ctx, pid_t anon, pid_t file)
{
	pid_t pids[] = { anon, file };
	const char *fs;
	int ret;

	probe.on = cfg.trace && ctx->mode == MGLRU_MODE_MGLRU;
	if (!probe.on)
		return 0;
	fs = mglru_debugfs();
	if (!fs)
		return mglru_skip("debugfs not available: %s", strerror(errno));
	snprintf(probe.lru_gen, sizeof(probe.lru_gen), "%s/lru_gen", fs);
	if (access(probe.lru_gen, R_OK))
		return mglru_skip("debugfs lru_gen not available: %s",
				  strerror(errno));
	ret = mglru_trace_open(EVENT, pids, 2);
	if (ret)
		return ret;
	probe.priority_off = mglru_trace_field("priority");
	probe.flags_off = mglru_trace_field("reclaim_flags");
	if (probe.priority_off >= 0 && probe.flags_off >= 0)
		return 0;
	ksft_print_msg("%s: no priority or reclaim_flags field\n", EVENT);
	return -1;
}

static void probe_metrics(struct mglru_ctx *ctx, unsigned long value)
{
	long passes = probe.passes[0] + probe.passes[1];

	if (!probe.on)
		return;
	probe.lost += mglru_trace_read(count_pass, &probe);
	if (!probe.samples)
		ksft_print_msg("lru_gen: no sample of %s at swappiness %lu\n",
			       ctx->cg, value);
	swp_metric(ctx, value, "passes_anon", "%ld", probe.passes[0]);
	swp_metric(ctx, value, "passes_file", "%ld", probe.passes[1]);
	if (passes)
		swp_metric(ctx, value, "def_priority_pct", "%.1f",
			   100.0 * probe.def_passes / passes);
	else
		swp_metric(ctx, value, "def_priority_pct", "-1");
	swp_metric(ctx, value, "min_priority", "%d", probe.min_priority);
	swp_metric(ctx, value, "gen_samples", "%ld", probe.samples);
	/* the aging runs of the memcg's first node between the samples */
	swp_metric(ctx, value, "max_seq_advance", "%ld", probe.samples ?
		   (long)(probe.last_seq - probe.first_seq) : -1L);
	swp_metric(ctx, value, "no_evictable_anon", "%ld",
		   probe.no_evictable[0]);
	swp_metric(ctx, value, "no_evictable_file", "%ld",
		   probe.no_evictable[1]);
	swp_metric(ctx, value, "trace_lost", "%ld", probe.lost);
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
	char val[32], path[MGLRU_PATH_LEN + 32];
	long a0, f0, a1, f1, da, df, act0, act1, sa0, sf0, sa1, sf1;
	long la0, lf0, la1, lf1;
	pid_t anon, file;
	bool died;
	int ret;

	snprintf(val, sizeof(val), "%lu", value);
	if (mglru_write(SWAPPINESS, val)) {
		ksft_print_msg("write %s to %s: %s\n", val, SWAPPINESS,
			       strerror(errno));
		return -1;
	}
	__atomic_store_n(go, 0, __ATOMIC_RELEASE);
	anon = mglru_spawn(ctx->cg, anon_worker, NULL);
	file = mglru_spawn(ctx->cg, file_reader, NULL);
	ret = anon < 0 || file < 0 ? -1 : probe_open(ctx, anon, file);
	if (ret) {
		if (anon > 0)
			stop(anon);
		if (file > 0)
			stop(file);
		mglru_trace_close();
		return ret;
	}
	__atomic_store_n(go, 1, __ATOMIC_RELEASE);
	period(ctx->cg, cfg.warmup_s * 1000, false);
	probe_begin();
	reclaimed(&a0, &f0);
	sa0 = mglru_vmstat("pgscan_anon");
	sf0 = mglru_vmstat("pgscan_file");
	act0 = mglru_memcg_stat(ctx->cg, "workingset_activate_file");
	la0 = __atomic_load_n(&laps->anon, __ATOMIC_RELAXED);
	lf0 = __atomic_load_n(&laps->file, __ATOMIC_RELAXED);
	period(ctx->cg, cfg.period_s * 1000, true);
	la1 = __atomic_load_n(&laps->anon, __ATOMIC_RELAXED);
	lf1 = __atomic_load_n(&laps->file, __ATOMIC_RELAXED);
	reclaimed(&a1, &f1);
	sa1 = mglru_vmstat("pgscan_anon");
	sf1 = mglru_vmstat("pgscan_file");
	act1 = mglru_memcg_stat(ctx->cg, "workingset_activate_file");
	/* how fast each worker went over its memory: the regime's pace */
	swp_metric(ctx, value, "laps_anon", "%ld", la1 - la0);
	swp_metric(ctx, value, "laps_file", "%ld", lf1 - lf0);
	probe_metrics(ctx, value);
	died = stop(anon) | stop(file);
	/* the workers gone before their events: removal patches the call site */
	mglru_trace_close();
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
	swp_metric(ctx, value, "steal_anon", "%ld", da);
	swp_metric(ctx, value, "steal_file", "%ld", df);
	swp_metric(ctx, value, "anon_pct", "%.1f", *share);
	/*
	 * What get_scan_count() chose to scan, as against what reclaim got:
	 * anon that is scanned but found referenced is kept, not stolen.
	 */
	if (sa0 >= 0 && sf0 >= 0 && sa1 >= 0 && sf1 >= 0)
		swp_metric(ctx, value, "scan_anon_pct", "%.1f",
			   sa1 - sa0 + sf1 - sf0 ?
			   100.0 * (sa1 - sa0) / (sa1 - sa0 + sf1 - sf0) : 0.0);
	/*
	 * File refaults that activated: with none, the classic LRU's
	 * cache_trim_mode reclaims file only, whatever the swappiness.
	 */
	swp_metric(ctx, value, "activate_file", "%ld",
		   act0 < 0 || act1 < 0 ? -1 : act1 - act0);
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
	go = mglru_shared_alloc(sizeof(*go));
	laps = mglru_shared_alloc(sizeof(*laps));
	if (!go || !laps)
		return -1;
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
	MGLRU_ULONG('R', cfg, min_rise), MGLRU_ULONG('J', cfg, journal),
	MGLRU_ULONG('T', cfg, trace), { 0 }
};

static int configure(void)
{
	setup.swapped_max = cfg.anon;
	setup.mount_opts = cfg.journal ? "data=journal" : NULL;
	return cfg.period_s && cfg.min_rise <= 100 && cfg.journal <= 1 &&
	       cfg.trace <= 1 ? 0 : -1;
}

static void describe(void)
{
	ksft_print_msg("anon %lu MiB beside the file, zram %lu MiB\n",
		       cfg.anon >> 20, setup.zram_size >> 20);
	ksft_print_msg("%d swappiness values, each: warm-up %lu s, %lu s measured\n",
		       cfg.nr_values, cfg.warmup_s, cfg.period_s);
	ksft_print_msg("anon share must rise %lu points\n", cfg.min_rise);
	if (cfg.journal)
		ksft_print_msg("ext4 data=journal: the file's page cache in base pages\n");
	if (cfg.trace)
		ksft_print_msg("MGLRU mode traced: %s of the workers, lru_gen every %d ms\n",
			       EVENT, SAMPLE_MS);
}

static const struct mglru_scenario scenario = {
	.name = "swappiness_sweep", .setup = &setup, .opts = opts,
	.configure = configure, .describe = describe, .run = run,
};

int main(int argc, char **argv)
{
	return mglru_main(argc, argv, &scenario);
}
