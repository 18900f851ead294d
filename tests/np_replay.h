/* Test helper: does a search result's move list lead from the board to
 * the goal, and is it as long as the result says? */
#ifndef HN_TEST_NP_REPLAY_H
#define HN_TEST_NP_REPLAY_H

#include "search/srch.h"

static int replays(const srch_np_board *b, const srch_np_result *r, int goal)
{
    srch_np_board x = *b;
    for (int i = 0; i < r->nmoves; i++)
        if (srch_np_board_move(&x, r->moves[i]) < 0)
            return 0;
    return r->nmoves == r->length && srch_np_board_is_goal(&x, goal);
}

#endif
