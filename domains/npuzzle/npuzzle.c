/* The built-in n-puzzle domain: boards from 2x2 to 8x8, squares and
 * rectangles, with the same move letters, goal layouts and one-hot
 * encoding as the specialized 3x3..5x5 code in search/npuzzle/, so models
 * and solutions carry over. This file holds the instance, the two hot calls
 * and the encoding; text and heuristics live beside it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domains/builtin.h"
#include "domains/npuzzle/npuzzle.h"

static const char *const MOVE_NAME[4] = {"U", "D", "L", "R"};
static const int8_t INVERSE[4] = {NP_DOWN, NP_UP, NP_RIGHT, NP_LEFT};

/* Never undo the last move: state 0 is the root, state 1 + m follows move
 * m, and the move inverse to m is pruned there. */
#define P DOM_PRUNED
static const uint8_t PRUNE_NEXT[5 * 4] = {
    1, 2, 3, 4, /* root */
    1, P, 3, 4, /* after U: no D */
    P, 2, 3, 4, /* after D: no U */
    1, 2, 3, P, /* after L: no R */
    1, 2, P, 4, /* after R: no L */
};
#undef P

int dom_np_fail(const np_dom *in, int status, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return in->host->fail(status, msg);
}

void dom_np_log(const np_dom *in, int level, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    in->host->log(level, msg);
}

int dom_np_solvable(const np_dom *in, const uint8_t *tiles, int blank)
{
    uint64_t done = 0;
    int transpositions = 0;
    for (int c = 0; c < in->cells; c++) {
        if (done >> c & 1)
            continue;
        int len = 0;
        for (int x = c; !(done >> x & 1); x = in->goal_cell[tiles[x]]) {
            done |= 1ull << x;
            len++;
        }
        transpositions += len - 1;
    }
    int g = in->goal_cell[0], w = in->w;
    int dist = abs(blank / w - g / w) + abs(blank % w - g % w);
    return (transpositions & 1) == (dist & 1);
}

/* ---- parameters: "WxH[:blank-first|blank-last]" ---- */

/* A side as written; any value above 99 (strtol saturating included) reads
 * as 99, so the range check refuses it and the message quotes the text. */
static int parse_side(const char *s, char **end)
{
    if (*s < '0' || *s > '9')
        return -1;
    long v = strtol(s, end, 10);
    return v > 99 ? 99 : (int)v;
}

static int parse_args(np_dom *in, const char *args)
{
    char *end;
    int w = parse_side(args, &end), h = -1;
    if (w >= 0 && *end == 'x')
        h = parse_side(end + 1, &end);
    if (w < 0 || h < 0 || (*end && *end != ':'))
        return dom_np_fail(in, DOM_ERR_ARG,
                           "npuzzle:%s: expected npuzzle:WxH[:blank-first|blank-last] (W columns, "
                           "H rows, 2..8 each; npuzzle:4x4, npuzzle:6x6:blank-last)",
                           args);
    if (w < NP_MIN_SIDE || w > NP_MAX_SIDE || h < NP_MIN_SIDE || h > NP_MAX_SIDE) {
        /* the sides as written: a clamped value would name another board */
        int wl = (int)strcspn(args, "x"), hl = (int)strcspn(args + wl + 1, ":");
        return dom_np_fail(in, DOM_ERR_ARG,
                           "npuzzle:%s: a %.*s by %.*s board is out of range; each side must be "
                           "%d..%d",
                           args, wl, args, hl, args + wl + 1, NP_MIN_SIDE, NP_MAX_SIDE);
    }
    const char *goal = *end == ':' ? end + 1 : "blank-first";
    if (!strcmp(goal, "blank-last"))
        in->blank_last = 1;
    else if (strcmp(goal, "blank-first"))
        return dom_np_fail(in, DOM_ERR_ARG,
                           "npuzzle:%s: unknown goal layout '%s' (blank-first or blank-last)", args,
                           goal);
    in->w = w;
    in->h = h;
    in->cells = w * h;
    return 0;
}

/* Cell tables: neighbours, goal cells, Manhattan distances. */
static void make_tables(np_dom *in)
{
    int w = in->w, h = in->h, n = in->cells;
    for (int c = 0; c < n; c++) {
        int r = c / w, k = c % w;
        in->next[NP_UP][c] = (int8_t)(r > 0 ? c - w : -1);
        in->next[NP_DOWN][c] = (int8_t)(r < h - 1 ? c + w : -1);
        in->next[NP_LEFT][c] = (int8_t)(k > 0 ? c - 1 : -1);
        in->next[NP_RIGHT][c] = (int8_t)(k < w - 1 ? c + 1 : -1);
    }
    for (int t = 0; t < n; t++) {
        int g = in->blank_last ? (t == 0 ? n - 1 : t - 1) : t;
        in->goal_cell[t] = (uint8_t)g;
        in->goal_row[t] = (uint8_t)(g / w);
        in->goal_col[t] = (uint8_t)(g % w);
        for (int c = 0; c < n; c++)
            in->dist[t][c] = (uint8_t)(abs(c / w - g / w) + abs(c % w - g % w));
    }
    uint8_t tile_at[NP_MAX_CELLS];
    for (int t = 0; t < n; t++)
        tile_at[in->goal_cell[t]] = (uint8_t)t;
    for (int c = 0; c < n && w == h; c++)
        in->mirror_cell[c] = (uint8_t)(c % w * w + c / w);
    for (int t = 0; t < n && w == h; t++)
        in->mirror_tile[t] = tile_at[in->mirror_cell[in->goal_cell[t]]];
}

/* About how far a random board lies from the goal: its expected Manhattan
 * distance plus one move per tile. That matches the known means of random
 * boards (8-puzzle 14.0 + 8 = 22 against 21.97, 15-puzzle 37.5 + 15 = 52.5
 * against 52.6, 24-puzzle 76.8 + 24 = 101 against Korf & Felner's 100.8);
 * random walks use it as a length that looks random. */
static uint32_t typical_depth(const np_dom *in)
{
    double md = 0;
    for (int t = 1; t < in->cells; t++)
        for (int c = 0; c < in->cells; c++)
            md += in->dist[t][c];
    return (uint32_t)(md / in->cells + in->cells - 1 + 0.5);
}

static void fill_facts(np_dom *in, dom_facts *f)
{
    const char *g = in->blank_last ? ":blank-last" : "";
    const char *gname = in->blank_last ? "blank-last" : "blank-first";
    snprintf(in->canonical, sizeof in->canonical, "npuzzle:%dx%d%s", in->w, in->h, g);
    /* the name search/npuzzle/encode.c writes for square boards */
    if (in->w == in->h)
        snprintf(in->encoding, sizeof in->encoding, "npuzzle-onehot n=%d goal=%s", in->w, gname);
    else
        snprintf(in->encoding, sizeof in->encoding, "npuzzle-onehot n=%dx%d goal=%s", in->w, in->h,
                 gname);
    char sizes[120];
    dom_np_default_partition(in, sizes, sizeof sizes);
    snprintf(in->default_pdb, sizeof in->default_pdb, "pdb:%s", sizes);
    snprintf(in->heuristics, sizeof in->heuristics, "lc,manhattan,%s", in->default_pdb);
    f->canonical = in->canonical;
    f->encoding = in->encoding;
    f->state_bytes = (uint32_t)in->cells + 1;
    f->nmoves = 4;
    f->move_name = MOVE_NAME;
    f->move_sep = "";
    f->inverse = INVERSE;
    f->cost = NULL;
    f->prune_states = 5;
    f->prune_next = PRUNE_NEXT;
    f->inputs = (uint32_t)(in->cells * in->cells);
    f->max_active = (uint32_t)in->cells;
    f->max_delta = 2;
    f->heuristics = in->heuristics;
    f->patterns = "";
    f->has_uniform = 1;
    f->typical_depth = typical_depth(in);
    f->symmetries = in->w == in->h ? 2 : 1; /* the mirror image of a square board */
}

static void *np_create(const char *args, const dom_host *host, dom_facts *facts)
{
    np_dom *in = calloc(1, sizeof *in);
    if (!in) {
        host->fail(DOM_ERR_NOMEM, "out of memory for an npuzzle instance");
        return NULL;
    }
    in->host = host;
    if (parse_args(in, args ? args : "")) {
        free(in);
        return NULL;
    }
    make_tables(in);
    fill_facts(in, facts);
    return in;
}

static void np_destroy(void *inst)
{
    free(inst);
}

/* ---- the two hot calls ---- */

static int np_expand(const void *inst, const void *state, uint64_t allowed, void *children,
                     uint8_t *moves)
{
    const np_dom *in = inst;
    const uint8_t *s = state;
    size_t sb = (size_t)in->cells + 1;
    int b = s[in->cells], n = 0;
    uint8_t *c = children;
    for (int m = 0; m < 4; m++) {
        int to = in->next[m][b];
        if (to < 0 || !(allowed >> m & 1))
            continue;
        memcpy(c, s, sb);
        c[b] = s[to];
        c[to] = 0;
        c[in->cells] = (uint8_t)to;
        moves[n++] = (uint8_t)m;
        c += sb;
    }
    return n;
}

static int np_apply(const void *inst, void *state, int move)
{
    const np_dom *in = inst;
    uint8_t *s = state;
    int b = s[in->cells], to = in->next[move & 3][b];
    if (to < 0)
        return 0;
    s[b] = s[to];
    s[to] = 0;
    s[in->cells] = (uint8_t)to;
    return 1;
}

static void np_goal(const void *inst, void *state)
{
    const np_dom *in = inst;
    uint8_t *s = state;
    for (int t = 0; t < in->cells; t++)
        s[in->goal_cell[t]] = (uint8_t)t;
    s[in->cells] = in->goal_cell[0];
}

/* ---- encoding: input t * C + p is on when cell p holds tile t ---- */

/* Map 1 of a square board: its mirror image across the main diagonal, the
 * tiles renamed so that the goal maps to the goal (a move maps to a move). */
static void np_symmetric(const void *inst, const void *state, uint32_t k, void *out)
{
    const np_dom *in = inst;
    const uint8_t *s = state;
    uint8_t *m = out;
    (void)k;
    for (int c = 0; c < in->cells; c++)
        m[in->mirror_cell[c]] = in->mirror_tile[s[c]];
    m[in->cells] = in->mirror_cell[s[in->cells]];
}

/* The mirror across the main diagonal swaps the blank's moves up and left,
 * down and right (U D L R are 0 1 2 3). */
static void np_symmetric_path(const void *inst, uint32_t k, uint8_t *moves, int n)
{
    (void)inst;
    (void)k;
    for (int i = 0; i < n; i++)
        moves[i] ^= 2;
}

static int np_encode(const void *inst, const void *state, int32_t *active)
{
    const np_dom *in = inst;
    const uint8_t *s = state;
    int n = in->cells;
    for (int p = 0; p < n; p++)
        active[p] = s[p] * n + p;
    return n;
}

static int np_encode_delta(const void *inst, const void *state, int move, int32_t *off, int *noff,
                           int32_t *on, int *non)
{
    const np_dom *in = inst;
    const uint8_t *s = state;
    int n = in->cells, b = s[n], to = in->next[move & 3][b];
    if (to < 0)
        return -1;
    int t = s[to]; /* tile t goes from `to` to b, the blank from b to `to` */
    off[0] = t * n + to;
    off[1] = b;
    on[0] = t * n + b;
    on[1] = to;
    *noff = *non = 2;
    return 0;
}

/* A model of the other goal layout reads a board turned by 180 degrees
 * with tile t renamed N - t (the blank stays 0): that maps one goal onto
 * the other and every move onto its opposite, so costs are kept (the
 * conversion search/npuzzle/board.c makes). */
static int np_encode_as(const void *inst, const char *encoding, int32_t *map)
{
    const np_dom *in = inst;
    char other[64];
    const char *gname = in->blank_last ? "blank-first" : "blank-last";
    if (in->w == in->h)
        snprintf(other, sizeof other, "npuzzle-onehot n=%d goal=%s", in->w, gname);
    else
        snprintf(other, sizeof other, "npuzzle-onehot n=%dx%d goal=%s", in->w, in->h, gname);
    if (strcmp(encoding, other))
        return -1;
    int n = in->cells;
    for (int t = 0; t < n; t++)
        for (int p = 0; p < n; p++)
            map[t * n + p] = (t ? n - t : 0) * n + (n - 1 - p);
    return 0;
}

/* ---- uniform random boards ---- */

static uint32_t rng_below(dom_rng *r, uint32_t n)
{
    uint64_t lim = UINT64_MAX - UINT64_MAX % n, x;
    do
        x = r->next(r->ctx);
    while (x >= lim);
    return (uint32_t)(x % n);
}

/* A uniform permutation, then, when it cannot reach the goal, two tiles
 * swapped: that swap is a bijection from the unsolvable boards onto the
 * solvable ones with the same blank cell, so the result stays uniform. */
static int np_random_state(const void *inst, void *state, dom_rng *rng)
{
    const np_dom *in = inst;
    uint8_t *s = state;
    int n = in->cells;
    for (int i = 0; i < n; i++)
        s[i] = (uint8_t)i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(rng, (uint32_t)i + 1);
        uint8_t t = s[i];
        s[i] = s[j];
        s[j] = t;
    }
    int blank = 0;
    while (s[blank])
        blank++;
    s[n] = (uint8_t)blank;
    if (!dom_np_solvable(in, s, blank)) {
        int a = blank == 0 ? 1 : 0, b = blank <= 1 ? 2 : 1;
        uint8_t t = s[a];
        s[a] = s[b];
        s[b] = t;
    }
    return 0;
}

const dom_def dom_npuzzle_def = {
    .abi_version = DOM_ABI_VERSION,
    .struct_size = sizeof(dom_def),
    .name = "npuzzle",
    .summary = "sliding-tile puzzle on a W x H board (8-, 15-, 24-, 35-, 48-puzzle, rectangles)",
    .args_help = "WxH[:blank-first|blank-last] (W columns, H rows, 2..8 each; goal 0 1 2 .. by "
                 "default, blank-last = 1 2 .. 0)",
    .create = np_create,
    .destroy = np_destroy,
    .expand = np_expand,
    .apply = np_apply,
    .goal = np_goal,
    .is_goal = NULL,
    .encode = np_encode,
    .encode_delta = np_encode_delta,
    .random_state = np_random_state,
    .parse_state = dom_np_parse_state,
    .format_state = dom_np_format_state,
    .parse_moves = NULL,
    .heur_open = dom_np_heur_open,
    .heur_eval = dom_np_heur_eval,
    .heur_free = dom_np_heur_free,
    .pattern_open = NULL,
    .between = dom_np_between,
    .symmetric = np_symmetric,
    .symmetric_path = np_symmetric_path,
    .heur_delta = dom_np_heur_delta,
    .encode_as = np_encode_as,
    .between_open = dom_np_between_open,
};
