/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers for the MGLRU regression selftests: LRU mode switching,
 * memcg setup, workload children, guest-local block devices, zram swap,
 * metrics and a cleanup registry that also runs from signal handlers.
 */
#ifndef __MGLRU_LIB_H
#define __MGLRU_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "../../kselftest.h"

#define MGLRU_MODE_MGLRU	0
#define MGLRU_MODE_CLASSIC	1
#define MGLRU_NR_MODES		2
#define MGLRU_MODES_ALL		0x3U	/* one bit per mode */

#define MGLRU_PATH_LEN		256
#define MGLRU_REASON_LEN	256

#define SZ_1M			0x100000UL

extern const char * const mglru_mode_names[MGLRU_NR_MODES];

/* Filled by any helper that returns MGLRU_SKIP. */
extern char mglru_skip_reason[MGLRU_REASON_LEN];

#define MGLRU_OK	0
#define MGLRU_ERR	-1
#define MGLRU_SKIP	-2

struct mglru_bdev {
	char base[64];			/* private directory under /tmp */
	char tmpfs[MGLRU_PATH_LEN];	/* tmpfs mount holding the backing file */
	char backing[MGLRU_PATH_LEN];	/* backing file */
	char loop[64];			/* /dev/loopN */
	char dm_name[64];		/* dm-delay target name, "" if none */
	char dev[MGLRU_PATH_LEN];	/* device holding the ext4 filesystem */
	char mnt[MGLRU_PATH_LEN];	/* ext4 mount point */
};

/* Option parsing. */
int mglru_parse_mode(const char *arg, unsigned int *mask);
int mglru_parse_size(const char *arg, unsigned long *bytes);
int mglru_parse_ulong(const char *arg, unsigned long *val);

/*
 * One option of a test program. A table of them, ended by { 0 }, is the
 * program's whole command line: mglru_parse_opts() parses it and prints the
 * usage line (and exits 1) on bad input; -h prints it too. MGLRU_MODE in the
 * environment (mglru or classic) is the default of the mode option.
 */
struct mglru_opt {
	char name;			/* option letter */
	const char *arg;		/* argument's name in the usage line */
	int (*parse)(const char *arg, void *val);	/* 0 or -1 */
	void *val;
};

int mglru_opt_mode(const char *arg, void *val);	/* unsigned int mode mask */
int mglru_opt_size(const char *arg, void *val);	/* unsigned long bytes */
int mglru_opt_ulong(const char *arg, void *val);	/* unsigned long */
void mglru_parse_opts(int argc, char **argv, const struct mglru_opt *opts);
__noreturn void mglru_opts_usage(const char *prog,
				 const struct mglru_opt *opts);

/* Global prerequisites and setup; return MGLRU_OK, MGLRU_ERR or MGLRU_SKIP. */
int mglru_init(void);
int mglru_set_lru_mode(int mode);
int mglru_write(const char *path, const char *val);
int mglru_write_restore(const char *path, const char *val);
int mglru_need_tools(const char * const *tools);

/* Time and metrics. */
double mglru_now(void);
void mglru_sleep_ms(unsigned int ms);
__printf(3, 4)
void mglru_metric(const char *test, const char *key, const char *fmt, ...);
void *mglru_shared_alloc(size_t size);

/* memcg helpers; the harness never joins a test memcg. */
const char *mglru_memcg_create(const char *name, long max, long swap_max);
long mglru_memcg_stat(const char *cg, const char *key);
long mglru_memcg_event(const char *cg, const char *key);
long mglru_vmstat(const char *key);

/* Workload children, each joins @cg before running. */
pid_t mglru_spawn(const char *cg, int (*fn)(void *arg), void *arg);
pid_t mglru_spawn_exec(const char *cg, const char *arg0, ...);
int mglru_wait(pid_t pid, int *status, double timeout_s);
int mglru_reap(pid_t pid, int *status);
void mglru_kill(pid_t pid);

/* Guest-local block devices and swap. */
int mglru_bdev_setup(struct mglru_bdev *b, unsigned long size,
		     long write_delay_ms);
int mglru_bdev_remount(struct mglru_bdev *b);
int mglru_create_file(const char *path, unsigned long size);
int mglru_zram_swap_setup(unsigned long size);

/* Cleanup registry: release everything registered after @mark. */
int mglru_cleanup_mark(void);
void mglru_cleanup_to(int mark);

/*
 * Run @run_mode once per LRU mode set in @modes, or, when mglru_init()
 * returned @init != MGLRU_OK, report each of those test points skipped
 * (with mglru_skip_reason) or failed. Inline like mglru_finished(): the
 * kselftest counters are per file.
 */
static inline void mglru_run_modes(const char *scenario, unsigned int modes,
				   int init, void (*run_mode)(int mode))
{
	int mode;

	for (mode = 0; mode < MGLRU_NR_MODES; mode++) {
		if (!(modes & (1U << mode)))
			continue;
		if (init == MGLRU_SKIP)
			ksft_test_result_skip("%s_%s: %s\n", scenario,
					      mglru_mode_names[mode],
					      mglru_skip_reason);
		else if (init)
			ksft_test_result_error("%s_%s: init failed\n", scenario,
					       mglru_mode_names[mode]);
		else
			run_mode(mode);
	}
}

/*
 * Like ksft_finished(), but exit with KSFT_SKIP when every planned test
 * point was skipped. A macro because the kselftest counters are per file.
 */
#define mglru_finished() do {						\
	if (ksft_plan && ksft_get_xskip_cnt() == (int)ksft_plan) {	\
		ksft_print_cnts();					\
		exit(KSFT_SKIP);					\
	}								\
	ksft_finished();						\
} while (0)

#endif /* __MGLRU_LIB_H */
