// SPDX-License-Identifier: GPL-2.0
/*
 * A SIGKILLed run cannot clean up after itself, so every run, holding the
 * lock, first looks for the journals of runs that are gone and undoes what
 * they list, within the journal's rules (journal.c). On a later boot only
 * their directories are left, if MGLRU_HOME is not on a tmpfs: the rest
 * went with the boot.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mglru.h"

static void refuse_line(void *path, int line, const char *why)
{
	ksft_print_msg("cleanup: refused %s line %d: %s\n", (char *)path,
		       line, why);
}

/*
 * Undo what the journal @name (in MGLRU_HOME, open at @dirfd) of the dead
 * run @pid lists, entry by entry, within the rules; 1 if it was read.
 */
static int sweep_journal(int dirfd, const char *name, int pid,
			 const char *boot_id)
{
	static char buf[MGLRU_JOURNAL_MAX + 1];
	static struct mglru_journal j;
	struct mglru_undo u;
	char path[sizeof(MGLRU_HOME) + NAME_MAX + 1];
	const char *why;
	bool same_boot;
	ssize_t len;
	int fd, i;

	snprintf(path, sizeof(path), "%s/%s", MGLRU_HOME, name);
	fd = mglru_home_open(dirfd, name, O_RDONLY, &why);
	if (fd < 0) {
		ksft_print_msg("cleanup: refused %s: %s\n", path, why);
		return 0;
	}
	len = read(fd, buf, sizeof(buf));
	close(fd);
	if (len < 0 || mglru_journal_parse(buf, len, pid, &j, refuse_line,
					   path)) {
		ksft_print_msg("cleanup: refused %s: not a journal\n", path);
		return 0;
	}
	same_boot = !strcmp(j.boot_id, boot_id);
	ksft_print_msg("cleanup: run %d was killed before its cleanup%s:\n",
		       pid, same_boot ? "" : " (an earlier boot: directories only)");
	for (i = j.nr - 1; i >= 0; i--) {
		if (!same_boot && j.ent[i].type != RES_DIR)
			continue;
		ksft_print_msg("cleanup:   %s %s %s\n",
			       mglru_res_name(j.ent[i].type), j.ent[i].path,
			       j.ent[i].val);
		mglru_undo_of_entry(&j.ent[i], &u);
		mglru_release(&u, pid);
	}
	unlinkat(dirfd, name, 0);
	return 1;
}

#define PF_EXITING	0x00000004	/* include/linux/sched.h */
#define SIGKILL_BIT	(1ULL << (SIGKILL - 1))

enum run_state { RUN_ALIVE, RUN_DYING, RUN_GONE };

static bool sigkill_pending(const char *status, const char *field)
{
	unsigned long long pending;
	const char *p = strstr(status, field);

	return p && sscanf(p + strlen(field), " %llx", &pending) == 1 &&
	       (pending & SIGKILL_BIT);
}

/* Exiting, or with a SIGKILL pending, is dying; a zombie is gone. */
static enum run_state run_state(int pid)
{
	char path[64], buf[4096], *p;
	unsigned int flags;
	char state;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (mglru_read_str(path, buf, sizeof(buf)))
		return RUN_GONE;
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %*d %*d %*d %*d %*d %u", &state,
			 &flags) != 2 || state == 'Z' || state == 'X')
		return RUN_GONE;
	if (flags & PF_EXITING)
		return RUN_DYING;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (mglru_read_str(path, buf, sizeof(buf)))
		return RUN_GONE;
	return sigkill_pending(buf, "ShdPnd:") || sigkill_pending(buf, "SigPnd:") ?
	       RUN_DYING : RUN_ALIVE;
}

/*
 * Whether the run @pid is gone. A SIGKILLed run can take a while to die
 * (an ext4 write through dm-delay, say): wait up to 30 s for it. Our own pid
 * names a dead run that had it before us.
 */
static bool run_gone(int pid)
{
	enum run_state state;
	int i;

	if (pid == getpid())
		return true;
	for (i = 0; i < 300; i++) {
		state = run_state(pid);
		if (state != RUN_DYING)
			return state == RUN_GONE;
		mglru_sleep_ms(100);
	}
	return true;
}

/* "<pid><suffix>" with a positive decimal pid and nothing else: the pid. */
static int journal_pid(const char *name, const char *suffix)
{
	size_t n = strspn(name, "0123456789");
	long pid;

	if (!n || n > 9 || name[0] == '0' || strcmp(name + n, suffix))
		return 0;
	pid = strtol(name, NULL, 10);
	return pid > 0 ? pid : 0;
}

/*
 * Undo what earlier runs, killed before their cleanup, left behind: their
 * journals in MGLRU_HOME. A journal that is not a regular root-owned 0600
 * file is refused and left alone, and so is every entry outside the rules.
 */
int mglru_sweep(void)
{
	char boot_id[MGLRU_BOOT_ID_LEN];
	const char *why;
	struct dirent *d;
	int pid, fd, found = 0;
	DIR *dir;

	dir = opendir(MGLRU_HOME);
	if (!dir)
		return 0;
	mglru_boot_id(boot_id, sizeof(boot_id));
	while ((d = readdir(dir))) {
		pid = journal_pid(d->d_name, MGLRU_JOURNAL_TMP_SUFFIX);
		if (pid && run_gone(pid)) {
			/* a rewrite cut short: unlink it if it is one */
			fd = mglru_home_open(dirfd(dir), d->d_name, O_RDONLY,
					     &why);
			if (fd < 0) {
				ksft_print_msg("cleanup: refused %s/%s: %s\n",
					       MGLRU_HOME, d->d_name, why);
				continue;
			}
			close(fd);
			unlinkat(dirfd(dir), d->d_name, 0);
			continue;
		}
		pid = journal_pid(d->d_name, MGLRU_JOURNAL_SUFFIX);
		if (pid && run_gone(pid))
			found += sweep_journal(dirfd(dir), d->d_name, pid,
					       boot_id);
	}
	closedir(dir);
	return found;
}
