/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The MGLRU regression selftests. Each test program is a scenario: its
 * options, what it needs set up (struct mglru_setup) and a run function
 * holding its workload, metrics and verdict. scenario.c's mglru_main() does
 * the rest for every test alike: options, prerequisites, each LRU mode, setup,
 * teardown and the KTAP result <scenario>_<mode>.
 */
#ifndef __MGLRU_H
#define __MGLRU_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "../../kselftest.h"
#include "journal.h"

#define SZ_1M			0x100000UL

enum mglru_mode {
	MGLRU_MODE_MGLRU,
	MGLRU_MODE_CLASSIC,
	MGLRU_NR_MODES,
};

extern const char * const mglru_mode_names[MGLRU_NR_MODES];

/* scenario.c: the common main() */

/*
 * What a scenario needs before its run function starts, zero: not needed.
 * Its defaults are the scenario's; -M and -f set the first two.
 */
struct mglru_setup {
	unsigned long memcg_max;	/* the workload memcg's memory.max */
	unsigned long data_size;	/* what the workload puts on ext4 */
	unsigned long fs_free;		/* ext4 space kept free beyond it */
	bool data_file;			/* a file of data_size, cache dropped */
	long write_delay_ms;		/* dm-delay under ext4; 0: none */
	bool swap;			/* memory.swap.max is max (else 0) */
	unsigned long zram_size;	/* zram swap device */
	unsigned long swapped_max;	/* the most the workload can swap */
	const char * const *tools;	/* commands the workload runs */
};

struct mglru_ctx {
	char test[64];			/* <scenario>_<mode> */
	enum mglru_mode mode;
	const char *cg;			/* the workload's memcg */
	char tmpdir[MGLRU_PATH_LEN];	/* the harness's tmpfs, in scratch */
	char loop[64];			/* the loop device, /dev/loopN */
	char mnt[MGLRU_PATH_LEN];	/* the ext4 mount point */
	char file[MGLRU_PATH_LEN + 8];	/* <mnt>/file */
	unsigned int slow;		/* 3 with KSFT_MACHINE_SLOW=yes, else 1 */
};

struct mglru_opt {
	char name;			/* option letter */
	const char *arg;		/* argument's name in the usage line */
	int (*parse)(const char *arg, void *val);	/* 0 or -1 */
	void *val;
};

struct mglru_scenario {
	const char *name;
	struct mglru_setup *setup;
	const struct mglru_opt *opts;	/* the scenario's options, { 0 } ends */
	/* Check the options, complete the setup; -1: usage. No output. */
	int (*configure)(void);
	/* Print the configuration as KTAP diagnostics. */
	void (*describe)(void);
	/* Workload, metrics, verdict: KSFT_PASS, KSFT_FAIL, KSFT_SKIP or -1. */
	int (*run)(struct mglru_ctx *ctx);
};

int mglru_main(int argc, char **argv, const struct mglru_scenario *s);

/* An option that sets @s.@field, named after the field in the usage line. */
#define MGLRU_SIZE(c, s, field)	{ c, #field, mglru_opt_size, &(s).field }
#define MGLRU_ULONG(c, s, field) { c, #field, mglru_opt_ulong, &(s).field }

/* opts.c */
int mglru_opt_size(const char *arg, void *val);		/* unsigned long */
int mglru_opt_ulong(const char *arg, void *val);	/* unsigned long */
int mglru_parse_ulong(const char *arg, unsigned long *val);
int mglru_parse_opts(int argc, char **argv, const struct mglru_opt *common,
		     const struct mglru_opt *opts);
__noreturn void mglru_usage(const char *prog, const struct mglru_opt *common,
			    const struct mglru_opt *opts);

/* util.c: the kernel's files and the clock; no state, no other part used */
int mglru_write_str(const char *path, const char *val);
int mglru_read_str(const char *path, char *buf, size_t len);
int mglru_write(const char *path, const char *val);
long mglru_vmstat(const char *key);
void mglru_boot_id(char *buf, size_t len);
double mglru_now(void);
void mglru_sleep_ms(unsigned int ms);

/* report.c: skip reasons, metrics and verdict messages */
extern char mglru_skip_reason[256];
__printf(1, 2) int mglru_skip(const char *fmt, ...);
__printf(3, 4) void mglru_metric(const struct mglru_ctx *ctx, const char *key,
				 const char *fmt, ...);
__printf(3, 4) bool mglru_check(const struct mglru_ctx *ctx, bool ok,
				const char *fmt, ...);

/* cmd.c: the commands the harness runs */
int mglru_run_argv(char *out, size_t outlen, bool quiet,
		   const char * const *argv);
#define mglru_run(out, outlen, quiet, ...)				\
	mglru_run_argv(out, outlen, quiet, (const char * const[]){ __VA_ARGS__, NULL })
void mglru_kill_tool(void);
int mglru_need_tools(const char * const *tools);

/* home.c: MGLRU_HOME, root's alone, and the lock every run holds */
int mglru_home_init(void);
int mglru_home_lock(unsigned int timeout_s);
int mglru_home_create(const char *path);
int mglru_home_open(int dirfd, const char *name, int flags, const char **why);

/*
 * What the cleanup stack undoes: its kind and what that kind needs, each
 * field with one meaning. A journal line holds the same in three columns
 * (struct mglru_entry), which release.c converts to and from.
 */
struct mglru_undo {
	enum mglru_res type;
	union {
		/* memcg, dir, mount, swap; loop: the file backing it */
		char path[MGLRU_PATH_LEN];
		pid_t pid;				/* pid */
		struct {
			char path[MGLRU_PATH_LEN];
			char old[MGLRU_VAL_LEN];	/* written back */
		} knob;					/* restore */
		struct {
			char name[MGLRU_VAL_LEN];
			char table[MGLRU_PATH_LEN];	/* undelay: loaded */
		} dm;					/* dm, undelay */
		struct {
			int id;				/* zram<id> */
			bool hot;			/* hot-added: removed */
		} zram;					/* zram */
	};
};

/* release.c: each kind in the journal, and how it is undone */
void mglru_undo_to_entry(const struct mglru_undo *u, struct mglru_entry *e);
void mglru_undo_of_entry(const struct mglru_entry *e, struct mglru_undo *u);
void mglru_release(const struct mglru_undo *u, pid_t pid);

/* cleanup.c: a stack of what to undo, journalled for a later run */
int mglru_cleanup_init(void);
int mglru_cleanup_path(enum mglru_res type, const char *path);
int mglru_cleanup_pid(pid_t pid);
int mglru_cleanup_knob(const char *path);
int mglru_cleanup_dm(const char *name);
int mglru_cleanup_undelay(const char *name, const char *table);
int mglru_cleanup_zram(int id, bool hot);
void mglru_cleanup_forget_pid(pid_t pid);
int mglru_cleanup_mark(void);
void mglru_cleanup_to(int mark);
void mglru_block_signals(sigset_t *old);
void mglru_restore_signals(const sigset_t *old);

/* sweep.c: what killed runs left, undone by their journals */
int mglru_sweep(void);

/* knob.c: global knobs set for the run, restored after it */
int mglru_write_restore(const char *path, const char *val);
int mglru_lru_gen_check(void);
int mglru_lru_gen_save(void);
int mglru_set_lru_mode(enum mglru_mode mode);

/* memcg.c: the run's memcgs and their counters */
int mglru_memcg_check(void);
int mglru_parent_create(void);
const char *mglru_memcg_create(const char *name, long max, long swap_max);
long mglru_memcg_stat(const char *cg, const char *key);
long mglru_memcg_event(const char *cg, const char *key);

/* spawn.c: the workload's children */
pid_t mglru_spawn(const char *cg, int (*fn)(void *arg), void *arg);
pid_t mglru_spawn_argv(const char *cg, const char * const *argv);
int mglru_wait(pid_t pid, int *status, double timeout_s);
void mglru_kill(pid_t pid);
void *mglru_shared_alloc(size_t size);

/* bdev.c: guest-local block devices, files and swap */
unsigned long mglru_tmpfs_size(unsigned long fs_size);
int mglru_bdev_setup(struct mglru_ctx *ctx, unsigned long size,
		     long write_delay_ms);
int mglru_create_file(struct mglru_ctx *ctx, unsigned long size);
int mglru_zram_swap_setup(unsigned long size);

/*
 * debugfs.c: a debugfs knob for the run (mounted in the scratch directory,
 * which must exist, if it is not mounted); 0, -1 or KSFT_SKIP
 */
int mglru_debugfs_write_restore(const char *name, const char *val);

/* workload.c: what the scenarios' children do */
char *mglru_map_file(const char *path, size_t size);
void mglru_touch(char *p, size_t size, size_t stride, bool write);

#endif /* __MGLRU_H */
