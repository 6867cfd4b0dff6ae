// SPDX-License-Identifier: GPL-2.0
/* Files, the clock, commands, a test's messages and its command line. */
#define _GNU_SOURCE
#include <ctype.h>
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "cgroup_util.h"
#include "mglru.h"

/* 0 or -errno */
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

/* cgroup_util's read_text(), the trailing white space dropped */
int mglru_read_str(const char *path, char *buf, size_t len)
{
	ssize_t n = read_text(path, buf, len);

	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return n < 0 ? n : 0;
}

int mglru_write(const char *path, const char *val)
{
	int ret = mglru_write_str(path, val);

	if (ret)
		ksft_print_msg("write %s to %s: %s\n", val, path, strerror(-ret));
	return ret ? -1 : 0;
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
/* the signal caught and the child to kill, read and set atomically */
static int caught;
static pid_t child;

static void on_signal(int sig)
{
	pid_t pid = __atomic_load_n(&child, __ATOMIC_SEQ_CST);

	__atomic_store_n(&caught, sig, __ATOMIC_SEQ_CST);
	if (pid > 0)
		kill(pid, SIGKILL);
}

/* the handler of the signals a run is stopped with: a flag, and a kill */
void mglru_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(signals); i++)
		sigaction(signals[i], &sa, NULL);
}

void mglru_catch_signals_undo(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(signals); i++)
		signal(signals[i], SIG_DFL);
}

/* the signal caught, or 0 */
int mglru_caught(void)
{
	return __atomic_load_n(&caught, __ATOMIC_SEQ_CST);
}

/* SIGKILL @pid (0: none) when a signal is caught, or now if one was */
void mglru_kill_on_signal(pid_t pid)
{
	__atomic_store_n(&child, pid, __ATOMIC_SEQ_CST);
	if (pid > 0 && mglru_caught())
		kill(pid, SIGKILL);
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

	if (ok)
		return true;
	printf("# %s: ", ctx->test);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	return false;
}

int mglru_parse_ulong(const char *arg, unsigned long *val)
{
	char *end;

	errno = 0;
	*val = strtoul(arg, &end, 0);
	return errno || end == arg || *end || arg[0] == '-' ? -1 : 0;
}

int mglru_opt_ulong(const char *arg, void *val)
{
	return mglru_parse_ulong(arg, val);
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

void mglru_usage(const char *prog, const struct mglru_opt *opts)
{
	fprintf(stderr, "usage: %s", prog);
	for (; opts->name; opts++)
		fprintf(stderr, " [-%c%s%s]", opts->name, opts->arg ? " " : "",
			opts->arg ?: "");
	fprintf(stderr, " (sizes: MiB or K/M/G suffix)\n");
	exit(1);
}

/* 0, or -1 for the usage line; a flag's parse() gets NULL */
int mglru_parse_opts(int argc, char **argv, const struct mglru_opt *opts)
{
	const struct mglru_opt *o;
	char letters[128];
	size_t len = 0;
	int c;

	for (o = opts; o->name && len < sizeof(letters) - 3; o++)
		len += sprintf(letters + len, "%c%s", o->name, o->arg ? ":" : "");
	opterr = 0;
	while ((c = getopt(argc, argv, letters)) != -1) {
		for (o = opts; o->name && o->name != c; o++)
			;
		if (!o->name || o->parse(o->arg ? optarg : NULL, o->val))
			return -1;
	}
	return optind < argc ? -1 : 0;
}
