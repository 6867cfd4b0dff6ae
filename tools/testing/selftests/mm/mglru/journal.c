// SPDX-License-Identifier: GPL-2.0
/*
 * The cleanup journal's format and its rules: what the run @pid may ask a
 * later run to undo. Each type has one rule, limited to what that run
 * creates: its knobs from a short list, its own memcg, its own scratch
 * directory, its own dm target over its own loop device, its own zram swap.
 * Pure string work, so that it can be fuzzed on the host.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "journal.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char * const res_names[MGLRU_NR_RES] = {
	[RES_NONE] = "none", [RES_RESTORE] = "restore",
	[RES_MEMCG] = "memcg", [RES_PID] = "pid", [RES_DIR] = "dir",
	[RES_MOUNT] = "mount", [RES_LOOP] = "loop", [RES_DM] = "dm",
	[RES_DM_UNDELAY] = "undelay", [RES_SWAP] = "swap",
	[RES_ZRAM] = "zram",
};

static char cg_root[MGLRU_PATH_LEN / 2] = MGLRU_CG_ROOT;

/* The knobs the tests set and restore. */
static const char * const knobs[] = {
	"/sys/kernel/mm/lru_gen/enabled",
	"/proc/sys/vm/swappiness",
	"/proc/sys/vm/dirty_ratio",
	"/proc/sys/vm/dirty_background_ratio",
	"/sys/kernel/debug/fault_around_bytes",
};

const char *mglru_res_name(enum mglru_res type)
{
	return type < MGLRU_NR_RES ? res_names[type] : "?";
}

void mglru_scratch_dir(char *buf, size_t len, pid_t pid)
{
	snprintf(buf, len, "%s/%d", MGLRU_HOME, (int)pid);
}

void mglru_parent_memcg(char *buf, size_t len, pid_t pid)
{
	snprintf(buf, len, "%s/%s.%d", cg_root, MGLRU_NAME, (int)pid);
}

void mglru_dm_name(char *buf, size_t len, pid_t pid)
{
	snprintf(buf, len, "%s_%d", MGLRU_NAME, (int)pid);
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* @s is 1 to @max decimal digits and nothing else. */
static bool all_digits(const char *s, size_t max)
{
	size_t n = strspn(s, "0123456789");

	return n && n <= max && !s[n];
}

/* "/dev/loop<N>" at @s, its length or 0. */
static size_t loop_dev(const char *s)
{
	size_t n;

	if (strncmp(s, "/dev/loop", 9))
		return 0;
	n = strspn(s + 9, "0123456789");
	return n && n <= 6 ? 9 + n : 0;
}

/* Absolute, and no empty, "." or ".." component: one name, one object. */
static bool canonical(const char *path)
{
	const char *p = path, *end;
	size_t n;

	if (*p != '/')
		return false;
	while (*p == '/') {
		end = strchr(p + 1, '/');
		n = end ? (size_t)(end - p - 1) : strlen(p + 1);
		if (!n || (n == 1 && p[1] == '.') ||
		    (n == 2 && p[1] == '.' && p[2] == '.'))
			return false;
		p += n + 1;
	}
	return !*p;
}

/* @path is @dir or (@strict: only) something below it. */
static bool within(const char *path, const char *dir, bool strict)
{
	size_t n = strlen(dir);

	if (!canonical(path) || strncmp(path, dir, n))
		return false;
	if (!path[n])
		return !strict;
	return path[n] == '/' && path[n + 1];
}

int mglru_journal_set_cg_root(const char *root)
{
	if (!canonical(root) || strlen(root) >= sizeof(cg_root))
		return -1;
	snprintf(cg_root, sizeof(cg_root), "%s", root);
	return 0;
}

static bool is_knob(const char *path, pid_t pid)
{
	static const char ra[] = "/queue/read_ahead_kb";
	char own[MGLRU_PATH_LEN + 32];
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(knobs); i++)
		if (!strcmp(path, knobs[i]))
			return true;
	/* where debugfs was not mounted, the run mounted it in its scratch */
	mglru_scratch_dir(own, sizeof(own), pid);
	strcat(own, "/debugfs/fault_around_bytes");
	if (!strcmp(path, own))
		return true;
	/* the run's loop device's readahead, checked when acted on */
	if (strncmp(path, "/sys/block/loop", 15))
		return false;
	n = strspn(path + 15, "0123456789");
	return n && n <= 6 && !strcmp(path + 15 + n, ra);
}

/* A knob's old value: decimal, or hex as lru_gen/enabled shows it. */
static bool knob_value(const char *val)
{
	if (!strncmp(val, "0x", 2)) {
		size_t n = strspn(val + 2, "0123456789abcdefABCDEF");

		return n && n <= 16 && !val[2 + n];
	}
	return all_digits(val, 20);
}

/* "0 <sectors> delay <loop> 0 0 <loop> 0 0": dm-delay without a delay. */
static bool undelay_table(const char *t)
{
	size_t n, dev;

	if (strncmp(t, "0 ", 2))
		return false;
	t += 2;
	n = strspn(t, "0123456789");
	if (!n || n > 19 || strncmp(t + n, " delay ", 7))
		return false;
	t += n + 7;
	dev = loop_dev(t);
	if (!dev || strncmp(t + dev, " 0 0 ", 5) ||
	    strncmp(t + dev + 5, t, dev))
		return false;
	return !strcmp(t + 2 * dev + 5, " 0 0");
}

static bool has_zram(const struct mglru_journal *j, int id)
{
	int i;

	for (i = 0; j && i < j->nr; i++)
		if (j->ent[i].type == RES_ZRAM && j->ent[i].id == id)
			return true;
	return false;
}

const char *mglru_entry_refusal(const struct mglru_entry *e, pid_t pid,
				const struct mglru_journal *j)
{
	char own[MGLRU_PATH_LEN];
	int zram;

	if (e->id && e->type != RES_ZRAM)
		return "an id on an entry that takes none";
	switch (e->type) {
	case RES_RESTORE:
		if (!is_knob(e->path, pid))
			return "not a knob the tests set";
		return knob_value(e->val) ? NULL : "not a knob's value";
	case RES_MEMCG:
		mglru_parent_memcg(own, sizeof(own), pid);
		if (!within(e->path, own, false))
			return "not the run's own memcg";
		break;
	case RES_DIR:
	case RES_MOUNT:
	case RES_LOOP:
		mglru_scratch_dir(own, sizeof(own), pid);
		if (!within(e->path, own, e->type != RES_DIR))
			return "not in the run's scratch directory";
		break;
	case RES_DM:
	case RES_DM_UNDELAY:
		mglru_dm_name(own, sizeof(own), pid);
		if (strcmp(e->val, own))
			return "not the run's own dm target";
		if (e->type == RES_DM_UNDELAY && !undelay_table(e->path))
			return "not a dm-delay table over a loop device";
		if (e->type == RES_DM && e->path[0])
			return "a path on a dm entry";
		return NULL;
	case RES_SWAP:
		if (strncmp(e->path, "/dev/zram", 9) ||
		    !all_digits(e->path + 9, 5) ||
		    sscanf(e->path + 9, "%d", &zram) != 1 || !has_zram(j, zram))
			return "not the run's own zram device";
		break;
	case RES_ZRAM:
		if (e->id < 0 || e->id > 65535 || e->path[0])
			return "not a zram device number";
		return strcmp(e->val, "hot") && e->val[0] ?
		       "not a zram device's flag" : NULL;
	default:
		return "a type no journal holds";
	}
	return e->val[0] ? "a value on an entry that takes none" : NULL;
}

static int parse_type(const char *s, size_t n)
{
	int i;

	for (i = 0; i < MGLRU_NR_RES; i++)
		if (strlen(res_names[i]) == n && !strncmp(s, res_names[i], n))
			return i;
	return -1;
}

/* Printable ASCII, not a tab: what a path or value may hold. */
static bool printable(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return false;
	return true;
}

/* One "<type> <id> <path>\t<val>" line into @e; NULL, or why not. */
static const char *parse_entry(const char *s, size_t len,
			       struct mglru_entry *e)
{
	const char *sp, *tab, *p;
	unsigned long id = 0;
	int type;

	sp = memchr(s, ' ', len);
	type = sp ? parse_type(s, sp - s) : -1;
	if (type < 0)
		return "not a known type";
	p = sp + 1;
	if (p >= s + len || !is_digit(*p))
		return "no id";
	while (p < s + len && is_digit(*p)) {
		id = id * 10 + (*p++ - '0');
		if (id > INT_MAX)
			return "an id out of range";
	}
	if (p >= s + len || *p != ' ')
		return "no space after the id";
	p++;
	tab = memchr(p, '\t', s + len - p);
	if (!tab)
		return "no tab";
	if ((size_t)(tab - p) >= MGLRU_PATH_LEN ||
	    (size_t)(s + len - tab - 1) >= MGLRU_VAL_LEN)
		return "too long";
	if (!printable(p, tab - p) || !printable(tab + 1, s + len - tab - 1))
		return "a control or non-ASCII byte";
	e->type = type;
	e->id = id;
	memcpy(e->path, p, tab - p);
	e->path[tab - p] = '\0';
	memcpy(e->val, tab + 1, s + len - tab - 1);
	e->val[s + len - tab - 1] = '\0';
	return NULL;
}

/* @n bytes at @s (not a string) make a boot id: hex digits and dashes. */
static bool boot_id(const char *s, size_t n)
{
	size_t i;

	if (!n || n >= MGLRU_BOOT_ID_LEN)
		return false;
	for (i = 0; i < n; i++)
		if (!is_digit(s[i]) && !(s[i] >= 'a' && s[i] <= 'f') &&
		    s[i] != '-')
			return false;
	return true;
}

int mglru_journal_parse(const char *buf, size_t len, pid_t pid,
			struct mglru_journal *j, mglru_refuse_fn refuse,
			void *priv)
{
	const char *line = buf, *nl, *why;
	struct mglru_entry e;
	int n;

	memset(j, 0, sizeof(*j));
	if (!len || len > MGLRU_JOURNAL_MAX || memchr(buf, '\0', len) ||
	    buf[len - 1] != '\n')
		return -1;
	for (n = 1; line < buf + len; n++, line = nl + 1) {
		nl = memchr(line, '\n', buf + len - line);
		if (n == 1 && !strncmp(line, "boot ", 5)) {
			if (boot_id(line + 5, nl - line - 5)) {
				memcpy(j->boot_id, line + 5, nl - line - 5);
				continue;
			}
			why = "not a boot id";
		} else if (j->nr == MGLRU_MAX_RES) {
			why = "more entries than a run makes";
		} else {
			memset(&e, 0, sizeof(e));
			why = parse_entry(line, nl - line, &e);
			if (!why)
				why = mglru_entry_refusal(&e, pid, j);
			if (!why) {
				j->ent[j->nr++] = e;
				continue;
			}
		}
		if (refuse)
			refuse(priv, n, why);
	}
	return 0;
}

int mglru_journal_format(char *buf, size_t len, const struct mglru_journal *j)
{
	size_t off;
	int i, n;

	n = snprintf(buf, len, "boot %s\n", j->boot_id);
	if (n < 0 || (size_t)n >= len)
		return -1;
	for (off = n, i = 0; i < j->nr; i++, off += n) {
		n = snprintf(buf + off, len - off, "%s %d %s\t%s\n",
			     mglru_res_name(j->ent[i].type), j->ent[i].id,
			     j->ent[i].path, j->ent[i].val);
		if (n < 0 || (size_t)n >= len - off)
			return -1;
	}
	return off;
}
