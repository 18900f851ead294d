/* domains/npuzzle/ internals: the sliding-tile puzzle on any board from 2x2
 * to 8x8, squares and rectangles, as one instance object shared by the
 * move, text, heuristic and pattern-database files of this folder.
 *
 * A state is W*H bytes (the tile on each cell, row-major, 0 = blank) and
 * then the blank's cell, so moves never scan for the blank. Moves name
 * the direction the blank goes (U D L R), as search/npuzzle/ does. */
#ifndef DOM_NPUZZLE_H
#define DOM_NPUZZLE_H

#include <stddef.h>
#include <stdint.h>

#include "domains/domain.h"
#include "domains/npuzzle/npuzzle_fast.h"

#if defined(__BMI2__)
#include <immintrin.h>
#endif

#define NP_MIN_SIDE 2
#define NP_MAX_SIDE 8
#define NP_MAX_CELLS (NP_MAX_SIDE * NP_MAX_SIDE)
#define NP_MAX_GROUPS 32 /* pattern databases in one additive set */
#define NP_MAX_K 8       /* tiles in one pattern database */

enum np_move { NP_UP = 0, NP_DOWN = 1, NP_LEFT = 2, NP_RIGHT = 3 };

typedef struct np_dom {
    int w, h, cells; /* columns, rows, w * h */
    int blank_last;  /* goal 1 2 .. N-1 0 instead of 0 1 .. N-1 */
    const dom_host *host;
    int8_t next[4][NP_MAX_CELLS];    /* cell the blank reaches by a move, or -1 */
    uint8_t goal_cell[NP_MAX_CELLS]; /* by tile */
    uint8_t goal_row[NP_MAX_CELLS], goal_col[NP_MAX_CELLS]; /* by tile */
    /* Square boards: the mirror image across the main diagonal maps the
     * goal to itself (both goals keep the blank on the diagonal) and every
     * move to a move, so a heuristic may also look at the mirrored board. */
    uint8_t mirror_cell[NP_MAX_CELLS];
    uint8_t mirror_tile[NP_MAX_CELLS];        /* the tile whose goal is the mirror of t's */
    uint8_t dist[NP_MAX_CELLS][NP_MAX_CELLS]; /* [tile][cell]: Manhattan distance */
    char canonical[48];
    char encoding[64];
    char default_pdb[160]; /* "pdb:7-8", "pdb:5-5-5-5-5-5-5" */
    char heuristics[200];
} np_dom;

/* Format a message and hand it to host->fail: returns status. */
int dom_np_fail(const np_dom *in, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A log line through the host (level as dom_host.log). */
void dom_np_log(const np_dom *in, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* 1 when the tiles (a permutation, blank on cell `blank`) reach the goal:
 * every move is one transposition and moves the blank one step, so the
 * permutation's parity must equal that of the blank's distance to its goal
 * cell. Holds for every W and H; both parities are reachable when W, H >= 2. */
int dom_np_solvable(const np_dom *in, const uint8_t *tiles, int blank);

/* State text (npuzzle_text.c). */
int dom_np_parse_state(const void *inst, const char *text, void *state);
int dom_np_format_state(const void *inst, const void *state, char *buf, size_t cap);

/* Heuristics by name (npuzzle_heur.c): "manhattan", "lc", "pdb:PARTITION"
 * (dom_np_pdb_open). */
void *dom_np_heur_open(const void *inst, const char *name);
int dom_np_heur_eval(const void *heur, const void *state);
void dom_np_heur_free(void *heur);
/* dom_def's heur_delta: Manhattan and linear conflicts move by move
 * (npuzzle_fast.h), DOM_HEUR_NO_DELTA for pattern databases. */
int dom_np_heur_delta(const void *heur, const void *state, int move, int hv);
/* Manhattan distance plus linear conflicts from board a to board b. */
int dom_np_between(const void *inst, const void *a, const void *b);
void *dom_np_between_open(const void *inst, const void *b);
/* The default partition ("7-8" for 4x4, "5-5-5-5-5-5-5" for 6x6) into buf. */
void dom_np_default_partition(const np_dom *in, char *buf, size_t cap);

/* Additive disjoint pattern databases (npuzzle_pdb.c, built by
 * npuzzle_pdb_build.c), ranked by npf_rank (npuzzle_fast.h). */

/* Index of the n-th (0-based) zero bit of used. */
static inline int np_nth_free(uint64_t used, int n)
{
#if defined(__BMI2__)
    return __builtin_ctzll(_pdep_u64(1ull << n, ~used));
#else
    uint64_t free_bits = ~used;
    for (int i = 0; i < n; i++)
        free_bits &= free_bits - 1;
    return __builtin_ctzll(free_bits);
#endif
}

/* The inverse of npf_rank: fills cell[0..k) and returns their mask. */
static inline uint64_t np_unrank(uint64_t r, int k, int cells, uint8_t *cell)
{
    int digit[NP_MAX_K];
    for (int i = k - 1; i >= 0; i--) {
        uint64_t base = (uint64_t)(cells - i);
        digit[i] = (int)(r % base);
        r /= base;
    }
    uint64_t used = 0;
    for (int i = 0; i < k; i++) {
        cell[i] = (uint8_t)np_nth_free(used, digit[i]);
        used |= 1ull << cell[i];
    }
    return used;
}

/* Fill table[0..entries) for the group whose tiles' goal cells are
 * home[0..k), the blank's being `blank`: per placement, the fewest moves
 * of those tiles from it to home over all positions of the blank. 0, or a
 * status through host->fail (out of memory, stopped). */
int dom_np_pdb_build(const np_dom *in, int blank, const uint8_t *home, int k, uint8_t *table,
                     uint64_t entries);

typedef struct np_pdb np_pdb;
/* The set for a partition: a published name on its board ("7-8", "6-6-3",
 * "5-5-5" on 4x4, "6-6-6-6" on 5x5, "8" on 3x3: search/npuzzle/'s tile
 * groups), tile groups ("1.2.3/4.5.8.9.12.13/6.7.10.11.14.15": every tile
 * once), or group sizes ("5-5-5-5-5-5-5", summing to cells - 1, cut along
 * a band order). Built by breadth-first search or loaded from the cache
 * folder. NULL with host->fail on error. */
np_pdb *dom_np_pdb_open(const np_dom *in, const char *spec);
void dom_np_pdb_free(np_pdb *p);
/* The set's tables as searches read them (npuzzle_fast.h), with the
 * mirrored view too when reflect is set (square boards). The tables stay
 * p's. */
void dom_np_pdb_fast(const np_pdb *p, int reflect, npf_pdb *out);

/* The set's tables, their file names and tile lists (dom_heur_pdb_tables):
 * at most cap into out; returns the count. */
int dom_np_pdb_tables(const np_pdb *p, struct dom_pdb_table *out, int cap);

#endif
