// SPDX-License-Identifier: GPL-2.0
/*
 * The run's memcgs, with cgroup_util's helpers: MGLRU_NAME below the cgroup
 * v2 root, in it "harness" (the child that sets up and measures, and its
 * commands) and the workload's memcg; the workload's processes in it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "cgroup_util.h"
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

/* the parent memcg, and this process in its "harness" memcg; 0 or -1 */
int mglru_memcg_enter_harness(void)
{
	char harness[PATH_MAX];

	snprintf(harness, sizeof(harness), "%s/harness", parent);
	if (cg_create(parent) ||
	    cg_write(parent, "cgroup.subtree_control", "+memory") ||
	    cg_create(harness) || cg_enter_current(harness)) {
		ksft_print_msg("cannot make %s: %s\n", harness, strerror(errno));
		return -1;
	}
	return 0;
}

/* a workload memcg; @max, @swap_max < 0: "max". Its path, or NULL. */
const char *mglru_memcg_create(const char *name, long max, long swap_max)
{
	static char path[PATH_MAX];
	char val[2][32] = { "max", "max" };

	snprintf(path, sizeof(path), "%s/%s", parent, name);
	if (max >= 0)
		snprintf(val[0], sizeof(val[0]), "%ld", max);
	if (swap_max >= 0)
		snprintf(val[1], sizeof(val[1]), "%ld", swap_max);
	if (cg_create(path) || cg_write(path, "memory.max", val[0]) ||
	    cg_write(path, "memory.swap.max", val[1])) {
		ksft_print_msg("cannot make %s: %s\n", path, strerror(errno));
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

/* "<key> " in @file, or -1; cg_read_key_long() takes the first match */
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

/* a child running @fn in @cg, dead with its parent; its pid, or -1 */
pid_t mglru_spawn(const char *cg, int (*fn)(void *arg), void *arg)
{
	pid_t ppid = getpid(), pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		ksft_print_msg("fork: %s\n", strerror(errno));
	if (pid)
		return pid;
	/* no fd of the run's, the lock's above all, outlives the run */
	syscall(__NR_close_range, 3, ~0U, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != ppid || cg_enter_current(cg))
		_exit(1);
	_exit(fn(arg));
}

/* the command's stdout goes to stderr: stdout is the KTAP stream */
static int exec_argv(void *argv)
{
	dup2(2, 1);
	execvp(*(char **)argv, argv);
	fprintf(stderr, "exec %s: %s\n", *(char **)argv, strerror(errno));
	return 127;
}

pid_t mglru_spawn_argv(const char *cg, const char * const *argv)
{
	return mglru_spawn(cg, exec_argv, (void *)argv);
}

/* 1 if the child exited (@status set), 0 on timeout, -1 on error */
int mglru_wait(pid_t pid, int *status, double timeout_s)
{
	double end = mglru_now() + timeout_s;
	pid_t ret;

	while ((ret = waitpid(pid, status, WNOHANG)) != pid) {
		if (ret < 0 && errno != EINTR)
			return -1;
		if (mglru_now() >= end)
			return 0;
		mglru_sleep_ms(20);
	}
	return 1;
}

void mglru_kill(pid_t pid)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* shared with the children, populated here so that they never charge it */
void *mglru_shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : memset(p, 0, size);
}

/* a shared read-only mapping of @size bytes of @path, or NULL */
char *mglru_map_file(const char *path, size_t size)
{
	int fd = open(path, O_RDONLY);
	char *map;

	if (fd < 0)
		return NULL;
	map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	return map == MAP_FAILED ? NULL : map;
}

/* load (or store to) one byte every @stride bytes of @p */
void mglru_touch(char *p, size_t size, size_t stride, bool write)
{
	size_t off;

	for (off = 0; off < size; off += stride) {
		if (write)
			__atomic_store_n(&p[off], (char)off, __ATOMIC_RELAXED);
		else
			__atomic_load_n(&p[off], __ATOMIC_RELAXED);
	}
}
