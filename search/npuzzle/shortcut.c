/* Shortening a solution by windows. A path that is not optimal often
 * spends its extra moves locally: a detour between two boards that lie a
 * few dozen moves apart on it. For every window of the path (boards b_i
 * and b_j, j - i = w), IDA* between the two boards, guided by the Manhattan
 * distance to b_j, looks for a path of at most w - 2 moves (lengths between
 * two boards share their parity) within a node budget; one it finds is
 * spliced in. Windows grow and overlap by half, so a detour that straddles
 * one window's edge lies inside the next. */
#include <stdlib.h>
#include <string.h>

#include "search/npuzzle/ann.h"
#include "search/npuzzle/np_internal.h"

typedef struct {
    uint8_t tile[SRCH_NP_MAX_CELLS];
    int blank;
    uint8_t md[SRCH_NP_MAX_CELLS][SRCH_NP_MAX_CELLS]; /* md[tile][cell]: distance to its target */
    int8_t nb[SRCH_NP_MAX_CELLS][4]; /* the board width's neighbours, set once per call */
    uint8_t path[SRCH_NP_MAX_PATH];
    uint64_t nodes, budget;
    int found;
} window;

/* The window's target: each tile's Manhattan distance from every cell to its
 * cell on `to`; the search board starts as `from`. Returns h of `from`. */
static int window_set(window *w, const srch_np_board *from, const srch_np_board *to)
{
    int n = from->ncells, width = from->width, h = 0;
    for (int t = 1; t < n; t++)
        for (int c = 0; c < n; c++)
            w->md[t][c] = (uint8_t)(abs_diff(c / width, to->pos[t] / width) +
                                    abs_diff(c % width, to->pos[t] % width));
    for (int c = 0; c < n; c++) {
        w->tile[c] = from->tile[c];
        if (from->tile[c])
            h += w->md[from->tile[c]][c];
    }
    w->blank = from->blank;
    return h;
}

/* 1: a path within bound found (its moves in w->path[0..g)), -1: budget
 * spent, 0: none in this subtree. h = 0 means every tile is on its target
 * cell, and so is the blank. */
static int dfs(window *w, int g, int h, int bound, int prev)
{
    if (h == 0) {
        w->found = g;
        return 1;
    }
    if (g + h > bound)
        return 0;
    if (++w->nodes > w->budget)
        return -1;
    for (int d = 0; d < 4; d++) {
        int from = w->blank, to = w->nb[from][d];
        if (to < 0 || d == (prev ^ 1))
            continue;
        int t = w->tile[to], h2 = h - w->md[t][to] + w->md[t][from];
        w->tile[from] = (uint8_t)t;
        w->tile[to] = 0;
        w->blank = to;
        w->path[g] = (uint8_t)d;
        int r = dfs(w, g + 1, h2, bound, d);
        w->tile[to] = (uint8_t)t;
        w->tile[from] = 0;
        w->blank = from;
        if (r)
            return r;
    }
    return 0;
}

/* Shortest path from `from` to `to` of at most len - 2 moves, bounds rising
 * from the Manhattan distance in steps of 2: its length (0 when the window
 * is a loop), or -1 (none within the budget; it may already be optimal). */
static int window_solve(window *w, const srch_np_board *from, const srch_np_board *to, int len,
                        uint64_t budget)
{
    int h = window_set(w, from, to);
    w->nodes = 0;
    w->budget = budget;
    for (int bound = h; bound <= len - 2; bound += 2) {
        int r = dfs(w, 0, h, bound, -2);
        if (r == 1)
            return w->found;
        if (r < 0)
            return -1;
    }
    return -1;
}

/* The boards along the moves after b[i] (b[k]: the board after k moves;
 * b[0..i] are kept). */
static void walk_from(const uint8_t *moves, int n, srch_np_board *b, int i)
{
    for (int k = i; k < n; k++) {
        b[k + 1] = b[k];
        srch_np_board_move(&b[k + 1], moves[k]);
    }
}

int srch_np_shortcut_check(const srch_np_shortcut_opts *o)
{
    if (o->max_window == 0)
        return 0; /* off: the budget is not read */
    if (o->max_window < 4 || o->max_window > SRCH_NP_SHORTCUT_MAX_WINDOW)
        return hn_fail(HN_ERR_ARG,
                       "shortcut: the longest window must be 0 (off) or 4..%d moves, "
                       "not %d",
                       SRCH_NP_SHORTCUT_MAX_WINDOW, o->max_window);
    if (o->budget < 1 || o->budget > SRCH_NP_SHORTCUT_MAX_BUDGET)
        return hn_fail(HN_ERR_ARG, "shortcut: the node budget per window must be 1..%llu, not %llu",
                       (unsigned long long)SRCH_NP_SHORTCUT_MAX_BUDGET,
                       (unsigned long long)o->budget);
    return 0;
}

/* Where the window after the one at i begins: half a window on, except
 * that the last one ends at the goal (n) instead of falling short of it. */
static int next_window(int i, int wl, int n)
{
    int next = i + wl / 2;
    return i + wl < n && next + wl > n ? n - wl : next;
}

/* Windows of length wl over the path b[0..*n], overlapping by half, the
 * last one ending at the goal (so any stretch of wl / 2 moves lies inside
 * one): returns the moves saved (the path and its boards updated), or -1
 * when the clock or Ctrl-C stopped it. */
static int pass(window *w, uint8_t *moves, int *n, srch_np_board *b, int wl, uint64_t budget,
                double deadline)
{
    int saved = 0;
    for (int i = 0; i + wl <= *n; i = next_window(i, wl, *n)) {
        if (hn_stop_requested() || (deadline > 0 && hn_now() > deadline))
            return -1;
        int k = window_solve(w, &b[i], &b[i + wl], wl, budget);
        if (k < 0)
            continue;
        /* moves[i .. i + wl) become the k moves found */
        memmove(moves + i + k, moves + i + wl, (size_t)(*n - i - wl));
        memcpy(moves + i, w->path, (size_t)k);
        *n -= wl - k;
        saved += wl - k;
        walk_from(moves, *n, b, i); /* b[0..i] did not change */
    }
    return saved;
}

int srch_np_shortcut(const srch_np_board *start, uint8_t *moves, int *nmoves,
                     const srch_np_shortcut_opts *o, double deadline, int *saved)
{
    int st = srch_np_shortcut_check(o);
    if (st || o->max_window == 0 || *nmoves < 4)
        return st;
    srch_np_board *b = malloc(sizeof *b * (size_t)(*nmoves + 1));
    window *w = malloc(sizeof *w);
    if (!b || !w) {
        free(b);
        free(w);
        return hn_fail(HN_ERR_NOMEM, "shortcut: out of memory");
    }
    b[0] = *start;
    walk_from(moves, *nmoves, b, 0);
    for (int c = 0; c < start->ncells; c++)
        for (int d = 0; d < 4; d++)
            w->nb[c][d] = (int8_t)srch_np_neighbour(start->width, c, d);
    /* short windows first: they are cheap and leave less for the long ones */
    for (int len = 8;; len += len / 2) {
        int wl = len < o->max_window ? len : o->max_window;
        wl = wl < *nmoves ? wl : *nmoves;
        int k = pass(w, moves, nmoves, b, wl, o->budget, deadline);
        if (k < 0)
            break;
        if (saved)
            *saved += k;
        if (wl == o->max_window || wl == *nmoves)
            break;
    }
    free(b);
    free(w);
    return 0;
}
