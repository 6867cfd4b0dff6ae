// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for where MGLRU places a new folio, the mechanism behind
 * readahead_refault of tools/testing/selftests/mm/mglru/:
 *
 * - a folio added to the LRU in a page fault: folio_add_lru() marks a
 *   prefaulted folio accessed (PG_referenced), which lru_gen_folio_seq()
 *   places in the second oldest generation, and makes only a refaulted
 *   workingset folio active, which lands in the youngest ("mm/mglru: Use
 *   folio_mark_accessed to replace folio_set_active in PF", Barry Song).
 *   Before it every faulted folio was made active, so readahead folios
 *   that were never used landed young and pushed the working set out.
 *
 * The folios are clean page cache folios of the test's own, with no
 * mapping, added to the lruvec of the case's memcg (mglru_own_lru()) with
 * all MAX_NR_GENS file generations alive, so that each placement is a
 * distinct generation. The fault is the task's in_lru_fault flag, as
 * lru_gen_enter_fault() sets it for a VMA with recency. Only faults are
 * affected, and only with MGLRU on: a folio added outside one, in one
 * taken from reclaim, or while the machine has MGLRU off, is not marked.
 * Uses mglru_evict_kunit.c's helpers.
 *
 * Included by mglru_kunit.c, inside mm/vmscan.c's CONFIG_LRU_GEN section.
 */

/* how the case adds its folios to the LRU */
enum mglru_add_ctx {
	MGLRU_ADD_FAULT,	/* in a page fault on a VMA with recency */
	MGLRU_ADD_PLAIN,	/* outside a fault (read(), readahead) */
	MGLRU_ADD_FAULT_MEMALLOC, /* in a fault, from memory reclaim */
};

/*
 * Add @f to the LRU in @ctx, and expect each folio in the generation @age
 * below max_seq (0: the youngest). A fault is the task's in_lru_fault flag,
 * set and cleared around the additions as lru_gen_enter_fault() and
 * lru_gen_exit_fault() do for the faulting task itself: here the case's
 * own kthread, which exits when the case ends.
 *
 * The placement is MGLRU's: where the machine has MGLRU off, a fault must
 * leave the folios as it found them, so they land where an addition
 * outside a fault puts them, and the case checks that instead.
 */
static void mglru_add_expect_age(struct kunit *test, struct mglru_folios *f,
				 enum mglru_add_ctx ctx, int age, const char *what)
{
	struct lru_gen_folio *lrugen = &f->lruvec->lrugen;
	unsigned int in_fault = current->in_lru_fault;
	bool referenced = folio_test_referenced(f->folio[0]);
	bool marks = ctx == MGLRU_ADD_FAULT && lru_gen_enabled();
	unsigned int noreclaim = 0;
	unsigned long max_seq;
	int i;

	KUNIT_ASSERT_EQ_MSG(test, mglru_age_file(f->lruvec, MAX_NR_GENS, 1), MAX_NR_GENS,
			    "the lruvec did not reach %d file generations", MAX_NR_GENS);
	if (ctx == MGLRU_ADD_FAULT && !marks) {
		age = MAX_NR_GENS - 1 -
		      (folio_test_workingset(f->folio[0]) || referenced);
		what = "MGLRU off: added in a fault as outside one";
	}
	max_seq = READ_ONCE(lrugen->max_seq);
	if (ctx == MGLRU_ADD_FAULT_MEMALLOC)
		noreclaim = memalloc_noreclaim_save();
	current->in_lru_fault = ctx != MGLRU_ADD_PLAIN;
	mglru_folios_add(f);
	current->in_lru_fault = in_fault;
	if (ctx == MGLRU_ADD_FAULT_MEMALLOC)
		memalloc_noreclaim_restore(noreclaim);

	if (READ_ONCE(lrugen->max_seq) != max_seq)
		kunit_skip(test, "the machine aged the lruvec while the folios were added");
	mglru_folios_in_gen(test, f, max_seq - age, what);
	if (marks)
		return;
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		KUNIT_EXPECT_EQ_MSG(test, folio_test_referenced(f->folio[i]), referenced,
				    "folio %d: %s: marked accessed", i, what);
}

/* Readahead brought it in, the fault mapped it: second oldest. */
static void mglru_test_fault_places_prefaulted(struct kunit *test)
{
	struct mglru_folios *f;

	f = mglru_folios_alloc(test, mglru_own_lru(test), false, false);
	mglru_add_expect_age(test, f, MGLRU_ADD_FAULT, MAX_NR_GENS - 2, "prefaulted");
}

/* It was evicted while in use and faulted back: the youngest. */
static void mglru_test_fault_places_refaulted_workingset(struct kunit *test)
{
	struct mglru_folios *f;
	int i;

	f = mglru_folios_alloc(test, mglru_own_lru(test), false, false);
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		folio_set_workingset(f->folio[i]);
	mglru_add_expect_age(test, f, MGLRU_ADD_FAULT, 0, "refaulted workingset");
}

/*
 * Read once before the fault mapped it (PG_referenced): the fault leaves
 * its references alone and it lands second oldest, not promoted.
 */
static void mglru_test_fault_keeps_referenced_refs(struct kunit *test)
{
	struct mglru_folios *f;
	int i;

	f = mglru_folios_alloc(test, mglru_own_lru(test), false, false);
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
	struct mglru_folios *f;

	f = mglru_folios_alloc(test, mglru_own_lru(test), false, false);
	mglru_add_expect_age(test, f, MGLRU_ADD_PLAIN, MAX_NR_GENS - 1, "added outside a fault");
}

/* A fault taken from memory reclaim (PF_MEMALLOC) places as no fault. */
static void mglru_test_fault_in_reclaim_places_oldest(struct kunit *test)
{
	struct mglru_folios *f;

	f = mglru_folios_alloc(test, mglru_own_lru(test), false, false);
	mglru_add_expect_age(test, f, MGLRU_ADD_FAULT_MEMALLOC, MAX_NR_GENS - 1,
			     "faulted under PF_MEMALLOC");
}

static struct kunit_case mglru_place_test_cases[] = {
	KUNIT_CASE(mglru_test_fault_places_prefaulted),
	KUNIT_CASE(mglru_test_fault_places_refaulted_workingset),
	KUNIT_CASE(mglru_test_fault_keeps_referenced_refs),
	KUNIT_CASE(mglru_test_plain_add_places_oldest),
	KUNIT_CASE(mglru_test_fault_in_reclaim_places_oldest),
	{}
};

static struct kunit_suite mglru_place_test_suite = {
	.name = "mglru_place",
	.test_cases = mglru_place_test_cases,
};

kunit_test_suite(mglru_place_test_suite);
