/* domains/dom.h: the host side of the domain interface. dom_open turns a
 * spec ("npuzzle:6x6", "cube3", "./libpancake.so:12") into an open domain
 * whose calls the search, data and learning code make; built-in domains are
 * listed here, plug-ins are loaded with dlopen and checked (ABI version,
 * struct size, required entries). The calls add what every domain shares:
 * the pruning automaton, hashing, walks, move text, instance files.
 *
 * An open domain is read-only and may be used by several threads at once.
 * Nothing prints; errors as in common/hn.h. */
#ifndef DOM_H
#define DOM_H

#include <stddef.h>
#include <stdint.h>

#include "common/hn.h"
#include "domains/domain.h"

HEURNET_API_BEGIN

typedef struct dom dom;

/* Open a domain: "NAME[:ARGS]" for a built-in one, or "PATH.so[@NAME][:ARGS]"
 * for a plug-in (PATH holds a '/'; @NAME picks one of several domains the
 * object exports, else its first). NULL on error (*status: HN_ERR_ARG for an
 * unknown name or bad arguments, HN_ERR_FORMAT for a plug-in of another ABI
 * or a missing entry, HN_ERR_IO when the object cannot be loaded), with a
 * message naming the spec. The caller frees with dom_free. */
dom *dom_open(const char *spec, int *status);
void dom_free(dom *d);
/* Open a domain from a definition the caller holds (a test's or a program's
 * own domain, neither built in nor a plug-in): args as after "NAME:" ("" or
 * NULL for none). The definition must outlive the domain. NULL on error
 * (*status) as dom_open. */
dom *dom_open_def(const dom_def *def, const char *args, int *status);
/* Make def openable by name, "NAME[:ARGS]" in dom_open as a built-in domain
 * (a program's own domain, e.g. one written in Python, then runs through
 * every call that takes a domain's spec); a definition of the same name
 * replaces the one registered before, a built-in name is refused. def
 * must stay valid until dom_unregister_def and the domains opened from it
 * are freed. 0, or HN_ERR_ARG (a built-in name, the table full). */
int dom_register_def(const dom_def *def);
void dom_unregister_def(const dom_def *def);

/* The built-in domain definitions by index 0.., NULL past the last. */
const dom_def *dom_builtin(int index);

const dom_facts *dom_facts_of(const dom *d);
const dom_def *dom_def_of(const dom *d);
const void *dom_instance(const dom *d);
/* What models and datasets record: the domain's canonical string
 * ("npuzzle:6x6", "pancake:12"); for a plug-in without its path, so the
 * object may move. */
const char *dom_spec(const dom *d);
/* The domain's own canonical string (facts->canonical). */
const char *dom_canonical(const dom *d);
size_t dom_state_bytes(const dom *d);
int dom_nmoves(const dom *d);
/* Cost of move m (1 for unit-cost domains). */
int dom_move_cost(const dom *d, int m);
/* 1 when every move costs 1. */
int dom_unit_cost(const dom *d);
/* 1 when every move has an inverse (an undirected graph: a distance from
 * the goal is a distance to it). */
int dom_reversible(const dom *d);

/* ---- moves and the pruning automaton ---- */

/* Automaton state at a search's root. */
#define DOM_PRUNE_ROOT 0
/* Next automaton state after move m from q, or DOM_PRUNED. */
int dom_prune_next(const dom *d, int q, int m);
/* Bit m set when move m is allowed from automaton state q. */
uint64_t dom_allowed(const dom *d, int q);
/* The children of `state` allowed from automaton state q (domain's expand):
 * states back to back, moves[i], and each child's automaton state in cq[i]
 * (cq may be NULL). Buffers hold dom_nmoves entries. Returns the count. */
int dom_expand(const dom *d, const void *state, int q, void *children, uint8_t *moves, uint8_t *cq);
/* Apply move m in place: 1 when legal, 0 (state unchanged) when not. */
int dom_apply(const dom *d, void *state, int m);
/* The inverse of m, or -1. */
int dom_inverse(const dom *d, int m);

/* ---- states ---- */

void dom_goal(const dom *d, void *state);
int dom_is_goal(const dom *d, const void *state);
/* 1 when the domain estimates the cost between two states (dom_def's
 * `between`); dom_between is then that admissible estimate, else 0. */
int dom_has_between(const dom *d);
int dom_between(const dom *d, const void *a, const void *b);
/* 1 when the domain maps two states to one whose cost to the goal is the
 * cost between them (dom_def's `relative`); dom_relative then writes it
 * (the moves from a to b lead from it to the goal), else copies a. */
int dom_has_relative(const dom *d);
void dom_relative(const dom *d, const void *a, const void *b, void *out);
/* How many maps keep a state's cost to the goal (dom_def's `symmetries`,
 * the identity counted; 1 when none), and map k of `state` into out (k 0
 * or out of range: a copy). */
int dom_symmetries(const dom *d);
void dom_symmetric(const dom *d, const void *state, int k, void *out);
/* 1 when the domain maps paths along its symmetric maps (dom_def's
 * `symmetric_path`); dom_symmetric_path then turns moves[0..n), a path
 * from x to the goal, into one from map k of x (k 0: unchanged). */
int dom_has_symmetric_path(const dom *d);
void dom_symmetric_path(const dom *d, int k, uint8_t *moves, int n);
/* 64-bit hash of the state bytes (the same for equal states). */
uint64_t dom_hash(const dom *d, const void *state);

/* From `state` as it is, `steps` random legal moves that the pruning
 * automaton allows (so a walk never undoes its last move). Returns the
 * moves made (fewer only when a state has no allowed move). */
int dom_walk(const dom *d, void *state, int steps, hn_rng *rng);
/* A uniformly random state: 0, or HN_ERR_UNSUPPORTED when the domain
 * cannot draw one (facts->has_uniform == 0). */
int dom_random_state(const dom *d, void *state, hn_rng *rng);

/* ---- network encoding ---- */

/* Active inputs of state into active[DOM_MAX_ACTIVE]; returns the count. */
int dom_encode(const dom *d, const void *state, int32_t *active);
/* 1 when a network of `encoding` (not the domain's own) reads this
 * domain's states through a renaming of inputs (dom_def's encode_as), with
 * map[0..inputs) filled: the other encoding's input for each of ours. */
int dom_encode_as(const dom *d, const char *encoding, int32_t *map);
/* Inputs move m turns off and on from `state` (before the move), by the
 * domain's encode_delta or, without one, by diffing the two encodings.
 * Buffers hold DOM_MAX_ACTIVE entries. 0, or HN_ERR_ARG for an illegal move. */
int dom_encode_delta(const dom *d, const void *state, int m, int32_t *off, int *noff, int32_t *on,
                     int *non);

/* ---- text ---- */

/* Parse a state line: 0 or a status with hn_errmsg saying what is wrong. */
int dom_parse_state(const dom *d, const char *text, void *state);
/* Format a state (snprintf-like: returns the length needed). */
int dom_format_state(const dom *d, const void *state, char *buf, size_t cap);
/* Parse a move sequence (names joined by move_sep or blanks, or the
 * domain's own notation): the count (<= cap) or a status. */
int dom_parse_moves(const dom *d, const char *text, uint8_t *moves, int cap);
/* Move names joined by move_sep (snprintf-like). */
int dom_format_moves(const dom *d, const uint8_t *moves, int n, char *buf, size_t cap);
/* Replay moves from start: 1 when every move is legal and the last state is
 * a goal, 0 when legal but not at a goal, HN_ERR_ARG (message naming the
 * move's index) at an illegal move. */
int dom_replay(const dom *d, const void *start, const uint8_t *moves, int n);

/* ---- instance files ---- */

/* One instance: `[id [length]] STATE`, '#' starts a comment line. The
 * length (when given) is a known optimum or a reference, as the file's
 * header says; -1 when absent. */
typedef struct dom_instance_rec {
    char id[32];
    int length;
    int line;
    uint8_t state[DOM_MAX_STATE_BYTES];
} dom_instance_rec;

/* Parse one line: 1 with *out, 0 for a blank or comment line, or a status
 * with hn_errmsg (no file prefix). */
int dom_parse_instance(const dom *d, const char *line, dom_instance_rec *out);
/* Every instance of a file; each bad line through err ("FILE:LINE: what"),
 * then a status naming the file and the count of bad lines. *out is
 * malloc'd (caller frees). */
int dom_read_instances(const dom *d, const char *path, void (*err)(const char *msg, void *user),
                       void *user, dom_instance_rec **out, size_t *n);

/* ---- admissible heuristics ---- */

/* The cache folder for tables ($HEURNET_DATA, else ~/.cache/heurnet) into
 * buf, created when missing: 0 or a status (HN_ERR_ARG without either
 * variable or for a path past cap, HN_ERR_IO when it cannot be created). */
int dom_cache_dir(char *buf, size_t cap);

typedef struct dom_heur dom_heur;
/* A heuristic by name: one of the domain's own (facts->heuristics),
 * "pdb:PATTERN" (a pattern database over one of facts->patterns, built by
 * breadth-first search and kept in the cache folder), "max:A,B,..." of
 * those, or "zero". NULL on error (*status) naming the heuristic. */
dom_heur *dom_heur_open(const dom *d, const char *name, int *status);
/* A heuristic toward state b whose value of a state a is dom_between(d,
 * a, b), updated per move by dom_heur_delta when the domain offers it
 * (dom_def's between_open; free with dom_heur_free); NULL with *status 0
 * when the domain has no such handle, else with the status. */
dom_heur *dom_between_heur(const dom *d, const void *b, int *status);
void dom_heur_free(dom_heur *h);
int dom_heur_eval(const dom_heur *h, const void *state);
/* dom_heur_eval of n states `stride` bytes apart into out[0..n): the same
 * values, a pattern database's table reads overlapped (prefetched a chunk
 * at a time), which is most of a lookup's cost for a table far larger than
 * the caches. */
void dom_heur_eval_many(const dom_heur *h, const void *states, size_t n, size_t stride, int *out);
const char *dom_heur_name(const dom_heur *h);

/* The pattern database of `pattern` (built or loaded from the cache): one
 * byte per abstract state, 255 unreached. The table is owned by the
 * returned heuristic. */
const uint8_t *dom_heur_pdb_table(const dom_heur *h, uint64_t *entries);

/* One table of a pattern-database heuristic, as its file names it. */
typedef struct dom_pdb_table {
    const uint8_t *table; /* entries bytes, 255 unreached; the heuristic's */
    uint64_t entries;
    char domain[128]; /* the file header's names (docs/formats.md) */
    char name[64];
    char file[192]; /* its name in the cache folder */
    char what[200]; /* "pattern=corners", "tiles=1,2,3" */
} dom_pdb_table;

/* The tables behind h: a core pdb:PATTERN's one, an n-puzzle pdb:P's one
 * per tile group, those of every part of max:...; at most cap into out.
 * The count (0 for heuristics without tables). */
int dom_heur_pdb_tables(const dom_heur *h, dom_pdb_table *out, int cap);

/* Copies of h's tables, in the one file format, into the folder dir
 * (created when missing) under their cache names: a folder a later
 * process reads as its cache ($HEURNET_DATA=dir). 0 or a status. */
int dom_heur_pdb_save(const dom_heur *h, const char *dir);

/* A pattern-database file of the cache folder (docs/formats.md), as
 * `heurnet pdb info` shows it: a core pattern table or an n-puzzle tile
 * group's table, both in the one format. */
typedef struct dom_pdb_file_info {
    char format[9];   /* the magic */
    char domain[128]; /* the canonical domain it serves */
    char table[256];  /* the pattern's name, or the blank's and the group's goal cells */
    uint64_t entries;
    uint64_t reached; /* entries below 255 */
    uint64_t sum;     /* of the reached entries */
    int max;          /* the largest reached entry */
} dom_pdb_file_info;

/* Read and check a file (header, length, CRC-32 of the table) into *out.
 * 0, or HN_ERR_IO / HN_ERR_FORMAT with a message naming the file and what
 * is wrong. */
int dom_pdb_file_read(const char *path, dom_pdb_file_info *out);

/* Threads the table builds started from now on may use (the core's
 * pattern databases and the built-in domains' own, through the host
 * table): 1..64, or 0 for the default, one per core up to 8. */
void dom_set_build_threads(int n);
/* The count builds use now (>= 1). */
int dom_build_threads(void);

/* Values above this count as this (a domain's INT_MAX included): scaled by
 * up to 1000 they stay within an int. */
#define DOM_HEUR_MAX 1000000

/* 1 when h is one of the domain's own heuristics that its heur_delta
 * updates move by move (domain.h). */
int dom_heur_has_delta(const dom_heur *h);
/* The value of h after move m from `state`, given hv = dom_heur_eval(h,
 * state): -1 when m is illegal there. By the domain's heur_delta when
 * dom_heur_has_delta (the same value, without evaluating the child), else
 * by applying m to a copy and evaluating it. */
int dom_heur_delta(const dom_heur *h, const void *state, int m, int hv);
/* The domain's own handle of h (what its heur_open returned) when h is one
 * of the domain's own heuristics, else NULL: for code specialised to one
 * built-in domain, which knows what the handle is. */
const void *dom_heur_handle(const dom_heur *h);

/* The negative values the domain's own heuristics in h returned so far
 * (each counted as 0 by dom_heur_eval), the first into *first when any. */
uint64_t dom_heur_negatives(const dom_heur *h, int *first);

/* ---- conformance (heurnet domain check) ---- */

typedef struct dom_check_opts {
    uint64_t seed;
    int walks;              /* random walks from the goal [200] */
    int max_len;            /* each of 1..max_len moves [60] */
    int bfs_depth;          /* heuristics against BFS distances up to this depth [8] */
    size_t bfs_states;      /* at most this many states (0: no heuristic check) [200000] */
    const char *heuristics; /* comma-separated names to check; NULL: the domain's list */
} dom_check_opts;

extern const dom_check_opts DOM_CHECK_OPTS_DEFAULTS;

typedef struct dom_check_report {
    uint64_t states, moves, heur_checks, bfs_states;
    uint64_t delta_checks; /* incremental updates compared with the child's value */
    uint64_t failures;
    char first[1024]; /* the first failure, "" when none */
    /* checks that could not run (out of memory), "; "-separated, "" when
     * none: dom_check's caller must not read the report as a pass then */
    char skipped[512];
} dom_check_report;

/* Check a domain over random walks: a move then its inverse restores the
 * state, expand agrees with apply, the encoding is in range and its delta
 * agrees with re-encoding, parse(format(s)) == s and move text round-trips,
 * the inverse walk replays to the goal, uniform states (when drawn) pass the
 * same checks, the domain's heuristics never exceed breadth-first
 * distances, and their incremental updates (heur_delta) equal the
 * children's values along random walks. Fills *r; returns 0 (failures are
 * in r) or a status. */
int dom_check(const dom *d, const dom_check_opts *o, dom_check_report *r);

HEURNET_API_END

#endif
