// SPDX-License-Identifier: GPL-2.0
/*
 * The run's memcgs (one parent per run, one child per LRU mode), the LRU mode
 * and the other knobs a scenario sets and restores, the counters it reads,
 * and the "# metric" lines and verdict messages it prints.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cgroup_util.h"
#include "mglru.h"

#define LRU_GEN_ENABLED	"/sys/kernel/mm/lru_gen/enabled"
#define CG_ROOT		MGLRU_CG_ROOT

const char * const mglru_mode_names[MGLRU_NR_MODES] = {
	[MGLRU_MODE_MGLRU] = "mglru",
	[MGLRU_MODE_CLASSIC] = "classic",
};

char mglru_skip_reason[256];

static char parent_cg[128];
static int cg_seq;

int mglru_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(mglru_skip_reason, sizeof(mglru_skip_reason), fmt, ap);
	va_end(ap);
	return KSFT_SKIP;
}

int mglru_write_str(const char *path, const char *val)
{
	ssize_t len = strlen(val);
	int fd, ret;

	fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = write(fd, val, len) == len ? 0 : -errno;
	close(fd);
	return ret;
}

/* read_text() from cgroup_util, with the trailing newline dropped */
int mglru_read_str(const char *path, char *buf, size_t len)
{
	ssize_t n = read_text(path, buf, len);

	if (n < 0)
		return n;
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return 0;
}

int mglru_write(const char *path, const char *val)
{
	int ret = mglru_write_str(path, val);

	if (ret)
		ksft_print_msg("write %s to %s: %s\n", val, path,
			       strerror(-ret));
	return ret ? -1 : 0;
}

/* Write @val to @path, its old value on the cleanup stack first. */
int mglru_write_restore(const char *path, const char *val)
{
	char old[128];
	int ret;

	ret = mglru_read_str(path, old, sizeof(old));
	if (ret) {
		ksft_print_msg("read %s: %s\n", path, strerror(-ret));
		return -1;
	}
	if (mglru_cleanup_push(RES_RESTORE, path, old, 0))
		return -1;
	return mglru_write(path, val);
}

int mglru_prerequisites(void)
{
	char buf[256];

	if (geteuid())
		return mglru_skip("must be run as root");
	if (access(LRU_GEN_ENABLED, W_OK))
		return mglru_skip("%s not available (CONFIG_LRU_GEN=n?)",
				  LRU_GEN_ENABLED);
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

/*
 * The run's parent memcg, /sys/fs/cgroup/mglru_selftest.<pid>; lru_gen/enabled
 * is restored after it is gone.
 */
int mglru_parent_create(void)
{
	char buf[64];

	if (mglru_read_str(LRU_GEN_ENABLED, buf, sizeof(buf)) ||
	    mglru_cleanup_push(RES_RESTORE, LRU_GEN_ENABLED, buf, 0))
		return -1;
	mglru_parent_memcg(parent_cg, sizeof(parent_cg), getpid());
	if (mglru_cleanup_push(RES_MEMCG, parent_cg, NULL, 0) ||
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

int mglru_set_lru_mode(enum mglru_mode mode)
{
	const char *val = mode == MGLRU_MODE_MGLRU ? "y" : "n";
	char buf[64];

	if (mglru_write(LRU_GEN_ENABLED, val))
		return -1;
	if (!mglru_read_str(LRU_GEN_ENABLED, buf, sizeof(buf)))
		ksft_print_msg("%s = %s (%s)\n", LRU_GEN_ENABLED, buf,
			       mglru_mode_names[mode]);
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
	if (mglru_cleanup_push(RES_MEMCG, path, NULL, 0) || cg_create(path)) {
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

long mglru_vmstat(const char *key)
{
	char line[256];
	size_t klen = strlen(key);
	long val = -1;
	FILE *f;

	f = fopen("/proc/vmstat", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ' ') {
			val = atol(line + klen + 1);
			break;
		}
	}
	fclose(f);
	return val;
}

void mglru_metric(const struct mglru_ctx *ctx, const char *key,
		  const char *fmt, ...)
{
	va_list ap;

	printf("# metric %s %s=", ctx->test, key);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* @ok, or a "# <test>: <why not>" line and false. */
bool mglru_check(const struct mglru_ctx *ctx, bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		return true;
	printf("# %s: ", ctx->test);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return false;
}
