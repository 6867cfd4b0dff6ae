// SPDX-License-Identifier: GPL-2.0
/*
 * The workload's children: each joins its memcg before it runs, dies with
 * the harness (PR_SET_PDEATHSIG) and is on the cleanup stack from the
 * moment it exists.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "cgroup_util.h"
#include "mglru.h"

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
	mglru_cleanup_pid(pid);
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
