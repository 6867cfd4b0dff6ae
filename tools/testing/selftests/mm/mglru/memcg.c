// SPDX-License-Identifier: GPL-2.0
/*
 * The run's memcgs, with cgroup_util's helpers: MGLRU_NAME below the cgroup
 * v2 root, in it "harness" (the child that sets up and measures, and its
 * commands) and the workload's memcg.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "mglru.h"

static char parent[PATH_MAX / 2];

/* 0 if cgroup v2 has the memory controller for the run, else KSFT_SKIP */
int mglru_memcg_check(void)
{
	char root[PATH_MAX / 2 - sizeof(MGLRU_NAME) - 1];

	if (cg_find_unified_root(root, sizeof(root), NULL))
		return mglru_skip("cgroup v2 not mounted");
	if (cg_read_strstr(root, "cgroup.controllers", "memory"))
		return mglru_skip("cgroup v2 memory controller not available");
	if (cg_read_strstr(root, "cgroup.subtree_control", "memory") &&
	    cg_write(root, "cgroup.subtree_control", "+memory"))
		return mglru_skip("cannot enable the memory controller at %s",
				  root);
	snprintf(parent, sizeof(parent), "%s/%s", root, MGLRU_NAME);
	return 0;
}

/*
 * This process in the "harness" memcg, and the workload memcg @name beside
 * it (@max, @swap_max < 0: "max"). The workload memcg's path, or NULL.
 */
const char *mglru_memcg_create(const char *name, long max, long swap_max)
{
	static char path[PATH_MAX];
	char harness[PATH_MAX], val[2][32] = { "max", "max" };

	snprintf(harness, sizeof(harness), "%s/harness", parent);
	snprintf(path, sizeof(path), "%s/%s", parent, name);
	if (max >= 0)
		snprintf(val[0], sizeof(val[0]), "%ld", max);
	if (swap_max >= 0)
		snprintf(val[1], sizeof(val[1]), "%ld", swap_max);
	if (cg_create(parent) ||
	    cg_write(parent, "cgroup.subtree_control", "+memory") ||
	    cg_create(harness) || cg_enter_current(harness) ||
	    cg_create(path) || cg_write(path, "memory.max", val[0]) ||
	    cg_write(path, "memory.swap.max", val[1])) {
		ksft_print_msg("cannot make the memcgs in %s: %s\n", parent,
			       strerror(errno));
		return NULL;
	}
	return path;
}

/*
 * Kill every process in the memcgs and remove them; a process stuck in the
 * kernel (a write through dm-delay) gets a minute to die. 1 if there were.
 */
int mglru_memcg_remove(bool report)
{
	char path[PATH_MAX];
	struct dirent *d;
	struct stat st;
	DIR *dir;
	int i;

	if (lstat(parent, &st))
		return 0;
	if (!S_ISDIR(st.st_mode) || st.st_uid) {
		ksft_print_msg("cleanup: refused %s: not root's cgroup\n", parent);
		return 0;
	}
	for (i = 0; i < 600 &&
	     !cg_read_strstr(parent, "cgroup.events", "populated 1"); i++) {
		cg_write(parent, "cgroup.kill", "1");
		mglru_sleep_ms(100);
	}
	dir = opendir(parent);
	while (dir && (d = readdir(dir))) {
		snprintf(path, sizeof(path), "%s/%s", parent, d->d_name);
		if (d->d_type == DT_DIR && d->d_name[0] != '.')
			rmdir(path);
	}
	if (dir)
		closedir(dir);
	if (rmdir(parent))
		ksft_print_msg("cleanup: cannot remove %s: %s\n", parent,
			       strerror(errno));
	else if (report)
		ksft_print_msg("cleanup: %s killed and removed\n", parent);
	return 1;
}
