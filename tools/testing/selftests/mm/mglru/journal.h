/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cleanup journal: what a run has created, one entry a line, so that a
 * later run can undo it if this one is killed. This header and journal.c
 * hold the format and the rules of what a journal may ask, and no I/O: the
 * parser can be built and fuzzed on its own (see tests/journal-fuzz.c).
 *
 *   boot <boot_id>
 *   <type> <id> <path>\t<val>
 */
#ifndef __MGLRU_JOURNAL_H
#define __MGLRU_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The suite's root-only home: journals, the lock, each run's scratch. */
#define MGLRU_HOME		"/run/mglru-selftest"
/* cgroup v2's root, unless the run finds another (see below) */
#define MGLRU_CG_ROOT		"/sys/fs/cgroup"
/* A run's journal in MGLRU_HOME: <pid><suffix>, and its rewrite. */
#define MGLRU_JOURNAL_SUFFIX	".journal"
#define MGLRU_JOURNAL_TMP_SUFFIX	".journal.tmp"
/* Everything a run names for itself carries this prefix and its pid. */
#define MGLRU_NAME		"mglru_selftest"

#define MGLRU_PATH_LEN		256
#define MGLRU_VAL_LEN		128
#define MGLRU_BOOT_ID_LEN	64
#define MGLRU_MAX_RES		64
/* A longer journal is not one a run wrote. */
#define MGLRU_JOURNAL_MAX	(MGLRU_BOOT_ID_LEN + 8 + MGLRU_MAX_RES * \
				 (MGLRU_PATH_LEN + MGLRU_VAL_LEN + 24))

enum mglru_res {
	RES_NONE,	/* released early (a reaped child) */
	RES_RESTORE,	/* write val back to the knob path */
	RES_MEMCG,	/* kill the members, rmdir path */
	RES_PID,	/* SIGKILL and reap id; never journalled */
	RES_DIR,	/* rmdir path */
	RES_MOUNT,	/* umount path */
	RES_LOOP,	/* detach the loop devices backed by path */
	RES_DM,		/* dmsetup remove val */
	RES_DM_UNDELAY,	/* load table path into the dm target val */
	RES_SWAP,	/* swapoff path */
	RES_ZRAM,	/* reset zram id, hot_remove it too if val is "hot" */
	MGLRU_NR_RES,
};

/*
 * One journal line, column by column: what id, path and val hold is the
 * type's (above). The cleanup stack keeps each kind's fields by name
 * (struct mglru_undo in mglru.h) and converts them only for the journal.
 */
struct mglru_entry {
	enum mglru_res type;
	int id;
	char path[MGLRU_PATH_LEN];
	char val[MGLRU_VAL_LEN];
};

struct mglru_journal {
	char boot_id[MGLRU_BOOT_ID_LEN];	/* "" if the line is missing */
	int nr;
	struct mglru_entry ent[MGLRU_MAX_RES];
};

/* Told of each line or entry refused: its number and why. */
typedef void (*mglru_refuse_fn)(void *priv, int line, const char *why);

const char *mglru_res_name(enum mglru_res type);

/*
 * The cgroup v2 root the run found, in which it names its memcgs and the
 * rules take a journal's; 0, or -1 if @root is not a canonical path that
 * leaves room for them.
 */
int mglru_journal_set_cg_root(const char *root);

/* The names a run @pid gives what it creates. */
void mglru_scratch_dir(char *buf, size_t len, pid_t pid);
void mglru_parent_memcg(char *buf, size_t len, pid_t pid);
void mglru_dm_name(char *buf, size_t len, pid_t pid);

/*
 * Whether the run @pid may have created @e, with the journal @j (for the
 * entries that pair up); NULL if so, else why not.
 */
const char *mglru_entry_refusal(const struct mglru_entry *e, pid_t pid,
				const struct mglru_journal *j);

/*
 * The journal of the run @pid in @buf (@len bytes, not NUL-terminated) into
 * @j: the boot line and every entry both well-formed and within the rules,
 * in order. Everything else is refused through @refuse. -1 if the buffer as
 * a whole is not a journal (too long, a NUL byte, no newline at its end).
 */
int mglru_journal_parse(const char *buf, size_t len, pid_t pid,
			struct mglru_journal *j, mglru_refuse_fn refuse,
			void *priv);

/* The text of @j into @buf; its length, or -1 if it does not fit. */
int mglru_journal_format(char *buf, size_t len, const struct mglru_journal *j);

#endif /* __MGLRU_JOURNAL_H */
