/* IDA* compiled for the built-in n-puzzle: gen_ida_tmpl.h's pass with the
 * domain's move and its incremental Manhattan distance, linear conflicts
 * or pattern databases inlined (domains/npuzzle/npuzzle_fast.h), once per
 * heuristic, so the heuristic's kind is a constant in each. The same nodes as the
 * function table's passes, in the same order, at the cost of the old
 * n-puzzle-only IDA* (search/npuzzle/idastar.c) or less: a child past the
 * bound is valued from its parent and never made.
 *
 * It lives in search/ and reads the domain through npuzzle_fast.h, not the
 * domain's private header: the search's state, limits and results are
 * search/'s, and hn_search links hn_domains, never the reverse. */
#include <stdlib.h>
#include <string.h>

#include "domains/builtin.h"
#include "domains/npuzzle/npuzzle_fast.h"
#include "search/generic/gen_ida_tmpl.h"

#define NP_FAST(s) ((const np_fast *)(s)->fast)

/* Undone by the inverse move: U D L R's are D U R L, m ^ 1. */
#define GEN_IDA_NAME pass_np_md
#define GEN_IDA_APPLY_FIRST 0
#define GEN_IDA_CHILD(s, dp, m, h) npf_delta_kind(NP_FAST(s), (s)->state, m, h, 0)
#define GEN_IDA_APPLY(s, m) npf_apply(NP_FAST(s), (s)->state, m)
#define GEN_IDA_UNDO(s, d, m) npf_apply(NP_FAST(s), (s)->state, (m) ^ 1)
#define GEN_IDA_SAVE(s, d, allowed) ((void)0)
#define GEN_IDA_IS_GOAL(s, dp) npf_is_goal(NP_FAST(s), (s)->state)
#define GEN_IDA_NMOVES(s) 4
#define GEN_IDA_COST(s, m) 1
#include "search/generic/gen_ida_tmpl.h"

#define GEN_IDA_NAME pass_np_lc
#define GEN_IDA_APPLY_FIRST 0
#define GEN_IDA_CHILD(s, dp, m, h) npf_delta_kind(NP_FAST(s), (s)->state, m, h, 1)
#define GEN_IDA_APPLY(s, m) npf_apply(NP_FAST(s), (s)->state, m)
#define GEN_IDA_UNDO(s, d, m) npf_apply(NP_FAST(s), (s)->state, (m) ^ 1)
#define GEN_IDA_SAVE(s, d, allowed) ((void)0)
#define GEN_IDA_IS_GOAL(s, dp) npf_is_goal(NP_FAST(s), (s)->state)
#define GEN_IDA_NMOVES(s) 4
#define GEN_IDA_COST(s, m) 1
#include "search/generic/gen_ida_tmpl.h"

/* Pattern databases: the run (s->fast_nodes) keeps each view's group
 * values, so a child costs one rank and read per view, the reads of a
 * node's children prefetched together; the root's values are set when a
 * pass starts. A child's first view alone past the bound is pruned
 * without the second. */
_Static_assert(SRCH_DOM_MAX_PATH <= NPF_MAX_DEPTH, "a depth per level of the path");
#define NP_RUN(s) ((npf_pdb_run *)(s)->fast_nodes)
#define GEN_IDA_NAME pass_np_pdb
#define GEN_IDA_APPLY_FIRST 0
#define GEN_IDA_CHILD(s, dp, m, h)                                                                 \
    npf_pdb_child(NP_RUN(s), (s)->state, dp, m, (s)->bound - (int64_t)((dp) + 1) * (s)->scale,     \
                  (s)->hscale)
#define GEN_IDA_APPLY(s, m) npf_pdb_apply(NP_RUN(s), (s)->state, m)
#define GEN_IDA_UNDO(s, d, m) npf_pdb_undo(NP_RUN(s), (s)->state, d, m)
#define GEN_IDA_SAVE(s, d, allowed) npf_pdb_children(NP_RUN(s), (s)->state, d, allowed)
#define GEN_IDA_IS_GOAL(s, dp) npf_pdb_is_goal(NP_RUN(s)->p, (s)->state)
#define GEN_IDA_NMOVES(s) 4
#define GEN_IDA_COST(s, m) 1
#include "search/generic/gen_ida_tmpl.h"

/* 1 when the table of `cells` cells and goal `goal` fits s's board (a
 * leaf borrowed from another board, size or goal, would not). */
static int fits(const gen_ida *s, int cells, const uint8_t *goal)
{
    uint8_t g[DOM_MAX_STATE_BYTES];
    dom_goal(s->d, g);
    return (size_t)cells + 1 == dom_state_bytes(s->d) && !memcmp(g, goal, (size_t)cells + 1);
}

static gen_ida_pass pdb_pass(gen_ida *s, const npf_pdb *p)
{
    if (!fits(s, p->cells, p->goal))
        return NULL;
    npf_pdb_run *r = malloc(sizeof *r);
    if (!r)
        return NULL; /* the function table's update then */
    r->p = p;
    s->fast_nodes = r;
    return pass_np_pdb;
}

gen_ida_pass srch_gen_ida_np(gen_ida *s, const dom_heur *adm)
{
    if (s->def != &dom_npuzzle_def || !dom_heur_has_delta(adm))
        return NULL;
    const void *handle = dom_heur_handle(adm);
    const npf_pdb *p = handle ? dom_np_pdb_fast_of(handle) : NULL;
    if (p)
        return pdb_pass(s, p);
    const np_fast *f = handle ? dom_np_fast_of(handle) : NULL;
    if (!f || !fits(s, f->cells, f->goal))
        return NULL;
    s->fast = f;
    return f->lc ? pass_np_lc : pass_np_md;
}
