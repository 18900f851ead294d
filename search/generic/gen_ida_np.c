/* IDA* compiled for the built-in n-puzzle: gen_ida_tmpl.h's pass with the
 * domain's move and its incremental Manhattan distance or linear
 * conflicts inlined (domains/npuzzle/npuzzle_fast.h), once per heuristic,
 * so the heuristic's kind is a constant in each. The same nodes as the
 * function table's passes, in the same order, at the cost of the old
 * n-puzzle-only IDA* (search/npuzzle/idastar.c) or less: a child past the
 * bound is valued from its parent and never made.
 *
 * It lives in search/ and reads the domain through npuzzle_fast.h, not the
 * domain's private header: the search's state, limits and results are
 * search/'s, and hn_search links hn_domains, never the reverse. */
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

gen_ida_pass srch_gen_ida_np(gen_ida *s, const dom_heur *adm)
{
    if (s->def != &dom_npuzzle_def || !dom_heur_has_delta(adm))
        return NULL;
    const void *handle = dom_heur_handle(adm);
    const np_fast *f = handle ? dom_np_fast_of(handle) : NULL;
    /* a leaf borrowed from another board (size or goal) would not fit */
    uint8_t goal[DOM_MAX_STATE_BYTES];
    dom_goal(s->d, goal);
    if (!f || (size_t)f->cells + 1 != dom_state_bytes(s->d) || !npf_is_goal(f, goal))
        return NULL;
    s->fast = f;
    return f->lc ? pass_np_lc : pass_np_md;
}
