// SPDX-License-Identifier: GPL-2.0
/*
 * What a run creates or changes (memcg, child, mount, loop device, dm target,
 * swap, zram device, sysfs or sysctl value) is pushed on a stack before it is
 * created and undone in reverse order: at exit, from the SIGTERM, SIGINT,
 * SIGALRM and SIGHUP handler, and after each LRU mode. Every release is a
 * no-op when there is nothing to undo.
 *
 * The stack is journalled in /tmp/mglru_selftest.<pid>.journal. A SIGKILLed
 * run cannot clean up after itself, so every run first looks for the
 * journals of runs that are gone and undoes what they list (on a later boot,
 * only their directories: the rest went with the boot).
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
#include <sys/swap.h>
#include <sys/wait.h>

#include "cgroup_util.h"
#include "mglru.h"

#define MAX_RES		64
#define JOURNAL_DIR	"/tmp"
#define BOOT_ID		"/proc/sys/kernel/random/boot_id"

struct res {
	enum mglru_res type;
	int id;
	char path[MGLRU_PATH_LEN];
	char val[128];
};

static struct res stack[MAX_RES];
static int nr_res;
static pid_t owner;
static char journal[64], boot_id[64];

static const int signals[] = { SIGTERM, SIGINT, SIGALRM, SIGHUP };

static const char *type_name(enum mglru_res type);

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

/* Rewrite the journal whole; children (pids) die with the run. */
static void journal_sync(void)
{
	static char buf[MAX_RES * (MGLRU_PATH_LEN + 160)];
	char tmp[80];
	size_t len;
	int i, fd, kept = 0;

	if (!journal[0])
		return;
	len = snprintf(buf, sizeof(buf), "boot %s\n", boot_id);
	for (i = 0; i < nr_res; i++) {
		if (stack[i].type == RES_NONE || stack[i].type == RES_PID)
			continue;
		len += snprintf(buf + len, sizeof(buf) - len, "%s %d %s\t%s\n",
				type_name(stack[i].type), stack[i].id,
				stack[i].path, stack[i].val);
		kept++;
	}
	if (!kept) {
		unlink(journal);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", journal);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return;
	if (write(fd, buf, len) == (ssize_t)len)
		rename(tmp, journal);
	close(fd);
}

int mglru_cleanup_push(enum mglru_res type, const char *path, const char *val,
		       int id)
{
	struct res *r;
	sigset_t old;

	mglru_block_signals(&old);
	if (nr_res >= MAX_RES) {
		mglru_restore_signals(&old);
		ksft_print_msg("cleanup stack full\n");
		return -1;
	}
	r = &stack[nr_res++];
	memset(r, 0, sizeof(*r));
	r->type = type;
	r->id = id;
	snprintf(r->path, sizeof(r->path), "%s", path ? path : "");
	snprintf(r->val, sizeof(r->val), "%s", val ? val : "");
	if (type != RES_PID)
		journal_sync();
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

static void release_memcg(const struct res *r)
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

static void release_pid(const struct res *r)
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

static void release_mount(const struct res *r)
{
	const char *path = r->path;
	int i;

	for (i = 0; i < 50; i++) {
		if (!umount2(path, 0) || errno == EINVAL || errno == ENOENT)
			return;
		if (errno != EBUSY)
			break;
		mglru_sleep_ms(100);
	}
	ksft_print_msg("cleanup: umount %s: %s, detaching\n", path,
		       strerror(errno));
	umount2(path, MNT_DETACH);
}

/* Detach every loop device backed by the file r->path. */
static void release_loop(const struct res *r)
{
	const char *backing = r->path;
	char file[MGLRU_PATH_LEN], dev[64], *name;
	glob_t g;
	size_t i;
	int fd, n;

	if (glob("/sys/block/loop*/loop/backing_file", 0, NULL, &g))
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
static void release_dm(const struct res *r)
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
static void undelay_dm(const struct res *r)
{
	const char *name = r->val, *table = r->path;

	if (!have_dm(name) ||
	    mglru_run(NULL, 0, true, "dmsetup", "suspend", "--nolockfs", name))
		return;
	mglru_run(NULL, 0, true, "dmsetup", "reload", name, "--table", table);
	mglru_run(NULL, 0, true, "dmsetup", "resume", name);
}

static void release_zram(const struct res *r)
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

static void release_restore(const struct res *r)
{
	if (mglru_write_str(r->path, r->val))
		ksft_print_msg("cleanup: cannot restore %s to %s\n", r->path,
			       r->val);
}

static void release_dir(const struct res *r)
{
	rmdir(r->path);
}

static void release_swap(const struct res *r)
{
	if (swapoff(r->path) && errno != EINVAL && errno != ENOENT)
		ksft_print_msg("cleanup: swapoff %s: %s\n", r->path,
			       strerror(errno));
}

/* Each type's name in the journal, and how it is undone. */
static const struct {
	const char *name;
	void (*release)(const struct res *r);
} types[] = {
	[RES_NONE] = { "none" }, [RES_RESTORE] = { "restore", release_restore },
	[RES_MEMCG] = { "memcg", release_memcg },
	[RES_PID] = { "pid", release_pid }, [RES_DIR] = { "dir", release_dir },
	[RES_MOUNT] = { "mount", release_mount },
	[RES_LOOP] = { "loop", release_loop }, [RES_DM] = { "dm", release_dm },
	[RES_DM_UNDELAY] = { "undelay", undelay_dm },
	[RES_SWAP] = { "swap", release_swap },
	[RES_ZRAM] = { "zram", release_zram },
};

static const char *type_name(enum mglru_res type)
{
	return types[type].name;
}

static void release(const struct res *r)
{
	if (types[r->type].release)
		types[r->type].release(r);
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
		release(&stack[nr_res]);
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

int mglru_cleanup_init(void)
{
	size_t i;

	owner = getpid();
	if (mglru_read_str(BOOT_ID, boot_id, sizeof(boot_id)))
		snprintf(boot_id, sizeof(boot_id), "unknown");
	snprintf(journal, sizeof(journal), "%s/%s.%d.journal", JOURNAL_DIR,
		 MGLRU_NAME, owner);
	atexit(cleanup_all);
	for (i = 0; i < ARRAY_SIZE(signals); i++)
		signal(signals[i], signal_handler);
	return 0;
}

static int parse_type(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(types); i++)
		if (!strcmp(name, types[i].name))
			return i;
	return -1;
}

/* Undo what the journal @path of the dead run @pid lists; 1 if anything. */
static int sweep_journal(const char *path, int pid)
{
	static struct res left[MAX_RES];
	char line[MGLRU_PATH_LEN + 256], type[16], *tab;
	bool same_boot = false;
	int n = 0, type_id;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return 0;
	while (n < MAX_RES && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "boot ", 5)) {
			same_boot = !strcmp(line + 5, boot_id);
			continue;
		}
		tab = strchr(line, '\t');
		if (!tab || sscanf(line, "%15s %d", type, &left[n].id) != 2)
			continue;
		type_id = parse_type(type);
		if (type_id < 0)
			continue;
		*tab = '\0';
		left[n].type = type_id;
		snprintf(left[n].path, sizeof(left[n].path), "%s",
			 strchr(strchr(line, ' ') + 1, ' ') + 1);
		snprintf(left[n].val, sizeof(left[n].val), "%s", tab + 1);
		n++;
	}
	fclose(f);
	ksft_print_msg("cleanup: run %d was killed before its cleanup%s:\n",
		       pid, same_boot ? "" : " (an earlier boot: directories only)");
	while (n--) {
		if (!same_boot && left[n].type != RES_DIR)
			continue;
		ksft_print_msg("cleanup:   %s %s %s\n", type_name(left[n].type),
			       left[n].path, left[n].val);
		release(&left[n]);
	}
	unlink(path);
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
 * (an ext4 write through dm-delay, say): wait up to 30 s for it.
 */
static bool run_gone(int pid)
{
	enum run_state state;
	int i;

	for (i = 0; i < 300; i++) {
		state = run_state(pid);
		if (state != RUN_DYING)
			return state == RUN_GONE;
		mglru_sleep_ms(100);
	}
	return true;
}

/* Undo what earlier runs, killed before their cleanup, left behind. */
int mglru_cleanup_sweep(void)
{
	char path[sizeof(JOURNAL_DIR) + sizeof(((struct dirent *)0)->d_name)];
	struct dirent *d;
	int pid, len, found = 0;
	const char *rest;
	DIR *dir;

	dir = opendir(JOURNAL_DIR);
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		if (sscanf(d->d_name, MGLRU_NAME ".%d%n", &pid, &len) != 1 ||
		    pid == owner)
			continue;
		rest = d->d_name + len;
		if (strcmp(rest, ".journal") && strcmp(rest, ".journal.tmp"))
			continue;
		if (!run_gone(pid))
			continue;	/* still running */
		snprintf(path, sizeof(path), "%s/%s", JOURNAL_DIR, d->d_name);
		if (strcmp(rest, ".journal"))
			unlink(path);
		else
			found += sweep_journal(path, pid);
	}
	closedir(dir);
	return found;
}
