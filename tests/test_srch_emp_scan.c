/* The backtracking start with a break budget (srch_em_scan): its boards are
 * legal, keep the clues, recount to the joins minus the breaks it reports,
 * and respect the budget schedule cell by cell, checked by an independent
 * count of the breaks in scan order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/emp/emp.h"
#include "tests/check.h"
#include "tests/emp_check.h"

enum { W = 8, H = 8, N = W * H };

/* An 8x8 instance with enough inner colours that its planted board is the
 * only perfect one, with three clues: a frame piece in its planted place in
 * the left column, one on the bottom row, and an inner piece moved to
 * another cell and turned, which no perfect board can hold. */
static srch_em_inst *clued8(void)
{
    int st, sol[2 * N];
    srch_em_inst *in = srch_em_inst_gen(W, H, 3, 12, 91, sol, &st);
    CHECK(in != NULL);
    if (!in)
        return NULL;
    int left = 3 * W, bottom = 7 * W + 4, moved = 6 * W + 2;
    CHECK(srch_em_inst_add_clue(in, sol[left], 3, 0, sol[N + left]) == HN_OK);
    CHECK(srch_em_inst_add_clue(in, sol[bottom], 7, 4, sol[N + bottom]) == HN_OK);
    CHECK(srch_em_inst_add_clue(in, sol[moved], 5, 5, (sol[N + moved] + 1) & 3) == HN_OK);
    return in;
}

/* 1 if the join between a and its neighbour b on `side` is broken. */
static int broken(const srch_em_inst *in, const int *piece, const int *rot, int a, int b, int side)
{
    return srch_em_colour(in, piece[a], rot[a], side) !=
           srch_em_colour(in, piece[b], rot[b], (side + 2) & 3);
}

/* Breaks after each free cell in scan-row order (joins with the west and
 * north neighbours, and with a clue east or south); returns the free cells. */
static int scan_breaks(const srch_em_inst *in, const int *piece, const int *rot, int *cum)
{
    int m = 0, total = 0;
    for (int c = 0; c < N; c++) {
        if (emp_is_clue(in, c))
            continue;
        int row = c / W, col = c % W;
        total += col > 0 && broken(in, piece, rot, c, c - 1, SRCH_EM_W);
        total += row > 0 && broken(in, piece, rot, c, c - W, SRCH_EM_N);
        total +=
            col < W - 1 && emp_is_clue(in, c + 1) && broken(in, piece, rot, c, c + 1, SRCH_EM_E);
        total +=
            row < H - 1 && emp_is_clue(in, c + W) && broken(in, piece, rot, c, c + W, SRCH_EM_S);
        cum[m++] = total;
    }
    return m;
}

/* The clued instance, a board on it and a generator. */
typedef struct {
    srch_em_inst *in;
    srch_em_board *b;
    hn_rng *rng;
} fixture;

static int fixture_open(fixture *f, uint64_t seed)
{
    int st;
    f->in = clued8();
    f->b = f->in ? srch_em_board_new(f->in, &st) : NULL;
    f->rng = hn_rng_new(seed);
    CHECK(f->b && f->rng);
    return f->b && f->rng;
}

static void fixture_close(fixture *f)
{
    srch_em_board_free(f->b);
    hn_rng_free(f->rng);
    srch_em_inst_free(f->in);
}

typedef struct {
    int calls, last, decreasing;
} board_log;

static void log_board(const srch_em_scan_result *res, void *user)
{
    board_log *l = user;
    l->decreasing &= l->calls == 0 || res->breaks < l->last;
    l->last = res->breaks;
    l->calls++;
}

/* A legal board with the clues in place; returns its score. */
static int check_legal(const srch_em_inst *in, srch_em_board *b)
{
    int piece[N], rot[N], v;
    srch_em_board_get(b, piece, rot);
    int score = srch_em_sol_check(in, piece, rot, &v, NULL, 0);
    CHECK_MSG(v == 0 && score == srch_em_board_score(b), "%d violations, %d vs %d", v, score,
              srch_em_board_score(b));
    return score;
}

/* Complete boards under a budget of 20 breaks from the middle of the board:
 * each better board reported has fewer breaks, the last one is the board
 * left, and every prefix of it in scan order is within the schedule. A node
 * limit, not the clock, ends the search, so a slow (sanitizer) build finds
 * the same boards: the first of them comes at about 1.7 M placements. */
static void test_schedule(void)
{
    fixture f;
    if (!fixture_open(&f, 3))
        goto out;
    const srch_em_inst *in = f.in;
    board_log log = {0, 0, 1};
    srch_em_scan_opts o = SRCH_EM_SCAN_OPTS_DEFAULTS;
    o.seconds = 600; /* only against a hang */
    o.cpu_clock = 1;
    o.break_from = 0.5;
    o.breaks = 20;
    o.restart_nodes = 200000;
    o.max_nodes = 4000000;
    o.on_board = log_board;
    o.user = &log;
    srch_em_scan_result res;
    CHECK(srch_em_scan(f.b, &o, f.rng, &res) == HN_OK);
    CHECK_MSG(res.complete && res.breaks > 0 && res.boards >= log.calls && log.calls > 0,
              "complete %d breaks %d boards %ld reports %d", res.complete, res.breaks, res.boards,
              log.calls);
    CHECK(log.decreasing && log.last == res.breaks);
    CHECK_MSG(res.nodes == o.max_nodes, "%ld placements for a limit of %ld", res.nodes,
              o.max_nodes);
    int score = check_legal(in, f.b), piece[N], rot[N], cum[N];
    CHECK_MSG(score == srch_em_inst_joins(in) - res.breaks, "score %d, %d breaks", score,
              res.breaks);
    srch_em_board_get(f.b, piece, rot);
    int m = scan_breaks(in, piece, rot, cum), from = (int)(o.break_from * m), ok = 1;
    CHECK(cum[m - 1] == res.breaks);
    for (int d = 0; d < m; d++) {
        int allowed = d < from ? 0 : o.breaks * (d - from + 1) / (m - from);
        ok &= cum[d] <= allowed;
    }
    CHECK_MSG(ok, "a prefix of the board breaks more joins than the schedule allows");
out:
    fixture_close(&f);
}

/* The same seed and node limit give the same search and the same board,
 * whatever the machine's speed. */
static void test_repeatable(void)
{
    int piece[2][N], rot[2][N];
    srch_em_scan_result res[2];
    for (int k = 0; k < 2; k++) {
        fixture f;
        if (!fixture_open(&f, 6)) {
            fixture_close(&f);
            return;
        }
        srch_em_scan_opts o = SRCH_EM_SCAN_OPTS_DEFAULTS;
        o.seconds = 600, o.cpu_clock = 1, o.break_from = 0.5, o.breaks = 20;
        o.restart_nodes = 100000, o.max_nodes = 2500000;
        CHECK(srch_em_scan(f.b, &o, f.rng, &res[k]) == HN_OK);
        srch_em_board_get(f.b, piece[k], rot[k]);
        fixture_close(&f);
    }
    CHECK_MSG(res[0].nodes == 2500000 && res[0].restarts == 25, "%ld placements, %ld restarts",
              res[0].nodes, res[0].restarts);
    CHECK(res[0].boards == res[1].boards && res[0].breaks == res[1].breaks &&
          res[0].complete == res[1].complete && res[0].pruned == res[1].pruned);
    CHECK(!memcmp(piece[0], piece[1], sizeof piece[0]) && !memcmp(rot[0], rot[1], sizeof rot[0]));
}

/* No time: no complete board, and the deepest partial one (here none)
 * completed greedily is still a legal board with its clues. */
static void test_fallback(void)
{
    fixture f;
    if (fixture_open(&f, 4)) {
        srch_em_scan_opts o = SRCH_EM_SCAN_OPTS_DEFAULTS;
        o.seconds = 0;
        srch_em_scan_result res;
        CHECK(srch_em_scan(f.b, &o, f.rng, &res) == HN_OK);
        CHECK(!res.complete && res.nodes == 0);
        CHECK(check_legal(f.in, f.b) > 0);
    }
    fixture_close(&f);
}

static void test_refused(void)
{
    fixture f;
    if (!fixture_open(&f, 5))
        goto out;
    srch_em_scan_opts bad[6];
    for (int i = 0; i < 6; i++)
        bad[i] = SRCH_EM_SCAN_OPTS_DEFAULTS;
    bad[0].break_from = 1.5;
    bad[1].break_from = NAN;
    bad[2].breaks = -1;
    bad[3].restart_nodes = 0;
    bad[4].seconds = -1;
    bad[5].max_nodes = -1;
    for (int i = 0; i < 6; i++)
        CHECK_MSG(srch_em_scan(f.b, &bad[i], f.rng, NULL) == HN_ERR_ARG, "case %d accepted", i);
out:
    fixture_close(&f);
}

/* The local search from the backtracking start: it starts from the scan's
 * board (its score is the joins minus the scan's breaks) and keeps it legal. */
static void test_solve_start(void)
{
    srch_em_inst *in = clued8();
    if (!in)
        return;
    srch_em_opts o = SRCH_EM_OPTS_DEFAULTS;
    o.start = SRCH_EM_START_BACKTRACK;
    o.time_limit = 1;
    o.cpu_clock = 1;
    o.backtrack_time = 0.5;
    o.break_from = 0.5;
    o.breaks = 20;
    int piece[N], rot[N], v;
    srch_em_result res;
    /* a slow (sanitizer, debug) build may need longer for a first board */
    for (int k = 0; k < 4; k++, o.backtrack_time *= 2, o.time_limit *= 2) {
        CHECK(srch_em_solve(in, &o, piece, rot, &res, NULL, NULL) == HN_OK);
        if (res.scan.complete)
            break;
    }
    CHECK(res.scan.complete && res.start_score == srch_em_inst_joins(in) - res.scan.breaks);
    CHECK(srch_em_sol_check(in, piece, rot, &v, NULL, 0) == res.best && v == 0);
    CHECK(res.best >= res.start_score);
    /* with no time left for the local search, the best is the scan's board,
     * found when the scan found it */
    o.backtrack_time *= 2;
    o.time_limit = o.backtrack_time;
    CHECK(srch_em_solve(in, &o, piece, rot, &res, NULL, NULL) == HN_OK);
    CHECK_MSG(res.scan.complete && res.best == res.start_score && res.scan.time_best > 0 &&
                  res.time_best == res.scan.time_best,
              "best at %.3f s, the scan's board at %.3f s", res.time_best, res.scan.time_best);
    o.breaks = -1;
    CHECK(srch_em_solve(in, &o, piece, rot, &res, NULL, NULL) == HN_ERR_ARG);
    srch_em_inst_free(in);
}

int main(void)
{
    test_schedule();
    test_repeatable();
    test_fallback();
    test_refused();
    test_solve_start();
    return CHECK_DONE();
}
