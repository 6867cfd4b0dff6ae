// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the MGLRU reclaim helpers of mm/vmscan.c:
 * lruvec_evictable_size(), get_nr_to_scan() and should_run_aging().
 *
 * The helpers are static and take struct scan_control, which only
 * mm/vmscan.c defines, so mm/vmscan.c includes this file at the end of its
 * CONFIG_LRU_GEN section when CONFIG_MGLRU_KUNIT_TEST is set (as
 * mm/damon/core.c includes its tests).
 *
 * Each case builds the generation state directly on the lruvec of the
 * suite's own memcg: no folio is involved, only min_seq, max_seq and the
 * per-generation page counters the helpers read.
 */

#include <kunit/test.h>

/* a folio count placed in one generation, type and zone of the lruvec */
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
 * The suite's memcg: a child of the root memcg made by the memory
 * controller's own css_alloc(), as cgroup_mkdir() makes one, so that it has
 * the statistics, page counters and per-node lruvecs of any memcg, and a
 * helper that reads a statistic by mistake fails a case instead of
 * oopsing. It is never onlined, charged or linked into a cgroup: reclaim
 * and the cgroup core never see it, and the cases change it at will. The
 * cgroup core does not count references to it (CSS_NO_REF, as for the
 * root), and a case sets CSS_ONLINE to stand for an online memcg. Off the
 * cgroup tree it has no rstat, so it takes reads of its statistics, not
 * changes. It is made once a boot and kept: only css_online() and
 * css_offline() would give back its ID, and css_free() the socket and BPF
 * accounting keys that css_alloc() took, which a machine with a memcg of
 * its own below the root has taken already.
 */
static struct mem_cgroup *mglru_memcg;

static void mglru_memcg_init(struct kunit *test, struct mglru_env *env)
{
	struct cgroup_subsys_state *css;
	struct mem_cgroup *memcg;

	if (mem_cgroup_disabled() || !root_mem_cgroup)
		kunit_skip(test, "the memory controller is disabled");

	if (!mglru_memcg) {
		css = memory_cgrp_subsys.css_alloc(&root_mem_cgroup->css);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, css);
		css->parent = &root_mem_cgroup->css;
		mglru_memcg = mem_cgroup_from_css(css);
	}
	memcg = mglru_memcg;
	env->memcg = memcg;
	memcg->css.flags = CSS_NO_REF | CSS_ONLINE;
	atomic_long_set(&memcg->memory.usage, 0);
	WRITE_ONCE(memcg->memory.emin, 0);
	WRITE_ONCE(memcg->memory.elow, 0);

	env->lruvec = mem_cgroup_lruvec(memcg, NODE_DATA(first_online_node));
	memset(env->lruvec->lrugen.nr_pages, 0, sizeof(env->lruvec->lrugen.nr_pages));
	KUNIT_ASSERT_PTR_EQ(test, lruvec_memcg(env->lruvec), memcg);
}

static void mglru_env_init(struct kunit *test, struct mglru_env *env,
			   const struct mglru_state *state)
{
	struct lru_gen_folio *lrugen;
	int i;

	mglru_memcg_init(test, env);

	lrugen = &env->lruvec->lrugen;
	KUNIT_ASSERT_LE(test, state->min_seq[LRU_GEN_ANON], state->max_seq);
	KUNIT_ASSERT_LE(test, state->min_seq[LRU_GEN_FILE], state->max_seq);
	lrugen->max_seq = state->max_seq;
	lrugen->min_seq[LRU_GEN_ANON] = state->min_seq[LRU_GEN_ANON];
	lrugen->min_seq[LRU_GEN_FILE] = state->min_seq[LRU_GEN_FILE];

	for (i = 0; i < MGLRU_MAX_ENTRIES; i++) {
		const struct mglru_pages *p = &state->pages[i];

		if (!p->nr)
			continue;
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
 * slot, which is how the cases plant folios the helper must not count.
 */
struct mglru_size_case {
	const char *name;
	int swappiness;
	struct mglru_state state;
	unsigned long expected;
};

static const struct mglru_size_case mglru_size_cases[] = {
	{
		.name = "empty_lruvec_is_zero",
		.swappiness = 60,
		.state = { .min_seq = { 3, 3 }, .max_seq = 5 },
		.expected = 0,
	},
	{
		.name = "swappiness_0_counts_file_only",
		.swappiness = 0,
		.state = { .min_seq = { 3, 3 }, .max_seq = 5, .pages = {
			{ 3, LRU_GEN_FILE, 0, 10 }, { 5, LRU_GEN_FILE, 0, 20 },
			{ 4, LRU_GEN_ANON, 0, 100 },
		} },
		.expected = 30,
	},
	{
		.name = "swappiness_1_counts_anon_and_file",
		.swappiness = 1,
		.state = { .min_seq = { 3, 3 }, .max_seq = 5, .pages = {
			{ 3, LRU_GEN_FILE, 0, 10 }, { 5, LRU_GEN_FILE, 0, 20 },
			{ 4, LRU_GEN_ANON, 0, 100 },
		} },
		.expected = 130,
	},
	{
		.name = "swappiness_200_counts_anon_and_file",
		.swappiness = MAX_SWAPPINESS,
		.state = { .min_seq = { 3, 3 }, .max_seq = 5, .pages = {
			{ 3, LRU_GEN_FILE, 0, 10 }, { 5, LRU_GEN_FILE, 0, 20 },
			{ 4, LRU_GEN_ANON, 0, 100 },
		} },
		.expected = 130,
	},
#ifdef SWAPPINESS_ANON_ONLY
	{
		.name = "swappiness_anon_only_counts_anon_only",
		.swappiness = SWAPPINESS_ANON_ONLY,
		.state = { .min_seq = { 3, 3 }, .max_seq = 5, .pages = {
			{ 3, LRU_GEN_FILE, 0, 10 }, { 5, LRU_GEN_FILE, 0, 20 },
			{ 4, LRU_GEN_ANON, 0, 100 },
		} },
		.expected = 100,
	},
#endif
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
 * A lruvec of MGLRU_BUDGET_PAGES evictable folios: file only, spread over
 * three generations and two zones, with anon folios that swappiness 0 must
 * leave out. The odd low bits make every shift by the priority visible.
 *
 * get_nr_to_scan() must not age. A helper that does by mistake moves the
 * LRU sizes by what max_seq - 1 holds less what max_seq + 1 holds
 * (inc_max_seq()), a change of the memcg's statistics, which the suite's
 * memcg cannot take (see mglru_memcg). So max_seq + 1's slot, a seq below
 * min_seq that no helper counts, holds the same as max_seq - 1: the
 * mistake leaves the sizes alone and the case fails on the seqs it checks.
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
	env.sc.priority = DEF_PRIORITY;

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

#ifdef SWAPPINESS_ANON_ONLY
static void mglru_test_budget_anon_only_without_swap(struct kunit *test)
{
	struct mglru_env env;

	if (get_nr_swap_pages() > 0)
		kunit_skip(test, "the test kernel has swap: anon is reclaimable here");

	mglru_env_init(test, &env, &mglru_budget_state);
	env.sc.priority = 0;
	env.sc.proactive = 1;

	KUNIT_EXPECT_EQ(test, get_nr_to_scan(env.lruvec, &env.sc, env.memcg,
					     SWAPPINESS_ANON_ONLY), 0L);
	mglru_expect_seqs_unchanged(test, env.lruvec, &mglru_budget_state);
}

/*
 * Only proactive reclaim asks for anon only: get_nr_to_scan() warns once
 * when SWAPPINESS_ANON_ONLY reaches it from anywhere else. KUnit suppresses
 * the warning and counts it, so the kernel is not tainted and no splat is
 * printed (panic_on_warn CI stays up). On UML a suppressed WARN_ON_ONCE()
 * still spends its once: the case checks the first warning of the boot.
 */
static void mglru_test_budget_anon_only_warns_outside_proactive(struct kunit *test)
{
#ifdef kunit_warning_suppress
	struct mglru_env env;

	mglru_env_init(test, &env, &mglru_budget_state);
	env.sc.priority = 0;
	env.sc.proactive = 0;

	kunit_warning_suppress(test) {
		get_nr_to_scan(env.lruvec, &env.sc, env.memcg, SWAPPINESS_ANON_ONLY);
		KUNIT_EXPECT_SUPPRESSED_WARNING_COUNT(test, 1);
	}
	mglru_expect_seqs_unchanged(test, env.lruvec, &mglru_budget_state);
#else
	kunit_skip(test, "no kunit_warning_suppress(): the warning would taint the kernel");
#endif
}
#endif

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
		.name = "one_gen_left_ages",
		.swappiness = 0, .priority = DEF_PRIORITY,
		.min_seq = { 7, 7 }, .max_seq = 7, .expected = true,
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
		.name = "swappiness_60_two_gens_of_oldest_type_ages",
		.swappiness = 60, .priority = DEF_PRIORITY,
		.min_seq = { 7, 6 }, .max_seq = 7, .expected = true,
	},
#ifdef SWAPPINESS_ANON_ONLY
	{
		.name = "anon_only_looks_at_anon_min_seq_only",
		.swappiness = SWAPPINESS_ANON_ONLY, .priority = 0,
		.min_seq = { 5, 4 }, .max_seq = 7, .expected = true,
	},
#endif
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

static struct kunit_case mglru_test_cases[] = {
	KUNIT_CASE_PARAM(mglru_test_evictable_size, mglru_size_gen_params),
	KUNIT_CASE_PARAM(mglru_test_budget_priority, mglru_priority_gen_params),
	KUNIT_CASE(mglru_test_budget_offline_memcg),
	KUNIT_CASE(mglru_test_budget_swappiness),
#ifdef SWAPPINESS_ANON_ONLY
	KUNIT_CASE(mglru_test_budget_anon_only_without_swap),
	KUNIT_CASE(mglru_test_budget_anon_only_warns_outside_proactive),
#endif
	KUNIT_CASE_PARAM(mglru_test_budget_protection, mglru_protection_gen_params),
	KUNIT_CASE(mglru_test_budget_target_is_unprotected),
	KUNIT_CASE_PARAM(mglru_test_should_run_aging, mglru_aging_gen_params),
	{}
};

static struct kunit_suite mglru_test_suite = {
	.name = "mglru",
	.test_cases = mglru_test_cases,
};

kunit_test_suite(mglru_test_suite);

/* suites on real folios, on an lruvec of their own */
#include "mglru_evict_kunit.c"
#include "mglru_place_kunit.c"
