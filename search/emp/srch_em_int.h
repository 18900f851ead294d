/* Private layout shared by the edge-matching files: the instance with its
 * per-piece rotation colour table, and the board with its scratch memory. */
#ifndef SRCH_EM_INT_H
#define SRCH_EM_INT_H

#include <stdint.h>
#include <stdio.h>

#include "search/emp/emp.h"

#define SRCH_EM_MAX_CLUES 64

struct srch_em_inst {
    int w, h, n; /* n = w*h cells = pieces */
    int ncol;    /* largest colour + 1 */
    /* col[((p*4 + r)*4 + s)]: colour on side s of piece p at rotation r.
     * Piece n is the empty piece (all grey) so empty cells need no branch. */
    uint8_t *col;
    uint8_t *pclass; /* piece class */
    uint8_t *pgrey;  /* first grey side (clockwise) of a frame piece at rot 0 */
    uint8_t *cclass; /* cell class */
    uint8_t *cout;   /* first outward side (clockwise) of a frame cell */
    /* nb[cell*4 + s]: neighbour cell, or n (a sentinel that holds the empty piece) */
    int *nb;
    int nclues;
    int clue_piece[SRCH_EM_MAX_CLUES], clue_cell[SRCH_EM_MAX_CLUES], clue_rot[SRCH_EM_MAX_CLUES];
};

struct srch_em_board {
    const srch_em_inst *inst;
    int n;
    int *piece;     /* [n+1]: piece per cell (-> inst->n when empty); cell n is the sentinel */
    uint8_t *rot;   /* [n+1] */
    int *pos;       /* [n+1]: cell of each piece (-1 when off the board) */
    uint8_t *fixed; /* [n]: clue cells */
    int score;
    /* scratch for the neighbourhoods (no allocation in the hot loops) */
    int *cells, *pieces, *cost, *assign, *hwork, *rbest, *mark;
    double *weight;
    int cap;    /* size of the n-sized scratch arrays */
    long evals; /* placements evaluated, for the moves-per-second figure */
    /* the run's time limit: the branch and bound (greedy start, BO, RO)
     * stops at it; HUGE_VAL (set by srch_em_board_new) means none */
    double deadline;
    int cpu_clock; /* the deadline is in srch_em_cpu_seconds, else hn_now */
    /* branch-and-bound scratch, grown on demand (not in the hot loop) */
    int *bb_cand, *bb_path, *bb_best, *bb_rem, *bb_orig;
    uint8_t *bb_g, *bb_used;
    size_t bb_cap_cand, bb_cap_cells;
    int bb_cap_pool;
    /* the fast walk (srch_em_walk.c): packed colours of each placed piece and
     * of what each cell's neighbours show it, valid during one walk; the
     * non-fixed cells of each class and the class draw thresholds */
    uint32_t *face, *need;
    int *cls_cells, cls_off[3], cls_len[3];
    uint64_t walk_cut[2];
};

/* 1 once the board's deadline has passed. */
int srch_em_past_deadline(const srch_em_board *b);

static inline const uint8_t *srch_em_pc(const srch_em_inst *in, int p, int r)
{
    return in->col + ((size_t)p * 4 + (size_t)r) * 4;
}

/* Matches of piece p at rotation r placed on `cell`, against the current
 * neighbours (empty neighbours and the outside never match). */
static inline int srch_em_place_score(const srch_em_board *b, int cell, int p, int r)
{
    const srch_em_inst *in = b->inst;
    const uint8_t *c = srch_em_pc(in, p, r);
    const int *nb = in->nb + (size_t)cell * 4;
    int s = 0;
    for (int k = 0; k < 4; k++) {
        int q = nb[k];
        uint8_t oc = srch_em_pc(in, b->piece[q], b->rot[q])[(k + 2) & 3];
        s += (c[k] == oc) & (oc != 0);
    }
    return s;
}

/* Rotation of piece p on cell (forced for frame cells), or -1 if p cannot go there. */
static inline int srch_em_rot_for(const srch_em_inst *in, int p, int cell)
{
    if (in->pclass[p] != in->cclass[cell])
        return -1;
    if (in->cclass[cell] == SRCH_EM_INNER)
        return 0;
    return (in->cout[cell] - in->pgrey[p] + 4) & 3;
}

/* Best placement of p on cell over its allowed rotations (frame: one). */
static inline int srch_em_best_place(const srch_em_board *b, int cell, int p, int *rot)
{
    const srch_em_inst *in = b->inst;
    if (in->cclass[cell] != SRCH_EM_INNER) {
        int r = srch_em_rot_for(in, p, cell);
        *rot = r;
        return srch_em_place_score(b, cell, p, r);
    }
    int best = -1;
    for (int r = 0; r < 4; r++) {
        int s = srch_em_place_score(b, cell, p, r);
        if (s > best) {
            best = s;
            *rot = r;
        }
    }
    return best;
}

/* Low-level placement keeping score: lift / drop one cell. */
void srch_em_lift(srch_em_board *b, int cell);
void srch_em_drop(srch_em_board *b, int cell, int p, int r);

/* Write `path` through path.part: body(f, ctx) writes the content; the file
 * is renamed into place only when every write succeeded. */
int srch_em_write_file(const char *path, void (*body)(FILE *f, const void *ctx), const void *ctx);
/* A (piece, cell, rotation) triple allowed by the frame rule and the clues. */
int srch_em_triple_ok(const srch_em_inst *in, int piece, int cell, int rot);
/* Fill every empty non-fixed cell band by band (rows), each band solved by
 * branch and bound among the pieces off the board. Returns the gain. */
int srch_em_fill_empty(srch_em_board *b, int band, long node_limit);
/* Empty every cell but the clues (score 0 plus the clues' joins). */
void srch_em_board_clear(srch_em_board *b);
/* Pieces still off the board go to the first free cell of their class. */
void srch_em_place_leftovers(srch_em_board *b, hn_rng *rng);
/* Best rotations for swapping the pieces of cells m->a and m->b (same class,
 * not fixed); fills ra, rb and delta, board unchanged. */
void srch_em_swap_best(srch_em_board *b, srch_em_move *m);

/* The annealed walk's own generator (xoshiro256**), seeded per walk from the
 * run's generator: the walk draws several numbers per move. */
typedef struct {
    uint64_t s[4];
} srch_em_walk_rng;
void srch_em_walk_seed(srch_em_walk_rng *w, uint64_t seed);
/* Up to `tries` random swap+rotate moves (pairs of cells of one class drawn
 * uniformly, each piece at its best rotation) on a complete board, kept by
 * `acc`. Stops early
 * once the score exceeds `stop_above`, so the caller can keep that board.
 * Returns the tries made. */
long srch_em_walk(srch_em_board *b, long tries, const srch_em_metropolis *acc,
                  srch_em_walk_rng *rng, int stop_above);
/* A chooser among the walk's sideways moves (the learned move scorer):
 * k of them are gathered (cand holds k), and the one `choose` picks is
 * played. */
typedef struct {
    int k;
    srch_em_move *cand;
    int (*choose)(void *user, srch_em_board *b, const srch_em_move *cand, int n, hn_rng *rng);
    void *user;
    hn_rng *rng;
} srch_em_walk_guide;
/* srch_em_walk with the sideways moves (delta 0) chosen by g: gains and
 * moves that lose joins are played when drawn, sideways ones are gathered
 * until g->k and one of them is played (a move played in between empties
 * the gathering: it was scored on another board). */
long srch_em_walk_guided(srch_em_board *b, long tries, const srch_em_metropolis *acc,
                         srch_em_walk_rng *rng, int stop_above, const srch_em_walk_guide *g);
/* The STAGE features of board b (srch_em_stage.c) into f[SRCH_EM_STAGE_DIM];
 * `ref` is the board it was kicked from (the distance feature); scratch
 * holds n ints. */
void srch_em_stage_features(const srch_em_board *b, const srch_em_board *ref, int *scratch,
                            float *f);
/* w[0] + sum w[1 + k] f[k]. */
double srch_em_stage_value(const float *w, const float *f);
/* The walk's view of a complete board: fill face/need from it (srch_em_walk
 * does this itself; for tests). */
void srch_em_walk_sync(srch_em_board *b);
/* Score m->a <-> m->b (same class, not fixed; a == b turns an inner piece)
 * with best rotations from the synced packed colours: fills ra, rb and delta
 * exactly as srch_em_swap_best does; the board is unchanged. */
void srch_em_walk_score(srch_em_board *b, srch_em_move *m);

/* The model scores rows of `encoder` (dim inputs) with one output; else
 * HN_ERR_FORMAT / HN_ERR_SHAPE with a message naming `path` and `what`
 * needs it (srch_em_scorer.c; both scorers use it). */
struct nn_model;
int srch_em_model_check(const struct nn_model *m, const char *path, const char *encoder, int dim,
                        const char *what);

#endif
