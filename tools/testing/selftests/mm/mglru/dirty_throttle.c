// SPDX-License-Identifier: GPL-2.0
/*
 * Dirty throttling: dd writes three times memory.max into ext4 on a dm-delay
 * target that delays every write, from inside a small memcg. While most of
 * the memcg is dirty or under writeback, reclaim has to report it, so that
 * the memcg is marked congested and the writer sleeps in reclaim_throttle()
 * until writeback makes progress, instead of scanning on to the OOM killer.
 *
 * The verdict is that mechanism: dd itself was throttled on writeback
 * (vmscan:mm_vmscan_throttled, reason CONGESTED or WRITEBACK, sampled for
 * dd's pid alone through perf events, trace.c) at least -T times. A
 * kernel without writeback feedback to reclaim never throttles dd so.
 * Whether dd is OOM-killed is reported, not judged: how long a memcg waits
 * for its writeback is counted in jiffies, and a stock kernel is killed
 * now and then at HZ=1000 (see the suite's
 * doc/memcg-dirty-oom-and-the-tick.rst).
 *
 * vm.dirty_ratio and vm.dirty_background_ratio are raised for the run (and
 * restored), so that the memcg can fill with dirty folios as it does on the
 * large machines where the bug was reported; at the default 20 %, dd waits in
 * balance_dirty_pages() and reclaim never meets such a memcg.
 *
 * -W <MiB> sets vm.dirty_bytes to that many MiB, and
 * vm.dirty_background_bytes to half of it, instead of the ratios (-D and -B
 * are then unused; 0, the default: the ratios). In a memcg the byte limits
 * become ratios of the machine's available memory (domain_dirty_limits()):
 * well below it, the memcg cannot fill with dirty folios, and the
 * precondition fails, as at the default ratios.
 *
 * Precondition: dirty plus writeback folios filled half the memcg at least.
 *
 * The clean page cache is dropped before dd starts (-c 0 keeps it): the
 * congestion throttle is skipped while the node's pending writes are under
 * half its reclaimable pages (skip_throttle_noprogress()), so clean cache
 * outside the memcg hides the mechanism (stock 7.3 with 1 GiB of it was
 * never throttled, and OOM-killed in every run). Anon folios count too
 * when there is swap, and stay: reclaimable_mib reports the sum at dd's
 * start. -P <MiB> puts that much clean page cache back, outside the memcg,
 * after the drop: a machine's other files, as CI machines and the large
 * machines of the report have them (clean_mib: what was read).
 *
 * Controls of a change to how long the memcg waits for its writeback, each
 * reported, none judged: -N 1 times the anon faults of a task beside dd in
 * its memcg that writes no file (neighbour_fault_*_ms: p50, p99, max);
 * -R 1 times writes to the memcg's memory.reclaim (memory_reclaim_*_ms);
 * -S <s> holds the device's writes for that long once the memcg is as full
 * as the precondition asks (stop_to_oom_s: from the stop to the OOM kill,
 * where one came), and -K <s> SIGKILLs dd that long into the stop
 * (sigkill_ms: until dd is gone); -L 1 starts an anon leak in the memcg at
 * that point (leak_to_oom_s: until the OOM killer ends it).
 *
 * -G 1 is the control of such a change on global reclaim: the same dd with
 * the memcg's limit lifted and the machine as short of memory as the memcg
 * was (below), reported, not judged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "dirty_probes.h"

static int stack_dm_delay(struct mglru_ctx *ctx, unsigned long size,
			  char *dev);

#define EVENT	"vmscan/mm_vmscan_throttled"

static const char * const tools[] = { "dd", "dmsetup", NULL };

static struct mglru_setup setup = {
	.memcg_max = 128 * SZ_1M, .data_size = 384 * SZ_1M, .tools = tools,
	.stack = stack_dm_delay,
};

static struct {
	unsigned long delay_ms, timeout_s;
	unsigned long dirty_ratio, dirty_bg_ratio, min_fill_pct, min_throttles;
	unsigned long drop_cache, clean_mib, dirty_mib;
	unsigned long neighbour, reclaimer, suspend_s, kill_after_s, leak;
	unsigned long global;
} cfg = {
	.delay_ms = 3000, .timeout_s = 60, .dirty_ratio = 100,
	.dirty_bg_ratio = 80, .min_fill_pct = 50, .min_throttles = 1,
	.drop_cache = 1,
};

static const struct mglru_opt opts[] = {
	MGLRU_ULONG('d', cfg, delay_ms), MGLRU_ULONG('D', cfg, dirty_ratio),
	MGLRU_ULONG('B', cfg, dirty_bg_ratio), MGLRU_ULONG('W', cfg, dirty_mib),
	MGLRU_ULONG('F', cfg, min_fill_pct), MGLRU_ULONG('t', cfg, timeout_s),
	MGLRU_ULONG('T', cfg, min_throttles), MGLRU_ULONG('c', cfg, drop_cache),
	MGLRU_ULONG('P', cfg, clean_mib),
	MGLRU_ULONG('N', cfg, neighbour), MGLRU_ULONG('R', cfg, reclaimer),
	MGLRU_ULONG('S', cfg, suspend_s), MGLRU_ULONG('K', cfg, kill_after_s),
	MGLRU_ULONG('L', cfg, leak), MGLRU_ULONG('G', cfg, global),
	{ 0 }
};

/*
 * dm-delay over the loop device, under ext4: reads at once, writes after
 * the delay. The teardown removes it by its name, MGLRU_NAME.
 */
static char dm_table[256];	/* its table but the write delay */

static int stack_dm_delay(struct mglru_ctx *ctx, unsigned long size,
			  char *dev)
{
	char table[sizeof(dm_table) + 32], out[4096] = "";

	mglru_run(NULL, 0, true, "modprobe", "dm-delay");
	if (mglru_run(out, sizeof(out), true, "dmsetup", "targets") ||
	    !strstr(out, "delay "))
		return mglru_skip("dm-delay target not available");
	snprintf(dm_table, sizeof(dm_table), "0 %lu delay %s 0 0 %s 0",
		 size >> 9, ctx->loop, ctx->loop);
	snprintf(table, sizeof(table), "%s %lu", dm_table, cfg.delay_ms);
	if (mglru_run(NULL, 0, false, "dmsetup", "create", MGLRU_NAME,
		      "--table", table)) {
		ksft_print_msg("dmsetup create %s failed\n", MGLRU_NAME);
		return -1;
	}
	sprintf(dev, "/dev/mapper/%s", MGLRU_NAME);
	if (access(dev, F_OK))
		mglru_run(NULL, 0, true, "dmsetup", "mknodes", MGLRU_NAME);
	return access(dev, F_OK) ? -1 : 0;
}

/*
 * Set a dirty limit for the run, as a ratio or in bytes; 0 leaves it as it
 * is. Of the pair, at most one is in use: the bytes knob if it reads
 * nonzero, else the ratio (0 is a ratio, but no bytes value). That one is
 * saved for the restore. Bytes replacing a ratio are undone by two writes
 * of the ratio, 1 and then its old value (saved in the other order, and
 * undone last first): the bytes knob is zeroed only by a write that
 * changes the ratio, which the bytes left at 0. So the ratio is 1 for a
 * moment before the bytes are written.
 */
static int set_dirty_knob(const char *ratio, const char *bytes, bool in_bytes,
			  unsigned long val)
{
	const char *knob = in_bytes ? bytes : ratio;
	char old[32], buf[32];

	if (!val)
		return 0;
	if (mglru_read_str(bytes, old, sizeof(old))) {
		ksft_print_msg("read %s: %s\n", bytes, strerror(errno));
		return -1;
	}
	if (strcmp(old, "0")) {
		if (mglru_write_restore(bytes, NULL))
			return -1;
	} else if ((in_bytes && mglru_write_restore(ratio, "1")) ||
		   mglru_write_restore(ratio, NULL)) {
		return -1;
	}
	snprintf(buf, sizeof(buf), "%lu", val);
	if (!mglru_write(knob, buf))
		return 0;
	ksft_print_msg("write %s to %s: %s\n", buf, knob, strerror(errno));
	return -1;
}

/* The run's dirty limits: in bytes if -W asks, else the ratios. */
static int set_dirty_limits(void)
{
	bool in_bytes = cfg.dirty_mib;

	return set_dirty_knob("/proc/sys/vm/dirty_ratio",
			      "/proc/sys/vm/dirty_bytes", in_bytes,
			      in_bytes ? cfg.dirty_mib << 20 : cfg.dirty_ratio) ||
	       set_dirty_knob("/proc/sys/vm/dirty_background_ratio",
			      "/proc/sys/vm/dirty_background_bytes", in_bytes,
			      in_bytes ? cfg.dirty_mib << 19 :
					 cfg.dirty_bg_ratio);
}

/*
 * What skip_throttle_noprogress() weighs the pending writes against:
 * zone_reclaimable_pages(), file folios and anon ones when there is swap,
 * here for the whole machine, in MiB.
 */
static long reclaimable_mib(void)
{
	unsigned long kib = mglru_meminfo_kib("Active(file):") +
			    mglru_meminfo_kib("Inactive(file):");

	if (mglru_meminfo_kib("SwapFree:"))
		kib += mglru_meminfo_kib("Active(anon):") +
		       mglru_meminfo_kib("Inactive(anon):");
	return kib >> 10;
}

/* the event's reason is 1 << enum vmscan_throttle_state */
#define EVENT_WRITEBACK	0x1
#define EVENT_CONGESTED	0x8

/*
 * dd's throttles: on writeback (the verdict's), for other reasons. Of the
 * verdict's, reported apart: the CONGESTED reason's, and of those the
 * ones whose timeout was under 10 ms (reclaim_throttle()'s jiffy at
 * HZ >= 100, against a longer wait a kernel may give a congested memcg).
 */
static struct {
	int reason_off, delayed_off, timeout_off;	/* the fields' offsets */
	long writeback, other, delayed_us, congested, congested_short;
} t;

static void count_throttle(const char *raw, void *unused)
{
	int reason, delayed, timeout;

	memcpy(&reason, raw + t.reason_off, sizeof(reason));
	memcpy(&delayed, raw + t.delayed_off, sizeof(delayed));
	memcpy(&timeout, raw + t.timeout_off, sizeof(timeout));
	t.delayed_us += delayed > 0 ? delayed : 0;
	if (reason & (EVENT_WRITEBACK | EVENT_CONGESTED))
		t.writeback++;
	else
		t.other++;
	if (reason & EVENT_CONGESTED) {
		t.congested++;
		t.congested_short += timeout < 10000;
	}
}

/* dd, held until it is traced: it waits for *go before its exec */
static int *go;
static char of[MGLRU_PATH_LEN + 16], count[32];
static const char * const dd_argv[] = {
	"dd", "if=/dev/zero", of, "bs=1M", count, "status=none", NULL
};

static int exec_dd(void *unused)
{
	mglru_hold(go);
	return mglru_exec_argv((void *)dd_argv);
}

/* dirty and writeback folios fill the memcg as far as the precondition asks */
static bool memcg_full(long fill)
{
	return fill * 100 >= (long)(cfg.min_fill_pct * setup.memcg_max);
}

/*
 * -P: read a sparse file of clean_mib MiB on the scratch ext4, from outside
 * the memcg. Its holes are read without I/O (the write delay does not
 * matter, and no disk block is taken), into clean page cache on the node's
 * file LRU: what skip_throttle_noprogress() weighs dd's writeback against.
 * The file's MiB that ended in the page cache.
 */
static long fill_clean_cache(void)
{
	char path[MGLRU_PATH_LEN + 8], buf[1 << 16];
	ssize_t n;
	long got;
	int fd;

	snprintf(path, sizeof(path), "%s/clean", MGLRU_MNT);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)cfg.clean_mib << 20)) {
		ksft_print_msg("%s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	got = mglru_meminfo_kib("Inactive(file):") + mglru_meminfo_kib("Active(file):");
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	got = (long)(mglru_meminfo_kib("Inactive(file):") +
		     mglru_meminfo_kib("Active(file):")) - got;
	close(fd);
	return n < 0 ? -1 : got >> 10;
}

/*
 * -S: once dirty and writeback folios fill the memcg as far as the
 * precondition asks, the device's writes take suspend_s seconds instead of
 * delay_ms, for suspend_s seconds: a device that stopped, whose writes
 * still end by themselves should the run die in it (the teardown loads a
 * table without delay). Loading a table suspends the target, and dm-delay
 * then issues the writes it holds at once: the stop starts with them
 * done. stop_to_oom_s: from the stop to the memcg's next OOM kill, in
 * runs that had one (stop_oom); with -K, sigkill_ms: from a SIGKILL sent
 * to dd kill_after_s seconds into the stop until dd is gone.
 */
static struct {
	double at, oom_s, kill_at, kill_ms;
	long oom0;
	bool resumed, failed;
} stop;

static int device_delay(unsigned long ms)
{
	char table[sizeof(dm_table) + 32];

	snprintf(table, sizeof(table), "%s %lu", dm_table, ms);
	if (mglru_run(NULL, 0, true, "dmsetup", "suspend", "--nolockfs", MGLRU_NAME) ||
	    mglru_run(NULL, 0, true, "dmsetup", "reload", MGLRU_NAME, "--table", table) ||
	    mglru_run(NULL, 0, true, "dmsetup", "resume", MGLRU_NAME)) {
		ksft_print_msg("dmsetup: cannot set %s's write delay to %lu ms\n",
			       MGLRU_NAME, ms);
		mglru_run(NULL, 0, true, "dmsetup", "resume", MGLRU_NAME);
		stop.failed = true;
		return -1;
	}
	return 0;
}

/*
 * Where a SIGKILLed dd spends the time until it is gone: at each step,
 * its state and, when asleep, the kernel function it sleeps in
 * (/proc/<pid>/stat, /proc/<pid>/wchan), counted by kind. Reported, not
 * judged: running ("R") is reclaim's own work, a sleep names its wait.
 */
#define KILL_KINDS	6

static struct {
	char kind[KILL_KINDS][64];
	int count[KILL_KINDS], other;
} killed;

static void killed_sample(pid_t pid)
{
	char path[32], stat[512], wchan[48] = "", kind[64], *p;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (mglru_read_str(path, stat, sizeof(stat)))
		return;
	p = strrchr(stat, ')');
	if (!p || p[1] != ' ' || !p[2] || p[2] == 'Z')
		return;
	snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
	if (p[2] != 'R' && mglru_read_str(path, wchan, sizeof(wchan)))
		return;
	snprintf(kind, sizeof(kind), "%c%s%s", p[2], *wchan ? " " : "",
		 p[2] == 'R' ? "" : wchan);
	for (i = 0; i < KILL_KINDS && killed.count[i]; i++)
		if (!strcmp(killed.kind[i], kind))
			break;
	if (i == KILL_KINDS) {
		killed.other++;
		return;
	}
	snprintf(killed.kind[i], sizeof(killed.kind[i]), "%s", kind);
	killed.count[i]++;
}

static void killed_report(void)
{
	char out[512] = "";
	size_t len = 0;
	int i;

	for (i = 0; i < KILL_KINDS && killed.count[i] && len < sizeof(out); i++)
		len += snprintf(out + len, sizeof(out) - len, "%s%s %d",
				i ? ", " : "", killed.kind[i], killed.count[i]);
	if (killed.other && len < sizeof(out))
		snprintf(out + len, sizeof(out) - len, ", other %d", killed.other);
	ksft_print_msg("dd between its SIGKILL and its end, samples by state: %s\n",
		       *out ? out : "none");
}

static void device_stop_step(pid_t dd, long fill, long oom_kill, bool done)
{
	double now = mglru_now();

	if (!cfg.suspend_s || stop.failed)
		return;
	if (!stop.at) {
		if (memcg_full(fill)) {
			stop.at = now;
			stop.oom0 = oom_kill;
			device_delay(cfg.suspend_s * 1000);
		}
		return;
	}
	if (oom_kill > stop.oom0 && stop.oom_s < 0)
		stop.oom_s = now - stop.at;
	if (cfg.kill_after_s && !stop.kill_at && !done &&
	    now - stop.at >= cfg.kill_after_s) {
		stop.kill_at = now;
		kill(dd, SIGKILL);
	}
	if (stop.kill_at && !done)
		killed_sample(dd);
	if (stop.kill_at && done && stop.kill_ms < 0) {
		stop.kill_ms = (now - stop.kill_at) * 1000;
		killed_report();
	}
	if (!stop.resumed && now - stop.at >= cfg.suspend_s) {
		device_delay(cfg.delay_ms);
		stop.resumed = true;
	}
}

/*
 * -L 1: once the memcg is as full as the precondition asks, a task in it
 * allocates anon memory without end (there is no swap), the OOM killer's
 * choice (oom_score_adj 1000): how long the memcg takes to kill a task
 * that reclaim cannot help while dd's writeback is in flight (the
 * workload of "small memcg environments stalled excessively" that made
 * a congested memcg's wait short).
 */
static struct {
	pid_t pid;
	double at, oom_s;
	int status;
	bool failed, late;
} leak;

static int leaker(void *unused)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t size = 4 * setup.memcg_max, i;
	char *p;

	if (mglru_write("/proc/self/oom_score_adj", "1000"))
		return 1;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	for (i = 0; i < size; i += page)
		p[i] = 1;
	return 0;
}

/*
 * The leak gone within @wait_s: the OOM killer's SIGKILL, or an error of
 * the leaker's own. @timed: reaped at its step, so that its kill is timed
 * (a leak reaped after dd's end is counted, without a time).
 */
static void leak_reap(double wait_s, bool timed)
{
	if (leak.pid <= 0 || mglru_wait(leak.pid, &leak.status, wait_s) != 1)
		return;
	if (!WIFSIGNALED(leak.status) || WTERMSIG(leak.status) != SIGKILL)
		leak.failed = true;
	else if (timed)
		leak.oom_s = mglru_now() - leak.at;
	else
		leak.late = true;
	leak.pid = 0;
}

static void leak_step(struct mglru_ctx *ctx, long fill)
{
	double now = mglru_now();

	if (!cfg.leak)
		return;
	if (!leak.at) {
		if (memcg_full(fill)) {
			leak.at = now;
			leak.pid = mglru_spawn(ctx->cg, leaker, NULL);
			leak.failed = leak.pid < 0;
		}
		return;
	}
	leak_reap(0, true);
}

/*
 * -G 1: global reclaim instead of the memcg's, with the classic LRU (MGLRU's
 * global reclaim takes lru_gen_shrink_node(), which has no congestion
 * throttle: the run is skipped there). The memcg's limit is lifted, and a
 * ballast of mlocked anon memory in the harness's memcg leaves the machine
 * about memory.max of MemAvailable, so that dd's dirty data is reclaimed
 * by kswapd and by dd's own direct reclaim of the node, with no memcg
 * limit in reach. The ballast is the OOM killer's choice (oom_score_adj
 * 1000) should the machine run out. No swap: it would swap the ext4's
 * tmpfs image out; and the image is allocated again first, as mkfs.ext4's
 * discard punched holes in it, so that the loop device's writes take no
 * memory during the run. The dirty limits are ratios of that little
 * memory: at the reproducer's 100/80 all of it can be dirty or under
 * writeback, as the memcg was, and the ballast may be OOM-killed
 * (ballast_oom_s: from dd's start). The precondition is the memcg's
 * (dirty and writeback folios filled half of memory.max, which is about
 * what the machine has available), and that the machine's direct
 * reclaim ran and reclaim met folios under writeback, marking them for
 * immediate reclaim; in place of the verdict, dd's throttles are
 * reported, not judged, beside global_direct_mib, global_immediate_mib
 * and global_oom_kill (/proc/vmstat deltas).
 */
#define BALLAST_FILL_S	60	/* time the ballast has to lock itself in */

static struct {
	pid_t pid;
	int *ready;
	size_t size;
	double lost_s;	/* from dd's start to the ballast's OOM kill */
	bool failed;	/* it ended otherwise */
	long direct0, immediate0, oom0, direct, immediate;
} ballast;

static int ballast_hold(void *unused)
{
	char *p;

	if (mglru_write("/proc/self/oom_score_adj", "1000")) {
		fprintf(stderr, "ballast: oom_score_adj: %s\n", strerror(errno));
		return 1;
	}
	p = mmap(NULL, ballast.size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || mlock(p, ballast.size)) {
		fprintf(stderr, "ballast: %zu MiB: %s\n", ballast.size >> 20,
			strerror(errno));
		return 1;
	}
	__atomic_store_n(ballast.ready, 1, __ATOMIC_RELEASE);
	for (;;)
		pause();
	return 0;
}

/* the holes of the ext4's tmpfs image allocated, its data kept */
static int disk_allocate(void)
{
	struct stat st;
	int fd = open(MGLRU_DISK, O_RDWR | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) || fallocate(fd, 0, 0, st.st_size)) {
		ksft_print_msg("%s: %s\n", MGLRU_DISK, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int ballast_start(struct mglru_ctx *ctx, const char *harness)
{
	unsigned long long avail;
	char max[MGLRU_PATH_LEN + 16];
	int status, ret;
	double end;

	memset(&ballast, 0, sizeof(ballast));
	if (mglru_meminfo_kib("SwapTotal:")) {
		ksft_print_msg("-G: swap is on; the ballast would not hold\n");
		return -1;
	}
	if (disk_allocate())
		return -1;
	avail = mglru_meminfo_kib("MemAvailable:") * 1024ULL;
	if (avail <= setup.memcg_max) {
		ksft_print_msg("-G: %llu MiB available, no room for a ballast\n",
			       avail >> 20);
		return -1;
	}
	ballast.size = avail - setup.memcg_max;
	ballast.ready = mglru_shared_alloc(sizeof(*ballast.ready));
	snprintf(max, sizeof(max), "%s/memory.max", ctx->cg);
	if (!ballast.ready || mglru_write(max, "max"))
		return -1;
	ballast.pid = mglru_spawn(harness, ballast_hold, NULL);
	end = mglru_now() + BALLAST_FILL_S * ctx->slow;
	while (ballast.pid > 0 &&
	       !__atomic_load_n(ballast.ready, __ATOMIC_ACQUIRE)) {
		ret = mglru_wait(ballast.pid, &status, 0.1);
		if (!ret && mglru_now() < end)
			continue;
		ksft_print_msg("-G: the ballast of %zu MiB %s\n",
			       ballast.size >> 20, ret == 1 ?
			       (WIFSIGNALED(status) ? "was killed" : "failed") :
			       "took too long");
		if (ret != 1)
			mglru_kill(ballast.pid);
		ballast.pid = -1;
	}
	if (ballast.pid < 0)
		return -1;
	/* the counters from here: what the ballast's own fill set off is past */
	mglru_sleep_ms(1000);
	ballast.direct0 = mglru_vmstat("pgscan_direct");
	ballast.immediate0 = mglru_vmstat("nr_vmscan_immediate_reclaim");
	ballast.oom0 = mglru_vmstat("oom_kill");
	return 0;
}

/* -G: the ballast's end, when the OOM killer takes it during the run */
static void ballast_step(double start)
{
	int status;

	if (!cfg.global || ballast.pid <= 0 ||
	    mglru_wait(ballast.pid, &status, 0) != 1)
		return;
	ballast.pid = -1;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		ballast.lost_s = mglru_now() - start;
	else
		ballast.failed = true;
}

/* -G's figures since ballast_start(), as metrics (the ballast stays) */
static void ballast_report(struct mglru_ctx *ctx)
{
	long kib = sysconf(_SC_PAGESIZE) >> 10;

	ballast.direct = mglru_vmstat("pgscan_direct") - ballast.direct0;
	ballast.immediate = mglru_vmstat("nr_vmscan_immediate_reclaim") -
			    ballast.immediate0;
	mglru_metric(ctx, "ballast_mib", "%zu", ballast.size >> 20);
	mglru_metric(ctx, "ballast_oom_killed", "%d", ballast.lost_s > 0);
	if (ballast.lost_s > 0)
		mglru_metric(ctx, "ballast_oom_s", "%.2f", ballast.lost_s);
	mglru_metric(ctx, "global_direct_mib", "%ld", ballast.direct * kib >> 10);
	mglru_metric(ctx, "global_immediate_mib", "%ld",
		     ballast.immediate * kib >> 10);
	mglru_metric(ctx, "global_oom_kill", "%ld",
		     mglru_vmstat("oom_kill") - ballast.oom0);
}

/* -G: a control's precondition, in place of the verdict */
static bool global_gate(struct mglru_ctx *ctx)
{
	return mglru_check(ctx, !ballast.failed, "-G: the ballast failed") &&
	       mglru_check(ctx, ballast.direct > 0 && ballast.immediate > 0,
			   "precondition not met: direct reclaim scanned %ld pages, reclaim met %ld under writeback",
			   ballast.direct, ballast.immediate);
}

/* The probe's timings as metrics; false if it failed. */
static bool probe_metrics(struct mglru_ctx *ctx, struct probe_run *run,
			  const char *name)
{
	struct probe_stats st;
	char key[64];

	if (probe_stop(run, &st)) {
		ksft_print_msg("%s: the %s probe failed\n", ctx->test, name);
		return false;
	}
	snprintf(key, sizeof(key), "%s_n", name);
	mglru_metric(ctx, key, "%ld", st.n);
	snprintf(key, sizeof(key), "%s_p50_ms", name);
	mglru_metric(ctx, key, "%.3f", st.p50);
	snprintf(key, sizeof(key), "%s_p99_ms", name);
	mglru_metric(ctx, key, "%.3f", st.p99);
	snprintf(key, sizeof(key), "%s_max_ms", name);
	mglru_metric(ctx, key, "%.3f", st.max);
	return true;
}

/* the verdict: dd throttled on its writeback, as the memcg's reclaim does */
static bool throttle_gate(struct mglru_ctx *ctx, long reclaimable)
{
	return mglru_check(ctx, t.writeback >= (long)cfg.min_throttles,
			   "reclaim throttled dd on writeback %ld times, fewer than %lu (%ld throttles for other reasons; none while writes pending are under half of the %ld MiB reclaimable at the start)",
			   t.writeback, cfg.min_throttles, t.other, reclaimable);
}

static int run_dd(struct mglru_ctx *ctx)
{
	struct probe_run neighbour = { 0 }, reclaimer = { 0 };
	char path[MGLRU_PATH_LEN + 8], harness[MGLRU_PATH_LEN];
	bool probes_ok = true, dd_oom;
	long dirty, max_fill = 0, oom_kill, lost = 0, reclaimable, clean = 0;
	struct stat st = { 0 };
	double start, secs;
	int ret, status = 0, done;
	bool completed;
	pid_t dd;

	if (cfg.global && ctx->mode == MGLRU_MODE_MGLRU)
		return mglru_skip("-G: MGLRU's global reclaim has no congestion throttle");
	if (cfg.drop_cache) {
		sync();
		if (mglru_write("/proc/sys/vm/drop_caches", "1"))
			return -1;
	}
	if (cfg.clean_mib) {
		clean = fill_clean_cache();
		if (clean < 0)
			return -1;
	}
	snprintf(harness, sizeof(harness), "%.*s/harness",
		 (int)(strrchr(ctx->cg, '/') - ctx->cg), ctx->cg);
	if (cfg.global && ballast_start(ctx, harness))
		return -1;
	reclaimable = reclaimable_mib();
	go = mglru_shared_alloc(sizeof(*go));
	if (!go || set_dirty_limits())
		return -1;
	snprintf(path, sizeof(path), "%s/f", MGLRU_MNT);
	snprintf(of, sizeof(of), "of=%s", path);
	snprintf(count, sizeof(count), "count=%lu", setup.data_size >> 20);
	dd = mglru_spawn(ctx->cg, exec_dd, NULL);
	if (dd < 0)
		return -1;
	ret = mglru_trace_open(EVENT, &dd, 1);
	t.reason_off = mglru_trace_field("reason");
	t.delayed_off = mglru_trace_field("usec_delayed");
	t.timeout_off = mglru_trace_field("usec_timeout");
	if (!ret && (t.reason_off < 0 || t.delayed_off < 0 || t.timeout_off < 0)) {
		ksft_print_msg("%s: no reason, usec_delayed or usec_timeout field\n",
			       EVENT);
		ret = -1;
	}
	if (ret) {
		mglru_kill(dd);
		mglru_trace_close();
		return ret;
	}
	/* the reclaimer, as a proactive reclaimer does, from outside */
	if ((cfg.neighbour && probe_start(&neighbour, PROBE_NEIGHBOUR, ctx->cg, ctx->cg)) ||
	    (cfg.reclaimer && probe_start(&reclaimer, PROBE_RECLAIM, harness, ctx->cg))) {
		probe_discard(&neighbour);
		probe_discard(&reclaimer);
		mglru_kill(dd);
		mglru_trace_close();
		return -1;
	}
	memset(&stop, 0, sizeof(stop));
	stop.oom_s = -1;
	stop.kill_ms = -1;
	memset(&killed, 0, sizeof(killed));
	memset(&leak, 0, sizeof(leak));
	leak.oom_s = -1;
	start = mglru_now();
	__atomic_store_n(go, 1, __ATOMIC_RELEASE);
	do {
		done = mglru_wait(dd, &status, 0.1);
		dirty = mglru_memcg_stat(ctx->cg, "file_dirty") +
			mglru_memcg_stat(ctx->cg, "file_writeback");
		if (dirty > max_fill)
			max_fill = dirty;
		lost += mglru_trace_read(count_throttle, NULL);
		device_stop_step(dd, dirty, mglru_memcg_event(ctx->cg, "oom_kill"),
				 done);
		leak_step(ctx, dirty);
		ballast_step(start);
	} while (!done && mglru_now() - start < cfg.timeout_s * ctx->slow);
	if (stop.at && !stop.resumed && !stop.failed)
		device_delay(cfg.delay_ms);
	/* a leak killed at dd's end may be reaped after it */
	leak_reap(1, false);
	if (leak.pid > 0)
		mglru_kill(leak.pid);
	secs = mglru_now() - start;
	oom_kill = mglru_memcg_event(ctx->cg, "oom_kill");
	completed = done == 1 && WIFEXITED(status) && !WEXITSTATUS(status);
	/* a SIGKILL not the run's own: the OOM killer's */
	dd_oom = done == 1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL &&
		 !stop.kill_at;
	/* how far dd got, whether or not it was killed */
	stat(path, &st);
	lost += mglru_trace_read(count_throttle, NULL);
	/* dd gone before its events: their removal patches its code path */
	if (!done)
		mglru_kill(dd);
	mglru_trace_close();

	mglru_metric(ctx, "duration_s", "%.1f", secs);
	mglru_metric(ctx, "oom_kill", "%ld", oom_kill);
	mglru_metric(ctx, "dd_completed", "%d", completed);
	mglru_metric(ctx, "dd_oom_killed", "%d", dd_oom);
	if (done == 1 && WIFSIGNALED(status))
		mglru_metric(ctx, "dd_signal", "%d", WTERMSIG(status));
	mglru_metric(ctx, "written_mib", "%lld", (long long)st.st_size >> 20);
	if (completed)
		mglru_metric(ctx, "mib_per_s", "%.1f", (setup.data_size >> 20) / secs);
	mglru_metric(ctx, "max_dirty_wb_mib", "%ld", max_fill >> 20);
	mglru_metric(ctx, "dirty_fill_pct", "%ld", max_fill * 100 / setup.memcg_max);
	mglru_metric(ctx, "throttled_writeback", "%ld", t.writeback);
	mglru_metric(ctx, "throttled_other", "%ld", t.other);
	mglru_metric(ctx, "throttled_congested", "%ld", t.congested);
	mglru_metric(ctx, "throttled_congested_short", "%ld", t.congested_short);
	mglru_metric(ctx, "throttled_ms", "%ld", t.delayed_us / 1000);
	mglru_metric(ctx, "reclaimable_mib", "%ld", reclaimable);
	if (cfg.clean_mib)
		mglru_metric(ctx, "clean_mib", "%ld", clean);
	if (cfg.neighbour)
		probes_ok &= probe_metrics(ctx, &neighbour, "neighbour_fault");
	if (cfg.reclaimer)
		probes_ok &= probe_metrics(ctx, &reclaimer, "memory_reclaim");
	/* a time only where its event came: no placeholder to rank */
	if (cfg.leak && !leak.failed) {
		mglru_metric(ctx, "leak_oom_killed", "%d",
			     leak.oom_s >= 0 || leak.late);
		if (leak.oom_s >= 0)
			mglru_metric(ctx, "leak_to_oom_s", "%.2f", leak.oom_s);
	}
	if (cfg.suspend_s && stop.at && !stop.failed) {
		mglru_metric(ctx, "stopped_at_s", "%.1f", stop.at - start);
		mglru_metric(ctx, "stop_oom", "%d", stop.oom_s >= 0);
		if (stop.oom_s >= 0)
			mglru_metric(ctx, "stop_to_oom_s", "%.1f", stop.oom_s);
		if (stop.kill_ms >= 0)
			mglru_metric(ctx, "sigkill_ms", "%.0f", stop.kill_ms);
	}
	if (cfg.global)
		ballast_report(ctx);
	if (lost)
		mglru_metric(ctx, "trace_lost", "%ld", lost);
	if (dd_oom)
		ksft_print_msg("%s: dd OOM-killed after %lld MiB (reported, not judged)\n",
			       ctx->test, (long long)st.st_size >> 20);

	if (mglru_check(ctx, done == 1, "dd still running after %lu s",
			cfg.timeout_s * ctx->slow) &&
	    mglru_check(ctx, completed || dd_oom || stop.kill_at,
			"dd failed, not OOM-killed (status 0x%x)", status) &&
	    mglru_check(ctx, probes_ok && !leak.failed && !stop.failed,
			"a control failed (probe, leak or device stop: see above)") &&
	    mglru_check(ctx, memcg_full(max_fill),
			"precondition not met: dirty and writeback folios filled %ld %% of the memcg, below %lu %%",
			max_fill * 100 / setup.memcg_max, cfg.min_fill_pct) &&
	    (cfg.global ? global_gate(ctx) : throttle_gate(ctx, reclaimable)))
		return KSFT_PASS;
	return KSFT_FAIL;
}

static int run(struct mglru_ctx *ctx)
{
	int ret = run_dd(ctx);

	if (ballast.pid > 0)
		mglru_kill(ballast.pid);
	return ret;
}

static int configure(void)
{
	/*
	 * ext4 leaves delayed allocation when its free blocks fall below 1.5
	 * times its dirty ones (ext4_nonda_switch()): keep twice a memcg-full
	 * of dirty data free to the end, so that the last writes take the
	 * path the first ones took.
	 */
	setup.fs_free = 2 * setup.memcg_max;
	return setup.data_size < SZ_1M || !cfg.timeout_s || !cfg.delay_ms ||
	       cfg.dirty_ratio > 100 || cfg.dirty_bg_ratio > 100 ||
	       cfg.dirty_mib > ULONG_MAX >> 20 ||
	       cfg.dirty_mib > (mglru_meminfo_kib("MemTotal:") >> 10) ||
	       cfg.min_fill_pct > 100 || !cfg.min_throttles ||
	       cfg.drop_cache > 1 || cfg.neighbour > 1 || cfg.reclaimer > 1 ||
	       cfg.leak > 1 || cfg.global > 1 ||
	       (cfg.global && (cfg.clean_mib || cfg.neighbour || cfg.reclaimer ||
			       cfg.leak || cfg.suspend_s || cfg.dirty_mib ||
			       !cfg.drop_cache || cfg.min_throttles != 1)) ||
	       (cfg.kill_after_s && cfg.kill_after_s >= cfg.suspend_s) ||
	       (cfg.suspend_s && cfg.suspend_s >= cfg.timeout_s) ||
	       cfg.clean_mib > (mglru_meminfo_kib("MemTotal:") / 2) >> 10 ? -1 : 0;
}

static void describe(void)
{
	ksft_print_msg("dd writes the data, each write delayed %lu ms\n",
		       cfg.delay_ms);
	if (cfg.dirty_mib)
		ksft_print_msg("vm.dirty_bytes %lu MiB, background half of it\n",
			       cfg.dirty_mib);
	else
		ksft_print_msg("vm.dirty_ratio %lu, background %lu (0: unchanged)\n",
			       cfg.dirty_ratio, cfg.dirty_bg_ratio);
	ksft_print_msg("clean page cache %s before dd\n",
		       cfg.drop_cache ? "dropped" : "kept");
	if (cfg.clean_mib)
		ksft_print_msg("then %lu MiB of clean page cache read outside the memcg\n",
			       cfg.clean_mib);
	if (cfg.neighbour)
		ksft_print_msg("a task beside dd faults anon pages in and out, each timed\n");
	if (cfg.reclaimer)
		ksft_print_msg("memory.reclaim asked for 1M every 0.5 s, each timed\n");
	if (cfg.leak)
		ksft_print_msg("a task in the memcg allocates anon without end once it is full\n");
	if (cfg.suspend_s)
		ksft_print_msg("the device stops for %lu s once the memcg is full%s\n",
			       cfg.suspend_s, cfg.kill_after_s ? ", dd SIGKILLed in it" : "");
	if (cfg.global) {
		ksft_print_msg("-G: no memcg limit, a ballast leaves about %lu MiB available\n",
			       setup.memcg_max >> 20);
		ksft_print_msg("verdict: none (a control), classic LRU only\n");
		return;
	}
	ksft_print_msg("verdict: dd throttled on writeback %lu times at least\n",
		       cfg.min_throttles);
}

static const struct mglru_scenario scenario = {
	.name = "dirty_throttle", .setup = &setup, .opts = opts,
	.configure = configure, .describe = describe, .run = run,
};

int main(int argc, char **argv)
{
	return mglru_main(argc, argv, &scenario);
}
