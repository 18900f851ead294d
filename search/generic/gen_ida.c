/* IDA* over any domain: depth first with an f bound that rises to the
 * smallest pruned f, the state changed in place by dom_apply and restored
 * by the inverse move, the domain's pruning automaton cutting move orders
 * a kept order also reaches, nothing allocated per node.
 *
 * The depth-first pass is one template (gen_ida_tmpl.h) compiled here for
 * the function table, once valuing each child whole and once by the
 * domain's incremental update (heur_delta), in gen_ida_np.c for the
 * built-in n-puzzle with its move and update inlined, and in
 * gen_ida_cube.c for the cube on its pruning tables; a network has its
 * own pass (children valued in one call). Every pass but the cube's
 * visits the same nodes in the same order: only the cost of a node
 * differs (the cube's also looks up the inverse cube and the parity, so
 * it visits fewer). */
#include <stdlib.h>
#include <string.h>

#include "search/generic/gen_ida_tmpl.h"

/* The children of one state and their values (one network call). */
struct gen_ida_level {
    int n;
    uint8_t moves[DOM_MAX_MOVES];
    int hv[DOM_MAX_MOVES];
    uint8_t kids[]; /* nmoves states */
};

/* Before the moves from depth `depth`: keep the state when undo copies. */
static void save(gen_ida *s, int depth)
{
    if (s->saved)
        memcpy(s->saved + (size_t)depth * dom_state_bytes(s->d), s->state, dom_state_bytes(s->d));
}

/* Undo move m made at depth `depth`: by its inverse, or by the copy. */
static void undo(gen_ida *s, int depth, int m)
{
    if (s->saved)
        memcpy(s->state, s->saved + (size_t)depth * dom_state_bytes(s->d), dom_state_bytes(s->d));
    else
        s->def->apply(s->inst, s->state, s->inverse[m]);
}

/* A child through the table: made, then valued whole. */
static int table_child(gen_ida *s, int m)
{
    return s->def->apply(s->inst, s->state, m) ? srch_gen_heur_value1(s->h, s->state) : -1;
}

/* Every domain through its function table, every admissible heuristic:
 * each child made and valued (in the root's scale, hscale 1). */
#define GEN_IDA_NAME pass_table
#define GEN_IDA_APPLY_FIRST 1
#define GEN_IDA_CHILD(s, dp, m, h) table_child(s, m)
#define GEN_IDA_UNDO(s, d, m) undo(s, d, m)
#define GEN_IDA_SAVE(s, d, allowed) save(s, d)
#define GEN_IDA_IS_GOAL(s, dp) dom_is_goal((s)->d, (s)->state)
#define GEN_IDA_NMOVES(s) ((s)->nmoves)
#define GEN_IDA_COST(s, m) ((s)->cost[m])
#include "search/generic/gen_ida_tmpl.h"

/* A leaf the domain updates move by move (dom_heur_delta): each child
 * valued from its parent's value before it is made, so a child past the
 * bound is never made nor undone. */
#define GEN_IDA_NAME pass_delta
#define GEN_IDA_APPLY_FIRST 0
#define GEN_IDA_CHILD(s, dp, m, h) dom_heur_delta((s)->adm, (s)->state, m, h)
#define GEN_IDA_APPLY(s, m) (s)->def->apply((s)->inst, (s)->state, m)
#define GEN_IDA_UNDO(s, d, m) undo(s, d, m)
#define GEN_IDA_SAVE(s, d, allowed) save(s, d)
#define GEN_IDA_IS_GOAL(s, dp) dom_is_goal((s)->d, (s)->state)
#define GEN_IDA_NMOVES(s) ((s)->nmoves)
#define GEN_IDA_COST(s, m) ((s)->cost[m])
#include "search/generic/gen_ida_tmpl.h"

/* Depth `depth`'s children of the current state with their values: the
 * network builds each child's first layer from the state's, which the
 * previous call (the state's own siblings) left behind. NULL on error
 * (s->status set). */
static struct gen_ida_level *net_children(gen_ida *s, int depth, int q)
{
    static const int zeros[DOM_MAX_MOVES];
    struct gen_ida_level *lv = s->lv[depth];
    if (!lv) { /* once per depth and search */
        lv = s->lv[depth] = malloc(sizeof *lv + (size_t)s->nmoves * dom_state_bytes(s->d));
        if (!lv) {
            s->status = hn_fail(HN_ERR_NOMEM, "IDA*: out of memory");
            return NULL;
        }
    }
    lv->n = s->def->expand(s->inst, s->state, s->allowed[q], lv->kids, lv->moves);
    int st = srch_dom_heur_eval(s->h, lv->kids, (size_t)lv->n, s->state, zeros, lv->moves, lv->hv);
    if (st) {
        s->status = st;
        return NULL;
    }
    return lv;
}

/* dfs with a network: children evaluated together, then visited in move
 * order by apply and undone by the inverse move. */
static int pass_net(gen_ida *s, int depth, int64_t g, int q, int hcur)
{
    int e = gen_ida_enter(s, depth, (hcur == 0 || s->goal_any) && dom_is_goal(s->d, s->state));
    if (e)
        return e;
    struct gen_ida_level *lv = net_children(s, depth, q);
    if (!lv)
        return -1;
    s->generated += (uint64_t)lv->n;
    save(s, depth);
    const uint8_t *next = s->prune_next ? s->prune_next + (size_t)q * (size_t)s->nmoves : NULL;
    for (int i = 0; i < lv->n; i++) {
        int m = lv->moves[i];
        int64_t gc = g + s->cost[m], f = gc * s->scale + lv->hv[i];
        if (f > s->bound) {
            s->next_bound = f < s->next_bound ? f : s->next_bound;
            continue;
        }
        s->path[depth] = (uint8_t)m;
        s->def->apply(s->inst, s->state, m);
        int r = pass_net(s, depth + 1, gc, next ? next[m] : 0, lv->hv[i]);
        if (r)
            return r;
        undo(s, depth, m);
    }
    return 0;
}

/* The pass for this search, s->adm and s->hscale set for it, and the
 * start's value in the pass's units into *h0. */
static gen_ida_pass pick_pass(gen_ida *s, int *h0)
{
    s->hscale = 1;
    if (s->net) {
        *h0 = srch_gen_heur_value1(s->h, s->state);
        return pass_net;
    }
    const dom_heur *leaf = srch_gen_heur_leaf(s->h);
    int own_h0 = -1; /* the cube's pass values the start itself */
    gen_ida_pass pass = leaf ? srch_gen_ida_np(s, leaf) : NULL;
    if (!pass && leaf)
        pass = srch_gen_ida_cube(s, leaf, &own_h0);
    if (!pass && leaf && dom_heur_has_delta(leaf))
        pass = pass_delta;
    if (!pass) {
        *h0 = srch_gen_heur_value1(s->h, s->state);
        return pass_table;
    }
    /* the leaf's own values, times the root's scale in f */
    s->adm = leaf;
    s->hscale = s->scale;
    *h0 = own_h0 >= 0 ? own_h0 : dom_heur_eval(leaf, s->state);
    return pass;
}

static int ida_run(gen_ida *s, srch_dom_result *res)
{
    int h0;
    gen_ida_pass pass = pick_pass(s, &h0);
    if (s->status)
        return s->status;
    res->h0 = h0 * s->hscale;
    s->bound = (int64_t)h0 * s->hscale;
    for (;;) {
        if (s->bound >= s->below)
            return hn_fail(HN_ERR_UNSOLVABLE, "IDA*: no solution below the bound");
        s->next_bound = INT64_MAX;
        res->stored++; /* iterations */
        int r = pass(s, 0, 0, DOM_PRUNE_ROOT, h0);
        if (r > 0)
            return 0;
        if (r < 0)
            return s->status;
        if (s->next_bound == INT64_MAX)
            return hn_fail(HN_ERR_UNSOLVABLE, "IDA*: search space exhausted");
        s->bound = s->next_bound;
    }
}

/* The heuristic's value at the goal (0 for every admissible one). */
static int goal_value(const dom *d, srch_dom_heur *h)
{
    uint8_t g[DOM_MAX_STATE_BYTES];
    dom_goal(d, g);
    return srch_gen_heur_value1(h, g);
}

int srch_dom_idastar(const dom *d, const void *start, srch_dom_heur *h, const srch_limits *lim,
                     srch_dom_result *res)
{
    return srch_gen_ida_below(d, start, h, lim, INT64_MAX, res);
}

int srch_gen_ida_below(const dom *d, const void *start, srch_dom_heur *h, const srch_limits *lim,
                       int64_t below, srch_dom_result *res)
{
    if (srch_gen_begin(d, start, h, res))
        return res->status;
    double t0 = hn_now();
    uint64_t rows0 = srch_dom_heur_rows(h);
    gen_ida *s = calloc(1, sizeof *s);
    uint8_t *state = malloc(dom_state_bytes(d));
    /* a domain without inverses is undone by copies (SRCH_DOM_MAX_PATH
     * states: 1 MB at most, for the largest states) */
    uint8_t *saved = dom_reversible(d) ? NULL : malloc(SRCH_DOM_MAX_PATH * dom_state_bytes(d));
    if (!s || !state || (!dom_reversible(d) && !saved)) {
        free(s);
        free(state);
        free(saved);
        return res->status = hn_fail(HN_ERR_NOMEM, "IDA*: out of memory");
    }
    memcpy(state, start, dom_state_bytes(d));
    *s = (gen_ida){.d = d,
                   .def = dom_def_of(d),
                   .inst = dom_instance(d),
                   .h = h,
                   .state = state,
                   .nmoves = dom_nmoves(d),
                   .scale = srch_dom_heur_scale(h),
                   .below = below,
                   .max_expanded = lim ? lim->max_expanded : 0,
                   .deadline = srch_gen_deadline(lim, t0),
                   .saved = saved};
    const dom_facts *f = dom_facts_of(d);
    for (int m = 0; m < s->nmoves; m++) {
        s->cost[m] = dom_move_cost(d, m);
        s->inverse[m] = dom_inverse(d, m);
    }
    s->prune_next = f->prune_states ? f->prune_next : NULL;
    for (uint32_t q = 0; q < (f->prune_states ? f->prune_states : 1); q++)
        s->allowed[q] = dom_allowed(d, (int)q);
    s->net = !srch_dom_heur_admissible(h);
    /* a network's value is 0 at every goal already (srch_dom_heur_eval) */
    s->goal_any = dom_def_of(d)->is_goal != NULL || (!s->net && goal_value(d, h) != 0);
    int st = ida_run(s, res);
    res->expanded = s->expanded;
    res->generated = s->generated;
    if (!st) {
        memcpy(res->moves, s->path, (size_t)s->length);
        res->length = s->length;
        res->cost = 0;
        for (int i = 0; i < s->length; i++)
            res->cost += dom_move_cost(d, s->path[i]);
        st = srch_gen_check(d, start, "IDA*", res);
        res->proven = !st && srch_dom_heur_admissible(h);
    }
    res->rows = srch_dom_heur_rows(h) - rows0;
    res->seconds = hn_now() - t0;
    free(state);
    free(saved);
    free(s->fast_nodes);
    for (int i = 0; i < SRCH_DOM_MAX_PATH; i++)
        free(s->lv[i]);
    free(s);
    return res->status = st;
}
