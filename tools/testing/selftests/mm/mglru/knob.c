// SPDX-License-Identifier: GPL-2.0
/*
 * The global knobs a run sets for its time, their old values on the cleanup
 * stack: lru_gen/enabled, which picks the LRU mode, and whatever a scenario
 * sets through mglru_write_restore().
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>

#include "mglru.h"

#define LRU_GEN_ENABLED	"/sys/kernel/mm/lru_gen/enabled"

const char * const mglru_mode_names[MGLRU_NR_MODES] = {
	[MGLRU_MODE_MGLRU] = "mglru",
	[MGLRU_MODE_CLASSIC] = "classic",
};

/* Write @val to @path, its old value on the cleanup stack first. */
int mglru_write_restore(const char *path, const char *val)
{
	if (mglru_cleanup_knob(path))
		return -1;
	return mglru_write(path, val);
}

/* 0 if the LRU mode can be switched, else KSFT_SKIP. */
int mglru_lru_gen_check(void)
{
	if (access(LRU_GEN_ENABLED, W_OK))
		return mglru_skip("%s not available (CONFIG_LRU_GEN=n?)",
				  LRU_GEN_ENABLED);
	return 0;
}

/* lru_gen/enabled on the cleanup stack, restored after the run's memcgs. */
int mglru_lru_gen_save(void)
{
	return mglru_cleanup_knob(LRU_GEN_ENABLED);
}

int mglru_set_lru_mode(enum mglru_mode mode)
{
	const char *val = mode == MGLRU_MODE_MGLRU ? "y" : "n";
	char buf[64];

	if (mglru_write(LRU_GEN_ENABLED, val))
		return -1;
	if (!mglru_read_str(LRU_GEN_ENABLED, buf, sizeof(buf)))
		ksft_print_msg("%s = %s (%s)\n", LRU_GEN_ENABLED, buf,
			       mglru_mode_names[mode]);
	return 0;
}
