// SPDX-License-Identifier: GPL-2.0
/*
 * The kselftests' journal parser (tools/testing/selftests/mm/mglru/journal.c)
 * on the host, built with AddressSanitizer and UBSan by journal-fuzz.sh.
 *
 * Valid journals of a run are accepted whole; hostile lines are each
 * refused; then N journals mutated from both (truncated, overlong, no tab,
 * huge ids, binary, spliced, ...) are parsed, and every entry that gets
 * through goes to a stub that checks it against an oracle written apart
 * from journal.c's rules. The oracle is first shown to flag every hostile
 * line, so that it can fail.
 *
 * usage: journal-fuzz [N [SEED]]; prints one line of counts, exits 1 on a
 * violation.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"

#define PID	4242
#define SCRATCH	MGLRU_HOME "/4242"
#define CG	MGLRU_CG_ROOT "/" MGLRU_NAME ".4242"
#define DM	MGLRU_NAME "_4242"

static const char * const valid[] = {
	"boot 0123abcd-ef01\n"
	"restore 0 /sys/kernel/mm/lru_gen/enabled\t0x0007\n"
	"memcg 0 " CG "\t\n"
	"dir 0 " SCRATCH "\t\n"
	"dir 0 " SCRATCH "/tmpfs\t\n"
	"dir 0 " SCRATCH "/mnt\t\n"
	"mount 0 " SCRATCH "/tmpfs\t\n"
	"loop 0 " SCRATCH "/tmpfs/disk.img\t\n"
	"dm 0 \t" DM "\n"
	"mount 0 " SCRATCH "/mnt\t\n"
	"undelay 0 0 1468416 delay /dev/loop0 0 0 /dev/loop0 0 0\t" DM "\n"
	"memcg 0 " CG "/dirty_throttle.0\t\n"
	"restore 0 /proc/sys/vm/dirty_ratio\t20\n"
	"restore 0 /proc/sys/vm/dirty_background_ratio\t10\n",
	"boot 0123abcd-ef01\n"
	"restore 0 /sys/kernel/mm/lru_gen/enabled\t0x0000\n"
	"memcg 0 " CG "\t\n"
	"zram 1 \thot\n"
	"swap 0 /dev/zram1\t\n"
	"restore 0 /proc/sys/vm/swappiness\t60\n"
	"restore 0 /sys/kernel/debug/fault_around_bytes\t65536\n"
	"restore 0 /sys/block/loop12/queue/read_ahead_kb\t128\n"
	"dir 0 " SCRATCH "/debugfs\t\n"
	"mount 0 " SCRATCH "/debugfs\t\n"
	"restore 0 " SCRATCH "/debugfs/fault_around_bytes\t65536\n",
	"boot 0123abcd-ef01\n"
	"zram 0 \t\n"
	"swap 0 /dev/zram0\t\n",
};

/*
 * Well-formed lines outside the rules for the run PID: the parser must
 * refuse each, and the oracle must flag each.
 */
static const char * const outside[] = {
	"restore 0 /proc/sys/kernel/hostname\tPWNED",
	"restore 0 /proc/sys/kernel/core_pattern\t|/tmp/x",
	"restore 0 /proc/sys/vm/swappiness\t60 ",
	"restore 0 /proc/sys/vm/swappiness\t-1",
	"restore 0 /sys/block/sda/queue/read_ahead_kb\t128",
	"restore 0 /sys/block/loop0/../sda/queue/read_ahead_kb\t1",
	"restore 0 " SCRATCH "/debugfs\t1",
	"restore 0 " SCRATCH "/debugfs/../fault_around_bytes\t1",
	"restore 0 " MGLRU_HOME "/4243/debugfs/fault_around_bytes\t1",
	"restore 1 /proc/sys/vm/swappiness\t60",
	"memcg 0 /sys/fs/cgroup\t",
	"memcg 0 /sys/fs/cgroup/system.slice\t",
	"memcg 0 " CG "/../system.slice\t",
	"memcg 0 " CG "0\t",
	"memcg 0 " MGLRU_CG_ROOT "/" MGLRU_NAME ".4243\t",
	"memcg 0 " CG "//x\t",
	"memcg 0 " CG "/x\tval",
	"dir 0 /root\t",
	"dir 0 " MGLRU_HOME "\t",
	"dir 0 " SCRATCH "/..\t",
	"dir 0 " SCRATCH "/./x\t",
	"dir 0 " MGLRU_HOME "/4243\t",
	"mount 0 /\t",
	"mount 0 " SCRATCH "\t",
	"mount 0 /tmp/" MGLRU_NAME ".X/mnt\t",
	"loop 0 /var/lib/images/disk.img\t",
	"loop 0 " SCRATCH "/../../x\t",
	"dm 0 \tvictim",
	"dm 0 \t" MGLRU_NAME "_4243",
	"dm 0 /dev/mapper/x\t" DM,
	"undelay 0 0 8 linear /dev/sda 0\t" DM,
	"undelay 0 0 8 delay /dev/loop0 0 0 /dev/loop1 0 0\t" DM,
	"undelay 0 0 8 delay /dev/sda 0 0 /dev/sda 0 0\t" DM,
	"undelay 0 0 8 delay /dev/loop0 0 0 /dev/loop0 0 0\tvictim",
	"swap 0 /dev/sda2\t",
	"swap 0 /dev/zram7\t",
	"swap 0 /dev/zram1/../sda\t",
	"zram 70000 \thot",
	"zram 1 \tcold",
	"zram 1 /dev/zram1\thot",
	"pid 1 \t",
	"none 0 \t",
};

/* Lines that are not entries at all: the parser must refuse each. */
static const char * const malformed[] = {
	"restore 99999999999 /proc/sys/vm/swappiness\t60",
	"restore -1 /proc/sys/vm/swappiness\t60",
	"restore 0 /proc/sys/vm/swappiness 60",
	"restore  0 /proc/sys/vm/swappiness\t60",
	"restore 0 /proc/sys/vm/swappiness\t60\t",
	"restore 0 /proc/sys/vm/swappiness\t\x01",
	"bogus 0 /x\t",
	"boot 0123",
	"",
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char * const knobs[] = {
	"/sys/kernel/mm/lru_gen/enabled", "/proc/sys/vm/swappiness",
	"/proc/sys/vm/dirty_ratio", "/proc/sys/vm/dirty_background_ratio",
	"/sys/kernel/debug/fault_around_bytes",
};

/* The oracle: written without journal.c's helpers, on purpose. */
static bool has_dot_part(const char *p)
{
	return strstr(p, "//") || strstr(p, "/./") || strstr(p, "/../") ||
	       (strlen(p) >= 2 && !strcmp(p + strlen(p) - 2, "/.")) ||
	       (strlen(p) >= 3 && !strcmp(p + strlen(p) - 3, "/..")) ||
	       p[strlen(p) - 1] == '/';
}

static bool below(const char *p, const char *dir, bool or_same)
{
	size_t n = strlen(dir);

	if (!*p || has_dot_part(p))
		return false;
	if (!strcmp(p, dir))
		return or_same;
	return !strncmp(p, dir, n) && p[n] == '/';
}

static bool number(const char *s, const char *digits, size_t max)
{
	size_t n = strspn(s, digits);

	return n && n <= max && !s[n];
}

static bool printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return false;
	return true;
}

static bool knob_ok(const struct mglru_entry *e)
{
	static const char pre[] = "/sys/block/loop", post[] = "/queue/read_ahead_kb";
	const char *p = e->path + strlen(pre);
	bool ok = false;
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(knobs); i++)
		ok |= !strcmp(e->path, knobs[i]);
	ok |= !strcmp(e->path, SCRATCH "/debugfs/fault_around_bytes");
	if (!ok && !strncmp(e->path, pre, strlen(pre))) {
		n = strspn(p, "0123456789");
		ok = n && n <= 6 && !strcmp(p + n, post);
	}
	if (!strncmp(e->val, "0x", 2))
		return ok && number(e->val + 2, "0123456789abcdefABCDEF", 16);
	return ok && number(e->val, "0123456789", 20);
}

static const char *oracle(const struct mglru_entry *e, const int *zram_ids,
			  int nr_zram)
{
	unsigned int a, b;
	int i, n;

	if (!printable(e->path) || !printable(e->val) ||
	    strlen(e->path) >= MGLRU_PATH_LEN || strlen(e->val) >= MGLRU_VAL_LEN)
		return "unprintable or long";
	if (e->type != RES_ZRAM && e->id)
		return "an id";
	switch (e->type) {
	case RES_RESTORE:
		return knob_ok(e) ? NULL : "restore";
	case RES_MEMCG:
		return below(e->path, CG, true) && !e->val[0] ? NULL : "memcg";
	case RES_DIR:
		return below(e->path, SCRATCH, true) && !e->val[0] ? NULL : "dir";
	case RES_MOUNT:
	case RES_LOOP:
		return below(e->path, SCRATCH, false) && !e->val[0] ? NULL :
		       "mount or loop";
	case RES_DM:
		return !strcmp(e->val, DM) && !e->path[0] ? NULL : "dm";
	case RES_DM_UNDELAY:
		n = 0;
		if (sscanf(e->path, "0 %*u delay /dev/loop%u 0 0 /dev/loop%u 0 0%n",
			   &a, &b, &n) != 2)
			return "undelay";
		return strcmp(e->val, DM) || !n || e->path[n] || a != b ?
		       "undelay" : NULL;
	case RES_SWAP:
		n = 0;
		if (sscanf(e->path, "/dev/zram%u%n", &a, &n) != 1 || !n ||
		    e->path[n] || e->val[0])
			return "swap";
		for (i = 0; i < nr_zram; i++)
			if (zram_ids[i] == (int)a)
				return NULL;
		return "swap of another zram";
	case RES_ZRAM:
		return e->id >= 0 && e->id <= 65535 && !e->path[0] &&
		       (!e->val[0] || !strcmp(e->val, "hot")) ? NULL : "zram";
	default:
		return "type";
	}
}

static unsigned long long violations, accepted, refused_lines;

/* The stub in place of acting: every entry must pass the oracle. */
static void act(const struct mglru_journal *j, const char *input, size_t len)
{
	int zram_ids[MGLRU_MAX_RES], nr_zram = 0, i;
	const char *why;

	for (i = 0; i < j->nr; i++) {
		why = oracle(&j->ent[i], zram_ids, nr_zram);
		if (j->ent[i].type == RES_ZRAM)
			zram_ids[nr_zram++] = j->ent[i].id;
		accepted++;
		if (!why)
			continue;
		violations++;
		if (violations <= 5)
			fprintf(stderr, "violation (%s): %s %d '%s' '%s' from '%.*s'\n",
				why, mglru_res_name(j->ent[i].type), j->ent[i].id,
				j->ent[i].path, j->ent[i].val, (int)len, input);
	}
}

static void count_refusal(void *priv, int line, const char *why)
{
	refused_lines++;
}

static unsigned long long rng = 88172645463325252ULL;

static unsigned long rnd(unsigned long n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? rng % n : 0;
}

static const char * const splices[] = {
	"\t", "\n", " ", "/..", "/.", "//", "0", "99999999999", "-1",
	"2147483648", "\0", "\xff", "0x", SCRATCH, CG, DM, "/dev/loop0",
	"/dev/zram1", "zram", "swap", "restore", "boot ", MGLRU_HOME,
};

/* One mutation of @buf (@len bytes, room for @cap) in place; new length. */
static size_t mutate(char *buf, size_t len, size_t cap)
{
	size_t at = rnd(len + 1), n, i;
	const char *s;

	switch (rnd(9)) {
	case 0:		/* truncate */
		return at;
	case 1:		/* flip a byte */
		if (len)
			buf[rnd(len)] ^= 1 << rnd(8);
		return len;
	case 2:		/* a random byte anywhere, binary included */
		if (len)
			buf[rnd(len)] = rnd(256);
		return len;
	case 3:		/* drop a run of bytes */
		n = rnd(16);
		if (at + n > len)
			n = len - at;
		memmove(buf + at, buf + at + n, len - at - n);
		return len - n;
	case 4:		/* an overlong run */
		n = rnd(2 * MGLRU_PATH_LEN);
		if (len + n > cap)
			return len;
		memmove(buf + at + n, buf + at, len - at);
		memset(buf + at, "a/.\t x"[rnd(6)], n);
		return len + n;
	case 5:		/* remove every tab of a line */
		for (i = at; i < len && buf[i] != '\n'; i++)
			if (buf[i] == '\t')
				buf[i] = ' ';
		return len;
	case 6:		/* duplicate a stretch */
		n = rnd(128);
		if (at + n > len)
			n = len - at;
		if (len + n > cap)
			return len;
		memmove(buf + at + n, buf + at, len - at);
		return len + n;
	case 7:		/* a line outside the rules spliced in */
		s = outside[rnd(ARRAY_SIZE(outside))];
		n = strlen(s) + 1;
		if (len + n > cap)
			return len;
		memmove(buf + at + n, buf + at, len - at);
		memcpy(buf + at, s, n - 1);
		buf[at + n - 1] = '\n';
		return len + n;
	default:	/* a token spliced in */
		i = rnd(ARRAY_SIZE(splices));
		s = splices[i];
		n = i == 10 ? 1 : strlen(s);
		if (len + n > cap)
			return len;
		memmove(buf + at + n, buf + at, len - at);
		memcpy(buf + at, s, n);
		return len + n;
	}
}

/* @text as one entry, as the parser would read it if it took it. */
static void entry_of(const char *text, struct mglru_entry *e)
{
	const char *sp = strchr(text, ' '), *tab = strchr(text, '\t'), *p;

	memset(e, 0, sizeof(*e));
	for (e->type = 0; e->type < MGLRU_NR_RES; e->type++)
		if (!strncmp(text, mglru_res_name(e->type), sp - text) &&
		    !mglru_res_name(e->type)[sp - text])
			break;
	e->id = atoi(sp + 1);
	p = strchr(sp + 1, ' ') + 1;
	snprintf(e->path, sizeof(e->path), "%.*s", (int)(tab - p), p);
	snprintf(e->val, sizeof(e->val), "%s", tab + 1);
}

/* @line after valid[1] is refused, and nothing of it is taken. */
static size_t refused_after_valid(const char *line)
{
	static char buf[MGLRU_JOURNAL_MAX];
	static struct mglru_journal base, j;
	unsigned long long before = refused_lines;
	size_t len;

	mglru_journal_parse(valid[1], strlen(valid[1]), PID, &base, NULL, NULL);
	len = snprintf(buf, sizeof(buf), "%s%s\n", valid[1], line);
	if (mglru_journal_parse(buf, len, PID, &j, count_refusal, NULL) ||
	    j.nr != base.nr || refused_lines != before + 1 || !base.nr) {
		fprintf(stderr, "not refused: '%s'\n", line);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static char buf[MGLRU_JOURNAL_MAX * 2], line[512];
	static struct mglru_journal j;
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000, i;
	unsigned long long before;
	struct mglru_entry e;
	size_t len, k, bad = 0;
	int rounds;

	if (argc > 2)
		rng = strtoull(argv[2], NULL, 0) | 1;
	for (k = 0; k < ARRAY_SIZE(outside); k++) {
		entry_of(outside[k], &e);
		if (!oracle(&e, NULL, 0)) {
			fprintf(stderr, "the oracle passes '%s'\n", outside[k]);
			bad++;
		}
		bad += refused_after_valid(outside[k]);
	}
	for (k = 0; k < ARRAY_SIZE(malformed); k++)
		bad += refused_after_valid(malformed[k]);
	for (k = 0; k < ARRAY_SIZE(valid); k++) {
		before = refused_lines;
		if (mglru_journal_parse(valid[k], strlen(valid[k]), PID, &j,
					count_refusal, NULL) ||
		    refused_lines != before || !j.nr) {
			fprintf(stderr, "valid journal %zu not taken whole\n", k);
			bad++;
		}
		act(&j, valid[k], strlen(valid[k]));
	}
	/* the format round-trips, and refuses a buffer too small */
	mglru_journal_parse(valid[0], strlen(valid[0]), PID, &j, NULL, NULL);
	len = strlen(valid[0]);
	if (mglru_journal_format(line, 64, &j) != -1 ||
	    mglru_journal_format(buf, sizeof(buf), &j) != (int)len ||
	    memcmp(buf, valid[0], len)) {
		fprintf(stderr, "the format does not round-trip\n");
		bad++;
	}
	/* a journal whole: no NUL, no cut-off last line, not empty */
	if (!mglru_journal_parse(valid[0], len - 1, PID, &j, NULL, NULL) ||
	    !mglru_journal_parse(valid[0], 0, PID, &j, NULL, NULL) ||
	    !mglru_journal_parse("boot 1\n\0\n", 9, PID, &j, NULL, NULL)) {
		fprintf(stderr, "a cut-off, empty or binary journal is taken\n");
		bad++;
	}
	for (i = 0; i < n; i++) {
		k = rnd(ARRAY_SIZE(valid));
		len = strlen(valid[k]);
		memcpy(buf, valid[k], len);
		for (rounds = 1 + rnd(6); rounds; rounds--)
			len = mutate(buf, len, sizeof(buf));
		if (!mglru_journal_parse(buf, len, PID, &j, count_refusal,
					 NULL))
			act(&j, buf, len);
	}
	printf("journal-fuzz: %lu mutated journals, %llu entries taken, ", n,
	       accepted);
	printf("%llu lines refused, %llu violations, %zu other failures\n",
	       refused_lines, violations, bad);
	return violations || bad;
}
