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
 * The folios are the test's own, with no mapping, charged to a memcg of
 * the case's own and added to its lruvec as any folio is: page cache
 * folios, and anon ones (swap-backed). Reclaim finds the dirty ones with
 * nothing to write them and puts them back. The memcg is a cgroup made for
 * the case where the machine has the memory controller enabled below the
 * root, with MGLRU on for its lruvecs only. A kunit.py boot has no such
 * cgroup: there the folios go to the root memcg's LRU, which is empty,
 * with MGLRU on (CONFIG_LRU_GEN_ENABLED=y, as the suite's kunitconfig sets
 * it). Neither is the case's: where either is not so and it cannot make a
 * memcg, the case skips rather than switch MGLRU or touch the machine's
 * folios.
 *
 * What each case checks is an effect of one fix that a caller or a later
 * reclaim pass can observe; Documentation of the suite (doc/kunit.rst)
 * maps each to its case and to the mutants that break it.
 *
 * Included by mglru_kunit.c, inside mm/vmscan.c's CONFIG_LRU_GEN section.
 */

#define MGLRU_NR_FOLIOS		8

struct mglru_folios {
	struct folio *folio[MGLRU_NR_FOLIOS];
	struct lruvec *lruvec;
};

static void mglru_folios_put(void *arg)
{
	struct mglru_folios *f = arg;
	int i;

	for (i = 0; i < MGLRU_NR_FOLIOS; i++) {
		if (!f->folio[i])
			continue;
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

/* cgroup_mkdir(), cgroup_rmdir() and cgrp_dfl_root */
#include "../../kernel/cgroup/cgroup-internal.h"

/*
 * The case's own memcg: a child of the root cgroup on the default
 * hierarchy, made and removed by cgroup_mkdir() and cgroup_rmdir() as a
 * mkdir and an rmdir in cgroupfs make them, each with the active reference
 * that kernfs holds around the call. Its lruvecs have MGLRU on, whatever
 * the machine's state (lru_gen/enabled), and get the machine's state back
 * when the case ends.
 */
struct mglru_cgroup {
	struct cgroup *cgrp;
	struct cgroup_subsys_state *css;
};

/*
 * Switch MGLRU on or off for @memcg's lruvecs only, as lru_gen_change_state()
 * switches every lruvec: under cgroup_lock(), which it holds too, moving
 * any folio between the classic lists and the generations.
 */
static void mglru_lruvecs_switch(struct mem_cgroup *memcg, bool enabled)
{
	int nid;

	for_each_node(nid) {
		struct lruvec *lruvec = mem_cgroup_lruvec(memcg, NODE_DATA(nid));

		rcu_read_lock();
		spin_lock_irq(&lruvec->lru_lock);
		lruvec->lrugen.enabled = enabled;
		while (!(enabled ? fill_evictable(lruvec) : drain_evictable(lruvec))) {
			spin_unlock_irq(&lruvec->lru_lock);
			rcu_read_unlock();
			cond_resched();
			rcu_read_lock();
			spin_lock_irq(&lruvec->lru_lock);
		}
		spin_unlock_irq(&lruvec->lru_lock);
		rcu_read_unlock();
	}
}

static void mglru_cgroup_rmdir(void *arg)
{
	struct kunit *test = kunit_get_current_test();
	struct mglru_cgroup *cg = arg;
	struct kernfs_node *kn = cg->cgrp->kn;
	int ret;

	if (cg->css) {
		cgroup_lock();
		mglru_lruvecs_switch(mem_cgroup_from_css(cg->css), lru_gen_enabled());
		cgroup_unlock();
		css_put(cg->css);
	}
	/* the cgroup reference pins kn */
	kernfs_unbreak_active_protection(kn);
	ret = cgroup_rmdir(kn);
	kernfs_break_active_protection(kn);
	if (test)
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "cgroup_rmdir() of the case's memcg");
	cgroup_put(cg->cgrp);
}

/*
 * A memcg of the case's own, or NULL where the memory controller is not
 * enabled below the root (cgroup.subtree_control), as on a kunit.py boot.
 */
static struct mem_cgroup *mglru_cgroup_mkdir(struct kunit *test)
{
	struct kernfs_node *parent = cgrp_dfl_root.cgrp.kn;
	struct mglru_cgroup *cg;
	struct mem_cgroup *memcg;
	char name[32];
	int ret;

	cg = kunit_kzalloc(test, sizeof(*cg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cg);
	snprintf(name, sizeof(name), "mglru_kunit.%d", task_pid_nr(current));

	kernfs_unbreak_active_protection(parent);
	ret = cgroup_mkdir(parent, name, 0755);
	kernfs_break_active_protection(parent);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "cgroup_mkdir(%s)", name);

	snprintf(name, sizeof(name), "/mglru_kunit.%d", task_pid_nr(current));
	cg->cgrp = cgroup_get_from_path(name);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cg->cgrp);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, mglru_cgroup_rmdir, cg));

	cg->css = cgroup_get_e_css(cg->cgrp, &memory_cgrp_subsys);
	memcg = mem_cgroup_from_css(cg->css);
	if (memcg == root_mem_cgroup) {
		/* the root's: not the case's to change */
		css_put(cg->css);
		cg->css = NULL;
		return NULL;
	}
	cgroup_lock();
	mglru_lruvecs_switch(memcg, true);
	cgroup_unlock();
	return memcg;
}

/*
 * The memcg that the case's folios are charged to, whose lruvecs hold
 * them: the case's own where the machine has the memory controller
 * enabled below the root, as any machine with systemd does. Else the root
 * memcg, whose LRU is the machine's: there MGLRU must be on and the LRU
 * hold no evictable folio, as on a kunit.py boot, or the case skips rather
 * than switch MGLRU or age and evict the machine's page cache.
 */
static struct mem_cgroup *mglru_own_lru(struct kunit *test)
{
	struct mem_cgroup *memcg = mglru_cgroup_mkdir(test);
	unsigned long others = 0;
	int nid;

	if (memcg)
		return memcg;
	if (!lru_gen_enabled())
		kunit_skip(test, "no memcg of its own, and MGLRU off (lru_gen/enabled)");
	for_each_online_node(nid)
		others += lruvec_evictable_size(mem_cgroup_lruvec(root_mem_cgroup,
								  NODE_DATA(nid)), 1);
	if (others)
		kunit_skip(test, "no memcg of its own, and %lu other folios on the root LRU",
			   others);
	return NULL;
}

/*
 * MGLRU_NR_FOLIOS folios of the test's own, charged to @memcg (NULL: the
 * root) as page cache is (an uncharged folio on a memcg lruvec makes
 * folio_lruvec_lock() retry forever): swap-backed if @anon, dirty if
 * @dirty.
 */
static struct mglru_folios *mglru_folios_alloc(struct kunit *test, struct mem_cgroup *memcg,
					       bool anon, bool dirty)
{
	struct mem_cgroup *old;
	struct mglru_folios *f;
	int i, ret;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action(test, mglru_folios_put, f));

	for (i = 0; i < MGLRU_NR_FOLIOS; i++) {
		f->folio[i] = folio_alloc(GFP_KERNEL, 0);
		KUNIT_ASSERT_NOT_NULL(test, f->folio[i]);
		old = set_active_memcg(memcg);
		ret = mem_cgroup_charge(f->folio[i], NULL, GFP_KERNEL);
		set_active_memcg(old);
		KUNIT_ASSERT_EQ(test, ret, 0);
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

/*
 * All of @f in the oldest generation of @type, one that reclaim can evict.
 * The case put them there: anything else fails it, it does not skip.
 */
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
	mglru_drop_empty_gens(f->lruvec);
	mglru_age_file(f->lruvec, MIN_NR_GENS + 1, 0);
	mglru_folios_in_oldest(test, f, LRU_GEN_FILE);
}

/*
 * MGLRU on, and MGLRU_NR_FOLIOS file folios (dirty if @dirty) on the LRU,
 * all in the oldest file generation of their lruvec, which must have one
 * to evict.
 */
static struct mglru_folios *mglru_folios_init(struct kunit *test, bool dirty)
{
	struct mem_cgroup *memcg = mglru_own_lru(test);
	struct mglru_folios *f;

	f = mglru_folios_alloc(test, memcg, false, dirty);
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
	set_task_reclaim_state(current, NULL);
	return need_rotate;
}

/*
 * Dirty file folios with nothing to write them: shrink_folio_list() marks
 * each for immediate reclaim (PG_reclaim) and rejects it. The batch reports
 * them in sc->nr, and they go back to the second youngest generation, out
 * of the way of the next pass until their writeback ends.
 */
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
	mglru_folios_in_gen(test, f, READ_ONCE(f->lruvec->lrugen.max_seq) - 1,
			    "rejected dirty folios");
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
	struct mglru_folios *f = mglru_folios_init(test, false);
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
	mglru_folios_in_gen(test, f, READ_ONCE(f->lruvec->lrugen.max_seq) - 1,
			    "rejected folios under writeback");

	mglru_folios_make_oldest(test, f);
	mglru_shrink_file(test, f, &second);

	KUNIT_EXPECT_GE_MSG(test, second.nr.congested, MGLRU_NR_FOLIOS,
			    "sc->nr.congested: the marked folios still under writeback were not reported");
	KUNIT_EXPECT_EQ_MSG(test, second.nr.congested, second.nr.dirty,
			    "every dirty folio met was congested: shrink_node() must see it");
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

#ifdef for_each_evictable_type
#define MGLRU_AGING_ARG	int swappiness
#else
#define MGLRU_AGING_ARG	bool swappiness
#endif

static bool mglru_aging_loses(struct lruvec *lruvec, unsigned long seq,
			      MGLRU_AGING_ARG, bool force_scan)
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
 * The file type has one generation to evict besides the MIN_NR_GENS
 * youngest, so below DEF_PRIORITY should_run_aging() asks for aging while
 * eviction is still possible. Whatever the aging attempt gives, the pass
 * must evict the oldest generation's folios; it asks for the next memcg
 * (returns true) only when it made a new generation itself.
 */
static void mglru_shrink_after_aging(struct kunit *test,
				     struct mglru_lost_aging *lost)
{
	struct scan_control sc = { .priority = 0 };
	struct mem_cgroup *memcg = mglru_own_lru(test);
	struct mglru_folios *f, *young;
	unsigned long max_seq;
	bool need_rotate;
	int i;

	f = mglru_folios_alloc(test, memcg, false, false);

	/*
	 * The lruvec holds nothing: let min_seq pass its empty generations,
	 * then age to MIN_NR_GENS + 1, so that the test's folios land in the
	 * oldest, the only one that can be evicted.
	 */
	mglru_drop_empty_gens(f->lruvec);
	mglru_age_file(f->lruvec, MIN_NR_GENS + 1, 0);
	mglru_folios_add(f);
	mglru_folios_in_oldest(test, f, LRU_GEN_FILE);
	KUNIT_ASSERT_EQ(test, get_nr_gens(f->lruvec, LRU_GEN_FILE), MIN_NR_GENS + 1);

	/*
	 * Active folios land young: the budget outlasts the oldest
	 * generation's batch, so only the pass's own decision ends it there.
	 */
	young = mglru_folios_alloc(test, memcg, false, false);
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		folio_set_active(young->folio[i]);
	mglru_folios_add(young);

	max_seq = READ_ONCE(f->lruvec->lrugen.max_seq);
	KUNIT_ASSERT_TRUE_MSG(test, should_run_aging(f->lruvec, max_seq, &sc,
						     get_swappiness(f->lruvec, &sc)),
			      "%d file generations: should_run_aging() wants none",
			      get_nr_gens(f->lruvec, LRU_GEN_FILE));

	if (lost) {
		test->priv = lost;
		kunit_activate_static_stub(test, try_to_inc_max_seq, mglru_aging_loses);
	}
	need_rotate = mglru_shrink_file(test, f, &sc);
	if (lost)
		kunit_deactivate_static_stub(test, try_to_inc_max_seq);

	KUNIT_EXPECT_GE_MSG(test, sc.nr.taken, MGLRU_NR_FOLIOS,
			    "the pass stopped after aging: it isolated %u folios",
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
 * A file folio read over and over through a file descriptor, as MGLRU's
 * folio_mark_accessed() leaves it: PG_referenced, its refs saturated and
 * PG_workingset set, which sort_folio() protects (moves to the next
 * generation) instead of isolating. Set as lru_gen_inc_refs() sets them,
 * since with MGLRU off for the machine folio_mark_accessed() activates.
 */
static void mglru_folio_read_often(struct folio *folio)
{
	set_mask_bits(&folio->flags.f, LRU_REFS_FLAGS | BIT(PG_workingset),
		      LRU_REFS_FLAGS | BIT(PG_workingset));
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
 * The oldest generation of @type holds the case's @n folios and no other.
 * mglru_own_lru() found the LRU empty when the case began: on the root
 * memcg's, more folios are the machine's, added since (skip); on the case's
 * own memcg, or fewer, they are a failure of the case's own.
 */
static void mglru_oldest_only_own(struct kunit *test, struct lruvec *lruvec,
				  int type, size_t n)
{
	size_t count = mglru_oldest_count(lruvec, type);

	if (count > n && lruvec_memcg(lruvec) == root_mem_cgroup)
		kunit_skip(test, "%zu folios not the case's joined the root memcg's LRU",
			   count - n);
	KUNIT_ASSERT_EQ_MSG(test, count, n,
			    "the case's folios are not in the oldest %s generation",
			    type == LRU_GEN_ANON ? "anon" : "file");
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
	rcu_read_lock();
	spin_lock_irq(&lruvec->lru_lock);
	r->scanned = isolate_folios(MAX_LRU_BATCH, lruvec, &sc, swappiness, &list,
				    &r->isolated, &r->type, &r->type_scanned);
	spin_unlock_irq(&lruvec->lru_lock);
	rcu_read_unlock();

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
 * Test anon folios in the oldest anon generation, test file folios (read
 * often if @protected) in the oldest file generation, nothing else in
 * either: as reclaim at @swappiness would meet them.
 */
static void mglru_isolate_both(struct kunit *test, int swappiness, bool protected,
			       struct mglru_isolated *r)
{
	struct mem_cgroup *memcg = mglru_own_lru(test);
	struct mglru_folios *anon, *file;
	struct lruvec *lruvec;
	int i;

	anon = mglru_folios_alloc(test, memcg, true, false);
	file = mglru_folios_alloc(test, memcg, false, false);
	lruvec = anon->lruvec;
	KUNIT_ASSERT_PTR_EQ(test, lruvec, file->lruvec);

	/* a new anon folio lands one below the youngest: age it to the oldest */
	mglru_folios_add(anon);
	for (i = 0; i < MIN_NR_GENS; i++)
		mglru_age_once(lruvec, 1);
	mglru_age_file(lruvec, MIN_NR_GENS + 1, 1);
	mglru_folios_add(file);
	for (i = 0; protected && i < MGLRU_NR_FOLIOS; i++)
		mglru_folio_read_often(file->folio[i]);

	mglru_folios_in_oldest(test, anon, LRU_GEN_ANON);
	mglru_folios_in_oldest(test, file, LRU_GEN_FILE);
	mglru_oldest_only_own(test, lruvec, LRU_GEN_ANON, MGLRU_NR_FOLIOS);
	mglru_oldest_only_own(test, lruvec, LRU_GEN_FILE, MGLRU_NR_FOLIOS);
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
 * nothing to scan: isolate_folios() must turn to file, take the test's
 * file folios and report file as the type it isolated.
 */
static void mglru_test_isolate_falls_back_when_nothing_scanned(struct kunit *test)
{
	struct mglru_folios *f = mglru_folios_init(test, false);
	struct mglru_isolated r;

	/* let anon's min_seq pass its empty generations */
	rcu_read_lock();
	spin_lock_irq(&f->lruvec->lru_lock);
	try_to_inc_min_seq(f->lruvec, MAX_SWAPPINESS);
	spin_unlock_irq(&f->lruvec->lru_lock);
	rcu_read_unlock();
	/* anon that reclaim could scan: none of the case's */
	if (get_nr_gens(f->lruvec, LRU_GEN_ANON) > MIN_NR_GENS)
		mglru_oldest_only_own(test, f->lruvec, LRU_GEN_ANON, 0);
	mglru_oldest_only_own(test, f->lruvec, LRU_GEN_FILE, MGLRU_NR_FOLIOS);

	mglru_isolate(f->lruvec, MAX_SWAPPINESS, &r);

	KUNIT_EXPECT_EQ_MSG(test, r.file, MGLRU_NR_FOLIOS,
			    "isolate_folios() scanned no anon and did not turn to file");
	KUNIT_EXPECT_EQ(test, r.anon, 0);
	KUNIT_EXPECT_EQ_MSG(test, r.type, LRU_GEN_FILE,
			    "isolate_folios() reported the type it did not isolate");
}
#endif

static struct kunit_case mglru_evict_test_cases[] = {
	KUNIT_CASE(mglru_test_evict_counts_dirty),
	KUNIT_CASE(mglru_test_evict_counts_writeback),
	KUNIT_CASE(mglru_test_evict_counts_clean),
#ifdef for_each_evictable_type
	KUNIT_CASE(mglru_test_isolate_keeps_scanned_type),
	KUNIT_CASE(mglru_test_isolate_takes_the_chosen_type),
	KUNIT_CASE(mglru_test_isolate_falls_back_when_nothing_scanned),
#endif
	KUNIT_CASE(mglru_test_shrink_evicts_after_aging),
	KUNIT_CASE(mglru_test_shrink_evicts_after_losing_aging),
	KUNIT_CASE(mglru_test_shrink_evicts_when_aging_fails),
	{}
};

static struct kunit_suite mglru_evict_test_suite = {
	.name = "mglru_evict",
	.test_cases = mglru_evict_test_cases,
};

kunit_test_suite(mglru_evict_test_suite);
