// SPDX-License-Identifier: GPL-2.0
/*
 * get_nr_to_scan() and apply_proportional_protection() as mm/vmscan.c
 * has them before the hook (old_*) and after its first patch (new_*),
 * compiled from the kernel's own text (old.c and new.c, cut out by
 * tests/budget-equivalence.sh) against stand-ins for what they call, and
 * compared on the same inputs: the budget, the protected scan count,
 * sc->memcg_low_skipped and the warnings. Prints the number of inputs and
 * of differences; exits 1 on any difference.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_SWAPPINESS		200
#define SWAPPINESS_ANON_ONLY	(MAX_SWAPPINESS + 1)
#define SWAP_CLUSTER_MAX	32UL
#define max(a, b)		((a) > (b) ? (a) : (b))
#define READ_ONCE(x)		(x)

static int warnings;
#define WARN_ON_ONCE(c)		((c) ? (warnings++, 1) : 0)

struct mem_cgroup {
	unsigned long min, low, usage;
	bool online, anon_reclaimable;
};
struct pglist_data { int node_id; };
struct lruvec { unsigned long evictable; struct pglist_data pgdat; };
struct scan_control {
	struct mem_cgroup *target_mem_cgroup;
	int priority;
	unsigned int memcg_low_reclaim:1;
	unsigned int memcg_low_skipped:1;
	unsigned int proactive:1;
};

static void mem_cgroup_protection(struct mem_cgroup *root, struct mem_cgroup *memcg,
				  unsigned long *min, unsigned long *low,
				  unsigned long *usage)
{
	*min = memcg->min;
	*low = memcg->low;
	*usage = memcg->usage;
}

static bool mem_cgroup_online(struct mem_cgroup *memcg) { return memcg->online; }
static struct pglist_data *lruvec_pgdat(struct lruvec *l) { return &l->pgdat; }
static unsigned long lruvec_evictable_size(struct lruvec *l, int swappiness)
{
	return l->evictable;
}
static bool can_reclaim_anon_pages(struct mem_cgroup *memcg, int nid, struct scan_control *sc)
{
	return memcg->anon_reclaimable;
}

#define apply_proportional_protection old_apply_proportional_protection
#define get_nr_to_scan old_get_nr_to_scan
#include "old.c"
#undef apply_proportional_protection
#undef get_nr_to_scan
#define __apply_proportional_protection new___apply_proportional_protection
#define apply_proportional_protection new_apply_proportional_protection
#define lru_gen_scan_budget new_lru_gen_scan_budget
#define lru_gen_memcg_scan_budget new_lru_gen_memcg_scan_budget
#define get_nr_to_scan new_get_nr_to_scan
#include "new.c"

static uint64_t rng = 88172645463325252ULL;

static unsigned long rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* a value of the sizes that matter: 0, small, around a boundary, huge */
static unsigned long pick(void)
{
	static const unsigned long edge[] = {
		0, 1, 2, 31, 32, 33, 1000, 1UL << 20, (1UL << 31) - 1,
		1UL << 40, (unsigned long)-1 >> 12, (unsigned long)-1 >> 1,
	};

	switch (rnd() % 4) {
	case 0:
		return edge[rnd() % (sizeof(edge) / sizeof(edge[0]))] + rnd() % 3;
	case 1:
		return rnd() % 4096;
	case 2:
		return rnd() % (1UL << 24);
	default:
		return rnd() >> (rnd() % 64);
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, i, diff = 0;
	static const int swappiness[] = { 0, 1, 60, MAX_SWAPPINESS, SWAPPINESS_ANON_ONLY };

	for (i = 0; i < n; i++) {
		struct mem_cgroup memcg = {
			.min = pick(), .low = pick(), .usage = pick(),
			.online = rnd() % 4 != 0, .anon_reclaimable = rnd() % 2,
		};
		struct lruvec lruvec = { .evictable = pick() };
		struct scan_control a = {
			.priority = rnd() % 13,
			.memcg_low_reclaim = rnd() % 2,
			.proactive = rnd() % 2,
		}, b = a;
		int sw = swappiness[rnd() % 5], wa, wb;
		unsigned long scan = pick(), pa, pb;
		long ra, rb;

		if (rnd() % 4 == 0)
			memcg.min = memcg.low = 0;
		warnings = 0;
		ra = old_get_nr_to_scan(&lruvec, &a, &memcg, sw);
		pa = old_apply_proportional_protection(&memcg, &a, scan);
		wa = warnings;
		warnings = 0;
		rb = new_get_nr_to_scan(&lruvec, &b, &memcg, sw);
		pb = new_apply_proportional_protection(&memcg, &b, scan);
		wb = warnings;
		if (ra != rb || pa != pb || wa != wb ||
		    a.memcg_low_skipped != b.memcg_low_skipped) {
			if (diff++ < 5)
				printf("differs: min %lu low %lu usage %lu online %d evictable %lu priority %d swappiness %d: %ld/%ld %lu/%lu\n",
				       memcg.min, memcg.low, memcg.usage, memcg.online,
				       lruvec.evictable, a.priority, sw, ra, rb, pa, pb);
		}
	}
	printf("%ld inputs, %ld differences\n", n, diff);
	return diff != 0;
}
