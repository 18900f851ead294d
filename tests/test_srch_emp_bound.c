/* The colour bound of the backtracking start (--scan-bound): its counters
 * kept incrementally equal a recount from the placed cells, and it is a
 * valid lower bound, checked against every completion of small boards
 * enumerated exhaustively (with and without a clue); a search with the
 * bound on finds the same best board as one without it. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/emp/srch_em_scan_int.h"
#include "tests/check.h"

typedef struct {
    scan_ctx s;
    long states, dead_states, lb_states;
} walk;

/* Mismatched joins of item `it` at depth d with its placed neighbours. */
static int cost_of(const scan_ctx *s, int d, const scan_item *it)
{
    const scan_step *st = &s->step[d];
    return (it->w != s->east[st->west]) + (it->n != s->south[st->north]) + scan_clue_cost(s, d, it);
}

/* dead and odd recounted from scratch after depth d is placed: the sides
 * of the pieces not on the board against the sides that cells on the board
 * show to empty cells. */
static void recount(const scan_ctx *s, int d, int *dead, int *odd)
{
    const srch_em_inst *in = s->in;
    int on[64] = {0}, bal[256] = {0};
    for (int k = 0; k <= d; k++)
        on[s->step[k].cell] = 1;
    for (int k = 0; k < in->nclues; k++)
        on[in->clue_cell[k]] = 1;
    for (int p = 0; p < in->n; p++)
        if (!s->used[p])
            for (int k = 0; k < 4; k++)
                bal[srch_em_pc(in, p, 0)[k]]++;
    for (int c = 0; c < in->n; c++) {
        if (!on[c])
            continue;
        int p = -1, r = 0;
        for (int k = 0; k <= d; k++)
            if (s->step[k].cell == c)
                p = s->chosen[k].piece, r = s->chosen[k].rot;
        for (int k = 0; k < in->nclues; k++)
            if (in->clue_cell[k] == c)
                p = in->clue_piece[k], r = in->clue_rot[k];
        for (int side = 0; side < 4; side++) {
            int y = in->nb[c * 4 + side];
            if (y < in->n && !on[y])
                bal[srch_em_pc(in, p, r)[side]]--;
        }
    }
    *dead = *odd = 0;
    for (int c = 1; c < in->ncol; c++) {
        *dead += bal[c] < 0 ? -bal[c] : 0;
        *odd += bal[c] > 0 ? bal[c] & 1 : 0;
    }
}

/* Fewest breaks any placement of depths d..last makes (complete or not). */
static int min_window(scan_ctx *s, int d, int last)
{
    if (d > last || d >= s->m)
        return 0;
    int best = INT_MAX;
    const scan_kind *k = s->step[d].kind;
    for (int i = 0; i < k->nall; i++) {
        const scan_item *it = &k->all[i];
        if (s->used[it->piece])
            continue;
        int c = cost_of(s, d, it);
        scan_place(s, d, it, c);
        int v = c + min_window(s, d + 1, last);
        scan_unplace(s, d);
        best = v < best ? v : best;
    }
    return best;
}

/* Fewest breaks of a completion from depth d; at every state checks the
 * counters against the recount and the bound against the completions. */
static int min_future(walk *wk, int d)
{
    scan_ctx *s = &wk->s;
    if (d == s->m)
        return 0;
    int best = INT_MAX;
    const scan_kind *k = s->step[d].kind;
    for (int i = 0; i < k->nall; i++) {
        const scan_item *it = &k->all[i];
        if (s->used[it->piece])
            continue;
        int c = cost_of(s, d, it), dead, odd;
        scan_place(s, d, it, c);
        recount(s, d, &dead, &odd);
        CHECK_MSG(s->dead == dead && s->odd == odd, "depth %d: dead %d odd %d, recount %d %d", d,
                  s->dead, s->odd, dead, odd);
        int window = s->dead ? min_window(s, d + 1, s->resolve[d]) : 0;
        int future = min_future(wk, d + 1);
        int lb = (s->dead + s->odd + 1) / 2;
        lb = s->dead > lb ? s->dead : lb;
        CHECK_MSG(lb <= future, "depth %d: bound %d > fewest breaks to come %d", d, lb, future);
        CHECK_MSG(s->dead <= window, "depth %d: %d dead demands, %d breaks by depth %d", d, s->dead,
                  window, s->resolve[d]);
        wk->states++, wk->dead_states += s->dead > 0, wk->lb_states += lb > 0;
        scan_unplace(s, d);
        best = c + future < best ? c + future : best;
    }
    return best;
}

/* Every completion of a small generated board, optionally with an inner
 * piece clued at a turned rotation (no perfect board then). */
static void check_exhaustive(int w, int h, int fc, int ic, uint64_t seed, int clue)
{
    int st, sol[64];
    srch_em_inst *in = srch_em_inst_gen(w, h, fc, ic, seed, sol, &st);
    CHECK(in != NULL);
    if (!in)
        return;
    int cell = w + 1, n = w * h;
    if (clue)
        CHECK(srch_em_inst_add_clue(in, sol[cell], 1, 1, (sol[n + cell] + 1) & 3) == HN_OK);
    hn_rng *rng = hn_rng_new(seed);
    walk wk = {0};
    CHECK(srch_em_scan_init(&wk.s, in, rng) == HN_OK);
    wk.s.from = 0;
    CHECK(srch_em_scan_bound_init(&wk.s, SRCH_EM_SCAN_BOUND_PARITY) == HN_OK);
    wk.s.brk[0] = 0;
    int best = min_future(&wk, 0);
    printf("%dx%d seed %llu clue %d: %ld states, %ld with dead demands, %ld with a bound > 0, "
           "fewest breaks %d\n",
           w, h, (unsigned long long)seed, clue, wk.states, wk.dead_states, wk.lb_states, best);
    CHECK(wk.states > 1000);
    CHECK(wk.dead_states > 0); /* the checks above were not all vacuous */
    CHECK(wk.lb_states > wk.dead_states);
    CHECK(!clue || best > 0);
    srch_em_scan_free(&wk.s);
    hn_rng_free(rng);
    srch_em_inst_free(in);
}

/* The search with each bound finds a board with as few breaks as without
 * it (the bound only cuts subtrees holding nothing within the budget). */
static void check_search(void)
{
    int st, sol[64];
    srch_em_inst *in = srch_em_inst_gen(5, 5, 2, 5, 7, sol, &st);
    CHECK(in != NULL);
    if (!in)
        return;
    CHECK(srch_em_inst_add_clue(in, sol[12], 2, 2, (sol[25 + 12] + 2) & 3) == HN_OK);
    srch_em_board *b = srch_em_board_new(in, &st);
    int breaks[3];
    long pruned[3];
    for (int bound = 0; bound < 3; bound++) {
        srch_em_scan_opts o = SRCH_EM_SCAN_OPTS_DEFAULTS;
        o.seconds = 60, o.break_from = 0.3, o.breaks = 10, o.bound = bound;
        o.restart_nodes = 1L << 40; /* one restart, searched to the end */
        hn_rng *rng = hn_rng_new(3);
        srch_em_scan_result res;
        CHECK(srch_em_scan(b, &o, rng, &res) == HN_OK);
        CHECK(res.complete && res.restarts == 1 && res.seconds < 60);
        CHECK(srch_em_inst_joins(in) - srch_em_board_score(b) == res.breaks);
        breaks[bound] = res.breaks, pruned[bound] = res.pruned;
        printf("bound %d: %d breaks, %ld placements, %ld pruned\n", bound, res.breaks, res.nodes,
               res.pruned);
        hn_rng_free(rng);
    }
    CHECK(breaks[1] == breaks[0] && breaks[2] == breaks[0]);
    CHECK(pruned[0] == 0 && pruned[1] > 0 && pruned[2] > 0);
    srch_em_scan_opts bad = SRCH_EM_SCAN_OPTS_DEFAULTS;
    bad.bound = 3;
    CHECK(srch_em_scan(b, &bad, NULL, NULL) == HN_ERR_ARG);
    srch_em_board_free(b);
    srch_em_inst_free(in);
}

int main(void)
{
    check_exhaustive(3, 3, 2, 2, 11, 0);
    check_exhaustive(4, 3, 2, 3, 13, 1);
    check_exhaustive(3, 4, 3, 2, 14, 1);
    check_search();
    return CHECK_DONE();
}
