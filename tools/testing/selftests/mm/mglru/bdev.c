// SPDX-License-Identifier: GPL-2.0
/*
 * Guest-local storage: ext4 on a loop device backed by a file on a private
 * tmpfs in the run's scratch directory (MGLRU_HOME/<pid>), optionally
 * behind a dm-delay target; the scenario's data file on
 * it; zram swap. Not the guest's root filesystem: 9p or virtiofs would bring
 * the host's page cache, and tmpfs has no readahead and no writeback.
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

static bool have_dm_delay(void)
{
	char out[4096];
	int i;

	for (i = 0; i < 2; i++) {
		if (!mglru_run(out, sizeof(out), true, "dmsetup", "targets") &&
		    (!strncmp(out, "delay ", 6) || strstr(out, "\ndelay ")))
			return true;
		if (i == 0)
			mglru_run(NULL, 0, true, "modprobe", "dm-delay");
	}
	return false;
}

/* Put @path on the cleanup stack, then mkdir it. */
static int make_dir(const char *path)
{
	if (mglru_cleanup_path(RES_DIR, path) || mkdir(path, 0700)) {
		ksft_print_msg("mkdir %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The harness's tmpfs around an ext4 image of @fs_size bytes. */
unsigned long mglru_tmpfs_size(unsigned long fs_size)
{
	return fs_size + 8 * SZ_1M;
}

static int mount_tmpfs(struct mglru_ctx *ctx, unsigned long size)
{
	char base[MGLRU_PATH_LEN - 8], opts[64];

	mglru_scratch_dir(base, sizeof(base), getpid());
	if (make_dir(base))
		return -1;
	snprintf(ctx->tmpdir, sizeof(ctx->tmpdir), "%s/tmpfs", base);
	snprintf(ctx->mnt, sizeof(ctx->mnt), "%s/mnt", base);
	if (make_dir(ctx->tmpdir) || make_dir(ctx->mnt))
		return -1;
	snprintf(opts, sizeof(opts), "size=%luk,mode=0700",
		 mglru_tmpfs_size(size) >> 10);
	if (mglru_cleanup_path(RES_MOUNT, ctx->tmpdir) ||
	    mount("tmpfs", ctx->tmpdir, "tmpfs", 0, opts)) {
		ksft_print_msg("mount tmpfs: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The backing file is allocated by the harness, so the loop device's writes
 * never charge the workload's memcg for tmpfs pages. Signals stay blocked
 * while losetup runs, so that a SIGTERM cannot race its attaching.
 */
static int attach_loop(struct mglru_ctx *ctx, const char *backing,
		       unsigned long size)
{
	sigset_t old;
	int fd, ret;

	fd = open(backing, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || fallocate(fd, 0, 0, size)) {
		ksft_print_msg("backing file: %s\n", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	if (mglru_cleanup_path(RES_LOOP, backing))
		return -1;
	mglru_block_signals(&old);
	ret = mglru_run(ctx->loop, sizeof(ctx->loop), false, "losetup",
			"--find", "--show", backing);
	mglru_restore_signals(&old);
	if (ret || strncmp(ctx->loop, "/dev/loop", 9)) {
		ksft_print_msg("losetup failed (%s)\n", ctx->loop);
		return -1;
	}
	return 0;
}

/* The dm-delay table over the loop device: writes delayed @delay_ms. */
static void dm_delay_table(char *table, size_t len, struct mglru_ctx *ctx,
			   unsigned long size, long delay_ms)
{
	snprintf(table, len, "0 %lu delay %s 0 0 %s 0 %ld", size >> 9,
		 ctx->loop, ctx->loop, delay_ms);
}

/* dm-delay over the loop device: reads at once, writes after @delay_ms. */
static int create_dm_delay(struct mglru_ctx *ctx, unsigned long size,
			   long delay_ms, char *dev, size_t devlen)
{
	char name[64], table[256];
	sigset_t old;
	int ret;

	mglru_dm_name(name, sizeof(name), getpid());
	dm_delay_table(table, sizeof(table), ctx, size, delay_ms);
	if (mglru_cleanup_dm(name))
		return -1;
	mglru_block_signals(&old);
	ret = mglru_run(NULL, 0, false, "dmsetup", "create", name, "--table",
			table);
	mglru_restore_signals(&old);
	if (ret) {
		ksft_print_msg("dmsetup create %s failed\n", name);
		return -1;
	}
	snprintf(dev, devlen, "/dev/mapper/%s", name);
	if (access(dev, F_OK))
		mglru_run(NULL, 0, true, "dmsetup", "mknodes", name);
	if (access(dev, F_OK)) {
		ksft_print_msg("%s missing\n", dev);
		return -1;
	}
	return 0;
}

/*
 * Pushed after the mount, so released before the unmount: the unmount then
 * writes the last dirty data at once instead of waiting out every delay.
 */
static int push_undelay(struct mglru_ctx *ctx, unsigned long size)
{
	char name[64], table[256];

	mglru_dm_name(name, sizeof(name), getpid());
	dm_delay_table(table, sizeof(table), ctx, size, 0);
	return mglru_cleanup_undelay(name, table);
}

/*
 * tmpfs file -> loop device -> mkfs.ext4 -> optional dm-delay -> mount at
 * @ctx->mnt. The filesystem is made before dm-delay is stacked on the loop
 * device: the same on-disk result, without a delayed mkfs.
 */
int mglru_bdev_setup(struct mglru_ctx *ctx, unsigned long size,
		     long write_delay_ms)
{
	static const char * const tools[] = { "losetup", "mkfs.ext4", NULL };
	static const char * const dm_tools[] = { "dmsetup", NULL };
	char backing[MGLRU_PATH_LEN + 16], dev[MGLRU_PATH_LEN];
	int ret;

	ret = mglru_need_tools(tools);
	if (!ret && write_delay_ms) {
		ret = mglru_need_tools(dm_tools);
		if (!ret && !have_dm_delay())
			ret = mglru_skip("dm-delay target not available");
	}
	if (ret)
		return ret;
	if (mount_tmpfs(ctx, size))
		return -1;
	snprintf(backing, sizeof(backing), "%s/disk.img", ctx->tmpdir);
	if (attach_loop(ctx, backing, size))
		return -1;
	if (mglru_run(NULL, 0, false, "mkfs.ext4", "-q", "-F", "-E",
		      "lazy_itable_init=0,lazy_journal_init=0", ctx->loop)) {
		ksft_print_msg("mkfs.ext4 %s failed\n", ctx->loop);
		return -1;
	}
	snprintf(dev, sizeof(dev), "%s", ctx->loop);
	if (write_delay_ms &&
	    create_dm_delay(ctx, size, write_delay_ms, dev, sizeof(dev)))
		return -1;
	if (mglru_cleanup_path(RES_MOUNT, ctx->mnt) ||
	    mount(dev, ctx->mnt, "ext4", 0, NULL)) {
		ksft_print_msg("mount %s: %s\n", dev, strerror(errno));
		return -1;
	}
	return write_delay_ms ? push_undelay(ctx, size) : 0;
}

/*
 * Write @size bytes to <mnt>/file from the harness (its page cache is not
 * charged to the workload), then drop that cache: a cold start.
 */
int mglru_create_file(struct mglru_ctx *ctx, unsigned long size)
{
	unsigned long done;
	char *buf;
	int fd;

	snprintf(ctx->file, sizeof(ctx->file), "%s/file", ctx->mnt);
	buf = malloc(SZ_1M);
	if (!buf)
		return -1;
	memset(buf, 0x5a, SZ_1M);
	fd = open(ctx->file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		goto err;
	for (done = 0; done < size; done += SZ_1M) {
		size_t len = size - done < SZ_1M ? size - done : SZ_1M;

		if (write(fd, buf, len) != (ssize_t)len)
			goto err;
	}
	if (fsync(fd) || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
		goto err;
	close(fd);
	free(buf);
	return 0;
err:
	ksft_print_msg("create %s: %s\n", ctx->file, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(buf);
	return -1;
}

int mglru_zram_swap_setup(unsigned long size)
{
	static const char * const tools[] = { "mkswap", NULL };
	char path[64], buf[64], dev[32];
	bool hot = false;
	int id = 0, ret;

	ret = mglru_need_tools(tools);
	if (ret)
		return ret;
	if (access("/sys/class/zram-control", F_OK) &&
	    access("/sys/block/zram0", F_OK))
		mglru_run(NULL, 0, true, "modprobe", "zram", "num_devices=0");
	if (!mglru_read_str("/sys/class/zram-control/hot_add", buf,
			    sizeof(buf))) {
		id = atoi(buf);
		hot = true;
	} else if (!mglru_read_str("/sys/block/zram0/disksize", buf,
				   sizeof(buf))) {
		if (strcmp(buf, "0"))
			return mglru_skip("zram0 is in use and zram hot_add is missing");
	} else {
		return mglru_skip("zram not available (CONFIG_ZRAM=n?)");
	}
	if (mglru_cleanup_zram(id, hot))
		return -1;
	snprintf(path, sizeof(path), "/sys/block/zram%d/disksize", id);
	snprintf(buf, sizeof(buf), "%lu", size);
	snprintf(dev, sizeof(dev), "/dev/zram%d", id);
	if (mglru_write(path, buf))
		return -1;
	if (mglru_run(NULL, 0, true, "mkswap", dev)) {
		ksft_print_msg("mkswap %s failed\n", dev);
		return -1;
	}
	if (mglru_cleanup_path(RES_SWAP, dev) || swapon(dev, 0)) {
		ksft_print_msg("swapon %s: %s\n", dev, strerror(errno));
		return -1;
	}
	return 0;
}
