// SPDX-License-Identifier: GPL-2.0
/*
 * The suite's home, MGLRU_HOME, is root's alone (0700, in a parent no one
 * else can write): no other user can plant anything a run reads. It holds
 * the lock, which every run holds for its life, the scratch mounts, and the
 * state file: what a fixed name cannot say, appended before it is touched.
 *   boot <boot_id>
 *   knob <path> <earlier value>
 *   zram <id>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/vfs.h>

#include "mglru.h"

#define LOCK		MGLRU_HOME "/lock"
#ifndef DEBUGFS_MAGIC
#define DEBUGFS_MAGIC	0x64626720
#endif
#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC	0x74726163
#endif
#define BOOT_ID		"/proc/sys/kernel/random/boot_id"

/* the knobs a test may write, besides its own loop device's read-ahead */
static const char * const knobs[] = {
	"/sys/kernel/mm/lru_gen/enabled",
	"/proc/sys/vm/swappiness",
	"/proc/sys/vm/dirty_ratio",
	"/proc/sys/vm/dirty_background_ratio",
	"/proc/sys/vm/dirty_bytes",
	"/proc/sys/vm/dirty_background_bytes",
	"/sys/kernel/debug/fault_around_bytes",
	MGLRU_DEBUGFS "/fault_around_bytes",
};

/* NULL if @st is root's and no one else's to write, else why not */
static const char *not_root_only(const struct stat *st, mode_t type,
				 mode_t mode)
{
	if ((st->st_mode & S_IFMT) != type)
		return S_ISLNK(st->st_mode) ? "a symlink" : "not the right type";
	if (st->st_uid)
		return "not owned by root";
	if (mode ? (st->st_mode & 07777) != mode : (st->st_mode & 022))
		return "writable by others, or not the right mode";
	return type == S_IFREG && st->st_nlink != 1 ? "a hard link" : NULL;
}

/* a root-only 0600 file of the home, never through a symlink; fd or -1 */
static int home_open(const char *path, int flags, const char **why)
{
	struct stat st;
	int fd;

	fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	*why = fd < 0 ? (errno == ELOOP ? "a symlink" : strerror(errno)) :
	       fstat(fd, &st) ? strerror(errno) :
	       not_root_only(&st, S_IFREG, 0600);
	if (*why && fd >= 0)
		close(fd);
	return *why ? -1 : fd;
}

/*
 * 0 with the home root's alone and its lock held, waiting up to @timeout_s
 * for another run; or KSFT_SKIP. The children inherit the lock's fd: it is
 * free once the run's processes are gone.
 */
int mglru_home_init(unsigned int timeout_s)
{
	double end = mglru_now() + timeout_s;
	char parent[] = MGLRU_HOME, holder[32] = "?";
	const char *why;
	struct stat st;
	int fd, i;

	*strrchr(parent, '/') = '\0';
	if (lstat(parent, &st))
		return mglru_skip("%s: %s", parent, strerror(errno));
	why = not_root_only(&st, S_IFDIR, 0);
	if (why)
		return mglru_skip("%s is %s", parent, why);
	if ((mkdir(MGLRU_HOME, 0700) && errno != EEXIST) || lstat(MGLRU_HOME, &st))
		return mglru_skip("%s: %s", MGLRU_HOME, strerror(errno));
	why = not_root_only(&st, S_IFDIR, 0700);
	if (why)
		return mglru_skip("%s is %s (want a root-owned 0700 directory)",
				  MGLRU_HOME, why);
	fd = home_open(LOCK, O_RDWR | O_CREAT, &why);
	if (fd < 0)
		return mglru_skip("%s is %s", LOCK, why);
	for (i = 0; flock(fd, LOCK_EX | LOCK_NB); i++) {
		if (mglru_caught() || mglru_now() >= end) {
			close(fd);
			return mglru_skip("another run (pid %s) holds %s",
					  holder, LOCK);
		}
		mglru_read_str(LOCK, holder, sizeof(holder));
		if (!i)
			ksft_print_msg("waiting up to %us for run %s (%s)\n",
				       timeout_s, holder, LOCK);
		mglru_sleep_ms(200);
	}
	snprintf(holder, sizeof(holder), "%d\n", getpid());
	if (ftruncate(fd, 0) || pwrite(fd, holder, strlen(holder), 0) < 0)
		ksft_print_msg("cannot write %s: %s\n", LOCK, strerror(errno));
	return 0;	/* fd stays open: the lock is held until the run exits */
}

static int state_write(const char *line, int flags)
{
	ssize_t len = strlen(line);
	int fd, ret = -1;

	fd = open(MGLRU_STATE, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | flags, 0600);
	if (fd >= 0 && write(fd, line, len) == len)
		ret = 0;
	else
		ksft_print_msg("cannot write %s: %s\n", MGLRU_STATE,
			       strerror(errno));
	if (fd >= 0)
		close(fd);
	return ret;
}

/* the state file of this run, before anything is set up; 0 or -1 */
int mglru_state_create(void)
{
	char line[80] = "boot ";

	if (mglru_read_str(BOOT_ID, line + 5, sizeof(line) - 6))
		snprintf(line + 5, sizeof(line) - 6, "unknown");
	strcat(line, "\n");
	return state_write(line, O_CREAT | O_EXCL);
}

int mglru_state_zram(int id)
{
	char line[64];

	snprintf(line, sizeof(line), "zram %d\n", id);
	return state_write(line, O_APPEND);
}

/* @dev, /dev/loopN or major:minor, is a loop device backed by MGLRU_DISK. */
bool mglru_own_loop(const char *dev)
{
	bool by_name = !strncmp(dev, "/dev/loop", 9);
	const char *name = by_name ? dev + 5 : dev;
	char path[128], file[MGLRU_PATH_LEN];

	if (strchr(name, '/') || strstr(name, ".."))
		return false;
	snprintf(path, sizeof(path), "%s/%s/loop/backing_file",
		 by_name ? "/sys/block" : "/sys/dev/block", name);
	return !mglru_read_str(path, file, sizeof(file)) &&
	       !strcmp(file, MGLRU_DISK);
}

void mglru_zram_teardown(int id)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/zram%d", id);
	if (swapoff(path) && errno != EINVAL && errno != ENOENT)
		ksft_print_msg("cleanup: swapoff %s: %s\n", path, strerror(errno));
	snprintf(path, sizeof(path), "/sys/block/zram%d/reset", id);
	mglru_write(path, "1");
	snprintf(path, sizeof(path), "%d", id);
	mglru_write("/sys/class/zram-control/hot_remove", path);
}

/* NULL if MGLRU_SCRATCH is root's own directory or absent, else why not */
const char *mglru_scratch_refusal(void)
{
	struct stat st;

	if (lstat(MGLRU_SCRATCH, &st))
		return errno == ENOENT ? NULL : strerror(errno);
	if (S_ISLNK(st.st_mode))
		return "a symlink";
	return S_ISDIR(st.st_mode) && !st.st_uid ? NULL : "not root's directory";
}

static bool is_fs(const char *dir, long magic)
{
	struct statfs sfs;

	return !statfs(dir, &sfs) && sfs.f_type == magic;
}

/*
 * The system's @type (debugfs or tracefs) at @sys, else one mounted at
 * @own in the scratch directory for the run alone (the storage's teardown
 * unmounts it); NULL with errno set where there is none.
 */
static const char *kernel_fs(const char *type, const char *sys,
			     const char *own, long magic, unsigned long flags)
{
	const char *why;
	struct stat st;

	if (is_fs(sys, magic))
		return sys;
	why = mglru_scratch_refusal();
	if (!why && (mkdir(own, 0700) && errno != EEXIST))
		return NULL;
	if (!why)
		why = lstat(own, &st) ? strerror(errno) :
		      not_root_only(&st, S_IFDIR, 0);
	if (why) {
		ksft_print_msg("%s: refused: %s\n", own, why);
		errno = EPERM;
		return NULL;
	}
	if (!is_fs(own, magic) &&
	    mount(type, own, type, MS_NOSUID | MS_NODEV | MS_NOEXEC | flags,
		  NULL))
		return NULL;
	return own;
}

const char *mglru_debugfs(void)
{
	return kernel_fs("debugfs", "/sys/kernel/debug", MGLRU_DEBUGFS,
			 DEBUGFS_MAGIC, 0);
}

/* read-only: tracefs is only read */
const char *mglru_tracefs(void)
{
	return kernel_fs("tracefs", "/sys/kernel/tracing", MGLRU_TRACEFS,
			 TRACEFS_MAGIC, MS_RDONLY);
}

/* NULL if the knob @path may be set back to @val, else why not */
static const char *knob_refusal(const char *path, const char *val)
{
	bool hex = !strncmp(val, "0x", 2);	/* as lru_gen/enabled shows it */
	size_t i, n = strspn(val + 2 * hex,
			     hex ? "0123456789abcdefABCDEF" : "0123456789");
	int name = 0, end = 0;
	char loop[32];

	if (!n || n > 20 || val[2 * hex + n])
		return "not a knob's value";
	/* the run's own debugfs mount */
	if (!strncmp(path, MGLRU_SCRATCH "/", sizeof(MGLRU_SCRATCH)) &&
	    mglru_scratch_refusal())
		return "not in the run's scratch directory";
	for (i = 0; i < ARRAY_SIZE(knobs); i++)
		if (!strcmp(path, knobs[i]))
			return NULL;
	/* the read-ahead of the run's own loop device */
	if (sscanf(path, "/sys/block/loop%*5[0-9]%n/queue/read_ahead_kb%n",
		   &name, &end) < 0 || !end || path[end])
		return "not a knob the tests set";
	snprintf(loop, sizeof(loop), "/dev/%.*s", name - 11, path + 11);
	return mglru_own_loop(loop) ? NULL : "not the run's loop device";
}

/*
 * Write @val to the knob @path, its earlier value in the state file first;
 * a NULL @val only saves that value.
 */
int mglru_write_restore(const char *path, const char *val)
{
	char old[128], line[MGLRU_PATH_LEN + 160];
	const char *why;

	if (mglru_read_str(path, old, sizeof(old))) {
		ksft_print_msg("read %s: %s\n", path, strerror(errno));
		return -1;
	}
	why = knob_refusal(path, old);
	if (why) {
		ksft_print_msg("%s would not be restored: %s\n", path, why);
		return -1;
	}
	snprintf(line, sizeof(line), "knob %s %s\n", path, old);
	if (state_write(line, O_APPEND))
		return -1;
	if (!val || !mglru_write(path, val))
		return 0;
	ksft_print_msg("write %s to %s: %s\n", val, path, strerror(errno));
	return -1;
}

/* one line of the state file, undone; NULL, or why it was refused */
static const char *undo_line(const char *line, bool report)
{
	char path[MGLRU_PATH_LEN], val[128], end;
	const char *why;
	int id;

	if (sscanf(line, "zram %d%c", &id, &end) == 1) {
		if (id < 0 || id > 65535)
			return "not a zram device";
		mglru_zram_teardown(id);
		return NULL;
	}
	if (sscanf(line, "knob %255s %127s%c", path, val, &end) != 2)
		return "not a state line";
	why = knob_refusal(path, val);
	if (!why && mglru_write(path, val))
		ksft_print_msg("cleanup: cannot restore %s to %s\n", path, val);
	else if (!why && report)
		ksft_print_msg("cleanup: %s restored to %s\n", path, val);
	return why;
}

/*
 * Undo the state file's lines, the last first, if it is root's own 0600
 * file of this boot: a later boot has its knobs and devices afresh. Every
 * line outside the rules is refused. 1 if there was a state file.
 */
int mglru_state_undo(bool report)
{
	char buf[4096], boot[64], *lines[64], *line, *p;
	int fd, i, nr = 0;
	const char *why;
	struct stat st;
	ssize_t len;

	if (lstat(MGLRU_STATE, &st))
		return 0;
	fd = home_open(MGLRU_STATE, O_RDONLY, &why);
	if (fd < 0) {
		ksft_print_msg("cleanup: refused %s: %s\n", MGLRU_STATE, why);
		return 0;
	}
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[len > 0 ? len : 0] = '\0';
	if (mglru_read_str(BOOT_ID, boot, sizeof(boot)))
		snprintf(boot, sizeof(boot), "unknown");
	if (report)
		ksft_print_msg("cleanup: a run was killed before its cleanup\n");
	/* every line ends in a newline: one cut short by a kill is no line */
	for (line = buf; (p = strchr(line, '\n')) && nr < 64; line = p + 1) {
		*p = '\0';
		lines[nr++] = line;
	}
	for (i = nr - 1; i > 0; i--) {
		why = strncmp(lines[0], "boot ", 5) || strcmp(lines[0] + 5, boot) ?
		      "not of this boot" : undo_line(lines[i], report);
		if (why)
			ksft_print_msg("cleanup: refused %s line %d: %s\n",
				       MGLRU_STATE, i + 1, why);
	}
	unlink(MGLRU_STATE);
	return 1;
}
