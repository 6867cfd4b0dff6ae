// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the multi-gen LRU helpers of mm/vmscan.c that size, pace
 * and steer reclaim: lruvec_evictable_size(), get_nr_to_scan(),
 * should_run_aging(), get_type_to_scan() and lru_gen_folio_seq().
 *
 * The helpers are static and take struct scan_control, which only
 * mm/vmscan.c defines, so mm/vmscan.c includes this file at the end of its
 * CONFIG_LRU_GEN section when CONFIG_MGLRU_KUNIT_TEST is set.
 *
 * Each case works on a memcg and a lruvec that it allocates itself, zeroed
 * and set up as the memory controller sets up its own (lruvec_init()), with
 * only what the helpers read filled in: generations, page counts, refault
 * history, usage, protection and the online flag. Neither is registered
 * or charged, and reclaim never sees them.
 */

#include <kunit/test.h>

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

struct mglru_env {
	struct mem_cgroup *memcg;
	struct lruvec *lruvec;
	struct scan_control sc;
};

/*
 * An online child of the root memcg with no usage, no protection and no
 * swap allowed (swap.max 0), and its lruvec on the first node.
 */
static void mglru_env_alloc(struct kunit *test, struct mglru_env *env)
{
	struct mem_cgroup_per_node *pn;
	struct mem_cgroup *memcg;

	if (mem_cgroup_disabled())
		kunit_skip(test, "the memory controller is disabled");

	memcg = kunit_kzalloc(test, struct_size(memcg, nodeinfo, nr_node_ids), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, memcg);
	pn = kunit_kzalloc(test, sizeof(*pn), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pn);

	memcg->css.flags = CSS_ONLINE;
	memcg->css.parent = &root_mem_cgroup->css;
	lru_gen_init_memcg(memcg);
	lruvec_init(&pn->lruvec);
	pn->lruvec.pgdat = NODE_DATA(first_online_node);
	pn->memcg = memcg;

	env->memcg = memcg;
	env->lruvec = &pn->lruvec;
	KUNIT_ASSERT_PTR_EQ(test, lruvec_memcg(env->lruvec), memcg);
}

static void mglru_env_init(struct kunit *test, struct mglru_env *env,
			   const struct mglru_state *state)
{
	struct lru_gen_folio *lrugen;
	int i;

	mglru_env_alloc(test, env);

	lrugen = &env->lruvec->lrugen;
	KUNIT_ASSERT_LE(test, state->min_seq[LRU_GEN_ANON], state->max_seq);
	KUNIT_ASSERT_LE(test, state->min_seq[LRU_GEN_FILE], state->max_seq);
	lrugen->max_seq = state->max_seq;
	lrugen->min_seq[LRU_GEN_ANON] = state->min_seq[LRU_GEN_ANON];
	lrugen->min_seq[LRU_GEN_FILE] = state->min_seq[LRU_GEN_FILE];

	for (i = 0; i < MGLRU_MAX_ENTRIES; i++) {
		const struct mglru_pages *p = &state->pages[i];

		lrugen->nr_pages[lru_gen_from_seq(p->seq)][p->type][p->zone] += p->nr;
	}

	/* every field the cases do not set is zero, as in a caller's initializer */
	env->sc = (struct scan_control){ .priority = DEF_PRIORITY };
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
	struct mglru_env env;

	mglru_env_init(test, &env, &c->state);

	KUNIT_EXPECT_EQ(test, lruvec_evictable_size(env.lruvec, c->swappiness),
			c->expected);
}

/*
 * get_nr_to_scan()
 *
 * A lruvec of MGLRU_BUDGET_PAGES evictable pages: file only, spread over
 * three generations and two zones, with anon pages that swappiness 0 must
 * leave out. The odd low bits make every shift by the priority visible.
 * max_seq + 1's slot holds as much as max_seq - 1's: a helper that ages by
 * mistake then moves no LRU size, which would update the statistics the
 * case's memcg does not have, and fails on the seqs instead.
 */
#define MGLRU_BUDGET_PAGES	((1UL << 20) + 12345)

static const struct mglru_state mglru_budget_state = {
	.min_seq = { 3, 3 }, .max_seq = 5, .pages = {
		{ 3, LRU_GEN_FILE, 0, 1UL << 20 }, { 4, LRU_GEN_FILE, MGLRU_LAST_ZONE, 12000 },
		{ 5, LRU_GEN_FILE, 0, 345 }, { 5, LRU_GEN_ANON, 0, 777777 },
		{ 2, LRU_GEN_FILE, MGLRU_LAST_ZONE, 12000 },
	},
};

/* a lruvec that is out of cold generations: the old code aged it here */
static const struct mglru_state mglru_budget_aging_state = {
	.min_seq = { 4, 4 }, .max_seq = 5, .pages = {
		{ 4, LRU_GEN_FILE, 0, 1UL << 20 }, { 5, LRU_GEN_FILE, MGLRU_LAST_ZONE, 12345 },
		{ 2, LRU_GEN_FILE, 0, 1UL << 20 },
	},
};

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

static const int mglru_priorities[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, DEF_PRIORITY,
};

static void mglru_priority_desc(const int *priority, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "priority_%d_shifts_evictable_size",
		 *priority);
}

KUNIT_ARRAY_PARAM(mglru_priority, mglru_priorities, mglru_priority_desc);

static void mglru_test_budget_priority(struct kunit *test)
{
	const int *priority = test->param_value;
	const struct mglru_state *states[] = {
		&mglru_budget_state, &mglru_budget_aging_state,
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(states); i++) {
		struct mglru_env env;

		mglru_env_init(test, &env, states[i]);
		env.sc.priority = *priority;

		KUNIT_EXPECT_EQ(test, get_nr_to_scan(env.lruvec, &env.sc, env.memcg, 0),
				(long)(MGLRU_BUDGET_PAGES >> *priority));
		mglru_expect_seqs_unchanged(test, env.lruvec, states[i]);
	}
}

static void mglru_test_budget_offline_memcg(struct kunit *test)
{
	struct mglru_env env;

	mglru_env_init(test, &env, &mglru_budget_aging_state);
	env.memcg->css.flags &= ~CSS_ONLINE;

	/* a deleted memcg is scraped whole, whatever the priority */
	KUNIT_EXPECT_EQ(test, get_nr_to_scan(env.lruvec, &env.sc, env.memcg, 0),
			(long)MGLRU_BUDGET_PAGES);
	mglru_expect_seqs_unchanged(test, env.lruvec, &mglru_budget_aging_state);
}

static void mglru_test_budget_swappiness(struct kunit *test)
{
	struct mglru_env env;

	mglru_env_init(test, &env, &mglru_budget_state);
	env.sc.priority = 2;

	KUNIT_EXPECT_EQ(test, get_nr_to_scan(env.lruvec, &env.sc, env.memcg, 60),
			(long)((MGLRU_BUDGET_PAGES + 777777) >> 2));
}

/* the case's memcg may not swap (swap.max 0): nothing to scan anon-only */
static void mglru_test_budget_anon_only_without_swap(struct kunit *test)
{
	struct mglru_env env;

	if (!cgroup_subsys_on_dfl(memory_cgrp_subsys))
		kunit_skip(test, "the memory controller is on cgroup v1: no swap.max");

	mglru_env_init(test, &env, &mglru_budget_state);
	env.sc.priority = 0;
	env.sc.proactive = 1;
	env.sc.no_demotion = 1;

	KUNIT_EXPECT_EQ(test, get_nr_to_scan(env.lruvec, &env.sc, env.memcg,
					     SWAPPINESS_ANON_ONLY), 0L);
	mglru_expect_seqs_unchanged(test, env.lruvec, &mglru_budget_state);
}

/*
 * Only proactive reclaim asks for anon only: get_nr_to_scan() warns once
 * when SWAPPINESS_ANON_ONLY reaches it from anywhere else. The warning is
 * suppressed and counted, so the kernel is not tainted. Where
 * WARN_ON_ONCE() is a bug table entry (__WARN_FLAGS), a suppressed warning
 * leaves the once unspent; elsewhere (UML) it is spent, and a later run of
 * the case in the same boot sees no warning.
 */
#ifdef __WARN_FLAGS
#define MGLRU_SUPPRESSED_WARN_SPENDS_ONCE	false
#else
#define MGLRU_SUPPRESSED_WARN_SPENDS_ONCE	true
#endif

static bool mglru_anon_only_warned;

static void mglru_test_budget_anon_only_warns_outside_proactive(struct kunit *test)
{
	bool spent = MGLRU_SUPPRESSED_WARN_SPENDS_ONCE && mglru_anon_only_warned;
	struct mglru_env env;

	if (!IS_ENABLED(CONFIG_BUG))
		kunit_skip(test, "WARN_ON_ONCE() is compiled out (CONFIG_BUG=n)");
	mglru_env_init(test, &env, &mglru_budget_state);
	env.sc.priority = 0;

	kunit_warning_suppress(test) {
		get_nr_to_scan(env.lruvec, &env.sc, env.memcg, SWAPPINESS_ANON_ONLY);
		KUNIT_EXPECT_SUPPRESSED_WARNING_COUNT(test, spent ? 0 : 1);
	}
	mglru_anon_only_warned = true;
	mglru_expect_seqs_unchanged(test, env.lruvec, &mglru_budget_state);
}

/*
 * memory.min and memory.low shrink the budget in proportion to how much of
 * the memcg's usage they protect: size - size * protection / (usage + 1),
 * never below SWAP_CLUSTER_MAX, then shifted by the priority.
 */
struct mglru_protection_case {
	const char *name;
	unsigned long usage, emin, elow;
	unsigned int memcg_low_reclaim;
	int priority;
	long expected;
	unsigned int low_skipped;
};

static const struct mglru_protection_case mglru_protection_cases[] = {
	{
		.name = "min_protects_half_of_usage",
		.usage = 2000000, .emin = 1000000,
		/* 1060921 - 1060921 * 1000000 / 2000001 = 1060921 - 530460 */
		.expected = 530461,
	},
	{
		.name = "min_protection_is_shifted_by_priority",
		.usage = 2000000, .emin = 1000000, .priority = 4,
		.expected = 530461 >> 4,
	},
	{
		.name = "low_above_min_is_used_and_marks_skipped",
		.usage = 2000000, .emin = 500000, .elow = 1500000,
		/* 1060921 - 1060921 * 1500000 / 2000001 = 1060921 - 795690 */
		.expected = 265231, .low_skipped = 1,
	},
	{
		.name = "low_reclaim_falls_back_to_min",
		.usage = 2000000, .emin = 500000, .elow = 1500000,
		.memcg_low_reclaim = 1,
		/* 1060921 - 1060921 * 500000 / 2000001 = 1060921 - 265230 */
		.expected = 795691,
	},
	{
		.name = "full_protection_still_scans_swap_cluster_max",
		.usage = 1000, .emin = 4000000,
		.expected = SWAP_CLUSTER_MAX,
	},
};

KUNIT_ARRAY_PARAM_DESC(mglru_protection, mglru_protection_cases, name);

static void mglru_test_budget_protection(struct kunit *test)
{
	const struct mglru_protection_case *c = test->param_value;
	struct mglru_env env;

	mglru_env_init(test, &env, &mglru_budget_state);
	atomic_long_set(&env.memcg->memory.usage, c->usage);
	WRITE_ONCE(env.memcg->memory.emin, c->emin);
	WRITE_ONCE(env.memcg->memory.elow, c->elow);
	env.sc.memcg_low_reclaim = c->memcg_low_reclaim;
	env.sc.priority = c->priority;

	KUNIT_EXPECT_EQ(test, get_nr_to_scan(env.lruvec, &env.sc, env.memcg, 0),
			c->expected);
	KUNIT_EXPECT_EQ(test, (unsigned int)env.sc.memcg_low_skipped, c->low_skipped);
	mglru_expect_seqs_unchanged(test, env.lruvec, &mglru_budget_state);
}

/* no protection applies when the memcg is the reclaim target itself */
static void mglru_test_budget_target_is_unprotected(struct kunit *test)
{
	struct mglru_env env;

	mglru_env_init(test, &env, &mglru_budget_state);
	atomic_long_set(&env.memcg->memory.usage, 2000000);
	WRITE_ONCE(env.memcg->memory.emin, 1000000);
	env.sc.target_mem_cgroup = env.memcg;
	env.sc.priority = 0;

	KUNIT_EXPECT_EQ(test, get_nr_to_scan(env.lruvec, &env.sc, env.memcg, 0),
			(long)MGLRU_BUDGET_PAGES);
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
	struct mglru_env env;

	mglru_env_init(test, &env, &state);
	env.sc.priority = c->priority;

	KUNIT_EXPECT_EQ(test, should_run_aging(env.lruvec, c->max_seq, &env.sc,
					       c->swappiness), c->expected);
	mglru_expect_seqs_unchanged(test, env.lruvec, &state);
}

/*
 * get_type_to_scan()
 *
 * Swappiness 0 and 1 scan file and MAX_SWAPPINESS and above anon, whatever
 * the refault history says; in between, the history of each type's
 * refaults decides. A lruvec with no history scans file; one whose file
 * folios refaulted and anon ones did not scans anon.
 */
struct mglru_type_case {
	const char *name;
	int swappiness;
	bool file_refaulted;
	int expected;
};

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
};

KUNIT_ARRAY_PARAM_DESC(mglru_type, mglru_type_cases, name);

static void mglru_test_type_to_scan(struct kunit *test)
{
	const struct mglru_type_case *c = test->param_value;
	struct mglru_state state = { .min_seq = { 4, 4 }, .max_seq = 7 };
	struct mglru_env env;

	mglru_env_init(test, &env, &state);
	if (c->file_refaulted) {
		/* far more file refaults than evictions: tier 0, summed with the rest */
		env.lruvec->lrugen.avg_refaulted[LRU_GEN_FILE][0] = 1UL << 16;
		env.lruvec->lrugen.avg_total[LRU_GEN_FILE][0] = 1;
	}

	KUNIT_EXPECT_EQ(test, get_type_to_scan(env.lruvec, c->swappiness), c->expected);
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
	struct mglru_flagged_folio *f;
	struct mglru_env env;

	mglru_env_init(test, &env, &state);
	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->folio = folio_alloc(GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, f->folio);
	f->flags = f->folio->flags.f;
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, mglru_flagged_folio_put, f));
	f->folio->flags.f |= c->flags;

	KUNIT_EXPECT_EQ(test, lru_gen_folio_seq(env.lruvec, f->folio, c->reclaiming),
			c->expected);
}

static struct kunit_case mglru_test_cases[] = {
	KUNIT_CASE_PARAM(mglru_test_evictable_size, mglru_size_gen_params),
	KUNIT_CASE_PARAM(mglru_test_budget_priority, mglru_priority_gen_params),
	KUNIT_CASE(mglru_test_budget_offline_memcg),
	KUNIT_CASE(mglru_test_budget_swappiness),
	KUNIT_CASE(mglru_test_budget_anon_only_without_swap),
	KUNIT_CASE(mglru_test_budget_anon_only_warns_outside_proactive),
	KUNIT_CASE_PARAM(mglru_test_budget_protection, mglru_protection_gen_params),
	KUNIT_CASE(mglru_test_budget_target_is_unprotected),
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

/* suites on real folios, on the root memcg's lruvec of a test kernel */
#include "mglru_evict_kunit.c"
#include "mglru_place_kunit.c"
