/* search/generic/srch_dom.h: search over any domain (domains/dom.h). The
 * heuristics (admissible ones by name, a network over the domain's one-hot
 * encoding with an incremental first layer, and their combinations) and the
 * searches (A*, weighted A*, batch weighted A*, beam search, IDA*, anytime
 * weighted A*) that the n-puzzle's specialized code has, for every domain.
 *
 * Heuristic values are integers in 1/scale units of move cost (scale 1 for
 * admissible heuristics: whole costs); the searches order by
 * f = g * scale + weight * h. Nothing prints; errors as in common/hn.h. */
#ifndef SRCH_DOM_H
#define SRCH_DOM_H

#include <stddef.h>
#include <stdint.h>

#include "common/hn.h"
#include "domains/dom.h"
#include "search/srch.h"

HEURNET_API_BEGIN

struct nn_model;

/* ======================================================================
 * Heuristics
 *
 * A srch_dom_heur is a tree: leaves are admissible heuristics (dom_heur) or
 * networks; inner nodes take the max or the sum (a residual network over
 * its base) of two. Every node computes an estimate in cost units (a
 * float); the root turns it into a value: max(round((est - offset) *
 * scale), floor * scale), 0 at a goal. A heuristic holds scratch memory:
 * one object per thread.
 * ==================================================================== */

typedef struct srch_dom_heur srch_dom_heur;

enum srch_dom_engine {
    SRCH_DOM_ENGINE_AUTO = 0, /* q8 where the CPU has an int8 SIMD kernel, else float */
    SRCH_DOM_ENGINE_FLOAT = 1,
    SRCH_DOM_ENGINE_Q8 = 2
};

typedef struct srch_dom_net_opts {
    int engine;    /* enum srch_dom_engine [AUTO] */
    int max_batch; /* network rows per call, 1..65536 [1024] */
    int residual;  /* 1: add the base the model records ("residual" attribute) [1] */
    /* the mean over a state and its first symmetries - 1 symmetric maps
     * (dom_symmetries; 0 or 1: the state alone) [0] */
    int symmetries;
    /* q8 only: 1 keeps int32 first-layer sums; 0 lets them be int16 where
     * the domain bounds the inputs on at once (nn_sparse_new_bounded). The
     * two round the first layer's weights differently, so values differ in
     * the last bits [0] */
    int acc32;
    /* a cache of 2^cache_bits network estimates per heuristic object (one
     * per thread), 0..28; 0: none. Values are the same with or without [0] */
    int cache_bits;
} srch_dom_net_opts;

extern const srch_dom_net_opts SRCH_DOM_NET_DEFAULTS;

/* An admissible heuristic by name through dom_heur_open ("gap", "pdb:P",
 * "max:A,B", "zero"). d must outlive it. NULL on error (*status). */
srch_dom_heur *srch_dom_heur_adm(const dom *d, const char *name, int *status);
/* The same over an admissible heuristic the caller opened and keeps: dh
 * must outlive this heuristic and its clones (which never free it). */
srch_dom_heur *srch_dom_heur_adm_borrow(const dom *d, const dom_heur *dh, int *status);

/* A network heuristic from model m (copied: m may be freed afterwards),
 * evaluated on dom_encode's active inputs through nn/sparse.h. The model
 * must be for this domain: its root attribute "domain" must equal
 * dom_spec(d) or dom_canonical(d); a model without one stands for the
 * domain its n-puzzle encoder names (srch_np_encode_domain); every model
 * must read facts->inputs inputs, give one output (or one per move) and
 * record the encoder facts->encoding (a model of no encoder, or of another
 * encoding under the same canonical string, is refused: HN_ERR_ARG). With
 * opts->residual and a model that records "residual" = NAME, the estimate
 * is net + srch_dom_heur_adm(NAME).
 * `name` names the model in messages. NULL on error (*status: HN_ERR_ARG
 * for a model of another domain, HN_ERR_SHAPE for the wrong input width). */
srch_dom_heur *srch_dom_heur_net(const dom *d, const struct nn_model *m, const char *name,
                                 const srch_dom_net_opts *opts, int *status);

/* A heuristic from a spec, in the syntax models record: "ann:PATH[,SETTING
 * ...]" loads a model (srch_dom_heur_net) with the settings scale:N,
 * delta:D (the offset), q8 or float (sparse and dense are other names of
 * float), acc16 or acc32 (q8's first-layer sums; acc16, the default, is
 * int16 where it is exact), cache:BITS, sym:K (the mean over the state and
 * K - 1 symmetric maps, dom_symmetric; mirror is sym:2), and one admissible
 * name as the floor; anything else is an admissible name
 * (srch_dom_heur_adm). docs/search.md lists them. opts may be NULL
 * (defaults). NULL on error (*status). */
srch_dom_heur *srch_dom_heur_open(const dom *d, const char *spec, const srch_dom_net_opts *opts,
                                  int *status);
/* The same with "ann:SELF[,SETTING...]" standing for the model `self` (read,
 * not kept: it may be freed afterwards), as a program that has just trained
 * a network searches with it; other paths load as above. */
srch_dom_heur *srch_dom_heur_open_model(const dom *d, const char *spec, const struct nn_model *self,
                                        const srch_dom_net_opts *opts, int *status);
/* A heuristic a program computes itself (a PyTorch network in Python):
 * fn(user, states, n, est) gets n states back to back and writes their
 * estimates (cost units) into est[n], returning 0 or a negative status
 * (the search stops with it). A search opens it by the spec "cb:NAME"
 * once srch_dom_heur_register has given NAME (up to 63 characters) its
 * fn; it is a network leaf (not admissible, the goal's value 0) and takes
 * a floor as "cb:NAME,H". Searches on several threads call fn from each
 * of them at once, in batches as they evaluate a network's. fn NULL
 * removes NAME. 0, or HN_ERR_ARG for a bad name or a full table. */
typedef int (*srch_dom_heur_fn)(void *user, const void *states, size_t n, double *est);
#define SRCH_DOM_MAX_CALLBACKS 32
int srch_dom_heur_register(const char *name, srch_dom_heur_fn fn, void *user);
/* 1 when spec names a registered callback heuristic ("cb:NAME[,H]"). */
int srch_dom_heur_is_callback(const char *spec);

/* Check a spec's settings without loading its model, and open its
 * admissible part once (its tables built into the cache, so processes
 * that open the spec later only read them). 0, or HN_ERR_ARG (or what
 * opening failed with) and hn_errmsg. */
int srch_dom_heur_spec_prepare(const dom *d, const char *spec);

/* max(a, b), and a + b (a residual network b over an admissible base a).
 * Both take ownership of a and b, also on failure; a and b must be over the
 * same domain. NULL on error (*status). */
srch_dom_heur *srch_dom_heur_max_new(srch_dom_heur *a, srch_dom_heur *b, int *status);
srch_dom_heur *srch_dom_heur_sum_new(srch_dom_heur *a, srch_dom_heur *b, int *status);

/* The root's value options: `scale` units per cost unit (1..1000),
 * `offset` (>= 0) subtracted from the estimate, and an admissible `floor`
 * (may be NULL; taken, also on failure) below which no value falls. 0, or
 * HN_ERR_ARG for values out of range or a floor of another domain. */
int srch_dom_heur_set_value(srch_dom_heur *h, int scale, double offset, srch_dom_heur *floor);
/* Add `weight` (0 < weight <= 100) times the admissible `blend` (taken,
 * also on failure) to a network heuristic's estimate before scaling: an
 * independent lower bound corrects some of the network's ranking errors
 * (the cube's corner table under its Q network). Each call adds one more
 * term, up to SRCH_DOM_MAX_BLENDS. 0, or HN_ERR_ARG. */
#define SRCH_DOM_MAX_BLENDS 4
int srch_dom_heur_set_blend(srch_dom_heur *h, double weight, srch_dom_heur *blend);

/* A copy of h for another thread: admissible tables and network weights
 * are shared (read-only), scratch memory is its own. Either may be freed
 * first. NULL on error (*status). */
srch_dom_heur *srch_dom_heur_clone(const srch_dom_heur *h, int *status);

void srch_dom_heur_free(srch_dom_heur *h);

/* Values of n states (back to back) into out[n]. parents (may be NULL)
 * holds the states the children came from and parent_of[i] the index of
 * state i's parent there (-1: none), moves[i] its move: a network then
 * builds state i's first layer from its parent's by dom_encode_delta. The
 * values are the same either way. 0 or a status (HN_ERR_NOMEM,
 * HN_ERR_NAN). */
int srch_dom_heur_eval(srch_dom_heur *h, const void *states, size_t n, const void *parents,
                       const int *parent_of, const uint8_t *moves, int *out);
/* The estimates (cost units, before offset, scale, floor and the goal's
 * 0) for the same arguments into est[n]. */
int srch_dom_heur_estimate(srch_dom_heur *h, const void *states, size_t n, const void *parents,
                           const int *parent_of, const uint8_t *moves, double *est);

/* The admissible part of h, owned by h (NULL when none): h itself when it
 * is admissible, else its floor, else the base of a residual sum. Its
 * values are in its own scale (srch_dom_heur_scale). */
srch_dom_heur *srch_dom_heur_base(srch_dom_heur *h);

/* 1 when the heuristic has no network leaf (its values are then lower
 * bounds when its admissible parts are), else 0. */
int srch_dom_heur_admissible(const srch_dom_heur *h);
int srch_dom_heur_scale(const srch_dom_heur *h);
const dom *srch_dom_heur_domain(const srch_dom_heur *h);
/* Rows sent through networks so far (all leaves), and the rows whose first
 * layer came from a parent's or an earlier row's (the rest were built from
 * the active inputs). */
uint64_t srch_dom_heur_rows(const srch_dom_heur *h);
/* The bytes of the estimate cache an "ann:M,...,cache:BITS" spec gives
 * one copy of the heuristic (each search thread has its own), and BITS
 * (0 and 0 for none, also for a spec that does not parse). */
size_t srch_dom_heur_spec_cache_bytes(const dom *d, const char *spec, int *bits);
uint64_t srch_dom_heur_acc_updates(const srch_dom_heur *h);
/* Time the network calls of h's leaves from now on (on = 1; off by
 * default, as it reads the clock twice a call) or not, and the seconds
 * they took while timed (wall clock). */
void srch_dom_heur_time_nets(srch_dom_heur *h, int on);
double srch_dom_heur_net_seconds(const srch_dom_heur *h);

/* ======================================================================
 * The goal's ball
 *
 * Every state within `radius` moves of the goal with its exact distance
 * (a breadth-first search from the goal; unit costs and an inverse for
 * every move, so a distance from the goal is one to it). Beam search
 * finishes a path exactly once it enters the ball (CayleyPy's meeting in
 * the middle). Read only once built: threads share one.
 * ==================================================================== */

typedef struct srch_dom_ball srch_dom_ball;

#define SRCH_DOM_BALL_MAX_RADIUS 30

/* A ball of radius 1..SRCH_DOM_BALL_MAX_RADIUS around d's goal; d must
 * outlive it. NULL on error (*status: HN_ERR_ARG, HN_ERR_UNSUPPORTED for a
 * domain with costs or moves without an inverse, HN_ERR_NOMEM,
 * HN_ERR_INTERRUPTED). Its memory is 18 to 36 bytes per state (9 per slot,
 * the table doubling when half full). */
srch_dom_ball *srch_dom_ball_new(const dom *d, int radius, int *status);
void srch_dom_ball_free(srch_dom_ball *b);
int srch_dom_ball_radius(const srch_dom_ball *b);
size_t srch_dom_ball_states(const srch_dom_ball *b);
const dom *srch_dom_ball_domain(const srch_dom_ball *b);
/* The state's distance to the goal when within the radius, else -1. */
int srch_dom_ball_dist(const srch_dom_ball *b, const void *state);
/* A shortest path from `state` (in the ball) to the goal into
 * moves[0..cap): its length, or -1 when the state is not in the ball, the
 * path is longer than cap, or the walk fails (a hash collision). */
int srch_dom_ball_path(const srch_dom_ball *b, const void *state, uint8_t *moves, int cap);

/* ======================================================================
 * Searches
 *
 * Every search takes the start state (dom_state_bytes bytes), a heuristic
 * over the same domain, options (NULL: defaults) and limits (NULL: none;
 * srch_limits of search/srch.h: expansions, stored nodes, seconds), and
 * fills *res. A solution is replayed with dom_replay before it is
 * returned. The status (also the return value): 0 solved, HN_ERR_LIMIT,
 * HN_ERR_INTERRUPTED (hn_stop_requested), HN_ERR_UNSOLVABLE (the space
 * was exhausted), or an error (HN_ERR_NOMEM, HN_ERR_ARG).
 * ==================================================================== */

#define SRCH_DOM_MAX_PATH 4096
#define SRCH_DOM_MAX_WEIGHTS 8
#define SRCH_DOM_MAX_DELTAS 16
/* A delta that leaves the admissible heuristic alone (the 'inf' phase). */
#define SRCH_DOM_DELTA_INF 1e9

/* Window shortcuts (gen_shortcut.c): every window of up to max_window moves
 * of a solution is re-solved between its two end states by a bidirectional
 * breadth-first search, and a shorter path found replaces it. */
typedef struct srch_dom_shortcut_opts {
    int max_window;  /* longest window in moves (windows of 8, 12, 18, .. up to it); 0: off */
    uint64_t budget; /* states stored per window search: a window needing more stays */
    int max_rounds;  /* rounds over all windows while one improves, 1..100 */
    /* 1: windows of more than SRCH_DOM_SHORTCUT_BFS_MAX moves are searched by
     * IDA* with the domain's estimate between two states (dom_has_between),
     * budget then counting its expansions per window; 0: all by BFS */
    int ida;
    /* with ida, on a domain with dom_has_relative: an admissible heuristic
     * (read only; each call works on a clone) that bounds the cost from a to
     * z by its value of dom_relative(a, z). Every window is then searched
     * by IDA*, the BFS being the weaker of the two where such a bound
     * exists (the cube's pattern databases). NULL: dom_between */
    const srch_dom_heur *between;
} srch_dom_shortcut_opts;

#define SRCH_DOM_SHORTCUT_BFS_MAX 16

#define SRCH_DOM_SHORTCUT_MAX_WINDOW 200
#define SRCH_DOM_SHORTCUT_MAX_BUDGET 100000000ull
extern const srch_dom_shortcut_opts SRCH_DOM_SHORTCUT_DEFAULTS; /* off, 10^6, 8 */

typedef struct srch_dom_result {
    int status;
    int length;         /* moves, -1 when not solved */
    int64_t cost;       /* sum of the moves' costs, -1 when not solved */
    int h0;             /* the start's heuristic value (1/scale units) */
    uint64_t expanded;  /* states whose children were generated */
    uint64_t generated; /* children generated */
    uint64_t rows;      /* network rows evaluated */
    uint64_t stored;    /* peak states stored (IDA*: iterations) */
    double seconds;
    int proven;       /* 1 when the cost is proven optimal */
    int improvements; /* anytime: solutions found */
    int phases;       /* anytime: passes and phases run to their end */
    int saved;        /* moves the window shortcut removed */
    /* beam: seconds from the start to the first solution held (-1: none) */
    double first_seconds;
    /* beam: 1 when a limit (or an interruption) cut a run short or left no
     * time for the next wider one: the solution is the best found so far */
    int limited;
    /* a proof stage after the search (srch_dom_result_prove): the length
     * it started from (-1: none ran), its expansions and seconds */
    int proof_from;
    uint64_t proof_expanded;
    double proof_seconds;
    uint8_t moves[SRCH_DOM_MAX_PATH];
} srch_dom_result;

typedef struct srch_dom_opts {
    double weight; /* f = g + weight * h, 0..100 [1] */
    int batch;     /* batch A*: states expanded per step, 1..65536 [1] */
    int width;     /* beam: states kept per depth, 1..10^7 [1024] */
    /* beam: after each solution run again with `widen` times the width
     * (below 10^7) while the time limit allows, each run stopping at the
     * incumbent's depth; the shortest solution stands [0: one run] */
    double widen;
    /* anytime: falling weights >= 1 of the successive passes [5, 3, 2, 1.5, 1] */
    int nweights;
    double weights[SRCH_DOM_MAX_WEIGHTS];
    /* anytime: called with each better solution (may be NULL) */
    void (*on_solution)(const srch_dom_result *res, void *user);
    void *user;
    /* anytime, after the weights: A* phases on max(h - delta, H) for the
     * rising deltas (moves; SRCH_DOM_DELTA_INF: H alone), none by default */
    int ndeltas;
    double deltas[SRCH_DOM_MAX_DELTAS];
    /* anytime: 0 each phase continues the last one's search (its closed
     * states stay closed, the open ones are queued again under the new
     * order); 1 each phase starts at the start again, keeping only the
     * stored values [0] */
    int restart;
    /* anytime: H, an admissible heuristic of the domain (read only: each
     * search works on a clone); NULL: the heuristic's own admissible part
     * (srch_dom_heur_base) */
    const srch_dom_heur *admissible;
    /* anytime: 1 runs IDA* pruned by H below the incumbent after the A*
     * phases, which then end at the share ida_at of the time limit once
     * they have a solution */
    int ida;
    double ida_at;
    /* anytime: each incumbent shortened by windows (max_window 0: off;
     * the defaults' budget and rounds are SRCH_DOM_SHORTCUT_DEFAULTS') */
    srch_dom_shortcut_opts shortcut;
    /* beam: the goal's ball (NULL: none): a child in it ends its path
     * exactly and leaves the beam, which stops once no state outside the
     * ball can beat the best such path */
    const srch_dom_ball *ball;
    /* beam: the start and its first variants - 1 symmetric maps searched
     * in turn (each widened in an equal share of the time left, bounded by
     * the best path so far, which dom_symmetric_path brings back to the
     * start); the domain needs symmetric_path [0 or 1: the start alone] */
    int variants;
    /* beam with a time limit: a narrow beam of this width runs first, so a
     * solution is held early (a wide beam the clock cuts finds nothing), and
     * bounds the configured runs after it; the shortest stands. 0: the width
     * / 16, at most SRCH_DOM_FIRST_WIDTH_MAX; negative, or not under the
     * width: none. Without a time limit no narrow beam runs [0] */
    int first_width;
} srch_dom_opts;

#define SRCH_DOM_FIRST_WIDTH_MAX 4096

extern const srch_dom_opts SRCH_DOM_DEFAULTS;

/* A* on f = g + weight * h (opts->weight; 1 and an admissible, consistent h:
 * optimal, res->proven). Nodes reached by a cheaper path are re-opened. */
int srch_dom_astar(const dom *d, const void *start, srch_dom_heur *h, const srch_dom_opts *opts,
                   const srch_limits *lim, srch_dom_result *res);
/* Batch weighted A* (DeepCubeA's BWAS): each step pops the opts->batch
 * best open states, expands them and evaluates all their new children with
 * one heuristic call. A goal popped becomes the incumbent; the search ends
 * when no open state has a smaller f. DeepCubeA orders by lambda * g + h,
 * the order of g + h / lambda: weight = 1 / lambda. */
int srch_dom_bwas(const dom *d, const void *start, srch_dom_heur *h, const srch_dom_opts *opts,
                  const srch_limits *lim, srch_dom_result *res);
/* Beam search (CayleyPy's): from the start, each depth keeps the
 * opts->width children with the smallest h (duplicates removed by state),
 * until a child is a goal. Not optimal in general: res->proven only when a
 * run kept every child of every depth (then a full breadth-first search
 * below its bound, and no wider run follows). HN_ERR_UNSOLVABLE when a
 * depth is empty, HN_ERR_LIMIT past SRCH_DOM_MAX_PATH moves. With a time
 * limit a narrow beam runs first (opts->first_width). A limit that cuts a
 * run short leaves the best path so far with status 0 and res->limited;
 * HN_ERR_LIMIT only when there is none. The node limits count each run's
 * own expansions and stored states. */
int srch_dom_beam(const dom *d, const void *start, srch_dom_heur *h, const srch_dom_opts *opts,
                  const srch_limits *lim, srch_dom_result *res);
/* IDA*: depth first in place (dom_apply, then the inverse move undoes;
 * where a move has no inverse, a copy of the parent), with the domain's
 * pruning automaton and f bounds rising to the smallest pruned f.
 * Optimal (res->proven) with an admissible h. */
int srch_dom_idastar(const dom *d, const void *start, srch_dom_heur *h, const srch_limits *lim,
                     srch_dom_result *res);
/* Anytime weighted A*: a pass of weighted A* per weight of opts->weights
 * (none is allowed when there are deltas), then an A* phase on
 * f = g + max(h - delta, H) per delta of opts->deltas, each pruning states
 * whose g + H (g + h when h is admissible, else g) reaches the incumbent's
 * cost, and with opts->ida an IDA* stage pruned by H below it. Each better
 * solution (shortened by opts->shortcut when on) is reported through
 * opts->on_solution. A limit ends the schedule: the incumbent is returned
 * with status 0, HN_ERR_LIMIT only when there is none. The cost is proven
 * optimal (res->proven) when a pass ends without a solution below the
 * incumbent, when a phase on an admissible order (weight 1 on an admissible
 * h, or delta inf) finds one, when the IDA* stage ends, or when the cost
 * equals H at the start. res->phases counts the passes, phases and IDA*
 * stage that ran to their end. Deltas without H: HN_ERR_ARG. */
int srch_dom_anytime(const dom *d, const void *start, srch_dom_heur *h, const srch_dom_opts *opts,
                     const srch_limits *lim, srch_dom_result *res);

/* Focal search (A*_eps): OPEN ordered by f = g + H with `adm` (admissible,
 * scale 1: srch_dom_heur_adm), FOCAL = the open states with f <= bound *
 * the smallest open f, ordered by g * scale + h of `h` (a network or any
 * heuristic). The solution costs at most bound (1..100) times the optimum
 * (bound 1: optimal, res->proven); opts->batch states of FOCAL are
 * expanded per step, their children evaluated in one call of each
 * heuristic. h and adm must be over d (each one object per thread). */
int srch_dom_focal(const dom *d, const void *start, srch_dom_heur *h, srch_dom_heur *adm,
                   double bound, const srch_dom_opts *opts, const srch_limits *lim,
                   srch_dom_result *res);

/* Shorten moves[0..*n) (a path from start) in place by windows: the
 * result replays from start to the same state and is never longer. Unit
 * costs only (HN_ERR_UNSUPPORTED otherwise), and every move needs an
 * inverse (the search runs backward from a window's last state). Stops
 * between windows (and inside a long one) when the clock passes
 * `deadline` (hn_now() seconds, 0 = none) or hn_stop_requested(): the path
 * so far stands. *saved (may be NULL) gets the moves removed. Returns 0
 * or a status (HN_ERR_ARG: bad options, HN_ERR_NOMEM). */
int srch_dom_shortcut(const dom *d, const void *start, uint8_t *moves, int *n,
                      const srch_dom_shortcut_opts *o, double deadline, int *saved);
/* 0, or HN_ERR_ARG with a message: max_window 0 (off) or 2..200, and with
 * a window, budget 1..10^8 and max_rounds 1..100. */
int srch_dom_shortcut_check(const srch_dom_shortcut_opts *o);
/* The shortcut on a solved res (not on one proven optimal): its moves,
 * length and cost updated, res->saved increased. 0 or a status; res stays
 * valid either way. */
int srch_dom_result_shortcut(const dom *d, const void *start, const srch_dom_shortcut_opts *o,
                             double deadline, srch_dom_result *res);

/* The proof stage on a solved res (not one proven already): IDA* on the
 * admissible heuristic H (read only: the call works on a clone) whose f
 * bounds stop below res's cost, within lim (the caller's share of the
 * time; its expansions are added to res's). A path it finds replaces
 * res's and is optimal (res->proven, res->improvements + 1); its end
 * without one proves res's (res->proven). A limit or an interruption
 * leaves res's path unproven, status 0. The last bound is the cost less 1,
 * or less 2 where H's values carry the domain's parity (the cube's fst and
 * fsst tables). Returns 0, HN_ERR_ARG (H not admissible, or of another
 * domain) or HN_ERR_NOMEM; res stays valid either way. */
int srch_dom_result_prove(const dom *d, const void *start, const srch_dom_heur *H,
                          const srch_limits *lim, srch_dom_result *res);

HEURNET_API_END

#endif
