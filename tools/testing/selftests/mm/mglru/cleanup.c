// SPDX-License-Identifier: GPL-2.0
/*
 * What a run creates or changes (memcg, child, mount, loop device, dm target,
 * swap, zram device, sysfs or sysctl value) is pushed on a stack before it is
 * created and undone in reverse order: at exit, from the SIGTERM, SIGINT,
 * SIGALRM and SIGHUP handler, and after each LRU mode. Every release is a
 * no-op when there is nothing to undo.
 *
 * The stack is journalled in MGLRU_HOME/<pid>.journal (journal.c has its
 * format and rules); nothing is created whose entry could not be written. A
 * SIGKILLed run cannot clean up after itself, so every run, holding the
 * lock, first looks for the journals of runs that are gone and undoes what
 * they list, within the rules. On a later boot only their directories are
 * left, if MGLRU_HOME is not on a tmpfs: the rest went with the boot.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/wait.h>

#include "cgroup_util.h"
#include "mglru.h"

#define JOURNAL_SUFFIX	".journal"
#define TMP_SUFFIX	".journal.tmp"
#define BOOT_ID		"/proc/sys/kernel/random/boot_id"

static struct mglru_entry stack[MGLRU_MAX_RES];
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
			j->ent[j->nr++] = stack[i];
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
int mglru_cleanup_push(enum mglru_res type, const char *path, const char *val,
		       int id)
{
	static struct mglru_journal j;
	struct mglru_entry *e;
	const char *why;
	sigset_t old;

	mglru_block_signals(&old);
	if (nr_res >= MGLRU_MAX_RES) {
		mglru_restore_signals(&old);
		ksft_print_msg("cleanup stack full\n");
		return -1;
	}
	e = &stack[nr_res];
	memset(e, 0, sizeof(*e));
	e->type = type;
	e->id = id;
	if (snprintf(e->path, sizeof(e->path), "%s", path ?: "") >=
	    (int)sizeof(e->path) ||
	    snprintf(e->val, sizeof(e->val), "%s", val ?: "") >=
	    (int)sizeof(e->val)) {
		mglru_restore_signals(&old);
		ksft_print_msg("cleanup: %s %s: too long to journal\n",
			       mglru_res_name(type), path ?: "");
		return -1;
	}
	if (type != RES_PID) {
		journal_view(&j);
		why = mglru_entry_refusal(e, owner, &j);
		if (why) {
			mglru_restore_signals(&old);
			ksft_print_msg("cleanup: would not undo %s %s %s: %s\n",
				       mglru_res_name(type), e->path, e->val, why);
			return -1;
		}
	}
	nr_res++;
	if (type != RES_PID && journal_sync()) {
		nr_res--;
		mglru_restore_signals(&old);
		return -1;
	}
	mglru_restore_signals(&old);
	return 0;
}

/* A reaped child: mark it released; entries never move. */
void mglru_cleanup_forget_pid(pid_t pid)
{
	sigset_t old;
	int i;

	mglru_block_signals(&old);
	for (i = nr_res - 1; i >= 0; i--) {
		if (stack[i].type == RES_PID && stack[i].id == pid) {
			stack[i].type = RES_NONE;
			break;
		}
	}
	while (nr_res > 0 && stack[nr_res - 1].type == RES_NONE)
		nr_res--;
	mglru_restore_signals(&old);
}

/*
 * The loop device @name ("loop<N>", ended by a space, a slash or the
 * string's end) is backed by a file in run @pid's scratch directory.
 */
static bool own_loop(const char *name, pid_t pid)
{
	char path[96], file[MGLRU_PATH_LEN], dir[MGLRU_PATH_LEN];
	size_t n;

	mglru_scratch_dir(dir, sizeof(dir), pid);
	n = strlen(dir);
	if (!name || strncmp(name, "loop", 4))
		return false;
	snprintf(path, sizeof(path), "/sys/block/%.*s/loop/backing_file",
		 (int)strcspn(name, " /"), name);
	return !mglru_read_str(path, file, sizeof(file)) &&
	       !strncmp(file, dir, n) && file[n] == '/';
}

static void release_memcg(const struct mglru_entry *r, pid_t pid)
{
	const char *cg = r->path;
	int i;

	for (i = 0; i < 200; i++) {
		if (!rmdir(cg) || errno == ENOENT)
			return;
		if (errno != EBUSY)
			break;
		cg_killall(cg);
		mglru_sleep_ms(50);
	}
	ksft_print_msg("cleanup: cannot remove %s: %s\n", cg, strerror(errno));
}

static void release_pid(const struct mglru_entry *r, pid_t run)
{
	pid_t pid = r->id;
	int i;

	kill(pid, SIGKILL);
	for (i = 0; i < 600; i++) {
		pid_t ret = waitpid(pid, NULL, WNOHANG);

		if (ret == pid || (ret < 0 && errno != EINTR))
			return;
		mglru_sleep_ms(50);
	}
	ksft_print_msg("cleanup: pid %d did not exit\n", pid);
}

/*
 * No component of r->path from MGLRU_HOME on is a symlink (a missing one
 * ends the walk: there is nothing to act on). The rules keep dir, mount and
 * loop entries in the run's scratch directory by name; this keeps them
 * there on disk too, whatever is linked into it.
 */
static bool below_home(const struct mglru_entry *r)
{
	size_t n = strlen(MGLRU_HOME), end;
	char buf[MGLRU_PATH_LEN];
	struct stat st;

	if (strncmp(r->path, MGLRU_HOME, n))
		return false;
	for (end = n; ; end++) {
		if (r->path[end] && r->path[end] != '/')
			continue;
		snprintf(buf, sizeof(buf), "%.*s", (int)end, r->path);
		if (lstat(buf, &st))
			return true;
		if (S_ISLNK(st.st_mode)) {
			ksft_print_msg("cleanup: refused %s %s: %s is a symlink\n",
				       mglru_res_name(r->type), r->path, buf);
			return false;
		}
		if (!r->path[end])
			return true;
	}
}

static void release_mount(const struct mglru_entry *r, pid_t pid)
{
	const char *path = r->path;
	int i;

	if (!below_home(r))
		return;
	for (i = 0; i < 50; i++) {
		if (!umount2(path, UMOUNT_NOFOLLOW) || errno == EINVAL ||
		    errno == ENOENT)
			return;
		if (errno != EBUSY)
			break;
		mglru_sleep_ms(100);
	}
	ksft_print_msg("cleanup: umount %s: %s, detaching\n", path,
		       strerror(errno));
	umount2(path, MNT_DETACH | UMOUNT_NOFOLLOW);
}

/* Detach every loop device backed by the file r->path. */
static void release_loop(const struct mglru_entry *r, pid_t pid)
{
	const char *backing = r->path;
	char file[MGLRU_PATH_LEN], dev[64], *name;
	glob_t g;
	size_t i;
	int fd, n;

	if (!below_home(r) ||
	    glob("/sys/block/loop*/loop/backing_file", 0, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc; i++) {
		if (mglru_read_str(g.gl_pathv[i], file, sizeof(file)) ||
		    strcmp(file, backing))
			continue;
		name = g.gl_pathv[i] + strlen("/sys/block/");
		snprintf(dev, sizeof(dev), "/dev/%.*s",
			 (int)(strchr(name, '/') - name), name);
		fd = open(dev, O_RDONLY);
		if (fd < 0)
			continue;
		for (n = 0; n < 50; n++) {
			if (!ioctl(fd, LOOP_CLR_FD, 0) || errno == ENXIO)
				break;
			mglru_sleep_ms(100);
		}
		close(fd);
	}
	globfree(&g);
}

static bool have_dm(const char *name)
{
	return !mglru_run(NULL, 0, true, "dmsetup", "info", name);
}

/*
 * The target can stay open for a while after its filesystem is unmounted:
 * udev probes the device on every change event, and a killed writer's last
 * bios drain through it. Retry for up to ten seconds.
 */
static void release_dm(const struct mglru_entry *r, pid_t pid)
{
	const char *name = r->val;
	int i;

	for (i = 0; i < 40 && have_dm(name); i++) {
		if (!mglru_run(NULL, 0, true, "dmsetup", "remove", "--retry",
			       name))
			return;
		mglru_run(NULL, 0, true, "udevadm", "settle");
		mglru_sleep_ms(250);
	}
	if (i == 40)
		ksft_print_msg("cleanup: dmsetup remove %s failed\n", name);
}

/*
 * Before the filesystem on a dm-delay target is unmounted, load a table
 * without delay, so that its last writeback does not wait out every delay.
 * Suspending dm-delay flushes the bios it holds; --nolockfs leaves the
 * filesystem's dirty pages for the unmount, which then writes them at once.
 */
static void undelay_dm(const struct mglru_entry *r, pid_t pid)
{
	const char *name = r->val, *table = r->path;
	/* the table's device: "0 <sectors> delay /dev/loopN ..." */
	const char *dev = strstr(table, "/dev/loop");

	if (!own_loop(dev ? dev + 5 : NULL, pid)) {
		ksft_print_msg("cleanup: refused undelay %s: its loop device is not the run's\n",
			       name);
		return;
	}
	if (!have_dm(name) ||
	    mglru_run(NULL, 0, true, "dmsetup", "suspend", "--nolockfs", name))
		return;
	mglru_run(NULL, 0, true, "dmsetup", "reload", name, "--table", table);
	mglru_run(NULL, 0, true, "dmsetup", "resume", name);
}

static void release_zram(const struct mglru_entry *r, pid_t pid)
{
	char path[64], val[16];
	int id = r->id;

	snprintf(path, sizeof(path), "/sys/block/zram%d/reset", id);
	mglru_write_str(path, "1");
	if (!strcmp(r->val, "hot")) {
		snprintf(val, sizeof(val), "%d", id);
		mglru_write_str("/sys/class/zram-control/hot_remove", val);
	}
}

static void release_restore(const struct mglru_entry *r, pid_t pid)
{
	if (!strncmp(r->path, "/sys/block/loop", 15) &&
	    !own_loop(r->path + 11, pid)) {
		ksft_print_msg("cleanup: refused restore %s: not the run's loop device\n",
			       r->path);
		return;
	}
	if (mglru_write_str(r->path, r->val))
		ksft_print_msg("cleanup: cannot restore %s to %s\n", r->path,
			       r->val);
}

static void release_dir(const struct mglru_entry *r, pid_t pid)
{
	if (below_home(r))
		rmdir(r->path);
}

static void release_swap(const struct mglru_entry *r, pid_t pid)
{
	if (swapoff(r->path) && errno != EINVAL && errno != ENOENT)
		ksft_print_msg("cleanup: swapoff %s: %s\n", r->path,
			       strerror(errno));
}

/* How each type is undone; @pid is the run that created it. */
static void (* const releases[MGLRU_NR_RES])(const struct mglru_entry *r,
					      pid_t pid) = {
	[RES_RESTORE] = release_restore, [RES_MEMCG] = release_memcg,
	[RES_PID] = release_pid, [RES_DIR] = release_dir,
	[RES_MOUNT] = release_mount, [RES_LOOP] = release_loop,
	[RES_DM] = release_dm, [RES_DM_UNDELAY] = undelay_dm,
	[RES_SWAP] = release_swap, [RES_ZRAM] = release_zram,
};

static void release(const struct mglru_entry *r, pid_t pid)
{
	if (releases[r->type])
		releases[r->type](r, pid);
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
		release(&stack[nr_res], owner);
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
	if (mglru_read_str(BOOT_ID, boot_id, sizeof(boot_id)))
		snprintf(boot_id, sizeof(boot_id), "unknown");
	snprintf(journal, sizeof(journal), "%s/%d%s", MGLRU_HOME, owner,
		 JOURNAL_SUFFIX);
	snprintf(journal_tmp, sizeof(journal_tmp), "%s/%d%s", MGLRU_HOME,
		 owner, TMP_SUFFIX);
	atexit(cleanup_all);
	for (i = 0; i < ARRAY_SIZE(signals); i++)
		signal(signals[i], signal_handler);
	return 0;
}

static void refuse_line(void *path, int line, const char *why)
{
	ksft_print_msg("cleanup: refused %s line %d: %s\n", (char *)path,
		       line, why);
}

/*
 * Undo what the journal @name (in MGLRU_HOME, open at @dirfd) of the dead
 * run @pid lists, entry by entry, within the rules; 1 if it was read.
 */
static int sweep_journal(int dirfd, const char *name, int pid)
{
	static char buf[MGLRU_JOURNAL_MAX + 1];
	static struct mglru_journal j;
	char path[MGLRU_PATH_LEN];
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
		release(&j.ent[i], pid);
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

	if (pid == owner)
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
int mglru_cleanup_sweep(void)
{
	const char *why;
	struct dirent *d;
	int pid, fd, found = 0;
	DIR *dir;

	dir = opendir(MGLRU_HOME);
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		pid = journal_pid(d->d_name, TMP_SUFFIX);
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
		pid = journal_pid(d->d_name, JOURNAL_SUFFIX);
		if (pid && run_gone(pid))
			found += sweep_journal(dirfd(dir), d->d_name, pid);
	}
	closedir(dir);
	return found;
}
