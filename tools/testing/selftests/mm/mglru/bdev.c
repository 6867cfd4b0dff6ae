// SPDX-License-Identifier: GPL-2.0
/*
 * Guest-local storage and its teardown: ext4 on a loop device backed by a
 * file on a tmpfs in MGLRU_SCRATCH, optionally over a device the scenario
 * stacks (the dm target MGLRU_NAME); the data file; zram swap. Not the
 * guest's root filesystem: 9p or virtiofs would bring the host's page cache,
 * and tmpfs has no readahead and no writeback. The teardown acts only on
 * what is the run's by more than a name: a loop device backed by MGLRU_DISK,
 * no path through a symlink.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>

#include "mglru.h"

unsigned long mglru_tmpfs_size(unsigned long fs_size)
{
	return fs_size + 8 * SZ_1M;
}

/*
 * A tmpfs file -> a loop device -> mkfs.ext4 -> the scenario's device, if
 * any -> ext4 at MGLRU_MNT, with the data file if asked for. The file is
 * allocated here, so that the loop device's writes charge no workload; the
 * filesystem is made before a device is stacked on the loop device: the
 * same on-disk result, without a delayed mkfs.
 */
int mglru_bdev_setup(struct mglru_ctx *ctx, const struct mglru_setup *setup,
		     unsigned long size)
{
	static const char * const tools[] = { "losetup", "mkfs.ext4", "dd", NULL };
	char dev[MGLRU_PATH_LEN], opts[64], of[MGLRU_PATH_LEN + 8], count[32];
	int fd, ret = mglru_need_tools(tools);

	if (ret)
		return ret;
	snprintf(opts, sizeof(opts), "size=%luk,mode=0700",
		 mglru_tmpfs_size(size) >> 10);
	if (mkdir(MGLRU_SCRATCH, 0700) || mkdir(MGLRU_TMPFS, 0700) ||
	    mkdir(MGLRU_MNT, 0700) ||
	    mount("tmpfs", MGLRU_TMPFS, "tmpfs", 0, opts)) {
		ksft_print_msg("scratch tmpfs: %s\n", strerror(errno));
		return -1;
	}
	fd = open(MGLRU_DISK, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || fallocate(fd, 0, 0, size)) {
		ksft_print_msg("%s: %s\n", MGLRU_DISK, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	/* a distribution kernel builds loop as a module */
	if (access("/dev/loop-control", F_OK))
		mglru_run(NULL, 0, true, "modprobe", "loop");
	if (access("/dev/loop-control", F_OK))
		return mglru_skip("no /dev/loop-control (CONFIG_BLK_DEV_LOOP=n?)");
	if (mglru_run(ctx->loop, sizeof(ctx->loop), false, "losetup", "--find",
		      "--show", MGLRU_DISK) || !mglru_own_loop(ctx->loop) ||
	    mglru_run(NULL, 0, false, "mkfs.ext4", "-q", "-F", "-E",
		      "lazy_itable_init=0,lazy_journal_init=0", ctx->loop)) {
		ksft_print_msg("losetup or mkfs.ext4 failed (%s)\n", ctx->loop);
		return -1;
	}
	snprintf(dev, sizeof(dev), "%s", ctx->loop);
	ret = setup->stack ? setup->stack(ctx, size, dev) : 0;
	if (ret)
		return ret;
	if (mount(dev, MGLRU_MNT, "ext4", 0, setup->mount_opts)) {
		ksft_print_msg("mount %s: %s\n", dev, strerror(errno));
		return -1;
	}
	if (!setup->data_file)
		return 0;
	/* written by the harness, then its page cache dropped: a cold start */
	snprintf(ctx->file, sizeof(ctx->file), "%s/file", MGLRU_MNT);
	snprintf(of, sizeof(of), "of=%s", ctx->file);
	snprintf(count, sizeof(count), "count=%lu",
		 (setup->data_size + SZ_1M - 1) >> 20);
	fd = -1;
	if (!mglru_run(NULL, 0, false, "dd", "if=/dev/zero", of, "bs=1M", count,
		       "status=none") && !truncate(ctx->file, setup->data_size))
		fd = open(ctx->file, O_RDWR | O_CLOEXEC);
	if (fd < 0 || fsync(fd) || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) {
		ksft_print_msg("create %s failed\n", ctx->file);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * zram swap of @size bytes on a hot-added device, in the state file before
 * it is set up (a run killed right after hot_add leaves it empty).
 */
int mglru_zram_swap_setup(unsigned long size)
{
	static const char * const tools[] = { "mkswap", NULL };
	char path[64], buf[64], dev[32];
	int id, ret = mglru_need_tools(tools);

	if (ret)
		return ret;
	if (access("/sys/class/zram-control", F_OK))
		mglru_run(NULL, 0, true, "modprobe", "zram", "num_devices=0");
	if (mglru_read_str("/sys/class/zram-control/hot_add", buf, sizeof(buf)))
		return mglru_skip("zram hot_add not available (CONFIG_ZRAM=n?)");
	id = atoi(buf);
	if (mglru_state_zram(id))
		return -1;
	snprintf(path, sizeof(path), "/sys/block/zram%d/disksize", id);
	snprintf(buf, sizeof(buf), "%lu", size);
	snprintf(dev, sizeof(dev), "/dev/zram%d", id);
	if (mglru_write(path, buf) || mglru_run(NULL, 0, true, "mkswap", dev) ||
	    swapon(dev, 0)) {
		ksft_print_msg("zram swap on %s failed\n", dev);
		return -1;
	}
	return 0;
}

/* 1 if @path was a mount point (never through a symlink), else 0. */
static int unmount(const char *path)
{
	int i;

	for (i = 0; i < 50; i++) {
		if (!umount2(path, UMOUNT_NOFOLLOW))
			return 1;
		if (errno != EBUSY)
			return 0;
		mglru_sleep_ms(100);
	}
	ksft_print_msg("cleanup: umount %s: busy, detaching\n", path);
	return !umount2(path, MNT_DETACH | UMOUNT_NOFOLLOW);
}

/*
 * Unmount MGLRU_MNT. If it is on the dm target MGLRU_NAME over the run's
 * loop device, first load its table without the write delay (the last
 * field), so that the last writeback does not wait out every delay:
 * suspending flushes the bios dm-delay holds; --nolockfs leaves the dirty
 * pages to the unmount, which then writes them at once. The target can stay
 * open a while after the unmount (udev probes it): removal retries for 10 s.
 */
static int unmount_dm(void)
{
	char table[256], dev[32], *p;
	int i, found;

	/* no loop device of the run's without its file: no target over one */
	if (access(MGLRU_DISK, F_OK) ||
	    mglru_run(table, sizeof(table), true, "dmsetup", "table", MGLRU_NAME))
		return unmount(MGLRU_MNT);
	p = strrchr(table, ' ');
	if (sscanf(table, "0 %*u delay %31s", dev) != 1 || !mglru_own_loop(dev) ||
	    !p) {
		ksft_print_msg("cleanup: refused %s: not over the run's loop device\n",
			       MGLRU_NAME);
		return unmount(MGLRU_MNT);
	}
	snprintf(p, sizeof(table) - (p - table), " 0");
	if (!mglru_run(NULL, 0, true, "dmsetup", "suspend", "--nolockfs",
		       MGLRU_NAME))
		mglru_run(NULL, 0, true, "dmsetup", "reload", MGLRU_NAME,
			  "--table", table);
	mglru_run(NULL, 0, true, "dmsetup", "resume", MGLRU_NAME);
	found = unmount(MGLRU_MNT) + 1;
	for (i = 0; i < 40; i++) {
		if (!mglru_run(NULL, 0, true, "dmsetup", "remove", "--retry",
			       MGLRU_NAME))
			return found;
		mglru_run(NULL, 0, true, "udevadm", "settle");
		mglru_sleep_ms(250);
	}
	ksft_print_msg("cleanup: dmsetup remove %s failed\n", MGLRU_NAME);
	return found;
}

/* The storage, taken apart; the number of pieces found. */
int mglru_bdev_teardown(bool report)
{
	static const char * const dirs[] = {
		MGLRU_MNT, MGLRU_DEBUGFS, MGLRU_TRACEFS, MGLRU_TMPFS,
		MGLRU_SCRATCH,
	};
	const char *why = mglru_scratch_refusal();
	char out[1024], *line, *save;
	int found = 0;
	size_t i;

	if (why) {
		ksft_print_msg("cleanup: refused %s: %s\n", MGLRU_SCRATCH, why);
		return 0;
	}
	found += unmount_dm();
	found += unmount(MGLRU_DEBUGFS);
	found += unmount(MGLRU_TRACEFS);
	/* the loop devices backed by MGLRU_DISK */
	if (mglru_run(out, sizeof(out), true, "losetup", "-j", MGLRU_DISK))
		out[0] = '\0';
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		*strchrnul(line, ':') = '\0';
		if (mglru_own_loop(line))
			found += !mglru_run(NULL, 0, true, "losetup", "-d", line);
	}
	found += unmount(MGLRU_TMPFS);
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		found += !rmdir(dirs[i]);
	if (report && found)
		ksft_print_msg("cleanup: %s: %d mounts, devices and directories removed\n",
			       MGLRU_SCRATCH, found);
	return found;
}
