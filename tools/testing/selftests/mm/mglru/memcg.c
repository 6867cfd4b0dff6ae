// SPDX-License-Identifier: GPL-2.0
/*
 * The run's memcgs, with cgroup_util's helpers: one parent per run, one
 * child per LRU mode, and the counters the scenarios read in them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup_util.h"
#include "mglru.h"

#define CG_ROOT		MGLRU_CG_ROOT

static char parent_cg[128];
static int cg_seq;

/* 0 if cgroup v2 has the memory controller for the run, else KSFT_SKIP. */
int mglru_memcg_check(void)
{
	char buf[256];

	if (mglru_read_str(CG_ROOT "/cgroup.controllers", buf, sizeof(buf)))
		return mglru_skip("cgroup v2 not mounted at %s", CG_ROOT);
	if (!strstr(buf, "memory"))
		return mglru_skip("cgroup v2 memory controller not available");
	if (cg_read_strstr(CG_ROOT, "cgroup.subtree_control", "memory") &&
	    cg_write(CG_ROOT, "cgroup.subtree_control", "+memory"))
		return mglru_skip("cannot enable the memory controller at %s",
				  CG_ROOT);
	return 0;
}

/* The run's parent memcg, /sys/fs/cgroup/mglru_selftest.<pid>. */
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

/* The value of the line "<key> <value>" of the memcg's @file, or -1. */
static long read_key(const char *cg, const char *file, const char *key)
{
	char buf[8192] = "\n", needle[64], *p;

	if (cg_read(cg, file, buf + 1, sizeof(buf) - 1))
		return -1;
	snprintf(needle, sizeof(needle), "\n%s ", key);
	p = strstr(buf, needle);
	return p ? atol(p + strlen(needle)) : -1;
}

long mglru_memcg_stat(const char *cg, const char *key)
{
	return read_key(cg, "memory.stat", key);
}

long mglru_memcg_event(const char *cg, const char *key)
{
	return read_key(cg, "memory.events", key);
}
