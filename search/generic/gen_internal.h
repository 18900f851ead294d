/* Private to search/generic: the heuristic tree, the network leaf, the
 * node store (pool, hash index, heap) the best-first searches share, and
 * the result bookkeeping every search ends with. */
#ifndef GEN_INTERNAL_H
#define GEN_INTERNAL_H

#include "search/generic/srch_dom.h"

/* ---- the network leaf (gen_net.c) ---- */

typedef struct gen_net gen_net;

/* engine: SRCH_DOM_ENGINE_FLOAT or _Q8 (resolved); o: max_batch, acc32,
 * cache_bits; inmap: the model's input for each of the domain's inputs
 * (dom_encode_as), or NULL when the model reads the domain's own. */
gen_net *srch_gen_net_new(const dom *d, const struct nn_model *m, int engine,
                          const srch_dom_net_opts *o, const int32_t *inmap, int *status);
void srch_gen_net_free(gen_net *n);
/* Another leaf sharing n's weights, with rows of its own. */
gen_net *srch_gen_net_clone(const gen_net *n, int *status);
/* Estimates of n states (arguments as srch_dom_heur_eval) into est[n]. */
int srch_gen_net_estimate(gen_net *net, const uint8_t *states, size_t n, const uint8_t *parents,
                          const int *parent_of, const uint8_t *moves, double *est);
uint64_t srch_gen_net_rows(const gen_net *n);
/* The bytes of one estimate cache entry for states of state_bytes. */
size_t srch_gen_net_cache_entry(size_t state_bytes);
uint64_t srch_gen_net_updates(const gen_net *n);
/* Estimates the cache gave (no network row). */
uint64_t srch_gen_net_hits(const gen_net *n);
/* Sum the seconds of the network calls from now on (on = 1) or not, and
 * the seconds summed. */
void srch_gen_net_time(gen_net *n, int on);
double srch_gen_net_seconds(const gen_net *n);

/* ---- heuristics (gen_heur.c) ---- */

/* The value of one state with no parent (IDA*): the admissible leaf's
 * value read directly when the heuristic is one, else through eval. A
 * failed evaluation gives 0 (still a lower bound). */
int srch_gen_heur_value1(srch_dom_heur *h, const void *state);
/* The admissible leaf whose value times the root's scale is h's value
 * (what srch_gen_heur_value1 reads directly), or NULL when h is more than
 * that (a network, a max or sum, a floor or an offset). */
const dom_heur *srch_gen_heur_leaf(const srch_dom_heur *h);

/* ---- IDA* (gen_ida.c) ---- */

/* srch_dom_idastar whose f bounds stop short of `below` (1/scale units):
 * HN_ERR_UNSOLVABLE once the next bound would reach it (no solution of
 * f < below exists when h is admissible). */
int srch_gen_ida_below(const dom *d, const void *start, srch_dom_heur *h, const srch_limits *lim,
                       int64_t below, srch_dom_result *res);

/* The search's state (gen_ida_tmpl.h) and a depth-first pass over it, one
 * per instantiation of the template. */
typedef struct gen_ida gen_ida;
typedef int (*gen_ida_pass)(gen_ida *s, int depth, int64_t g, int q, int h);

/* gen_ida_np.c: the n-puzzle's own pass when s is on the built-in npuzzle
 * domain and valued by its Manhattan distance, linear conflicts or pattern
 * databases (the leaf adm), with s->fast or s->fast_nodes set; NULL otherwise. */
gen_ida_pass srch_gen_ida_np(gen_ida *s, const dom_heur *adm);
/* gen_ida_cube.c: the cube's own pass when s is on the built-in cube3
 * domain and the leaf adm is one of its pruning tables, with s->fast and
 * s->fast_nodes set and the start's value (the inverse's lookups and the
 * parity included) in *h0; NULL otherwise (or out of memory, s->status
 * set). */
gen_ida_pass srch_gen_ida_cube(gen_ida *s, const dom_heur *adm, int *h0);

/* ---- the goal's ball (gen_ball.c) ---- */

/* srch_dom_ball_dist of a state whose dom_hash is hv (the beam hashes each
 * child once for the ball and its duplicate set). */
int srch_gen_ball_dist_hashed(const srch_dom_ball *b, uint64_t hv);
/* Start loading the ball's slot of hash hv (a lookup is a cache miss in a
 * table of hundreds of MB: the beam prefetches a parent's children). */
void srch_gen_ball_prefetch(const srch_dom_ball *b, uint64_t hv);

/* ---- window shortcuts by IDA* (gen_window_ida.c) ---- */

/* A workspace for windows of up to max_depth moves (frames allocated once
 * per shortcut call, not per window). With h (an admissible heuristic,
 * cloned; the domain must have dom_relative) a window from a to z is
 * searched from dom_relative(a, z) to the goal under h, else under
 * dom_between. NULL on error (message set). */
typedef struct gen_wida gen_wida;
gen_wida *srch_gen_wida_new(const dom *d, int max_depth, const srch_dom_heur *h);
void srch_gen_wida_free(gen_wida *w);
/* A path from a to z of at most most + 1 moves by IDA* (estimates above),
 * bounds rising by `step` (2 when every cycle is even): its length (moves
 * into found[]), -1 when there is none within the bound or the budget of
 * expansions or the clock ran out first (*stopped for the clock or
 * Ctrl-C), or a status < -1. */
int srch_gen_wida_run(gen_wida *w, const uint8_t *a, const uint8_t *z, int most, int step,
                      uint64_t budget, double deadline, uint8_t *found, int *stopped);

/* ---- node store (gen_store.c) ---- */

#define GEN_NO_PARENT UINT32_MAX

typedef struct {
    uint32_t parent;
    uint32_t g;   /* cost from the start */
    int32_t h;    /* heuristic value, -1 while not evaluated */
    uint8_t move; /* move from the parent */
    uint8_t open;
} gen_node;

typedef struct {
    const dom *d;
    size_t sb; /* state bytes */
    gen_node *nodes;
    uint8_t *states; /* sb bytes per node */
    uint64_t *hashes;
    size_t n, cap;
    uint32_t *slots; /* node index + 1, 0 = empty */
    size_t nslots;
} gen_store;

typedef struct {
    uint64_t pri;
    uint32_t idx;
    uint32_t g; /* g when pushed: a different g now means the entry is stale */
} gen_item;

typedef struct {
    gen_item *a;
    size_t n, cap;
} gen_heap;

int srch_gen_store_init(gen_store *s, const dom *d);
void srch_gen_store_free(gen_store *s);
static inline const uint8_t *gen_state(const gen_store *s, size_t idx)
{
    return s->states + idx * s->sb;
}
/* Index of the stored state equal to `state` (hash hv), or -1. */
long srch_gen_store_find(const gen_store *s, const void *state, uint64_t hv);
/* Append a state (open, h = -1); its index or -1 (out of memory, message set). */
long srch_gen_store_add(gen_store *s, const void *state, uint64_t hv, uint32_t parent, uint32_t g,
                        int move);

int srch_gen_heap_push(gen_heap *hp, uint64_t pri, uint32_t idx, uint32_t g);
gen_item srch_gen_heap_pop(gen_heap *hp); /* the heap must not be empty */

/* ---- results (gen_result.c) ---- */

/* Zero *res and check the arguments: 0 or a status (also in res). */
int srch_gen_begin(const dom *d, const void *start, const srch_dom_heur *h, srch_dom_result *res);
/* The path to node idx into res (moves, length, cost): 0, or HN_ERR_LIMIT
 * when longer than SRCH_DOM_MAX_PATH. */
int srch_gen_take_path(const gen_store *s, size_t idx, srch_dom_result *res);
/* Replay res's moves from start: 0, or HN_ERR_ARG naming `algo` when they
 * do not lead to a goal (a domain whose expand and apply disagree). */
int srch_gen_check(const dom *d, const void *start, const char *algo, srch_dom_result *res);
/* 0, or HN_ERR_LIMIT / HN_ERR_INTERRUPTED naming `algo`. */
int srch_gen_limits_hit(const char *algo, const srch_dom_result *res, const srch_limits *lim,
                        double deadline, size_t stored);
double srch_gen_deadline(const srch_limits *lim, double t0);

#endif
