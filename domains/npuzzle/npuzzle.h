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
    int8_t next[4][NP_MAX_CELLS];             /* cell the blank reaches by a move, or -1 */
    uint8_t goal_cell[NP_MAX_CELLS];          /* by tile */
    uint8_t dist[NP_MAX_CELLS][NP_MAX_CELLS]; /* [tile][cell]: Manhattan distance */
    char canonical[48];
    char encoding[64];
    char default_pdb[160]; /* "pdb:5-5-5-5-5-5-5" */
    char heuristics[200];
} np_dom;

/* Format a message and hand it to host->fail: returns status. */
int np_fail(const np_dom *in, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A log line through the host (level as dom_host.log). */
void np_log(const np_dom *in, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* 1 when the tiles (a permutation, blank on cell `blank`) reach the goal:
 * every move is one transposition and moves the blank one step, so the
 * permutation's parity must equal that of the blank's distance to its goal
 * cell. Holds for every W and H; both parities are reachable when W, H >= 2. */
int np_solvable(const np_dom *in, const uint8_t *tiles, int blank);

/* State text (npuzzle_text.c). */
int np_parse_state(const void *inst, const char *text, void *state);
int np_format_state(const void *inst, const void *state, char *buf, size_t cap);

/* Heuristics by name (npuzzle_heur.c): "manhattan", "lc", "pdb:SIZES". */
void *np_heur_open(const void *inst, const char *name);
int np_heur_eval(const void *heur, const void *state);
void np_heur_free(void *heur);
/* The default partition's sizes ("5-5-5-5-5-5-5" for 6x6) into buf. */
void np_default_partition(const np_dom *in, char *buf, size_t cap);

/* Additive disjoint pattern databases (npuzzle_pdb.c). */
typedef struct np_pdb np_pdb;
/* The set for a partition "5-5-5-..." (sizes summing to cells - 1): built
 * by breadth-first search or loaded from the cache folder. NULL with
 * host->fail on error. */
np_pdb *np_pdb_open(const np_dom *in, const char *sizes);
void np_pdb_free(np_pdb *p);
/* Sum of the groups' entries for a state (pos[t] = cell of tile t). */
int np_pdb_eval(const np_pdb *p, const uint8_t *pos);

#endif
