/* Test helper: every cube within a few quarter turns of a start, with its
 * exact distance, by breadth-first search over all 12 moves (no pruning),
 * so it is an independent check of the pruning automaton, the heuristics
 * and the optimal searches. States are kept in an open-addressing set. */
#ifndef HN_TEST_CUBE3_BALL_H
#define HN_TEST_CUBE3_BALL_H

#include <stdlib.h>
#include <string.h>

#include "domains/dom.h"

#define BALL_SB 40 /* cube3's state bytes */

typedef struct ball {
    size_t n, cap;    /* states found; slots (a power of two) */
    uint8_t *state;   /* n states in BFS order */
    uint8_t *depth;   /* their distances */
    uint32_t *slot;   /* index + 1 into state, 0 = empty */
    size_t level[32]; /* first index of each depth; level[maxd + 1] = n */
    int maxd;
} ball;

/* Index of s in the ball, or -1; *at gets its slot. */
static long ball_find(const ball *b, const dom *d, const uint8_t *s, size_t *at)
{
    size_t i = dom_hash(d, s) & (b->cap - 1);
    while (b->slot[i]) {
        size_t k = b->slot[i] - 1;
        if (!memcmp(b->state + k * BALL_SB, s, BALL_SB)) {
            *at = i;
            return (long)k;
        }
        i = (i + 1) & (b->cap - 1);
    }
    *at = i;
    return -1;
}

static void ball_add(ball *b, const dom *d, const uint8_t *s, int depth)
{
    size_t at;
    if (ball_find(b, d, s, &at) >= 0)
        return;
    memcpy(b->state + b->n * BALL_SB, s, BALL_SB);
    b->depth[b->n] = (uint8_t)depth;
    b->slot[at] = (uint32_t)++b->n;
}

static void ball_free(ball *b)
{
    free(b->state);
    free(b->depth);
    free(b->slot);
}

/* All states within maxd moves of start: 0, or -1 out of memory. `room`
 * bounds the count (1.1 M covers depth 6 of the cube). */
static int ball_build(ball *b, const dom *d, const uint8_t *start, int maxd, size_t room)
{
    memset(b, 0, sizeof *b);
    b->cap = 1;
    while (b->cap < 2 * room)
        b->cap *= 2;
    b->state = malloc(room * BALL_SB);
    b->depth = malloc(room);
    b->slot = calloc(b->cap, sizeof *b->slot);
    if (!b->state || !b->depth || !b->slot) {
        ball_free(b);
        return -1;
    }
    b->maxd = maxd;
    ball_add(b, d, start, 0);
    size_t lo = 0;
    for (int depth = 0; depth <= maxd; depth++) {
        size_t hi = b->n;
        b->level[depth] = lo;
        for (size_t k = lo; k < hi && depth < maxd; k++)
            for (int m = 0; m < dom_nmoves(d); m++) {
                uint8_t c[BALL_SB];
                memcpy(c, b->state + k * BALL_SB, BALL_SB);
                dom_apply(d, c, m);
                if (b->n == room)
                    return -1;
                ball_add(b, d, c, depth + 1);
            }
        lo = hi;
    }
    b->level[maxd + 1] = b->n;
    return 0;
}

/* Distance of s when within the ball, else -1. */
static int ball_depth(const ball *b, const dom *d, const uint8_t *s)
{
    size_t at;
    long k = ball_find(b, d, s, &at);
    return k < 0 ? -1 : b->depth[k];
}

#endif
