/* Exact region solver by depth-first branch and bound, and what is built on
 * it: RO (a rectangle given the rest), BO (the frame as a one-dimensional
 * problem given the inner part) and the greedy start (row bands solved one
 * after the other), which also completes a partial board. Candidates are
 * tried best join count first; the bound is the number of joins still open. */
#include <stdlib.h>
#include <string.h>

#include "search/emp/srch_em_int.h"

typedef struct {
    srch_em_board *b;
    const int *cells, *pool;
    int m, np, stride;
    long nodes, node_limit;
    int best_val, found, aborted;
    int *path, *best, *rem, *cand;
    uint8_t *g, *used;
} em_bnb;

static int grow(srch_em_board *b, int m, int np)
{
    size_t ncand = (size_t)m * (size_t)np * 4;
    if (ncand > b->bb_cap_cand) {
        int *c = realloc(b->bb_cand, sizeof(int) * ncand);
        uint8_t *g = c ? realloc(b->bb_g, ncand) : NULL;
        if (c)
            b->bb_cand = c;
        if (!g)
            return hn_fail(HN_ERR_NOMEM, "out of memory for a %d-cell region", m);
        b->bb_g = g;
        b->bb_cap_cand = ncand;
    }
    if ((size_t)m + 1 > b->bb_cap_cells) {
        size_t k = (size_t)m + 1;
        int *p = realloc(b->bb_path, sizeof(int) * k);
        if (p)
            b->bb_path = p;
        int *q = realloc(b->bb_best, sizeof(int) * k);
        if (q)
            b->bb_best = q;
        int *r = realloc(b->bb_rem, sizeof(int) * (k + 1));
        if (r)
            b->bb_rem = r;
        int *d = realloc(b->bb_orig, sizeof(int) * k);
        if (d)
            b->bb_orig = d;
        if (!p || !q || !r || !d)
            return hn_fail(HN_ERR_NOMEM, "out of memory for a %d-cell region", m);
        b->bb_cap_cells = k;
    }
    if (np > b->bb_cap_pool) {
        uint8_t *u = realloc(b->bb_used, (size_t)np);
        if (!u)
            return hn_fail(HN_ERR_NOMEM, "out of memory for a %d-piece pool", np);
        b->bb_used = u;
        b->bb_cap_pool = np;
    }
    return HN_OK;
}

static void dfs(em_bnb *s, int d, int val)
{
    srch_em_board *b = s->b;
    const srch_em_inst *in = b->inst;
    if (d == s->m) {
        if (val > s->best_val) {
            s->best_val = val;
            s->found = 1;
            memcpy(s->best, s->path, sizeof(int) * (size_t)s->m);
        }
        return;
    }
    if (++s->nodes > s->node_limit ||
        ((s->nodes & 1023) == 0 && (hn_stop_requested() || srch_em_past_deadline(s->b)))) {
        s->aborted = 1;
        return;
    }
    int cell = s->cells[d], cls = in->cclass[cell], nc = 0;
    int need = s->best_val - val - s->rem[d + 1] + 1;
    if (need > 4)
        return;
    int *cand = s->cand + (size_t)d * (size_t)s->stride;
    uint8_t *g = s->g + (size_t)d * (size_t)s->stride;
    for (int i = 0; i < s->np; i++) {
        int p = s->pool[i];
        if (s->used[i] || in->pclass[p] != cls)
            continue;
        int r0 = cls == SRCH_EM_INNER ? 0 : srch_em_rot_for(in, p, cell);
        int r1 = cls == SRCH_EM_INNER ? 3 : r0;
        for (int r = r0; r <= r1; r++) {
            int gv = srch_em_place_score(b, cell, p, r);
            if (gv >= need) {
                cand[nc] = i * 4 + r;
                g[nc++] = (uint8_t)gv;
            }
        }
    }
    for (int gv = 4; gv >= 0 && gv >= need; gv--) {
        for (int j = 0; j < nc; j++) {
            if (g[j] != gv)
                continue;
            int i = cand[j] >> 2, r = cand[j] & 3;
            if (s->used[i])
                continue; /* the same piece at another rotation is in use deeper */
            s->used[i] = 1;
            s->path[d] = cand[j];
            srch_em_drop(b, cell, s->pool[i], r);
            dfs(s, d + 1, val + gv);
            srch_em_lift(b, cell);
            s->used[i] = 0;
            if (s->aborted)
                return;
        }
        need = s->best_val - val - s->rem[d + 1] + 1;
    }
}

/* Joins that cell k of the visit order can close when it is placed. */
static void open_joins(em_bnb *s, const int *inregion)
{
    srch_em_board *b = s->b;
    const srch_em_inst *in = b->inst;
    s->rem[s->m] = 0;
    for (int k = s->m - 1; k >= 0; k--) {
        int c = s->cells[k], back = 0;
        for (int side = 0; side < 4; side++) {
            int q = in->nb[c * 4 + side];
            if (q == b->n)
                continue;
            if (inregion[q] ? inregion[q] - 1 < k : b->piece[q] != b->n)
                back++;
        }
        s->rem[k] = s->rem[k + 1] + back;
    }
}

/* mode: 0 improve the current region (incumbent = current), 1 fill empty
 * cells with the best found. */
static int run_bnb(srch_em_board *b, const int *cells, int m, const int *pool, int np,
                   long node_limit, int mode, int *proven)
{
    if (proven)
        *proven = 0;
    if (m == 0 || np < m)
        return 0;
    if (grow(b, m, np) != HN_OK)
        return 0;
    int *inregion = b->mark; /* visit position + 1, reset before returning */
    em_bnb s = {.b = b,
                .cells = cells,
                .pool = pool,
                .m = m,
                .np = np,
                .stride = np * 4,
                .node_limit = node_limit,
                .path = b->bb_path,
                .best = b->bb_best,
                .rem = b->bb_rem,
                .cand = b->bb_cand,
                .g = b->bb_g,
                .used = b->bb_used};
    int before = b->score;
    int *orig = b->bb_orig; /* mode 0: the incumbent */
    for (int k = 0; k < m; k++)
        inregion[cells[k]] = k + 1;
    memset(s.used, 0, (size_t)np);
    if (mode == 0)
        for (int k = 0; k < m; k++)
            orig[k] = b->piece[cells[k]] * 4 + b->rot[cells[k]];
    for (int k = 0; k < m; k++)
        srch_em_lift(b, cells[k]);
    open_joins(&s, inregion);
    for (int k = 0; k < m; k++)
        inregion[cells[k]] = 0;
    int base = b->score;
    /* mode 0 needs a strict gain over the incumbent */
    s.best_val = mode == 0 ? before - base : -1;
    dfs(&s, 0, 0);
    b->evals += s.nodes;
    if (proven)
        *proven = !s.aborted;
    if (s.found) {
        for (int k = 0; k < m; k++)
            srch_em_drop(b, cells[k], pool[s.best[k] >> 2], s.best[k] & 3);
    } else if (mode == 0) {
        for (int k = 0; k < m; k++)
            srch_em_drop(b, cells[k], orig[k] >> 2, orig[k] & 3);
    }
    return b->score - before;
}

int srch_em_ro(srch_em_board *b, int r0, int c0, int rh, int rw, long node_limit, int *proven)
{
    const srch_em_inst *in = b->inst;
    int m = 0;
    int *cells = b->cells, *pool = b->pieces;
    for (int r = r0; r < r0 + rh && r < in->h; r++)
        for (int c = c0; c < c0 + rw && c < in->w; c++) {
            if (r < 0 || c < 0 || b->fixed[r * in->w + c])
                continue;
            cells[m] = r * in->w + c;
            pool[m] = b->piece[cells[m]];
            m++;
        }
    return run_bnb(b, cells, m, pool, m, node_limit, 0, proven);
}

/* Frame cells clockwise from the top-left corner. */
static int frame_ring(const srch_em_inst *in, int *cells)
{
    int m = 0, w = in->w, h = in->h;
    for (int c = 0; c < w; c++)
        cells[m++] = c;
    for (int r = 1; r < h; r++)
        cells[m++] = r * w + w - 1;
    for (int c = w - 2; c >= 0; c--)
        cells[m++] = (h - 1) * w + c;
    for (int r = h - 2; r >= 1; r--)
        cells[m++] = r * w;
    return m;
}

int srch_em_bo(srch_em_board *b, long node_limit, int *proven)
{
    int m = 0, all = frame_ring(b->inst, b->assign);
    for (int k = 0; k < all; k++) {
        int c = b->assign[k];
        if (b->fixed[c])
            continue;
        b->cells[m] = c;
        b->pieces[m] = b->piece[c];
        m++;
    }
    return run_bnb(b, b->cells, m, b->pieces, m, node_limit, 0, proven);
}

/* Fill every empty non-fixed cell, band by band, each band solved by branch
 * and bound among all pieces still off the board. */
int srch_em_fill_empty(srch_em_board *b, int band, long node_limit)
{
    const srch_em_inst *in = b->inst;
    int before = b->score, np = 0;
    if (band < 1)
        band = 1;
    for (int p = 0; p < b->n; p++)
        if (b->pos[p] < 0)
            b->pieces[np++] = p;
    for (int r0 = 0; r0 < in->h; r0 += band) {
        int m = 0;
        for (int r = r0; r < r0 + band && r < in->h; r++)
            for (int c = 0; c < in->w; c++) {
                int cell = r * in->w + c;
                if (!b->fixed[cell] && b->piece[cell] == b->n)
                    b->cells[m++] = cell;
            }
        if (!m)
            continue;
        if (srch_em_past_deadline(b))
            break; /* out of time: srch_em_place_leftovers completes the board */
        run_bnb(b, b->cells, m, b->pieces, np, node_limit, 1, NULL);
        int k = 0; /* keep the pool to the pieces still off the board */
        for (int i = 0; i < np; i++)
            if (b->pos[b->pieces[i]] < 0)
                b->pieces[k++] = b->pieces[i];
        np = k;
    }
    return b->score - before;
}

void srch_em_board_clear(srch_em_board *b)
{
    const srch_em_inst *in = b->inst;
    for (int c = 0; c <= b->n; c++) {
        b->piece[c] = b->n;
        b->rot[c] = 0;
        b->pos[c] = -1;
    }
    b->score = 0;
    for (int k = 0; k < in->nclues; k++)
        srch_em_drop(b, in->clue_cell[k], in->clue_piece[k], in->clue_rot[k]);
}

/* Anything the branch and bound could not place (it always can, as the
 * classes' counts match) goes to the first free cell of its class. */
void srch_em_place_leftovers(srch_em_board *b, hn_rng *rng)
{
    const srch_em_inst *in = b->inst;
    for (int p = 0; p < b->n; p++) {
        if (b->pos[p] >= 0)
            continue;
        for (int c = 0; c < b->n; c++)
            if (b->piece[c] == b->n && !b->fixed[c] && in->cclass[c] == in->pclass[p]) {
                int r = in->pclass[p] == SRCH_EM_INNER ? (int)hn_rng_below(rng, 4)
                                                       : srch_em_rot_for(in, p, c);
                srch_em_drop(b, c, p, r);
                break;
            }
    }
}

int srch_em_greedy(srch_em_board *b, int band, long node_limit, hn_rng *rng)
{
    srch_em_board_clear(b);
    srch_em_fill_empty(b, band, node_limit);
    srch_em_place_leftovers(b, rng);
    return b->score;
}
