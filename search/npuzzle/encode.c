/* The npuzzle-onehot encoder and its name (see encode.h). */
#include <stdio.h>
#include <string.h>

#include "search/npuzzle/encode.h"

int srch_np_encode_width(int cells)
{
    return cells * cells;
}

void srch_np_encode_onehot_tiles(const uint8_t *tiles, int cells, float *x)
{
    memset(x, 0, sizeof(float) * (size_t)cells * cells);
    for (int p = 0; p < cells; p++)
        x[(size_t)tiles[p] * cells + p] = 1.0f;
}

void srch_np_encode_onehot_rows(const uint8_t *tiles, size_t n, int cells, float *x)
{
    size_t w = (size_t)cells * cells;
    for (size_t i = 0; i < n; i++)
        srch_np_encode_onehot_tiles(tiles + i * cells, cells, x + i * w);
}

void srch_np_encode_onehot(const srch_np_board *b, int board_goal, int model_goal, float *x)
{
    srch_np_board c = *b;
    if (board_goal != model_goal)
        srch_np_board_convert(b, &c);
    srch_np_encode_onehot_tiles(c.tile, c.ncells, x);
}

int srch_np_encode_name(int width, int goal, char *buf, size_t cap)
{
    const char *g = srch_np_goal_name(goal);
    return snprintf(buf, cap, "npuzzle-onehot n=%d goal=%s", width, g ? g : "?");
}

int srch_np_encode_parse(const char *name, int *width, int *goal)
{
    char g[32];
    int w, used = 0;
    if (!name || sscanf(name, "npuzzle-onehot n=%d goal=%31s%n", &w, g, &used) != 2 ||
        name[used] != '\0' || w < SRCH_NP_MIN_WIDTH || w > SRCH_NP_MAX_WIDTH ||
        srch_np_goal_parse(g, goal))
        return hn_fail(
            HN_ERR_FORMAT,
            "encoder \"%s\" is not \"npuzzle-onehot n=<3..5> goal=<blank-first|blank-last>\"",
            name ? name : "");
    *width = w;
    return HN_OK;
}

int srch_np_encode_domain(const char *name, char *buf, size_t cap)
{
    char g[32];
    int w, used = 0, goal;
    if (!name || sscanf(name, "npuzzle-onehot n=%d goal=%31s%n", &w, g, &used) != 2 ||
        name[used] != '\0' || w < 2 || w > 16 || srch_np_goal_parse(g, &goal))
        return hn_fail(HN_ERR_FORMAT, "encoder \"%s\" is not an n-puzzle encoder",
                       name ? name : "");
    int n = snprintf(buf, cap, "npuzzle:%dx%d%s", w, w,
                     goal == SRCH_NP_GOAL_BLANK_LAST ? ":blank-last" : "");
    return n < 0 || (size_t)n >= cap ? hn_fail(HN_ERR_ARG, "buffer too small") : HN_OK;
}
