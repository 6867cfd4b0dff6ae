#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generate the mutants that score the KUnit suite: every universalmutator
mutant of the code the MGLRU fixes changed, in two strata.

usage: mutation_gen.py TREE OLD_TREE OUT_JSON

TREE is the KUnit tree (the kernel with the hook applied, the code as the
suite tests it); OLD_TREE a kernel from before the fixes (6.12). The regions
are the functions below (for folio_add_lru(), only its fault block). A
mutant is in the census stratum when its line is one the fixes' diffs
touch: a line of the region that the same region of OLD_TREE lacks (a
function OLD_TREE lacks is new in every line). Every other mutant is in the
rest, which gets a seeded random order: the sample is its head.
"""

import difflib
import contextlib
import hashlib
import json
import os
import random
import re
import io
import sys

from universalmutator import mutator

# (file, function, part): part 'body' or the first line of a block
REGIONS = [
    ('mm/vmscan.c', 'handle_reclaim_writeback', 'body'),
    ('mm/vmscan.c', 'lruvec_evictable_size', 'body'),
    ('mm/vmscan.c', 'get_type_to_scan', 'body'),
    ('mm/vmscan.c', 'isolate_folios', 'body'),
    ('mm/vmscan.c', 'evict_folios', 'body'),
    ('mm/vmscan.c', 'should_run_aging', 'body'),
    ('mm/vmscan.c', 'lru_gen_scan_budget', 'body'),
    ('mm/vmscan.c', 'lru_gen_memcg_scan_budget', 'body'),
    ('mm/vmscan.c', 'get_nr_to_scan', 'body'),
    ('mm/vmscan.c', 'try_to_shrink_lruvec', 'body'),
    ('include/linux/mm_inline.h', 'lru_gen_folio_seq', 'body'),
    (('mm/folio.c', 'mm/swap.c'), 'folio_add_lru', 'if (lru_gen_enabled()'),
    ('mm/memory.c', 'lru_gen_enter_fault', 'body'),
    ('mm/memory.c', 'lru_gen_exit_fault', 'body'),
]

SEED = 20261128
# what 'mutate FILE c' uses
RULES = ['universal.rules', 'c.rules', 'c_like.rules']


def strip_comments(lines):
    """The lines with comments blanked (the line count kept)."""
    out, in_comment = [], False
    for line in lines:
        text, i = '', 0
        while i < len(line):
            if in_comment:
                end = line.find('*/', i)
                if end < 0:
                    i = len(line)
                else:
                    in_comment, i = False, end + 2
            elif line.startswith('/*', i):
                in_comment, i = True, i + 2
            elif line.startswith('//', i):
                i = len(line)
            else:
                text += line[i]
                i += 1
        out.append(text)
    return out


def match_brace(code, start):
    """Index of the line that closes the first '{' at or after start."""
    depth, opened = 0, False
    for i in range(start, len(code)):
        for ch in re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'', '', code[i]):
            if ch == '{':
                depth, opened = depth + 1, True
            elif ch == '}':
                depth -= 1
                if opened and depth == 0:
                    return i
    raise ValueError('unbalanced braces')


def find_region(lines, func, part):
    """(first, last) 0-based line indexes of the region's code, or None."""
    code = strip_comments(lines)
    start = None
    for i, line in enumerate(code):
        if re.match(r'[A-Za-z_]', line) and re.search(r'\b%s\(' % func, line):
            j = i
            while '{' not in code[j] and ';' not in code[j]:
                j += 1
            if '{' in code[j]:
                start = i
                break
    if start is None:
        return None
    open_line = next(j for j in range(start, len(code)) if '{' in code[j])
    end = match_brace(code, open_line)
    if part == 'body':
        return open_line + 1, end - 1
    first = next(j for j in range(open_line, end) if part in code[j])
    # the block, or the one statement of an if without braces
    for j in range(first, end):
        if '{' in code[j]:
            return first, match_brace(code, j)
        if code[j].rstrip().endswith(';'):
            return first, j
    raise ValueError(f'no end to the block of {func}()')


def read(path):
    with open(path) as f:
        return f.readlines()


def locate(tree, file):
    for f in (file if isinstance(file, tuple) else (file,)):
        if os.path.exists(os.path.join(tree, f)):
            return f
    return None


def norm(line):
    """A line as the diff compares it: its indentation counts (a fix that
    re-indents a line touches it), its trailing blanks do not."""
    return line.rstrip()


def regions(tree, old_tree):
    """[(file, func, [(lineno, touched)])] for every region of TREE."""
    out = []
    for file, func, part in REGIONS:
        rel = locate(tree, file)
        span = rel and find_region(read(os.path.join(tree, rel)), func, part)
        if not span:
            sys.exit(f'mutation_gen.py: {func}() not found in {tree}')
        lines = read(os.path.join(tree, rel))
        code = strip_comments(lines)
        new = [(i + 1, norm(code[i])) for i in range(span[0], span[1] + 1)
               if code[i].strip() not in ('', '{', '}')]
        old = []
        old_rel = locate(old_tree, file)
        old_span = old_rel and find_region(read(os.path.join(old_tree, old_rel)), func, part)
        if old_span:
            old_code = strip_comments(read(os.path.join(old_tree, old_rel)))
            old = [norm(old_code[i]) for i in range(old_span[0], old_span[1] + 1)]
        sm = difflib.SequenceMatcher(None, old, [t for _, t in new], autojunk=False)
        kept = set()
        for a, b, size in sm.get_matching_blocks():
            kept.update(range(b, b + size))
        out.append((rel, func, [(n, k not in kept) for k, (n, _) in enumerate(new)]))
    return out


def mutate(tree, rel, linenos):
    """{lineno: [new text, ...]}: universalmutator's C mutants of the lines
    linenos of rel, as its command 'mutate FILE c --noCheck --lines' makes
    them. A mutant that adds a statement after a line is kept on that line
    (the same tokens), so that no line moves: __LINE__ and the object code
    of the rest of the file stay as they are."""
    src = read(os.path.join(tree, rel))
    with contextlib.redirect_stdout(io.StringIO()):
        muts = mutator.mutants_regexp(src, ruleFiles=RULES, ignorePatterns=[],
                                      ignoreStringOnly=True)
    out = {}
    for n, new, *_ in muts:
        if n not in linenos or new == src[n - 1]:
            continue
        new = new.rstrip('\n').replace('\n', ' ')
        if new not in out.setdefault(n, []):
            out[n].append(new)
    return out


def main():
    if len(sys.argv) != 4:
        sys.exit('usage: mutation_gen.py TREE OLD_TREE OUT_JSON')
    tree, old_tree, out_json = sys.argv[1:]
    regs = regions(tree, old_tree)
    by_file = {}
    for rel, func, lines in regs:
        for n, touched in lines:
            by_file.setdefault(rel, {})[n] = (func, touched)
    mutants = []
    for rel, where in by_file.items():
        src = read(os.path.join(tree, rel))
        for n, news in sorted(mutate(tree, rel, where).items()):
            func, touched = where[n]
            for new in news:
                key = hashlib.sha1(f'{rel}:{n}:{new}'.encode()).hexdigest()[:12]
                mutants.append({'id': key, 'file': rel, 'line': n, 'func': func,
                                'stratum': 'census' if touched else 'rest',
                                'old': src[n - 1].rstrip('\n'), 'new': new})
    rest = sorted(m['id'] for m in mutants if m['stratum'] == 'rest')
    random.Random(SEED).shuffle(rest)
    order = {k: i for i, k in enumerate(rest)}
    for m in mutants:
        m['order'] = order.get(m['id'])
    census_lines = [{'file': rel, 'func': func, 'line': n}
                    for rel, func, lines in regs for n, t in lines if t]
    with open(out_json, 'w') as f:
        json.dump({'seed': SEED, 'regions': [{'file': r, 'func': fn, 'lines': len(ls),
                                              'touched': sum(t for _, t in ls)}
                                             for r, fn, ls in regs],
                   'census_lines': census_lines, 'mutants': mutants}, f, indent=1)
    for r in regs:
        print(f'{r[1]}: {len(r[2])} code lines, {sum(t for _, t in r[2])} touched')
    n_census = sum(m['stratum'] == 'census' for m in mutants)
    print(f'{len(mutants)} mutants: {n_census} census, {len(mutants) - n_census} rest')


if __name__ == '__main__':
    main()
