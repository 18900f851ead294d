/* IDA* compiled for the built-in cube on its pruning tables: gen_ida_tmpl.h's
 * pass over nodes that a turn updates through the tables of
 * domains/cube3/cube3_fast.h. Stronger than the domain's heuristic through
 * the function table, as optimal solvers do it (Korf 1997, Kociemba,
 * Rokicki): the largest of the three axes' lookups for the cube and for its
 * inverse (the inverse's only when the cube's do not prune the child
 * already), raised to the distance's parity, so every f has the optimum's
 * parity and each iteration deepens by 2. The domain's pruning automaton
 * (no turn after its inverse, opposite faces in one order, no third equal
 * quarter turn) is the template's, as for every domain.
 *
 * Each lookup is two misses in memory, one after the other (the class
 * index, then the table): a node values all its children at once, in
 * stages, so the reads of all children overlap instead of queueing.
 *
 * Other passes visit the same nodes as each other; this one visits fewer,
 * and finds an optimal solution as they do. */
#include <stdlib.h>

#include "domains/builtin.h"
#include "domains/cube3/cube3_fast.h"
#include "search/generic/gen_ida_tmpl.h"

/* A depth's children and their bounds (the node itself is its parent's
 * child along the path, or the root). */
typedef struct cube_level {
    c3f_node kid[C3F_MOVES];
    int8_t bound[C3F_MOVES];
} cube_level;

typedef struct cube_nodes {
    c3f_node root;
    cube_level level[SRCH_DOM_MAX_PATH];
} cube_nodes;

#define C3F(s) ((const c3_fast *)(s)->fast)
#define NODES(s) ((cube_nodes *)(s)->fast_nodes)

static inline const c3f_node *node_at(gen_ida *s, int dp)
{
    cube_nodes *c = NODES(s);
    return dp ? &c->level[dp - 1].kid[s->path[dp - 1]] : &c->root;
}

/* The three lookups of n (the cube's, or its inverse's) in flight: the
 * class index read, then the table's. */
typedef struct lookups {
    uint32_t edge[C3F_AXES];
    uint16_t twist[C3F_AXES];
    uint64_t entry[C3F_AXES];
} lookups;

static inline void stage_edges(const c3_fast *f, lookups *x)
{
    for (int a = 0; a < C3F_AXES; a++)
        __builtin_prefetch(&f->edge_class[x->edge[a]]);
}

static inline void stage_entries(const c3_fast *f, lookups *x)
{
    for (int a = 0; a < C3F_AXES; a++) {
        x->entry[a] = c3f_entry(f, x->edge[a], x->twist[a]);
        __builtin_prefetch(&f->table[x->entry[a] >> 1]);
    }
}

static inline int stage_value(const c3_fast *f, const c3f_node *n, const lookups *x)
{
    int best = 0;
    for (int a = 0; a < C3F_AXES; a++) {
        int v = c3f_get(f, x->entry[a]);
        best = v > best ? v : best;
    }
    return c3f_with_parity(n, best);
}

/* The bounds of the allowed children of the node at depth dp: the cube's
 * lookups of all of them, then the inverse's of those the cube's leave
 * within the iteration's bound (unit costs: a child's g is dp + 1). */
static void cube_children(gen_ida *s, int dp, uint64_t allowed)
{
    const c3_fast *f = C3F(s);
    const c3f_node *n = node_at(s, dp);
    cube_level *lv = &NODES(s)->level[dp];
    lookups x[C3F_MOVES];
    int move[C3F_MOVES], open[C3F_MOVES], k = 0, nopen = 0;
    for (int m = 0; m < C3F_MOVES; m++)
        if (allowed >> m & 1) {
            c3f_node *c = &lv->kid[m];
            c3f_turn(f, n, m, c);
            for (int a = 0; a < C3F_AXES; a++) {
                x[k].edge[a] = c->flip[a] * f->nslice + c->slice[a];
                x[k].twist[a] = c->twist[a];
            }
            stage_edges(f, &x[k]);
            move[k++] = m;
        }
    for (int i = 0; i < k; i++)
        stage_entries(f, &x[i]);
    int64_t budget = s->bound - (dp + 1);
    for (int i = 0; i < k; i++) {
        int m = move[i];
        c3f_node *c = &lv->kid[m];
        lv->bound[m] = (int8_t)stage_value(f, c, &x[i]);
        if (lv->bound[m] > budget)
            continue;
        c3f_turn_inverse(f, n, m, c);
        for (int a = 0; a < C3F_AXES; a++)
            c3f_inverse_coord(f, c, a, &x[i].edge[a], &x[i].twist[a]);
        stage_edges(f, &x[i]);
        open[nopen++] = i;
    }
    for (int j = 0; j < nopen; j++)
        stage_entries(f, &x[open[j]]);
    for (int j = 0; j < nopen; j++) {
        int i = open[j], m = move[i];
        int hi = stage_value(f, &lv->kid[m], &x[i]);
        lv->bound[m] = (int8_t)(hi > lv->bound[m] ? hi : lv->bound[m]);
    }
}

#define GEN_IDA_NAME pass_cube
#define GEN_IDA_APPLY_FIRST 0
#define GEN_IDA_CHILD(s, dp, m, h) (NODES(s)->level[dp].bound[m])
#define GEN_IDA_APPLY(s, m) ((void)0)
#define GEN_IDA_UNDO(s, d, m) ((void)0)
#define GEN_IDA_SAVE(s, d, allowed) cube_children(s, d, allowed)
#define GEN_IDA_IS_GOAL(s, dp) c3f_is_goal(C3F(s), node_at(s, dp))
#define GEN_IDA_NMOVES(s) C3F_MOVES
#define GEN_IDA_COST(s, m) 1
#include "search/generic/gen_ida_tmpl.h"

gen_ida_pass srch_gen_ida_cube(gen_ida *s, const dom_heur *adm, int *h0)
{
    const void *handle = dom_heur_handle(adm);
    const c3_fast *f = s->def == &dom_cube3_def && handle ? dom_c3_fast_of(handle) : NULL;
    if (!f || s->scale != 1)
        return NULL;
    cube_nodes *c = malloc(sizeof *c);
    if (!c) {
        s->status = hn_fail(HN_ERR_NOMEM, "IDA*: out of memory");
        return NULL;
    }
    dom_c3_fast_node(handle, s->state, &c->root);
    int h = c3f_bound_cube(f, &c->root), hi = c3f_bound_inverse(f, &c->root);
    *h0 = c3f_with_parity(&c->root, hi > h ? hi : h);
    s->fast = f;
    s->fast_nodes = c;
    return pass_cube;
}
