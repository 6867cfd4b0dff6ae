// SPDX-License-Identifier: GPL-2.0
/*
 * The commands the harness runs (losetup, mkfs.ext4, dmsetup, ...): each in
 * its own process group, its output kept off stdout, which is the KTAP
 * stream.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "mglru.h"

static void read_all(int fd, char *out, size_t outlen)
{
	size_t off = 0;
	ssize_t n;

	while (off + 1 < outlen) {
		n = read(fd, out + off, outlen - off - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += n;
	}
	out[off] = '\0';
	while (off > 0 && isspace((unsigned char)out[off - 1]))
		out[--off] = '\0';
}

/* The command mglru_run_argv() is waiting for, if any. */
static pid_t tool_pid;

/*
 * Run a command, its stdout captured in @out if given, else sent to stderr
 * (or nowhere if @quiet), so that stdout stays KTAP; returns its exit status.
 */
int mglru_run_argv(char *out, size_t outlen, bool quiet,
		   const char * const *argv)
{
	int pipefd[2] = { -1, -1 };
	int status, devnull;
	sigset_t empty;
	pid_t pid;

	if (out && pipe(pipefd))
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		/*
		 * A group-wide SIGTERM from the kselftest runner's timeout must
		 * not kill a tool half-way through creating or removing a
		 * device: the test's own cleanup runs the tools it needs.
		 */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		sigemptyset(&empty);
		sigprocmask(SIG_SETMASK, &empty, NULL);
		devnull = open("/dev/null", O_RDWR);
		if (out) {
			dup2(pipefd[1], 1);
			close(pipefd[0]);
			close(pipefd[1]);
		} else {
			dup2(quiet ? devnull : 2, 1);
		}
		if (quiet)
			dup2(devnull, 2);
		execvp(argv[0], (char * const *)argv);
		_exit(127);
	}
	__atomic_store_n(&tool_pid, pid, __ATOMIC_SEQ_CST);
	if (out) {
		close(pipefd[1]);
		read_all(pipefd[0], out, outlen);
		close(pipefd[0]);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			__atomic_store_n(&tool_pid, 0, __ATOMIC_SEQ_CST);
			return -1;
		}
	}
	__atomic_store_n(&tool_pid, 0, __ATOMIC_SEQ_CST);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * From the signal handler: stop the command in progress (mkfs.ext4, say)
 * before undoing what it works on.
 */
void mglru_kill_tool(void)
{
	pid_t pid = __atomic_load_n(&tool_pid, __ATOMIC_SEQ_CST);

	if (pid > 0 && !kill(pid, SIGKILL))
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
}

static bool have_tool(const char *tool)
{
	const char *path = getenv("PATH");
	char buf[1024], file[MGLRU_PATH_LEN + 64], *dir, *save;

	snprintf(buf, sizeof(buf), "%s", path ? path : "/usr/bin:/bin");
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
	for (; tools && *tools; tools++) {
		if (!have_tool(*tools))
			return mglru_skip("%s not found", *tools);
	}
	return 0;
}
