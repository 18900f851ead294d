/* search: the n-puzzle domain (boards, moves, instance files, heuristics
 * including additive pattern databases) and optimal search on it (IDA*, A*).
 * One public header for the module; the edge-matching part (srch_em_)
 * has its own, search/emp/emp.h. */
#ifndef SRCH_H
#define SRCH_H

#include <stddef.h>
#include <stdint.h>

#include "common/hn.h"

HEURNET_API_BEGIN

/* ======================================================================
 * n-puzzle domain
 * ==================================================================== */

#define SRCH_NP_MIN_WIDTH 3
#define SRCH_NP_MAX_WIDTH 5
#define SRCH_NP_MAX_CELLS 25
/* Longest move sequence a search result or a random walk can hold. */
#define SRCH_NP_MAX_PATH 1000

/* Goal layouts. BLANK_FIRST is Korf's `0 1 2 .. N-1` (blank top-left, the
 * default); BLANK_LAST is `1 2 .. N-1 0` (blank bottom-right). */
enum srch_np_goal { SRCH_NP_GOAL_BLANK_FIRST = 0, SRCH_NP_GOAL_BLANK_LAST = 1 };

/* Moves name the direction the BLANK moves (letters U D L R). */
enum srch_np_dir { SRCH_NP_UP = 0, SRCH_NP_DOWN = 1, SRCH_NP_LEFT = 2, SRCH_NP_RIGHT = 3 };

/* A board is a small value type (copy it freely, keep arrays of it). The
 * fields are readable; change a board only through the functions below so
 * `pos` and `blank` stay consistent with `tile`. Cells are row-major. */
typedef struct srch_np_board {
    uint8_t width;                   /* 3, 4 or 5 */
    uint8_t ncells;                  /* width * width */
    uint8_t blank;                   /* cell holding the blank (tile 0) */
    uint8_t tile[SRCH_NP_MAX_CELLS]; /* tile[cell], 0 = blank */
    uint8_t pos[SRCH_NP_MAX_CELLS];  /* pos[tile] = cell */
} srch_np_board;

/* "blank-first" / "blank-last"; NULL for an unknown value. */
const char *srch_np_goal_name(int goal);
/* Parse "blank-first" / "blank-last" into *goal. 0 or HN_ERR_ARG. */
int srch_np_goal_parse(const char *s, int *goal);
/* Board width of an "8" / "15" / "24" puzzle name (3, 4, 5), or 0. */
int srch_np_puzzle_width(long puzzle);

/* Fill *b from `tiles` (width*width values, row-major). Returns 0, or
 * HN_ERR_FORMAT with a message (tile out of range, duplicate tile); it does
 * not check solvability (see srch_np_board_solvable). */
int srch_np_board_set(srch_np_board *b, int width, const uint8_t *tiles);
/* The goal board of the layout. Returns 0 or HN_ERR_ARG. */
int srch_np_board_goal(srch_np_board *b, int width, int goal);
int srch_np_board_is_goal(const srch_np_board *b, int goal);
/* 1 if the goal layout is reachable from *b (permutation parity). For the
 * 15-puzzle the two layouts lie in different parity classes, so a board
 * solvable for one is unsolvable for the other; 8 and 24 share the class. */
int srch_np_board_solvable(const srch_np_board *b, int goal);
int srch_np_board_equal(const srch_np_board *a, const srch_np_board *b);
/* The mirror image across the main diagonal, tiles renamed so that it has
 * exactly the distance of *b to the `goal` layout (a symmetry of the puzzle). */
void srch_np_board_transpose(const srch_np_board *b, int goal, srch_np_board *out);

/* 1 if the blank can move in direction `dir`. */
int srch_np_board_can_move(const srch_np_board *b, int dir);
/* Move the blank in place; returns the tile that moved (1..), or -1 (board
 * unchanged) when the move leaves the board. Undo = move the opposite way. */
int srch_np_board_move(srch_np_board *b, int dir);
/* The opposite direction (U<->D, L<->R). */
int srch_np_dir_opposite(int dir);
/* 'U', 'D', 'L', 'R'; srch_np_dir_parse returns the direction or -1. */
char srch_np_dir_letter(int dir);
int srch_np_dir_parse(char c);
/* Apply a move string ("UDLR" letters) in place. 0, or HN_ERR_ARG with a
 * message naming the first illegal letter/move (board then undefined). */
int srch_np_board_apply(srch_np_board *b, const char *moves);

/* Convert between goal layouts: the 180-degree rotation with relabelling
 * t -> N - t (N = cells), see docs/formats.md
 * and instances/SOURCES.md. Optimal distances and
 * solvability are preserved; a blank move `d` on one side is the opposite
 * move on the other. `out` may alias `in`. */
void srch_np_board_convert(const srch_np_board *in, srch_np_board *out);

/* Uniform random board among those solvable for `goal`. */
void srch_np_board_random(srch_np_board *b, int width, int goal, hn_rng *rng);
/* Random walk of `steps` blank moves from the goal, never undoing the
 * previous move; the true distance is <= steps (and has its parity). */
void srch_np_board_random_walk(srch_np_board *b, int width, int goal, int steps, hn_rng *rng);
/* The same walk, but from *b as it is (the first move may go anywhere). */
void srch_np_board_walk_on(srch_np_board *b, int steps, hn_rng *rng);

/* Perfect hash of the whole board (rank of the permutation of all cells,
 * lexicographic): 0 .. ncells!-1. Only for width <= 4 (fits 64 bits). */
uint64_t srch_np_board_rank(const srch_np_board *b);
/* Inverse of srch_np_board_rank. Returns 0 or HN_ERR_ARG (rank or width out
 * of range). The result may be unsolvable; test with srch_np_board_solvable. */
int srch_np_board_unrank(srch_np_board *b, int width, uint64_t rank);

/* Tiles as "t0 t1 .. tn" into buf (NUL-terminated, truncated to cap).
 * Returns the length it needed. */
int srch_np_board_format(const srch_np_board *b, char *buf, size_t cap);
/* Moves as "UDLR" letters into buf (NUL-terminated). Returns the length needed. */
int srch_np_moves_format(const uint8_t *moves, int n, char *buf, size_t cap);

/* ---- instance files -------------------------------------------------- */

/* One line of an instance file: `[id [optimal]] t0 .. tn`, `#` comments. */
typedef struct srch_np_instance {
    char id[32]; /* the id given in the file, else the 1-based instance number */
    int optimal; /* known optimal length, or -1 */
    int line;    /* 1-based line in the file */
    srch_np_board board;
} srch_np_instance;

/* Called once per bad line with a message "FILE:LINE: what is wrong". */
typedef void (*srch_np_parse_err_fn)(const char *msg, void *user);

/* Parse one line (already without its newline). Returns 1 and fills *out
 * for an instance, 0 for a blank/comment line, or a negative status with a
 * message (no file/line prefix): HN_ERR_FORMAT (wrong count, not a number,
 * tile out of range, duplicate tile) or HN_ERR_UNSOLVABLE (parity, for `goal`). */
int srch_np_parse_line(const char *line, int width, int goal, srch_np_instance *out);

/* Read every instance of `path`. Every bad line is reported through `err`
 * (may be NULL); parsing continues so all bad lines are listed. Returns 0 with
 * *out (malloc'd, caller frees with free()) and *n, or a negative status
 * (HN_ERR_IO; HN_ERR_FORMAT / HN_ERR_UNSOLVABLE when any line was bad; then
 * *out is NULL) with hn_errmsg naming the file and the number of bad lines. */
int srch_np_parse_file(const char *path, int width, int goal, srch_np_parse_err_fn err, void *user,
                       srch_np_instance **out, size_t *n);

/* ======================================================================
 * Pattern databases (additive, disjoint, blank-aware)
 *
 * Tables are always for the BLANK_FIRST goal; boards of the BLANK_LAST
 * layout are looked up through srch_np_board_convert (distances are equal),
 * so one file serves both layouts. Built by dg_pdb_build (datagen/dg.h).
 * ==================================================================== */

#define SRCH_NP_MAX_PATTERNS 8

/* A partition of the tiles 1..N-1 into disjoint patterns. */
typedef struct srch_np_partition {
    char name[32]; /* "7-8", "6-6-3", "5-5-5", "6-6-6-6", "8" */
    int width;
    int npatterns;
    int size[SRCH_NP_MAX_PATTERNS]; /* tiles per pattern */
    uint8_t tiles[SRCH_NP_MAX_PATTERNS][SRCH_NP_MAX_CELLS];
} srch_np_partition;

/* The standard partitions by name (for the blank-first goal):
 *   width 3: "8"       the exact table (all 8 tiles in one pattern)
 *   width 4: "7-8", "6-6-3", "5-5-5" (Korf & Felner tile groups)
 *   width 5: "6-6-6-6"
 * Returns 0 or HN_ERR_ARG with a message listing the names for that width. */
int srch_np_partition_get(const char *name, int width, srch_np_partition *out);

typedef struct srch_np_pdb srch_np_pdb;

/* Placements of a k-tile pattern on N cells: N! / (N-k)! entries, indexed by
 * srch_np_pdb_rank. One byte per entry: the fewest pattern-tile moves to
 * bring the pattern home, over all blank positions; 255 = unreached. */
uint64_t srch_np_pdb_entries(int ncells, int k);
/* Perfect hash of a placement: cells[i] = cell of the pattern's i-th tile.
 * k-permutation rank, mixed radix N, N-1, .., N-k+1 (first tile most
 * significant), digit i = cells[i] minus the number of earlier tiles on
 * smaller cells. srch_np_pdb_unrank is its inverse. */
uint64_t srch_np_pdb_rank(const uint8_t *cells, int k, int ncells);
void srch_np_pdb_unrank(uint64_t rank, int k, int ncells, uint8_t *cells);

/* Empty (all 255) tables for `part`. NULL on allocation failure (*status). */
srch_np_pdb *srch_np_pdb_new(const srch_np_partition *part, int *status);
void srch_np_pdb_free(srch_np_pdb *p);
const srch_np_partition *srch_np_pdb_partition(const srch_np_pdb *p);
/* Writable table of pattern i (for builders); *entries gets its length. */
uint8_t *srch_np_pdb_table(srch_np_pdb *p, int i, uint64_t *entries);

/* Sum over the patterns for a BLANK_FIRST board (no reflection). */
int srch_np_pdb_lookup(const srch_np_pdb *p, const srch_np_board *b);

/* File: zlib-compressed tables after a header recording the puzzle, the
 * partition (name and tiles), the goal layout and a CRC-32 of the raw
 * tables. Save writes PATH.part and renames it. Load checks everything and
 * fails with HN_ERR_FORMAT naming the file and what is wrong (bad magic,
 * truncated, checksum mismatch, partition differs from `expect` when given). */
int srch_np_pdb_save(const srch_np_pdb *p, const char *path);
/* The same file with the tables stored uncompressed (magic HNPDBRAW; 576 MB
 * for the 15-puzzle 7-8): srch_np_pdb_load reads it without inflating, at
 * page-cache speed, so processes that share a machine load one PDB fast.
 * Written to PATH.<pid>.part and renamed, so several processes may write the
 * same file at once. 0 or HN_ERR_IO. Load reads both kinds. */
int srch_np_pdb_save_raw(const srch_np_pdb *p, const char *path);
srch_np_pdb *srch_np_pdb_load(const char *path, const srch_np_partition *expect, int *status);
/* Canonical cache file name "npuzzle<N>-<partition>.pdb" (e.g.
 * "npuzzle15-7-8.pdb"). Returns the length needed. */
int srch_np_pdb_file_name(const srch_np_partition *part, char *buf, size_t cap);

/* ======================================================================
 * Heuristics: one interface for built-in and plugged-in estimators
 * ==================================================================== */

typedef struct srch_np_heur srch_np_heur;

/* What a heuristic implements. `eval` is required; the rest is optional.
 * Searches call `eval_batch` for all children of an expansion when present
 * (A*), and the incremental pair in IDA* when present (otherwise eval). */
typedef struct srch_np_heur_ops {
    const char *name;
    /* Estimate for one board (in the heuristic's goal layout); >= 0. */
    int (*eval)(void *self, const srch_np_board *b);
    /* Estimates for n boards into out[n]; returns 0 or a negative status. */
    int (*eval_batch)(void *self, const srch_np_board *b, size_t n, int *out);
    /* Incremental evaluation: `state_size` bytes per search depth level.
     * inc_init fills `state` for board b and returns h(b). inc_move gets the
     * board AFTER tile `tile` moved from cell `from` to cell `to`, the parent's
     * state, writes the child's, and returns h(child). The search only needs
     * to know whether h(child) > `bound`: once that is certain, inc_move may
     * return any value > bound early (child_state is then not used). */
    size_t state_size;
    int (*inc_init)(void *self, const srch_np_board *b, void *state);
    int (*inc_move)(void *self, const srch_np_board *after, int tile, int from, int to,
                    const void *parent_state, void *child_state, int bound);
    /* Release `self` (called by srch_np_heur_free; may be NULL). */
    void (*destroy)(void *self);
} srch_np_heur_ops;

/* Built-in heuristics for a width and goal layout. NULL on allocation
 * failure or bad argument (*status, may be NULL). Read-only after creation:
 * one object may be shared by several threads. */
srch_np_heur *srch_np_heur_manhattan_new(int width, int goal, int *status);
/* Manhattan + linear conflict (rows and columns). */
srch_np_heur *srch_np_heur_lc_new(int width, int goal, int *status);
/* Additive PDB lookup; with `reflect` also the lookup of the board mirrored
 * on the main diagonal, taking the max. Incremental (only the moved tile's
 * pattern is re-ranked). Borrows `pdb` (must outlive the heuristic) unless
 * `own` is nonzero, then frees it. `goal` may be either layout. */
srch_np_heur *srch_np_heur_pdb_new(srch_np_pdb *pdb, int goal, int reflect, int own, int *status);
/* Max of n heuristics of the same width and goal; takes ownership of parts
 * (also on failure). */
srch_np_heur *srch_np_heur_max_new(srch_np_heur **parts, int n, int *status);
/* Wrap a user implementation (e.g. a neural network): ops is copied, self is
 * passed back to each call and released by ops->destroy. A heuristic with
 * per-call scratch state should be created once per thread. */
srch_np_heur *srch_np_heur_custom_new(const srch_np_heur_ops *ops, void *self, int width, int goal,
                                      int *status);
void srch_np_heur_free(srch_np_heur *h);

int srch_np_heur_eval(const srch_np_heur *h, const srch_np_board *b);
/* Batch evaluation (falls back to eval per board). 0 or negative status. */
int srch_np_heur_eval_batch(const srch_np_heur *h, const srch_np_board *b, size_t n, int *out);
const char *srch_np_heur_name(const srch_np_heur *h);
int srch_np_heur_width(const srch_np_heur *h);
int srch_np_heur_goal(const srch_np_heur *h);
/* Nonzero if the heuristic has the incremental pair / a batch function. */
int srch_np_heur_incremental(const srch_np_heur *h);
int srch_np_heur_batched(const srch_np_heur *h);

/* ======================================================================
 * Optimal search
 * ==================================================================== */

/* Limits per search; 0 = none. */
typedef struct srch_limits {
    uint64_t max_expanded;
    double time_limit;  /* seconds of wall time */
    uint64_t max_nodes; /* A*: nodes stored (memory) */
} srch_limits;

typedef struct srch_np_result {
    int status;          /* 0 solved, HN_ERR_LIMIT, HN_ERR_INTERRUPTED, ... */
    int length;          /* solution length, -1 when not solved */
    int h0;              /* heuristic of the start board */
    uint64_t expanded;   /* nodes whose children were generated */
    uint64_t generated;  /* children generated */
    uint64_t heur_calls; /* boards evaluated by the heuristic */
    uint64_t batches;    /* eval_batch calls */
    uint64_t stored;     /* A*: peak nodes stored; IDA*: iterations */
    double seconds;
    int nmoves;
    uint8_t moves[SRCH_NP_MAX_PATH]; /* blank moves (enum srch_np_dir) start -> goal */
    int phases;                      /* anytime A*: phases run to their end */
    int proven; /* anytime A*: 1 when an admissible last phase proved the length optimal */
    int saved;  /* moves the shortcut pass removed from the solutions found (srch_np_shortcut) */
} srch_np_result;

/* IDA* from `start` to the goal layout of `h`: depth-first with an f bound,
 * no move back to the parent, incremental heuristic, nothing allocated per
 * node. Optimal when h is admissible. Returns res->status (0 when solved);
 * HN_ERR_UNSOLVABLE when start cannot reach the goal, HN_ERR_ARG on a width
 * mismatch. */
int srch_np_idastar(const srch_np_board *start, const srch_np_heur *h, const srch_limits *lim,
                    srch_np_result *res);
/* A*: node pool, closed list as a hash table, ties on f broken toward larger
 * g; children of an expansion evaluated with one eval_batch call. Optimal
 * when h is consistent (re-opens nodes otherwise, still optimal when
 * admissible). Same returns as srch_np_idastar, plus HN_ERR_NOMEM. */
int srch_np_astar(const srch_np_board *start, const srch_np_heur *h, const srch_limits *lim,
                  srch_np_result *res);

HEURNET_API_END

#endif
