#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The suite's KUnit file as an older kernel can build it.

usage: port_tests.py 7.2|6.12 SRC    the cut of SRC (lib/tests/mglru_kunit.c)
                                     on stdout

The suite is written against 7.3. A port's cut removes what the older tree
lacks (the messages of patches/port-<kernel>/tests/*.patch say what): each
replacement must match exactly once, so an edit of the suite that a cut no
longer fits stops here, not as a port patch that does not apply or a suite
that does not build. runner/export/port-tests.sh makes the port's patch.
"""

import sys


def die(msg):
    sys.exit("port_tests.py: " + msg)


def apply(s, edits):
    """EDITS on S: (OLD, NEW) replaces OLD, which must occur once;
    ('cut', START, END) removes from START up to END"""
    for e in edits:
        if e[0] == 'cut':
            if s.count(e[1]) != 1:
                die(f"{s.count(e[1])} cuts start, want 1: {e[1][:60]!r}")
            i = s.find(e[1])
            j = s.find(e[2], i)
            if j < 0:
                die(f"no end of the cut from {e[1][:60]!r} at {e[2][:60]!r}")
            s = s[:i] + s[j:]
            continue
        n = s.count(e[0])
        if n != 1:
            die(f"{n} matches, want 1: {e[0][:70]!r}")
        s = s.replace(e[0], e[1])
    return s


# 7.2: evict_folios() does not count rotated folios (PGROTATE_*, new in 7.3)
CUT_72 = [
(''' * flushed: reclaim's events (PGSTEAL_*, PGROTATE_*) as memory.stat shows''',''' * flushed: reclaim's events (PGSTEAL_*) as memory.stat shows'''),
('''	unsigned long rotated = mglru_stat(f->lruvec, PGROTATE_FILE);
''',''),
('''	/* and as rotated, each batch's isolated folios that were not freed */
	KUNIT_EXPECT_EQ(test, sc.nr_reclaimed, 0);
	KUNIT_EXPECT_EQ(test, mglru_stat(f->lruvec, PGROTATE_FILE) - rotated, sc.nr.taken);
''','''	KUNIT_EXPECT_EQ(test, sc.nr_reclaimed, 0);
'''),
(''' * reclaimer's pass) and none as rotated.''',''' * reclaimer's pass).'''),
('''	unsigned long addr, stolen, direct, rotated;''','''	unsigned long addr, stolen, direct;'''),
('''	direct = mglru_stat(lruvec, PGSTEAL_DIRECT);
	rotated = mglru_stat(lruvec, PGROTATE_FILE);
''','''	direct = mglru_stat(lruvec, PGSTEAL_DIRECT);
'''),
(''' * back. The pass counts as reclaimed, and evict_folios() as rotated, what
 * both rounds of shrink_folio_list() did with the batch, not the last
 * round alone.''',''' * back. The pass counts as reclaimed what both rounds of
 * shrink_folio_list() did with the batch, not the last round alone.'''),
('''	unsigned long addr, rotated;
	struct mglru_folios *f;''','''	unsigned long addr;
	struct mglru_folios *f;'''),
('''			(size_t)2 * MGLRU_NR_FOLIOS);
	rotated = mglru_stat(lruvec, PGROTATE_FILE);
''','''			(size_t)2 * MGLRU_NR_FOLIOS);
'''),
('''	KUNIT_EXPECT_EQ_MSG(test, mglru_stat(lruvec, PGROTATE_FILE) - rotated, MGLRU_NR_FOLIOS,
			    "PGROTATE_FILE: not the %d folios the batch could not free",
			    MGLRU_NR_FOLIOS);
''',''),
('''	KUNIT_EXPECT_EQ(test, mglru_stat(lruvec, PGROTATE_FILE) - rotated, 0);
''',''),
]

# 6.12: the helper suite without the anon-only rows, get_type_to_scan() and
# lru_gen_folio_seq() ...
CUT_612 = [
('''/*
 * mglru: the helpers that size, pace and steer reclaim:
 * lruvec_evictable_size(), lru_gen_scan_budget() and the proportional
 * protection it applies, should_run_aging(), get_type_to_scan() and
 * lru_gen_folio_seq(), on a lruvec of the case's own that belongs to no
 * node and no memcg, and get_nr_to_scan()'s anon-only check on the root
 * memcg's lruvec, which it only reads.
 */''','''/*
 * mglru: the helpers that size and pace reclaim, as 6.12 with the suite's
 * port can build them: lruvec_evictable_size(), lru_gen_scan_budget() and
 * the proportional protection it applies, and should_run_aging(), on a
 * lruvec of the case's own that belongs to no node and no memcg.
 */'''),
('''	{
		.name = "swappiness_anon_only_counts_anon_only",
		.swappiness = SWAPPINESS_ANON_ONLY, .state = MGLRU_MIXED_STATE,
		.expected = 100,
	},
''',''),
('cut', '/*\n * Whether a WARN_ON_ONCE() whose warning','/* should_run_aging() */'),
('''	{
		.name = "anon_only_looks_at_anon_min_seq_only",
		.swappiness = SWAPPINESS_ANON_ONLY, .priority = 0,
		.min_seq = { 5, 4 }, .max_seq = 7, .expected = true,
	},
''',''),
('cut', '/*\n * get_type_to_scan()','static struct kunit_case mglru_test_cases[] = {'),
('''	KUNIT_CASE(mglru_test_budget_anon_only_warns_outside_proactive),
''',''),
('''	KUNIT_CASE_PARAM(mglru_test_type_to_scan, mglru_type_gen_params),
	KUNIT_CASE_PARAM(mglru_test_folio_seq, mglru_folio_seq_gen_params),
''',''),
]

# ... and up to its registration, without the headers of the folio suites
CUT_612_END = [
('''#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/blkdev.h>
#include <linux/mman.h>
#include <linux/pagewalk.h>
''','''#include <kunit/test.h>
'''),
]

# then, of the folio suites, the one case of get_nr_to_scan() on the root
# memcg's lruvec: a suite of its own, with the helpers it needs
SHRINK_612_HEAD = '''
/*
 * mglru_shrink: get_nr_to_scan() on the root memcg's lruvec, as 6.12 with
 * the suite's port can build it: its evictable size shifted by the
 * priority, without aging it though aging is due. The folios are the
 * case's own, with no mapping, charged to the root memcg and added to its
 * lruvec as any folio is; the case needs the root memcg's LRU to itself,
 * as while a test kernel boots, and skips anywhere else.
 */

#define MGLRU_NR_FOLIOS		8
#define MGLRU_MAX_SETS		4
'''

SHRINK_612_BLOCKS = ['struct mglru_folios {','struct mglru_case {',
            'static unsigned long mglru_root_lru_pages(void)',
            'static unsigned long mglru_case_lru_pages(',
            'static void mglru_root_lru_check(',
            'static void mglru_root_lru(struct kunit *test)',
            'static void mglru_folios_put(void *arg)',
            'static void mglru_age_once(', 'static int mglru_age_file(',
            'static void mglru_drop_empty_gens(',
            'static struct mglru_folios *mglru_folios_alloc_order(',
            'static struct mglru_folios *mglru_folios_alloc(',
            'static void mglru_folios_add(', 'static int mglru_folios_in_gen(',
            'static void mglru_folios_in_oldest(',
            'static struct mglru_folios *mglru_folios_init(',
            'static struct mglru_folios *mglru_aging_due(',
            'static void mglru_test_budget_of_the_root_lruvec(']

SHRINK_612 = [
('''	struct folio *faulted;
	int fault_refs;		/* folio_lru_refs() of @faulted, still mapped */
	unsigned long map_addr;	/* see mglru_map_written() */
	int nr_mapped;
	struct mglru_lost_aging *lost;
''','''	struct folio *faulted;
'''),
('''	return pages + mglru_mapped_lru_pages(c);''','''	return pages;'''),
('''	lruvec_lock_irq(lruvec);
	try_to_inc_min_seq(lruvec, swappiness);
	lruvec_unlock_irq(lruvec);''','''	spin_lock_irq(&lruvec->lru_lock);
	try_to_inc_min_seq(lruvec, swappiness);
	spin_unlock_irq(&lruvec->lru_lock);'''),
('''	struct mglru_folios *f;
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
	return f;''','''	struct mglru_folios *f;

	mglru_root_lru(test);
	f = mglru_folios_alloc(test, false, nr_dirty);
	mglru_drop_empty_gens(f->lruvec, 0);
	mglru_age_file(f->lruvec, MIN_NR_GENS + 1, 0);
	mglru_folios_add(f);

	mglru_folios_in_oldest(test, f, LRU_GEN_FILE);
	return f;'''),
(''' * besides the MIN_NR_GENS youngest. Above them, in the second oldest,
 * MGLRU_NR_FOLIOS clean ones (@f->younger; active folios land second
 * youngest): reclaim cannot empty that generation in the batch that takes
 * @f, so the oldest generation stays below the one where reclaim puts
 * back what it rejects, and a budget of the whole lruvec outlasts that
 * batch.
 */''',''' * besides the MIN_NR_GENS youngest.
 */'''),
('''	KUNIT_ASSERT_GE(test, size, 2L * MGLRU_NR_FOLIOS);''','''	KUNIT_ASSERT_GE(test, size, (long)MGLRU_NR_FOLIOS);'''),
('''	struct mglru_folios *younger;	/* see mglru_folios_init() */
''',''),
]

SHRINK_612_SUITE = '''
static struct kunit_case mglru_shrink_test_cases[] = {
	KUNIT_CASE(mglru_test_budget_of_the_root_lruvec),
	{}
};

static struct kunit_suite mglru_shrink_test_suite = {
	.name = "mglru_shrink",
	.test_cases = mglru_shrink_test_cases,
};

kunit_test_suite(mglru_shrink_test_suite);
'''


def block(full, sig):
    """the definition SIG starts, with the comment above it"""
    if full.count(sig) != 1:
        die(f"{full.count(sig)} definitions start, want 1: {sig!r}")
    i=full.index(sig)
    # the comment right above
    j=full.rfind('\n\n',0,i)+2
    k=full.index('\n}\n',i)+3
    if sig.startswith('struct ') or sig.startswith('#define'):
        k=full.index('\n};\n',i)+4 if sig.startswith('struct ') else full.index('\n',i)+1
    return full[j:k]


def cut_612(src):
    s = apply(src, CUT_612)
    i = s.find('kunit_test_suite(mglru_test_suite);')
    if i < 0:
        die("no mglru_test_suite")
    s = apply(s[:i] + 'kunit_test_suite(mglru_test_suite);\n', CUT_612_END)
    t = '\n'.join([SHRINK_612_HEAD] + [block(src, sig) for sig in SHRINK_612_BLOCKS])
    t = apply(t, SHRINK_612)
    if 'younger = ' in t:
        die("the 6.12 case still sets up @younger")
    s += t + SHRINK_612_SUITE
    while '\n\n\n' in s:
        s = s.replace('\n\n\n', '\n\n')
    return s


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ('7.2', '6.12'):
        die("usage: port_tests.py 7.2|6.12 SRC")
    with open(sys.argv[2]) as f:
        src = f.read()
    sys.stdout.write(apply(src, CUT_72) if sys.argv[1] == '7.2' else cut_612(src))


if __name__ == '__main__':
    main()
