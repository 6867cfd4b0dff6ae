/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The MGLRU regression selftests. Each program is a scenario: its options,
 * what it needs set up (struct mglru_setup) and a run function holding its
 * workload, metrics and verdict. mglru_main() runs each LRU mode in a child;
 * the parent holds only the lock and, however the child ends, tears down what
 * it made by the fixed names below, as does the next run after a kill.
 */
#ifndef __MGLRU_H
#define __MGLRU_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "../../kselftest.h"
/* has no include guard: a test gets cg_*() from here, not on its own */
#include "cgroup_util.h"

#define SZ_1M		0x100000UL
#define MGLRU_PATH_LEN	256

/* root's alone: the lock, the state file (home.c), the scratch mounts */
#define MGLRU_HOME	"/run/mglru-selftest"
#define MGLRU_STATE	MGLRU_HOME "/state"
#define MGLRU_SCRATCH	MGLRU_HOME "/scratch"
#define MGLRU_TMPFS	MGLRU_SCRATCH "/tmpfs"
#define MGLRU_DISK	MGLRU_TMPFS "/disk.img"	/* the loop device's file */
#define MGLRU_MNT	MGLRU_SCRATCH "/mnt"	/* the ext4 on it */
#define MGLRU_DEBUGFS	MGLRU_SCRATCH "/debugfs"
#define MGLRU_TRACEFS	MGLRU_SCRATCH "/tracefs"
/* the parent memcg below the cgroup v2 root, and the dm target */
#define MGLRU_NAME	"mglru_selftest"

enum mglru_mode { MGLRU_MODE_MGLRU, MGLRU_MODE_CLASSIC, MGLRU_NR_MODES };

struct mglru_ctx {
	char test[64];			/* <scenario>_<mode> */
	enum mglru_mode mode;
	const char *cg;			/* the workload's memcg */
	char loop[64];			/* the loop device, /dev/loopN */
	char file[MGLRU_PATH_LEN];	/* the data file on ext4 */
	unsigned int slow;		/* 3 with KSFT_MACHINE_SLOW=yes, else 1 */
};

/* What a scenario needs before its run function starts; zero: not needed. */
struct mglru_setup {
	unsigned long memcg_max;	/* the workload memcg's memory.max */
	unsigned long data_size;	/* what the workload puts on ext4 */
	unsigned long fs_free;		/* ext4 space kept free beyond it */
	bool data_file;			/* a file of data_size, cache dropped */
	const char *mount_opts;		/* ext4's mount options, or NULL */
	bool swap;			/* memory.swap.max is max (else 0) */
	unsigned long zram_size;	/* zram swap device */
	unsigned long swapped_max;	/* the most the workload can swap */
	const char * const *tools;	/* commands the workload runs */
	/* a device stacked on the loop device, under ext4: its path in @dev */
	int (*stack)(struct mglru_ctx *ctx, unsigned long size, char *dev);
};

struct mglru_opt {
	char name;			/* option letter */
	const char *arg;		/* the argument's name; NULL: a flag */
	int (*parse)(const char *arg, void *val);	/* 0 or -1 */
	void *val;
};

struct mglru_scenario {
	const char *name;
	struct mglru_setup *setup;
	const struct mglru_opt *opts;	/* the scenario's options, { 0 } ends */
	int (*configure)(void);		/* check options, complete setup; -1 */
	void (*describe)(void);		/* the configuration, as diagnostics */
	/* workload, metrics, verdict: KSFT_PASS, KSFT_FAIL, KSFT_SKIP or -1 */
	int (*run)(struct mglru_ctx *ctx);
};

#define MGLRU_SIZE(c, s, field)	{ c, #field, mglru_opt_size, &(s).field }
#define MGLRU_ULONG(c, s, field) { c, #field, mglru_opt_ulong, &(s).field }

/* a counter of the memcg @cg; @key a string literal */
#define mglru_memcg_stat(cg, key)  cg_read_key_long(cg, "memory.stat", key " ")
#define mglru_memcg_event(cg, key) cg_read_key_long(cg, "memory.events", key " ")

/* main.c */
int mglru_main(int argc, char **argv, const struct mglru_scenario *s);

/* util.c: files, clock, commands, signals, messages, options, processes */
int mglru_write(const char *path, const char *val);
int mglru_read_str(const char *path, char *buf, size_t len);
unsigned long mglru_meminfo_kib(const char *key);
long mglru_vmstat(const char *key);
double mglru_now(void);
void mglru_sleep_ms(unsigned int ms);
int mglru_run_argv(char *out, size_t outlen, bool quiet,
		   const char * const *argv);
#define mglru_run(out, outlen, quiet, ...)				\
	mglru_run_argv(out, outlen, quiet, (const char * const[]){ __VA_ARGS__, NULL })
int mglru_need_tools(const char * const *tools);
void mglru_catch_signals(bool catch);
int mglru_caught(void);
extern char *mglru_skip_reason;
__printf(1, 2) int mglru_skip(const char *fmt, ...);
__printf(3, 4) void mglru_metric(const struct mglru_ctx *ctx, const char *key,
				 const char *fmt, ...);
__printf(3, 4) bool mglru_check(const struct mglru_ctx *ctx, bool ok,
				const char *fmt, ...);
int mglru_opt_ulong(const char *arg, void *val);
int mglru_opt_size(const char *arg, void *val);
pid_t mglru_spawn(const char *cg, int (*fn)(void *arg), void *arg);
int mglru_exec_argv(void *argv);
pid_t mglru_spawn_argv(const char *cg, const char * const *argv);
int mglru_wait(pid_t pid, int *status, double timeout_s);
void mglru_kill(pid_t pid);
void *mglru_shared_alloc(size_t size);
void mglru_hold(const int *go);
char *mglru_map_file(const char *path, size_t size);
void mglru_touch(char *p, size_t size, size_t stride, bool write);

/* memcg.c: the run's memcgs */
int mglru_memcg_check(void);
const char *mglru_memcg_create(const char *name, long max, long swap_max);
int mglru_memcg_remove(bool report);

/* home.c: the home, its lock, the state file and what it undoes */
int mglru_home_init(unsigned int lock_timeout_s);
int mglru_state_create(void);
int mglru_state_zram(int id);
int mglru_write_restore(const char *path, const char *val);
int mglru_state_undo(bool report);
bool mglru_own_loop(const char *dev);
const char *mglru_scratch_refusal(void);
const char *mglru_debugfs(void);
const char *mglru_tracefs(void);
void mglru_zram_teardown(int id);

/* bdev.c: the scratch tmpfs, loop device, ext4 and zram swap */
unsigned long mglru_tmpfs_size(unsigned long fs_size);
int mglru_bdev_setup(struct mglru_ctx *ctx, const struct mglru_setup *setup,
		     unsigned long size);
int mglru_zram_swap_setup(unsigned long size);
int mglru_bdev_teardown(bool report);

/* trace.c: the samples of one trace event for a few tasks (perf events) */
int mglru_trace_open(const char *event, const pid_t *pids, int nr);
int mglru_trace_field(const char *name);
long mglru_trace_read(void (*fn)(const char *raw, void *arg), void *arg);
void mglru_trace_close(void);

#endif /* __MGLRU_H */
