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
 * mapping, added to the root memcg's lruvec with all MAX_NR_GENS file
 * generations alive, so that each placement is a distinct generation. The
 * fault is the task's in_lru_fault flag, as lru_gen_enter_fault() sets it
 * for a VMA with recency. Uses mglru_evict_kunit.c's helpers.
 *
 * Included by mglru_kunit.c, inside mm/vmscan.c's CONFIG_LRU_GEN section.
 */

/*
 * Add @f to the LRU as a page fault does, and expect each folio in the
 * generation @age below max_seq (0: the youngest).
 */
static void mglru_fault_expect_age(struct kunit *test, struct mglru_folios *f,
				   int age, const char *what)
{
	struct lru_gen_folio *lrugen = &f->lruvec->lrugen;
	unsigned long max_seq;
	unsigned int in_fault = current->in_lru_fault;
	int i, gen, wrong = 0, first = -1;

	if (mglru_age_file(f->lruvec, MAX_NR_GENS, 1) < MAX_NR_GENS)
		kunit_skip(test, "the lruvec has %d file generations, not %d",
			   get_nr_gens(f->lruvec, LRU_GEN_FILE), MAX_NR_GENS);
	max_seq = READ_ONCE(lrugen->max_seq);
	current->in_lru_fault = true;
	mglru_folios_add(f);
	current->in_lru_fault = in_fault;

	if (READ_ONCE(lrugen->max_seq) != max_seq)
		kunit_skip(test, "the lruvec aged while the folios were added");
	gen = lru_gen_from_seq(max_seq - age);
	for (i = 0; i < MGLRU_NR_FOLIOS; i++) {
		KUNIT_ASSERT_TRUE(test, folio_test_lru(f->folio[i]));
		if (folio_lru_gen(f->folio[i]) == gen)
			continue;
		wrong++;
		if (first < 0)
			first = i;
	}
	KUNIT_EXPECT_EQ_MSG(test, wrong, 0,
			    "%s folios: folio %d in generation %d, not %d (max_seq's is %d)",
			    what, first, first < 0 ? gen : folio_lru_gen(f->folio[first]),
			    gen, lru_gen_from_seq(max_seq));
}

/* Readahead brought it in, the fault mapped it: second oldest. */
static void mglru_test_fault_places_prefaulted(struct kunit *test)
{
	struct mglru_folios *f;

	mglru_lru_gen_on(test);
	f = mglru_folios_alloc(test, false, false);
	mglru_fault_expect_age(test, f, MAX_NR_GENS - 2, "prefaulted");
}

/* It was evicted while in use and faulted back: the youngest. */
static void mglru_test_fault_places_refaulted_workingset(struct kunit *test)
{
	struct mglru_folios *f;
	int i;

	mglru_lru_gen_on(test);
	f = mglru_folios_alloc(test, false, false);
	for (i = 0; i < MGLRU_NR_FOLIOS; i++)
		folio_set_workingset(f->folio[i]);
	mglru_fault_expect_age(test, f, 0, "refaulted workingset");
}

static struct kunit_case mglru_place_test_cases[] = {
	KUNIT_CASE(mglru_test_fault_places_prefaulted),
	KUNIT_CASE(mglru_test_fault_places_refaulted_workingset),
	{}
};

static struct kunit_suite mglru_place_test_suite = {
	.name = "mglru_place",
	.test_cases = mglru_place_test_cases,
};

kunit_test_suite(mglru_place_test_suite);
