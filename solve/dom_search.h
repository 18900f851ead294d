/* solve/dom_search.h: searches over any domain by name, as heurnet solve,
 * eval and bench search --domain run them, for programs that embed heurnet:
 * a domain and its heuristics opened by name (a network with its residual
 * base, floor, offset, scale and blends; a model with the search it
 * records), one state or a batch of states solved (threads inside), and
 * the summary of a batch. Works for every domain: the n-puzzle of any size,
 * cube3 and plug-ins. Nothing prints; errors as in common/hn.h. */
#ifndef HEURNET_SOLVE_DOM_SEARCH_H
#define HEURNET_SOLVE_DOM_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "common/hn.h"
#include "domains/dom.h"
#include "search/generic/srch_dom.h"

HEURNET_API_BEGIN

enum heurnet_dom_algo {
    HEURNET_DOM_ASTAR = 0,
    HEURNET_DOM_WASTAR,
    HEURNET_DOM_BWAS,
    HEURNET_DOM_BEAM,
    HEURNET_DOM_IDASTAR,
    HEURNET_DOM_ANYTIME,
    HEURNET_DOM_FOCAL
};

/* "astar", "wastar", "bwas", "beam", "idastar", "anytime", "focal" ->
 * *algo: 0, or HN_ERR_ARG with hn_errmsg() listing the names. */
int heurnet_dom_algo_parse(const char *name, int *algo);
/* The name of an algorithm ("?" when out of range); a static string. */
const char *heurnet_dom_algo_name(int algo);

/* The settings of a search, by the names of heurnet solve --domain's
 * options (heurnet_dom_opt_id). */
enum heurnet_dom_opt {
    HEURNET_DOM_OPT_DOMAIN = 0,
    HEURNET_DOM_OPT_MODEL = 1,
    HEURNET_DOM_OPT_HEURISTIC = 2,
    HEURNET_DOM_OPT_ALGO = 3,
    HEURNET_DOM_OPT_WEIGHT = 4,
    HEURNET_DOM_OPT_BATCH = 5,
    HEURNET_DOM_OPT_WIDTH = 6,
    HEURNET_DOM_OPT_WEIGHTS = 7,
    HEURNET_DOM_OPT_ENGINE = 8,
    HEURNET_DOM_OPT_OFFSET = 9,
    HEURNET_DOM_OPT_SCALE = 10,
    HEURNET_DOM_OPT_FLOOR = 11,
    HEURNET_DOM_OPT_MAX_EXPANDED = 12,
    HEURNET_DOM_OPT_TIME_LIMIT = 13,
    HEURNET_DOM_OPT_MAX_NODES = 14,
    HEURNET_DOM_OPT_DELTAS = 15,
    HEURNET_DOM_OPT_SHORTCUT = 17,
    HEURNET_DOM_OPT_IDA = 18,
    HEURNET_DOM_OPT_IDA_AT = 19,
    HEURNET_DOM_OPT_WIDEN = 20,
    HEURNET_DOM_OPT_BALL = 21,
    HEURNET_DOM_OPT_VARIANTS = 22,
    HEURNET_DOM_OPT_BLEND = 23,
    HEURNET_DOM_OPT_PHASES = 24,
    HEURNET_DOM_OPT_BOUND = 40,
    HEURNET_DOM_OPT_ADMISSIBLE = 41,
    HEURNET_DOM_OPT_PROVE = 42,
    HEURNET_DOM_OPT_PROVE_AT = 43,
    HEURNET_DOM_OPT_COUNT = 44 /* ids are below this */
};

/* focal's bound by default, the share of a time limit a beam leaves to
 * the window shortcut after it, and the share before a proof stage. */
#define HEURNET_DOM_DEFAULT_BOUND 1.05
#define HEURNET_DOM_SHORTCUT_SHARE 0.05
#define HEURNET_DOM_DEFAULT_PROVE_AT 0.5

/* A search's settings: a plain struct, filled by heurnet_dom_opts_default
 * and then by heurnet_dom_opts_set or directly. Strings are the caller's
 * and must outlive the search opened from them. */
typedef struct heurnet_dom_opts {
    const char *domain;     /* dom_open spec; NULL: the model's */
    const char *model;      /* a network: its domain and its recorded search */
    const char *heuristic;  /* NULL: ann:MODEL with a model, else the domain's first;
                               "ann:SELF[,...]" stands for the model */
    const char *floor;      /* admissible heuristic below which no value falls */
    const char *admissible; /* focal's proof, anytime's H, cube windows' bound */
    const char *blend[SRCH_DOM_MAX_BLENDS]; /* added blend_w[i] times each */
    double blend_w[SRCH_DOM_MAX_BLENDS];
    int nblend;
    int algo;             /* enum heurnet_dom_algo; -1: IDA* for an admissible heuristic,
                             BWAS for a network */
    srch_dom_opts so;     /* weight, batch, width, anytime, beam (ball set by the search) */
    srch_dom_net_opts no; /* the network's engine */
    double offset;        /* moves subtracted from the estimate */
    int scale;            /* values in 1/scale moves */
    double bound;         /* focal */
    int ball_radius;      /* beam: the goal's ball, 0 none */
    srch_limits lim;      /* per state */
    /* the proof stage after the search (srch_dom_result_prove): IDA* on this
     * admissible heuristic below the solution (NULL: none), the search
     * ending at the share prove_at of the time limit */
    const char *prove;
    double prove_at;
    /* bit HEURNET_DOM_OPT_x: the option was set by the caller; a model's
     * recorded search leaves these alone and runs only when neither ALGO
     * nor HEURISTIC is set. heurnet_dom_opts_set sets the bits. */
    uint64_t given;
} heurnet_dom_opts;

/* The defaults of heurnet solve --domain into *o. */
void heurnet_dom_opts_default(heurnet_dom_opts *o);
/* The id of an option by its name without dashes ("weights"), or -1; and
 * the name of an id (NULL for none). */
int heurnet_dom_opt_id(const char *name);
const char *heurnet_dom_opt_name(int id);
/* Set option `id` from its text as heurnet solve takes it ("5,3,1" for
 * WEIGHTS; value is kept, not copied, for the string options) and mark
 * it given: 0, or HN_ERR_ARG with hn_errmsg() saying what is wrong. */
int heurnet_dom_opts_set(heurnet_dom_opts *o, int id, const char *value);

/* The domain a model file records: its "domain" attribute, else its
 * n-puzzle encoder's domain, else "" (also when it does not load: the
 * search that opens it says why). Returns 0, or HN_ERR_ARG when cap is too
 * small. */
int heurnet_dom_model_domain(const char *path, char *spec, size_t cap);

/* spec ("npuzzle:WxH[:layout]") in goal layout `goal` ("blank-first" or
 * "blank-last") into out[cap] (may be spec itself): 0, or HN_ERR_ARG for
 * another goal name, a domain without goal layouts, or no room. */
int heurnet_dom_goal_spec(const char *spec, const char *goal, char *out, size_t cap);
/* The N-puzzle's spec ("npuzzle:4x4" for 15) into out[cap]: 0, or
 * HN_ERR_ARG when N + 1 is not the square of 3 or more. */
int heurnet_dom_puzzle_spec(int n, char *out, size_t cap);

/* The admissible baseline of eval and bench search on d: the first pdb:
 * of the domain's heuristics (the n-puzzle's default partition: pdb:8,
 * pdb:7-8, pdb:6-6-6-6), else its first, into out[cap]: 0, or HN_ERR_ARG
 * when it has none. And 1 when eval runs it without being asked: a domain
 * of at most 4 moves and a typical depth of at most 60 (the 8- and
 * 15-puzzle; not the 24-puzzle, the cube), where an optimal search is
 * quick. */
int heurnet_dom_baseline_heuristic(const dom *d, char *out, size_t cap);
int heurnet_dom_baseline_default(const dom *d);
/* A baseline's algorithm by name: "astar" or "idastar" (HEURNET_DOM_*),
 * with none_ok also "none" (-1). 0, or HN_ERR_ARG with hn_errmsg(). */
int heurnet_dom_baseline_algo_parse(const char *name, int none_ok, int *algo);

/* A search opened from settings. */
typedef struct heurnet_dom_search heurnet_dom_search;

/* The domain of settings o: o->domain, else the one the model records.
 * NULL on error with *status (may be NULL): HN_ERR_ARG with hn_errmsg()
 * (no domain named, an unknown one, a plug-in's model without --domain). */
dom *heurnet_dom_opts_domain(const heurnet_dom_opts *o, int *status);

/* Open a search in two steps, so that settings are checked before anything
 * is loaded: config takes the model's recorded search when it applies
 * (only the model's attributes are read) and checks the settings against
 * domain d, which must outlive the search; load then opens the heuristics
 * (networks, pattern databases: may take long the first time). config's
 * NULL has *status (may be NULL) and hn_errmsg(): HN_ERR_ARG for settings
 * that are wrong (an option of another algorithm, a heuristic the
 * algorithm cannot take), HN_ERR_FORMAT for a model whose recorded search
 * is refused, or the status of a model that does not load. load returns
 * 0, or HN_ERR_ARG for a name that does not open (an unknown heuristic, a
 * model of another domain), or the status of what failed to load; a
 * failed load opens nothing and may be retried. */
heurnet_dom_search *heurnet_dom_search_config(const dom *d, const heurnet_dom_opts *o, int *status);
int heurnet_dom_search_load(heurnet_dom_search *s);
/* Both steps on d; open also opens the domain (heurnet_dom_opts_domain)
 * and frees it with the search. NULL on error with *status as above. The
 * goal's ball (o->ball_radius) is built by heurnet_dom_search_prepare. */
heurnet_dom_search *heurnet_dom_search_open_on(const dom *d, const heurnet_dom_opts *o,
                                               int *status);
heurnet_dom_search *heurnet_dom_search_open(const heurnet_dom_opts *o, int *status);
void heurnet_dom_search_free(heurnet_dom_search *s);

/* Build what the first search needs: the load if not done, then the
 * goal's ball: 0, or the load's status, or HN_ERR_ARG / HN_ERR_NOMEM (the
 * ball) with hn_errmsg(). The solve calls run it themselves; a program
 * calls it when it wants the cost (seconds: heurnet_dom_search_ball_seconds)
 * before them. */
int heurnet_dom_search_prepare(heurnet_dom_search *s);

/* The settings as resolved (defaults and the record taken), the domain,
 * the search's heuristic (for its counters; owned by s), the recorded
 * search that was taken ("" for none), and the ball's size and build time
 * (0 without one). */
const heurnet_dom_opts *heurnet_dom_search_settings(const heurnet_dom_search *s);
const dom *heurnet_dom_search_domain(const heurnet_dom_search *s);
srch_dom_heur *heurnet_dom_search_heur(const heurnet_dom_search *s);
const char *heurnet_dom_search_record(const heurnet_dom_search *s);
size_t heurnet_dom_search_ball_states(const heurnet_dom_search *s);
double heurnet_dom_search_ball_seconds(const heurnet_dom_search *s);
/* 1 when the algorithm promises an optimal cost (IDA*, focal with bound 1). */
int heurnet_dom_search_exact(const heurnet_dom_search *s);
/* The search in words, as eval's report gives it ("focal, weight 1, batch
 * 2, width 1024, bound 1.5 over lc"), into buf (snprintf-like). */
int heurnet_dom_search_describe(const heurnet_dom_search *s, char *buf, size_t cap);

/* Solve `start` (dom_state_bytes bytes) with limits lim (NULL: the
 * settings'), the solution then shortened by the window shortcut (anytime
 * shortens each incumbent itself; a beam leaves the windows
 * HEURNET_DOM_SHORTCUT_SHARE of its time). One call at a time on s.
 * Returns res->status (0 solved, HN_ERR_LIMIT, ...; see srch_dom.h). */
int heurnet_dom_search_solve(heurnet_dom_search *s, const void *start, const srch_limits *lim,
                             srch_dom_result *res);
/* n states, the i-th at states + i * stride (stride 0: dom_state_bytes),
 * solved by `threads` threads (1..256; each with its own copy of the
 * heuristic) into res[n]; a state a stop request left gets
 * HN_ERR_INTERRUPTED. Returns 0 (each result has its status), or a status
 * with hn_errmsg() when the threads could not be set up. */
int heurnet_dom_search_batch(heurnet_dom_search *s, const void *states, size_t stride, size_t n,
                             int threads, srch_dom_result *res);

/* 0 when `threads` searches' network caches (one per thread, cache:BITS)
 * fit in half of physical memory, else HN_ERR_ARG with hn_errmsg() naming
 * the BITS that fit: a cache too large swaps or gets the process killed
 * rather than failing. Needs only the config step (checked before the
 * load allocates anything); heurnet_dom_search_batch checks it too. */
int heurnet_dom_search_fits(const heurnet_dom_search *s, int threads);

/* The figures of a batch against known lengths (known[i] < 0: none). */
typedef struct heurnet_dom_summary {
    size_t count, solved;
    size_t with_known;              /* solved states with a known length */
    size_t differ;                  /* ... whose length differs from it */
    size_t shorter;                 /* ... whose length is below it */
    double length, known, expanded; /* sums over the solved states (known: with one) */
    double expanded_all;            /* over every state, an unsolved one until its limit */
    double seconds;                 /* sum of the searches' seconds */
} heurnet_dom_summary;

/* known may be NULL (no lengths known). */
void heurnet_dom_summarize(const srch_dom_result *res, const int *known, size_t n,
                           heurnet_dom_summary *sum);

/* Check a recorded search (options of heurnet solve --domain without
 * domain, model and limits; SELF = the model) against domain d as solve
 * would run it: parsed, ann:SELF[,...] only, the network loaded from
 * `model` and the heuristics opened. 0, or HN_ERR_ARG with hn_errmsg(). */
int heurnet_dom_record_check(const dom *d, const char *model, const char *rec);
/* The attribute of a model that holds its recorded search. */
#define HEURNET_DOM_RECORD_ATTR "search"
/* The attribute a model's record is marked with when it is in these words
 * (heurnet nn set-search writes it); a square n-puzzle model of 3x3 to 5x5
 * without it recorded the words of the n-puzzle command before issue 62,
 * read through heurnet_dom_record_np_translate. */
#define HEURNET_DOM_RECORD_WORDS_ATTR "search_words"
#define HEURNET_DOM_RECORD_WORDS "solve"
/* The width of d when it is a square n-puzzle of 3x3 to 5x5 (either goal),
 * whose models may hold records in the old words, else 0. */
int heurnet_dom_record_np_width(const dom *d);
/* An old n-puzzle record `rec` of a model of that width in the words of
 * heurnet solve --domain, into out[cap] (solve/dom_record_np.c lists the
 * rules; docs/formats.md): 0, or HN_ERR_FORMAT with hn_errmsg() for a
 * word it cannot translate. */
int heurnet_dom_record_np_translate(int width, const char *rec, char *out, size_t cap);
/* Its first step, as heurnet_dom_search_config: the record parsed and
 * checked, nothing loaded; heurnet_dom_search_load then opens its
 * heuristics. NULL on error with *status (may be NULL) HN_ERR_ARG. */
heurnet_dom_search *heurnet_dom_record_config(const dom *d, const char *model, const char *rec,
                                              int *status);

/* ---- a flat facade for bindings (plain arrays, strings and scalars) ----
 * A binding opens a domain with dom_open (domains/dom.h: "npuzzle:4x4",
 * "cube3", "./libmine.so:12"), learns dom_state_bytes, and solves arrays of
 * states with one call. */

/* What one state's search gave (srch_dom_result without its moves). */
typedef struct heurnet_dom_row {
    int32_t status; /* 0 solved, else a status (HN_ERR_LIMIT, ...) */
    int32_t length; /* moves, -1 when not solved */
    int32_t nmoves; /* moves written to the state's row of `moves` */
    int32_t h0, proven;
    int64_t cost; /* -1 when not solved */
    uint64_t expanded, generated, stored;
    double seconds;
} heurnet_dom_row;

/* Solve n states of domain d, given back to back in states[n *
 * state_bytes] (state_bytes must be dom_state_bytes(d); each state must be
 * one the domain's text format gives back unchanged), with algorithm
 * `algo` (heurnet_dom_algo_parse's names; NULL or "": the default),
 * heuristic `heuristic` (the names of heurnet solve --heuristic; NULL or
 * "": the default) and `options`, further settings in the words of heurnet
 * solve --domain ("--weight 2 --time-limit 5 --model M.h5"; NULL: none), on
 * `threads` threads (1..256), into rows[n] and, when moves is not NULL,
 * each solution's moves (indices) at moves + i * stride, at most stride of
 * them. Returns 0 when the search ran (each row has its status), else a
 * negative status with hn_errmsg(): HN_ERR_ARG naming the setting or the
 * 0-based index of a bad state. */
int heurnet_dom_solve_states(const dom *d, const uint8_t *states, size_t n, size_t state_bytes,
                             const char *algo, const char *heuristic, const char *options,
                             int threads, heurnet_dom_row *rows, uint8_t *moves, size_t stride);

/* The same with the settings as pairs: names[i] (heurnet_dom_opt_id's
 * names: "algo", "heuristic", "model", "weight", "time-limit" ...; not
 * "domain") set to values[i] (text as heurnet solve takes it; kept, not
 * copied), so a value may hold any character. desc (may be NULL) gets the
 * search in words as eval reports it (heurnet_dom_search_describe). */
int heurnet_dom_solve_pairs(const dom *d, const uint8_t *states, size_t n, size_t state_bytes,
                            const char *const *names, const char *const *values, int npairs,
                            int threads, heurnet_dom_row *rows, uint8_t *moves, size_t stride,
                            char *desc, size_t dcap);

/* The estimates of heuristic `heuristic` (the names of heurnet solve
 * --heuristic; "ann:M.h5" adds the residual base the model records) for n
 * states of d, given as heurnet_dom_solve_states takes them, into est[n]
 * (cost units, before a value's offset, scale and floor; what heurnet
 * predict prints). 0, or a negative status with hn_errmsg(): HN_ERR_ARG
 * for a bad state or name, HN_ERR_SHAPE for a model of another domain's
 * width, or the status of what failed to load. */
int heurnet_dom_estimate_states(const dom *d, const uint8_t *states, size_t n, size_t state_bytes,
                                const char *heuristic, double *est);

/* The estimates of model m (`name` in messages) for n states of d, given
 * as heurnet_dom_solve_states takes them, into est[n]: what heurnet predict
 * --instances prints, the residual base the model records added. engine
 * SRCH_DOM_ENGINE_FLOAT: the model's dense float layers (nn_infer over the
 * one-hot inputs, `batch` rows a call; the digits of an embedder's
 * nn_infer); SRCH_DOM_ENGINE_Q8: the search's q8 network. A model of the
 * domain's other n-puzzle goal layout reads the states renamed. 0, or a
 * status with hn_errmsg(): HN_ERR_ARG / HN_ERR_SHAPE for a model of
 * another domain, the status of a residual base that does not open. */
int heurnet_dom_predict_states(const dom *d, const struct nn_model *m, const char *name,
                               const uint8_t *states, size_t n, int engine, int batch, double *est);

HEURNET_API_END

#endif
