// SPDX-License-Identifier: GPL-2.0
/*
 * Commands run by the harness, and the workload's children: each joins its
 * memcg before it runs, dies with the harness (PR_SET_PDEATHSIG) and is on
 * the cleanup stack from the moment it exists.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "cgroup_util.h"
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

/* fork() a child that joins @cg; 0 in the child, its pid in the parent. */
static pid_t spawn(const char *cg)
{
	pid_t ppid = getpid();
	sigset_t old, empty;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	mglru_block_signals(&old);
	pid = fork();
	if (pid < 0) {
		mglru_restore_signals(&old);
		ksft_print_msg("fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGALRM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		sigemptyset(&empty);
		sigprocmask(SIG_SETMASK, &empty, NULL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != ppid)
			_exit(1);
		if (cg_enter_current(cg)) {
			fprintf(stderr, "cannot join %s\n", cg);
			_exit(1);
		}
		return 0;
	}
	/* On the stack before signals are unblocked: never leaked. */
	mglru_cleanup_push(RES_PID, NULL, NULL, pid);
	mglru_restore_signals(&old);
	return pid;
}

pid_t mglru_spawn(const char *cg, int (*fn)(void *arg), void *arg)
{
	pid_t pid = spawn(cg);

	if (pid == 0) {
		fflush(stdout);
		_exit(fn(arg));
	}
	return pid;
}

/* The command's stdout goes to stderr: stdout is the KTAP stream. */
pid_t mglru_spawn_argv(const char *cg, const char * const *argv)
{
	pid_t pid = spawn(cg);

	if (pid == 0) {
		dup2(2, 1);
		execvp(argv[0], (char * const *)argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

/* 1 if the child exited (@status set), 0 on timeout, -1 on error. */
int mglru_wait(pid_t pid, int *status, double timeout_s)
{
	double end = mglru_now() + timeout_s;
	pid_t ret;

	for (;;) {
		ret = waitpid(pid, status, WNOHANG);
		if (ret == pid) {
			mglru_cleanup_forget_pid(pid);
			return 1;
		}
		if (ret < 0 && errno != EINTR)
			return -1;
		if (mglru_now() >= end)
			return 0;
		mglru_sleep_ms(20);
	}
}

void mglru_kill(pid_t pid)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	mglru_cleanup_forget_pid(pid);
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

double mglru_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void mglru_sleep_ms(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (ms % 1000) * 1000000L,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Shared with the children, populated by the harness so they never charge it. */
void *mglru_shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0, size);
	return p;
}
