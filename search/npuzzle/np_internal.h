/* Private pieces of the n-puzzle code shared by the board, heuristic, PDB
 * and search files: the neighbour function, the heuristic object's layout,
 * and the bit tricks for ranking placements. */
#ifndef SRCH_NP_INTERNAL_H
#define SRCH_NP_INTERNAL_H

#include "search/srch.h"

#if defined(__BMI2__)
#include <immintrin.h>

#endif

static inline int abs_diff(int a, int b)
{
    return a > b ? a - b : b - a;
}

/* Cell next to `cell` in direction `dir` (where the blank goes), or -1. */
static inline int srch_np_neighbour(int width, int cell, int dir)
{
    int r = cell / width, c = cell % width;
    switch (dir) {
    case SRCH_NP_UP:
        return r > 0 ? cell - width : -1;
    case SRCH_NP_DOWN:
        return r < width - 1 ? cell + width : -1;
    case SRCH_NP_LEFT:
        return c > 0 ? cell - 1 : -1;
    default:
        return c < width - 1 ? cell + 1 : -1;
    }
}

/* Slide the tile on `to` (a neighbour of the blank) into the blank: the
 * searches' hot-path move, by cell and without checks (srch_np_board_move
 * checks the direction, then slides). */
static inline void srch_np_board_slide(srch_np_board *b, int to)
{
    int from = b->blank, tile = b->tile[to];
    b->tile[from] = (uint8_t)tile;
    b->pos[tile] = (uint8_t)from;
    b->tile[to] = 0;
    b->pos[0] = (uint8_t)to;
    b->blank = (uint8_t)to;
}

/* Cell of `tile` in the goal layout. */
static inline int srch_np_goal_cell(int ncells, int goal, int tile)
{
    if (goal == SRCH_NP_GOAL_BLANK_FIRST)
        return tile;
    return tile == 0 ? ncells - 1 : tile - 1;
}

/* Tile on `cell` in the goal layout: the inverse of srch_np_goal_cell. */
static inline int srch_np_goal_tile(int ncells, int goal, int cell)
{
    if (goal == SRCH_NP_GOAL_BLANK_FIRST)
        return cell;
    return cell == ncells - 1 ? 0 : cell + 1;
}

/* Index of the n-th (0-based) zero bit of `used` (which has > n zeros
 * among the low 32 bits). */
static inline int srch_np_select_free(uint32_t used, int n)
{
#if defined(__BMI2__)
    return __builtin_ctz(_pdep_u32(1u << n, ~used));
#else
    uint32_t free_bits = ~used;
    for (int i = 0; i < n; i++)
        free_bits &= free_bits - 1;
    return __builtin_ctz(free_bits);

#endif
}

/* k-permutation rank of a placement (see srch_np_pdb_rank). */
static inline uint64_t srch_np_rank(const uint8_t *cells, int k, int ncells)
{
    uint32_t used = 0;
    uint64_t r = 0;
    for (int i = 0; i < k; i++) {
        int c = cells[i];
        r = r * (uint64_t)(ncells - i) + (uint64_t)(c - __builtin_popcount(used & ((1u << c) - 1)));
        used |= 1u << c;
    }
    return r;
}

/* h of n children of one parent from the parent's incremental state: child
 * i (board after[i]) moved tile[i]; writes each child's state (state_size
 * bytes apart in `states`) and h into out[i]. Returns 0 or a status. */
typedef int (*srch_np_move_batch_fn)(void *self, const srch_np_board *after, const int *tile,
                                     size_t n, const void *parent, void *states, int *out);

/* The heuristic object: an ops table plus the implementation's data.
 * move_batch (NULL unless a built-in sets it) lets a best-first search that
 * keeps each stored node's state evaluate an expansion's children with the
 * reads of all of them issued together. */
struct srch_np_heur {
    srch_np_heur_ops ops;
    void *self;
    int width;
    int goal;
    srch_np_move_batch_fn move_batch;
};

/* Shared constructor for the built-in heuristics. */
srch_np_heur *srch_np_heur_wrap(const srch_np_heur_ops *ops, void *self, int width, int goal,
                                int *status);

/* Argument checks shared by the searches: clears *res, returns 0 or the
 * status it also stores in res->status (width mismatch, unsolvable). */
int srch_np_search_begin(const srch_np_board *start, const srch_np_heur *h, srch_np_result *res);

/* One pass of the IDA* stage of anytime A* (anytime_ida.c): depth-first
 * from start under `bound`, pruned by adm and, in o's bands of moves left,
 * by guide less the band's delta. 1: a solution of at most `bound` moves in
 * moves[0..*nmoves); 0: none within the bound (a proof when o has no band);
 * < 0: a limit, an interrupt or an error. Adds its counts to res. */
struct srch_np_ida_opts;
int srch_np_ida_pass(const srch_np_board *start, const srch_np_heur *adm, const srch_np_heur *guide,
                     const struct srch_np_ida_opts *o, int bound, const srch_limits *lim,
                     double deadline, srch_np_result *res, uint8_t *moves, int *nmoves);

#endif
