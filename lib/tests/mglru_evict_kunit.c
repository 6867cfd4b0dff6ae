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
 * The folios are the test's own: page cache folios with no mapping, added
 * to the root memcg's lruvec as any file folio is. Reclaim finds them dirty
 * with nothing to write them and puts them back. The cases need MGLRU on
 * and turn it on for their duration if it is off.
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

/*
 * Age @lruvec until its file type has a generation to evict besides the
 * MIN_NR_GENS youngest, where a new clean file folio lands in the oldest.
 */
static void mglru_age_file(struct lruvec *lruvec)
{
	struct reclaim_state rs = {};
	int i;

	set_task_reclaim_state(current, &rs);
	for (i = 0; i < MIN_NR_GENS &&
	     get_nr_gens(lruvec, LRU_GEN_FILE) <= MIN_NR_GENS; i++)
		try_to_inc_max_seq(lruvec, READ_ONCE(lruvec->lrugen.max_seq), 0, true);
	set_task_reclaim_state(current, NULL);
}

/*
 * MGLRU on, and MGLRU_NR_FOLIOS file folios (dirty if @dirty) on the LRU,
 * all in the oldest file generation of their lruvec, which must have one
 * to evict. Anything else is a precondition not met: the case is skipped.
 */
static struct mglru_folios *mglru_folios_init(struct kunit *test, bool dirty)
{
	struct mglru_folios *f;
	struct lru_gen_folio *lrugen;
	int i, oldest;

	if (!lru_gen_enabled()) {
		lru_gen_change_state(true);
		KUNIT_ASSERT_EQ(test, 0,
				kunit_add_action_or_reset(test, mglru_lru_gen_off, NULL));
	}
	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action(test, mglru_folios_put, f));

	for (i = 0; i < MGLRU_NR_FOLIOS; i++) {
		f->folio[i] = folio_alloc(GFP_KERNEL, 0);
		KUNIT_ASSERT_NOT_NULL(test, f->folio[i]);
		/* charged, as page cache is, or no lruvec lock matches it */
		KUNIT_ASSERT_EQ(test, 0, mem_cgroup_charge(f->folio[i], NULL, GFP_KERNEL));
		if (dirty)
			folio_set_dirty(f->folio[i]);
	}
	f->lruvec = folio_lruvec(f->folio[0]);
	lrugen = &f->lruvec->lrugen;
	mglru_age_file(f->lruvec);

	/* this CPU's LRU batch, drained on this CPU */
	migrate_disable();
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		folio_add_lru(f->folio[i]);
	lru_add_drain();
	migrate_enable();

	/*
	 * Before 7.2 a clean file folio lands one generation above the oldest
	 * of four: let the oldest go if nothing else is in it.
	 */
	rcu_read_lock();
	spin_lock_irq(&f->lruvec->lru_lock);
	try_to_inc_min_seq(f->lruvec, 0);
	spin_unlock_irq(&f->lruvec->lru_lock);
	rcu_read_unlock();

	if (get_nr_gens(f->lruvec, LRU_GEN_FILE) == MIN_NR_GENS)
		kunit_skip(test, "the lruvec has no file generation to evict");
	oldest = lru_gen_from_seq(READ_ONCE(lrugen->min_seq[LRU_GEN_FILE]));
	for (i = 0; i < MGLRU_NR_FOLIOS; i++) {
		if (!folio_test_lru(f->folio[i]) ||
		    folio_lru_gen(f->folio[i]) != oldest)
			kunit_skip(test, "folio %d is not in the oldest file generation", i);
	}
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

static struct kunit_case mglru_evict_test_cases[] = {
	KUNIT_CASE(mglru_test_evict_counts_dirty),
	KUNIT_CASE(mglru_test_evict_counts_clean),
	{}
};

static struct kunit_suite mglru_evict_test_suite = {
	.name = "mglru_evict",
	.test_cases = mglru_evict_test_cases,
};

kunit_test_suite(mglru_evict_test_suite);
