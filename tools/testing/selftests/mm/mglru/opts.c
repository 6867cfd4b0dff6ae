// SPDX-License-Identifier: GPL-2.0
/*
 * Command lines: the options common to every scenario and the scenario's
 * own, each a table ended by { 0 }. Bad input prints the usage line on
 * stderr and exits 1 before anything is set up.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mglru.h"

int mglru_parse_ulong(const char *arg, unsigned long *val)
{
	char *end;

	errno = 0;
	*val = strtoul(arg, &end, 0);
	if (errno || end == arg || *end || arg[0] == '-')
		return -1;
	return 0;
}

int mglru_opt_ulong(const char *arg, void *val)
{
	return mglru_parse_ulong(arg, val);
}

/* Sizes take an optional K, M or G suffix (and a B after it); plain is MiB. */
int mglru_opt_size(const char *arg, void *val)
{
	unsigned long num, shift = 20, *bytes = val;
	char *end;

	errno = 0;
	num = strtoul(arg, &end, 0);
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
	if (!num || num > (ULONG_MAX >> shift))
		return -1;
	*bytes = num << shift;
	return 0;
}

static void print_opts(const struct mglru_opt *o, bool *sizes)
{
	for (; o->name; o++) {
		fprintf(stderr, " [-%c%s%s]", o->name, o->arg ? " " : "",
			o->arg ? o->arg : "");
		*sizes |= o->parse == mglru_opt_size;
	}
}

void mglru_usage(const char *prog, const struct mglru_opt *common,
		 const struct mglru_opt *opts)
{
	bool sizes = false;

	fprintf(stderr, "usage: %s", prog);
	print_opts(common, &sizes);
	print_opts(opts, &sizes);
	fprintf(stderr, "%s\n", sizes ? " (sizes: MiB or K/M/G suffix)" : "");
	exit(1);
}

static const struct mglru_opt *find(const struct mglru_opt *o, int c)
{
	for (; o->name; o++)
		if (o->name == c)
			return o;
	return NULL;
}

static size_t add_letters(char *s, size_t len, const struct mglru_opt *o)
{
	for (; o->name; o++) {
		s[len++] = o->name;
		if (o->arg)
			s[len++] = ':';
	}
	return len;
}

/*
 * An option without an argument name is a flag: its parse() gets NULL.
 * Returns 0, or -1 after the usage line (the caller exits 1).
 */
int mglru_parse_opts(int argc, char **argv, const struct mglru_opt *common,
		     const struct mglru_opt *opts)
{
	char optstring[2 * 2 * 26 * 2 + 2];
	const struct mglru_opt *o;
	size_t len;
	int c;

	len = add_letters(optstring, 0, common);
	len = add_letters(optstring, len, opts);
	optstring[len] = '\0';
	opterr = 0;
	while ((c = getopt(argc, argv, optstring)) != -1) {
		o = find(common, c);
		if (!o)
			o = find(opts, c);
		if (!o || o->parse(o->arg ? optarg : NULL, o->val))
			return -1;
	}
	return optind < argc ? -1 : 0;
}
