/* The move encoder emp-move-v1: fixed-length features of a candidate move
 * (swap of cells a and b with new rotations, or a re-rotation when a == b)
 * in its board context. "mm" is the number of mismatched joins of a cell
 * with its in-board neighbours (0..4); "after" means with the move applied.
 *
 *   i  name        value
 *   0  delta       immediate score change of the move (joins)
 *   1  rotate      1 when the move re-rotates one piece (a == b)
 *   2  edge        1 when the cells are frame edge cells
 *   3  corner      1 when the cells are corner cells
 *   4  adjacent    1 when a and b are neighbours
 *   5  score       board score / joins before the move
 *   6  mm_a        mm(a) before / 4
 *   7  mm_a_after  mm(a) after / 4
 *   8  mm_b        mm(b) before / 4
 *   9  mm_b_after  mm(b) after / 4
 *  10  nbmm_a      sum of mm over a's neighbours before / 8
 *  11  nbmm_b      the same for b
 *  12  rare_a      mean rarity of the colours on the unmatched sides of the
 *                  piece at a after the move, rarity(c) = ln(4N / count of
 *                  piece sides of colour c) / ln(4N); 0 when all match
 *  13  rare_b      the same for b
 *  14  age_a       ln(1 + syncs since cell a last changed) / 8
 *  15  age_b       the same for b
 *  16  dist        Manhattan distance of a and b / (W + H)
 *  17  size        ln(W * H) / 8
 *
 * The mismatch counts before the move are cached per cell and updated
 * incrementally by srch_em_feat_sync; srch_em_feat_move_scratch recounts
 * them from the board, which the tests compare. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/emp/srch_em_int.h"
#include "search/emp/srch_em_scorer.h"

struct srch_em_feat {
    const srch_em_inst *in;
    int n;
    int *piece; /* board snapshot of the last sync */
    uint8_t *rot;
    uint8_t *mm; /* mismatches per cell at the last sync */
    uint8_t *dirty;
    int *age;
    float *rare; /* rarity per colour */
    int synced;
};

static const char *const feat_names[SRCH_EM_FEAT_DIM] = {
    "delta",      "rotate", "edge",   "corner", "adjacent", "score", "mm_a",  "mm_a_after", "mm_b",
    "mm_b_after", "nbmm_a", "nbmm_b", "rare_a", "rare_b",   "age_a", "age_b", "dist",       "size"};

const char *srch_em_feat_name(int i)
{
    return i >= 0 && i < SRCH_EM_FEAT_DIM ? feat_names[i] : "?";
}

void srch_em_feat_free(srch_em_feat *f)
{
    if (!f)
        return;
    free(f->piece);
    free(f->rot);
    free(f->mm);
    free(f->dirty);
    free(f->age);
    free(f->rare);
    free(f);
}

srch_em_feat *srch_em_feat_new(const srch_em_inst *in, int *status)
{
    srch_em_feat *f = calloc(1, sizeof *f);
    size_t n = (size_t)in->n;
    if (f) {
        f->in = in;
        f->n = in->n;
        f->piece = malloc(sizeof *f->piece * n);
        f->rot = malloc(n);
        f->mm = calloc(n, 1);
        f->dirty = calloc(n, 1);
        f->age = calloc(n, sizeof *f->age);
        f->rare = calloc((size_t)in->ncol + 1, sizeof *f->rare);
    }
    int *cnt = calloc((size_t)in->ncol + 1, sizeof *cnt);
    if (!f || !f->piece || !f->rot || !f->mm || !f->dirty || !f->age || !f->rare || !cnt) {
        srch_em_feat_free(f);
        free(cnt);
        *status = hn_fail(HN_ERR_NOMEM, "out of memory for the move features");
        return NULL;
    }
    for (int p = 0; p < in->n; p++)
        for (int s = 0; s < 4; s++)
            cnt[srch_em_pc(in, p, 0)[s]]++;
    double total = 4.0 * in->n;
    for (int c = 0; c < in->ncol; c++)
        f->rare[c] = cnt[c] ? (float)(log(total / cnt[c]) / log(total)) : 1.0f;
    free(cnt);
    return f;
}

/* Colour on side k of the piece at cell c (the sentinel cell n is empty). */
static int side_colour(const srch_em_board *b, int c, int k)
{
    return srch_em_pc(b->inst, b->piece[c], b->rot[c])[k];
}

static int join_ok(const srch_em_board *b, int c, int k)
{
    int q = b->inst->nb[(size_t)c * 4 + (size_t)k];
    int oc = side_colour(b, q, (k + 2) & 3);
    return side_colour(b, c, k) == oc && oc != 0;
}

/* Mismatched joins of cell c with its in-board neighbours. */
static int cell_mm(const srch_em_board *b, int c)
{
    int m = 0;
    for (int k = 0; k < 4; k++)
        m += b->inst->nb[(size_t)c * 4 + (size_t)k] != b->n && !join_ok(b, c, k);
    return m;
}

/* Mean rarity of the colours on the unmatched in-board sides of cell c. */
static float cell_rare(const srch_em_feat *f, const srch_em_board *b, int c)
{
    float sum = 0;
    int k_un = 0;
    for (int k = 0; k < 4; k++) {
        if (b->inst->nb[(size_t)c * 4 + (size_t)k] == b->n || join_ok(b, c, k))
            continue;
        sum += f->rare[side_colour(b, c, k)];
        k_un++;
    }
    return k_un ? sum / (float)k_un : 0.0f;
}

void srch_em_feat_sync(srch_em_feat *f, const srch_em_board *b)
{
    const int *nb = f->in->nb;
    int n = f->n;
    for (int c = 0; c < n; c++) {
        if (!f->synced || f->piece[c] != b->piece[c] || f->rot[c] != b->rot[c]) {
            f->age[c] = 0;
            f->piece[c] = b->piece[c];
            f->rot[c] = b->rot[c];
            f->dirty[c] = 1;
            for (int k = 0; k < 4; k++)
                if (nb[c * 4 + k] != n)
                    f->dirty[nb[c * 4 + k]] = 1;
        } else if (f->age[c] < (1 << 30)) {
            f->age[c]++;
        }
    }
    for (int c = 0; c < n; c++)
        if (f->dirty[c]) {
            f->mm[c] = (uint8_t)cell_mm(b, c);
            f->dirty[c] = 0;
        }
    f->synced = 1;
}

static int nb_sum(const srch_em_feat *f, const srch_em_board *b, int c, int cached)
{
    int s = 0;
    for (int k = 0; k < 4; k++) {
        int q = f->in->nb[(size_t)c * 4 + (size_t)k];
        if (q != f->n)
            s += cached ? f->mm[q] : cell_mm(b, q);
    }
    return s;
}

/* Shared body: `cached` takes the before-move counts from the context. */
static void encode(const srch_em_feat *f, srch_em_board *b, const srch_em_move *m, float *out,
                   int cached)
{
    const srch_em_inst *in = f->in;
    int a = m->a, c = m->b, ra = b->rot[a], rc = b->rot[c], before = b->score;
    int w = in->w;
    out[0] = 0;
    out[1] = a == c;
    out[2] = in->cclass[a] == SRCH_EM_EDGE;
    out[3] = in->cclass[a] == SRCH_EM_CORNER;
    int adj = 0;
    for (int k = 0; k < 4; k++)
        adj |= in->nb[(size_t)a * 4 + (size_t)k] == c;
    out[4] = (float)adj;
    int joins = 2 * in->w * in->h - in->w - in->h;
    out[5] = joins > 0 ? (float)before / (float)joins : 0.0f;
    out[6] = (float)(cached ? f->mm[a] : cell_mm(b, a)) / 4.0f;
    out[8] = (float)(cached ? f->mm[c] : cell_mm(b, c)) / 4.0f;
    out[10] = (float)nb_sum(f, b, a, cached) / 8.0f;
    out[11] = (float)nb_sum(f, b, c, cached) / 8.0f;
    srch_em_move_apply(b, m);
    out[0] = (float)(b->score - before);
    out[7] = (float)cell_mm(b, a) / 4.0f;
    out[9] = (float)cell_mm(b, c) / 4.0f;
    out[12] = cell_rare(f, b, a);
    out[13] = cell_rare(f, b, c);
    srch_em_move undo = {.a = a, .b = c, .ra = ra, .rb = rc};
    srch_em_move_apply(b, &undo);
    out[14] = (float)(log1p((double)f->age[a]) / 8.0);
    out[15] = (float)(log1p((double)f->age[c]) / 8.0);
    out[16] = (float)(abs(a / w - c / w) + abs(a % w - c % w)) / (float)(in->w + in->h);
    out[17] = (float)(log((double)in->n) / 8.0);
}

void srch_em_feat_move(srch_em_feat *f, srch_em_board *b, const srch_em_move *m, float *out)
{
    encode(f, b, m, out, 1);
}

void srch_em_feat_move_scratch(const srch_em_feat *f, srch_em_board *b, const srch_em_move *m,
                               float *out)
{
    encode(f, b, m, out, 0);
}
