// SPDX-License-Identifier: GPL-2.0
/*
 * A debugfs knob set for the run and restored after it. debugfs is used
 * where it is mounted, /sys/kernel/debug; where it is not, it is mounted in
 * the run's scratch directory for the run alone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "mglru.h"

#define DEBUGFS		"/sys/kernel/debug"

/* The folder @name is in: the system's debugfs, or one of the run's. */
static int debugfs_dir(const char *name, char *dir, size_t len)
{
	char path[MGLRU_PATH_LEN], scratch[64];

	snprintf(path, sizeof(path), "%s/%s", DEBUGFS, name);
	if (!access(path, F_OK)) {
		snprintf(dir, len, "%s", DEBUGFS);
		return 0;
	}
	mglru_scratch_dir(scratch, sizeof(scratch), getpid());
	if (access(scratch, F_OK))
		return mglru_skip("debugfs is not mounted at %s", DEBUGFS);
	snprintf(dir, len, "%s/debugfs", scratch);
	if (mglru_cleanup_path(RES_DIR, dir) || mkdir(dir, 0700) ||
	    mglru_cleanup_path(RES_MOUNT, dir))
		return -1;
	if (mount("debugfs", dir, "debugfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL))
		return mglru_skip("debugfs not available (CONFIG_DEBUG_FS=n?): %s",
				  strerror(errno));
	return 0;
}

int mglru_debugfs_write_restore(const char *name, const char *val)
{
	char dir[MGLRU_PATH_LEN], path[MGLRU_PATH_LEN + 64];
	int ret;

	ret = debugfs_dir(name, dir, sizeof(dir));
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (access(path, W_OK))
		return mglru_skip("debugfs %s not available: %s", name,
				  strerror(errno));
	return mglru_write_restore(path, val);
}
