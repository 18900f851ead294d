/* The n-puzzle board: goal layouts, blank moves in place, solvability,
 * layout conversion, random boards and walks, and whole-board ranking. */
#include <stdio.h>
#include <string.h>

#include "search/npuzzle/np_internal.h"

const char *srch_np_goal_name(int goal)
{
    switch (goal) {
    case SRCH_NP_GOAL_BLANK_FIRST:
        return "blank-first";
    case SRCH_NP_GOAL_BLANK_LAST:
        return "blank-last";
    default:
        return NULL;
    }
}

int srch_np_goal_parse(const char *s, int *goal)
{
    if (!strcmp(s, "blank-first"))
        *goal = SRCH_NP_GOAL_BLANK_FIRST;
    else if (!strcmp(s, "blank-last"))
        *goal = SRCH_NP_GOAL_BLANK_LAST;
    else
        return hn_fail(HN_ERR_ARG, "unknown goal layout '%s' (expected blank-first or blank-last)",
                       s);
    return 0;
}

int srch_np_puzzle_width(long puzzle)
{
    switch (puzzle) {
    case 8:
        return 3;
    case 15:
        return 4;
    case 24:
        return 5;
    default:
        return 0;
    }
}

static int width_ok(int width)
{
    return width >= SRCH_NP_MIN_WIDTH && width <= SRCH_NP_MAX_WIDTH;
}

int srch_np_board_set(srch_np_board *b, int width, const uint8_t *tiles)
{
    if (!width_ok(width))
        return hn_fail(HN_ERR_ARG, "board width %d not supported (3..5)", width);
    int n = width * width;
    uint32_t seen = 0;
    for (int c = 0; c < n; c++) {
        if (tiles[c] >= n)
            return hn_fail(HN_ERR_FORMAT, "tile %d out of range 0..%d", tiles[c], n - 1);
        if (seen & (1u << tiles[c]))
            return hn_fail(HN_ERR_FORMAT, "tile %d appears twice", tiles[c]);
        seen |= 1u << tiles[c];
    }
    memset(b, 0, sizeof *b);
    b->width = (uint8_t)width;
    b->ncells = (uint8_t)n;
    for (int c = 0; c < n; c++) {
        b->tile[c] = tiles[c];
        b->pos[tiles[c]] = (uint8_t)c;
    }
    b->blank = b->pos[0];
    return 0;
}

int srch_np_board_goal(srch_np_board *b, int width, int goal)
{
    if (!width_ok(width) || !srch_np_goal_name(goal))
        return hn_fail(HN_ERR_ARG, "bad width %d or goal %d", width, goal);
    uint8_t tiles[SRCH_NP_MAX_CELLS];
    int n = width * width;
    for (int t = 0; t < n; t++)
        tiles[srch_np_goal_cell(n, goal, t)] = (uint8_t)t;
    return srch_np_board_set(b, width, tiles);
}

int srch_np_board_is_goal(const srch_np_board *b, int goal)
{
    for (int t = 0; t < b->ncells; t++)
        if (b->pos[t] != srch_np_goal_cell(b->ncells, goal, t))
            return 0;
    return 1;
}

int srch_np_board_equal(const srch_np_board *a, const srch_np_board *b)
{
    return a->width == b->width && !memcmp(a->tile, b->tile, a->ncells);
}

int srch_np_board_solvable(const srch_np_board *b, int goal)
{
    /* A blank move is one transposition and changes the blank's taxicab
     * distance to its goal cell by one, so reachable boards are exactly those
     * whose permutation (cell -> goal cell of its tile) has the parity of
     * that distance. */
    int n = b->ncells, w = b->width;
    uint32_t done = 0;
    int transpositions = 0;
    for (int c = 0; c < n; c++) {
        if (done & (1u << c))
            continue;
        int len = 0;
        for (int x = c; !(done & (1u << x)); x = srch_np_goal_cell(n, goal, b->tile[x])) {
            done |= 1u << x;
            len++;
        }
        transpositions += len - 1;
    }
    int g = srch_np_goal_cell(n, goal, 0);
    int dist = abs_diff(b->blank / w, g / w) + abs_diff(b->blank % w, g % w);
    return (transpositions & 1) == (dist & 1);
}

void srch_np_board_transpose(const srch_np_board *b, int goal, srch_np_board *out)
{
    /* Mirror cells across the main diagonal and rename each tile after the
     * mirror of its goal cell: the goal maps to itself (both layouts keep the
     * blank on the diagonal) and every move to its mirror, so distances are
     * equal. */
    int n = b->ncells, w = b->width;
    uint8_t tiles[SRCH_NP_MAX_CELLS];
    for (int p = 0; p < n; p++) {
        int gc = srch_np_goal_cell(n, goal, b->tile[p]);
        tiles[(p % w) * w + p / w] = (uint8_t)srch_np_goal_tile(n, goal, (gc % w) * w + gc / w);
    }
    (void)srch_np_board_set(out, w, tiles); /* a permutation of a valid board */
}

int srch_np_board_can_move(const srch_np_board *b, int dir)
{
    return dir >= 0 && dir < 4 && srch_np_neighbour(b->width, b->blank, dir) >= 0;
}

int srch_np_board_move(srch_np_board *b, int dir)
{
    if (dir < 0 || dir > 3)
        return -1;
    int to = srch_np_neighbour(b->width, b->blank, dir);
    if (to < 0)
        return -1;
    int t = b->tile[to];
    srch_np_board_slide(b, to);
    return t;
}

int srch_np_dir_opposite(int dir)
{
    return dir ^ 1;
}

char srch_np_dir_letter(int dir)
{
    return "UDLR"[dir & 3];
}

int srch_np_dir_parse(char c)
{
    switch (c) {
    case 'U':
        return SRCH_NP_UP;
    case 'D':
        return SRCH_NP_DOWN;
    case 'L':
        return SRCH_NP_LEFT;
    case 'R':
        return SRCH_NP_RIGHT;
    default:
        return -1;
    }
}

int srch_np_board_apply(srch_np_board *b, const char *moves)
{
    for (size_t i = 0; moves[i]; i++) {
        int d = srch_np_dir_parse(moves[i]);
        if (d < 0)
            return hn_fail(HN_ERR_ARG, "move %zu: '%c' is not one of U D L R", i + 1, moves[i]);
        if (srch_np_board_move(b, d) < 0)
            return hn_fail(HN_ERR_ARG, "move %zu: the blank cannot move %c from cell %d", i + 1,
                           moves[i], b->blank);
    }
    return 0;
}

void srch_np_board_convert(const srch_np_board *in, srch_np_board *out)
{
    int n = in->ncells;
    uint8_t tiles[SRCH_NP_MAX_CELLS];
    for (int q = 0; q < n; q++) {
        int t = in->tile[n - 1 - q];
        tiles[q] = (uint8_t)(t == 0 ? 0 : n - t);
    }
    srch_np_board_set(out, in->width, tiles);
}

void srch_np_board_random(srch_np_board *b, int width, int goal, hn_rng *rng)
{
    int n = width * width;
    uint8_t tiles[SRCH_NP_MAX_CELLS];
    for (int i = 0; i < n; i++)
        tiles[i] = (uint8_t)i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)hn_rng_below(rng, (uint32_t)(i + 1));
        uint8_t t = tiles[i];
        tiles[i] = tiles[j];
        tiles[j] = t;
    }
    srch_np_board_set(b, width, tiles);
    if (!srch_np_board_solvable(b, goal)) {
        /* Swapping two fixed non-blank cells is a bijection between the two
         * parity classes, so the result stays uniform over solvable boards. */
        int c0 = b->tile[0] ? 0 : 2, c1 = b->tile[1] ? 1 : 2;
        uint8_t t = tiles[c0];
        tiles[c0] = tiles[c1];
        tiles[c1] = t;
        srch_np_board_set(b, width, tiles);
    }
}

void srch_np_board_random_walk(srch_np_board *b, int width, int goal, int steps, hn_rng *rng)
{
    srch_np_board_goal(b, width, goal);
    srch_np_board_walk_on(b, steps, rng);
}

void srch_np_board_walk_on(srch_np_board *b, int steps, hn_rng *rng)
{
    int prev = -1;
    for (int s = 0; s < steps; s++) {
        int dirs[4], k = 0;
        for (int d = 0; d < 4; d++)
            if (d != (prev < 0 ? -1 : srch_np_dir_opposite(prev)) && srch_np_board_can_move(b, d))
                dirs[k++] = d;
        prev = dirs[hn_rng_below(rng, (uint32_t)k)];
        srch_np_board_move(b, prev);
    }
}

uint64_t srch_np_board_rank(const srch_np_board *b)
{
    int n = b->ncells;
    uint64_t rank = 0;
    uint32_t used = 0;
    for (int c = 0; c < n; c++) {
        int t = b->tile[c];
        int digit = t - __builtin_popcount(used & ((1u << t) - 1));
        rank = rank * (uint64_t)(n - c) + (uint64_t)digit;
        used |= 1u << t;
    }
    return rank;
}

int srch_np_board_unrank(srch_np_board *b, int width, uint64_t rank)
{
    if (width < SRCH_NP_MIN_WIDTH || width > 4)
        return hn_fail(HN_ERR_ARG, "board ranks need width 3 or 4, not %d", width);
    int n = width * width;
    uint64_t total = 1;
    for (int i = 2; i <= n; i++)
        total *= (uint64_t)i;
    if (rank >= total)
        return hn_fail(HN_ERR_ARG, "rank %llu out of range (%llu boards)", (unsigned long long)rank,
                       (unsigned long long)total);
    int digit[SRCH_NP_MAX_CELLS];
    for (int c = n - 1; c >= 0; c--) {
        digit[c] = (int)(rank % (uint64_t)(n - c));
        rank /= (uint64_t)(n - c);
    }
    uint8_t tiles[SRCH_NP_MAX_CELLS];
    uint32_t used = 0;
    for (int c = 0; c < n; c++) {
        tiles[c] = (uint8_t)srch_np_select_free(used, digit[c]);
        used |= 1u << tiles[c];
    }
    return srch_np_board_set(b, width, tiles);
}

int srch_np_board_format(const srch_np_board *b, char *buf, size_t cap)
{
    int len = 0;
    for (int c = 0; c < b->ncells; c++) {
        int k = snprintf(buf ? buf + len : NULL, buf && (size_t)len < cap ? cap - (size_t)len : 0,
                         c ? " %d" : "%d", b->tile[c]);
        len += k;
    }
    return len;
}

int srch_np_moves_format(const uint8_t *moves, int n, char *buf, size_t cap)
{
    if (cap > 0) {
        size_t k = 0;
        for (; k < (size_t)n && k + 1 < cap; k++)
            buf[k] = srch_np_dir_letter(moves[k]);
        buf[k] = '\0';
    }
    return n;
}
