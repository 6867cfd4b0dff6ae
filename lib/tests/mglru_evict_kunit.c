// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for what MGLRU eviction does with real folios, the mechanism
 * behind a scenario of tools/testing/selftests/mm/mglru/:
 *
 * - what reclaim learns from dirty folios (dirty_throttle): in the shrink
 *   loop, evict_folios() adds each batch's isolated, dirty and writeback
 *   counts to sc->nr, from which shrink_node() throttles reclaim that
 *   meets only folios waiting for writeback ("mm/vmscan: unify writeback reclaim statistic
 *   and throttling", patch 14 of Kairui Song's "mm/mglru: improve reclaim
 *   loop and dirty folio handling", v6). Without it a memcg writing to a
 *   slow device is OOM-killed instead of throttled.
 *
 * - which type reclaim isolates (swappiness_sweep): isolate_folios() turns
 *   to the other type only when scan_folios() scanned nothing of the type
 *   it chose, not when it scanned folios and kept them all ("mm/mglru:
 *   Avoid falling back to another type when scan_folios() leaves no
 *   remaining pages", Barry Song, on the same v6 thread). Otherwise a file
 *   type whose oldest folios are all protected hands reclaim to anon at
 *   swappiness 1.
 *
 * - whether the shrink loop evicts after it asked for aging (aging_oom):
 *   try_to_shrink_lruvec() goes on to evict_folios() in the pass in which
 *   should_run_aging() wanted a new generation, whatever the aging attempt
 *   gave ("mm/mglru: don't abort scan immediately right after aging", on
 *   the same series). Before it the pass stopped there, and a reclaimer
 *   whose attempt lost the race with another one reclaimed nothing, until
 *   the memcg OOM-killed a task with evictable file folios left.
 *
 * The folios are the test's own, with no mapping, added to the root memcg's
 * lruvec as any folio is: page cache folios, and anon ones (swap-backed).
 * Reclaim finds the dirty ones with nothing to write them and puts them
 * back. The cases need MGLRU on and turn it on for their duration if it is
 * off.
 *
 * Included by mglru_kunit.c, inside mm/vmscan.c's CONFIG_LRU_GEN section.
 */

#define MGLRU_NR_FOLIOS		8

struct mglru_folios {
	struct folio *folio[MGLRU_NR_FOLIOS];
	struct lruvec *lruvec;
};

static void mglru_lru_gen_off(void *unused)
{
	lru_gen_change_state(false);
}

static void mglru_folios_put(void *arg)
{
	struct mglru_folios *f = arg;
	int i;

	for (i = 0; i < MGLRU_NR_FOLIOS; i++) {
		if (!f->folio[i])
			continue;
		folio_clear_dirty(f->folio[i]);
		folio_clear_reclaim(f->folio[i]);
		folio_put(f->folio[i]);
	}
}

/* One aging step of @lruvec, as reclaim takes it. */
static void mglru_age_once(struct lruvec *lruvec, int swappiness)
{
	struct reclaim_state rs = {};

	set_task_reclaim_state(current, &rs);
	try_to_inc_max_seq(lruvec, READ_ONCE(lruvec->lrugen.max_seq), swappiness, true);
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
static void mglru_drop_empty_gens(struct lruvec *lruvec)
{
	rcu_read_lock();
	spin_lock_irq(&lruvec->lru_lock);
	try_to_inc_min_seq(lruvec, 0);
	spin_unlock_irq(&lruvec->lru_lock);
	rcu_read_unlock();
}

static void mglru_lru_gen_on(struct kunit *test)
{
	if (lru_gen_enabled())
		return;
	lru_gen_change_state(true);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, mglru_lru_gen_off, NULL));
}

/*
 * MGLRU_NR_FOLIOS folios of the test's own, charged as page cache is (an
 * uncharged folio on a memcg lruvec makes folio_lruvec_lock() retry
 * forever): swap-backed if @anon, dirty if @dirty.
 */
static struct mglru_folios *mglru_folios_alloc(struct kunit *test, bool anon,
					       bool dirty)
{
	struct mglru_folios *f;
	int i;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action(test, mglru_folios_put, f));

	for (i = 0; i < MGLRU_NR_FOLIOS; i++) {
		f->folio[i] = folio_alloc(GFP_KERNEL, 0);
		KUNIT_ASSERT_NOT_NULL(test, f->folio[i]);
		KUNIT_ASSERT_EQ(test, 0, mem_cgroup_charge(f->folio[i], NULL, GFP_KERNEL));
		if (anon)
			__folio_set_swapbacked(f->folio[i]);
		if (dirty)
			folio_set_dirty(f->folio[i]);
	}
	f->lruvec = folio_lruvec(f->folio[0]);
	return f;
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

/* Skip the case unless all of @f is in the oldest generation of @type. */
static void mglru_folios_in_oldest(struct kunit *test, struct mglru_folios *f,
				   int type)
{
	struct lru_gen_folio *lrugen = &f->lruvec->lrugen;
	int i, oldest;

	if (get_nr_gens(f->lruvec, type) == MIN_NR_GENS)
		kunit_skip(test, "the lruvec has no %s generation to evict",
			   type == LRU_GEN_FILE ? "file" : "anon");
	oldest = lru_gen_from_seq(READ_ONCE(lrugen->min_seq[type]));
	for (i = 0; i < MGLRU_NR_FOLIOS; i++) {
		if (!folio_test_lru(f->folio[i]) ||
		    folio_lru_gen(f->folio[i]) != oldest)
			kunit_skip(test, "%s folio %d is not in the oldest generation",
				   type == LRU_GEN_FILE ? "file" : "anon", i);
	}
}

/*
 * MGLRU on, and MGLRU_NR_FOLIOS file folios (dirty if @dirty) on the LRU,
 * all in the oldest file generation of their lruvec, which must have one
 * to evict. Anything else is a precondition not met: the case is skipped.
 */
static struct mglru_folios *mglru_folios_init(struct kunit *test, bool dirty)
{
	struct mglru_folios *f;

	mglru_lru_gen_on(test);
	f = mglru_folios_alloc(test, false, dirty);
	/* a generation to evict besides the MIN_NR_GENS youngest */
	mglru_age_file(f->lruvec, MIN_NR_GENS + 1, 0);
	mglru_folios_add(f);

	/*
	 * Before 7.2 a clean file folio lands one generation above the oldest
	 * of four: let the oldest go if nothing else is in it.
	 */
	mglru_drop_empty_gens(f->lruvec);

	mglru_folios_in_oldest(test, f, LRU_GEN_FILE);
	return f;
}

/*
 * One pass of root reclaim over the lruvec, anon left alone (no may_swap),
 * with a budget of all of it (priority 0), as shrink_many() makes it.
 */
static void mglru_shrink_file(struct kunit *test, struct mglru_folios *f,
			      struct scan_control *sc)
{
	struct reclaim_state rs = {};

	sc->gfp_mask = GFP_KERNEL;
	sc->priority = 0;
	sc->may_unmap = 1;
	sc->reclaim_idx = MAX_NR_ZONES - 1;

	set_task_reclaim_state(current, &rs);
	try_to_shrink_lruvec(f->lruvec, sc);
	set_task_reclaim_state(current, NULL);
}

static void mglru_test_evict_counts_dirty(struct kunit *test)
{
	struct scan_control sc = {};
	struct mglru_folios *f = mglru_folios_init(test, true);
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
}

/*
 * The file type has one generation to evict besides the MIN_NR_GENS
 * youngest, so below DEF_PRIORITY should_run_aging() asks for aging while
 * eviction is still possible. The pass must age, and evict the oldest
 * generation's folios.
 */
static void mglru_test_shrink_evicts_after_aging(struct kunit *test)
{
	struct scan_control sc = { .priority = 0 };
	struct mglru_folios *f;
	unsigned long max_seq;
	int i;

	mglru_lru_gen_on(test);
	f = mglru_folios_alloc(test, false, false);

	/*
	 * Evict the oldest generations until MIN_NR_GENS + 1 are left, or
	 * fewer, then age: the test's folios land in the oldest, the only one
	 * that can be evicted.
	 */
	for (i = 0; i < 4 * MAX_NR_GENS &&
	     get_nr_gens(f->lruvec, LRU_GEN_FILE) > MIN_NR_GENS + 1; i++) {
		struct scan_control pass = { .nr_to_reclaim = MAX_LRU_BATCH };

		mglru_drop_empty_gens(f->lruvec);
		if (get_nr_gens(f->lruvec, LRU_GEN_FILE) > MIN_NR_GENS + 1)
			mglru_shrink_file(test, f, &pass);
	}
	mglru_age_file(f->lruvec, MIN_NR_GENS + 1, 0);
	mglru_folios_add(f);
	mglru_folios_in_oldest(test, f, LRU_GEN_FILE);

	max_seq = READ_ONCE(f->lruvec->lrugen.max_seq);
	if (!should_run_aging(f->lruvec, max_seq, &sc, get_swappiness(f->lruvec, &sc)))
		kunit_skip(test, "%d file generations: should_run_aging() wants none",
			   get_nr_gens(f->lruvec, LRU_GEN_FILE));

	mglru_shrink_file(test, f, &sc);

	KUNIT_EXPECT_GT_MSG(test, READ_ONCE(f->lruvec->lrugen.max_seq), max_seq,
			    "the pass did not age the lruvec");
	KUNIT_EXPECT_GE_MSG(test, sc.nr.taken, MGLRU_NR_FOLIOS,
			    "the pass stopped after aging: it isolated %u folios",
			    (unsigned int)sc.nr.taken);
}

static void mglru_test_evict_counts_clean(struct kunit *test)
{
	struct scan_control sc = {};
	struct mglru_folios *f = mglru_folios_init(test, false);
	int i;

	mglru_shrink_file(test, f, &sc);

	/* held by the test, the clean folios come back and count as taken */
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		KUNIT_EXPECT_FALSE(test, folio_test_reclaim(f->folio[i]));
	KUNIT_EXPECT_GE(test, sc.nr.taken, MGLRU_NR_FOLIOS);
	KUNIT_EXPECT_EQ(test, sc.nr.dirty, 0);
}

/* isolate_folios() with this signature came with the series (7.2) */
#ifdef for_each_evictable_type
/*
 * A file folio read over and over through a file descriptor: its refs
 * saturated and PG_workingset set, which sort_folio() protects (moves to
 * the next generation) instead of isolating.
 */
static void mglru_folio_read_often(struct kunit *test, struct folio *folio)
{
	int i;

	for (i = 0; i < 64 && !folio_test_workingset(folio); i++)
		folio_mark_accessed(folio);
	if (!folio_test_workingset(folio))
		kunit_skip(test, "folio_mark_accessed() did not set PG_workingset");
}

/* The folios of the oldest generation of @type, all zones. */
static size_t mglru_oldest_count(struct lruvec *lruvec, int type)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	int zone, gen = lru_gen_from_seq(lrugen->min_seq[type]);
	size_t n = 0;

	for (zone = 0; zone < MAX_NR_ZONES; zone++)
		n += list_count_nodes(&lrugen->folios[gen][type][zone]);
	return n;
}

/*
 * At swappiness 1 get_type_to_scan() picks file. The oldest file
 * generation holds only protected folios, so scan_folios() scans them all
 * and isolates none; anon folios wait in the oldest anon generation.
 * isolate_folios() must stay on file: it scanned something.
 */
static void mglru_test_isolate_keeps_scanned_type(struct kunit *test)
{
	struct scan_control sc = {
		.gfp_mask = GFP_KERNEL,
		.may_unmap = 1,
		.may_swap = 1,
		.reclaim_idx = MAX_NR_ZONES - 1,
	};
	struct mglru_folios *anon, *file;
	struct folio *folio, *next;
	struct lruvec *lruvec;
	int i, scanned, isolated = 0, type = -1, type_scanned = 0;
	int nr_anon = 0;
	size_t others;
	LIST_HEAD(list);

	mglru_lru_gen_on(test);
	anon = mglru_folios_alloc(test, true, false);
	file = mglru_folios_alloc(test, false, false);
	lruvec = anon->lruvec;
	KUNIT_ASSERT_PTR_EQ(test, lruvec, file->lruvec);

	/* a new anon folio lands one below the youngest: age it to the oldest */
	mglru_folios_add(anon);
	for (i = 0; i < MIN_NR_GENS; i++)
		mglru_age_once(lruvec, 1);
	mglru_age_file(lruvec, MIN_NR_GENS + 1, 1);
	mglru_folios_add(file);
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		mglru_folio_read_often(test, file->folio[i]);

	mglru_folios_in_oldest(test, anon, LRU_GEN_ANON);
	mglru_folios_in_oldest(test, file, LRU_GEN_FILE);

	rcu_read_lock();
	spin_lock_irq(&lruvec->lru_lock);
	others = mglru_oldest_count(lruvec, LRU_GEN_FILE) - MGLRU_NR_FOLIOS;
	if (!others)
		scanned = isolate_folios(MAX_LRU_BATCH, lruvec, &sc, 1, &list,
					 &isolated, &type, &type_scanned);
	spin_unlock_irq(&lruvec->lru_lock);
	rcu_read_unlock();

	list_for_each_entry_safe(folio, next, &list, lru) {
		nr_anon += !folio_is_file_lru(folio);
		list_del(&folio->lru);
		folio_putback_lru(folio);
	}
	if (others)
		kunit_skip(test, "%zu other folios in the oldest file generation", others);

	KUNIT_ASSERT_GE_MSG(test, scanned, MGLRU_NR_FOLIOS,
			    "the protected file folios were not scanned");
	KUNIT_EXPECT_EQ_MSG(test, nr_anon, 0,
			    "isolate_folios() turned to anon after scanning file");
	KUNIT_EXPECT_EQ(test, isolated, 0);
}
#endif

static struct kunit_case mglru_evict_test_cases[] = {
	KUNIT_CASE(mglru_test_evict_counts_dirty),
	KUNIT_CASE(mglru_test_evict_counts_clean),
#ifdef for_each_evictable_type
	KUNIT_CASE(mglru_test_isolate_keeps_scanned_type),
#endif
	KUNIT_CASE(mglru_test_shrink_evicts_after_aging),
	{}
};

static struct kunit_suite mglru_evict_test_suite = {
	.name = "mglru_evict",
	.test_cases = mglru_evict_test_cases,
};

kunit_test_suite(mglru_evict_test_suite);
