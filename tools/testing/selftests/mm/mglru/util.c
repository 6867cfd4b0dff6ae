// SPDX-License-Identifier: GPL-2.0
/*
 * What holds no state of the run: the kernel's files read or written whole,
 * the clock, the commands the harness runs, a test's messages and its
 * command line.
 */
#define _GNU_SOURCE
#include <ctype.h>
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

/* -errno */
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

/* read_text() from cgroup_util, with the trailing white space dropped */
int mglru_read_str(const char *path, char *buf, size_t len)
{
	ssize_t n = read_text(path, buf, len);

	if (n < 0)
		return n;
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return 0;
}

/* mglru_write_str(), saying why it failed; 0 or -1 */
int mglru_write(const char *path, const char *val)
{
	int ret = mglru_write_str(path, val);

	if (ret)
		ksft_print_msg("write %s to %s: %s\n", val, path,
			       strerror(-ret));
	return ret ? -1 : 0;
}

long mglru_vmstat(const char *key)
{
	size_t klen = strlen(key);
	char line[256];
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
 * Run a command, its stdout captured in @out if given, else sent to stderr
 * (or nowhere if @quiet): stdout is the KTAP stream. Its exit status, or -1.
 */
int mglru_run_argv(char *out, size_t outlen, bool quiet,
		   const char * const *argv)
{
	int pipefd[2], status, devnull;
	size_t off = 0;
	ssize_t n;
	pid_t pid;

	if (out && pipe2(pipefd, O_CLOEXEC))
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		devnull = open("/dev/null", O_RDWR);
		dup2(out ? pipefd[1] : quiet ? devnull : 2, 1);
		if (quiet)
			dup2(devnull, 2);
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
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool have_tool(const char *tool)
{
	char buf[1024], file[PATH_MAX], *dir, *save;

	snprintf(buf, sizeof(buf), "%s", getenv("PATH") ?: "/usr/bin:/bin");
	for (dir = strtok_r(buf, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(file, sizeof(file), "%s/%s", dir, tool);
		if (!access(file, X_OK))
			return true;
	}
	return false;
}

/* 0, or KSFT_SKIP naming the first of @tools (NULL-ended) not in PATH. */
int mglru_need_tools(const char * const *tools)
{
	for (; tools && *tools; tools++)
		if (!have_tool(*tools))
			return mglru_skip("%s not found", *tools);
	return 0;
}

/* shared with the parent, which reports the skip (main.c) */
static char skip_buf[256];
char *mglru_skip_reason = skip_buf;

int mglru_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(mglru_skip_reason, sizeof(skip_buf), fmt, ap);
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
	fflush(stdout);
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
	fflush(stdout);
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
	unsigned long num, shift = 20;
	char *end;

	errno = 0;
	num = strtoul(arg, &end, 0);
	if (errno || end == arg || arg[0] == '-')
		return -1;
	switch (toupper((unsigned char)*end)) {
	case 'K':
		shift = 10;
		break;
	case 'G':
		shift = 30;
		break;
	case 'M':
	case '\0':
		break;
	default:
		return -1;
	}
	if (*end && end[1] && (toupper((unsigned char)end[1]) != 'B' || end[2]))
		return -1;
	if (!num || num > (ULONG_MAX >> shift))
		return -1;
	*(unsigned long *)val = num << shift;
	return 0;
}

static void print_opts(const struct mglru_opt *o)
{
	for (; o->name; o++)
		fprintf(stderr, " [-%c%s%s]", o->name, o->arg ? " " : "",
			o->arg ?: "");
}

void mglru_usage(const char *prog, const struct mglru_opt *common,
		 const struct mglru_opt *opts)
{
	fprintf(stderr, "usage: %s", prog);
	print_opts(common);
	print_opts(opts);
	fprintf(stderr, " (sizes: MiB or K/M/G suffix)\n");
	exit(1);
}

static size_t add_letters(char *s, size_t len, const struct mglru_opt *o)
{
	for (; o->name; o++) {
		s[len++] = o->name;
		if (o->arg)
			s[len++] = ':';
	}
	s[len] = '\0';
	return len;
}

static const struct mglru_opt *find_opt(const struct mglru_opt *o, int c)
{
	for (; o->name; o++)
		if (o->name == c)
			return o;
	return NULL;
}

/* 0, or -1 for the usage line; a flag's parse() gets NULL */
int mglru_parse_opts(int argc, char **argv, const struct mglru_opt *common,
		     const struct mglru_opt *opts)
{
	char letters[2 * 2 * 26 * 2 + 2];
	const struct mglru_opt *o;
	int c;

	add_letters(letters, add_letters(letters, 0, common), opts);
	opterr = 0;
	while ((c = getopt(argc, argv, letters)) != -1) {
		o = find_opt(common, c) ?: find_opt(opts, c);
		if (!o || o->parse(o->arg ? optarg : NULL, o->val))
			return -1;
	}
	return optind < argc ? -1 : 0;
}
