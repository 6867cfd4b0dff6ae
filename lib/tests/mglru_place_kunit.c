// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for where the multi-gen LRU places a folio added in a page
 * fault: folio_add_lru() marks it accessed (PG_referenced), so that a
 * prefaulted file folio lands in the second oldest generation, and makes
 * only a refaulted workingset folio active, which lands in the youngest
 * ("mm/mglru: use folio_mark_accessed to replace folio_set_active").
 * Before it every faulted folio was made active, so readahead folios that
 * were never used landed young and pushed the working set out.
 *
 * Anon and shmem folios are faulted in for real, by a user access to a
 * mapping of the case's own mm. The file folios are the case's own, with
 * no mapping, added to the LRU with all MAX_NR_GENS file generations
 * alive, so that each placement is a distinct generation. As in
 * mglru_evict_kunit.c, whose helpers this file uses, the folios are on
 * the root memcg's lruvec, which the cases need to themselves.
 *
 * Included by mglru_kunit.c, inside mm/vmscan.c's CONFIG_LRU_GEN section.
 */

#include <linux/mman.h>
#include <linux/pagewalk.h>

KUNIT_DEFINE_ACTION_WRAPPER(mglru_folio_put, folio_put, struct folio *);

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
 * A page of a new mapping in the case's own mm (@flags: MAP_PRIVATE or
 * MAP_SHARED, anonymous), faulted in by a user write, and its folio, which
 * the case holds once the mapping is gone. Expects it on the LRU, in the
 * generation @age below max_seq.
 */
static struct folio *mglru_fault_in(struct kunit *test, unsigned long flags, int age)
{
	struct vm_area_struct *vma;
	struct folio_walk fw;
	struct folio *folio;
	unsigned long addr;
	struct lruvec *lruvec;
	char byte = 1;

	mglru_root_lru(test);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, mglru_fault_release, NULL));
	addr = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			     flags | MAP_ANONYMOUS, 0);
	KUNIT_ASSERT_FALSE_MSG(test, !addr || IS_ERR_VALUE(addr), "kunit_vm_mmap(): %ld",
			       (long)addr);

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
	/* gone before the test thread's mm is, which happens after the case */
	KUNIT_ASSERT_EQ(test, vm_munmap(addr, PAGE_SIZE), 0);

	KUNIT_ASSERT_TRUE(test, folio_test_lru(folio));
	lruvec = folio_lruvec(folio);
	KUNIT_EXPECT_EQ_MSG(test, folio_lru_gen(folio),
			    lru_gen_from_seq(READ_ONCE(lruvec->lrugen.max_seq) - age),
			    "the faulted folio is not %d below the youngest generation", age);
	return folio;
}

/*
 * A new anon folio, not in the swap cache, lands in the second youngest
 * generation whatever its flags: the fault's mark is its first reference.
 */
static void mglru_test_fault_marks_anon_accessed(struct kunit *test)
{
	struct folio *folio = mglru_fault_in(test, MAP_PRIVATE, 1);

	KUNIT_EXPECT_TRUE_MSG(test, folio_test_referenced(folio),
			      "the fault did not mark the anon folio accessed");
	KUNIT_EXPECT_FALSE(test, folio_test_workingset(folio));
}

/* A shmem folio, swap-backed as anon: the same. */
static void mglru_test_fault_marks_shmem_accessed(struct kunit *test)
{
	struct folio *folio;

	if (!IS_ENABLED(CONFIG_SHMEM))
		kunit_skip(test, "no shmem (CONFIG_SHMEM): a shared mapping is ramfs");
	folio = mglru_fault_in(test, MAP_SHARED, 1);

	KUNIT_EXPECT_FALSE(test, folio_test_anon(folio));
	KUNIT_EXPECT_TRUE_MSG(test, folio_test_referenced(folio),
			      "the fault did not mark the shmem folio accessed");
	KUNIT_EXPECT_FALSE(test, folio_test_workingset(folio));
}

/* how the case adds its file folios to the LRU */
enum mglru_add_ctx {
	MGLRU_ADD_FAULT,	/* in a page fault on a VMA with recency */
	MGLRU_ADD_PLAIN,	/* outside a fault (read(), readahead) */
	MGLRU_ADD_FAULT_MEMALLOC, /* in a fault, from memory reclaim */
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
	current->in_lru_fault = ctx != MGLRU_ADD_PLAIN;
	mglru_folios_add(f);
	current->in_lru_fault = in_fault;
	if (ctx == MGLRU_ADD_FAULT_MEMALLOC)
		memalloc_noreclaim_restore(noreclaim);

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

static struct kunit_case mglru_place_test_cases[] = {
	KUNIT_CASE(mglru_test_fault_marks_anon_accessed),
	KUNIT_CASE(mglru_test_fault_marks_shmem_accessed),
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
