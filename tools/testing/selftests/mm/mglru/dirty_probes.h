/* SPDX-License-Identifier: GPL-2.0 */
#ifndef DIRTY_PROBES_H
#define DIRTY_PROBES_H

#include "mglru.h"

enum probe_kind {
	PROBE_NEIGHBOUR,	/* anon faults of a task that never writes */
	PROBE_RECLAIM,		/* writes of 1M to memory.reclaim */
};

struct probe_run {
	pid_t pid;
	void *shared;
	size_t size;
};

struct probe_stats {
	long n;			/* timings */
	double p50, p99, max;	/* in ms */
};

int probe_start(struct probe_run *run, enum probe_kind kind, const char *cg,
		const char *target);
int probe_stop(struct probe_run *run, struct probe_stats *st);
void probe_discard(struct probe_run *run);

#endif
