// SPDX-License-Identifier: GPL-2.0
/*
 * The suite's home, MGLRU_HOME: a directory that root owns and nobody else
 * can write, in a parent that nobody else can write either. It holds the
 * runs' journals, the lock and each run's scratch directory (its tmpfs and
 * ext4 mounts), so that no other user can plant anything a root run reads.
 *
 * Every run writes global knobs (lru_gen/enabled at least), so every run,
 * a sweep-only one too, holds the lock for its whole life; a second run
 * waits for it a bounded time, then skips.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>

#include "mglru.h"

#define LOCK_FILE	MGLRU_HOME "/lock"

/* NULL if @st is root's and no one else's to write, else why not. */
static const char *not_root_only(const struct stat *st, mode_t type,
				 mode_t mode)
{
	if ((st->st_mode & S_IFMT) != type)
		return S_ISLNK(st->st_mode) ? "a symlink" : "not the right type";
	if (st->st_uid != 0)
		return "not owned by root";
	if (mode ? (st->st_mode & 07777) != mode : (st->st_mode & 022))
		return "writable by others, or not the right mode";
	return NULL;
}

int mglru_home_init(void)
{
	char parent[] = MGLRU_HOME, *slash = strrchr(parent, '/');
	const char *why;
	struct stat st;

	*slash = '\0';
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

/*
 * Open @path (a name in MGLRU_HOME) as a new root-owned 0600 file, never
 * through a symlink and never a file that exists; the fd or -errno.
 */
int mglru_home_create(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		      O_CLOEXEC, 0600);

	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0600)) {
		close(fd);
		unlink(path);
		return -EPERM;
	}
	return fd;
}

/*
 * Open the file @name in the directory @dirfd with @flags if it is a
 * regular root-owned 0600 file with one link; the fd, or -1 and @why.
 */
int mglru_home_open(int dirfd, const char *name, int flags, const char **why)
{
	struct stat st, fst;
	int fd;

	*why = "cannot be read";
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -1;
	*why = not_root_only(&st, S_IFREG, 0600);
	if (!*why && st.st_nlink != 1)
		*why = "a hard link";
	if (*why)
		return -1;
	*why = "cannot be opened";
	fd = openat(dirfd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &fst) || fst.st_dev != st.st_dev ||
	    fst.st_ino != st.st_ino) {
		*why = "replaced while it was opened";
		close(fd);
		return -1;
	}
	*why = NULL;
	return fd;
}

static int open_lock(void)
{
	const char *why;
	int fd, dirfd;

	fd = mglru_home_create(LOCK_FILE);
	if (fd != -EEXIST)
		return fd;
	dirfd = open(MGLRU_HOME, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -errno;
	fd = mglru_home_open(dirfd, "lock", O_RDWR, &why);
	close(dirfd);
	if (fd < 0) {
		mglru_skip("%s is %s", LOCK_FILE, why);
		return -EPERM;
	}
	return fd;
}

/*
 * Take the lock, waiting up to @timeout_s for another run; it is held until
 * the run and its children have exited. 0, or KSFT_SKIP with the reason.
 */
int mglru_home_lock(unsigned int timeout_s)
{
	double end = mglru_now() + timeout_s;
	char holder[32] = "?";
	bool said = false;
	int fd;

	fd = open_lock();
	if (fd < 0)
		return fd == -EPERM ? KSFT_SKIP :
		       mglru_skip("%s: %s", LOCK_FILE, strerror(-fd));
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK && errno != EINTR)
			return mglru_skip("flock %s: %s", LOCK_FILE,
					  strerror(errno));
		if (mglru_read_str(LOCK_FILE, holder, sizeof(holder)))
			snprintf(holder, sizeof(holder), "?");
		if (!said) {
			ksft_print_msg("waiting up to %us for run %s (%s)\n",
				       timeout_s, holder, LOCK_FILE);
			said = true;
		}
		if (mglru_now() >= end)
			return mglru_skip("another run (pid %s) holds %s",
					  holder, LOCK_FILE);
		mglru_sleep_ms(200);
	}
	/* the holder's pid, for the message of a run that waits */
	snprintf(holder, sizeof(holder), "%d\n", getpid());
	if (ftruncate(fd, 0) ||
	    pwrite(fd, holder, strlen(holder), 0) != (ssize_t)strlen(holder))
		ksft_print_msg("cannot write %s: %s\n", LOCK_FILE,
			       strerror(errno));
	return 0;
}
