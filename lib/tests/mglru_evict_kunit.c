// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for what multi-gen LRU eviction does with real folios:
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
 * - whether the shrink loop evicts after it asked for aging:
 *   try_to_shrink_lruvec() goes on to evict_folios() in the pass in which
 *   should_run_aging() wanted a new generation, whatever the aging attempt
 *   gave, and memcg reclaim goes on to its budget ("mm/mglru: don't abort
 *   scan immediately right after aging").
 *
 * The folios are the case's own, with no mapping, charged to the root
 * memcg and added to its lruvec as any folio is. Reclaim finds the dirty
 * ones with nothing to write them, and cannot free the clean ones, which
 * have no mapping to be removed from: it puts both back. While a test
 * kernel boots, the root memcg's LRU holds nothing else and no other
 * reclaim runs; anywhere else it is the machine's, and the cases skip
 * rather than age or evict the machine's folios.
 *
 * Included by mglru_kunit.c, inside mm/vmscan.c's CONFIG_LRU_GEN section.
 */

#include <linux/blkdev.h>

#define MGLRU_NR_FOLIOS		8

struct mglru_folios {
	struct folio *folio[MGLRU_NR_FOLIOS];
	struct lruvec *lruvec;
	struct mglru_folios *younger;	/* see mglru_folios_init() */
};

static void mglru_folios_put(void *arg)
{
	struct mglru_folios *f = arg;
	int i;

	for (i = 0; i < MGLRU_NR_FOLIOS; i++) {
		if (!f->folio[i])
			continue;
		/* off the LRU, PG_active is the case's to clear */
		if (!folio_test_lru(f->folio[i]))
			folio_clear_active(f->folio[i]);
		folio_clear_dirty(f->folio[i]);
		folio_clear_reclaim(f->folio[i]);
		if (folio_test_writeback(f->folio[i]))
			folio_end_writeback(f->folio[i]);
		folio_put(f->folio[i]);
	}
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
 * The cases need MGLRU on and the root memcg's LRU to themselves, as while
 * a test kernel boots: no user space yet, nothing on the LRU, and no
 * memory pressure for kswapd to act on.
 */
static void mglru_root_lru(struct kunit *test)
{
	unsigned long others = 0;
	int nid;

	if (!lru_gen_enabled())
		kunit_skip(test, "MGLRU is off (lru_gen/enabled)");
	if (system_state == SYSTEM_RUNNING)
		kunit_skip(test, "not at boot: the root memcg's LRU is the machine's");
	for_each_online_node(nid)
		others += lruvec_evictable_size(mem_cgroup_lruvec(root_mem_cgroup,
								  NODE_DATA(nid)), 1);
	if (others)
		kunit_skip(test, "the root memcg's LRU holds %lu folios of the machine", others);
}

/*
 * MGLRU_NR_FOLIOS folios of the case's own, charged to the root memcg as
 * page cache is: swap-backed if @anon, the first @nr_dirty dirty.
 */
static struct mglru_folios *mglru_folios_alloc(struct kunit *test, bool anon, int nr_dirty)
{
	int i, ret, nid = numa_node_id();
	struct mem_cgroup *old;
	struct mglru_folios *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action(test, mglru_folios_put, f));

	for (i = 0; i < MGLRU_NR_FOLIOS; i++) {
		/* one node, one lruvec */
		f->folio[i] = __folio_alloc_node(GFP_KERNEL | __GFP_THISNODE, 0, nid);
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
 * Bring @f, back on the LRU after a pass, to the oldest file generation
 * again with one to spare, as the next pass of reclaim would find it.
 */
static void mglru_folios_make_oldest(struct kunit *test, struct mglru_folios *f)
{
	mglru_drop_empty_gens(f->lruvec, 0);
	mglru_age_file(f->lruvec, MIN_NR_GENS + 1, 0);
	mglru_folios_in_oldest(test, f, LRU_GEN_FILE);
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
 * One pass of reclaim over the lruvec, anon left alone (no may_swap), with
 * a budget of all of it (priority 0), as shrink_many() makes it.
 */
static bool mglru_shrink_file(struct kunit *test, struct mglru_folios *f,
			      struct scan_control *sc)
{
	struct reclaim_state rs = {};
	bool need_rotate;

	sc->gfp_mask = GFP_KERNEL;
	sc->priority = 0;
	sc->may_unmap = 1;
	sc->reclaim_idx = MAX_NR_ZONES - 1;

	set_task_reclaim_state(current, &rs);
	need_rotate = try_to_shrink_lruvec(f->lruvec, sc);
	clear_mm_walk();
	set_task_reclaim_state(current, NULL);
	return need_rotate;
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

static void mglru_test_evict_counts_clean(struct kunit *test)
{
	struct scan_control sc = {};
	struct mglru_folios *f = mglru_folios_init(test, 0);
	int i;

	mglru_shrink_file(test, f, &sc);

	/* with no mapping to leave, the clean folios come back and count as taken */
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		KUNIT_EXPECT_FALSE(test, folio_test_reclaim(f->folio[i]));
	KUNIT_EXPECT_GE(test, sc.nr.taken, MGLRU_NR_FOLIOS);
	KUNIT_EXPECT_EQ(test, sc.nr.dirty, 0);
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

	blk_start_plug(&plug);
	if (!blk_check_plugged(mglru_plug_flushed, &flushes, sizeof(struct blk_plug_cb))) {
		blk_finish_plug(&plug);
		return -1;
	}
	mglru_shrink_file(test, f, sc);
	seen = flushes;
	blk_finish_plug(&plug);
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

/* Some folios were clean: reclaim can make progress without the flushers. */
static void mglru_test_evict_leaves_flushers_when_some_clean(struct kunit *test)
{
	struct scan_control sc = {};
	struct mglru_folios *f = mglru_folios_init(test, MGLRU_NR_FOLIOS / 2);

	KUNIT_EXPECT_EQ_MSG(test, mglru_shrink_flushes(test, f, &sc), 0,
			    "the flushers were woken though half the folios were clean");
	KUNIT_EXPECT_GE(test, sc.nr.taken, MGLRU_NR_FOLIOS);
}

/*
 * An aging attempt of try_to_shrink_lruvec() that loses the race with
 * another reclaimer, through the static stub of try_to_inc_max_seq().
 * @other_ages: the other reclaimer made the new generation first (this
 * attempt then finds max_seq moved); else it holds the mm walk and nothing
 * ages yet. Either way the attempt returns false.
 */
struct mglru_lost_aging {
	bool other_ages;
	int attempts;
};

static bool mglru_aging_loses(struct lruvec *lruvec, unsigned long seq,
			      int swappiness, bool force_scan)
{
	struct kunit *test = kunit_get_current_test();
	struct mglru_lost_aging *lost = test->priv;

	if (lost->attempts++ == 0 && lost->other_ages) {
		/* the other reclaimer's step, from the same max_seq */
		kunit_deactivate_static_stub(test, try_to_inc_max_seq);
		KUNIT_EXPECT_TRUE(test, try_to_inc_max_seq(lruvec, seq, swappiness, force_scan));
		kunit_activate_static_stub(test, try_to_inc_max_seq, mglru_aging_loses);
	}
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
		test->priv = lost;
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

/*
 * Memcg reclaim gets its fairness from the memcg iterator, not from
 * rotation: after aging it goes on evicting to its budget, here the
 * oldest generation and then the one above it. The target is a memcg of
 * the case's own (mglru_env_alloc()), which this path only compares with
 * the root.
 */
static void mglru_test_shrink_memcg_evicts_to_budget_after_aging(struct kunit *test)
{
	struct scan_control sc = { .priority = 0 };
	struct mglru_folios *f = mglru_aging_due(test, &sc);
	struct mglru_env target;

	mglru_env_alloc(test, &target);
	sc.target_mem_cgroup = target.memcg;

	mglru_shrink_file(test, f, &sc);

	KUNIT_EXPECT_EQ_MSG(test, sc.nr.taken, 2 * MGLRU_NR_FOLIOS,
			    "memcg reclaim stopped short of its budget after aging: it isolated %u folios",
			    (unsigned int)sc.nr.taken);
}

/* Read through a file descriptor until MGLRU counts it in the working set. */
static void mglru_folio_read_often(struct kunit *test, struct folio *folio)
{
	int i;

	for (i = 0; i <= BIT(LRU_REFS_WIDTH) && !folio_test_workingset(folio); i++)
		folio_mark_accessed(folio);
	KUNIT_ASSERT_TRUE(test, folio_test_workingset(folio));
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

	KUNIT_EXPECT_EQ_MSG(test, r.file, MGLRU_NR_FOLIOS,
			    "isolate_folios() scanned no anon and did not turn to file");
	KUNIT_EXPECT_EQ(test, r.anon, 0);
	KUNIT_EXPECT_EQ_MSG(test, r.type, LRU_GEN_FILE,
			    "isolate_folios() reported the type it did not isolate");
}

static struct kunit_case mglru_evict_test_cases[] = {
	KUNIT_CASE(mglru_test_evict_counts_dirty),
	KUNIT_CASE(mglru_test_evict_counts_writeback),
	KUNIT_CASE(mglru_test_evict_counts_clean),
	KUNIT_CASE(mglru_test_evict_puts_rejected_clean_second_youngest),
	KUNIT_CASE(mglru_test_evict_wakes_flushers_when_all_dirty),
	KUNIT_CASE(mglru_test_evict_leaves_flushers_when_some_clean),
	KUNIT_CASE(mglru_test_isolate_keeps_scanned_type),
	KUNIT_CASE(mglru_test_isolate_takes_the_chosen_type),
	KUNIT_CASE(mglru_test_isolate_falls_back_when_nothing_scanned),
	KUNIT_CASE(mglru_test_shrink_evicts_after_aging),
	KUNIT_CASE(mglru_test_shrink_evicts_after_losing_aging),
	KUNIT_CASE(mglru_test_shrink_evicts_when_aging_fails),
	KUNIT_CASE(mglru_test_shrink_memcg_evicts_to_budget_after_aging),
	{}
};

static struct kunit_suite mglru_evict_test_suite = {
	.name = "mglru_evict",
	.test_cases = mglru_evict_test_cases,
};

kunit_test_suite(mglru_evict_test_suite);
