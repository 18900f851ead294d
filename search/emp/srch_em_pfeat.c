/* The encoder emp-place-v1: features of a placement candidate at a cell of
 * the scan-row backtracker, from counts kept incrementally as the
 * backtracker pushes and pops pieces (supply of each colour among the
 * unplaced pieces, open demands, unplaced items per cell kind and colours). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/emp/srch_em_int.h"
#include "search/emp/srch_em_place.h"

enum { PF_KINDS = 9, PF_ITEMS = 16 };

/* One (kind, west, north) item a piece contributes to the counts. */
typedef struct {
    uint8_t kind, w, n;
} pf_item;

/* Everything recounted by encode_scratch; the incremental path keeps it. */
typedef struct {
    int *supply;  /* [ncol] sides of each colour among unplaced pieces */
    int *open;    /* [ncol] sides of each colour placed pieces show to empty in-board cells */
    int *wn;      /* [PF_KINDS * ncol * ncol] unplaced items per kind and (west, north) */
    int *w1, *n1; /* [PF_KINDS * ncol] per kind and west / north alone */
} pf_counts;

struct srch_em_pfeat {
    const srch_em_inst *in;
    int n, ncol, nkinds;
    int *cell_kind;  /* [n] */
    pf_item *items;  /* [n * PF_ITEMS] */
    uint8_t *nitems; /* [n] */
    int *piece;      /* [n + 1]: piece per cell, -1 empty; the sentinel n is "outside" */
    uint8_t *rot;    /* [n + 1] */
    int *stack, top; /* cells in push order */
    uint8_t *mark;   /* [n] scratch of recount: pieces on the board */
    pf_counts c;
};

static const char *const pf_names[SRCH_EM_PLACE_DIM] = {
    "cost",   "east_fill", "east_open", "east_fill_w", "south_fill", "south_open",
    "rare_e", "rare_s",    "excess_e",  "excess_s",    "dead",       "dead_delta",
    "depth",  "frame",     "breaks",    "slack",       "size",       "piece_rare"};

const char *srch_em_pfeat_name(int i)
{
    return i >= 0 && i < SRCH_EM_PLACE_DIM ? pf_names[i] : "?";
}

static int counts_alloc(pf_counts *c, int ncol)
{
    size_t k = (size_t)ncol;
    c->supply = calloc(k, sizeof(int));
    c->open = calloc(k, sizeof(int));
    c->wn = calloc(PF_KINDS * k * k, sizeof(int));
    c->w1 = calloc(PF_KINDS * k, sizeof(int));
    c->n1 = calloc(PF_KINDS * k, sizeof(int));
    return c->supply && c->open && c->wn && c->w1 && c->n1 ? HN_OK : HN_ERR_NOMEM;
}

static void counts_free(pf_counts *c)
{
    free(c->supply), free(c->open), free(c->wn), free(c->w1), free(c->n1);
}

/* Kinds as the scan keys them: inner, or class and outward side. */
static int kind_key(const srch_em_inst *in, int cell)
{
    return in->cclass[cell] == SRCH_EM_INNER ? -1 : in->cclass[cell] * 4 + in->cout[cell];
}

/* The cell kinds, and each piece's items: per kind of its class, the
 * rotations the frame rule allows there. */
static void build_items(srch_em_pfeat *f)
{
    const srch_em_inst *in = f->in;
    int key[PF_KINDS], rep[PF_KINDS];
    for (int c = 0; c < f->n; c++) {
        int k = 0, kk = kind_key(in, c);
        while (k < f->nkinds && key[k] != kk)
            k++;
        if (k == f->nkinds && f->nkinds < PF_KINDS)
            key[f->nkinds] = kk, rep[f->nkinds++] = c;
        f->cell_kind[c] = k < PF_KINDS ? k : 0;
    }
    for (int p = 0; p < f->n; p++) {
        int m = 0;
        for (int k = 0; k < f->nkinds; k++) {
            if (in->pclass[p] != in->cclass[rep[k]])
                continue;
            for (int r = 0; r < 4 && m < PF_ITEMS; r++) {
                if (in->pclass[p] != SRCH_EM_INNER && r != srch_em_rot_for(in, p, rep[k]))
                    continue;
                const uint8_t *col = srch_em_pc(in, p, r);
                f->items[p * PF_ITEMS + m++] =
                    (pf_item){(uint8_t)k, col[SRCH_EM_W], col[SRCH_EM_N]};
            }
        }
        f->nitems[p] = (uint8_t)m;
    }
}

/* Add (sign +1) or remove (-1) piece p to the unplaced counts. */
static void count_piece(const srch_em_pfeat *f, pf_counts *c, int p, int sign)
{
    const uint8_t *col = srch_em_pc(f->in, p, 0);
    for (int k = 0; k < 4; k++)
        c->supply[col[k]] += sign;
    size_t nc = (size_t)f->ncol;
    for (int i = 0; i < f->nitems[p]; i++) {
        const pf_item *it = &f->items[p * PF_ITEMS + i];
        c->wn[(it->kind * nc + it->w) * nc + it->n] += sign;
        c->w1[it->kind * nc + it->w] += sign;
        c->n1[it->kind * nc + it->n] += sign;
    }
}

/* The open demands around `cell` change when it is filled (sign +1) or
 * emptied (-1): its sides facing empty cells open, the sides of placed
 * neighbours facing it close. */
static void count_open(const srch_em_pfeat *f, pf_counts *c, int cell, int sign)
{
    const srch_em_inst *in = f->in;
    const uint8_t *col = srch_em_pc(in, f->piece[cell], f->rot[cell]);
    for (int k = 0; k < 4; k++) {
        int q = in->nb[(size_t)cell * 4 + k];
        if (q == f->n)
            continue;
        if (f->piece[q] < 0)
            c->open[col[k]] += sign;
        else
            c->open[srch_em_pc(in, f->piece[q], f->rot[q])[(k + 2) & 3]] -= sign;
    }
}

static void place(srch_em_pfeat *f, pf_counts *c, int cell, int p, int r)
{
    f->piece[cell] = p;
    f->rot[cell] = (uint8_t)r;
    count_piece(f, c, p, -1);
    count_open(f, c, cell, +1);
}

static void unplace(srch_em_pfeat *f, pf_counts *c, int cell)
{
    count_open(f, c, cell, -1);
    count_piece(f, c, f->piece[cell], +1);
    f->piece[cell] = -1;
}

/* All counts from the placed pieces alone. */
static void recount(const srch_em_pfeat *f, pf_counts *c)
{
    size_t nc = (size_t)f->ncol;
    memset(c->supply, 0, nc * sizeof(int));
    memset(c->open, 0, nc * sizeof(int));
    memset(c->wn, 0, PF_KINDS * nc * nc * sizeof(int));
    memset(c->w1, 0, PF_KINDS * nc * sizeof(int));
    memset(c->n1, 0, PF_KINDS * nc * sizeof(int));
    memset(f->mark, 0, (size_t)f->n);
    for (int cell = 0; cell < f->n; cell++)
        if (f->piece[cell] >= 0)
            f->mark[f->piece[cell]] = 1;
    for (int p = 0; p < f->n; p++)
        if (!f->mark[p])
            count_piece(f, c, p, +1);
    const srch_em_inst *in = f->in;
    for (int cell = 0; cell < f->n; cell++) {
        if (f->piece[cell] < 0)
            continue;
        const uint8_t *col = srch_em_pc(in, f->piece[cell], f->rot[cell]);
        for (int k = 0; k < 4; k++) {
            int q = in->nb[(size_t)cell * 4 + k];
            if (q != f->n && f->piece[q] < 0)
                c->open[col[k]]++;
        }
    }
}

void srch_em_pfeat_free(srch_em_pfeat *f)
{
    if (!f)
        return;
    counts_free(&f->c);
    free(f->cell_kind), free(f->items), free(f->nitems), free(f->piece), free(f->rot);
    free(f->stack), free(f->mark);
    free(f);
}

srch_em_pfeat *srch_em_pfeat_new(const srch_em_inst *in, int *status)
{
    srch_em_pfeat *f = calloc(1, sizeof *f);
    if (!f) {
        *status = hn_fail(HN_ERR_NOMEM, "out of memory for the place encoder");
        return NULL;
    }
    f->in = in, f->n = in->n, f->ncol = in->ncol;
    size_t n = (size_t)in->n;
    f->cell_kind = malloc(sizeof(int) * n);
    f->items = malloc(sizeof(pf_item) * n * PF_ITEMS);
    f->nitems = malloc(n);
    f->piece = malloc(sizeof(int) * (n + 1));
    f->rot = calloc(n + 1, 1);
    f->stack = malloc(sizeof(int) * n);
    f->mark = malloc(n);
    if (!f->cell_kind || !f->items || !f->nitems || !f->piece || !f->rot || !f->stack || !f->mark ||
        counts_alloc(&f->c, f->ncol) != HN_OK) {
        srch_em_pfeat_free(f);
        *status = hn_fail(HN_ERR_NOMEM, "out of memory for the place encoder");
        return NULL;
    }
    build_items(f);
    for (size_t c = 0; c <= n; c++)
        f->piece[c] = -1;
    for (int k = 0; k < in->nclues; k++) {
        f->piece[in->clue_cell[k]] = in->clue_piece[k];
        f->rot[in->clue_cell[k]] = (uint8_t)in->clue_rot[k];
    }
    recount(f, &f->c);
    return f;
}

void srch_em_pfeat_push(srch_em_pfeat *f, int cell, int p, int r)
{
    place(f, &f->c, cell, p, r);
    f->stack[f->top++] = cell;
}

void srch_em_pfeat_pop(srch_em_pfeat *f)
{
    if (f->top > 0)
        unplace(f, &f->c, f->stack[--f->top]);
}

int srch_em_pfeat_depth(const srch_em_pfeat *f)
{
    return f->top;
}

void srch_em_pfeat_at(const srch_em_pfeat *f, int k, int *cell, int *p, int *r)
{
    *cell = f->stack[k];
    *p = f->piece[*cell];
    *r = f->rot[*cell];
}

/* Rarity of a colour among the unplaced sides, 0 (common) .. 1 (none left). */
static float rarity(const srch_em_pfeat *f, const pf_counts *c, int colour)
{
    double all = 4.0 * f->n;
    return (float)(log(all / (1.0 + c->supply[colour])) / log(all));
}

/* Demands no unplaced side can meet any more: each is a join that will be
 * left unmatched. */
static int dead_demands(const srch_em_pfeat *f, const pf_counts *c)
{
    int d = 0;
    for (int k = 1; k < f->ncol; k++)
        d += c->open[k] > c->supply[k] ? c->open[k] - c->supply[k] : 0;
    return d;
}

/* The colour the cell north of `cell` shows south: grey outside, -1 empty. */
static int north_shows(const srch_em_pfeat *f, int cell)
{
    int q = f->in->nb[(size_t)cell * 4 + SRCH_EM_N];
    if (q == f->n)
        return 0;
    return f->piece[q] < 0 ? -1 : srch_em_pc(f->in, f->piece[q], f->rot[q])[SRCH_EM_S];
}

/* Joins of the placed piece on `cell` with its placed neighbours that
 * do not match (the breaks this placement makes). */
static int cost_of(const srch_em_pfeat *f, int cell)
{
    const srch_em_inst *in = f->in;
    const uint8_t *col = srch_em_pc(in, f->piece[cell], f->rot[cell]);
    int cost = 0;
    for (int k = 0; k < 4; k++) {
        int q = in->nb[(size_t)cell * 4 + k];
        if (q != f->n && f->piece[q] >= 0)
            cost += col[k] != srch_em_pc(in, f->piece[q], f->rot[q])[(k + 2) & 3];
    }
    return cost;
}

/* The fillers of the east cell: unplaced items of its kind whose west
 * matches `e` (and whose north matches what its north neighbour shows). */
static void east_features(const srch_em_pfeat *f, const pf_counts *c, int cell, int e, float *x)
{
    int q = f->in->nb[(size_t)cell * 4 + SRCH_EM_E];
    if (q == f->n || f->piece[q] >= 0)
        return;
    size_t nc = (size_t)f->ncol, k = (size_t)f->cell_kind[q];
    int north = north_shows(f, q);
    int fill_w = c->w1[k * nc + e];
    int fill = north < 0 ? fill_w : c->wn[(k * nc + e) * nc + north];
    x[1] = (float)(log1p(fill) / 4);
    x[2] = 1;
    x[3] = (float)(log1p(fill_w) / 4);
    x[6] = rarity(f, c, e);
    x[8] = (float)(c->supply[e] - c->open[e]) / 16;
}

static void south_features(const srch_em_pfeat *f, const pf_counts *c, int cell, int s, float *x)
{
    int q = f->in->nb[(size_t)cell * 4 + SRCH_EM_S];
    if (q == f->n || f->piece[q] >= 0)
        return;
    size_t nc = (size_t)f->ncol, k = (size_t)f->cell_kind[q];
    x[4] = (float)(log1p(c->n1[k * nc + s]) / 4);
    x[5] = 1;
    x[7] = rarity(f, c, s);
    x[9] = (float)(c->supply[s] - c->open[s]) / 16;
}

/* The features with p placed on `cell` under counts c (dead_before and
 * piece_rare measured before the placement). */
static void features(const srch_em_pfeat *f, const pf_counts *c, int cell, int p, int r,
                     const srch_em_place_ctx *ctx, int dead_before, float piece_rare, float *x)
{
    const srch_em_inst *in = f->in;
    const uint8_t *col = srch_em_pc(in, p, r);
    memset(x, 0, sizeof(float) * SRCH_EM_PLACE_DIM);
    int cost = cost_of(f, cell), dead = dead_demands(f, c);
    x[0] = (float)cost;
    east_features(f, c, cell, col[SRCH_EM_E], x);
    south_features(f, c, cell, col[SRCH_EM_S], x);
    x[10] = (float)dead / 8;
    x[11] = (float)(dead - dead_before);
    x[12] = ctx->depths > 0 ? (float)ctx->depth / (float)ctx->depths : 0;
    x[13] = in->cclass[cell] != SRCH_EM_INNER;
    float scale = 1.0f + (float)ctx->budget;
    x[14] = (float)(ctx->breaks + cost) / scale;
    x[15] = (float)(ctx->allowed - ctx->breaks - cost) / scale;
    x[16] = (float)(log((double)f->n) / 8);
    x[17] = piece_rare;
}

/* Mean rarity of the piece's coloured sides before it is placed. */
static float piece_rarity(const srch_em_pfeat *f, const pf_counts *c, int p)
{
    const uint8_t *col = srch_em_pc(f->in, p, 0);
    float sum = 0;
    int k = 0;
    for (int s = 0; s < 4; s++)
        if (col[s]) {
            sum += rarity(f, c, col[s]);
            k++;
        }
    return k ? sum / (float)k : 0;
}

void srch_em_pfeat_encode(srch_em_pfeat *f, int cell, int p, int r, const srch_em_place_ctx *ctx,
                          float *out)
{
    int dead_before = dead_demands(f, &f->c);
    float pr = piece_rarity(f, &f->c, p);
    place(f, &f->c, cell, p, r);
    features(f, &f->c, cell, p, r, ctx, dead_before, pr, out);
    unplace(f, &f->c, cell);
}

void srch_em_pfeat_encode_scratch(const srch_em_pfeat *f, int cell, int p, int r,
                                  const srch_em_place_ctx *ctx, float *out)
{
    pf_counts c;
    srch_em_pfeat *g = (srch_em_pfeat *)f; /* placed and restored below */
    if (counts_alloc(&c, f->ncol) != HN_OK) {
        counts_free(&c);
        memset(out, 0, sizeof(float) * SRCH_EM_PLACE_DIM);
        return;
    }
    recount(f, &c);
    int dead_before = dead_demands(f, &c);
    float pr = piece_rarity(f, &c, p);
    g->piece[cell] = p;
    g->rot[cell] = (uint8_t)r;
    recount(f, &c);
    features(f, &c, cell, p, r, ctx, dead_before, pr, out);
    g->piece[cell] = -1;
    counts_free(&c);
}

/* ---- emp-break-v1: the state of a cell whose break phases may begin ------ */

static const char *const bf_names[SRCH_EM_BREAK_DIM] = {
    "depth",  "frame",  "breaks", "slack",    "slack_end", "dead",      "fill_wn", "fill_w",
    "fill_n", "rare_w", "rare_n", "excess_w", "excess_n",  "east_open", "column",  "size"};

const char *srch_em_bfeat_name(int i)
{
    return i >= 0 && i < SRCH_EM_BREAK_DIM ? bf_names[i] : "?";
}

/* The colour the neighbour of `cell` on `side` shows it: grey outside, -1
 * when that cell is empty. */
static int shows(const srch_em_pfeat *f, int cell, int side)
{
    int q = f->in->nb[(size_t)cell * 4 + side];
    if (q == f->n)
        return 0;
    return f->piece[q] < 0 ? -1 : srch_em_pc(f->in, f->piece[q], f->rot[q])[(side + 2) & 3];
}

/* The colour side of one neighbour: its rarity and excess (0 when the
 * neighbour is empty or grey, i.e. nothing to match or break). */
static void side_features(const srch_em_pfeat *f, const pf_counts *c, int colour, float *rare,
                          float *excess)
{
    if (colour <= 0)
        return;
    *rare = rarity(f, c, colour);
    *excess = (float)(c->supply[colour] - c->open[colour]) / 16;
}

static void break_features(const srch_em_pfeat *f, const pf_counts *c, int cell,
                           const srch_em_place_ctx *ctx, float *x)
{
    const srch_em_inst *in = f->in;
    memset(x, 0, sizeof(float) * SRCH_EM_BREAK_DIM);
    float scale = 1.0f + (float)ctx->budget;
    x[0] = ctx->depths > 0 ? (float)ctx->depth / (float)ctx->depths : 0;
    x[1] = in->cclass[cell] != SRCH_EM_INNER;
    x[2] = (float)ctx->breaks / scale;
    x[3] = (float)(ctx->allowed - ctx->breaks) / scale;
    x[4] = (float)(ctx->budget - ctx->breaks) / scale;
    x[5] = (float)dead_demands(f, c) / 8;
    int w = shows(f, cell, SRCH_EM_W), nn = shows(f, cell, SRCH_EM_N);
    size_t nc = (size_t)f->ncol, k = (size_t)f->cell_kind[cell];
    int ww = w < 0 ? 0 : w, nw = nn < 0 ? 0 : nn;
    x[6] = (float)(log1p(c->wn[(k * nc + (size_t)ww) * nc + (size_t)nw]) / 4);
    x[7] = (float)(log1p(c->w1[k * nc + (size_t)ww]) / 4);
    x[8] = (float)(log1p(c->n1[k * nc + (size_t)nw]) / 4);
    side_features(f, c, w, &x[9], &x[11]);
    side_features(f, c, nn, &x[10], &x[12]);
    int q = in->nb[(size_t)cell * 4 + SRCH_EM_E];
    x[13] = q != f->n && f->piece[q] < 0;
    x[14] = (float)(cell % in->w) / (float)in->w;
    x[15] = (float)(log((double)f->n) / 8);
}

void srch_em_bfeat_encode(const srch_em_pfeat *f, int cell, const srch_em_place_ctx *ctx,
                          float *out)
{
    break_features(f, &f->c, cell, ctx, out);
}

void srch_em_bfeat_encode_scratch(const srch_em_pfeat *f, int cell, const srch_em_place_ctx *ctx,
                                  float *out)
{
    pf_counts c;
    if (counts_alloc(&c, f->ncol) != HN_OK) {
        counts_free(&c);
        memset(out, 0, sizeof(float) * SRCH_EM_BREAK_DIM);
        return;
    }
    recount(f, &c);
    break_features(f, &c, cell, ctx, out);
    counts_free(&c);
}
