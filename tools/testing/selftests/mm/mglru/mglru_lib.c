// SPDX-License-Identifier: GPL-2.0
/*
 * Shared helpers for the MGLRU regression selftests.
 *
 * Every resource (memcg, child process, mount, loop device, dm target, swap
 * device, zram device, sysfs/sysctl value) is pushed on a registry when it is
 * created and released in reverse order from atexit() (normal exit and the
 * ksft_exit_*() helpers) and from the SIGTERM/SIGINT/SIGALRM/SIGHUP handler.
 * Releasing only uses system calls, fork()/execvp() and fixed-size buffers so
 * it can run from the signal handler.
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
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/wait.h>

#include "../../kselftest.h"
#include "cgroup_util.h"
#include "mglru_lib.h"

const char * const mglru_mode_names[MGLRU_NR_MODES] = {
	[MGLRU_MODE_MGLRU] = "mglru",
	[MGLRU_MODE_CLASSIC] = "classic",
};

char mglru_skip_reason[MGLRU_REASON_LEN];

#define LRU_GEN_ENABLED	"/sys/kernel/mm/lru_gen/enabled"
#define CG_ROOT		"/sys/fs/cgroup"

enum res_type {
	RES_NONE,	/* released early (reaped child) */
	RES_RESTORE,	/* write val back to path */
	RES_MEMCG,	/* kill members, rmdir path */
	RES_PID,	/* SIGKILL and reap pid */
	RES_DIR,	/* rmdir path */
	RES_MOUNT,	/* umount path */
	RES_LOOP,	/* detach loop device path */
	RES_DM,		/* dmsetup remove val */
	RES_DM_UNDELAY,	/* load table path into dm target val */
	RES_SWAP,	/* swapoff path */
	RES_ZRAM,	/* reset zram id, hot_remove if pid != 0 */
};

struct res {
	enum res_type type;
	pid_t pid;
	int id;
	char path[MGLRU_PATH_LEN];
	char val[128];
};

#define MAX_RES 64

static struct res res_stack[MAX_RES];
static int nr_res;
static pid_t owner_pid;
static char parent_cg[128];
static int cg_seq;

static void block_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGALRM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void restore_signals(sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

static struct res *res_push(enum res_type type, const char *path,
			    const char *val, pid_t pid, int id)
{
	struct res *r;
	sigset_t old;

	block_signals(&old);
	if (nr_res >= MAX_RES) {
		restore_signals(&old);
		ksft_print_msg("cleanup registry full\n");
		return NULL;
	}
	r = &res_stack[nr_res];
	memset(r, 0, sizeof(*r));
	r->type = type;
	r->pid = pid;
	r->id = id;
	if (path)
		snprintf(r->path, sizeof(r->path), "%s", path);
	if (val)
		snprintf(r->val, sizeof(r->val), "%s", val);
	nr_res++;
	restore_signals(&old);
	return r;
}

static int write_str(const char *path, const char *val)
{
	ssize_t len = strlen(val);
	int fd, ret;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ret = write(fd, val, len) == len ? 0 : -errno;
	close(fd);
	return ret;
}

static int read_str(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return 0;
}

#define MAX_ARGS 16

/*
 * Run a command given as a NULL-terminated argument list, optionally
 * capturing its stdout; returns the exit status.
 */
static int run_cmd(char *out, size_t outlen, bool quiet, const char *arg0, ...)
{
	const char *argv[MAX_ARGS];
	int pipefd[2] = { -1, -1 };
	int status, devnull, argc;
	size_t off = 0;
	va_list ap;
	pid_t pid;
	ssize_t n;

	argv[0] = arg0;
	va_start(ap, arg0);
	for (argc = 1; argc < MAX_ARGS; argc++) {
		argv[argc] = va_arg(ap, const char *);
		if (!argv[argc])
			break;
	}
	va_end(ap);
	if (argc == MAX_ARGS)
		return -1;

	if (out && pipe(pipefd))
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		sigset_t empty;

		/*
		 * A group-wide SIGTERM from the kselftest runner's timeout must
		 * not kill a tool half-way through creating or removing a
		 * device: the test's own cleanup runs the tools it needs.
		 */
		setpgid(0, 0);
		sigemptyset(&empty);
		sigprocmask(SIG_SETMASK, &empty, NULL);
		devnull = open("/dev/null", O_RDWR);
		if (out) {
			dup2(pipefd[1], 1);
			close(pipefd[0]);
			close(pipefd[1]);
		} else if (devnull >= 0) {
			/* Keep KTAP on stdout clean. */
			dup2(quiet ? devnull : 2, 1);
		}
		if (quiet && devnull >= 0)
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
		out[off] = '\0';
		while (off > 0 && isspace((unsigned char)out[off - 1]))
			out[--off] = '\0';
		close(pipefd[0]);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void kill_memcg_members(const char *cg)
{
	char path[MGLRU_PATH_LEN + 32], buf[4096], *p, *end;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/cgroup.kill", cg);
	if (!write_str(path, "1"))
		return;
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (p = buf; *p; p = end) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		if (pid > 0)
			kill(pid, SIGKILL);
		while (*end == '\n')
			end++;
	}
}

static void release_memcg(const char *cg)
{
	int i;

	for (i = 0; i < 200; i++) {
		if (!rmdir(cg) || errno == ENOENT)
			return;
		if (errno != EBUSY)
			break;
		kill_memcg_members(cg);
		mglru_sleep_ms(50);
	}
	ksft_print_msg("cleanup: cannot remove %s: %s\n", cg, strerror(errno));
}

static void release_pid(pid_t pid)
{
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

static void release_mount(const char *path)
{
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

static void release_loop(const char *dev)
{
	int fd, i;

	fd = open(dev, O_RDONLY);
	if (fd < 0)
		return;
	for (i = 0; i < 50; i++) {
		if (!ioctl(fd, LOOP_CLR_FD, 0) || errno == ENXIO)
			break;
		mglru_sleep_ms(100);
	}
	close(fd);
}

/*
 * The target can stay open for a while after its filesystem is unmounted:
 * udev probes the device on every change event, and a killed writer's last
 * bios drain through the delay. Retry for up to ten seconds.
 */
static void release_dm(const char *name)
{
	int i;

	for (i = 0; i < 40; i++) {
		if (!run_cmd(NULL, 0, true, "dmsetup", "remove", "--retry",
			     name, NULL))
			return;
		run_cmd(NULL, 0, true, "udevadm", "settle", NULL);
		mglru_sleep_ms(250);
	}
	ksft_print_msg("cleanup: dmsetup remove %s failed\n", name);
}

/*
 * Before the filesystem on a dm-delay target is unmounted, switch the target
 * to a zero delay so the final writeback does not wait out every delay.
 * Suspending dm-delay also flushes the bios it is holding.
 */
static void undelay_dm(const char *name, const char *table)
{
	if (run_cmd(NULL, 0, true, "dmsetup", "suspend", name, NULL))
		return;
	run_cmd(NULL, 0, true, "dmsetup", "reload", name, "--table", table,
		NULL);
	run_cmd(NULL, 0, true, "dmsetup", "resume", name, NULL);
}

static void release_zram(int id, bool hot_remove)
{
	char path[64], val[16];

	snprintf(path, sizeof(path), "/sys/block/zram%d/reset", id);
	write_str(path, "1");
	if (hot_remove) {
		snprintf(val, sizeof(val), "%d", id);
		write_str("/sys/class/zram-control/hot_remove", val);
	}
}

static void res_release(struct res *r)
{
	switch (r->type) {
	case RES_NONE:
		break;
	case RES_RESTORE:
		if (write_str(r->path, r->val))
			ksft_print_msg("cleanup: cannot restore %s to %s\n",
				       r->path, r->val);
		break;
	case RES_MEMCG:
		release_memcg(r->path);
		break;
	case RES_PID:
		release_pid(r->pid);
		break;
	case RES_DIR:
		rmdir(r->path);
		break;
	case RES_MOUNT:
		release_mount(r->path);
		break;
	case RES_LOOP:
		release_loop(r->path);
		break;
	case RES_DM:
		release_dm(r->val);
		break;
	case RES_DM_UNDELAY:
		undelay_dm(r->val, r->path);
		break;
	case RES_SWAP:
		if (swapoff(r->path))
			ksft_print_msg("cleanup: swapoff %s: %s\n", r->path,
				       strerror(errno));
		break;
	case RES_ZRAM:
		release_zram(r->id, r->pid != 0);
		break;
	}
}

int mglru_cleanup_mark(void)
{
	return nr_res;
}

void mglru_cleanup_to(int mark)
{
	sigset_t old;

	if (getpid() != owner_pid)
		return;
	block_signals(&old);
	while (nr_res > mark) {
		nr_res--;
		res_release(&res_stack[nr_res]);
	}
	restore_signals(&old);
}

static void cleanup_all(void)
{
	mglru_cleanup_to(0);
}

static void signal_handler(int sig)
{
	static const char msg[] = "# caught signal, cleaning up\n";

	if (getpid() == owner_pid) {
		/* Async-signal-safe; a failed write is not worth handling. */
		if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
			errno = 0;
		mglru_cleanup_to(0);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Drop a registered pid once the caller has reaped it. Entries are never
 * moved (callers keep pointers to memcg paths), only marked as released.
 */
static void res_forget_pid(pid_t pid)
{
	sigset_t old;
	int i;

	block_signals(&old);
	for (i = nr_res - 1; i >= 0; i--) {
		if (res_stack[i].type == RES_PID && res_stack[i].pid == pid) {
			res_stack[i].type = RES_NONE;
			break;
		}
	}
	while (nr_res > 0 && res_stack[nr_res - 1].type == RES_NONE)
		nr_res--;
	restore_signals(&old);
}

/* ------------------------------------------------------------------ */

/* One line on stderr, exit status 1 (not a kselftest code). */
int mglru_parse_mode(const char *arg, unsigned int *mask)
{
	int i;

	for (i = 0; i < MGLRU_NR_MODES; i++) {
		if (!strcmp(arg, mglru_mode_names[i])) {
			*mask = 1U << i;
			return 0;
		}
	}
	return -1;
}

int mglru_parse_ulong(const char *arg, unsigned long *val)
{
	char *end;

	errno = 0;
	*val = strtoul(arg, &end, 0);
	if (errno || end == arg || *end || arg[0] == '-')
		return -1;
	return 0;
}

/* Sizes take an optional K, M or G suffix; plain numbers are MiB. */
int mglru_parse_size(const char *arg, unsigned long *bytes)
{
	unsigned long val, shift = 20;
	char *end;

	errno = 0;
	val = strtoul(arg, &end, 0);
	if (errno || end == arg || arg[0] == '-')
		return -1;
	switch (toupper((unsigned char)*end)) {
	case '\0':
	case 'M':
		break;
	case 'K':
		shift = 10;
		break;
	case 'G':
		shift = 30;
		break;
	default:
		return -1;
	}
	if (*end && end[1] && !(toupper((unsigned char)end[1]) == 'B' &&
				!end[2]))
		return -1;
	if (!val || val > (ULONG_MAX >> shift))
		return -1;
	*bytes = val << shift;
	return 0;
}

int mglru_opt_mode(const char *arg, void *val)
{
	return mglru_parse_mode(arg, val);
}

int mglru_opt_size(const char *arg, void *val)
{
	return mglru_parse_size(arg, val);
}

int mglru_opt_ulong(const char *arg, void *val)
{
	return mglru_parse_ulong(arg, val);
}

void mglru_opts_usage(const char *prog, const struct mglru_opt *opts)
{
	bool sizes = false;

	fprintf(stderr, "usage: %s", prog);
	for (; opts->name; opts++) {
		fprintf(stderr, " [-%c %s]", opts->name, opts->arg);
		sizes |= opts->parse == mglru_opt_size;
	}
	fprintf(stderr, "%s\n", sizes ? " (sizes: MiB or K/M/G suffix)" : "");
	exit(1);
}

void mglru_parse_opts(int argc, char **argv, const struct mglru_opt *opts)
{
	char optstring[2 * 26 * 2 + 2] = "";
	const struct mglru_opt *o;
	const char *mode;
	size_t len = 0;
	int c;

	for (o = opts; o->name && len + 3 < sizeof(optstring); o++) {
		optstring[len++] = o->name;
		optstring[len++] = ':';
	}
	optstring[len++] = 'h';
	optstring[len] = '\0';

	/*
	 * The kselftest runner passes no arguments: MGLRU_MODE in the
	 * environment picks the LRU mode instead, as -m does (-m wins).
	 */
	mode = getenv("MGLRU_MODE");
	if (mode && *mode) {
		for (o = opts; o->name && o->parse != mglru_opt_mode; o++)
			;
		if (!o->name || mglru_parse_mode(mode, o->val)) {
			fprintf(stderr, "%s: MGLRU_MODE=%s: expected mglru or classic\n",
				argv[0], mode);
			exit(1);
		}
	}

	opterr = 0;
	while ((c = getopt(argc, argv, optstring)) != -1) {
		for (o = opts; o->name && o->name != c; o++)
			;
		if (!o->name || o->parse(optarg, o->val))
			mglru_opts_usage(argv[0], opts);
	}
	if (optind < argc)
		mglru_opts_usage(argv[0], opts);
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

void mglru_metric(const char *test, const char *key, const char *fmt, ...)
{
	va_list ap;

	printf("# metric %s %s=", test, key);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

void *mglru_shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	/* Populate in the harness so children never charge it. */
	memset(p, 0, size);
	return p;
}

static __printf(1, 2) int skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(mglru_skip_reason, sizeof(mglru_skip_reason), fmt, ap);
	va_end(ap);
	return MGLRU_SKIP;
}

int mglru_write(const char *path, const char *val)
{
	int ret = write_str(path, val);

	if (ret) {
		ksft_print_msg("write %s to %s: %s\n", val, path,
			       strerror(-ret));
		return MGLRU_ERR;
	}
	return MGLRU_OK;
}

int mglru_write_restore(const char *path, const char *val)
{
	char old[128];
	int ret;

	ret = read_str(path, old, sizeof(old));
	if (ret) {
		ksft_print_msg("read %s: %s\n", path, strerror(-ret));
		return MGLRU_ERR;
	}
	if (!res_push(RES_RESTORE, path, old, 0, 0))
		return MGLRU_ERR;
	ret = write_str(path, val);
	if (ret) {
		ksft_print_msg("write %s to %s: %s\n", val, path,
			       strerror(-ret));
		return MGLRU_ERR;
	}
	return MGLRU_OK;
}

static bool have_tool(const char *tool)
{
	const char *path = getenv("PATH");
	char buf[1024], file[MGLRU_PATH_LEN + 64], *dir, *save;

	if (!path || !*path)
		path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	/* Tools live in sbin, which non-login shells may lack. */
	snprintf(buf, sizeof(buf), "%s:/usr/sbin:/sbin", path);
	for (dir = strtok_r(buf, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(file, sizeof(file), "%s/%s", dir, tool);
		if (!access(file, X_OK))
			return true;
	}
	return false;
}

int mglru_need_tools(const char * const *tools)
{
	for (; *tools; tools++) {
		if (!have_tool(*tools))
			return skip("%s not found", *tools);
	}
	return MGLRU_OK;
}

int mglru_init(void)
{
	char buf[256], path_buf[4096];
	char *path;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid())
		return skip("must be run as root");
	if (access(LRU_GEN_ENABLED, W_OK))
		return skip("%s not available (CONFIG_LRU_GEN=n?)",
			    LRU_GEN_ENABLED);
	if (read_str(CG_ROOT "/cgroup.controllers", buf, sizeof(buf)))
		return skip("cgroup v2 not mounted at %s", CG_ROOT);
	if (!strstr(buf, "memory"))
		return skip("cgroup v2 memory controller not available");

	/* Keep the sbin tools reachable for execvp(). */
	path = getenv("PATH");
	snprintf(path_buf, sizeof(path_buf), "%s:/usr/sbin:/sbin",
		 path ? path : "/usr/bin:/bin");
	setenv("PATH", path_buf, 1);

	owner_pid = getpid();
	atexit(cleanup_all);
	signal(SIGTERM, signal_handler);
	signal(SIGINT, signal_handler);
	signal(SIGALRM, signal_handler);
	signal(SIGHUP, signal_handler);

	/* Restore lru_gen/enabled last, after every memcg is gone. */
	if (read_str(LRU_GEN_ENABLED, buf, sizeof(buf)) ||
	    !res_push(RES_RESTORE, LRU_GEN_ENABLED, buf, 0, 0))
		return MGLRU_ERR;

	if (cg_read_strstr(CG_ROOT, "cgroup.subtree_control", "memory") &&
	    cg_write(CG_ROOT, "cgroup.subtree_control", "+memory")) {
		ksft_print_msg("cannot enable +memory at %s\n", CG_ROOT);
		return skip("cannot enable the memory controller at %s",
			    CG_ROOT);
	}
	snprintf(parent_cg, sizeof(parent_cg), "%s/mglru_selftest.%d",
		 CG_ROOT, owner_pid);
	if (mkdir(parent_cg, 0755)) {
		ksft_print_msg("mkdir %s: %s\n", parent_cg, strerror(errno));
		return MGLRU_ERR;
	}
	if (!res_push(RES_MEMCG, parent_cg, NULL, 0, 0))
		return MGLRU_ERR;
	if (cg_write(parent_cg, "cgroup.subtree_control", "+memory")) {
		ksft_print_msg("cannot enable +memory in %s\n", parent_cg);
		return MGLRU_ERR;
	}
	return MGLRU_OK;
}

int mglru_set_lru_mode(int mode)
{
	const char *val = mode == MGLRU_MODE_MGLRU ? "y" : "n";
	char buf[64];
	int ret;

	ret = write_str(LRU_GEN_ENABLED, val);
	if (ret) {
		ksft_print_msg("write %s to %s: %s\n", val, LRU_GEN_ENABLED,
			       strerror(-ret));
		return MGLRU_ERR;
	}
	if (!read_str(LRU_GEN_ENABLED, buf, sizeof(buf)))
		ksft_print_msg("%s = %s (%s)\n", LRU_GEN_ENABLED, buf,
			       mglru_mode_names[mode]);
	return MGLRU_OK;
}

/* ------------------------------------------------------------------ */

static int cg_write_long(const char *cg, const char *file, long val)
{
	char buf[32];

	if (val < 0)
		snprintf(buf, sizeof(buf), "max");
	else
		snprintf(buf, sizeof(buf), "%ld", val);
	return cg_write(cg, file, buf);
}

/* @max / @swap_max < 0 mean "max"; returns the memcg path or NULL. */
const char *mglru_memcg_create(const char *name, long max, long swap_max)
{
	char path[MGLRU_PATH_LEN];
	struct res *r;

	snprintf(path, sizeof(path), "%s/%s.%d", parent_cg, name, cg_seq++);
	if (mkdir(path, 0755)) {
		ksft_print_msg("mkdir %s: %s\n", path, strerror(errno));
		return NULL;
	}
	r = res_push(RES_MEMCG, path, NULL, 0, 0);
	if (!r) {
		rmdir(path);
		return NULL;
	}
	if (cg_write_long(r->path, "memory.max", max) ||
	    cg_write_long(r->path, "memory.swap.max", swap_max)) {
		ksft_print_msg("cannot set limits on %s\n", r->path);
		return NULL;
	}
	return r->path;
}

long mglru_memcg_stat(const char *cg, const char *key)
{
	return cg_read_key_long(cg, "memory.stat", key);
}

long mglru_memcg_event(const char *cg, const char *key)
{
	char buf[1024], needle[64], *p;

	if (cg_read(cg, "memory.events", buf, sizeof(buf)))
		return -1;
	snprintf(needle, sizeof(needle), "%s ", key);
	for (p = buf; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, needle, strlen(needle)))
			return atol(p + strlen(needle));
	}
	return -1;
}

long mglru_vmstat(const char *key)
{
	char line[256];
	size_t klen = strlen(key);
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

/* ------------------------------------------------------------------ */

static pid_t spawn(const char *cg)
{
	pid_t ppid = getpid();
	sigset_t old, empty;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	block_signals(&old);
	pid = fork();
	if (pid < 0) {
		restore_signals(&old);
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
	/* Registered before signals are unblocked: never leaked. */
	res_push(RES_PID, NULL, NULL, pid, 0);
	restore_signals(&old);
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

pid_t mglru_spawn_exec(const char *cg, const char *arg0, ...)
{
	const char *argv[MAX_ARGS];
	va_list ap;
	int fd, argc;
	pid_t pid;

	argv[0] = arg0;
	va_start(ap, arg0);
	for (argc = 1; argc < MAX_ARGS; argc++) {
		argv[argc] = va_arg(ap, const char *);
		if (!argv[argc])
			break;
	}
	va_end(ap);
	if (argc == MAX_ARGS)
		return -1;

	pid = spawn(cg);
	if (pid == 0) {
		/* Keep the KTAP stream clean: tool chatter goes to stderr. */
		fd = dup(2);
		if (fd >= 0)
			dup2(fd, 1);
		execvp(argv[0], (char * const *)argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

/* Returns 1 if the child exited (status set), 0 on timeout, -1 on error. */
int mglru_wait(pid_t pid, int *status, double timeout_s)
{
	double end = mglru_now() + timeout_s;
	pid_t ret;

	for (;;) {
		ret = waitpid(pid, status, WNOHANG);
		if (ret == pid) {
			res_forget_pid(pid);
			return 1;
		}
		if (ret < 0 && errno != EINTR)
			return -1;
		if (mglru_now() >= end)
			return 0;
		mglru_sleep_ms(20);
	}
}

int mglru_reap(pid_t pid, int *status)
{
	pid_t ret;

	while ((ret = waitpid(pid, status, 0)) < 0 && errno == EINTR)
		;
	res_forget_pid(pid);
	return ret == pid ? 0 : -1;
}

void mglru_kill(pid_t pid)
{
	kill(pid, SIGKILL);
	mglru_reap(pid, NULL);
}

/* ------------------------------------------------------------------ */

static bool have_dm_delay(void)
{
	char out[4096];
	int i;

	for (i = 0; i < 2; i++) {
		if (!run_cmd(out, sizeof(out), true, "dmsetup", "targets", NULL) &&
		    (!strncmp(out, "delay ", 6) || strstr(out, "\ndelay ")))
			return true;
		if (i == 0)
			run_cmd(NULL, 0, true, "modprobe", "dm-delay", NULL);
	}
	return false;
}

/*
 * tmpfs file -> loop device -> mkfs.ext4 -> optional dm-delay -> mount.
 * The filesystem is created on the loop device before dm-delay is stacked
 * on it (same on-disk result, without a delayed mkfs). The backing file is
 * fully allocated by the harness so loop writes never charge the test memcg
 * for tmpfs pages.
 */
int mglru_bdev_setup(struct mglru_bdev *b, unsigned long size,
		     long write_delay_ms)
{
	static const char * const tools[] = { "losetup", "mkfs.ext4", NULL };
	static const char * const dm_tools[] = { "dmsetup", NULL };
	char opts[64], sectors[32], table[256];
	sigset_t old;
	int fd, ret;

	memset(b, 0, sizeof(*b));
	ret = mglru_need_tools(tools);
	if (ret)
		return ret;
	if (write_delay_ms >= 0) {
		ret = mglru_need_tools(dm_tools);
		if (ret)
			return ret;
		if (!have_dm_delay())
			return skip("dm-delay target not available");
	}

	snprintf(b->base, sizeof(b->base), "/tmp/mglru_selftest.XXXXXX");
	if (!mkdtemp(b->base)) {
		ksft_print_msg("mkdtemp: %s\n", strerror(errno));
		return MGLRU_ERR;
	}
	res_push(RES_DIR, b->base, NULL, 0, 0);

	snprintf(b->tmpfs, sizeof(b->tmpfs), "%s/tmpfs", b->base);
	snprintf(b->mnt, sizeof(b->mnt), "%s/mnt", b->base);
	if (mkdir(b->tmpfs, 0700) || mkdir(b->mnt, 0755)) {
		ksft_print_msg("mkdir: %s\n", strerror(errno));
		return MGLRU_ERR;
	}
	res_push(RES_DIR, b->tmpfs, NULL, 0, 0);
	res_push(RES_DIR, b->mnt, NULL, 0, 0);

	snprintf(opts, sizeof(opts), "size=%luk,mode=0700",
		 (size + 4 * SZ_1M) >> 10);
	if (mount("tmpfs", b->tmpfs, "tmpfs", 0, opts)) {
		ksft_print_msg("mount tmpfs: %s\n", strerror(errno));
		return MGLRU_ERR;
	}
	res_push(RES_MOUNT, b->tmpfs, NULL, 0, 0);

	snprintf(b->backing, sizeof(b->backing), "%s/tmpfs/disk.img",
		 b->base);
	fd = open(b->backing, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || fallocate(fd, 0, 0, size)) {
		ksft_print_msg("backing file: %s\n", strerror(errno));
		if (fd >= 0)
			close(fd);
		return MGLRU_ERR;
	}
	close(fd);

	/*
	 * Signals stay blocked from creating each device to registering it,
	 * so a SIGTERM in between cannot leave it behind.
	 */
	block_signals(&old);
	ret = run_cmd(b->loop, sizeof(b->loop), false, "losetup", "--find",
		      "--show", b->backing, NULL);
	if (!ret && !strncmp(b->loop, "/dev/loop", 9))
		res_push(RES_LOOP, b->loop, NULL, 0, 0);
	restore_signals(&old);
	if (ret || strncmp(b->loop, "/dev/loop", 9)) {
		ksft_print_msg("losetup failed (%s)\n", b->loop);
		return MGLRU_ERR;
	}
	if (run_cmd(NULL, 0, false, "mkfs.ext4", "-q", "-F", "-E",
		    "lazy_itable_init=0,lazy_journal_init=0", b->loop, NULL)) {
		ksft_print_msg("mkfs.ext4 %s failed\n", b->loop);
		return MGLRU_ERR;
	}
	snprintf(b->dev, sizeof(b->dev), "%s", b->loop);

	if (write_delay_ms >= 0) {
		snprintf(b->dm_name, sizeof(b->dm_name), "mglru_selftest_%d",
			 getpid());
		snprintf(sectors, sizeof(sectors), "%lu", size >> 9);
		snprintf(table, sizeof(table), "0 %s delay %s 0 0 %s 0 %ld",
			 sectors, b->loop, b->loop, write_delay_ms);
		block_signals(&old);
		ret = run_cmd(NULL, 0, false, "dmsetup", "create", b->dm_name,
			      "--table", table, NULL);
		if (!ret)
			res_push(RES_DM, NULL, b->dm_name, 0, 0);
		restore_signals(&old);
		if (ret) {
			ksft_print_msg("dmsetup create %s failed\n", b->dm_name);
			return MGLRU_ERR;
		}
		snprintf(b->dev, sizeof(b->dev), "/dev/mapper/%s", b->dm_name);
		if (access(b->dev, F_OK))
			run_cmd(NULL, 0, true, "dmsetup", "mknodes", b->dm_name,
				NULL);
		if (access(b->dev, F_OK)) {
			ksft_print_msg("%s missing\n", b->dev);
			return MGLRU_ERR;
		}
	}

	block_signals(&old);
	ret = mount(b->dev, b->mnt, "ext4", 0, NULL);
	if (ret) {
		restore_signals(&old);
		ksft_print_msg("mount %s: %s\n", b->dev, strerror(errno));
		return MGLRU_ERR;
	}
	res_push(RES_MOUNT, b->mnt, NULL, 0, 0);
	if (write_delay_ms >= 0) {
		snprintf(table, sizeof(table), "0 %s delay %s 0 0 %s 0 0",
			 sectors, b->loop, b->loop);
		res_push(RES_DM_UNDELAY, table, b->dm_name, 0, 0);
	}
	restore_signals(&old);
	return MGLRU_OK;
}

/* Drop the filesystem's page cache: umount and mount again. */
int mglru_bdev_remount(struct mglru_bdev *b)
{
	if (umount2(b->mnt, 0)) {
		ksft_print_msg("umount %s: %s\n", b->mnt, strerror(errno));
		return MGLRU_ERR;
	}
	if (mount(b->dev, b->mnt, "ext4", 0, NULL)) {
		ksft_print_msg("mount %s: %s\n", b->dev, strerror(errno));
		return MGLRU_ERR;
	}
	return MGLRU_OK;
}

/* Written by the harness, so its page cache is charged outside the tests. */
int mglru_create_file(const char *path, unsigned long size)
{
	unsigned long done;
	char *buf;
	int fd;

	buf = malloc(SZ_1M);
	if (!buf)
		return MGLRU_ERR;
	memset(buf, 0x5a, SZ_1M);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		goto err;
	for (done = 0; done < size; done += SZ_1M) {
		size_t len = size - done < SZ_1M ? size - done : SZ_1M;

		if (write(fd, buf, len) != (ssize_t)len)
			goto err;
	}
	if (fsync(fd))
		goto err;
	close(fd);
	free(buf);
	return MGLRU_OK;
err:
	ksft_print_msg("create %s: %s\n", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(buf);
	return MGLRU_ERR;
}

int mglru_zram_swap_setup(unsigned long size)
{
	static const char * const tools[] = { "mkswap", NULL };
	char path[64], buf[64], dev[32];
	bool hot = false;
	int id = 0, ret;

	ret = mglru_need_tools(tools);
	if (ret)
		return ret;
	if (access("/sys/class/zram-control", F_OK) &&
	    access("/sys/block/zram0", F_OK))
		run_cmd(NULL, 0, true, "modprobe", "zram", "num_devices=0",
			NULL);
	if (!read_str("/sys/class/zram-control/hot_add", buf, sizeof(buf))) {
		id = atoi(buf);
		hot = true;
	} else if (!read_str("/sys/block/zram0/disksize", buf, sizeof(buf))) {
		if (strcmp(buf, "0"))
			return skip("zram0 is in use and zram hot_add is missing");
	} else {
		return skip("zram not available (CONFIG_ZRAM=n?)");
	}
	res_push(RES_ZRAM, NULL, NULL, hot, id);

	snprintf(path, sizeof(path), "/sys/block/zram%d/disksize", id);
	snprintf(buf, sizeof(buf), "%lu", size);
	ret = write_str(path, buf);
	if (ret) {
		ksft_print_msg("write %s: %s\n", path, strerror(-ret));
		return MGLRU_ERR;
	}
	snprintf(dev, sizeof(dev), "/dev/zram%d", id);
	if (run_cmd(NULL, 0, true, "mkswap", dev, NULL)) {
		ksft_print_msg("mkswap %s failed\n", dev);
		return MGLRU_ERR;
	}
	if (swapon(dev, 0)) {
		ksft_print_msg("swapon %s: %s\n", dev, strerror(errno));
		return MGLRU_ERR;
	}
	res_push(RES_SWAP, dev, NULL, 0, 0);
	return MGLRU_OK;
}
