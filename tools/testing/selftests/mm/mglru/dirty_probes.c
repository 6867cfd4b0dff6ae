// SPDX-License-Identifier: GPL-2.0
/*
 * What else a writer's memcg pays while reclaim waits for its writeback:
 * tasks beside dd, in its memcg, that time what they do, for
 * dirty_throttle's controls of a change to that wait (-N, -R).
 *
 * The neighbour faults anonymous pages in and out and never writes a file:
 * each fault charges the memcg, and so waits in reclaim as dd does when the
 * memcg is full. It cannot be the OOM killer's victim (oom_score_adj
 * -1000), so that it does not take dd's place. The reclaimer writes to
 * memory.reclaim, as a proactive reclaimer (senpai, a container manager)
 * does, and times each write.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "dirty_probes.h"

#define PROBE_MAX	20000	/* timings kept, the first */
#define NEIGHBOUR_PAGES	64	/* faulted in, then unmapped, in turn */

struct probe {
	int stop;
	long n;
	float ms[PROBE_MAX];
};

static void probe_add(struct probe *p, double ms)
{
	if (p->n < PROBE_MAX)
		p->ms[p->n] = ms;
	p->n++;
}

static bool probe_stopped(struct probe *p)
{
	return __atomic_load_n(&p->stop, __ATOMIC_ACQUIRE);
}

static int neighbour(void *arg)
{
	struct probe *p = arg;
	long page = sysconf(_SC_PAGESIZE);
	double t0;
	char *map;
	int i;

	if (mglru_write("/proc/self/oom_score_adj", "-1000"))
		return 1;
	while (!probe_stopped(p)) {
		map = mmap(NULL, NEIGHBOUR_PAGES * page, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (map == MAP_FAILED)
			return 1;
		for (i = 0; i < NEIGHBOUR_PAGES && !probe_stopped(p); i++) {
			t0 = mglru_now();
			map[i * page] = 1;
			probe_add(p, (mglru_now() - t0) * 1000);
		}
		munmap(map, NEIGHBOUR_PAGES * page);
		mglru_sleep_ms(10);
	}
	return 0;
}

struct reclaimer {
	struct probe p;
	char cg[MGLRU_PATH_LEN];
};

static int reclaimer(void *arg)
{
	struct reclaimer *r = arg;
	char amount[] = "1M";
	double t0;

	while (!probe_stopped(&r->p)) {
		t0 = mglru_now();
		/* EAGAIN: it reclaimed less than asked, which is no error here */
		cg_write(r->cg, "memory.reclaim", amount);
		probe_add(&r->p, (mglru_now() - t0) * 1000);
		mglru_sleep_ms(500);
	}
	return 0;
}

int probe_start(struct probe_run *run, enum probe_kind kind, const char *cg)
{
	struct reclaimer *r;

	memset(run, 0, sizeof(*run));
	run->kind = kind;
	if (kind == PROBE_RECLAIM) {
		r = mglru_shared_alloc(sizeof(*r));
		if (!r)
			return -1;
		snprintf(r->cg, sizeof(r->cg), "%s", cg);
		run->shared = &r->p;
		run->pid = mglru_spawn(cg, reclaimer, r);
	} else {
		run->shared = mglru_shared_alloc(sizeof(struct probe));
		if (!run->shared)
			return -1;
		run->pid = mglru_spawn(cg, neighbour, run->shared);
	}
	return run->pid < 0 ? -1 : 0;
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

/* Stop the probe; its timings' count, median, 99th percentile and maximum. */
int probe_stop(struct probe_run *run, struct probe_stats *st)
{
	struct probe *p = run->shared;
	int status = 0;
	long n;

	memset(st, 0, sizeof(*st));
	if (!p || run->pid <= 0)
		return -1;
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
	/* a write to memory.reclaim ends when its reclaim does */
	if (mglru_wait(run->pid, &status, 60) != 1)
		mglru_kill(run->pid);
	n = p->n < PROBE_MAX ? p->n : PROBE_MAX;
	st->n = p->n;
	if (!n)
		return 0;
	qsort(p->ms, n, sizeof(p->ms[0]), cmp_float);
	st->p50 = p->ms[n / 2];
	st->p99 = p->ms[n * 99 / 100];
	st->max = p->ms[n - 1];
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}
