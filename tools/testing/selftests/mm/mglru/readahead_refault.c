// SPDX-License-Identifier: GPL-2.0
/*
 * Strided mmap readahead refaults, with the published fio job: one 4 KiB
 * read every 64 KiB of a file larger than the memcg, through mmap, without
 * MADV_SEQUENTIAL (fio --rw=read:60k --bs=4k --ioengine=mmap --fadvise_hint=0),
 * with a 1 MiB read-ahead window on the test's own block device. The pages
 * fio touches fit in the memcg, the pages read ahead around them do not:
 * reclaim should evict the never-touched ones and keep the touched ones, so
 * that refaults after the warm-up stay near zero and fio runs at memory
 * speed. Folios prefaulted but unused and placed as if used push the touched
 * pages out instead (huge workingset_refault_file, very low bandwidth).
 *
 * Fault-around is off (debugfs fault_around_bytes at the page size; -A
 * sets another value, 0 leaves it alone): each touched page faults alone,
 * so the folios read ahead around it are never mapped, and whether an
 * architecture maps prefaulted PTEs young (x86) or old (arm64) decides
 * nothing. Where they are placed is then the page-fault path's doing.
 *
 * The page cache holds pages, not large folios: ext4 is mounted with
 * data=journal, which it serves with folios of its block size only. With
 * large folios (ext4 has them since 6.16 where THP is built in, as in
 * distribution kernels) the folio read around each touched page is the
 * one the touch marks accessed: every folio of the file is then in the
 * working set, which no longer fits the memcg, and both LRUs thrash with
 * or without the fix.
 *
 * fio's own program and libraries are read once by a short fio run outside
 * the memcg first: their page cache is charged there, so reclaim in the
 * memcg never evicts them and their refaults (thousands a window on a disk
 * root filesystem) are not counted as the workload's.
 *
 * fio's --ramp_time is the warm-up; the refaults are counted over the
 * measured window and the bandwidth is fio's own, from its JSON output.
 * Precondition: the memcg's file pages reached -P % of memory.max and reclaim
 * ran (during the warm-up at least: once the touched pages stay mapped, a
 * kernel without the bug needs no reclaim in the window).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "mglru.h"

static const char * const tools[] = { "fio", NULL };

static struct mglru_setup setup = {
	.memcg_max = 400 * SZ_1M, .data_size = 600 * SZ_1M, .data_file = true,
	.mount_opts = "data=journal", .tools = tools,
};

static struct {
	unsigned long ra_kb, warmup_s, window_s, fault_around;
	unsigned long max_refaults, min_mib_s, min_full_pct;
} cfg = {
	.ra_kb = 1024, .warmup_s = 10, .window_s = 20, .fault_around = 4096,
	.max_refaults = 1000, .min_mib_s = 100, .min_full_pct = 80,
};

static const struct mglru_opt opts[] = {
	MGLRU_ULONG('r', cfg, ra_kb), MGLRU_ULONG('w', cfg, warmup_s),
	MGLRU_ULONG('W', cfg, window_s), MGLRU_ULONG('A', cfg, fault_around),
	MGLRU_ULONG('T', cfg, max_refaults), MGLRU_ULONG('B', cfg, min_mib_s),
	MGLRU_ULONG('P', cfg, min_full_pct), { 0 }
};

/* fio's read bandwidth in MiB/s from its JSON output, or -1. */
static double fio_read_mib_s(const char *json)
{
	char buf[65536], *p;
	long long bw;

	if (mglru_read_str(json, buf, sizeof(buf)))
		return -1;
	p = strstr(buf, "\"read\" :");
	if (p)
		p = strstr(p, "\"bw_bytes\" :");
	if (!p || sscanf(p, "\"bw_bytes\" : %lld", &bw) != 1)
		return -1;
	return (double)bw / SZ_1M;
}

/* Write a debugfs knob for the run: 0, -1 or KSFT_SKIP. */
static int debugfs_write_restore(const char *name, const char *val)
{
	const char *fs = mglru_debugfs();
	char path[MGLRU_PATH_LEN];

	if (!fs)
		return mglru_skip("debugfs not available: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/%s", fs, name);
	if (access(path, W_OK))
		return mglru_skip("debugfs %s not available: %s", name,
				  strerror(errno));
	return mglru_write_restore(path, val);
}

static int set_read_ahead(const struct mglru_ctx *ctx)
{
	char path[128], val[32];

	snprintf(path, sizeof(path), "/sys/block/%s/queue/read_ahead_kb",
		 ctx->loop + strlen("/dev/"));
	snprintf(val, sizeof(val), "%lu", cfg.ra_kb);
	return mglru_write_restore(path, val);
}

/* A short fio run in the harness's cgroup: fio's pages are charged there. */
static int warm_fio(const struct mglru_ctx *ctx)
{
	char filename[MGLRU_PATH_LEN + 32], output[MGLRU_PATH_LEN + 48];
	int ret;

	snprintf(filename, sizeof(filename), "--filename=%s/warm", MGLRU_TMPFS);
	snprintf(output, sizeof(output), "--output=%s/warm.json", MGLRU_TMPFS);
	ret = mglru_run_argv(NULL, 0, true, (const char * const[]){ "fio",
			     "--name=warm", filename, "--rw=read:60k", "--bs=4k",
			     "--ioengine=mmap", "--fadvise_hint=0", "--size=256k",
			     "--output-format=json", output, NULL });
	if (ret)
		ksft_print_msg("fio's warm-up run outside the memcg failed: %d\n",
			       ret);
	return ret ? -1 : 0;
}

static int run(struct mglru_ctx *ctx)
{
	char json[MGLRU_PATH_LEN + 16], size[32], ramp[32], runtime[32];
	char filename[MGLRU_PATH_LEN + 32], output[MGLRU_PATH_LEN + 48];
	long refault0, refault1, reclaimed, file_mem, oom_kill;
	double start, mib_s;
	int status = 0, done, ret;
	pid_t fio;

	if (set_read_ahead(ctx))
		return -1;
	if (cfg.fault_around) {
		snprintf(size, sizeof(size), "%lu", cfg.fault_around);
		ret = debugfs_write_restore("fault_around_bytes", size);
		if (ret)
			return ret;
	}
	if (warm_fio(ctx))
		return -1;
	snprintf(json, sizeof(json), "%s/fio.json", MGLRU_TMPFS);
	snprintf(filename, sizeof(filename), "--filename=%s", ctx->file);
	snprintf(output, sizeof(output), "--output=%s", json);
	snprintf(size, sizeof(size), "--size=%lu", setup.data_size);
	snprintf(ramp, sizeof(ramp), "--ramp_time=%lu", cfg.warmup_s);
	snprintf(runtime, sizeof(runtime), "--runtime=%lu", cfg.window_s);
	start = mglru_now();
	fio = mglru_spawn_argv(ctx->cg, (const char * const[]){ "fio",
			       "--name=strided", filename, "--rw=read:60k",
			       "--bs=4k", "--ioengine=mmap", "--fadvise_hint=0",
			       size, "--time_based", ramp, runtime,
			       "--output-format=json", output, NULL });
	if (fio < 0)
		return -1;

	done = mglru_wait(fio, &status, cfg.warmup_s);
	refault0 = mglru_memcg_stat(ctx->cg, "workingset_refault_file");
	if (!done)
		done = mglru_wait(fio, &status,
				  cfg.window_s + 30.0 * ctx->slow);
	refault1 = mglru_memcg_stat(ctx->cg, "workingset_refault_file");
	reclaimed = mglru_memcg_stat(ctx->cg, "pgsteal");
	file_mem = mglru_memcg_stat(ctx->cg, "file");
	oom_kill = mglru_memcg_event(ctx->cg, "oom_kill");
	mib_s = fio_read_mib_s(json);

	mglru_metric(ctx, "duration_s", "%.1f", mglru_now() - start);
	mglru_metric(ctx, "oom_kill", "%ld", oom_kill);
	mglru_metric(ctx, "refault_file", "%ld", refault1 - refault0);
	mglru_metric(ctx, "mib_per_s", "%.1f", mib_s);
	mglru_metric(ctx, "file_mib", "%ld", file_mem >> 20);
	mglru_metric(ctx, "file_full_pct", "%ld", file_mem * 100 / setup.memcg_max);
	mglru_metric(ctx, "reclaimed_pages", "%ld", reclaimed);

	if (mglru_check(ctx, done == 1 && WIFEXITED(status) &&
			!WEXITSTATUS(status) && mib_s >= 0,
			"fio failed or hung (status 0x%x)", status) &&
	    mglru_check(ctx, file_mem * 100 >= (long)(cfg.min_full_pct * setup.memcg_max),
			"precondition not met: file pages filled %ld %% of the memcg, below %lu %%",
			file_mem * 100 / setup.memcg_max, cfg.min_full_pct) &&
	    mglru_check(ctx, reclaimed > 0,
			"precondition not met: no reclaim in the memcg") &&
	    mglru_check(ctx, !oom_kill, "%ld OOM kills", oom_kill) &&
	    mglru_check(ctx, refault1 - refault0 <= (long)cfg.max_refaults,
			"%ld refaults, above %lu", refault1 - refault0,
			cfg.max_refaults) &&
	    mglru_check(ctx, mib_s >= cfg.min_mib_s,
			"%.1f MiB/s, below %lu", mib_s, cfg.min_mib_s))
		return KSFT_PASS;
	return KSFT_FAIL;
}

static int configure(void)
{
	return !cfg.window_s || !cfg.ra_kb || cfg.min_full_pct > 100 ? -1 : 0;
}

static void describe(void)
{
	ksft_print_msg("fio reads 4 KiB every 64 KiB through mmap, read_ahead_kb %lu\n",
		       cfg.ra_kb);
	ksft_print_msg("warm-up %lu s, window %lu s\n", cfg.warmup_s,
		       cfg.window_s);
	if (cfg.fault_around)
		ksft_print_msg("fault_around_bytes %lu\n", cfg.fault_around);
	else
		ksft_print_msg("fault_around_bytes left as it is\n");
}

static const struct mglru_scenario scenario = {
	.name = "readahead_refault", .setup = &setup, .opts = opts,
	.configure = configure, .describe = describe, .run = run,
};

int main(int argc, char **argv)
{
	return mglru_main(argc, argv, &scenario);
}
