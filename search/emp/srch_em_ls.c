/* The assignment neighbourhoods of the seed paper: TA (k non-adjacent cells
 * reinserted by a Hungarian assignment, Wauters et al.'s biased selection),
 * BW (the checkerboard variant) and TSR (swap + rotate steepest descent). */
#include <limits.h>
#include <stdlib.h>

#include "search/emp/srch_em_int.h"

size_t srch_em_hungarian_work(int n)
{
    return 6 * ((size_t)n + 1);
}

/* Shortest augmenting paths with potentials, O(n^3); rows are added one at a
 * time and columns carry the dual prices. */
long srch_em_hungarian(int n, const int *cost, int *assign, int *work)
{
    int *u = work, *v = u + n + 1, *p = v + n + 1, *way = p + n + 1, *minv = way + n + 1;
    int *used = minv + n + 1;
    for (int j = 0; j <= n; j++)
        u[j] = v[j] = p[j] = way[j] = 0;
    for (int i = 1; i <= n; i++) {
        p[0] = i;
        int j0 = 0;
        for (int j = 0; j <= n; j++) {
            minv[j] = INT_MAX;
            used[j] = 0;
        }
        do {
            used[j0] = 1;
            int i0 = p[j0], delta = INT_MAX, j1 = 0;
            const int *row = cost + (size_t)(i0 - 1) * (size_t)n;
            for (int j = 1; j <= n; j++) {
                if (used[j])
                    continue;
                int cur = row[j - 1] - u[i0] - v[j];
                if (cur < minv[j]) {
                    minv[j] = cur;
                    way[j] = j0;
                }
                if (minv[j] < delta) {
                    delta = minv[j];
                    j1 = j;
                }
            }
            for (int j = 0; j <= n; j++) {
                if (used[j]) {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            int j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    long total = 0;
    for (int j = 1; j <= n; j++) {
        assign[p[j] - 1] = j - 1;
        total += cost[(size_t)(p[j] - 1) * (size_t)n + (size_t)(j - 1)];
    }
    return total;
}

/* Lift the pieces of cells[0..m) (pairwise non-adjacent), reinsert them by
 * an optimal assignment; ties are broken by a random piece order. */
static int reassign(srch_em_board *b, int m, hn_rng *rng)
{
    if (m < 2)
        return 0;
    int before = b->score, *cells = b->cells, *pieces = b->pieces;
    for (int i = 0; i < m; i++)
        pieces[i] = b->piece[cells[i]];
    if (rng)
        for (int i = m - 1; i > 0; i--) {
            int j = (int)hn_rng_below(rng, (uint32_t)(i + 1)), t = pieces[i];
            pieces[i] = pieces[j];
            pieces[j] = t;
        }
    for (int i = 0; i < m; i++)
        srch_em_lift(b, cells[i]);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            int r;
            b->cost[i * m + j] = -srch_em_best_place(b, cells[j], pieces[i], &r);
            b->rbest[i * m + j] = r;
        }
    b->evals += (long)m * m;
    srch_em_hungarian(m, b->cost, b->assign, b->hwork);
    for (int i = 0; i < m; i++) {
        int j = b->assign[i];
        srch_em_drop(b, cells[j], pieces[i], b->rbest[i * m + j]);
    }
    return b->score - before;
}

static int mismatches(const srch_em_board *b, int cell)
{
    const srch_em_inst *in = b->inst;
    int inside = 4 - (in->cclass[cell] == SRCH_EM_INNER ? 0 : in->cclass[cell]);
    return inside - srch_em_board_cell_matches(b, cell);
}

static int pick_class(const srch_em_board *b, hn_rng *rng)
{
    const srch_em_inst *in = b->inst;
    int inner = (in->w - 2) * (in->h - 2), edge = 2 * (in->w - 2) + 2 * (in->h - 2);
    uint32_t x = hn_rng_below(rng, (uint32_t)(inner + edge + 4));
    return x < (uint32_t)inner            ? SRCH_EM_INNER
           : x < (uint32_t)(inner + edge) ? SRCH_EM_EDGE
                                          : SRCH_EM_CORNER;
}

int srch_em_ta(srch_em_board *b, int k, hn_rng *rng)
{
    const srch_em_inst *in = b->inst;
    int cls = pick_class(b, rng), m = 0, navail = 0;
    int *avail = b->assign; /* reused before the assignment needs it */
    if (k > b->n / 2 + 1)
        k = b->n / 2 + 1;
    for (int c = 0; c < b->n; c++)
        if (in->cclass[c] == cls && !b->fixed[c]) {
            int mm = mismatches(b, c);
            avail[navail] = c;
            b->weight[navail++] = 1.0 + mm * mm;
        }
    /* roulette selection of non-adjacent cells; chosen and blocked cells drop out */
    double total = 0;
    for (int i = 0; i < navail; i++)
        total += b->weight[i];
    while (m < k && navail > 0 && total > 1e-9) {
        double x = hn_rng_uniform(rng) * total;
        int i = 0;
        while (i < navail - 1 && x >= b->weight[i]) {
            x -= b->weight[i];
            i++;
        }
        int c = avail[i];
        b->cells[m++] = c;
        /* drop c and its neighbours from the candidates */
        for (int j = 0; j < navail;) {
            int d = avail[j], adj = d == c;
            for (int s = 0; s < 4 && !adj; s++)
                adj = in->nb[c * 4 + s] == d;
            if (adj) {
                total -= b->weight[j];
                avail[j] = avail[navail - 1];
                b->weight[j] = b->weight[navail - 1];
                navail--;
            } else {
                j++;
            }
        }
    }
    return reassign(b, m, rng);
}

int srch_em_bw(srch_em_board *b, hn_rng *rng)
{
    const srch_em_inst *in = b->inst;
    int gain = 0, round;
    do {
        round = 0;
        for (int parity = 0; parity < 2; parity++)
            for (int cls = 0; cls < 3; cls++) {
                int m = 0;
                for (int c = 0; c < b->n; c++)
                    if (in->cclass[c] == cls && !b->fixed[c] &&
                        ((c / in->w + c % in->w) & 1) == parity)
                        b->cells[m++] = c;
                round += reassign(b, m, rng);
            }
        gain += round;
    } while (round > 0 && !hn_stop_requested());
    return gain;
}

int srch_em_tsr(srch_em_board *b)
{
    const srch_em_inst *in = b->inst;
    int gain = 0;
    for (;;) {
        srch_em_move best = {.delta = 0};
        for (int a = 0; a < b->n; a++) {
            if (b->fixed[a])
                continue;
            for (int c = a; c < b->n; c++) {
                if (b->fixed[c] || in->cclass[c] != in->cclass[a])
                    continue;
                if (c == a && in->cclass[a] != SRCH_EM_INNER)
                    continue;
                srch_em_move m = {.a = a, .b = c};
                srch_em_swap_best(b, &m);
                b->evals++;
                if (m.delta > best.delta)
                    best = m;
            }
        }
        if (best.delta <= 0 || hn_stop_requested())
            return gain;
        srch_em_move_apply(b, &best);
        gain += best.delta;
    }
}
