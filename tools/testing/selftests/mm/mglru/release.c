// SPDX-License-Identifier: GPL-2.0
/*
 * Each kind of thing a run creates: how it is written in the journal, and
 * how it is undone, for the run itself (its cleanup stack) or for a later
 * one (the sweep of a dead run's journal).
 * Every release is a no-op when there is nothing to undo, and acts only on
 * what is the run's by more than its name: a loop device backed by a file
 * in its scratch directory, no path through a symlink.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
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

/* The kinds that need a path alone (a loop device: its backing file). */
static bool path_only(enum mglru_res type)
{
	return type == RES_MEMCG || type == RES_DIR || type == RES_MOUNT ||
	       type == RES_LOOP || type == RES_SWAP;
}

/* @u in a journal line's columns, as journal.h gives them for its type. */
void mglru_undo_to_entry(const struct mglru_undo *u, struct mglru_entry *e)
{
	memset(e, 0, sizeof(*e));
	e->type = u->type;
	if (path_only(u->type))
		snprintf(e->path, sizeof(e->path), "%s", u->path);
	switch (u->type) {
	case RES_RESTORE:
		snprintf(e->path, sizeof(e->path), "%s", u->knob.path);
		snprintf(e->val, sizeof(e->val), "%s", u->knob.old);
		break;
	case RES_PID:
		e->id = u->pid;
		break;
	case RES_DM_UNDELAY:
		snprintf(e->path, sizeof(e->path), "%s", u->dm.table);
		snprintf(e->val, sizeof(e->val), "%s", u->dm.name);
		break;
	case RES_DM:
		snprintf(e->val, sizeof(e->val), "%s", u->dm.name);
		break;
	case RES_ZRAM:
		e->id = u->zram.id;
		snprintf(e->val, sizeof(e->val), "%s", u->zram.hot ? "hot" : "");
		break;
	default:
		break;
	}
}

/* The journal line @e, taken by the journal's rules, as what it undoes. */
void mglru_undo_of_entry(const struct mglru_entry *e, struct mglru_undo *u)
{
	memset(u, 0, sizeof(*u));
	u->type = e->type;
	if (path_only(e->type))
		memcpy(u->path, e->path, sizeof(u->path));
	switch (e->type) {
	case RES_RESTORE:
		memcpy(u->knob.path, e->path, sizeof(u->knob.path));
		memcpy(u->knob.old, e->val, sizeof(u->knob.old));
		break;
	case RES_PID:
		u->pid = e->id;
		break;
	case RES_DM_UNDELAY:
		memcpy(u->dm.table, e->path, sizeof(u->dm.table));
		memcpy(u->dm.name, e->val, sizeof(u->dm.name));
		break;
	case RES_DM:
		memcpy(u->dm.name, e->val, sizeof(u->dm.name));
		break;
	case RES_ZRAM:
		u->zram.id = e->id;
		u->zram.hot = !strcmp(e->val, "hot");
		break;
	default:
		break;
	}
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

/* Members, or children: what makes rmdir() of a cgroup v2 say EBUSY. */
static bool busy(const char *cg)
{
	return !cg_read_strstr(cg, "cgroup.events", "populated 1") ||
	       cg_read_key_long(cg, "cgroup.stat", "nr_descendants ") > 0;
}

/*
 * cg_destroy() kills the members and retries for as long as the memcg is
 * busy: it is called once they are gone, so that a member stuck in the
 * kernel, or a child memcg left behind, cannot hang this run's cleanup, nor
 * every later run's sweep. A memcg gone already is a no-op.
 */
static void release_memcg(const struct mglru_undo *r, pid_t pid)
{
	const char *cg = r->path;
	int i;

	for (i = 0; i < 200 && busy(cg); i++) {
		cg_killall(cg);
		mglru_sleep_ms(50);
	}
	if (i == 200)
		errno = EBUSY;
	else if (!cg_destroy(cg))
		return;
	ksft_print_msg("cleanup: cannot remove %s: %s\n", cg, strerror(errno));
}

static void release_pid(const struct mglru_undo *r, pid_t run)
{
	pid_t pid = r->pid;
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
static bool below_home(const struct mglru_undo *r)
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

static void release_mount(const struct mglru_undo *r, pid_t pid)
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
static void release_loop(const struct mglru_undo *r, pid_t pid)
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
static void release_dm(const struct mglru_undo *r, pid_t pid)
{
	const char *name = r->dm.name;
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
static void undelay_dm(const struct mglru_undo *r, pid_t pid)
{
	const char *name = r->dm.name, *table = r->dm.table;
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

static void release_zram(const struct mglru_undo *r, pid_t pid)
{
	char path[64], val[16];
	int id = r->zram.id;

	snprintf(path, sizeof(path), "/sys/block/zram%d/reset", id);
	mglru_write_str(path, "1");
	if (r->zram.hot) {
		snprintf(val, sizeof(val), "%d", id);
		mglru_write_str("/sys/class/zram-control/hot_remove", val);
	}
}

static void release_restore(const struct mglru_undo *r, pid_t pid)
{
	const char *path = r->knob.path;

	if (!strncmp(path, "/sys/block/loop", 15) &&
	    !own_loop(path + 11, pid)) {
		ksft_print_msg("cleanup: refused restore %s: not the run's loop device\n",
			       path);
		return;
	}
	if (mglru_write_str(path, r->knob.old))
		ksft_print_msg("cleanup: cannot restore %s to %s\n", path,
			       r->knob.old);
}

static void release_dir(const struct mglru_undo *r, pid_t pid)
{
	if (below_home(r))
		rmdir(r->path);
}

static void release_swap(const struct mglru_undo *r, pid_t pid)
{
	if (swapoff(r->path) && errno != EINVAL && errno != ENOENT)
		ksft_print_msg("cleanup: swapoff %s: %s\n", r->path,
			       strerror(errno));
}

/* How each type is undone; @pid is the run that created it. */
static void (* const releases[MGLRU_NR_RES])(const struct mglru_undo *r,
					      pid_t pid) = {
	[RES_RESTORE] = release_restore, [RES_MEMCG] = release_memcg,
	[RES_PID] = release_pid, [RES_DIR] = release_dir,
	[RES_MOUNT] = release_mount, [RES_LOOP] = release_loop,
	[RES_DM] = release_dm, [RES_DM_UNDELAY] = undelay_dm,
	[RES_SWAP] = release_swap, [RES_ZRAM] = release_zram,
};

/* Undo @r, created by the run @pid (this run's or a dead one's). */
void mglru_release(const struct mglru_undo *r, pid_t pid)
{
	if (releases[r->type])
		releases[r->type](r, pid);
}
