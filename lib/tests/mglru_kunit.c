// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for multi-gen LRU reclaim.
 *
 * The functions under test are static, and most take struct scan_control,
 * which only mm/vmscan.c defines: mm/vmscan.c includes this file at its
 * end when CONFIG_MGLRU_KUNIT_TEST is set. Each suite's section says what
 * it tests and on what.
 */

#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/blkdev.h>
#include <linux/mman.h>
#include <linux/pagewalk.h>

/*
 * mglru: the helpers that size, pace and steer reclaim:
 * lruvec_evictable_size(), lru_gen_scan_budget() and the proportional
 * protection it applies, should_run_aging(), get_type_to_scan() and
 * lru_gen_folio_seq(), on a lruvec of the case's own that belongs to no
 * node and no memcg, and get_nr_to_scan()'s anon-only check on the root
 * memcg's lruvec, which it only reads.
 */

/* a page count placed in one generation, type and zone of the lruvec */
struct mglru_pages {
	unsigned long seq;
	int type;
	int zone;
	long nr;
};

#define MGLRU_MAX_ENTRIES	6

struct mglru_state {
	unsigned long min_seq[ANON_AND_FILE];
	unsigned long max_seq;
	struct mglru_pages pages[MGLRU_MAX_ENTRIES];
};

/* the last zone: a second zone that is neither the first nor the default */
#define MGLRU_LAST_ZONE		(MAX_NR_ZONES - 1)

/*
 * A lruvec of the case's own in @state, set up by lruvec_init() as the
 * kernel sets up every lruvec. It belongs to no node and no memcg and holds
 * no folio: the helpers that take it read only its generations, page counts
 * and refault history, which the case fills in.
 */
static struct lruvec *mglru_lruvec_alloc(struct kunit *test, const struct mglru_state *state)
{
	struct lru_gen_folio *lrugen;
	struct lruvec *lruvec;
	int i;

	KUNIT_ASSERT_LE(test, state->min_seq[LRU_GEN_ANON], state->max_seq);
	KUNIT_ASSERT_LE(test, state->min_seq[LRU_GEN_FILE], state->max_seq);
	lruvec = kunit_kzalloc(test, sizeof(*lruvec), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lruvec);
	lruvec_init(lruvec);

	lrugen = &lruvec->lrugen;
	lrugen->max_seq = state->max_seq;
	lrugen->min_seq[LRU_GEN_ANON] = state->min_seq[LRU_GEN_ANON];
	lrugen->min_seq[LRU_GEN_FILE] = state->min_seq[LRU_GEN_FILE];

	for (i = 0; i < MGLRU_MAX_ENTRIES; i++) {
		const struct mglru_pages *p = &state->pages[i];

		lrugen->nr_pages[lru_gen_from_seq(p->seq)][p->type][p->zone] += p->nr;
	}
	return lruvec;
}

static void mglru_expect_seqs_unchanged(struct kunit *test, struct lruvec *lruvec,
					const struct mglru_state *state)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;

	KUNIT_EXPECT_EQ(test, READ_ONCE(lrugen->max_seq), state->max_seq);
	KUNIT_EXPECT_EQ(test, READ_ONCE(lrugen->min_seq[LRU_GEN_ANON]),
			state->min_seq[LRU_GEN_ANON]);
	KUNIT_EXPECT_EQ(test, READ_ONCE(lrugen->min_seq[LRU_GEN_FILE]),
			state->min_seq[LRU_GEN_FILE]);
}

/*
 * lruvec_evictable_size()
 *
 * MIN_NR_GENS is 2 and MAX_NR_GENS 4, so a window [min_seq, max_seq] spans
 * at most four generations; a seq outside the window still maps to a gen
 * slot, which is how the cases plant pages the helper must not count.
 */
struct mglru_size_case {
	const char *name;
	int swappiness;
	struct mglru_state state;
	unsigned long expected;
};

#define MGLRU_MIXED_STATE {						\
	.min_seq = { 3, 3 }, .max_seq = 5, .pages = {			\
		{ 3, LRU_GEN_FILE, 0, 10 }, { 5, LRU_GEN_FILE, 0, 20 },	\
		{ 4, LRU_GEN_ANON, 0, 100 },				\
	} }

static const struct mglru_size_case mglru_size_cases[] = {
	{
		.name = "empty_lruvec_is_zero",
		.swappiness = 60,
		.state = { .min_seq = { 3, 3 }, .max_seq = 5 },
		.expected = 0,
	},
	{
		.name = "swappiness_0_counts_file_only",
		.swappiness = 0, .state = MGLRU_MIXED_STATE, .expected = 30,
	},
	{
		.name = "swappiness_1_counts_anon_and_file",
		.swappiness = 1, .state = MGLRU_MIXED_STATE, .expected = 130,
	},
	{
		.name = "swappiness_200_counts_anon_and_file",
		.swappiness = MAX_SWAPPINESS, .state = MGLRU_MIXED_STATE, .expected = 130,
	},
	{
		.name = "swappiness_anon_only_counts_anon_only",
		.swappiness = SWAPPINESS_ANON_ONLY, .state = MGLRU_MIXED_STATE,
		.expected = 100,
	},
	{
		.name = "min_seq_generation_is_counted",
		.swappiness = 0,
		.state = { .min_seq = { 4, 4 }, .max_seq = 7, .pages = {
			{ 4, LRU_GEN_FILE, 0, 7 },
		} },
		.expected = 7,
	},
	{
		.name = "max_seq_generation_is_counted",
		.swappiness = 0,
		.state = { .min_seq = { 4, 4 }, .max_seq = 7, .pages = {
			{ 7, LRU_GEN_FILE, 0, 9 },
		} },
		.expected = 9,
	},
	{
		.name = "generation_below_min_seq_is_not_counted",
		.swappiness = 0,
		.state = { .min_seq = { 5, 5 }, .max_seq = 7, .pages = {
			{ 4, LRU_GEN_FILE, 0, 1000 }, { 6, LRU_GEN_FILE, 0, 3 },
		} },
		.expected = 3,
	},
	{
		.name = "each_type_starts_at_its_own_min_seq",
		.swappiness = 60,
		.state = { .min_seq = { 4, 5 }, .max_seq = 6, .pages = {
			{ 4, LRU_GEN_ANON, 0, 11 }, { 4, LRU_GEN_FILE, 0, 1000 },
			{ 5, LRU_GEN_FILE, 0, 22 }, { 6, LRU_GEN_ANON, 0, 33 },
		} },
		.expected = 66,
	},
	{
		.name = "file_min_seq_ahead_with_swappiness_0",
		.swappiness = 0,
		.state = { .min_seq = { 4, 5 }, .max_seq = 6, .pages = {
			{ 4, LRU_GEN_ANON, 0, 11 }, { 4, LRU_GEN_FILE, 0, 1000 },
			{ 5, LRU_GEN_FILE, 0, 22 }, { 6, LRU_GEN_FILE, 0, 44 },
		} },
		.expected = 66,
	},
	{
		.name = "every_zone_is_counted",
		.swappiness = 60,
		.state = { .min_seq = { 3, 3 }, .max_seq = 5, .pages = {
			{ 3, LRU_GEN_FILE, 0, 1 }, { 4, LRU_GEN_FILE, MGLRU_LAST_ZONE, 20 },
			{ 5, LRU_GEN_ANON, MGLRU_LAST_ZONE, 300 }, { 5, LRU_GEN_ANON, 0, 4000 },
		} },
		.expected = 4321,
	},
	{
		.name = "negative_counter_is_clamped_to_zero",
		.swappiness = 60,
		.state = { .min_seq = { 3, 3 }, .max_seq = 5, .pages = {
			{ 3, LRU_GEN_FILE, 0, -50 }, { 4, LRU_GEN_FILE, 0, 30 },
			{ 5, LRU_GEN_ANON, MGLRU_LAST_ZONE, -7 }, { 5, LRU_GEN_ANON, 0, 5 },
		} },
		.expected = 35,
	},
};

KUNIT_ARRAY_PARAM_DESC(mglru_size, mglru_size_cases, name);

static void mglru_test_evictable_size(struct kunit *test)
{
	const struct mglru_size_case *c = test->param_value;
	struct lruvec *lruvec = mglru_lruvec_alloc(test, &c->state);

	KUNIT_EXPECT_EQ(test, lruvec_evictable_size(lruvec, c->swappiness), c->expected);
	mglru_expect_seqs_unchanged(test, lruvec, &c->state);
}

/*
 * lru_gen_scan_budget(), the arithmetic of get_nr_to_scan()
 *
 * A lruvec of MGLRU_BUDGET_PAGES evictable pages. The odd low bits make
 * every shift by the priority visible.
 */
#define MGLRU_BUDGET_PAGES	((1UL << 20) + 12345)

static const int mglru_priorities[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, DEF_PRIORITY,
};

static void mglru_priority_desc(const int *priority, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "priority_%d", *priority);
}

KUNIT_ARRAY_PARAM(mglru_priority, mglru_priorities, mglru_priority_desc);

/* an online memcg without protection: the evictable size, shifted */
static void mglru_test_budget_shifts_by_priority(struct kunit *test)
{
	struct scan_control sc = { .priority = *(const int *)test->param_value };

	KUNIT_EXPECT_EQ(test, lru_gen_scan_budget(&sc, MGLRU_BUDGET_PAGES, true, 0, 0, 0),
			MGLRU_BUDGET_PAGES >> sc.priority);
	/* usage without protection protects nothing */
	KUNIT_EXPECT_EQ(test, lru_gen_scan_budget(&sc, MGLRU_BUDGET_PAGES, true, 0, 0, 1UL << 30),
			MGLRU_BUDGET_PAGES >> sc.priority);
}

/*
 * A deleted memcg is scraped whole, whatever the priority and its
 * protection, and its memory.low is not reported as skipped.
 */
static void mglru_test_budget_offline_memcg_is_scraped_whole(struct kunit *test)
{
	struct scan_control sc = { .priority = *(const int *)test->param_value };

	KUNIT_EXPECT_EQ(test, lru_gen_scan_budget(&sc, MGLRU_BUDGET_PAGES, false, 0, 0, 0),
			MGLRU_BUDGET_PAGES);
	KUNIT_EXPECT_EQ(test, lru_gen_scan_budget(&sc, MGLRU_BUDGET_PAGES, false,
						  500000, 1500000, 2000000),
			MGLRU_BUDGET_PAGES);
	KUNIT_EXPECT_EQ(test, (unsigned int)sc.memcg_low_skipped, 0U);
}

/*
 * memory.min and memory.low shrink the budget in proportion to how much of
 * the memcg's usage they protect: size - size * protection / (usage + 1),
 * never below SWAP_CLUSTER_MAX, then shifted by the priority.
 */
struct mglru_protection_case {
	const char *name;
	unsigned long usage, min, low;
	unsigned int memcg_low_reclaim;
	int priority;
	unsigned long expected;
	unsigned int low_skipped;
};

static const struct mglru_protection_case mglru_protection_cases[] = {
	{
		.name = "min_protects_half_of_usage",
		.usage = 2000000, .min = 1000000,
		/* 1060921 - 1060921 * 1000000 / 2000001 = 1060921 - 530460 */
		.expected = 530461,
	},
	{
		.name = "min_protection_is_shifted_by_priority",
		.usage = 2000000, .min = 1000000, .priority = 4,
		.expected = 530461 >> 4,
	},
	{
		.name = "low_above_min_is_used_and_marks_skipped",
		.usage = 2000000, .min = 500000, .low = 1500000,
		/* 1060921 - 1060921 * 1500000 / 2000001 = 1060921 - 795690 */
		.expected = 265231, .low_skipped = 1,
	},
	{
		.name = "low_reclaim_falls_back_to_min",
		.usage = 2000000, .min = 500000, .low = 1500000,
		.memcg_low_reclaim = 1,
		/* 1060921 - 1060921 * 500000 / 2000001 = 1060921 - 265230 */
		.expected = 795691,
	},
	{
		.name = "low_equal_to_min_uses_min_unskipped",
		.usage = 2000000, .min = 1000000, .low = 1000000,
		.expected = 530461,
	},
	{
		.name = "low_alone_protects",
		.usage = 2000000, .low = 1000000,
		.expected = 530461, .low_skipped = 1,
	},
	{
		.name = "usage_below_protection_counts_as_protection",
		.usage = 1000, .min = 1000000,
		/* 1060921 - 1060921 * 1000000 / 1000001 = 1060921 - 1060919 */
		.expected = SWAP_CLUSTER_MAX,
	},
	{
		.name = "full_protection_still_scans_swap_cluster_max",
		.usage = 1000, .min = 4000000,
		.expected = SWAP_CLUSTER_MAX,
	},
	{
		.name = "swap_cluster_max_floor_is_shifted_too",
		.usage = 1000, .min = 4000000, .priority = 2,
		.expected = SWAP_CLUSTER_MAX >> 2,
	},
};

KUNIT_ARRAY_PARAM_DESC(mglru_protection, mglru_protection_cases, name);

static void mglru_test_budget_protection(struct kunit *test)
{
	const struct mglru_protection_case *c = test->param_value;
	struct scan_control sc = {
		.priority = c->priority,
		.memcg_low_reclaim = c->memcg_low_reclaim,
	};

	if (BITS_PER_LONG < 64)
		kunit_skip(test, "the expected values are of 64-bit arithmetic");

	KUNIT_EXPECT_EQ(test, lru_gen_scan_budget(&sc, MGLRU_BUDGET_PAGES, true,
						  c->min, c->low, c->usage),
			c->expected);
	KUNIT_EXPECT_EQ(test, (unsigned int)sc.memcg_low_skipped, c->low_skipped);
}

/*
 * Whether a WARN_ON_ONCE() whose warning is suppressed can be counted in
 * this run: where WARN_ON_ONCE() is a bug table entry (__WARN_FLAGS), a
 * suppressed warning leaves the once unspent, and every run counts it;
 * where it is DO_ONCE_LITE_IF() (UML) the first run in a boot spends it.
 * A WARN_ON_ONCE() of the case's own, spent alongside the one under test,
 * tells which.
 */
static bool mglru_warn_once_counts(struct kunit *test)
{
	int count = 0;

	kunit_warning_suppress(test) {
		WARN_ON_ONCE(true);
		count = KUNIT_SUPPRESSED_WARNING_COUNT();
	}
	return count == 1;
}

/*
 * get_nr_to_scan()
 *
 * Only proactive reclaim asks for anon only: get_nr_to_scan() warns when
 * SWAPPINESS_ANON_ONLY reaches it from anywhere else, and sizes no pass
 * when anon cannot be reclaimed. The lruvec is the root memcg's, which the
 * helper reads and does not change. The warning is suppressed, so the
 * kernel is not tainted.
 */
static void mglru_test_budget_anon_only_warns_outside_proactive(struct kunit *test)
{
	struct scan_control sc = { .priority = 0, .no_demotion = 1 };
	int nid = first_online_node;
	struct lruvec *lruvec;
	bool counts, reclaimable;

	if (!IS_ENABLED(CONFIG_BUG))
		kunit_skip(test, "WARN_ON_ONCE() is compiled out (CONFIG_BUG=n)");
	if (mem_cgroup_disabled())
		kunit_skip(test, "the memory controller is disabled");
	lruvec = mem_cgroup_lruvec(root_mem_cgroup, NODE_DATA(nid));
	reclaimable = can_reclaim_anon_pages(root_mem_cgroup, nid, &sc);
	counts = mglru_warn_once_counts(test);
	if (reclaimable && !counts)
		kunit_skip(test, "an earlier run spent the warning, and the machine has swap");

	kunit_warning_suppress(test) {
		long budget = get_nr_to_scan(lruvec, &sc, root_mem_cgroup, SWAPPINESS_ANON_ONLY);

		if (!reclaimable)
			KUNIT_EXPECT_EQ_MSG(test, budget, 0L,
					    "no swap: an anon-only pass must be sized 0");
		if (counts)
			KUNIT_EXPECT_SUPPRESSED_WARNING_COUNT(test, 1);
	}
}

/* should_run_aging() */
struct mglru_aging_case {
	const char *name;
	int swappiness;
	int priority;
	unsigned long min_seq[ANON_AND_FILE];
	unsigned long max_seq;
	bool expected;
};

static const struct mglru_aging_case mglru_aging_cases[] = {
	{
		.name = "two_gens_left_ages_at_def_priority",
		.swappiness = 60, .priority = DEF_PRIORITY,
		.min_seq = { 6, 6 }, .max_seq = 7, .expected = true,
	},
	{
		.name = "two_gens_left_ages_below_def_priority",
		.swappiness = 60, .priority = 1,
		.min_seq = { 6, 6 }, .max_seq = 7, .expected = true,
	},
	{
		.name = "three_gens_left_skips_aging_at_def_priority",
		.swappiness = 60, .priority = DEF_PRIORITY,
		.min_seq = { 5, 5 }, .max_seq = 7, .expected = false,
	},
	{
		.name = "three_gens_left_ages_below_def_priority",
		.swappiness = 60, .priority = DEF_PRIORITY - 1,
		.min_seq = { 5, 5 }, .max_seq = 7, .expected = true,
	},
	{
		.name = "three_gens_left_ages_at_priority_0",
		.swappiness = 60, .priority = 0,
		.min_seq = { 5, 5 }, .max_seq = 7, .expected = true,
	},
	{
		.name = "four_gens_left_skips_aging_below_def_priority",
		.swappiness = 60, .priority = 0,
		.min_seq = { 4, 4 }, .max_seq = 7, .expected = false,
	},
	{
		.name = "swappiness_0_looks_at_file_min_seq_only",
		.swappiness = 0, .priority = 0,
		.min_seq = { 4, 5 }, .max_seq = 7, .expected = true,
	},
	{
		.name = "swappiness_0_ignores_anon_out_of_gens",
		.swappiness = 0, .priority = 0,
		.min_seq = { 6, 4 }, .max_seq = 7, .expected = false,
	},
	{
		.name = "swappiness_60_uses_the_older_type",
		.swappiness = 60, .priority = 0,
		.min_seq = { 5, 4 }, .max_seq = 7, .expected = false,
	},
	{
		.name = "swappiness_60_out_of_gens_uses_the_older_type",
		.swappiness = 60, .priority = DEF_PRIORITY,
		.min_seq = { 6, 4 }, .max_seq = 7, .expected = false,
	},
	{
		/*
		 * at swappiness 1 get_type_to_scan() selects file: file at two
		 * generations beside anon at three, which try_to_inc_min_seq()
		 * allows, does not age at the default priority, where only the
		 * older type counts
		 */
		.name = "swappiness_1_file_out_of_gens_uses_the_older_type",
		.swappiness = 1, .priority = DEF_PRIORITY,
		.min_seq = { 5, 6 }, .max_seq = 7, .expected = false,
	},
	{
		/* nor anon at MAX_SWAPPINESS beside file at three */
		.name = "max_swappiness_anon_out_of_gens_uses_the_older_type",
		.swappiness = MAX_SWAPPINESS, .priority = DEF_PRIORITY,
		.min_seq = { 6, 5 }, .max_seq = 7, .expected = false,
	},
	{
		.name = "anon_only_looks_at_anon_min_seq_only",
		.swappiness = SWAPPINESS_ANON_ONLY, .priority = 0,
		.min_seq = { 5, 4 }, .max_seq = 7, .expected = true,
	},
};

KUNIT_ARRAY_PARAM_DESC(mglru_aging, mglru_aging_cases, name);

static void mglru_test_should_run_aging(struct kunit *test)
{
	const struct mglru_aging_case *c = test->param_value;
	struct mglru_state state = {
		.min_seq = { c->min_seq[LRU_GEN_ANON], c->min_seq[LRU_GEN_FILE] },
		.max_seq = c->max_seq,
	};
	struct scan_control sc = { .priority = c->priority };
	struct lruvec *lruvec = mglru_lruvec_alloc(test, &state);

	KUNIT_EXPECT_EQ(test, should_run_aging(lruvec, c->max_seq, &sc, c->swappiness),
			c->expected);
	mglru_expect_seqs_unchanged(test, lruvec, &state);
}

/*
 * get_type_to_scan()
 *
 * Swappiness 0 and 1 scan file and MAX_SWAPPINESS and above anon, whatever
 * the refault history says; in between, the history of each type's
 * refaults decides, over all tiers, each type's weighed by its share of
 * swappiness. A lruvec with no history scans file; one whose file folios
 * refaulted and anon ones did not scans anon; with the same refault rate
 * in both, swappiness above 100 scans anon and below it file; where one
 * type refaults far more often than the other, the other.
 */
struct mglru_type_case {
	const char *name;
	int swappiness;
	bool file_refaulted;
	int expected;
	/* else each type's refaults and evictions, in one tier */
	int tier;
	unsigned long refaulted[ANON_AND_FILE];
	unsigned long total[ANON_AND_FILE];
};

#define MGLRU_TYPE_HISTORY(_name, _swappiness, _tier, _anon_ref, _anon_total,	\
			   _file_ref, _file_total, _expected)			\
	{ .name = _name, .swappiness = _swappiness, .tier = _tier,		\
	  .refaulted = { _anon_ref, _file_ref },				\
	  .total = { _anon_total, _file_total }, .expected = _expected }

static const struct mglru_type_case mglru_type_cases[] = {
	{ "swappiness_0_scans_file", 0, true, LRU_GEN_FILE },
	{ "swappiness_1_scans_file_despite_file_refaults", 1, true, LRU_GEN_FILE },
	{ "swappiness_2_follows_file_refaults_to_anon", 2, true, LRU_GEN_ANON },
	{ "swappiness_2_without_refaults_scans_file", 2, false, LRU_GEN_FILE },
	{ "swappiness_100_follows_file_refaults_to_anon", 100, true, LRU_GEN_ANON },
	{ "swappiness_199_without_refaults_scans_file", MAX_SWAPPINESS - 1, false,
	  LRU_GEN_FILE },
	{ "swappiness_200_scans_anon_without_refaults", MAX_SWAPPINESS, false, LRU_GEN_ANON },
	{ "anon_only_scans_anon", SWAPPINESS_ANON_ONLY, false, LRU_GEN_ANON },
	MGLRU_TYPE_HISTORY("swappiness_150_same_rates_scans_anon", 150, 2,
			   1000, 2000, 1000, 2000, LRU_GEN_ANON),
	MGLRU_TYPE_HISTORY("swappiness_50_same_rates_scans_file", 50, 2,
			   1000, 2000, 1000, 2000, LRU_GEN_FILE),
	MGLRU_TYPE_HISTORY("anon_refaulting_more_in_the_top_tier_scans_file", 100,
			   MAX_NR_TIERS - 1, 60000, 65536, 2000, 65536, LRU_GEN_FILE),
	MGLRU_TYPE_HISTORY("file_refaulting_more_in_the_top_tier_scans_anon", 100,
			   MAX_NR_TIERS - 1, 2000, 65536, 60000, 65536, LRU_GEN_ANON),
};

KUNIT_ARRAY_PARAM_DESC(mglru_type, mglru_type_cases, name);

static void mglru_test_type_to_scan(struct kunit *test)
{
	const struct mglru_type_case *c = test->param_value;
	struct mglru_state state = { .min_seq = { 4, 4 }, .max_seq = 7 };
	struct lruvec *lruvec = mglru_lruvec_alloc(test, &state);
	int type;

	if (c->file_refaulted) {
		/* far more file refaults than evictions: tier 0, summed with the rest */
		lruvec->lrugen.avg_refaulted[LRU_GEN_FILE][0] = 1UL << 16;
		lruvec->lrugen.avg_total[LRU_GEN_FILE][0] = 1;
	}
	for (type = 0; type < ANON_AND_FILE; type++) {
		lruvec->lrugen.avg_refaulted[type][c->tier] += c->refaulted[type];
		lruvec->lrugen.avg_total[type][c->tier] += c->total[type];
	}

	KUNIT_EXPECT_EQ(test, get_type_to_scan(lruvec, c->swappiness), c->expected);
}

/*
 * lru_gen_folio_seq(): the generation a folio joins, from its flags, on a
 * lruvec with generations 4 to 7 (or a higher min_seq, to clamp). Active
 * folios (mapped and accessed while isolated) join the two youngest;
 * anon ones not in the swap cache, and dirty or writeback ones that
 * reclaim rejected (PG_reclaim), the second youngest; file folios read
 * once or refaulted the second oldest; the rest, and what reclaim puts
 * back, the oldest.
 */
struct mglru_folio_seq_case {
	const char *name;
	unsigned long flags;
	bool reclaiming;
	unsigned long min_seq[ANON_AND_FILE];
	unsigned long expected;
};

#define MGLRU_SEQ_CASE(_name, _flags, _reclaiming, _expected)		\
	{ .name = _name, .flags = _flags, .reclaiming = _reclaiming,	\
	  .min_seq = { 4, 4 }, .expected = _expected }

static const struct mglru_folio_seq_case mglru_folio_seq_cases[] = {
	MGLRU_SEQ_CASE("file_lands_oldest", 0, false, 4),
	MGLRU_SEQ_CASE("file_referenced_lands_second_oldest", BIT(PG_referenced), false, 5),
	MGLRU_SEQ_CASE("file_workingset_lands_second_oldest", BIT(PG_workingset), false, 5),
	MGLRU_SEQ_CASE("active_lands_second_youngest", BIT(PG_active), false, 6),
	MGLRU_SEQ_CASE("active_workingset_lands_youngest",
		       BIT(PG_active) | BIT(PG_workingset), false, 7),
	MGLRU_SEQ_CASE("reclaiming_lands_oldest", BIT(PG_referenced), true, 4),
	MGLRU_SEQ_CASE("anon_lands_second_youngest", BIT(PG_swapbacked), false, 6),
	MGLRU_SEQ_CASE("anon_in_swap_cache_lands_oldest",
		       BIT(PG_swapbacked) | BIT(PG_swapcache), false, 4),
	MGLRU_SEQ_CASE("rejected_dirty_lands_second_youngest",
		       BIT(PG_reclaim) | BIT(PG_dirty), false, 6),
	MGLRU_SEQ_CASE("rejected_writeback_lands_second_youngest",
		       BIT(PG_reclaim) | BIT(PG_writeback), false, 6),
	MGLRU_SEQ_CASE("dirty_not_rejected_lands_oldest", BIT(PG_dirty), false, 4),
	MGLRU_SEQ_CASE("rejected_clean_lands_oldest", BIT(PG_reclaim), false, 4),
	{
		.name = "clamped_to_file_min_seq", .flags = 0,
		.min_seq = { 4, 6 }, .expected = 6,
	},
	{
		.name = "clamped_to_anon_min_seq",
		.flags = BIT(PG_swapbacked) | BIT(PG_swapcache),
		.min_seq = { 6, 4 }, .expected = 6,
	},
};

KUNIT_ARRAY_PARAM_DESC(mglru_folio_seq, mglru_folio_seq_cases, name);

/* a folio of the case's own, off any list, and the flags it came with */
struct mglru_flagged_folio {
	struct folio *folio;
	unsigned long flags;
};

static void mglru_flagged_folio_put(void *arg)
{
	struct mglru_flagged_folio *f = arg;

	f->folio->flags.f = f->flags;
	folio_put(f->folio);
}

static void mglru_test_folio_seq(struct kunit *test)
{
	const struct mglru_folio_seq_case *c = test->param_value;
	struct mglru_state state = {
		.min_seq = { c->min_seq[LRU_GEN_ANON], c->min_seq[LRU_GEN_FILE] },
		.max_seq = 7,
	};
	struct lruvec *lruvec = mglru_lruvec_alloc(test, &state);
	struct mglru_flagged_folio *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->folio = folio_alloc(GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, f->folio);
	f->flags = f->folio->flags.f;
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, mglru_flagged_folio_put, f));
	f->folio->flags.f |= c->flags;

	KUNIT_EXPECT_EQ(test, lru_gen_folio_seq(lruvec, f->folio, c->reclaiming), c->expected);
}

static struct kunit_case mglru_test_cases[] = {
	KUNIT_CASE_PARAM(mglru_test_evictable_size, mglru_size_gen_params),
	KUNIT_CASE_PARAM(mglru_test_budget_shifts_by_priority, mglru_priority_gen_params),
	KUNIT_CASE_PARAM(mglru_test_budget_offline_memcg_is_scraped_whole,
			 mglru_priority_gen_params),
	KUNIT_CASE_PARAM(mglru_test_budget_protection, mglru_protection_gen_params),
	KUNIT_CASE(mglru_test_budget_anon_only_warns_outside_proactive),
	KUNIT_CASE_PARAM(mglru_test_should_run_aging, mglru_aging_gen_params),
	KUNIT_CASE_PARAM(mglru_test_type_to_scan, mglru_type_gen_params),
	KUNIT_CASE_PARAM(mglru_test_folio_seq, mglru_folio_seq_gen_params),
	{}
};

static struct kunit_suite mglru_test_suite = {
	.name = "mglru",
	.test_cases = mglru_test_cases,
};

kunit_test_suite(mglru_test_suite);

/*
 * mglru_evict: what multi-gen LRU eviction does with real folios:
 *
 * - what reclaim learns from dirty folios: evict_folios() adds each
 *   batch's isolated, dirty, writeback and congested counts to sc->nr, from
 *   which shrink_node() throttles reclaim that meets only folios waiting
 *   for writeback; wakes the flushers when every folio it took was dirty
 *   and unqueued; and puts rejected folios back out of the oldest
 *   generation ("mm/vmscan: unify writeback reclaim statistic and
 *   throttling");
 *
 * - which type reclaim isolates: isolate_folios() turns to the other type
 *   only when it scanned nothing of the type it chose, not when it scanned
 *   folios and kept them all ("mm/mglru: avoid reclaim type fall back when
 *   isolation makes no progress");
 *
 * - what a batch frees and counts: lazily freed pages go, and what the
 *   retry of the clean folios cannot free goes back, counted once; a young
 *   mapped folio is kept and the young pages beside it promoted
 *   (look-around), their moves added to the generations' sizes.
 *
 * The folios are the case's own, with no mapping, charged to the root
 * memcg and added to its lruvec as any folio is. Reclaim finds the dirty
 * ones with nothing to write them, and cannot free the clean ones, which
 * have no mapping to be removed from: it puts both back. While a test
 * kernel boots, the root memcg's LRU holds nothing else and no other
 * reclaim runs; anywhere else it is the machine's, and the cases skip
 * rather than age or evict the machine's folios. Each case checks that
 * again after each pass of reclaim, and that each folio it leaves holds
 * no reference but its own.
 */

#define MGLRU_NR_FOLIOS		8
#define MGLRU_MAX_SETS		4

struct mglru_folios {
	struct folio *folio[MGLRU_NR_FOLIOS];
	struct lruvec *lruvec;
	struct mglru_folios *younger;	/* see mglru_folios_init() */
};

/* An aging attempt that loses the race, see mglru_aging_loses(). */
struct mglru_lost_aging {
	bool other_ages;
	int attempts;
};

/* What a folio case put on the root memcg's LRU (test->priv). */
struct mglru_case {
	struct mglru_folios *sets[MGLRU_MAX_SETS];
	int nr_sets;
	struct folio *faulted;
	int fault_refs;		/* folio_lru_refs() of @faulted, still mapped */
	unsigned long map_addr;	/* see mglru_map_written() */
	int nr_mapped;
	struct mglru_lost_aging *lost;
};

/*
 * The pages of the case's mapping (mglru_map_written()) still on the LRU:
 * the case holds no reference to them, its page tables do.
 */
static unsigned long mglru_mapped_lru_pages(struct mglru_case *c)
{
	struct vm_area_struct *vma;
	unsigned long pages = 0;
	struct folio_walk fw;
	struct folio *folio;
	int i;

	if (!c->nr_mapped || !current->mm)
		return 0;
	mmap_read_lock(current->mm);
	for (i = 0; i < c->nr_mapped; i++) {
		unsigned long addr = c->map_addr + i * PAGE_SIZE;

		vma = vma_lookup(current->mm, addr);
		folio = vma ? folio_walk_start(&fw, vma, addr, 0) : NULL;
		if (!folio)
			continue;
		/* one page of the mapping, whatever the folio's size */
		if (folio_test_lru(folio))
			pages++;
		folio_walk_end(&fw, vma);
	}
	mmap_read_unlock(current->mm);
	return pages;
}

/* The pages on the root memcg's LRU of every node. */
static unsigned long mglru_root_lru_pages(void)
{
	unsigned long pages = 0;
	int nid;

	for_each_online_node(nid)
		pages += lruvec_evictable_size(mem_cgroup_lruvec(root_mem_cgroup,
								 NODE_DATA(nid)), 1);
	return pages;
}

/* The pages of the case's own folios that are on the LRU. */
static unsigned long mglru_case_lru_pages(struct mglru_case *c)
{
	unsigned long pages = 0;
	int i, j;

	for (i = 0; i < c->nr_sets; i++)
		for (j = 0; j < MGLRU_NR_FOLIOS; j++)
			if (c->sets[i]->folio[j] && folio_test_lru(c->sets[i]->folio[j]))
				pages += folio_nr_pages(c->sets[i]->folio[j]);
	if (c->faulted && folio_test_lru(c->faulted))
		pages += folio_nr_pages(c->faulted);
	return pages + mglru_mapped_lru_pages(c);
}

/*
 * The root memcg's LRU must hold only the case's folios: skip @when it
 * holds others, which the case would then age or evict, and whose reclaim
 * would void its verdict. A case that has already failed stops, failed: a
 * skip would hide its failure.
 */
static void mglru_root_lru_check(struct kunit *test, const char *when)
{
	struct mglru_case *c = test->priv;
	unsigned long all = mglru_root_lru_pages(), mine = mglru_case_lru_pages(c);

	if (all <= mine)
		return;
	/* a failed case stops here, failed, rather than touch them */
	KUNIT_ASSERT_NE_MSG(test, test->status, KUNIT_FAILURE,
			    "%s, the root memcg's LRU holds %lu pages not of this case",
			    when, all - mine);
	kunit_skip(test, "%s, the root memcg's LRU holds %lu pages not of this case",
		   when, all - mine);
}

/*
 * The cases need MGLRU on and the root memcg's LRU to themselves, as while
 * a test kernel boots: no user space yet, no memory pressure for kswapd to
 * act on, and usually nothing on the LRU, which the cases check. Sets
 * test->priv.
 */
static void mglru_root_lru(struct kunit *test)
{
	if (!lru_gen_enabled())
		kunit_skip(test, "MGLRU is off (lru_gen/enabled)");
	if (system_state == SYSTEM_RUNNING)
		kunit_skip(test, "not at boot: the root memcg's LRU is the machine's");
	if (mem_cgroup_disabled())
		kunit_skip(test, "the memory controller is disabled");
	test->priv = kunit_kzalloc(test, sizeof(struct mglru_case), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, test->priv);
	mglru_root_lru_check(test, "before the case");
}

/*
 * Put the case's folios back, and fail the case if any of them holds a
 * reference besides the case's own: a reference that a pass took and did
 * not drop would keep the folio on the LRU. Such a folio is taken off the
 * LRU, so that the next case does not skip on it.
 */
static void mglru_folios_put(void *arg)
{
	struct mglru_folios *f = arg;
	struct kunit *test = kunit_get_current_test();
	int i, refs;

	/* cleanup runs in a thread of its own: the batches are other CPUs' */
	lru_add_drain_all();
	for (i = 0; i < MGLRU_NR_FOLIOS; i++) {
		if (!f->folio[i])
			continue;
		/* off the LRU, PG_active is the case's to clear */
		if (!folio_test_lru(f->folio[i]))
			folio_clear_active(f->folio[i]);
		folio_clear_dirty(f->folio[i]);
		folio_clear_reclaim(f->folio[i]);
		/* set by the case without mlock's count: freed, it would drop it */
		folio_clear_mlocked(f->folio[i]);
		if (folio_test_writeback(f->folio[i]))
			folio_end_writeback(f->folio[i]);
		refs = folio_ref_count(f->folio[i]);
		if (refs != 1) {
			if (test)
				KUNIT_FAIL(test, "folio %d holds %d references at the end",
					   i, refs);
			if (folio_isolate_lru(f->folio[i])) {
				folio_clear_active(f->folio[i]);
				folio_put(f->folio[i]);
			}
		}
		folio_put(f->folio[i]);
	}
}

/*
 * The root memcg's count of @item on @lruvec's node, every pending update
 * flushed: reclaim's events (PGSTEAL_*, PGROTATE_*) as memory.stat shows
 * them.
 */
static unsigned long mglru_stat(struct lruvec *lruvec, enum node_stat_item item)
{
	css_rstat_flush(&root_mem_cgroup->css);
	return lruvec_page_state(lruvec, item);
}

/* One aging step of @lruvec, as reclaim takes it. */
static void mglru_age_once(struct lruvec *lruvec, int swappiness)
{
	struct reclaim_state rs = {};

	set_task_reclaim_state(current, &rs);
	try_to_inc_max_seq(lruvec, READ_ONCE(lruvec->lrugen.max_seq), swappiness, true);
	clear_mm_walk();
	set_task_reclaim_state(current, NULL);
}

/*
 * Age @lruvec until its file type has @nr_gens generations, and return how
 * many it has. With @swappiness 0 the anon type is not kept: use 1 where it
 * matters.
 */
static int mglru_age_file(struct lruvec *lruvec, int nr_gens, int swappiness)
{
	int i;

	for (i = 0; i < MAX_NR_GENS && get_nr_gens(lruvec, LRU_GEN_FILE) < nr_gens; i++)
		mglru_age_once(lruvec, swappiness);
	return get_nr_gens(lruvec, LRU_GEN_FILE);
}

/* Let min_seq pass the oldest generations that hold no folio. */
static void mglru_drop_empty_gens(struct lruvec *lruvec, int swappiness)
{
	lruvec_lock_irq(lruvec);
	try_to_inc_min_seq(lruvec, swappiness);
	lruvec_unlock_irq(lruvec);
}

/*
 * MGLRU_NR_FOLIOS folios of the case's own, charged to the root memcg as
 * page cache is: swap-backed if @anon, the first @nr_dirty dirty.
 */
static struct mglru_folios *mglru_folios_alloc_order(struct kunit *test, bool anon,
						     int nr_dirty, unsigned int order)
{
	int i, ret, nid = numa_mem_id();
	struct mglru_case *c = test->priv;
	struct mem_cgroup *old;
	struct mglru_folios *f;

	KUNIT_ASSERT_LT(test, c->nr_sets, MGLRU_MAX_SETS);
	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action(test, mglru_folios_put, f));
	c->sets[c->nr_sets++] = f;

	for (i = 0; i < MGLRU_NR_FOLIOS; i++) {
		/* one node, one lruvec */
		f->folio[i] = __folio_alloc_node(GFP_KERNEL | __GFP_THISNODE, order, nid);
		KUNIT_ASSERT_NOT_NULL(test, f->folio[i]);
		old = set_active_memcg(root_mem_cgroup);
		ret = mem_cgroup_charge(f->folio[i], NULL, GFP_KERNEL);
		set_active_memcg(old);
		KUNIT_ASSERT_EQ(test, ret, 0);
		if (anon)
			__folio_set_swapbacked(f->folio[i]);
		if (i < nr_dirty)
			folio_set_dirty(f->folio[i]);
	}
	f->lruvec = folio_lruvec(f->folio[0]);
	return f;
}

static struct mglru_folios *mglru_folios_alloc(struct kunit *test, bool anon, int nr_dirty)
{
	return mglru_folios_alloc_order(test, anon, nr_dirty, 0);
}

static void mglru_folios_add(struct mglru_folios *f)
{
	int i;

	/* this CPU's LRU batch, drained on this CPU */
	migrate_disable();
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		folio_add_lru(f->folio[i]);
	lru_add_drain();
	migrate_enable();
}

/*
 * Expect every folio of @f on the LRU, in the generation of @seq. Returns
 * how many are not.
 */
static int mglru_folios_in_gen(struct kunit *test, struct mglru_folios *f,
			       unsigned long seq, const char *what)
{
	int i, gen = lru_gen_from_seq(seq), wrong = 0, first = -1;

	for (i = 0; i < MGLRU_NR_FOLIOS; i++) {
		if (folio_test_lru(f->folio[i]) && folio_lru_gen(f->folio[i]) == gen)
			continue;
		wrong++;
		if (first < 0)
			first = i;
	}
	KUNIT_EXPECT_EQ_MSG(test, wrong, 0,
			    "%s: folio %d %s generation %d, not %d (max_seq's is %d)",
			    what, first, first >= 0 && folio_test_lru(f->folio[first]) ?
			    "in" : "off the LRU, was", first < 0 ? gen :
			    folio_lru_gen(f->folio[first]), gen,
			    lru_gen_from_seq(READ_ONCE(f->lruvec->lrugen.max_seq)));
	return wrong;
}

/* Take @f off the LRU, as another isolation would. */
static void mglru_folios_del(struct mglru_folios *f)
{
	int i;

	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		if (folio_isolate_lru(f->folio[i]))
			folio_put(f->folio[i]);
}

/* All of @f in the oldest generation of @type, one that reclaim can evict. */
static void mglru_folios_in_oldest(struct kunit *test, struct mglru_folios *f,
				   int type)
{
	struct lru_gen_folio *lrugen = &f->lruvec->lrugen;

	KUNIT_ASSERT_GT_MSG(test, get_nr_gens(f->lruvec, type), MIN_NR_GENS,
			    "the lruvec has no %s generation to evict",
			    type == LRU_GEN_FILE ? "file" : "anon");
	KUNIT_ASSERT_EQ(test, 0,
			mglru_folios_in_gen(test, f, READ_ONCE(lrugen->min_seq[type]),
					    "the oldest generation"));
}

/*
 * Bring @f, on the LRU, to the oldest file generation of @nr_gens, as the
 * next pass of reclaim would find it.
 */
static void mglru_folios_oldest_of(struct kunit *test, struct mglru_folios *f, int nr_gens)
{
	mglru_drop_empty_gens(f->lruvec, 0);
	mglru_age_file(f->lruvec, nr_gens, 0);
	mglru_folios_in_oldest(test, f, LRU_GEN_FILE);
}

/* ... with one generation to spare, after a pass put @f back young. */
static void mglru_folios_make_oldest(struct kunit *test, struct mglru_folios *f)
{
	mglru_folios_oldest_of(test, f, MIN_NR_GENS + 1);
}

/*
 * MGLRU_NR_FOLIOS file folios, the first @nr_dirty dirty, on the LRU, all
 * in the oldest file generation of their lruvec, which has one to evict
 * besides the MIN_NR_GENS youngest. Above them, in the second oldest,
 * MGLRU_NR_FOLIOS clean ones (@f->younger; active folios land second
 * youngest): reclaim cannot empty that generation in the batch that takes
 * @f, so the oldest generation stays below the one where reclaim puts
 * back what it rejects, and a budget of the whole lruvec outlasts that
 * batch.
 */
static struct mglru_folios *mglru_folios_init(struct kunit *test, int nr_dirty)
{
	struct mglru_folios *f;
	unsigned long second;
	int i;

	mglru_root_lru(test);
	f = mglru_folios_alloc(test, false, nr_dirty);
	mglru_drop_empty_gens(f->lruvec, 0);
	mglru_age_file(f->lruvec, MIN_NR_GENS + 1, 0);
	mglru_folios_add(f);

	f->younger = mglru_folios_alloc(test, false, 0);
	KUNIT_ASSERT_PTR_EQ(test, f->younger->lruvec, f->lruvec);
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		folio_set_active(f->younger->folio[i]);
	mglru_folios_add(f->younger);

	mglru_folios_in_oldest(test, f, LRU_GEN_FILE);
	second = READ_ONCE(f->lruvec->lrugen.min_seq[LRU_GEN_FILE]) + 1;
	KUNIT_ASSERT_EQ(test, 0, mglru_folios_in_gen(test, f->younger, second,
						     "the second oldest generation"));
	return f;
}

/*
 * Expect @f, rejected by a pass, back in the second youngest generation,
 * which is not the oldest one.
 */
static void mglru_folios_back_young(struct kunit *test, struct mglru_folios *f,
				    const char *what)
{
	struct lru_gen_folio *lrugen = &f->lruvec->lrugen;

	KUNIT_ASSERT_LT_MSG(test, READ_ONCE(lrugen->min_seq[LRU_GEN_FILE]) + 1,
			    READ_ONCE(lrugen->max_seq),
			    "the pass left the second youngest generation the oldest");
	mglru_folios_in_gen(test, f, READ_ONCE(lrugen->max_seq) - 1, what);
}

/*
 * One pass of reclaim over the lruvec, anon left alone (no may_swap), at
 * the caller's priority (0, as the cases' zeroed scan_control has it, for a
 * budget of all of it), as shrink_many() makes it. The caller checks the
 * root LRU after it.
 */
static bool __mglru_shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc)
{
	struct reclaim_state rs = {};
	bool need_rotate;

	sc->gfp_mask = GFP_KERNEL;
	sc->may_unmap = 1;
	sc->reclaim_idx = MAX_NR_ZONES - 1;

	set_task_reclaim_state(current, &rs);
	need_rotate = try_to_shrink_lruvec(lruvec, sc);
	clear_mm_walk();
	set_task_reclaim_state(current, NULL);
	return need_rotate;
}

/*
 * Expect each generation's size (lrugen->nr_pages) to count the pages of
 * the folios that belong to it (folio_lru_gen()), wherever on the lists
 * they wait to be sorted: a pass has added to the sizes what it moved
 * between generations, look-around's moves batched in a page-table walk
 * (update_batch_size()) included.
 */
static void mglru_expect_gen_sizes(struct kunit *test, struct lruvec *lruvec)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	int gen, type, zone, bad_gen = -1, bad_type = 0, bad_zone = 0;
	long (*pages)[ANON_AND_FILE][MAX_NR_ZONES];
	int its_gen_bad = 0;
	struct folio *folio;
	long size, bad_size = 0;

	pages = kunit_kcalloc(test, MAX_NR_GENS, sizeof(*pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pages);

	lruvec_lock_irq(lruvec);
	for_each_gen_type_zone(gen, type, zone) {
		list_for_each_entry(folio, &lrugen->folios[gen][type][zone], lru) {
			int its = folio_lru_gen(folio);

			/* a folio on a list belongs to a generation */
			if (its < 0 || its >= MAX_NR_GENS)
				its_gen_bad = its;
			else
				pages[its][type][zone] += folio_nr_pages(folio);
		}
	}
	for_each_gen_type_zone(gen, type, zone) {
		size = READ_ONCE(lrugen->nr_pages[gen][type][zone]);
		if (bad_gen < 0 && size != pages[gen][type][zone]) {
			bad_gen = gen;
			bad_type = type;
			bad_zone = zone;
			bad_size = size;
		}
	}
	lruvec_unlock_irq(lruvec);

	KUNIT_EXPECT_EQ_MSG(test, its_gen_bad, 0,
			    "a folio on the LRU lists is of generation %d", its_gen_bad);
	KUNIT_EXPECT_LT_MSG(test, bad_gen, 0,
			    "generation %d, %s, zone %d: its size is %ld pages, its folios hold %ld",
			    bad_gen, bad_type == LRU_GEN_FILE ? "file" : "anon", bad_zone,
			    bad_size, bad_gen < 0 ? 0 : pages[bad_gen][bad_type][bad_zone]);
}

/*
 * One batch of eviction at @swappiness, as try_to_shrink_lruvec() asks
 * evict_folios() for it, with the scan_control the caller filled in; with
 * a page-table walk for look-around to batch its moves in when the pass
 * is proactive, as lru_gen_shrink_node() sets one up for a reclaimer
 * other than kswapd.
 */
static bool __mglru_evict_once(struct lruvec *lruvec, struct scan_control *sc,
			       int swappiness)
{
	struct reclaim_state rs = {};
	struct lru_gen_mm_walk *walk;

	set_task_reclaim_state(current, &rs);
	walk = set_mm_walk(NULL, sc->proactive);
	if (sc->proactive && !walk) {
		set_task_reclaim_state(current, NULL);
		return false;
	}
	evict_folios(MIN_LRU_BATCH, lruvec, sc, swappiness);
	clear_mm_walk();
	set_task_reclaim_state(current, NULL);
	return true;
}

static void mglru_evict_once(struct kunit *test, struct lruvec *lruvec,
			     struct scan_control *sc, int swappiness)
{
	if (!__mglru_evict_once(lruvec, sc, swappiness))
		KUNIT_FAIL_AND_ABORT(test, "no memory for a page-table walk");
	mglru_root_lru_check(test, "after a pass of reclaim");
	mglru_expect_gen_sizes(test, lruvec);
}

static bool mglru_shrink_lruvec(struct kunit *test, struct lruvec *lruvec,
				struct scan_control *sc)
{
	bool need_rotate = __mglru_shrink_lruvec(lruvec, sc);

	mglru_root_lru_check(test, "after a pass of reclaim");
	mglru_expect_gen_sizes(test, lruvec);
	return need_rotate;
}

static bool mglru_shrink_file(struct kunit *test, struct mglru_folios *f,
			      struct scan_control *sc)
{
	return mglru_shrink_lruvec(test, f->lruvec, sc);
}

/*
 * Dirty file folios with nothing to write them: shrink_folio_list() marks
 * each for immediate reclaim (PG_reclaim) and activates it. The batch
 * reports them in sc->nr, and they go back to the second youngest
 * generation, out of the way of the next pass until their writeback ends.
 */
static void mglru_test_evict_counts_dirty(struct kunit *test)
{
	struct scan_control sc = {};
	struct mglru_folios *f = mglru_folios_init(test, MGLRU_NR_FOLIOS);
	int i;

	mglru_shrink_file(test, f, &sc);

	/* each folio went through shrink_folio_list(), which met it dirty */
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		KUNIT_ASSERT_TRUE_MSG(test, folio_test_reclaim(f->folio[i]),
				      "folio %d was not reclaimed", i);
	KUNIT_EXPECT_GE_MSG(test, sc.nr.taken, MGLRU_NR_FOLIOS,
			    "sc->nr.taken: evict_folios() did not report what it isolated");
	KUNIT_EXPECT_GE_MSG(test, sc.nr.dirty, MGLRU_NR_FOLIOS,
			    "sc->nr.dirty: evict_folios() did not report the dirty folios");
	KUNIT_EXPECT_LE(test, sc.nr.dirty, sc.nr.taken);
	/* activated, a rejected dirty folio gets no retry */
	KUNIT_EXPECT_EQ_MSG(test, sc.nr_scanned, sc.nr.taken,
			    "shrink_folio_list() met %lu pages of %u isolated",
			    sc.nr_scanned, (unsigned int)sc.nr.taken);
	mglru_folios_back_young(test, f, "rejected dirty folios");
}

static void mglru_folios_start_writeback(struct mglru_folios *f)
{
	int i;

	for (i = 0; i < MGLRU_NR_FOLIOS; i++) {
		folio_lock(f->folio[i]);
		folio_start_writeback(f->folio[i]);
		folio_unlock(f->folio[i]);
	}
}

/*
 * File folios under writeback, met by two passes. The first marks them
 * PG_reclaim and counts them as writeback; the second finds them marked and
 * counts them as congested: every dirty folio congested is what makes
 * shrink_node() flag a memcg congested and throttle its reclaim.
 */
static void mglru_test_evict_counts_writeback(struct kunit *test)
{
	struct scan_control first = {}, second = {};
	struct mglru_folios *f = mglru_folios_init(test, 0);
	int i;

	mglru_folios_start_writeback(f);
	mglru_shrink_file(test, f, &first);

	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		KUNIT_ASSERT_TRUE_MSG(test, folio_test_reclaim(f->folio[i]),
				      "folio %d was not marked for immediate reclaim", i);
	KUNIT_EXPECT_GE(test, first.nr.taken, MGLRU_NR_FOLIOS);
	KUNIT_EXPECT_GE_MSG(test, first.nr.writeback, MGLRU_NR_FOLIOS,
			    "sc->nr.writeback: the folios under writeback were not reported");
	KUNIT_EXPECT_GE_MSG(test, first.nr.dirty, MGLRU_NR_FOLIOS,
			    "sc->nr.dirty: folios under writeback count as dirty");
	mglru_folios_back_young(test, f, "rejected folios under writeback");

	mglru_folios_del(f->younger);
	mglru_folios_make_oldest(test, f);
	mglru_shrink_file(test, f, &second);

	KUNIT_EXPECT_GE_MSG(test, second.nr.congested, MGLRU_NR_FOLIOS,
			    "sc->nr.congested: the marked folios still under writeback were not reported");
	KUNIT_EXPECT_EQ_MSG(test, second.nr.congested, second.nr.dirty,
			    "every dirty folio met was congested: shrink_node() must see it");
}

/*
 * File folios under writeback whose lock another task holds, here the
 * case, evicted in one batch: shrink_folio_list() cannot lock them and
 * keeps each as it is, neither scanned nor marked for immediate reclaim
 * nor activated, so that evict_folios() meets inactive folios under
 * writeback. It gives them no retry, which could not lock them either,
 * and puts them back in the second youngest generation as every rejected
 * folio that was in the oldest.
 */
static void mglru_test_evict_keeps_locked_writeback(struct kunit *test)
{
	struct scan_control sc = {};
	struct mglru_folios *f = mglru_folios_init(test, 0);
	int i;

	mglru_folios_start_writeback(f);
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		folio_lock(f->folio[i]);
	/* nothing that can abort the case while it holds the locks */
	__mglru_evict_once(f->lruvec, &sc, 0);
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		folio_unlock(f->folio[i]);
	mglru_root_lru_check(test, "after a pass of reclaim");
	mglru_expect_gen_sizes(test, f->lruvec);

	KUNIT_EXPECT_EQ(test, sc.nr.taken, MGLRU_NR_FOLIOS);
	KUNIT_EXPECT_EQ_MSG(test, sc.nr_scanned, 0,
			    "shrink_folio_list() scanned %lu pages it could not lock",
			    sc.nr_scanned);
	KUNIT_EXPECT_EQ(test, sc.nr.writeback, 0);
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		KUNIT_EXPECT_FALSE_MSG(test, folio_test_reclaim(f->folio[i]),
				       "folio %d was marked for immediate reclaim unlocked", i);
	/* the batch emptied the oldest generation: the next is the oldest now */
	mglru_folios_in_gen(test, f, READ_ONCE(f->lruvec->lrugen.max_seq) - 1,
			    "locked folios under writeback");
}

/*
 * The same in batches: scan_folios() ends a batch once it has isolated
 * MIN_LRU_BATCH pages, and sc->nr adds up every batch of the pass. Half
 * the folios make a batch; with generations to spare, a pass with a
 * budget of all of them (priority 0) evicts two batches and does not age.
 */
static void mglru_test_evict_counts_writeback_in_batches(struct kunit *test)
{
	unsigned int order = ilog2(2 * MIN_LRU_BATCH / MGLRU_NR_FOLIOS);
	unsigned long pages = MGLRU_NR_FOLIOS << order;
	struct scan_control first = {}, second = {};
	struct mglru_folios *f;
	unsigned long max_seq;
	int i;

	mglru_root_lru(test);
	f = mglru_folios_alloc_order(test, false, 0, order);
	mglru_folios_add(f);
	mglru_folios_start_writeback(f);
	mglru_folios_oldest_of(test, f, MAX_NR_GENS);
	KUNIT_ASSERT_EQ(test, lruvec_evictable_size(f->lruvec, 0), pages);
	max_seq = READ_ONCE(f->lruvec->lrugen.max_seq);
	mglru_shrink_file(test, f, &first);

	KUNIT_ASSERT_EQ_MSG(test, READ_ONCE(f->lruvec->lrugen.max_seq), max_seq,
			    "the pass aged: its batches were not the two of the case");
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		KUNIT_ASSERT_TRUE_MSG(test, folio_test_reclaim(f->folio[i]),
				      "folio %d was not marked for immediate reclaim", i);
	KUNIT_EXPECT_EQ(test, first.nr.taken, pages);
	KUNIT_EXPECT_EQ_MSG(test, first.nr.writeback, pages,
			    "sc->nr.writeback: the pass reported %u of %lu pages under writeback",
			    first.nr.writeback, pages);
	KUNIT_EXPECT_EQ_MSG(test, first.nr.dirty, pages,
			    "sc->nr.dirty: the pass reported %u of %lu pages under writeback",
			    first.nr.dirty, pages);

	mglru_folios_oldest_of(test, f, MAX_NR_GENS);
	mglru_shrink_file(test, f, &second);

	KUNIT_EXPECT_EQ_MSG(test, second.nr.congested, pages,
			    "sc->nr.congested: the pass reported %u of %lu marked pages",
			    second.nr.congested, pages);
	KUNIT_EXPECT_EQ(test, second.nr.dirty, pages);
}

static void mglru_test_evict_counts_clean(struct kunit *test)
{
	struct scan_control sc = {};
	struct mglru_folios *f = mglru_folios_init(test, 0);
	unsigned long rotated = mglru_stat(f->lruvec, PGROTATE_FILE);
	int i;

	mglru_shrink_file(test, f, &sc);

	/* with no mapping to leave, the clean folios come back and count as taken */
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		KUNIT_EXPECT_FALSE(test, folio_test_reclaim(f->folio[i]));
	KUNIT_EXPECT_GE(test, sc.nr.taken, MGLRU_NR_FOLIOS);
	KUNIT_EXPECT_EQ(test, sc.nr.dirty, 0);
	/* each clean one it could not free, inactive and unmapped, got one retry */
	KUNIT_EXPECT_EQ_MSG(test, sc.nr_scanned, 2 * sc.nr.taken,
			    "shrink_folio_list() met %lu pages of %u isolated",
			    sc.nr_scanned, (unsigned int)sc.nr.taken);
	/* and as rotated, each batch's isolated folios that were not freed */
	KUNIT_EXPECT_EQ(test, sc.nr_reclaimed, 0);
	KUNIT_EXPECT_EQ(test, mglru_stat(f->lruvec, PGROTATE_FILE) - rotated, sc.nr.taken);
}

/*
 * Folios mlocked while on the LRU (PG_mlocked, as mlock() leaves them
 * before it moves them): scanning lets them through to
 * shrink_folio_list(), which keeps them; they get no retry, and go to the
 * unevictable list.
 */
static void mglru_test_evict_culls_mlocked(struct kunit *test)
{
	struct scan_control sc = {};
	struct mglru_folios *f = mglru_folios_init(test, 0);
	int i;

	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		folio_set_mlocked(f->folio[i]);
	mglru_shrink_file(test, f, &sc);

	KUNIT_EXPECT_EQ(test, sc.nr.taken, MGLRU_NR_FOLIOS);
	KUNIT_EXPECT_EQ_MSG(test, sc.nr_scanned, sc.nr.taken,
			    "shrink_folio_list() met %lu pages of %u isolated",
			    sc.nr_scanned, (unsigned int)sc.nr.taken);
	/* put back through this CPU's LRU batch */
	lru_add_drain_all();
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		KUNIT_EXPECT_TRUE_MSG(test, folio_test_lru(f->folio[i]) &&
				      folio_test_unevictable(f->folio[i]),
				      "folio %d is not on the unevictable list", i);
}

/*
 * Dirty swap-backed folios, unmapped and in no swap cache, that reclaim
 * may not write (GFP_NOIO, no may_writepage): a pass at MAX_SWAPPINESS
 * isolates anon, and shrink_folio_list() keeps them inactive, as
 * may_enter_fs() refuses them; dirty, they get no retry.
 */
static void mglru_test_evict_keeps_dirty_anon_without_io(struct kunit *test)
{
	struct scan_control sc = {
		.gfp_mask = GFP_NOIO,
		.may_unmap = 1,
		.may_swap = 1,
		.reclaim_idx = MAX_NR_ZONES - 1,
	};
	struct mglru_folios *f;
	int i;

	mglru_root_lru(test);
	f = mglru_folios_alloc(test, true, MGLRU_NR_FOLIOS);
	mglru_folios_add(f);
	/* a new anon folio lands one below the youngest: age it to the oldest */
	for (i = 0; i < MIN_NR_GENS; i++)
		mglru_age_once(f->lruvec, 1);
	mglru_folios_in_oldest(test, f, LRU_GEN_ANON);

	mglru_evict_once(test, f->lruvec, &sc, MAX_SWAPPINESS);

	/* (the dirty count is of file folios only) */
	KUNIT_EXPECT_EQ(test, sc.nr.taken, MGLRU_NR_FOLIOS);
	KUNIT_EXPECT_EQ_MSG(test, sc.nr_scanned, sc.nr.taken,
			    "shrink_folio_list() met %lu pages of %u isolated",
			    sc.nr_scanned, (unsigned int)sc.nr.taken);
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		KUNIT_EXPECT_FALSE_MSG(test, folio_test_active(f->folio[i]),
				       "folio %d was activated", i);
}

/*
 * Clean folios read once, which reclaim could not free (no mapping) and did
 * not activate: after their retry they go back to the second youngest
 * generation without their references, not to the oldest, where the next
 * pass would meet them again first.
 */
static void mglru_test_evict_puts_rejected_clean_second_youngest(struct kunit *test)
{
	struct scan_control sc = {};
	struct mglru_folios *f = mglru_folios_init(test, 0);
	int i;

	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		folio_set_referenced(f->folio[i]);
	mglru_shrink_file(test, f, &sc);

	KUNIT_EXPECT_GE(test, sc.nr.taken, MGLRU_NR_FOLIOS);
	mglru_folios_back_young(test, f, "rejected clean folios");
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		KUNIT_EXPECT_EQ_MSG(test, folio_lru_refs(f->folio[i]), 0,
				    "folio %d kept its references", i);
}

/*
 * The same with generations to spare (MAX_NR_GENS of them): a rejected
 * folio that was referenced goes back one above the oldest, where
 * lru_gen_folio_seq() puts it, not to the second youngest. A budget of the
 * case's referenced folios alone (16 evictable at priority 1) leaves the
 * folios added after them in the oldest generation, which so stays the
 * oldest.
 */
static void mglru_test_evict_puts_rejected_referenced_above_oldest(struct kunit *test)
{
	struct scan_control sc = { .priority = 1 };
	struct mglru_folios *f, *unreached;
	unsigned long min_seq, max_seq;
	int i;

	mglru_root_lru(test);
	f = mglru_folios_alloc(test, false, 0);
	unreached = mglru_folios_alloc(test, false, 0);
	KUNIT_ASSERT_PTR_EQ(test, f->lruvec, unreached->lruvec);
	mglru_drop_empty_gens(f->lruvec, 0);
	KUNIT_ASSERT_EQ(test, mglru_age_file(f->lruvec, MAX_NR_GENS, 0), MAX_NR_GENS);
	/* reclaim scans a generation from the folio added first */
	mglru_folios_add(f);
	mglru_folios_add(unreached);
	mglru_folios_in_oldest(test, f, LRU_GEN_FILE);
	mglru_folios_in_oldest(test, unreached, LRU_GEN_FILE);
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		folio_set_referenced(f->folio[i]);
	KUNIT_ASSERT_EQ(test, lruvec_evictable_size(f->lruvec, 0) >> sc.priority,
			(unsigned long)MGLRU_NR_FOLIOS);
	min_seq = READ_ONCE(f->lruvec->lrugen.min_seq[LRU_GEN_FILE]);
	max_seq = READ_ONCE(f->lruvec->lrugen.max_seq);

	mglru_shrink_file(test, f, &sc);

	KUNIT_EXPECT_EQ(test, sc.nr.taken, MGLRU_NR_FOLIOS);
	KUNIT_ASSERT_EQ(test, READ_ONCE(f->lruvec->lrugen.max_seq), max_seq);
	KUNIT_ASSERT_EQ_MSG(test, READ_ONCE(f->lruvec->lrugen.min_seq[LRU_GEN_FILE]), min_seq,
			    "the pass emptied the oldest generation");
	mglru_folios_in_gen(test, f, min_seq + 1, "rejected referenced folios");
	mglru_folios_in_gen(test, unreached, min_seq, "folios the pass did not reach");
}

static void mglru_plug_flushed(struct blk_plug_cb *cb, bool from_schedule)
{
	int *flushes = cb->data;

	(*flushes)++;
	kfree(cb);
}

/*
 * Reclaim @f in one pass under a block plug of the case's own, and return
 * whether the pass flushed the plug: wakeup_flusher_threads() does so
 * before it wakes them. A sleep would flush it too; nothing in a pass
 * over a test kernel's LRU sleeps. -1 if no callback could be put on the
 * plug.
 */
static int mglru_shrink_flushes(struct kunit *test, struct mglru_folios *f,
				struct scan_control *sc)
{
	struct blk_plug plug;
	int flushes = 0, seen;

	/* nothing in the plug may end the case: its thread would exit plugged */
	blk_start_plug(&plug);
	if (!blk_check_plugged(mglru_plug_flushed, &flushes, sizeof(struct blk_plug_cb))) {
		blk_finish_plug(&plug);
		return -1;
	}
	__mglru_shrink_lruvec(f->lruvec, sc);
	seen = flushes;
	blk_finish_plug(&plug);
	mglru_root_lru_check(test, "after a pass of reclaim");
	mglru_expect_gen_sizes(test, f->lruvec);
	return seen;
}

/* Every folio a batch took dirty and not queued for writeback: wake the flushers. */
static void mglru_test_evict_wakes_flushers_when_all_dirty(struct kunit *test)
{
	struct scan_control sc = {};
	struct mglru_folios *f = mglru_folios_init(test, MGLRU_NR_FOLIOS);

	KUNIT_EXPECT_EQ_MSG(test, mglru_shrink_flushes(test, f, &sc), 1,
			    "the flushers were not woken for %u dirty folios of %u taken",
			    sc.nr.dirty, sc.nr.taken);
}

/*
 * The same in cgroup reclaim (memory.reclaim of the root memcg), which
 * also asks for the cgroup v1 throttle where cgroup writeback is not
 * there to throttle the dirtier: a kthread returns from it at once.
 */
static void mglru_test_evict_wakes_flushers_in_cgroup_reclaim(struct kunit *test)
{
	struct scan_control sc = { .target_mem_cgroup = root_mem_cgroup };
	struct mglru_folios *f = mglru_folios_init(test, MGLRU_NR_FOLIOS);

	KUNIT_EXPECT_EQ_MSG(test, mglru_shrink_flushes(test, f, &sc), 1,
			    "the flushers were not woken for %u dirty folios of %u taken",
			    sc.nr.dirty, sc.nr.taken);
}

/*
 * Some folios were clean: reclaim can make progress without the flushers.
 * The batch met the dirty half as dirty and unqueued, and took the clean
 * half too; a wakeup under the same kind of plug is seen, so that the
 * pass's silence is not the plug's.
 */
static void mglru_test_evict_leaves_flushers_when_some_clean(struct kunit *test)
{
	struct scan_control sc = {};
	struct mglru_folios *f = mglru_folios_init(test, MGLRU_NR_FOLIOS / 2);
	struct blk_plug plug;
	int flushes = 0, seen;
	bool plugged;
	int i;

	KUNIT_EXPECT_EQ_MSG(test, mglru_shrink_flushes(test, f, &sc), 0,
			    "the flushers were woken for %u dirty folios of %u taken",
			    sc.nr.dirty, sc.nr.taken);
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		KUNIT_EXPECT_EQ_MSG(test, folio_test_reclaim(f->folio[i]), i < MGLRU_NR_FOLIOS / 2,
				    "folio %d: only the dirty ones are rejected for writeback", i);
	KUNIT_EXPECT_EQ(test, sc.nr.dirty, MGLRU_NR_FOLIOS / 2);
	KUNIT_EXPECT_GE(test, sc.nr.taken, MGLRU_NR_FOLIOS);

	/* the control: a wakeup flushes the plug */
	blk_start_plug(&plug);
	plugged = blk_check_plugged(mglru_plug_flushed, &flushes, sizeof(struct blk_plug_cb));
	if (plugged)
		wakeup_flusher_threads(WB_REASON_VMSCAN);
	seen = flushes;
	blk_finish_plug(&plug);
	KUNIT_EXPECT_TRUE(test, plugged);
	KUNIT_EXPECT_EQ_MSG(test, seen, 1, "a wakeup of the flushers did not flush the plug");
}

/* The folios of the oldest generation of @type, all zones. */
static size_t mglru_oldest_count(struct lruvec *lruvec, int type)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	size_t n = 0;
	int zone, gen;

	lruvec_lock_irq(lruvec);
	gen = lru_gen_from_seq(lrugen->min_seq[type]);
	for (zone = 0; zone < MAX_NR_ZONES; zone++)
		n += list_count_nodes(&lrugen->folios[gen][type][zone]);
	lruvec_unlock_irq(lruvec);
	return n;
}

/*
 * Free what the mapping held before the next case looks at the LRU: a
 * kthread's last fput() of the shmem file is deferred.
 */
static void mglru_fault_release(void *unused)
{
	flush_delayed_fput();
	lru_add_drain_all();
}

/*
 * @nr pages of a new private anon mapping of the case's own mm, each
 * written: a page fault through handle_mm_fault() puts each on the LRU,
 * marked accessed, with a young PTE. The case holds no reference (reclaim
 * frees only a folio that its page table alone holds): it finds them
 * through the mapping, which mglru_unmap() ends. Returns the
 * mapping's address.
 */
static unsigned long mglru_map_written(struct kunit *test, int nr)
{
	struct mglru_case *c = test->priv;
	unsigned long addr;
	char byte = 1;
	int i;

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, mglru_fault_release, NULL));
	addr = kunit_vm_mmap(test, NULL, 0, nr * PAGE_SIZE, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, 0);
	KUNIT_ASSERT_FALSE_MSG(test, !addr || IS_ERR_VALUE(addr), "kunit_vm_mmap(): %ld",
			       (long)addr);
	for (i = 0; i < nr; i++)
		KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)(addr + i * PAGE_SIZE),
						   &byte, 1), 0);
	lru_add_drain_all();
	c->map_addr = addr;
	c->nr_mapped = nr;
	KUNIT_ASSERT_EQ_MSG(test, mglru_mapped_lru_pages(c), (unsigned long)nr,
			    "pages of the mapping are off the LRU after the fault");
	return addr;
}

/*
 * Lazily freed anon memory (MADV_FREE) is the one kind of folio reclaim
 * can free here, with no swap and no filesystem: clean, it is discarded.
 * @nr pages of a mapping (mglru_map_written()) advised MADV_FREE, which
 * takes them off the swap-backed LRU to the oldest file generation, their
 * PTEs old and clean. Returns the mapping's address.
 */
static unsigned long mglru_lazyfree(struct kunit *test, struct lruvec *lruvec, int nr)
{
	unsigned long addr = mglru_map_written(test, nr);

	KUNIT_ASSERT_EQ(test, do_madvise(current->mm, addr, nr * PAGE_SIZE, MADV_FREE), 0);
	lru_add_drain_all();
	KUNIT_ASSERT_EQ_MSG(test, mglru_mapped_lru_pages(test->priv), (unsigned long)nr,
			    "MADV_FREE left pages of the mapping off the LRU");
	KUNIT_ASSERT_EQ_MSG(test, mglru_oldest_count(lruvec, LRU_GEN_FILE), (size_t)nr,
			    "the oldest file generation does not hold the lazily freed pages alone");
	mglru_root_lru_check(test, "after MADV_FREE");
	return addr;
}

/*
 * Unmap the case's lazily freed mapping, so that what is left of it is
 * gone before the next case looks at the LRU: the case's mm is torn down
 * after the case ends.
 */
static void mglru_unmap(struct kunit *test)
{
	struct mglru_case *c = test->priv;

	KUNIT_EXPECT_EQ(test, vm_munmap(c->map_addr, c->nr_mapped * PAGE_SIZE), 0);
	c->nr_mapped = 0;
	lru_add_drain_all();
}

/* How many of the @nr pages at @addr read as zero: the discarded ones. */
static int mglru_lazy_discarded(struct kunit *test, unsigned long addr, int nr)
{
	int i, zero = 0;
	char byte;

	for (i = 0; i < nr; i++) {
		KUNIT_ASSERT_EQ(test, copy_from_user(&byte, (void __user *)(addr + i * PAGE_SIZE),
						     1), 0);
		zero += !byte;
	}
	return zero;
}

/* What a case reads of the page mapped at @addr in its mm. */
struct mglru_mapped {
	int gen;		/* folio_lru_gen(): -1 off the LRU */
	bool referenced;	/* PG_referenced */
	bool young;		/* the PTE's accessed bit */
};

static struct mglru_mapped mglru_mapped(struct kunit *test, unsigned long addr)
{
	struct mglru_mapped m = {};
	struct vm_area_struct *vma;
	struct folio_walk fw;
	struct folio *folio;

	mmap_read_lock(current->mm);
	vma = vma_lookup(current->mm, addr);
	folio = vma ? folio_walk_start(&fw, vma, addr, 0) : NULL;
	if (folio) {
		m.gen = folio_lru_gen(folio);
		m.referenced = folio_test_referenced(folio);
		m.young = fw.level == FW_LEVEL_PTE && pte_young(fw.pte);
		folio_walk_end(&fw, vma);
	}
	mmap_read_unlock(current->mm);
	KUNIT_ASSERT_NOT_NULL_MSG(test, folio, "no folio mapped at %lx", addr);
	return m;
}

/*
 * The oldest file generation, one besides the MIN_NR_GENS youngest, holds
 * @nr lazily freed pages; with @younger, MGLRU_NR_FOLIOS of the case's
 * clean folios above them, which reclaim cannot free.
 */
static unsigned long mglru_lazyfree_init(struct kunit *test, int nr, bool younger,
					 struct lruvec **lruvecp)
{
	struct lruvec *lruvec = mem_cgroup_lruvec(root_mem_cgroup, NODE_DATA(numa_mem_id()));
	struct mglru_folios *f;
	unsigned long addr;
	int i;

	mglru_root_lru(test);
	mglru_drop_empty_gens(lruvec, 0);
	mglru_age_file(lruvec, MIN_NR_GENS + 1, 0);
	addr = mglru_lazyfree(test, lruvec, nr);
	if (younger) {
		f = mglru_folios_alloc(test, false, 0);
		KUNIT_ASSERT_PTR_EQ(test, f->lruvec, lruvec);
		for (i = 0; i < MGLRU_NR_FOLIOS; i++)
			folio_set_active(f->folio[i]);
		mglru_folios_add(f);
	}
	*lruvecp = lruvec;
	return addr;
}

/*
 * A pass that frees what it isolated: it counts the folios in
 * sc->nr_reclaimed and as stolen (PGSTEAL_FILE, PGSTEAL_DIRECT: a direct
 * reclaimer's pass) and none as rotated.
 */
static void mglru_test_evict_frees_lazyfree(struct kunit *test)
{
	unsigned long addr, stolen, direct, rotated;
	struct scan_control sc = {};
	struct lruvec *lruvec;

	addr = mglru_lazyfree_init(test, MGLRU_NR_FOLIOS, false, &lruvec);
	stolen = mglru_stat(lruvec, PGSTEAL_FILE);
	direct = mglru_stat(lruvec, PGSTEAL_DIRECT);
	rotated = mglru_stat(lruvec, PGROTATE_FILE);

	mglru_shrink_lruvec(test, lruvec, &sc);

	KUNIT_EXPECT_EQ(test, mglru_lazy_discarded(test, addr, MGLRU_NR_FOLIOS), MGLRU_NR_FOLIOS);
	KUNIT_EXPECT_EQ(test, sc.nr_reclaimed, MGLRU_NR_FOLIOS);
	KUNIT_EXPECT_EQ(test, sc.nr.taken, MGLRU_NR_FOLIOS);
	KUNIT_EXPECT_EQ(test, mglru_stat(lruvec, PGSTEAL_FILE) - stolen, MGLRU_NR_FOLIOS);
	KUNIT_EXPECT_EQ(test, mglru_stat(lruvec, PGSTEAL_DIRECT) - direct, MGLRU_NR_FOLIOS);
	KUNIT_EXPECT_EQ(test, mglru_stat(lruvec, PGROTATE_FILE) - rotated, 0);
	mglru_unmap(test);
}

/*
 * Reclaim that may not unmap (node reclaim without RECLAIM_UNMAP) keeps
 * mapped folios, here clean lazily freed ones it could otherwise discard:
 * inactive and clean as they are, being mapped they get no retry.
 */
static void mglru_test_evict_retries_no_mapped_folio(struct kunit *test)
{
	struct scan_control sc = {
		.gfp_mask = GFP_KERNEL,
		.reclaim_idx = MAX_NR_ZONES - 1,
	};
	struct lruvec *lruvec;
	unsigned long addr;

	addr = mglru_lazyfree_init(test, MGLRU_NR_FOLIOS, false, &lruvec);
	mglru_evict_once(test, lruvec, &sc, 0);

	KUNIT_EXPECT_EQ(test, sc.nr.taken, MGLRU_NR_FOLIOS);
	KUNIT_EXPECT_EQ_MSG(test, sc.nr_scanned, sc.nr.taken,
			    "shrink_folio_list() met %lu pages of %u isolated",
			    sc.nr_scanned, (unsigned int)sc.nr.taken);
	KUNIT_EXPECT_EQ(test, sc.nr_reclaimed, 0);
	KUNIT_EXPECT_EQ(test, mglru_mapped_lru_pages(test->priv), MGLRU_NR_FOLIOS);
	KUNIT_EXPECT_EQ(test, mglru_lazy_discarded(test, addr, MGLRU_NR_FOLIOS), 0);
	mglru_unmap(test);
}

/*
 * The young PTE of a folio that reclaim takes from the oldest generation
 * makes it look around that PTE (lru_gen_look_around()): the young pages
 * beside it in the same page table, marked accessed, are promoted to the
 * youngest generation, and the folio itself, referenced, is kept. Proactive
 * reclaim batches those moves in its page-table walk, and the pass adds
 * them to the generations' sizes before it ends (mglru_evict_once() checks
 * the sizes).
 *
 * Written pages of the case's mapping (anon, second youngest), the middle
 * one lazily freed to the oldest file generation, the one reclaim can
 * evict here. MADV_FREE made its PTE old; an access fault on it
 * (fixup_user_fault(), which for a present PTE takes handle_pte_fault()'s
 * pte_mkyoung() path) makes it young again, as the CPU's accessed bit
 * would on a read: uaccess, which does not fault on a present PTE under
 * UML, cannot.
 */
#define MGLRU_AROUND_PAGES	3

static void mglru_test_evict_looks_around_young_pte(struct kunit *test)
{
	struct scan_control sc = {
		.gfp_mask = GFP_KERNEL,
		.may_unmap = 1,
		.proactive = 1,
		.reclaim_idx = MAX_NR_ZONES - 1,
	};
	struct lruvec *lruvec = mem_cgroup_lruvec(root_mem_cgroup, NODE_DATA(numa_mem_id()));
	int i, ret, youngest, beside = 0;
	unsigned long addr, mid, page;
	struct mglru_mapped m;

	mglru_root_lru(test);
	mglru_drop_empty_gens(lruvec, 0);
	mglru_age_file(lruvec, MIN_NR_GENS + 1, 0);
	addr = mglru_map_written(test, MGLRU_AROUND_PAGES);
	mid = addr + MGLRU_AROUND_PAGES / 2 * PAGE_SIZE;
	KUNIT_ASSERT_EQ(test, do_madvise(current->mm, mid, PAGE_SIZE, MADV_FREE), 0);
	lru_add_drain_all();
	KUNIT_ASSERT_EQ_MSG(test, mglru_oldest_count(lruvec, LRU_GEN_FILE), (size_t)1,
			    "the oldest file generation does not hold the lazily freed page alone");

	mmap_read_lock(current->mm);
	ret = fixup_user_fault(current->mm, mid, 0, NULL);
	mmap_read_unlock(current->mm);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_TRUE_MSG(test, mglru_mapped(test, mid).young,
			      "the access fault left the PTE old");

	/* what look-around promotes: accessed, young, not yet youngest */
	youngest = lru_gen_from_seq(READ_ONCE(lruvec->lrugen.max_seq));
	for (i = 0; i < MGLRU_AROUND_PAGES; i++) {
		page = addr + i * PAGE_SIZE;
		/* look-around stays in the page table of the young PTE */
		if (page == mid || (page & PMD_MASK) != (mid & PMD_MASK))
			continue;
		m = mglru_mapped(test, page);
		KUNIT_ASSERT_TRUE(test, m.referenced);
		KUNIT_ASSERT_TRUE(test, m.young);
		KUNIT_ASSERT_NE(test, m.gen, youngest);
		beside++;
	}
	/* three pages cross at most one PMD boundary */
	KUNIT_ASSERT_GT(test, beside, 0);

	mglru_evict_once(test, lruvec, &sc, 0);

	KUNIT_EXPECT_EQ(test, sc.nr.taken, 1);
	KUNIT_EXPECT_EQ(test, sc.nr_reclaimed, 0);
	KUNIT_EXPECT_EQ_MSG(test, mglru_lazy_discarded(test, mid, 1), 0,
			    "reclaim discarded a page with a young PTE");
	youngest = lru_gen_from_seq(READ_ONCE(lruvec->lrugen.max_seq));
	for (i = 0; i < MGLRU_AROUND_PAGES; i++) {
		page = addr + i * PAGE_SIZE;
		if (page == mid || (page & PMD_MASK) != (mid & PMD_MASK))
			continue;
		KUNIT_EXPECT_EQ_MSG(test, mglru_mapped(test, page).gen, youngest,
				    "page %d beside the young PTE was not promoted", i);
	}
	mglru_unmap(test);
}

/*
 * Folios taken off the LRU for good (truncated, migrated, freed) can leave
 * the oldest generation empty: a batch first lets min_seq pass it, and
 * takes its folios from the next one, which is not among the MIN_NR_GENS
 * youngest; that emptied, min_seq passes it too. The pass is proactive,
 * as memory.reclaim's: it has a page-table walk at hand, in which nothing
 * is batched (no folio is mapped).
 */
static void mglru_test_evict_passes_emptied_oldest(struct kunit *test)
{
	struct scan_control sc = {
		.gfp_mask = GFP_KERNEL,
		.proactive = 1,
		.reclaim_idx = MAX_NR_ZONES - 1,
	};
	struct mglru_folios *f = mglru_folios_init(test, 0);
	unsigned long min_seq = READ_ONCE(f->lruvec->lrugen.min_seq[LRU_GEN_FILE]);

	KUNIT_ASSERT_EQ(test, mglru_age_file(f->lruvec, MIN_NR_GENS + 2, 0), MIN_NR_GENS + 2);
	mglru_folios_del(f);
	KUNIT_ASSERT_EQ(test, mglru_oldest_count(f->lruvec, LRU_GEN_FILE), (size_t)0);

	mglru_evict_once(test, f->lruvec, &sc, 0);

	KUNIT_EXPECT_EQ_MSG(test, sc.nr.taken, MGLRU_NR_FOLIOS,
			    "the batch isolated %u folios, not those of the next generation",
			    (unsigned int)sc.nr.taken);
	KUNIT_EXPECT_EQ(test, READ_ONCE(f->lruvec->lrugen.min_seq[LRU_GEN_FILE]), min_seq + 2);
}

/*
 * A batch that frees some folios and cannot free the others: the lazily
 * freed pages go at once, the case's clean folios get their retry and go
 * back. The pass counts as reclaimed, and evict_folios() as rotated, what
 * both rounds of shrink_folio_list() did with the batch, not the last
 * round alone.
 */
static void mglru_test_evict_counts_a_batch_over_its_retry(struct kunit *test)
{
	struct scan_control sc = {
		.gfp_mask = GFP_KERNEL,
		.may_unmap = 1,
		.reclaim_idx = MAX_NR_ZONES - 1,
	};
	unsigned long addr, rotated;
	struct mglru_folios *f;
	struct lruvec *lruvec;

	addr = mglru_lazyfree_init(test, MGLRU_NR_FOLIOS, false, &lruvec);
	f = mglru_folios_alloc(test, false, 0);
	KUNIT_ASSERT_PTR_EQ(test, f->lruvec, lruvec);
	mglru_folios_add(f);
	mglru_folios_in_oldest(test, f, LRU_GEN_FILE);
	KUNIT_ASSERT_EQ(test, mglru_oldest_count(lruvec, LRU_GEN_FILE),
			(size_t)2 * MGLRU_NR_FOLIOS);
	rotated = mglru_stat(lruvec, PGROTATE_FILE);

	mglru_evict_once(test, lruvec, &sc, 0);

	KUNIT_EXPECT_EQ(test, sc.nr.taken, 2 * MGLRU_NR_FOLIOS);
	KUNIT_EXPECT_EQ(test, mglru_lazy_discarded(test, addr, MGLRU_NR_FOLIOS), MGLRU_NR_FOLIOS);
	KUNIT_EXPECT_EQ_MSG(test, sc.nr_reclaimed, MGLRU_NR_FOLIOS,
			    "sc->nr_reclaimed: %lu of the batch's %d freed pages",
			    sc.nr_reclaimed, MGLRU_NR_FOLIOS);
	KUNIT_EXPECT_EQ_MSG(test, mglru_stat(lruvec, PGROTATE_FILE) - rotated, MGLRU_NR_FOLIOS,
			    "PGROTATE_FILE: not the %d folios the batch could not free",
			    MGLRU_NR_FOLIOS);
	mglru_unmap(test);
}

/*
 * Mark @folio accessed, as each read through a file descriptor does, until
 * MGLRU counts it in the working set.
 */
static void mglru_folio_read_often(struct kunit *test, struct folio *folio)
{
	int i;

	for (i = 0; i <= BIT(LRU_REFS_WIDTH) && !folio_test_workingset(folio); i++)
		folio_mark_accessed(folio);
	KUNIT_ASSERT_TRUE(test, folio_test_workingset(folio));
}

struct mglru_isolated {
	int scanned, isolated, type, type_scanned, anon, file;
};

/*
 * One isolate_folios() call at @swappiness, as evict_folios() makes it, and
 * every folio it took put straight back.
 */
static void mglru_isolate(struct lruvec *lruvec, int swappiness,
			  struct mglru_isolated *r)
{
	struct scan_control sc = {
		.gfp_mask = GFP_KERNEL,
		.may_unmap = 1,
		.may_swap = 1,
		.reclaim_idx = MAX_NR_ZONES - 1,
	};
	struct folio *folio, *next;
	LIST_HEAD(list);

	*r = (struct mglru_isolated){ .type = -1 };
	lruvec_lock_irq(lruvec);
	r->scanned = isolate_folios(MAX_LRU_BATCH, lruvec, &sc, swappiness, &list,
				    &r->isolated, &r->type, &r->type_scanned);
	lruvec_unlock_irq(lruvec);

	/* this CPU's LRU batch, drained on this CPU, as mglru_folios_add() */
	migrate_disable();
	list_for_each_entry_safe(folio, next, &list, lru) {
		if (folio_is_file_lru(folio))
			r->file++;
		else
			r->anon++;
		list_del(&folio->lru);
		folio_putback_lru(folio);
	}
	lru_add_drain();
	migrate_enable();
}

/*
 * Anon folios in the oldest anon generation, file folios (read often if
 * @protected) in the oldest file generation, nothing else in either: as
 * reclaim at @swappiness would meet them.
 */
static void mglru_isolate_both(struct kunit *test, int swappiness, bool protected,
			       struct mglru_isolated *r)
{
	struct mglru_folios *anon, *file;
	struct lruvec *lruvec;
	int i;

	mglru_root_lru(test);
	anon = mglru_folios_alloc(test, true, 0);
	file = mglru_folios_alloc(test, false, 0);
	lruvec = anon->lruvec;
	KUNIT_ASSERT_PTR_EQ(test, lruvec, file->lruvec);

	/* a new anon folio lands one below the youngest: age it to the oldest */
	mglru_folios_add(anon);
	for (i = 0; i < MIN_NR_GENS; i++)
		mglru_age_once(lruvec, 1);
	mglru_age_file(lruvec, MIN_NR_GENS + 1, 1);
	mglru_folios_add(file);
	for (i = 0; protected && i < MGLRU_NR_FOLIOS; i++)
		mglru_folio_read_often(test, file->folio[i]);

	mglru_folios_in_oldest(test, anon, LRU_GEN_ANON);
	mglru_folios_in_oldest(test, file, LRU_GEN_FILE);
	KUNIT_ASSERT_EQ(test, mglru_oldest_count(lruvec, LRU_GEN_ANON), MGLRU_NR_FOLIOS);
	KUNIT_ASSERT_EQ(test, mglru_oldest_count(lruvec, LRU_GEN_FILE), MGLRU_NR_FOLIOS);
	mglru_isolate(lruvec, swappiness, r);
	mglru_root_lru_check(test, "after the isolation");
}

/*
 * At swappiness 1 get_type_to_scan() picks file. The oldest file
 * generation holds only protected folios, so scan_folios() scans them all
 * and isolates none; anon folios wait in the oldest anon generation.
 * isolate_folios() must stay on file: it scanned something.
 */
static void mglru_test_isolate_keeps_scanned_type(struct kunit *test)
{
	struct mglru_isolated r;

	mglru_isolate_both(test, 1, true, &r);

	KUNIT_ASSERT_GE_MSG(test, r.scanned, MGLRU_NR_FOLIOS,
			    "the protected file folios were not scanned");
	KUNIT_EXPECT_EQ_MSG(test, r.anon, 0,
			    "isolate_folios() turned to anon after scanning file");
	KUNIT_EXPECT_EQ(test, r.isolated, 0);
}

/*
 * At MAX_SWAPPINESS get_type_to_scan() picks anon, and the oldest anon
 * generation has folios to isolate: isolate_folios() takes them and stops
 * there, reporting anon, without touching file.
 */
static void mglru_test_isolate_takes_the_chosen_type(struct kunit *test)
{
	struct mglru_isolated r;

	mglru_isolate_both(test, MAX_SWAPPINESS, false, &r);

	KUNIT_EXPECT_EQ_MSG(test, r.anon, MGLRU_NR_FOLIOS,
			    "isolate_folios() did not take the anon folios it chose");
	KUNIT_EXPECT_EQ_MSG(test, r.file, 0,
			    "isolate_folios() went on to file after isolating anon");
	KUNIT_EXPECT_EQ(test, r.type, LRU_GEN_ANON);
	KUNIT_EXPECT_EQ(test, r.type_scanned, MGLRU_NR_FOLIOS);
}

/*
 * At MAX_SWAPPINESS get_type_to_scan() picks anon, but the anon type has
 * nothing to scan: isolate_folios() must turn to file, take the case's
 * file folios and report file as the type it isolated.
 */
static void mglru_test_isolate_falls_back_when_nothing_scanned(struct kunit *test)
{
	struct mglru_folios *f = mglru_folios_init(test, 0);
	struct mglru_isolated r;

	mglru_drop_empty_gens(f->lruvec, MAX_SWAPPINESS);
	if (get_nr_gens(f->lruvec, LRU_GEN_ANON) > MIN_NR_GENS)
		KUNIT_ASSERT_EQ(test, mglru_oldest_count(f->lruvec, LRU_GEN_ANON), 0);
	KUNIT_ASSERT_EQ(test, mglru_oldest_count(f->lruvec, LRU_GEN_FILE), MGLRU_NR_FOLIOS);

	mglru_isolate(f->lruvec, MAX_SWAPPINESS, &r);
	mglru_root_lru_check(test, "after the isolation");

	KUNIT_EXPECT_EQ_MSG(test, r.file, MGLRU_NR_FOLIOS,
			    "isolate_folios() scanned no anon and did not turn to file");
	KUNIT_EXPECT_EQ(test, r.anon, 0);
	KUNIT_EXPECT_EQ_MSG(test, r.type, LRU_GEN_FILE,
			    "isolate_folios() reported the type it did not isolate");
}

/*
 * The same through evict_folios(), whose count of what the first type
 * isolated starts at 0: scan_folios() leaves it untouched for a type with
 * nothing to evict (MIN_NR_GENS generations), so that at MAX_SWAPPINESS,
 * anon empty, the batch goes on to file and takes the case's folios.
 */
static void mglru_test_evict_falls_back_when_anon_has_no_gen(struct kunit *test)
{
	struct scan_control sc = {
		.gfp_mask = GFP_KERNEL,
		.reclaim_idx = MAX_NR_ZONES - 1,
	};
	struct mglru_folios *f = mglru_folios_init(test, 0);

	mglru_drop_empty_gens(f->lruvec, MAX_SWAPPINESS);
	KUNIT_ASSERT_EQ(test, get_nr_gens(f->lruvec, LRU_GEN_ANON), MIN_NR_GENS);
	mglru_folios_in_oldest(test, f, LRU_GEN_FILE);

	mglru_evict_once(test, f->lruvec, &sc, MAX_SWAPPINESS);

	KUNIT_EXPECT_EQ_MSG(test, sc.nr.taken, MGLRU_NR_FOLIOS,
			    "evict_folios() took %u folios: it did not turn to file",
			    (unsigned int)sc.nr.taken);
}

static struct kunit_case mglru_evict_test_cases[] = {
	KUNIT_CASE(mglru_test_evict_counts_dirty),
	KUNIT_CASE(mglru_test_evict_counts_writeback),
	KUNIT_CASE(mglru_test_evict_counts_writeback_in_batches),
	KUNIT_CASE(mglru_test_evict_keeps_locked_writeback),
	KUNIT_CASE(mglru_test_evict_counts_clean),
	KUNIT_CASE(mglru_test_evict_culls_mlocked),
	KUNIT_CASE(mglru_test_evict_keeps_dirty_anon_without_io),
	KUNIT_CASE(mglru_test_evict_puts_rejected_clean_second_youngest),
	KUNIT_CASE(mglru_test_evict_puts_rejected_referenced_above_oldest),
	KUNIT_CASE(mglru_test_evict_wakes_flushers_when_all_dirty),
	KUNIT_CASE(mglru_test_evict_wakes_flushers_in_cgroup_reclaim),
	KUNIT_CASE(mglru_test_evict_leaves_flushers_when_some_clean),
	KUNIT_CASE(mglru_test_isolate_keeps_scanned_type),
	KUNIT_CASE(mglru_test_isolate_takes_the_chosen_type),
	KUNIT_CASE(mglru_test_isolate_falls_back_when_nothing_scanned),
	KUNIT_CASE(mglru_test_evict_falls_back_when_anon_has_no_gen),
	KUNIT_CASE(mglru_test_evict_frees_lazyfree),
	KUNIT_CASE(mglru_test_evict_retries_no_mapped_folio),
	KUNIT_CASE(mglru_test_evict_looks_around_young_pte),
	KUNIT_CASE(mglru_test_evict_passes_emptied_oldest),
	KUNIT_CASE(mglru_test_evict_counts_a_batch_over_its_retry),
	{}
};

static struct kunit_suite mglru_evict_test_suite = {
	.name = "mglru_evict",
	.test_cases = mglru_evict_test_cases,
};

kunit_test_suite(mglru_evict_test_suite);

/*
 * mglru_shrink: what the shrink loop does with the lruvec of real folios,
 * with mglru_evict's folios and helpers:
 *
 * - whether it evicts after it asked for aging: try_to_shrink_lruvec()
 *   goes on to evict_folios() in the pass in which should_run_aging()
 *   wanted a new generation, whatever the aging attempt gave, and memcg
 *   reclaim goes on to its budget ("mm/mglru: don't abort scan
 *   immediately right after aging");
 *
 * - where it stops: once it reclaimed what it was asked for, at its
 *   budget, or with nothing left to evict;
 *
 * - what get_nr_to_scan() makes of a real lruvec: its evictable size,
 *   shifted, without aging it, and nothing for anon only without swap.
 */

/*
 * An aging attempt of try_to_shrink_lruvec() that loses the race with
 * another reclaimer, through the static stub of try_to_inc_max_seq().
 * @other_ages: the other reclaimer made the new generation first (this
 * attempt then finds max_seq moved); else it holds the mm walk and nothing
 * ages yet. Either way the attempt returns false.
 */
static bool mglru_aging_loses(struct lruvec *lruvec, unsigned long seq,
			      int swappiness, bool force_scan)
{
	struct kunit *test = kunit_get_current_test();
	struct mglru_lost_aging *lost = ((struct mglru_case *)test->priv)->lost;

	/* the other reclaimer's step, from the same max_seq */
	if (lost->attempts++ == 0 && lost->other_ages)
		KUNIT_EXPECT_TRUE(test, inc_max_seq(lruvec, seq, swappiness));
	return false;
}

/*
 * The oldest file generation, one besides the MIN_NR_GENS youngest, holds
 * the case's folios: below DEF_PRIORITY should_run_aging() asks for aging
 * while eviction is still possible.
 */
static struct mglru_folios *mglru_aging_due(struct kunit *test, struct scan_control *sc)
{
	struct mglru_folios *f = mglru_folios_init(test, 0);

	KUNIT_ASSERT_EQ(test, get_nr_gens(f->lruvec, LRU_GEN_FILE), MIN_NR_GENS + 1);
	KUNIT_ASSERT_TRUE_MSG(test, should_run_aging(f->lruvec,
						     READ_ONCE(f->lruvec->lrugen.max_seq), sc,
						     get_swappiness(f->lruvec, sc)),
			      "%d file generations: should_run_aging() wants none",
			      get_nr_gens(f->lruvec, LRU_GEN_FILE));
	return f;
}

/*
 * Whatever the aging attempt gives, the pass must evict the oldest
 * generation's folios; root reclaim then returns, asking for the next
 * memcg (true) only when it made a new generation itself.
 */
static void mglru_shrink_after_aging(struct kunit *test,
				     struct mglru_lost_aging *lost)
{
	struct scan_control sc = { .priority = 0 };
	struct mglru_folios *f = mglru_aging_due(test, &sc);
	unsigned long max_seq;
	bool need_rotate;

	max_seq = READ_ONCE(f->lruvec->lrugen.max_seq);

	if (lost) {
		((struct mglru_case *)test->priv)->lost = lost;
		kunit_activate_static_stub(test, try_to_inc_max_seq, mglru_aging_loses);
	}
	need_rotate = mglru_shrink_file(test, f, &sc);
	if (lost)
		kunit_deactivate_static_stub(test, try_to_inc_max_seq);

	KUNIT_EXPECT_EQ_MSG(test, sc.nr.taken, MGLRU_NR_FOLIOS,
			    "root reclaim evicts one batch after aging: it isolated %u folios",
			    (unsigned int)sc.nr.taken);
	if (!lost) {
		KUNIT_EXPECT_EQ_MSG(test, READ_ONCE(f->lruvec->lrugen.max_seq), max_seq + 1,
				    "the pass did not age the lruvec once");
		KUNIT_EXPECT_TRUE_MSG(test, need_rotate,
				      "the pass made a generation and did not say so");
		return;
	}
	KUNIT_EXPECT_EQ_MSG(test, lost->attempts, 1,
			    "one aging attempt a pass: root reclaim moves on after it evicts");
	KUNIT_EXPECT_EQ_MSG(test, READ_ONCE(f->lruvec->lrugen.max_seq),
			    max_seq + lost->other_ages,
			    "a lost aging attempt must not age the lruvec itself");
	KUNIT_EXPECT_FALSE_MSG(test, need_rotate,
			       "the pass lost its aging attempt yet asked for rotation");
}

static void mglru_test_shrink_evicts_after_aging(struct kunit *test)
{
	mglru_shrink_after_aging(test, NULL);
}

/* the production OOM's path: another reclaimer aged the lruvec first */
static void mglru_test_shrink_evicts_after_losing_aging(struct kunit *test)
{
	struct mglru_lost_aging lost = { .other_ages = true };

	mglru_shrink_after_aging(test, &lost);
}

/* the attempt fails and nothing ages: the mm walk is another's */
static void mglru_test_shrink_evicts_when_aging_fails(struct kunit *test)
{
	struct mglru_lost_aging lost = { .other_ages = false };

	mglru_shrink_after_aging(test, &lost);
}

/* reclaim that targets a memcg below the root, through root_reclaim()'s stub */
static bool mglru_memcg_reclaim(struct scan_control *sc)
{
	return false;
}

/* A pass of reclaim over @lruvec as memcg reclaim makes it. */
static void mglru_shrink_memcg(struct kunit *test, struct lruvec *lruvec,
			       struct scan_control *sc)
{
	kunit_activate_static_stub(test, root_reclaim, mglru_memcg_reclaim);
	mglru_shrink_lruvec(test, lruvec, sc);
	kunit_deactivate_static_stub(test, root_reclaim);
}

/*
 * The budget counts pages: memcg reclaim with a budget of one page (32
 * evictable at priority 5) over folios of four pages takes one of them,
 * three pages past its budget, and stops there.
 */
static void mglru_test_shrink_budget_counts_pages(struct kunit *test)
{
	struct scan_control sc = { .priority = 5 };
	struct mglru_folios *f;

	mglru_root_lru(test);
	f = mglru_folios_alloc_order(test, false, 0, 2);
	mglru_drop_empty_gens(f->lruvec, 0);
	mglru_age_file(f->lruvec, MIN_NR_GENS + 1, 0);
	mglru_folios_add(f);
	mglru_folios_in_oldest(test, f, LRU_GEN_FILE);
	KUNIT_ASSERT_EQ(test, lruvec_evictable_size(f->lruvec, 0) >> sc.priority, 1UL);

	mglru_shrink_memcg(test, f->lruvec, &sc);

	KUNIT_EXPECT_EQ_MSG(test, sc.nr.taken, 4,
			    "a budget of one page: the pass isolated %u pages, not one folio of 4",
			    (unsigned int)sc.nr.taken);
}

/*
 * With a generation to spare (MAX_NR_GENS of them, the case's folios the
 * oldest), a pass does not age: it evicts its budget, here the oldest
 * generation's folios (16 evictable at priority 1).
 */
static void mglru_test_shrink_does_not_age_with_gens_to_spare(struct kunit *test)
{
	struct scan_control sc = { .priority = 1 };
	struct mglru_folios *f = mglru_folios_init(test, 0);
	unsigned long max_seq;

	KUNIT_ASSERT_EQ(test, mglru_age_file(f->lruvec, MAX_NR_GENS, 0), MAX_NR_GENS);
	mglru_folios_in_oldest(test, f, LRU_GEN_FILE);
	KUNIT_ASSERT_EQ(test, lruvec_evictable_size(f->lruvec, 0) >> sc.priority,
			(unsigned long)MGLRU_NR_FOLIOS);
	max_seq = READ_ONCE(f->lruvec->lrugen.max_seq);

	mglru_shrink_file(test, f, &sc);

	KUNIT_EXPECT_EQ_MSG(test, READ_ONCE(f->lruvec->lrugen.max_seq), max_seq,
			    "the pass aged a lruvec with a generation to spare");
	KUNIT_EXPECT_EQ(test, sc.nr.taken, MGLRU_NR_FOLIOS);
}

/*
 * With nothing to evict (the folios in the MIN_NR_GENS youngest
 * generations) and an aging attempt that makes none, a pass ends: one
 * attempt, nothing taken.
 */
static void mglru_test_shrink_ends_with_nothing_to_evict(struct kunit *test)
{
	struct mglru_lost_aging lost = { .other_ages = false };
	struct scan_control sc = {};
	struct mglru_folios *f;

	mglru_root_lru(test);
	f = mglru_folios_alloc(test, false, 0);
	mglru_drop_empty_gens(f->lruvec, 0);
	KUNIT_ASSERT_EQ(test, get_nr_gens(f->lruvec, LRU_GEN_FILE), MIN_NR_GENS);
	mglru_folios_add(f);

	((struct mglru_case *)test->priv)->lost = &lost;
	kunit_activate_static_stub(test, try_to_inc_max_seq, mglru_aging_loses);
	mglru_shrink_memcg(test, f->lruvec, &sc);
	kunit_deactivate_static_stub(test, try_to_inc_max_seq);

	KUNIT_EXPECT_EQ(test, lost.attempts, 1);
	KUNIT_EXPECT_EQ(test, sc.nr.taken, 0);
}

/*
 * Memcg reclaim gets its fairness from the memcg iterator, not from
 * rotation: after aging it goes on evicting to its budget, here the
 * oldest generation and then the one above it.
 */
static void mglru_test_shrink_memcg_evicts_to_budget_after_aging(struct kunit *test)
{
	struct scan_control sc = { .priority = 0 };
	struct mglru_folios *f = mglru_aging_due(test, &sc);

	mglru_shrink_memcg(test, f->lruvec, &sc);

	KUNIT_EXPECT_EQ_MSG(test, sc.nr.taken, 2 * MGLRU_NR_FOLIOS,
			    "memcg reclaim stopped short of its budget after aging: it isolated %u folios",
			    (unsigned int)sc.nr.taken);
}

/*
 * Memcg reclaim stops once it reclaimed what it was asked for, though its
 * budget (priority 0: the whole lruvec) goes on to the generation above.
 */
static void mglru_test_shrink_stops_when_reclaimed_enough(struct kunit *test)
{
	struct scan_control sc = { .nr_to_reclaim = MGLRU_NR_FOLIOS };
	struct lruvec *lruvec;

	mglru_lazyfree_init(test, MGLRU_NR_FOLIOS, true, &lruvec);
	mglru_shrink_memcg(test, lruvec, &sc);

	KUNIT_EXPECT_EQ(test, sc.nr_reclaimed, MGLRU_NR_FOLIOS);
	KUNIT_EXPECT_EQ_MSG(test, sc.nr.taken, MGLRU_NR_FOLIOS,
			    "reclaim went on after it had reclaimed enough: it isolated %u folios",
			    (unsigned int)sc.nr.taken);
	mglru_unmap(test);
}

/*
 * A budget of one folio (16 evictable at priority 4) is a pass of one:
 * memcg reclaim takes it, and no more.
 */
static void mglru_test_shrink_memcg_budget_of_one(struct kunit *test)
{
	struct scan_control sc = { .priority = 4 };
	struct mglru_folios *f = mglru_aging_due(test, &sc);

	KUNIT_ASSERT_EQ(test, lruvec_evictable_size(f->lruvec, 0) >> sc.priority, 1UL);
	mglru_shrink_memcg(test, f->lruvec, &sc);

	KUNIT_EXPECT_EQ_MSG(test, sc.nr.taken, 1,
			    "a budget of one: the pass isolated %u folios",
			    (unsigned int)sc.nr.taken);
}

/*
 * get_nr_to_scan() on the root memcg's lruvec, online and unprotected:
 * its evictable size shifted by the priority, without aging it though
 * aging is due, as reclaim calls it.
 */
static void mglru_test_budget_of_the_root_lruvec(struct kunit *test)
{
	static const int priorities[] = { 0, 1, 2, DEF_PRIORITY };
	struct scan_control sc = { .priority = 0 };
	struct mglru_folios *f = mglru_aging_due(test, &sc);
	unsigned long max_seq = READ_ONCE(f->lruvec->lrugen.max_seq);
	struct reclaim_state rs = {};
	long size;
	int i;

	mglru_root_lru_check(test, "before the budget");
	size = lruvec_evictable_size(f->lruvec, 0);
	KUNIT_ASSERT_GE(test, size, 2L * MGLRU_NR_FOLIOS);
	set_task_reclaim_state(current, &rs);
	for (i = 0; i < ARRAY_SIZE(priorities); i++) {
		sc.priority = priorities[i];
		KUNIT_EXPECT_EQ_MSG(test, get_nr_to_scan(f->lruvec, &sc, root_mem_cgroup, 0),
				    size >> sc.priority, "at priority %d", sc.priority);
	}
	clear_mm_walk();
	set_task_reclaim_state(current, NULL);
	KUNIT_EXPECT_EQ_MSG(test, READ_ONCE(f->lruvec->lrugen.max_seq), max_seq,
			    "get_nr_to_scan() aged the lruvec");
}

/*
 * An anon-only pass (proactive reclaim) over a lruvec whose anon folios
 * cannot be reclaimed, with no swap and no demotion: get_nr_to_scan() sizes
 * it 0, where it sizes a pass of both types by all their folios.
 */
static void mglru_test_budget_anon_only_without_swap(struct kunit *test)
{
	struct scan_control sc = { .priority = 0, .proactive = 1, .no_demotion = 1 };
	struct mglru_folios *f;

	mglru_root_lru(test);
	f = mglru_folios_alloc(test, true, 0);
	if (can_reclaim_anon_pages(root_mem_cgroup, lruvec_pgdat(f->lruvec)->node_id, &sc))
		kunit_skip(test, "the machine has swap: anon is reclaimable");
	mglru_folios_add(f);
	KUNIT_ASSERT_GE(test, lruvec_evictable_size(f->lruvec, SWAPPINESS_ANON_ONLY),
			(unsigned long)MGLRU_NR_FOLIOS);

	KUNIT_EXPECT_EQ(test, get_nr_to_scan(f->lruvec, &sc, root_mem_cgroup,
					     SWAPPINESS_ANON_ONLY), 0L);
	KUNIT_EXPECT_EQ(test, get_nr_to_scan(f->lruvec, &sc, root_mem_cgroup, MAX_SWAPPINESS),
			(long)lruvec_evictable_size(f->lruvec, MAX_SWAPPINESS));
}

static struct kunit_case mglru_shrink_test_cases[] = {
	KUNIT_CASE(mglru_test_shrink_evicts_after_aging),
	KUNIT_CASE(mglru_test_shrink_evicts_after_losing_aging),
	KUNIT_CASE(mglru_test_shrink_evicts_when_aging_fails),
	KUNIT_CASE(mglru_test_shrink_memcg_evicts_to_budget_after_aging),
	KUNIT_CASE(mglru_test_shrink_stops_when_reclaimed_enough),
	KUNIT_CASE(mglru_test_shrink_memcg_budget_of_one),
	KUNIT_CASE(mglru_test_shrink_budget_counts_pages),
	KUNIT_CASE(mglru_test_shrink_does_not_age_with_gens_to_spare),
	KUNIT_CASE(mglru_test_shrink_ends_with_nothing_to_evict),
	KUNIT_CASE(mglru_test_budget_of_the_root_lruvec),
	KUNIT_CASE(mglru_test_budget_anon_only_without_swap),
	{}
};

static struct kunit_suite mglru_shrink_test_suite = {
	.name = "mglru_shrink",
	.test_cases = mglru_shrink_test_cases,
};

kunit_test_suite(mglru_shrink_test_suite);

/*
 * mglru_place: where the multi-gen LRU places a folio added in a page
 * fault: folio_add_lru() marks it accessed (PG_referenced), so that a
 * prefaulted file folio lands in the second oldest generation, and makes
 * only a refaulted workingset folio active, which lands in the youngest
 * ("mm/mglru: use folio_mark_accessed to replace folio_set_active").
 * Before it every faulted folio was made active, so readahead folios that
 * were never used landed young and pushed the working set out.
 *
 * Anon and shmem folios are faulted in for real: copy_to_user() into a
 * mapping of the case's own mm (kunit_vm_mmap()) takes a page fault
 * through handle_mm_fault(). The file folios are the case's own, with
 * no mapping, added to the LRU with all MAX_NR_GENS file generations
 * alive, so that each placement is a distinct generation. As in
 * mglru_evict, whose helpers these cases use, the folios are on the root
 * memcg's lruvec, which the cases need to themselves.
 */

KUNIT_DEFINE_ACTION_WRAPPER(mglru_folio_put, folio_put, struct folio *);

/*
 * A page of a new mapping in the case's own mm (@flags: MAP_PRIVATE or
 * MAP_SHARED, anonymous; @advice: an madvise() advice for it, or -1),
 * faulted in by a copy_to_user() into it, and its folio, which the case
 * holds once the mapping is gone, on the LRU.
 */
static struct folio *mglru_fault_in(struct kunit *test, unsigned long flags, int advice)
{
	struct vm_area_struct *vma;
	struct folio_walk fw;
	struct folio *folio;
	unsigned long addr;
	char byte = 1;

	mglru_root_lru(test);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, mglru_fault_release, NULL));
	addr = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			     flags | MAP_ANONYMOUS, 0);
	KUNIT_ASSERT_FALSE_MSG(test, !addr || IS_ERR_VALUE(addr), "kunit_vm_mmap(): %ld",
			       (long)addr);
	if (advice >= 0)
		KUNIT_ASSERT_EQ(test, do_madvise(current->mm, addr, PAGE_SIZE, advice), 0);

	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)addr, &byte, 1), 0);
	lru_add_drain_all();

	mmap_read_lock(current->mm);
	vma = vma_lookup(current->mm, addr);
	folio = vma ? folio_walk_start(&fw, vma, addr, 0) : NULL;
	if (folio) {
		folio_get(folio);
		folio_walk_end(&fw, vma);
	}
	mmap_read_unlock(current->mm);
	KUNIT_ASSERT_NOT_NULL_MSG(test, folio, "no folio mapped after the fault");
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, mglru_folio_put, folio));
	((struct mglru_case *)test->priv)->faulted = folio;
	/* unmapping a young pte of a shmem folio would count an access */
	((struct mglru_case *)test->priv)->fault_refs = folio_lru_refs(folio);
	/* gone before the test thread's mm is, which happens after the case */
	KUNIT_ASSERT_EQ(test, vm_munmap(addr, PAGE_SIZE), 0);

	KUNIT_ASSERT_TRUE(test, folio_test_lru(folio));
	mglru_root_lru_check(test, "after the fault");
	return folio;
}

/*
 * A new swap-backed folio lands in the second youngest generation, active
 * or not, so where it lands cannot tell the fault's mark: its flags can.
 * The fault counts as one access (PG_referenced, no LRU refs), taken while
 * the page was mapped, and leaves it out of the working set.
 */
static void mglru_expect_faulted_once(struct kunit *test, struct folio *folio)
{
	struct lruvec *lruvec = folio_lruvec(folio);
	int refs = ((struct mglru_case *)test->priv)->fault_refs;

	KUNIT_EXPECT_EQ_MSG(test, refs, 1, "the fault counted %d accesses, not 1", refs);
	KUNIT_EXPECT_FALSE(test, folio_test_workingset(folio));
	KUNIT_EXPECT_EQ(test, folio_lru_gen(folio),
			lru_gen_from_seq(READ_ONCE(lruvec->lrugen.max_seq) - 1));
}

static void mglru_test_fault_marks_anon_accessed(struct kunit *test)
{
	struct folio *folio = mglru_fault_in(test, MAP_PRIVATE, -1);

	KUNIT_ASSERT_TRUE(test, folio_test_anon(folio));
	mglru_expect_faulted_once(test, folio);
}

/*
 * A fault in a VMA without recency (MADV_RANDOM, MADV_SEQUENTIAL) is no
 * access the LRU counts: the new folio is not marked accessed.
 */
static void mglru_test_fault_without_recency_leaves_anon_unmarked(struct kunit *test)
{
	const int *advice = test->param_value;
	struct folio *folio = mglru_fault_in(test, MAP_PRIVATE, *advice);
	int refs = ((struct mglru_case *)test->priv)->fault_refs;

	KUNIT_ASSERT_TRUE(test, folio_test_anon(folio));
	KUNIT_EXPECT_EQ_MSG(test, refs, 0, "the fault counted %d accesses, not 0", refs);
}

static const int mglru_no_recency_advice[] = { MADV_RANDOM, MADV_SEQUENTIAL };

static void mglru_advice_desc(const int *advice, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s",
		 *advice == MADV_RANDOM ? "MADV_RANDOM" : "MADV_SEQUENTIAL");
}

KUNIT_ARRAY_PARAM(mglru_no_recency, mglru_no_recency_advice, mglru_advice_desc);

/* A shmem folio, swap-backed as anon: the same. */
static void mglru_test_fault_marks_shmem_accessed(struct kunit *test)
{
	struct folio *folio;

	if (!IS_ENABLED(CONFIG_SHMEM))
		kunit_skip(test, "no shmem (CONFIG_SHMEM): a shared mapping is ramfs");
	folio = mglru_fault_in(test, MAP_SHARED, -1);

	KUNIT_ASSERT_FALSE(test, folio_test_anon(folio));
	KUNIT_ASSERT_TRUE(test, folio_test_swapbacked(folio));
	mglru_expect_faulted_once(test, folio);
}

/* how the case adds its file folios to the LRU */
enum mglru_add_ctx {
	MGLRU_ADD_FAULT,	/* in a page fault on a VMA with recency */
	MGLRU_ADD_PLAIN,	/* outside a fault (read(), readahead) */
	MGLRU_ADD_FAULT_MEMALLOC, /* in a fault, from memory reclaim */
	MGLRU_ADD_AS_LEFT,	/* with in_lru_fault as the kernel left it */
};

/*
 * Add @f to the LRU in @ctx, and expect each folio in the generation @age
 * below max_seq (0: the youngest).
 *
 * A page cache folio has no fault that a case can take: that needs a file
 * of a filesystem. The fault is the task's in_lru_fault flag, set and
 * restored around the additions as lru_gen_enter_fault() and
 * lru_gen_exit_fault() do for the faulting task.
 */
static void mglru_add_expect_age(struct kunit *test, struct mglru_folios *f,
				 enum mglru_add_ctx ctx, int age, const char *what)
{
	struct lru_gen_folio *lrugen = &f->lruvec->lrugen;
	unsigned int in_fault = current->in_lru_fault;
	bool referenced = folio_test_referenced(f->folio[0]);
	unsigned int noreclaim = 0;
	unsigned long max_seq;
	int i;

	KUNIT_ASSERT_EQ_MSG(test, mglru_age_file(f->lruvec, MAX_NR_GENS, 1), MAX_NR_GENS,
			    "the lruvec did not reach %d file generations", MAX_NR_GENS);
	max_seq = READ_ONCE(lrugen->max_seq);
	if (ctx == MGLRU_ADD_FAULT_MEMALLOC)
		noreclaim = memalloc_noreclaim_save();
	if (ctx != MGLRU_ADD_AS_LEFT)
		current->in_lru_fault = ctx != MGLRU_ADD_PLAIN;
	mglru_folios_add(f);
	current->in_lru_fault = in_fault;
	if (ctx == MGLRU_ADD_FAULT_MEMALLOC)
		memalloc_noreclaim_restore(noreclaim);
	mglru_root_lru_check(test, "after the additions");

	mglru_folios_in_gen(test, f, max_seq - age, what);
	if (ctx == MGLRU_ADD_FAULT)
		return;
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		KUNIT_EXPECT_EQ_MSG(test, folio_test_referenced(f->folio[i]), referenced,
				    "folio %d: %s: marked accessed", i, what);
}

static struct mglru_folios *mglru_file_folios(struct kunit *test)
{
	mglru_root_lru(test);
	return mglru_folios_alloc(test, false, 0);
}

/* Readahead brought it in, the fault mapped it: second oldest. */
static void mglru_test_fault_places_prefaulted(struct kunit *test)
{
	struct mglru_folios *f = mglru_file_folios(test);
	int i;

	mglru_add_expect_age(test, f, MGLRU_ADD_FAULT, MAX_NR_GENS - 2, "prefaulted");
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		KUNIT_EXPECT_TRUE_MSG(test, folio_test_referenced(f->folio[i]),
				      "folio %d: the fault did not mark it accessed", i);
}

/* It was evicted while in use and faulted back: the youngest. */
static void mglru_test_fault_places_refaulted_workingset(struct kunit *test)
{
	struct mglru_folios *f = mglru_file_folios(test);
	int i;

	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		folio_set_workingset(f->folio[i]);
	mglru_add_expect_age(test, f, MGLRU_ADD_FAULT, 0, "refaulted workingset");
	/* made active, not also marked accessed */
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		KUNIT_EXPECT_EQ_MSG(test, folio_lru_refs(f->folio[i]), 0,
				    "folio %d: the fault counted an access", i);
}

/*
 * Read once before the fault mapped it (PG_referenced): the fault leaves
 * its references alone and it lands second oldest, not promoted.
 */
static void mglru_test_fault_keeps_referenced_refs(struct kunit *test)
{
	struct mglru_folios *f = mglru_file_folios(test);
	int i;

	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		folio_set_referenced(f->folio[i]);
	mglru_add_expect_age(test, f, MGLRU_ADD_FAULT, MAX_NR_GENS - 2, "referenced, faulted");
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		/* PG_referenced alone is one access */
		KUNIT_EXPECT_EQ_MSG(test, folio_lru_refs(f->folio[i]), 1,
				    "folio %d: the fault added a reference", i);
}

/* Added outside a fault (read(), readahead): the oldest, unmarked. */
static void mglru_test_plain_add_places_oldest(struct kunit *test)
{
	mglru_add_expect_age(test, mglru_file_folios(test), MGLRU_ADD_PLAIN,
			     MAX_NR_GENS - 1, "added outside a fault");
}

/* A fault taken from memory reclaim (PF_MEMALLOC) places as no fault. */
static void mglru_test_fault_in_reclaim_places_oldest(struct kunit *test)
{
	mglru_add_expect_age(test, mglru_file_folios(test), MGLRU_ADD_FAULT_MEMALLOC,
			     MAX_NR_GENS - 1, "faulted under PF_MEMALLOC");
}

/*
 * A workingset folio that comes back from the unevictable list
 * (PG_unevictable, left by its isolation there, and evictable again) is
 * not made active by a fault: PG_active and PG_unevictable must not meet
 * in folio_add_lru(). It lands where any workingset folio added outside a
 * fault does, second oldest.
 */
static void mglru_test_fault_leaves_unevictable_inactive(struct kunit *test)
{
	struct mglru_folios *f = mglru_file_folios(test);
	int i;

	for (i = 0; i < MGLRU_NR_FOLIOS; i++) {
		folio_set_unevictable(f->folio[i]);
		folio_set_workingset(f->folio[i]);
	}
	mglru_add_expect_age(test, f, MGLRU_ADD_FAULT, MAX_NR_GENS - 2,
			     "rescued from the unevictable list in a fault");
}

/*
 * After a page fault returns, the task is no longer in one: what it adds
 * to the LRU next (a read(), readahead) lands oldest, unmarked.
 */
static void mglru_test_fault_ends_with_the_fault(struct kunit *test)
{
	struct mglru_folios *f;

	mglru_fault_in(test, MAP_PRIVATE, -1);
	f = mglru_folios_alloc(test, false, 0);
	mglru_add_expect_age(test, f, MGLRU_ADD_AS_LEFT, MAX_NR_GENS - 1,
			     "added after a fault returned");
}

static struct kunit_case mglru_place_test_cases[] = {
	KUNIT_CASE(mglru_test_fault_marks_anon_accessed),
	KUNIT_CASE(mglru_test_fault_marks_shmem_accessed),
	KUNIT_CASE(mglru_test_fault_places_prefaulted),
	KUNIT_CASE(mglru_test_fault_places_refaulted_workingset),
	KUNIT_CASE(mglru_test_fault_keeps_referenced_refs),
	KUNIT_CASE(mglru_test_plain_add_places_oldest),
	KUNIT_CASE(mglru_test_fault_in_reclaim_places_oldest),
	KUNIT_CASE_PARAM(mglru_test_fault_without_recency_leaves_anon_unmarked,
			 mglru_no_recency_gen_params),
	KUNIT_CASE(mglru_test_fault_leaves_unevictable_inactive),
	KUNIT_CASE(mglru_test_fault_ends_with_the_fault),
	{}
};

static struct kunit_suite mglru_place_test_suite = {
	.name = "mglru_place",
	.test_cases = mglru_place_test_cases,
};

kunit_test_suite(mglru_place_test_suite);
