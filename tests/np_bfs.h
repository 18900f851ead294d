/* Test helper: exact 8-puzzle distances by breadth-first search from a goal,
 * indexed by srch_np_board_rank (255 = unreachable). An independent check
 * for the searches and the pattern databases. */
#ifndef HN_TEST_NP_BFS_H
#define HN_TEST_NP_BFS_H

#include <stdlib.h>
#include <string.h>

#include "search/srch.h"

#define N8 362880 /* 9! */

/* malloc'd table of N8 distances, or NULL. */
static uint8_t *bfs8(int goal)
{
    uint8_t *dist = malloc(N8);
    uint32_t *queue = malloc(N8 * sizeof *queue);
    if (!dist || !queue) {
        free(dist);
        free(queue);
        return NULL;
    }
    memset(dist, 255, N8);
    srch_np_board b;
    srch_np_board_goal(&b, 3, goal);
    size_t head = 0, tail = 0;
    queue[tail++] = (uint32_t)srch_np_board_rank(&b);
    dist[queue[0]] = 0;
    while (head < tail) {
        uint32_t r = queue[head++];
        srch_np_board_unrank(&b, 3, r);
        for (int d = 0; d < 4; d++) {
            srch_np_board c = b;
            if (srch_np_board_move(&c, d) < 0)
                continue;
            uint32_t rc = (uint32_t)srch_np_board_rank(&c);
            if (dist[rc] == 255) {
                dist[rc] = (uint8_t)(dist[r] + 1);
                queue[tail++] = rc;
            }
        }
    }
    free(queue);
    return dist;
}

#endif
