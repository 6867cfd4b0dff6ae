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
 * does from outside the memcg, and times each write.
 *
 * Each keeps a uniform sample of its timings (reservoir sampling) for the
 * percentiles, and the largest exactly. A neighbour's fault that charges
 * from the per-CPU stock does not reclaim: most of its faults are fast
 * whatever reclaim does, and p99 and the maximum tell the waits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "dirty_probes.h"

#define PROBE_MAX	20000	/* timings sampled */
#define NEIGHBOUR_PAGES	64	/* faulted in, then unmapped, in turn */

struct probe {
	int stop, failed;
	long n;
	unsigned int seed;
	float max, ms[PROBE_MAX];
};

static void probe_add(struct probe *p, double ms)
{
	long j = p->n < PROBE_MAX ? p->n : rand_r(&p->seed) % (p->n + 1);

	if (j < PROBE_MAX)
		p->ms[j] = ms;
	if (ms > p->max)
		p->max = ms;
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
	int ret;

	while (!probe_stopped(&r->p)) {
		t0 = mglru_now();
		errno = 0;
		ret = cg_write(r->cg, "memory.reclaim", amount);
		/* EAGAIN: it reclaimed less than asked, which is no error here */
		if (ret && errno != EAGAIN) {
			r->p.failed = 1;
			return 1;
		}
		probe_add(&r->p, (mglru_now() - t0) * 1000);
		mglru_sleep_ms(500);
	}
	return 0;
}

/* Start a probe in the memcg @cg, of the memcg @target. */
int probe_start(struct probe_run *run, enum probe_kind kind, const char *cg,
		const char *target)
{
	struct reclaimer *r;

	memset(run, 0, sizeof(*run));
	if (kind == PROBE_RECLAIM) {
		r = mglru_shared_alloc(sizeof(*r));
		if (!r)
			return -1;
		snprintf(r->cg, sizeof(r->cg), "%s", target);
		run->shared = &r->p;
		run->size = sizeof(*r);
		r->p.seed = getpid();
		run->pid = mglru_spawn(cg, reclaimer, r);
	} else {
		run->shared = mglru_shared_alloc(sizeof(struct probe));
		if (!run->shared)
			return -1;
		run->size = sizeof(struct probe);
		((struct probe *)run->shared)->seed = getpid();
		run->pid = mglru_spawn(cg, neighbour, run->shared);
	}
	return run->pid < 0 ? -1 : 0;
}

/* A probe that started, stopped, its timings dropped; none: nothing. */
void probe_discard(struct probe_run *run)
{
	if (run->pid > 0)
		mglru_kill(run->pid);
	if (run->shared)
		munmap(run->shared, run->size);
	memset(run, 0, sizeof(*run));
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
	int status = 0, ret = -1;
	long n;

	memset(st, 0, sizeof(*st));
	if (!p || run->pid <= 0)
		return -1;
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
	/* a write to memory.reclaim ends when its reclaim does */
	if (mglru_wait(run->pid, &status, 60) == 1)
		ret = WIFEXITED(status) && !WEXITSTATUS(status) && !p->failed ? 0 : -1;
	else
		mglru_kill(run->pid);
	run->pid = 0;
	n = p->n < PROBE_MAX ? p->n : PROBE_MAX;
	st->n = p->n;
	if (n) {
		qsort(p->ms, n, sizeof(p->ms[0]), cmp_float);
		st->p50 = p->ms[n / 2];
		st->p99 = p->ms[n * 99 / 100];
		st->max = p->max;
	}
	probe_discard(run);
	return ret;
}
