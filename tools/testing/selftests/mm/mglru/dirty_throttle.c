// SPDX-License-Identifier: GPL-2.0
/*
 * Dirty throttling: dd writes more than memory.max into ext4 on a dm-delay
 * target that delays every write, from inside a small memcg. Reclaim has to
 * wait for writeback instead of OOM-killing the writer while most of the
 * memcg is dirty or under writeback.
 *
 * The vm.dirty_ratio knobs are raised (and restored) so that the memcg can
 * fill with dirty folios: with the default 20% of a 128M memcg, dd is held
 * in balance_dirty_pages() and reclaim never meets a memcg full of them, as
 * it does on the large machines where the bug was reported. The threshold
 * is steep on a 2-vCPU guest: at 95% 6.12's MGLRU OOM-killed dd in 1 of 6
 * runs, at 100% (background 80) in 26 of 28.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "../../kselftest.h"
#include "mglru_lib.h"

static struct {
	unsigned long memcg;
	unsigned long size;
	unsigned long delay_ms;
	unsigned long timeout_s;
	unsigned long dirty_ratio;
	unsigned long dirty_bg_ratio;
} cfg = {
	.memcg = 128 * SZ_1M,
	.size = 256 * SZ_1M,
	.delay_ms = 3000,
	.timeout_s = 180,
	.dirty_ratio = 100,
	.dirty_bg_ratio = 80,
};

/* raise the dirty limits for this run; 0 leaves a knob as it is */
static int set_dirty_ratios(void)
{
	char val[32];

	if (cfg.dirty_ratio) {
		snprintf(val, sizeof(val), "%lu", cfg.dirty_ratio);
		if (mglru_write_restore("/proc/sys/vm/dirty_ratio", val))
			return MGLRU_ERR;
	}
	if (cfg.dirty_bg_ratio) {
		snprintf(val, sizeof(val), "%lu", cfg.dirty_bg_ratio);
		if (mglru_write_restore("/proc/sys/vm/dirty_background_ratio", val))
			return MGLRU_ERR;
	}
	return MGLRU_OK;
}

static void run_mode(int mode)
{
	char test[64], of[MGLRU_PATH_LEN + 16], count[32];
	long dirty, wb, max_dirty = 0, max_wb = 0, oom_kill;
	struct mglru_bdev bdev;
	int mark, ret, status = 0, done;
	double start, end;
	const char *cg;
	pid_t dd;

	snprintf(test, sizeof(test), "dirty_throttle_%s",
		 mglru_mode_names[mode]);
	mark = mglru_cleanup_mark();

	if (mglru_set_lru_mode(mode) || set_dirty_ratios())
		goto error;
	ret = mglru_bdev_setup(&bdev, cfg.size + cfg.size / 4 + 64 * SZ_1M,
			       cfg.delay_ms);
	if (ret == MGLRU_SKIP) {
		mglru_cleanup_to(mark);
		ksft_test_result_skip("%s: %s\n", test, mglru_skip_reason);
		return;
	}
	if (ret)
		goto error;
	cg = mglru_memcg_create("dirty_throttle", cfg.memcg, 0);
	if (!cg)
		goto error;

	snprintf(of, sizeof(of), "of=%s/f", bdev.mnt);
	snprintf(count, sizeof(count), "count=%lu", cfg.size >> 20);
	start = mglru_now();
	dd = mglru_spawn_exec(cg, "dd", "if=/dev/zero", of, "bs=1M", count,
			      "status=none", NULL);
	if (dd < 0)
		goto error;
	for (;;) {
		done = mglru_wait(dd, &status, 0.1);
		if (done)
			break;
		dirty = mglru_memcg_stat(cg, "file_dirty");
		wb = mglru_memcg_stat(cg, "file_writeback");
		if (dirty > max_dirty)
			max_dirty = dirty;
		if (wb > max_wb)
			max_wb = wb;
		if (mglru_now() - start > cfg.timeout_s)
			break;
	}
	end = mglru_now();
	oom_kill = mglru_memcg_event(cg, "oom_kill");

	mglru_metric(test, "duration_s", "%.1f", end - start);
	mglru_metric(test, "oom_kill", "%ld", oom_kill);
	mglru_metric(test, "dd_completed", "%d",
		     done == 1 && WIFEXITED(status) && !WEXITSTATUS(status));
	if (done == 1 && WIFSIGNALED(status))
		mglru_metric(test, "dd_signal", "%d", WTERMSIG(status));
	mglru_metric(test, "written_mib", "%lu", cfg.size >> 20);
	mglru_metric(test, "mib_per_s", "%.1f",
		     done == 1 ? (cfg.size >> 20) / (end - start) : 0.0);
	mglru_metric(test, "max_dirty_mib", "%ld", max_dirty >> 20);
	mglru_metric(test, "max_writeback_mib", "%ld", max_wb >> 20);
	if (done != 1)
		ksft_print_msg("%s: dd still running after %lu s\n", test,
			       cfg.timeout_s);

	start = mglru_now();
	mglru_cleanup_to(mark);
	mglru_metric(test, "teardown_s", "%.1f", mglru_now() - start);

	ksft_test_result(done == 1 && WIFEXITED(status) &&
			 !WEXITSTATUS(status) && !oom_kill, "%s\n", test);
	return;
error:
	mglru_cleanup_to(mark);
	ksft_test_result_error("%s: setup failed\n", test);
}

static unsigned int modes = MGLRU_MODES_ALL;

static const struct mglru_opt opts[] = {
	{ 'm', "mglru|classic", mglru_opt_mode, &modes },
	{ 'M', "memcg_size", mglru_opt_size, &cfg.memcg },
	{ 's', "write_size", mglru_opt_size, &cfg.size },
	{ 'd', "write_delay_ms", mglru_opt_ulong, &cfg.delay_ms },
	{ 'D', "dirty_ratio", mglru_opt_ulong, &cfg.dirty_ratio },
	{ 'B', "dirty_background_ratio", mglru_opt_ulong, &cfg.dirty_bg_ratio },
	{ 't', "timeout_s", mglru_opt_ulong, &cfg.timeout_s },
	{ 0 }
};

int main(int argc, char **argv)
{
	int ret;

	mglru_parse_opts(argc, argv, opts);
	if (cfg.size < SZ_1M || !cfg.timeout_s || cfg.dirty_ratio > 100 ||
	    cfg.dirty_bg_ratio > 100)
		mglru_opts_usage(argv[0], opts);

	ksft_print_header();
	ksft_set_plan(__builtin_popcount(modes));
	ksft_print_msg("memcg %lu MiB, dd %lu MiB, write delay %lu ms\n",
		       cfg.memcg >> 20, cfg.size >> 20, cfg.delay_ms);
	ksft_print_msg("vm.dirty_ratio %lu, vm.dirty_background_ratio %lu (0: unchanged)\n",
		       cfg.dirty_ratio, cfg.dirty_bg_ratio);

	ret = mglru_init();
	mglru_run_modes("dirty_throttle", modes, ret, run_mode);
	mglru_finished();
}
