// SPDX-License-Identifier: GPL-2.0
/*
 * What a run creates or changes (memcg, child, mount, loop device, dm target,
 * swap, zram device, sysfs or sysctl value) is pushed on a stack before it is
 * created and undone in reverse order (release.c): at exit, from the
 * SIGTERM, SIGINT, SIGALRM and SIGHUP handler, and after each LRU mode.
 *
 * The stack is journalled in MGLRU_HOME/<pid>.journal (journal.c has its
 * format and rules); nothing is created whose entry could not be written, so
 * that a later run can undo what a SIGKILLed one left (sweep.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mglru.h"

static struct mglru_undo stack[MGLRU_MAX_RES];
static int nr_res;
static pid_t owner;
static char journal[MGLRU_PATH_LEN], journal_tmp[MGLRU_PATH_LEN];
static char boot_id[MGLRU_BOOT_ID_LEN];

static const int signals[] = { SIGTERM, SIGINT, SIGALRM, SIGHUP };

void mglru_block_signals(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(signals); i++)
		sigaddset(&set, signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

void mglru_restore_signals(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* The stack as a journal: children (pids) die with the run. */
static void journal_view(struct mglru_journal *j)
{
	int i;

	snprintf(j->boot_id, sizeof(j->boot_id), "%s", boot_id);
	j->nr = 0;
	for (i = 0; i < nr_res; i++)
		if (stack[i].type != RES_NONE && stack[i].type != RES_PID)
			mglru_undo_to_entry(&stack[i], &j->ent[j->nr++]);
}

/*
 * Rewrite the journal whole, through a new file renamed over it. 0, or -1
 * if it could not be written: then the caller must not create anything.
 */
static int journal_sync(void)
{
	static char buf[MGLRU_JOURNAL_MAX];
	static struct mglru_journal j;
	int fd, len, ret = -1;

	if (!journal[0]) {
		ksft_print_msg("cleanup: no journal: mglru_cleanup_init() first\n");
		return -1;
	}
	journal_view(&j);
	if (!j.nr) {
		if (unlink(journal) && errno != ENOENT)
			goto err;
		return 0;
	}
	len = mglru_journal_format(buf, sizeof(buf), &j);
	if (len < 0) {
		errno = EOVERFLOW;
		goto err;
	}
	fd = mglru_home_create(journal_tmp);
	if (fd < 0) {
		errno = -fd;
		goto err;
	}
	if (write(fd, buf, len) == len && !rename(journal_tmp, journal))
		ret = 0;
	else
		unlink(journal_tmp);
	close(fd);
	if (!ret)
		return 0;
err:
	ksft_print_msg("cleanup: cannot write %s: %s\n", journal,
		       strerror(errno));
	return -1;
}

/*
 * Put what is about to be created on the stack and in the journal; -1 if it
 * cannot be, or if a later run could not undo it by the journal's rules.
 */
static int push(const struct mglru_undo *u)
{
	static struct mglru_journal j;
	struct mglru_entry e;
	const char *why;
	sigset_t old;

	mglru_block_signals(&old);
	if (nr_res >= MGLRU_MAX_RES) {
		mglru_restore_signals(&old);
		ksft_print_msg("cleanup stack full\n");
		return -1;
	}
	if (u->type != RES_PID) {
		mglru_undo_to_entry(u, &e);
		journal_view(&j);
		why = mglru_entry_refusal(&e, owner, &j);
		if (why) {
			mglru_restore_signals(&old);
			ksft_print_msg("cleanup: would not undo %s %s %s: %s\n",
				       mglru_res_name(e.type), e.path, e.val, why);
			return -1;
		}
	}
	stack[nr_res++] = *u;
	if (u->type != RES_PID && journal_sync()) {
		nr_res--;
		mglru_restore_signals(&old);
		return -1;
	}
	mglru_restore_signals(&old);
	return 0;
}

/* @src into @dst of @len bytes; false if it does not fit whole. */
static bool fits(char *dst, size_t len, const char *src)
{
	return snprintf(dst, len, "%s", src) < (int)len;
}

/* What the journal could only hold cut is not created at all. */
static int too_long(enum mglru_res type, const char *path)
{
	ksft_print_msg("cleanup: %s %s: too long to journal\n",
		       mglru_res_name(type), path);
	return -1;
}

/* A memcg, dir, mount, swap device or loop device's backing file. */
int mglru_cleanup_path(enum mglru_res type, const char *path)
{
	struct mglru_undo u = { .type = type };

	if (!fits(u.path, sizeof(u.path), path))
		return too_long(type, path);
	return push(&u);
}

/* A child of the run's; never journalled, it dies with the run. */
int mglru_cleanup_pid(pid_t pid)
{
	struct mglru_undo u = { .type = RES_PID, .pid = pid };

	return push(&u);
}

/* The knob @path, its value now written back to it. */
int mglru_cleanup_knob(const char *path)
{
	struct mglru_undo u = { .type = RES_RESTORE };
	int ret;

	if (!fits(u.knob.path, sizeof(u.knob.path), path))
		return too_long(u.type, path);
	ret = mglru_read_str(path, u.knob.old, sizeof(u.knob.old));
	if (ret) {
		ksft_print_msg("read %s: %s\n", path, strerror(-ret));
		return -1;
	}
	return push(&u);
}

/* The dm target @name, removed. */
int mglru_cleanup_dm(const char *name)
{
	struct mglru_undo u = { .type = RES_DM };

	if (!fits(u.dm.name, sizeof(u.dm.name), name))
		return too_long(u.type, "");
	return push(&u);
}

/* The dm target @name, @table loaded into it (before it is unmounted). */
int mglru_cleanup_undelay(const char *name, const char *table)
{
	struct mglru_undo u = { .type = RES_DM_UNDELAY };

	if (!fits(u.dm.name, sizeof(u.dm.name), name) ||
	    !fits(u.dm.table, sizeof(u.dm.table), table))
		return too_long(u.type, table);
	return push(&u);
}

/* zram<id>, reset, and removed if @hot (it was hot-added). */
int mglru_cleanup_zram(int id, bool hot)
{
	struct mglru_undo u = { .type = RES_ZRAM, .zram = { id, hot } };

	return push(&u);
}

/* A reaped child: mark it released; entries never move. */
void mglru_cleanup_forget_pid(pid_t pid)
{
	sigset_t old;
	int i;

	mglru_block_signals(&old);
	for (i = nr_res - 1; i >= 0; i--) {
		if (stack[i].type == RES_PID && stack[i].pid == pid) {
			stack[i].type = RES_NONE;
			break;
		}
	}
	while (nr_res > 0 && stack[nr_res - 1].type == RES_NONE)
		nr_res--;
	mglru_restore_signals(&old);
}

int mglru_cleanup_mark(void)
{
	return nr_res;
}

void mglru_cleanup_to(int mark)
{
	sigset_t old;

	if (getpid() != owner)
		return;
	mglru_block_signals(&old);
	while (nr_res > mark) {
		nr_res--;
		mglru_release(&stack[nr_res], owner);
		journal_sync();
	}
	mglru_restore_signals(&old);
}

static void cleanup_all(void)
{
	mglru_cleanup_to(0);
}

static void signal_handler(int sig)
{
	static const char msg[] = "# caught signal, cleaning up\n";

	if (getpid() == owner) {
		/* Async-signal-safe; a failed write is not worth handling. */
		if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
			errno = 0;
		mglru_kill_tool();
		mglru_cleanup_to(0);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Call once MGLRU_HOME is checked and its lock held. */
int mglru_cleanup_init(void)
{
	size_t i;

	owner = getpid();
	mglru_boot_id(boot_id, sizeof(boot_id));
	snprintf(journal, sizeof(journal), "%s/%d%s", MGLRU_HOME, owner,
		 MGLRU_JOURNAL_SUFFIX);
	snprintf(journal_tmp, sizeof(journal_tmp), "%s/%d%s", MGLRU_HOME,
		 owner, MGLRU_JOURNAL_TMP_SUFFIX);
	atexit(cleanup_all);
	for (i = 0; i < ARRAY_SIZE(signals); i++)
		signal(signals[i], signal_handler);
	return 0;
}
