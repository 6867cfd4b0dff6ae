// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers with no state of the run: files, the clock, commands, the
 * signal flag, a test's messages and options, the workload's processes.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "mglru.h"

/* 0, or -1 with errno set */
int mglru_write(const char *path, const char *val)
{
	ssize_t len = strlen(val);
	int fd, ret;

	fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = write(fd, val, len) == len ? 0 : -1;
	close(fd);
	return ret;
}

/* cgroup_util's read_text(), the trailing white space dropped */
int mglru_read_str(const char *path, char *buf, size_t len)
{
	ssize_t n = read_text(path, buf, len);

	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return n < 0 ? n : 0;
}

/* a /proc/meminfo line's value, in KiB; 0 when it is not there */
unsigned long mglru_meminfo_kib(const char *key)
{
	char buf[8192], *p;

	if (mglru_read_str("/proc/meminfo", buf, sizeof(buf)))
		return 0;
	p = strstr(buf, key);
	return p ? strtoul(p + strlen(key), NULL, 10) : 0;
}

/* a /proc/vmstat counter; -1 when it is not there */
long mglru_vmstat(const char *key)
{
	size_t klen = strlen(key);
	char line[256];
	long val = -1;
	FILE *f;

	f = fopen("/proc/vmstat", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ' ') {
			val = atol(line + klen + 1);
			break;
		}
	}
	if (f)
		fclose(f);
	return val;
}

double mglru_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void mglru_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Run a command, its stdout in @out if given, else on stderr (or nowhere if
 * @quiet): stdout is the KTAP stream. Its exit status, or -1.
 */
int mglru_run_argv(char *out, size_t outlen, bool quiet,
		   const char * const *argv)
{
	int pipefd[2], status, null;
	size_t off = 0;
	ssize_t n;
	pid_t pid;

	if (out && pipe2(pipefd, O_CLOEXEC))
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		null = open("/dev/null", O_RDWR);
		dup2(out ? pipefd[1] : quiet ? null : 2, 1);
		if (quiet)
			dup2(null, 2);
		execvp(argv[0], (char * const *)argv);
		_exit(127);
	}
	if (out) {
		close(pipefd[1]);
		while (off + 1 < outlen) {
			n = read(pipefd[0], out + off, outlen - off - 1);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			off += n;
		}
		close(pipefd[0]);
		while (off > 0 && isspace((unsigned char)out[off - 1]))
			off--;
		out[off] = '\0';
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return pid > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* 0, or KSFT_SKIP naming the first of @tools (NULL-ended) not in PATH */
int mglru_need_tools(const char * const *tools)
{
	char cmd[128];

	for (; tools && *tools; tools++) {
		snprintf(cmd, sizeof(cmd), "command -v %s", *tools);
		if (mglru_run(NULL, 0, true, "sh", "-c", cmd))
			return mglru_skip("%s not found", *tools);
	}
	return 0;
}

static const int signals[] = { SIGTERM, SIGINT, SIGHUP, SIGALRM };
static int caught;	/* the signal caught, read and set atomically */

static void on_signal(int sig)
{
	__atomic_store_n(&caught, sig, __ATOMIC_SEQ_CST);
}

/* The handler of the signals a run is stopped with, or (!@catch) none. */
void mglru_catch_signals(bool catch)
{
	struct sigaction sa = { .sa_handler = catch ? on_signal : SIG_DFL };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(signals); i++)
		sigaction(signals[i], &sa, NULL);
}

/* the signal caught, or 0 */
int mglru_caught(void)
{
	return __atomic_load_n(&caught, __ATOMIC_SEQ_CST);
}

/* shared with the parent, which reports it (main.c) */
char *mglru_skip_reason;

int mglru_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(mglru_skip_reason, 256, fmt, ap);
	va_end(ap);
	return KSFT_SKIP;
}

/* "# metric <test> <key>=<value>" */
void mglru_metric(const struct mglru_ctx *ctx, const char *key,
		  const char *fmt, ...)
{
	va_list ap;

	printf("# metric %s %s=", ctx->test, key);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* @ok, or a "# <test>: <why not>" line and false */
bool mglru_check(const struct mglru_ctx *ctx, bool ok, const char *fmt, ...)
{
	va_list ap;

	if (!ok) {
		printf("# %s: ", ctx->test);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
	return ok;
}

int mglru_opt_ulong(const char *arg, void *val)
{
	char *end;

	errno = 0;
	*(unsigned long *)val = strtoul(arg, &end, 0);
	return errno || end == arg || *end || arg[0] == '-' ? -1 : 0;
}

/* MiB, or with a K, M or G suffix (and a B after it) */
int mglru_opt_size(const char *arg, void *val)
{
	const char *units = "KMG", *u;
	unsigned long num, shift;
	char *end;

	errno = 0;
	num = strtoul(arg, &end, 0);
	u = *end ? strchr(units, toupper((unsigned char)*end)) : units + 1;
	if (errno || end == arg || arg[0] == '-' || !u ||
	    (*end && end[1] && (toupper((unsigned char)end[1]) != 'B' || end[2])))
		return -1;
	shift = 10 * (u - units + 1);
	if (!num || num > (ULONG_MAX >> shift))
		return -1;
	*(unsigned long *)val = num << shift;
	return 0;
}

/* a child running @fn in the memcg @cg, dead with its parent; pid or -1 */
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

/* exec @argv, its stdout to stderr: stdout is the KTAP stream; 127 */
int mglru_exec_argv(void *argv)
{
	dup2(2, 1);
	execvp(*(char **)argv, argv);
	fprintf(stderr, "exec %s: %s\n", *(char **)argv, strerror(errno));
	return 127;
}

pid_t mglru_spawn_argv(const char *cg, const char * const *argv)
{
	return mglru_spawn(cg, mglru_exec_argv, (void *)argv);
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

/* Wait until the parent sets *@go: a child held until it is traced. */
void mglru_hold(const int *go)
{
	while (!__atomic_load_n(go, __ATOMIC_ACQUIRE))
		mglru_sleep_ms(1);
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
