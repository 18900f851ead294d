/* domains/domain.h (installed as <heurnet/domain.h>): the domain interface.
 * A domain is a puzzle or planning problem heurnet can search and learn on:
 * the n-puzzle and the Rubik's cube are built in, and a user's own domain is
 * a shared object that exports heurnet_domain_entry (below) and includes
 * only this header and the C library; it need not link libheurnet.
 *
 * The design follows what the field's interfaces teach (docs/domains.md):
 *   - facts as tables: sizes, move names, inverses, costs and a small
 *     move-pruning automaton are reported once, in dom_facts;
 *   - states are fixed-size byte blobs in one canonical form (padding
 *     zeroed), so the core hashes, compares and stores them itself;
 *   - two hot calls: expand (all children of a state, once per expansion)
 *     and apply (one move in place, for IDA* and random walks);
 *   - the network encoding is a list of active one-hot inputs, plus the
 *     inputs a move turns off and on, so the incremental int8 first layer
 *     (nn/sparse.h) works for every domain.
 *
 * Stability (a 0.x library): a definition carries DOM_ABI_VERSION and its
 * struct size; the host refuses another ABI version and a struct smaller
 * than version 1's. Structs only grow at the end; fixed-width types only.
 *
 * Threads: after create, an instance is read-only; every call taking a
 * const instance may run on several threads at once. */
#ifndef HEURNET_DOMAIN_H
#define HEURNET_DOMAIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DOM_ABI_VERSION 1u
/* Limits the core sizes its buffers by. */
#define DOM_MAX_MOVES 64
#define DOM_MAX_STATE_BYTES 256
#define DOM_MAX_ACTIVE 64 /* inputs on at once (nn/sparse.h's bound) */
#define DOM_MAX_DELTA 32  /* inputs one move turns off (or on) */
#define DOM_MAX_SYMMETRIES 64
/* prune_next entry of a move the automaton forbids. */
#define DOM_PRUNED 255u

/* Status codes: the same values as heurnet's hn_status (common/hn.h). */
enum dom_status {
    DOM_OK = 0,
    DOM_ERR_NOMEM = -1,
    DOM_ERR_IO = -2,
    DOM_ERR_FORMAT = -3,     /* text or file does not follow its format */
    DOM_ERR_ARG = -4,        /* bad argument (domain parameters, names) */
    DOM_ERR_UNSOLVABLE = -7, /* a state that cannot reach the goal */
    DOM_ERR_UNSUPPORTED = -11
};

/* A source of uniform 64-bit random numbers, owned by the host. */
typedef struct dom_rng {
    uint64_t (*next)(void *ctx);
    void *ctx;
} dom_rng;

/* What the host offers a domain: given to create, valid until destroy. */
typedef struct dom_host {
    uint32_t abi_version; /* DOM_ABI_VERSION */
    uint32_t struct_size; /* sizeof(dom_host) of the host */
    /* Record msg as the calling thread's error message and return status
     * (the domain writes `return host->fail(DOM_ERR_FORMAT, "...")`). */
    int (*fail)(int status, const char *msg);
    /* A log line (level 0 debug, 1 info, 2 warning); never printed by the
     * domain itself. */
    void (*log)(int level, const char *msg);
    /* Nonzero once the user asked to stop (Ctrl-C): long builds return. */
    int (*stop_requested)(void);
    /* Folder for tables the domain builds and keeps (pattern databases),
     * or NULL when there is none. */
    const char *(*cache_dir)(void);
    /* Grown after version 1 (read it only when struct_size covers it):
     * the threads a table build may use, >= 1 (the user's --threads, else
     * one per core up to 8). */
    int (*build_threads)(void);
} dom_host;

/* The facts of an instance, filled by create. Pointers are owned by the
 * instance and stay valid until destroy. */
typedef struct dom_facts {
    uint32_t struct_size; /* set by the host before create */
    /* Canonical parameter string, "npuzzle:4x4" or "cube3": recorded in
     * datasets and models, and dom_open(canonical) makes the same domain.
     * Not empty, no blank, '=' or control character (the host refuses). */
    const char *canonical;
    /* Network encoding name, recorded in models ("npuzzle-onehot n=4 ...");
     * no control character. */
    const char *encoding;
    uint32_t state_bytes; /* 1..DOM_MAX_STATE_BYTES */
    uint32_t nmoves;      /* 1..DOM_MAX_MOVES */
    /* move_name[m]: a short name without spaces ("U", "R'"). Move text is
     * the names joined by move_sep ("" when every name is one character;
     * never NULL: the host refuses a NULL move_sep). */
    const char *const *move_name;
    const char *move_sep;
    /* inverse[m]: the move that undoes m, or -1 (then m has no inverse and
     * search cannot prune its undo). */
    const int8_t *inverse;
    /* cost[m] >= 1, or NULL for unit costs. */
    const uint16_t *cost;
    /* Move pruning: an automaton with prune_states states (state 0 at the
     * root); after move m from automaton state q the next state is
     * prune_next[q * nmoves + m], or DOM_PRUNED when m is skipped there
     * (it leads only to paths a kept order also reaches). 0 states: none. */
    uint32_t prune_states;
    const uint8_t *prune_next;
    /* Network input: `inputs` 0/1 inputs of which at most max_active are on
     * in any state; one move turns at most max_delta off and as many on. */
    uint32_t inputs;
    uint32_t max_active; /* <= DOM_MAX_ACTIVE */
    uint32_t max_delta;  /* <= DOM_MAX_DELTA; 0 when encode_delta is NULL */
    /* Admissible heuristics the domain evaluates (heur_open), and patterns
     * for the core's pattern databases (pattern_open): comma-separated
     * names, "" for none. The first heuristic is the default. */
    const char *heuristics;
    const char *patterns;
    /* Uniform random states: 1 when random_state draws them. */
    uint32_t has_uniform;
    /* Typical distance of a random state from the goal (for random walks
     * long enough to look random; 0 = unknown). */
    uint32_t typical_depth;
    /* ---- grown after version 1 (0 when the domain's header ends before) ---- */
    /* Maps of dom_def's `symmetric`, the identity counted (0 or 1: none). */
    uint32_t symmetries;
} dom_facts;

/* An abstraction for the core's pattern-database builder: ranks
 * 0..entries-1 of abstract states. rank(s) is the abstract state of s;
 * unrank(r, s) writes a concrete state whose rank is r. The builder runs a
 * breadth-first search from the goal's rank through unrank, apply and rank,
 * so a move must act on abstract states consistently (the rank of apply(s, m)
 * depends only on the rank of s). Distances count every move, so the table
 * is admissible for unit costs; tables of several patterns combine by max. */
typedef struct dom_pattern {
    uint64_t entries;
    void *self;
    uint64_t (*rank)(const void *self, const void *state);
    void (*unrank)(const void *self, uint64_t rank, void *state);
    void (*free)(void *self);
} dom_pattern;

/* A domain's definition: what heurnet_domain_entry returns. Optional
 * entries may be NULL. */
typedef struct dom_def {
    uint32_t abi_version;  /* DOM_ABI_VERSION */
    uint32_t struct_size;  /* sizeof(dom_def) the domain was built with */
    const char *name;      /* "pancake": [a-z0-9_]+ (the host refuses others) */
    const char *summary;   /* one line for `heurnet domain list` */
    const char *args_help; /* what may follow "name:", e.g. "N (pancakes, 4..64)" */

    /* A new instance for the parameters after "name:" ("" when none).
     * Fills *facts. NULL on error (through host->fail; a NULL without it
     * is reported as a defect of the domain). */
    void *(*create)(const char *args, const dom_host *host, dom_facts *facts);
    void (*destroy)(void *inst);

    /* ---- the two hot calls ---- */
    /* The children of `state` by the moves whose bit is set in `allowed`
     * (bit m = move m), in move order: child i at children + i *
     * state_bytes (canonical), moves[i] its move. Returns the count. */
    int (*expand)(const void *inst, const void *state, uint64_t allowed, void *children,
                  uint8_t *moves);
    /* Apply move m in place: 1 when legal (state changed), 0 when illegal
     * here (state unchanged). */
    int (*apply)(const void *inst, void *state, int move);

    /* ---- goal ---- */
    void (*goal)(const void *inst, void *state); /* the goal state */
    /* Optional: 1 at a goal. NULL: the state equals goal(). */
    int (*is_goal)(const void *inst, const void *state);

    /* ---- network encoding ---- */
    /* The active inputs of `state` into active[0..n) (distinct, any order);
     * returns n <= max_active. */
    int (*encode)(const void *inst, const void *state, int32_t *active);
    /* Optional: the inputs move m turns off (active before) and on (active
     * after) from `state` (before the move): *noff and *non <= max_delta.
     * Returns 0, or -1 when the move is illegal (outputs unset). NULL: the
     * core diffs the two encodings. */
    int (*encode_delta)(const void *inst, const void *state, int move, int32_t *off, int *noff,
                        int32_t *on, int *non);

    /* ---- random states ---- */
    /* Optional (has_uniform): a uniformly random solvable state. 0 or a
     * status. Random walks from the goal are the core's (apply + pruning). */
    int (*random_state)(const void *inst, void *state, dom_rng *rng);

    /* ---- text ---- */
    /* Parse one state line (no newline; leading and trailing blanks
     * allowed) into a canonical state: 0, or DOM_ERR_FORMAT /
     * DOM_ERR_UNSOLVABLE through host->fail with a message saying what is
     * wrong (the host adds file and line). */
    int (*parse_state)(const void *inst, const char *text, void *state);
    /* The state as text that parse_state reads back, NUL-terminated into
     * buf (truncated to cap). Returns the length it needed. Any bytes must
     * be safe here, not only states: the host checks a caller's states
     * (solve/dom_batch.h) by formatting them and parsing the text back, so
     * bytes that are no state must give text that parse_state refuses. */
    int (*format_state)(const void *inst, const void *state, char *buf, size_t cap);
    /* Optional: parse a move sequence into moves[0..n) (at most cap),
     * returning n or a status through host->fail. For notations beyond
     * the move names (a cube's "R2"). NULL: the core reads move names
     * separated by move_sep (and blanks). */
    int (*parse_moves)(const void *inst, const char *text, uint8_t *moves, int cap);

    /* ---- admissible heuristics by name (optional) ---- */
    /* A heuristic named in facts->heuristics; NULL with host->fail for an
     * unknown name. May build tables (host->cache_dir) and take time. */
    void *(*heur_open)(const void *inst, const char *name);
    /* A lower bound on the cost from `state` to the goal, >= 0 (0 at the
     * goal). Thread-safe. A negative value is a defect: the host counts it
     * as 0, warns once and `heurnet domain check` fails; values above
     * 1000000 (INT_MAX included) count as 1000000. */
    int (*heur_eval)(const void *heur, const void *state);
    void (*heur_free)(void *heur);

    /* ---- patterns for the core's pattern databases (optional) ---- */
    /* Fill *out for a pattern named in facts->patterns: 0 or a status. */
    int (*pattern_open)(const void *inst, const char *name, dom_pattern *out);

    /* ---- grown after version 1 (optional; absent when struct_size ends
     * before it) ---- */
    /* An admissible estimate of the cost from state a to state b (both
     * canonical; 0 when they are equal). It lets the core search between
     * two states of a path: window shortcuts by IDA* (heurnet solve
     * --shortcut W:N:ida). Thread-safe. */
    int (*between)(const void *inst, const void *a, const void *b);
    /* Maps that keep a state's cost to the goal (the cube's inverse, a
     * square board's mirror image): symmetric(inst, state, k, out) writes
     * map k (1..facts->symmetries - 1) of `state`, canonical. The core can
     * average a network over them (heuristic setting sym:K). Thread-safe. */
    void (*symmetric)(const void *inst, const void *state, uint32_t k, void *out);
    /* For domains whose states form a group with the goal as its identity
     * and moves acting on the right (the cube): relative(inst, a, b, out)
     * writes the state r = b^-1 a, from which the moves that lead a to b
     * lead to the goal. The cost from a to b is then r's cost to the goal,
     * so the core bounds it by an admissible heuristic of r: window
     * shortcuts by IDA* with pattern databases (heurnet solve --shortcut
     * W:N:ida --admissible H). Thread-safe. */
    void (*relative)(const void *inst, const void *a, const void *b, void *out);
    /* For symmetric maps that are involutions (map k of map k of a state is
     * the state): rewrite in place moves[0..n), a path from a state x to
     * the goal, into one from map k of x to the goal (the cube's inverse:
     * reversed and each move inverted; a mirrored board: moves mirrored).
     * A search may then solve a map of its start and bring the path back
     * (beam --variants). Thread-safe. */
    void (*symmetric_path)(const void *inst, uint32_t k, uint8_t *moves, int n);
    /* An incremental update of a heuristic (IDA* calls it once per child,
     * in place of heur_eval): the value after move m from `state` (before
     * the move), given h, the value of `state` itself; -1 when m is illegal
     * from `state` (then apply would return 0). It must equal heur_eval of
     * the child exactly: searches count the same nodes with it or without.
     * For a heuristic it does not update (a pattern database looked up
     * whole), return DOM_HEUR_NO_DELTA on every call: the host asks once,
     * when the heuristic opens, from the goal by move 0, and then evaluates
     * that heuristic's children with heur_eval. Manhattan distance is the
     * model: only the moved tile's term changes. Thread-safe. */
    int (*heur_delta)(const void *heur, const void *state, int move, int h);
    /* For states a network of another encoding can read through a renaming
     * of inputs that keeps every cost to the goal (a blank-first model on
     * blank-last boards: the 180-degree turn, tile t renamed N - t): write
     * into map[0..facts->inputs) the other encoding's input that each of
     * this domain's inputs stands for, and return 0; -1 when `encoding`
     * cannot be read so. Also each move's image must be a move, so that a
     * network's incremental first layer stays exact. */
    int (*encode_as)(const void *inst, const char *encoding, int32_t *map);
    /* A heuristic toward state b (optional, with `between`): a handle of
     * heur_eval, heur_delta and heur_free whose value of a state a is
     * between(inst, a, b), so IDA* from a to b (window shortcuts) updates
     * it per move instead of evaluating every child whole. NULL when out of
     * memory (the reason through the host's fail). Thread-safe. */
    void *(*between_open)(const void *inst, const void *b);
} dom_def;

/* heur_delta's answer for a heuristic without an incremental update. */
#define DOM_HEUR_NO_DELTA (-2)

/* What a plug-in exports (C linkage, default visibility): its definitions
 * by index 0, 1, ... and NULL after the last. */
typedef const dom_def *(*dom_entry_fn)(uint32_t index);
#define DOM_ENTRY_SYMBOL "heurnet_domain_entry"

#ifdef __cplusplus
}
#endif

#endif
