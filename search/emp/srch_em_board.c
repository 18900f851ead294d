/* The board: piece and rotation per cell with the score kept up to date by
 * lifting and dropping single pieces, plus the swap+rotate move and the move
 * enumeration the learned scorer will rank. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/emp/srch_em_int.h"

void srch_em_board_free(srch_em_board *b)
{
    if (!b)
        return;
    free(b->piece);
    free(b->rot);
    free(b->pos);
    free(b->fixed);
    free(b->cells);
    free(b->pieces);
    free(b->cost);
    free(b->assign);
    free(b->hwork);
    free(b->rbest);
    free(b->mark);
    free(b->weight);
    free(b->bb_cand);
    free(b->bb_path);
    free(b->bb_best);
    free(b->bb_rem);
    free(b->bb_orig);
    free(b->bb_g);
    free(b->bb_used);
    free(b->face);
    free(b->need);
    free(b->cls_cells);
    free(b);
}

/* The walk's cell lists per class (clues left out) and the thresholds that
 * draw a class with probability proportional to its squared size. */
static void class_lists(srch_em_board *b)
{
    const srch_em_inst *in = b->inst;
    int k = 0;
    double pairs[3], total = 0;
    for (int cls = 0; cls < 3; cls++) {
        b->cls_off[cls] = k;
        for (int c = 0; c < b->n; c++)
            if (in->cclass[c] == cls && !b->fixed[c])
                b->cls_cells[k++] = c;
        b->cls_len[cls] = k - b->cls_off[cls];
        pairs[cls] = (double)b->cls_len[cls] * b->cls_len[cls];
        total += pairs[cls];
    }
    double cut = 0;
    for (int cls = 0; cls < 2; cls++) {
        cut += total > 0 ? pairs[cls] / total : 0;
        b->walk_cut[cls] = cut >= 1.0 ? UINT64_MAX : (uint64_t)(cut * 18446744073709551616.0);
    }
}

srch_em_board *srch_em_board_new(const srch_em_inst *in, int *status)
{
    srch_em_board *b = calloc(1, sizeof *b);
    int n = in->n, half = n / 2 + 2;
    if (b) {
        b->inst = in;
        b->n = n;
        b->deadline = HUGE_VAL;
        b->cap = n + 1;
        b->piece = malloc(sizeof(int) * (size_t)(n + 1));
        b->rot = calloc((size_t)n + 1, 1);
        b->pos = malloc(sizeof(int) * (size_t)(n + 1));
        b->fixed = calloc((size_t)n + 1, 1);
        b->cells = malloc(sizeof(int) * (size_t)(n + 1));
        b->pieces = malloc(sizeof(int) * (size_t)(n + 1));
        b->cost = malloc(sizeof(int) * (size_t)half * (size_t)half);
        b->assign = malloc(sizeof(int) * (size_t)(n + 1));
        b->hwork = malloc(sizeof(int) * srch_em_hungarian_work(half));
        b->rbest = malloc(sizeof(int) * (size_t)half * (size_t)half);
        b->mark = calloc((size_t)n + 1, sizeof(int));
        b->weight = malloc(sizeof(double) * (size_t)(n + 1));
        b->face = calloc((size_t)n + 1, sizeof(uint32_t));
        b->need = calloc((size_t)n + 1, sizeof(uint32_t));
        b->cls_cells = malloc(sizeof(int) * (size_t)(n + 1));
    }
    if (!b || !b->piece || !b->rot || !b->pos || !b->fixed || !b->cells || !b->pieces || !b->cost ||
        !b->assign || !b->hwork || !b->rbest || !b->mark || !b->weight || !b->face || !b->need ||
        !b->cls_cells) {
        srch_em_board_free(b);
        if (status)
            *status = hn_fail(HN_ERR_NOMEM, "out of memory for a %dx%d board", in->w, in->h);
        return NULL;
    }
    for (int c = 0; c <= n; c++) {
        b->piece[c] = n; /* empty */
        b->pos[c] = -1;
    }
    for (int k = 0; k < in->nclues; k++)
        b->fixed[in->clue_cell[k]] = 1;
    class_lists(b);
    if (status)
        *status = HN_OK;
    return b;
}

const srch_em_inst *srch_em_board_inst(const srch_em_board *b)
{
    return b->inst;
}
int srch_em_board_score(const srch_em_board *b)
{
    return b->score;
}
int srch_em_board_piece(const srch_em_board *b, int cell)
{
    return b->piece[cell];
}
int srch_em_board_rot(const srch_em_board *b, int cell)
{
    return b->rot[cell];
}
int srch_em_board_fixed(const srch_em_board *b, int cell)
{
    return b->fixed[cell];
}

int srch_em_board_cell_matches(const srch_em_board *b, int cell)
{
    return srch_em_place_score(b, cell, b->piece[cell], b->rot[cell]);
}

void srch_em_lift(srch_em_board *b, int cell)
{
    int p = b->piece[cell];
    if (p == b->n)
        return;
    b->score -= srch_em_place_score(b, cell, p, b->rot[cell]);
    b->pos[p] = -1;
    b->piece[cell] = b->n;
    b->rot[cell] = 0;
}

void srch_em_drop(srch_em_board *b, int cell, int p, int r)
{
    b->piece[cell] = p;
    b->rot[cell] = (uint8_t)r;
    b->pos[p] = cell;
    b->score += srch_em_place_score(b, cell, p, r);
}

int srch_em_board_recount(const srch_em_board *b)
{
    const srch_em_inst *in = b->inst;
    int s = 0;
    for (int c = 0; c < b->n; c++)
        for (int k = SRCH_EM_E; k <= SRCH_EM_S; k++) {
            int q = in->nb[c * 4 + k];
            if (q == b->n)
                continue;
            int a = srch_em_pc(in, b->piece[c], b->rot[c])[k];
            int o = srch_em_pc(in, b->piece[q], b->rot[q])[(k + 2) & 3];
            s += a == o && a != 0;
        }
    return s;
}

static void clear(srch_em_board *b)
{
    for (int c = 0; c <= b->n; c++) {
        b->piece[c] = b->n;
        b->rot[c] = 0;
        b->pos[c] = -1;
    }
    b->score = 0;
}

int srch_em_board_set(srch_em_board *b, const int *piece, const int *rot)
{
    const srch_em_inst *in = b->inst;
    int v = 0;
    char msg[256];
    srch_em_sol_check(in, piece, rot, &v, msg, sizeof msg);
    if (v)
        return hn_fail(HN_ERR_ARG, "assignment violates %d rule(s): %s", v, msg);
    clear(b);
    for (int c = 0; c < b->n; c++)
        srch_em_drop(b, c, piece[c], rot[c] & 3);
    return HN_OK;
}

void srch_em_board_get(const srch_em_board *b, int *piece, int *rot)
{
    for (int c = 0; c < b->n; c++) {
        piece[c] = b->piece[c] == b->n ? -1 : b->piece[c];
        rot[c] = b->rot[c];
    }
}

int srch_em_past_deadline(const srch_em_board *b)
{
    if (b->deadline == HUGE_VAL)
        return 0;
    return (b->cpu_clock ? srch_em_cpu_seconds() : hn_now()) >= b->deadline;
}

void srch_em_board_copy(srch_em_board *dst, const srch_em_board *src)
{
    memcpy(dst->piece, src->piece, sizeof(int) * (size_t)(src->n + 1));
    memcpy(dst->rot, src->rot, (size_t)src->n + 1);
    memcpy(dst->pos, src->pos, sizeof(int) * (size_t)(src->n + 1));
    dst->score = src->score;
}

void srch_em_board_random(srch_em_board *b, hn_rng *rng)
{
    const srch_em_inst *in = b->inst;
    clear(b);
    for (int k = 0; k < in->nclues; k++)
        srch_em_drop(b, in->clue_cell[k], in->clue_piece[k], in->clue_rot[k]);
    for (int cls = 0; cls < 3; cls++) {
        int m = 0, np = 0;
        for (int c = 0; c < b->n; c++)
            if (in->cclass[c] == cls && !b->fixed[c])
                b->cells[m++] = c;
        for (int p = 0; p < b->n; p++)
            if (in->pclass[p] == cls && b->pos[p] < 0)
                b->pieces[np++] = p;
        for (int i = np - 1; i > 0; i--) {
            int j = (int)hn_rng_below(rng, (uint32_t)(i + 1)), t = b->pieces[i];
            b->pieces[i] = b->pieces[j];
            b->pieces[j] = t;
        }
        for (int i = 0; i < m && i < np; i++) {
            int c = b->cells[i], p = b->pieces[i];
            int r = cls == SRCH_EM_INNER ? (int)hn_rng_below(rng, 4) : srch_em_rot_for(in, p, c);
            srch_em_drop(b, c, p, r);
        }
    }
}

/* ---- moves -------------------------------------------------------------- */

void srch_em_move_apply(srch_em_board *b, const srch_em_move *m)
{
    int pa = b->piece[m->a], pb = b->piece[m->b];
    if (m->a == m->b) {
        srch_em_lift(b, m->a);
        srch_em_drop(b, m->a, pa, m->ra);
        return;
    }
    srch_em_lift(b, m->a);
    srch_em_lift(b, m->b);
    srch_em_drop(b, m->a, pb, m->ra);
    srch_em_drop(b, m->b, pa, m->rb);
}

int srch_em_move_delta(srch_em_board *b, const srch_em_move *m)
{
    int ra = b->rot[m->a], rb = b->rot[m->b];
    int before = b->score;
    srch_em_move_apply(b, m);
    int d = b->score - before;
    /* swapping back restores both pieces with their old rotations */
    srch_em_move undo = {.a = m->a, .b = m->b, .ra = ra, .rb = rb};
    srch_em_move_apply(b, &undo);
    return d;
}

static int adjacent(const srch_em_inst *in, int a, int b)
{
    const int *nb = in->nb + (size_t)a * 4;
    return nb[0] == b || nb[1] == b || nb[2] == b || nb[3] == b;
}

void srch_em_swap_best(srch_em_board *b, srch_em_move *m)
{
    const srch_em_inst *in = b->inst;
    int a = m->a, c = m->b, pa = b->piece[a], pc = b->piece[c];
    int ra0 = b->rot[a], rc0 = b->rot[c], before = b->score;
    if (a == c) {
        srch_em_lift(b, a);
        int base = b->score;
        m->delta = srch_em_best_place(b, a, pa, &m->ra) + base - before;
        m->rb = m->ra;
        srch_em_drop(b, a, pa, ra0);
        return;
    }
    srch_em_lift(b, a);
    srch_em_lift(b, c);
    int base = b->score;
    if (!adjacent(in, a, c) || in->cclass[a] != SRCH_EM_INNER) {
        /* independent cells (frame rotations are forced, so adjacency is harmless:
         * evaluate the second after dropping the first) */
        int s1 = srch_em_best_place(b, a, pc, &m->ra);
        srch_em_drop(b, a, pc, m->ra);
        int s2 = srch_em_best_place(b, c, pa, &m->rb);
        srch_em_lift(b, a);
        m->delta = base + s1 + s2 - before;
    } else {
        int best = -1;
        for (int r1 = 0; r1 < 4; r1++) {
            int s1 = srch_em_place_score(b, a, pc, r1);
            srch_em_drop(b, a, pc, r1);
            for (int r2 = 0; r2 < 4; r2++) {
                int s2 = srch_em_place_score(b, c, pa, r2);
                if (s1 + s2 > best) {
                    best = s1 + s2;
                    m->ra = r1;
                    m->rb = r2;
                }
            }
            srch_em_lift(b, a);
        }
        m->delta = base + best - before;
    }
    b->score = base;
    srch_em_drop(b, a, pa, ra0);
    srch_em_drop(b, c, pc, rc0);
}

int srch_em_moves_enum(srch_em_board *b, int cell, srch_em_move *buf, int cap)
{
    const srch_em_inst *in = b->inst;
    int k = 0;
    if (cell < 0 || cell >= b->n || b->fixed[cell])
        return 0;
    if (in->cclass[cell] == SRCH_EM_INNER) {
        int r0 = b->rot[cell];
        for (int r = 1; r < 4 && k < cap; r++) {
            srch_em_move m = {.a = cell, .b = cell, .ra = (r0 + r) & 3, .rb = (r0 + r) & 3};
            m.delta = srch_em_move_delta(b, &m);
            buf[k++] = m;
        }
    }
    for (int c = 0; c < b->n && k < cap; c++) {
        if (c == cell || b->fixed[c] || in->cclass[c] != in->cclass[cell])
            continue;
        srch_em_move m = {.a = cell, .b = c};
        srch_em_swap_best(b, &m);
        buf[k++] = m;
    }
    return k;
}
