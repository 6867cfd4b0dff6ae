// SPDX-License-Identifier: GPL-2.0
/*
 * The suite's home, MGLRU_HOME: root's alone (0700, in a parent no one else
 * can write), so that no other user can plant anything a root run reads.
 * It holds:
 *   lock     every run holds it for its life, its children included;
 *   state    the earlier values of the knobs the run writes, and its zram
 *            device, written before each is touched:
 *              boot <boot_id>
 *              knob <path> <value>
 *              zram <id> <hot-added: 0|1>
 *   scratch  the tmpfs, ext4 and debugfs mounts, by fixed names.
 * mglru_teardown() undoes all of it by name: after each LRU mode, and first
 * thing in a run, where a killed run left anything.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>

#include "mglru.h"

#define LOCK		MGLRU_HOME "/lock"
#define BOOT_ID		"/proc/sys/kernel/random/boot_id"
#define STATE_MAX	4096

int mglru_lock_fd = -1;

/* The knobs a test may write, besides those of its own loop and debugfs. */
static const char * const knobs[] = {
	"/sys/kernel/mm/lru_gen/enabled",
	"/proc/sys/vm/swappiness",
	"/proc/sys/vm/dirty_ratio",
	"/proc/sys/vm/dirty_background_ratio",
	"/sys/kernel/debug/fault_around_bytes",
	MGLRU_DEBUGFS "/fault_around_bytes",
};

/* NULL if @st is root's and no one else's to write, else why not */
static const char *not_root_only(const struct stat *st, mode_t type,
				 mode_t mode)
{
	if ((st->st_mode & S_IFMT) != type)
		return S_ISLNK(st->st_mode) ? "a symlink" : "not the right type";
	if (st->st_uid != 0)
		return "not owned by root";
	if (mode ? (st->st_mode & 07777) != mode : (st->st_mode & 022))
		return "writable by others, or not the right mode";
	if (type == S_IFREG && st->st_nlink != 1)
		return "a hard link";
	return NULL;
}

/* 0, or KSFT_SKIP if the home is not (or cannot be made) root's alone */
int mglru_home_init(void)
{
	char parent[] = MGLRU_HOME;
	const char *why;
	struct stat st;

	*strrchr(parent, '/') = '\0';
	if (lstat(parent, &st))
		return mglru_skip("%s: %s", parent, strerror(errno));
	why = not_root_only(&st, S_IFDIR, 0);
	if (why)
		return mglru_skip("%s is %s", parent, why);
	if (mkdir(MGLRU_HOME, 0700) && errno != EEXIST)
		return mglru_skip("mkdir %s: %s", MGLRU_HOME, strerror(errno));
	if (lstat(MGLRU_HOME, &st))
		return mglru_skip("%s: %s", MGLRU_HOME, strerror(errno));
	why = not_root_only(&st, S_IFDIR, 0700);
	return why ? mglru_skip("%s is %s (want a root-owned 0700 directory)",
				MGLRU_HOME, why) : 0;
}

/* A root-only 0600 file of the home, never through a symlink; fd or -1. */
static int home_open(const char *path, int flags, const char **why)
{
	struct stat st, fst;
	int fd;

	*why = strerror(ENOENT);
	if (lstat(path, &st))
		return -1;
	*why = not_root_only(&st, S_IFREG, 0600);
	if (*why)
		return -1;
	*why = "cannot be opened";
	fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &fst) || fst.st_ino != st.st_ino ||
	    fst.st_dev != st.st_dev) {
		*why = "replaced while it was opened";
		close(fd);
		return -1;
	}
	return fd;
}

/* A new root-only 0600 file of the home; fd, or -1 and errno. */
static int home_create(const char *path)
{
	return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    0600);
}

/*
 * Take the lock, waiting up to @timeout_s for another run: 0, or KSFT_SKIP.
 * The children inherit it, so it is free once the whole run is gone.
 */
int mglru_home_lock(unsigned int timeout_s)
{
	double end = mglru_now() + timeout_s;
	char holder[32] = "?";
	const char *why;
	bool said = false;
	int fd;

	fd = home_create(LOCK);
	if (fd < 0 && errno == EEXIST)
		fd = home_open(LOCK, O_RDWR, &why);
	else if (fd < 0)
		why = strerror(errno);
	if (fd < 0)
		return mglru_skip("%s is %s", LOCK, why);
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (mglru_caught || mglru_now() >= end) {
			close(fd);
			return mglru_skip("another run (pid %s) holds %s",
					  holder, LOCK);
		}
		if (mglru_read_str(LOCK, holder, sizeof(holder)))
			snprintf(holder, sizeof(holder), "?");
		if (!said)
			ksft_print_msg("waiting up to %us for run %s (%s)\n",
				       timeout_s, holder, LOCK);
		said = true;
		mglru_sleep_ms(200);
	}
	snprintf(holder, sizeof(holder), "%d\n", getpid());
	if (ftruncate(fd, 0) ||
	    pwrite(fd, holder, strlen(holder), 0) != (ssize_t)strlen(holder))
		ksft_print_msg("cannot write %s: %s\n", LOCK, strerror(errno));
	mglru_lock_fd = fd;
	return 0;
}

static void boot_id(char *buf, size_t len)
{
	if (mglru_read_str(BOOT_ID, buf, len))
		snprintf(buf, len, "unknown");
}

/* The state file of this run, before anything is set up; 0 or -1. */
int mglru_state_create(void)
{
	char line[80];
	int fd, len;

	strcpy(line, "boot ");
	boot_id(line + 5, sizeof(line) - 6);
	len = strlen(line);
	line[len++] = '\n';
	fd = home_create(MGLRU_STATE);
	if (fd < 0 || write(fd, line, len) != len) {
		ksft_print_msg("cannot write %s: %s\n", MGLRU_STATE,
			       strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* One line more in the state file: written whole, or not at all. */
static int state_add(const char *line)
{
	ssize_t len = strlen(line);
	int fd, ret = -1;

	fd = open(MGLRU_STATE, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && write(fd, line, len) == len)
		ret = 0;
	else
		ksft_print_msg("cannot write %s: %s\n", MGLRU_STATE,
			       strerror(errno));
	if (fd >= 0)
		close(fd);
	return ret;
}

/* A knob's value: decimal, or hex as lru_gen/enabled shows it. */
static bool knob_value(const char *val)
{
	size_t n;

	if (!strncmp(val, "0x", 2)) {
		n = strspn(val + 2, "0123456789abcdefABCDEF");
		return n && n <= 16 && !val[2 + n];
	}
	n = strspn(val, "0123456789");
	return n && n <= 20 && !val[n];
}

/* NULL if the run may write the knob @path: the teardown restores it */
static const char *knob_refusal(const char *path, const char *val)
{
	const char *ra = "/queue/read_ahead_kb";
	char loop[32];
	size_t i, n;

	if (!knob_value(val))
		return "not a knob's value";
	for (i = 0; i < ARRAY_SIZE(knobs); i++)
		if (!strcmp(path, knobs[i]))
			return NULL;
	/* its own loop device's read-ahead */
	n = strspn(path + (strncmp(path, "/sys/block/loop", 15) ? 0 : 15),
		   "0123456789");
	if (!strncmp(path, "/sys/block/loop", 15) && n && n <= 6 &&
	    !strcmp(path + 15 + n, ra)) {
		snprintf(loop, sizeof(loop), "/dev/%.*s", (int)(4 + n),
			 path + 11);
		return mglru_own_loop(loop) ? NULL : "not the run's loop device";
	}
	return "not a knob the tests set";
}

/* Write @val to the knob @path, its value now in the state file first. */
int mglru_write_restore(const char *path, const char *val)
{
	char old[128], line[MGLRU_PATH_LEN + 160];
	const char *why;
	int ret;

	ret = mglru_read_str(path, old, sizeof(old));
	if (ret) {
		ksft_print_msg("read %s: %s\n", path, strerror(-ret));
		return -1;
	}
	why = knob_refusal(path, old);
	if (why) {
		ksft_print_msg("%s: would not be restored: %s\n", path, why);
		return -1;
	}
	snprintf(line, sizeof(line), "knob %s %s\n", path, old);
	return state_add(line) ? -1 : mglru_write(path, val);
}

/* The zram device the run is about to set up, hot-added or not. */
int mglru_state_zram(int id, bool hot)
{
	char line[64];

	snprintf(line, sizeof(line), "zram %d %d\n", id, hot);
	return state_add(line);
}

/* One line of the state file, undone; NULL, or why it was refused. */
static const char *undo_line(char *line, bool same_boot, bool report)
{
	char path[MGLRU_PATH_LEN], val[128], end;
	const char *why;
	int id, hot;

	if (sscanf(line, "zram %d %d%c", &id, &hot, &end) == 2) {
		if (id < 0 || id > 65535 || (hot != 0 && hot != 1))
			return "not a zram device";
		if (same_boot)
			mglru_zram_teardown(id, hot);
		return NULL;
	}
	if (strlen(line) >= sizeof(path) ||
	    sscanf(line, "knob %255s %127s%c", path, val, &end) != 2)
		return "not a state line";
	why = knob_refusal(path, val);
	if (why || !same_boot)
		return why;
	if (mglru_write_str(path, val))
		ksft_print_msg("cleanup: cannot restore %s to %s\n", path, val);
	else if (report)
		ksft_print_msg("cleanup: %s restored to %s\n", path, val);
	return NULL;
}

/*
 * Restore the knobs the state file lists, the last written first, and undo
 * its zram device. A file that is not root's own 0600 file is left alone,
 * and so is every line outside the rules. 1 if there was a state file.
 */
static int undo_state(bool report)
{
	char buf[STATE_MAX + 1], boot[64], *lines[64], *p;
	int fd, i, nr = 0;
	const char *why;
	struct stat st;
	bool same_boot;
	ssize_t len;

	if (lstat(MGLRU_STATE, &st) && errno == ENOENT)
		return 0;
	fd = home_open(MGLRU_STATE, O_RDONLY, &why);
	if (fd < 0) {
		ksft_print_msg("cleanup: refused %s: %s\n", MGLRU_STATE, why);
		return 0;
	}
	len = read(fd, buf, STATE_MAX);
	close(fd);
	buf[len > 0 ? len : 0] = '\0';
	boot_id(boot, sizeof(boot));
	same_boot = !strncmp(buf, "boot ", 5) &&
		    !strncmp(buf + 5, boot, strlen(boot)) &&
		    buf[5 + strlen(boot)] == '\n';
	if (report)
		ksft_print_msg("cleanup: a run was killed before its cleanup%s\n",
			       same_boot ? "" : " (in an earlier boot)");
	for (p = strchr(buf, '\n'); p && nr < (int)ARRAY_SIZE(lines); ) {
		*p++ = '\0';
		lines[nr] = p;
		p = strchr(p, '\n');
		/* a line cut short by a kill is not a line */
		if (p)
			nr++;
	}
	for (i = nr - 1; i >= 0; i--) {
		why = undo_line(lines[i], same_boot, report);
		if (why)
			ksft_print_msg("cleanup: refused %s line %d: %s\n",
				       MGLRU_STATE, i + 2, why);
	}
	unlink(MGLRU_STATE);
	return 1;
}

/*
 * Undo what the run made, by name, each step a no-op where there is nothing
 * to undo: kill the memcgs' processes and remove them, restore the knobs,
 * then take the storage apart. The number of things found.
 */
int mglru_teardown(bool report)
{
	int found = mglru_memcg_remove(report);

	found += undo_state(report);
	return found + mglru_bdev_teardown(report);
}
