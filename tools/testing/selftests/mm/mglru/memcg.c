// SPDX-License-Identifier: GPL-2.0
/*
 * The run's memcgs, with cgroup_util's helpers: one parent per run, one
 * child per LRU mode, and the counters the scenarios read in them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cgroup_util.h"
#include "mglru.h"

static char cg_root[PATH_MAX];
static char parent_cg[MGLRU_PATH_LEN / 2 + 64];
static int cg_seq;

/* 0 if cgroup v2 has the memory controller for the run, else KSFT_SKIP. */
int mglru_memcg_check(void)
{
	char buf[256];

	if (cg_find_unified_root(cg_root, sizeof(cg_root), NULL))
		return mglru_skip("cgroup v2 not mounted");
	if (mglru_journal_set_cg_root(cg_root))
		return mglru_skip("cgroup v2 mounted at %s: too long a path",
				  cg_root);
	if (cg_read(cg_root, "cgroup.controllers", buf, sizeof(buf)))
		return mglru_skip("cannot read %s/cgroup.controllers", cg_root);
	if (!strstr(buf, "memory"))
		return mglru_skip("cgroup v2 memory controller not available");
	if (cg_read_strstr(cg_root, "cgroup.subtree_control", "memory") &&
	    cg_write(cg_root, "cgroup.subtree_control", "+memory"))
		return mglru_skip("cannot enable the memory controller at %s",
				  cg_root);
	return 0;
}

/* The run's parent memcg, <cgroup v2 root>/mglru_selftest.<pid>. */
int mglru_parent_create(void)
{
	mglru_parent_memcg(parent_cg, sizeof(parent_cg), getpid());
	if (mglru_cleanup_path(RES_MEMCG, parent_cg) ||
	    cg_create(parent_cg)) {
		ksft_print_msg("mkdir %s: %s\n", parent_cg, strerror(errno));
		return -1;
	}
	if (cg_write(parent_cg, "cgroup.subtree_control", "+memory")) {
		ksft_print_msg("cannot enable +memory in %s\n", parent_cg);
		return -1;
	}
	return 0;
}

static int write_limit(const char *cg, const char *file, long val)
{
	return val < 0 ? cg_write(cg, file, "max") :
			 cg_write_numeric(cg, file, val);
}

/* @max, @swap_max < 0: "max"; returns the memcg's path or NULL. */
const char *mglru_memcg_create(const char *name, long max, long swap_max)
{
	static char path[MGLRU_PATH_LEN];

	snprintf(path, sizeof(path), "%s/%s.%d", parent_cg, name, cg_seq++);
	if (mglru_cleanup_path(RES_MEMCG, path) || cg_create(path)) {
		ksft_print_msg("mkdir %s: %s\n", path, strerror(errno));
		return NULL;
	}
	if (write_limit(path, "memory.max", max) ||
	    write_limit(path, "memory.swap.max", swap_max)) {
		ksft_print_msg("cannot set limits on %s\n", path);
		return NULL;
	}
	return path;
}

/*
 * The value of "<key> " in the memcg's @file, or -1: cg_read_key_long()
 * takes the first match, so a key must not end another line's key that
 * comes before it ("file" comes before "active_file" in memory.stat).
 */
static long read_key(const char *cg, const char *file, const char *key)
{
	char needle[64];

	snprintf(needle, sizeof(needle), "%s ", key);
	return cg_read_key_long(cg, file, needle);
}

long mglru_memcg_stat(const char *cg, const char *key)
{
	return read_key(cg, "memory.stat", key);
}

long mglru_memcg_event(const char *cg, const char *key)
{
	return read_key(cg, "memory.events", key);
}
