/* Edge matching: instance files, scores and move deltas against full
 * recounts, the Hungarian solver against brute force, each neighbourhood
 * never worsening and exact on tiny boards, constructive starts, and the
 * MILP and clique models finding perfect boards on generated instances. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/emp/emp.h"
#include "search/emp/srch_em_int.h"
#include "tests/check.h"

static srch_em_inst *load(const char *rel)
{
    char path[1024];
    int st;
    snprintf(path, sizeof path, "%s/emp/%s", HN_TEST_DATA, rel);
    srch_em_inst *in = srch_em_inst_read(path, SRCH_EM_FORMAT_META, &st);
    CHECK_MSG(in != NULL, "%s: %s", rel, hn_errmsg());
    return in;
}

static void test_read_shared(void)
{
    static const char *files[] = {
        "meta_10x10.txt",         "meta_12x12.txt",         "meta_14x14.txt",
        "meta_16x16.txt",         "eternity2.txt",          "small/pieces_05x05.txt",
        "small/pieces_06x06.txt", "small/pieces_07x07.txt", "small/pieces_08x08.txt",
        "small/pieces_09x09.txt", "owen_set1/b03x03s1.txt", "owen_set1/b04x04s1.txt",
        "owen_set1/b05x05s1.txt", "owen_set1/b06x06s1.txt", "owen_set1/b07x07s1.txt",
        "owen_set1/b08x08s1.txt", "owen_set1/b09x09s1.txt", "owen_set1/b10x10s1.txt",
        "owen_set1/b12x12s1.txt", "owen_set1/b14x14s1.txt", "owen_set1/b16x16s1.txt"};
    static const int side[] = {10, 12, 14, 16, 16, 5, 6,  7,  8,  9, 3,
                               4,  5,  6,  7,  8,  9, 10, 12, 14, 16};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        srch_em_inst *in = load(files[i]);
        if (!in)
            continue;
        CHECK(srch_em_inst_width(in) == side[i] && srch_em_inst_height(in) == side[i]);
        CHECK(srch_em_inst_joins(in) == 2 * side[i] * side[i] - 2 * side[i]);
        srch_em_inst_free(in);
    }
    /* META 10x10: 4 frame + 10 inner colours; E2: 5 + 17 */
    srch_em_inst *in = load("meta_10x10.txt");
    if (in)
        CHECK(srch_em_inst_colours(in) == 15);
    srch_em_inst_free(in);
    in = load("eternity2.txt");
    if (in) {
        CHECK(srch_em_inst_colours(in) == 23);
        CHECK(srch_em_inst_add_clue(in, 138, 8, 7, 2) == HN_OK);
        CHECK(srch_em_inst_add_clue(in, 0, 8, 8, 0) != HN_OK); /* corner piece inside */
        CHECK(srch_em_inst_add_clue(in, 5, 8, 7, 0) != HN_OK); /* cell already used */
    }
    srch_em_inst_free(in);
}

static void test_gen_and_formats(void)
{
    int sol[2 * 36], st;
    srch_em_inst *in = srch_em_inst_gen(6, 6, 3, 4, 7, sol, &st);
    CHECK(in != NULL);
    if (!in)
        return;
    int v, s = srch_em_sol_check(in, sol, sol + 36, &v, NULL, 0);
    CHECK(v == 0 && s == srch_em_inst_joins(in));
    /* META round trip and the e2pieces order (top right bottom left, no header) */
    const char *meta = "test_srch_emp_gen.txt", *e2 = "test_srch_emp_e2.txt";
    CHECK(srch_em_inst_write(in, meta) == HN_OK);
    srch_em_inst *back = srch_em_inst_read(meta, SRCH_EM_FORMAT_META, &st);
    FILE *f = fopen(e2, "w");
    CHECK(f != NULL);
    if (f) {
        for (int p = 0; p < 36; p++)
            fprintf(f, "%d %d %d %d\n", srch_em_colour(in, p, 0, SRCH_EM_N),
                    srch_em_colour(in, p, 0, SRCH_EM_E), srch_em_colour(in, p, 0, SRCH_EM_S),
                    srch_em_colour(in, p, 0, SRCH_EM_W));
        fprintf(f, "1\n%d %d %d %d\n", sol[14] + 1, 3, 3, sol[36 + 14]); /* a hint, 1-based */
        fclose(f);
    }
    srch_em_inst *e = srch_em_inst_read(e2, SRCH_EM_FORMAT_E2, &st);
    CHECK_MSG(back && e, "%s", hn_errmsg());
    if (back && e) {
        int same = 1;
        for (int p = 0; p < 36; p++)
            for (int r = 0; r < 4; r++)
                for (int k = 0; k < 4; k++)
                    same &= srch_em_colour(in, p, r, k) == srch_em_colour(back, p, r, k) &&
                            srch_em_colour(in, p, r, k) == srch_em_colour(e, p, r, k);
        CHECK(same);
        CHECK(srch_em_inst_width(e) == 6 && srch_em_inst_nclues(e) == 1);
        s = srch_em_sol_check(e, sol, sol + 36, &v, NULL, 0);
        CHECK(v == 0 && s == 60);
    }
    remove(meta);
    remove(e2);
    srch_em_inst_free(back);
    srch_em_inst_free(e);
    srch_em_inst_free(in);
}

/* Apply random moves of every kind; the kept score must equal a recount and
 * each predicted delta the real change. */
static void test_deltas(void)
{
    int st;
    srch_em_inst *in = srch_em_inst_gen(7, 5, 2, 3, 3, NULL, &st);
    srch_em_board *b = in ? srch_em_board_new(in, &st) : NULL;
    hn_rng *rng = hn_rng_new(11);
    CHECK(b && rng);
    if (!b || !rng)
        goto out;
    int bad = 0, n = 35;
    for (int round = 0; round < 20; round++) {
        srch_em_board_random(b, rng);
        bad += srch_em_board_score(b) != srch_em_board_recount(b);
        for (int i = 0; i < 200; i++) {
            int a = (int)hn_rng_below(rng, (uint32_t)n), c = (int)hn_rng_below(rng, (uint32_t)n);
            if (i % 3 == 0) /* neighbours make the interesting case */
                c = a + 1 < n ? a + 1 : a - 1;
            if (srch_em_cell_class(in, a) != srch_em_cell_class(in, c))
                continue;
            srch_em_move m = {.a = a, .b = c};
            if (srch_em_cell_class(in, a) == SRCH_EM_INNER) {
                m.ra = (int)hn_rng_below(rng, 4);
                m.rb = (int)hn_rng_below(rng, 4);
            } else {
                m.ra = srch_em_frame_rot(in, srch_em_board_piece(b, c), a);
                m.rb = srch_em_frame_rot(in, srch_em_board_piece(b, a), c);
            }
            int before = srch_em_board_score(b), d = srch_em_move_delta(b, &m);
            bad += srch_em_board_score(b) != before; /* delta leaves the board alone */
            srch_em_move_apply(b, &m);
            bad += srch_em_board_score(b) != srch_em_board_recount(b);
            bad += srch_em_board_score(b) - before != d;
        }
        /* enumerated candidates carry their true delta */
        srch_em_move buf[64];
        int cell = (int)hn_rng_below(rng, (uint32_t)n);
        int k = srch_em_moves_enum(b, cell, buf, 64);
        bad += k == 0;
        for (int i = 0; i < k; i++)
            bad += srch_em_move_delta(b, &buf[i]) != buf[i].delta;
    }
    CHECK_MSG(bad == 0, "%d mismatches", bad);
out:
    srch_em_board_free(b);
    srch_em_inst_free(in);
    hn_rng_free(rng);
}

static long brute_assign(int n, const int *cost, int *perm, int k, int *used)
{
    if (k == n) {
        long s = 0;
        for (int i = 0; i < n; i++)
            s += cost[i * n + perm[i]];
        return s;
    }
    long best = 1L << 60;
    for (int j = 0; j < n; j++)
        if (!used[j]) {
            used[j] = 1;
            perm[k] = j;
            long s = brute_assign(n, cost, perm, k + 1, used);
            best = s < best ? s : best;
            used[j] = 0;
        }
    return best;
}

static void test_hungarian(void)
{
    hn_rng *rng = hn_rng_new(5);
    int cost[49], assign[7], perm[7], used[7], work[64];
    int bad = 0;
    for (int t = 0; t < 300; t++) {
        int n = 1 + t % 7;
        for (int i = 0; i < n * n; i++)
            cost[i] = (int)hn_rng_below(rng, 9) - 4 - (t % 2) * 20;
        memset(used, 0, sizeof used);
        long h = srch_em_hungarian(n, cost, assign, work),
             bf = brute_assign(n, cost, perm, 0, used);
        int seen[7] = {0};
        for (int i = 0; i < n; i++)
            bad += seen[assign[i]]++ != 0;
        bad += h != bf;
    }
    CHECK_MSG(bad == 0, "%d Hungarian mismatches", bad);
    hn_rng_free(rng);
}

/* Best score reachable by permuting (and rotating) the pieces of `cells`. */
static int brute_region(srch_em_board *b, const int *cells, int m, int k, int *used,
                        const int *pieces)
{
    const srch_em_inst *in = srch_em_board_inst(b);
    if (k == m)
        return srch_em_board_recount(b);
    int best = -1, c = cells[k];
    for (int i = 0; i < m; i++) {
        if (used[i] || srch_em_piece_class(in, pieces[i]) != srch_em_cell_class(in, c))
            continue;
        used[i] = 1;
        for (int r = 0; r < 4; r++) {
            int fr = srch_em_frame_rot(in, pieces[i], c);
            if (fr >= 0 && fr != r)
                continue;
            /* place through a swap with the cell now holding the piece */
            int from = -1;
            for (int q = 0; q < srch_em_inst_width(in) * srch_em_inst_height(in); q++)
                if (srch_em_board_piece(b, q) == pieces[i])
                    from = q;
            srch_em_move mv = {.a = c, .b = from, .ra = r, .rb = srch_em_board_rot(b, c)};
            if (from != c) {
                int fr2 = srch_em_frame_rot(in, srch_em_board_piece(b, c), from);
                if (fr2 >= 0)
                    mv.rb = fr2;
            }
            srch_em_move_apply(b, &mv);
            int s = brute_region(b, cells, m, k + 1, used, pieces);
            best = s > best ? s : best;
        }
        used[i] = 0;
    }
    return best;
}

static void test_neighbourhoods(void)
{
    int st, bad = 0, worse = 0;
    srch_em_inst *in = srch_em_inst_gen(5, 5, 2, 2, 21, NULL, &st);
    srch_em_board *b = in ? srch_em_board_new(in, &st) : NULL;
    hn_rng *rng = hn_rng_new(3);
    CHECK(b && rng);
    if (!b || !rng)
        goto out;
    for (int t = 0; t < 40; t++) {
        srch_em_board_random(b, rng);
        int s0 = srch_em_board_score(b), proven = 0;
        int g = srch_em_ta(b, 4, rng);
        worse += g < 0 || srch_em_board_score(b) != s0 + g;
        s0 = srch_em_board_score(b);
        g = srch_em_bw(b, rng);
        worse += g < 0 || srch_em_board_score(b) != s0 + g;
        s0 = srch_em_board_score(b);
        g = srch_em_tsr(b);
        worse += g < 0 || srch_em_board_score(b) != s0 + g;
        /* TSR stops at a local optimum: no swap or rotation gains */
        for (int a = 0; a < 25; a++) {
            srch_em_move buf[40];
            int k = srch_em_moves_enum(b, a, buf, 40);
            for (int i = 0; i < k; i++)
                bad += buf[i].delta > 0;
        }
        s0 = srch_em_board_score(b);
        g = srch_em_bo(b, 1L << 40, &proven);
        worse += g < 0 || srch_em_board_score(b) != s0 + g || !proven;
        /* RO on a 2x2 region is exact: compare with brute force from the result */
        int r0 = (int)hn_rng_below(rng, 4), c0 = (int)hn_rng_below(rng, 4);
        srch_em_board_random(b, rng);
        int cells[4] = {r0 * 5 + c0, r0 * 5 + c0 + 1, (r0 + 1) * 5 + c0, (r0 + 1) * 5 + c0 + 1};
        int pieces[4], used[4] = {0}, piece0[25], rot0[25];
        for (int i = 0; i < 4; i++)
            pieces[i] = srch_em_board_piece(b, cells[i]);
        srch_em_board_get(b, piece0, rot0);
        int best = brute_region(b, cells, 4, 0, used, pieces);
        CHECK(srch_em_board_set(b, piece0, rot0) == HN_OK);
        s0 = srch_em_board_score(b);
        g = srch_em_ro(b, r0, c0, 2, 2, 1L << 40, &proven);
        worse += g < 0 || !proven;
        bad += srch_em_board_score(b) != best;
        bad += srch_em_board_score(b) != srch_em_board_recount(b);
    }
    CHECK_MSG(worse == 0, "%d neighbourhood results worse than the start or wrongly counted",
              worse);
    CHECK_MSG(bad == 0, "%d non-optimal neighbourhood results", bad);
out:
    srch_em_board_free(b);
    srch_em_inst_free(in);
    hn_rng_free(rng);
}

/* BO is exact: on a 4x4 board the frame (4 corners, 8 edges) can be enumerated. */
static int brute_frame(srch_em_board *b, const int *cells, int m, int k, int *used,
                       const int *pieces)
{
    return brute_region(b, cells, m, k, used, pieces);
}

static void test_bo_exact(void)
{
    int st;
    srch_em_inst *in = srch_em_inst_gen(4, 4, 2, 2, 9, NULL, &st);
    srch_em_board *b = in ? srch_em_board_new(in, &st) : NULL;
    hn_rng *rng = hn_rng_new(8);
    if (!b || !rng) {
        CHECK(0);
        goto out;
    }
    int bad = 0;
    for (int t = 0; t < 3; t++) {
        srch_em_board_random(b, rng);
        int cells[12], pieces[12], used[12] = {0}, m = 0, piece0[16], rot0[16], proven;
        for (int c = 0; c < 16; c++)
            if (srch_em_cell_class(in, c) != SRCH_EM_INNER) {
                cells[m] = c;
                pieces[m++] = srch_em_board_piece(b, c);
            }
        srch_em_board_get(b, piece0, rot0);
        int best = brute_frame(b, cells, m, 0, used, pieces);
        srch_em_board_set(b, piece0, rot0);
        srch_em_bo(b, 1L << 40, &proven);
        bad += srch_em_board_score(b) != best || !proven;
    }
    CHECK_MSG(bad == 0, "%d BO results differ from brute force", bad);
out:
    srch_em_board_free(b);
    srch_em_inst_free(in);
    hn_rng_free(rng);
}

/* BW ends when no black or white set of a class can be reassigned better:
 * check each such set against brute force over its permutations. */
static void test_bw_exact(void)
{
    int st, bad = 0;
    srch_em_inst *in = srch_em_inst_gen(5, 5, 2, 2, 33, NULL, &st);
    srch_em_board *b = in ? srch_em_board_new(in, &st) : NULL;
    hn_rng *rng = hn_rng_new(4);
    if (!b || !rng) {
        CHECK(0);
        goto out;
    }
    for (int t = 0; t < 3; t++) {
        srch_em_board_random(b, rng);
        srch_em_bw(b, rng);
        for (int parity = 0; parity < 2; parity++)
            for (int cls = 0; cls < 3; cls++) {
                int cells[13], pieces[13], used[13] = {0}, m = 0, piece0[25], rot0[25];
                for (int c = 0; c < 25; c++)
                    if (srch_em_cell_class(in, c) == cls && ((c / 5 + c % 5) & 1) == parity) {
                        cells[m] = c;
                        pieces[m++] = srch_em_board_piece(b, c);
                    }
                int now = srch_em_board_score(b);
                srch_em_board_get(b, piece0, rot0);
                bad += brute_region(b, cells, m, 0, used, pieces) != now;
                srch_em_board_set(b, piece0, rot0);
            }
    }
    CHECK_MSG(bad == 0, "%d BW sets not optimal", bad);
out:
    srch_em_board_free(b);
    srch_em_inst_free(in);
    hn_rng_free(rng);
}

static void test_starts_and_models(void)
{
    int st;
    hn_rng *rng = hn_rng_new(2);
    for (int size = 3; size <= 4; size++) {
        srch_em_inst *in = srch_em_inst_gen(size, size, 2, 3, 40 + (uint64_t)size, NULL, &st);
        srch_em_board *b = in ? srch_em_board_new(in, &st) : NULL;
        int piece[16], rot[16], v, score = -1, optimal = 0;
        CHECK(b != NULL);
        if (!b) {
            srch_em_inst_free(in);
            continue;
        }
        int joins = srch_em_inst_joins(in);
        srch_em_greedy(b, 1, 100000, rng);
        srch_em_board_get(b, piece, rot);
        CHECK(srch_em_sol_check(in, piece, rot, &v, NULL, 0) == srch_em_board_score(b) && v == 0);
        srch_em_scan_opts so = SRCH_EM_SCAN_OPTS_DEFAULTS;
        so.seconds = 5;
        CHECK(srch_em_scan(b, &so, rng, NULL) == HN_OK);
        CHECK(srch_em_board_score(b) == joins); /* solvable: backtracking finds it */
#ifdef HEURNET_GLPK
        CHECK_MSG(srch_em_milp_solve(in, 30, piece, rot, &score, &optimal) == HN_OK, "%s",
                  hn_errmsg());
        CHECK(score == joins && optimal);
#else
        (void)score;
        (void)optimal;
#endif
        srch_em_milp_stats ms;
        CHECK(srch_em_milp_write(in, NULL, &ms) == HN_OK && ms.variables > 0);
        srch_em_graph *g = srch_em_graph_new(in, &st);
        CHECK(g != NULL);
        if (g) {
            long k = srch_em_clique_search(g, 200000, 1, piece, rot);
            CHECK(k == size * size);
            CHECK(srch_em_clique_complete(in, piece, rot) == HN_OK);
            CHECK(srch_em_sol_check(in, piece, rot, &v, NULL, 0) == joins && v == 0);
        }
        srch_em_graph_free(g);
        srch_em_opts o = SRCH_EM_OPTS_DEFAULTS;
        o.time_limit = 5;
        o.cpu_clock = 1; /* a busy machine must not fail the test */
        o.walk = size == 4 ? 2000 : 0;
        srch_em_result res;
        CHECK(srch_em_solve(in, &o, piece, rot, &res, NULL, NULL) == HN_OK);
        CHECK(res.best == joins && srch_em_sol_check(in, piece, rot, &v, NULL, 0) == joins);
        srch_em_board_free(b);
        srch_em_inst_free(in);
    }
    /* Table 1 check value: 30 nodes, 291 edges */
    srch_em_inst *in = load("owen_set1/b03x03s1.txt");
    srch_em_graph *g = in ? srch_em_graph_new(in, &st) : NULL;
    CHECK(g && srch_em_graph_nodes(g) == 30 && srch_em_graph_edges(g) == 291);
    srch_em_graph_free(g);
    srch_em_inst_free(in);
    hn_rng_free(rng);
}

/* The kick ladder: constant without escalation; with it base, 2 base, ... up
 * to cells/4, then base again; a base already above cells/4 never grows. */
static void test_kick_ladder(void)
{
    const int want[] = {3, 3, 6, 6, 12, 12, 3, 3, 6}; /* base 3, 64 cells, every 2 kicks */
    for (long s = 0; s < (long)(sizeof want / sizeof *want); s++)
        CHECK_MSG(srch_em_kick_strength(3, 64, 2, s) == want[s], "stall %ld: %d", s,
                  srch_em_kick_strength(3, 64, 2, s));
    CHECK(srch_em_kick_strength(3, 64, 0, 1000) == 3);
    CHECK(srch_em_kick_strength(6, 256, 1, 3) == 48 && srch_em_kick_strength(6, 256, 1, 4) == 6);
    CHECK(srch_em_kick_strength(20, 64, 1, 1) == 20 && srch_em_kick_strength(20, 64, 1, 7) == 20);
}

/* A short CPU-timed run from a random start on a generated 8x8 instance (3
 * frame, 6 inner colours): whatever the options, the best board is legal, its
 * recount is its score and it is never below the start. */
static srch_em_opts short_run(void)
{
    srch_em_opts o = SRCH_EM_OPTS_DEFAULTS;
    o.time_limit = 1;
    o.cpu_clock = 1;
    o.start = SRCH_EM_START_RANDOM;
    return o;
}

static void check_run(const srch_em_inst *in, const srch_em_opts *o, srch_em_result *res)
{
    int piece[64], rot[64], v;
    CHECK(srch_em_solve(in, o, piece, rot, res, NULL, NULL) == HN_OK);
    CHECK(srch_em_sol_check(in, piece, rot, &v, NULL, 0) == res->best && v == 0);
    CHECK(res->best >= res->start_score);
}

/* An 8x8 instance with few colours per class: hard enough that short runs
 * keep kicking, walking and restarting. */
static srch_em_inst *hard8(uint64_t seed)
{
    int st;
    srch_em_inst *in = srch_em_inst_gen(8, 8, 3, 6, seed, NULL, &st);
    CHECK(in != NULL);
    return in;
}

/* Options the search must refuse with HN_ERR_ARG. */
static void check_refused(const srch_em_inst *in, const srch_em_opts *o)
{
    int piece[64], rot[64];
    srch_em_result res;
    CHECK(srch_em_solve(in, o, piece, rot, &res, NULL, NULL) == HN_ERR_ARG);
}

/* Escalating kicks (up to cells/4 moves, slack widened as much) keep the run
 * legal; a negative escalation is refused. */
static void test_escalation(void)
{
    srch_em_inst *in = hard8(77);
    if (!in)
        return;
    srch_em_opts o = short_run();
    o.escalate = 1; /* double at every kick: the whole ladder many times over */
    o.ta_n = 20;
    o.ro_n = 1;
    o.ro_nodes = 2000; /* short cycles, also under the sanitizers on a busy machine */
    srch_em_result res;
    check_run(in, &o, &res);
    CHECK(res.cycles > 10);
    o.escalate = -1;
    check_refused(in, &o);
    srch_em_inst_free(in);
}

/* Kick observer: the lowest score a kick starts from, measured against the
 * best score seen at any kick so far (a lower bound of the run's best). */
typedef struct {
    int max_seen, worst_gap;
} kick_watch;

static int watch_kick(void *user, srch_em_board *b, const srch_em_move *cand, int n, hn_rng *rng)
{
    (void)cand, (void)n, (void)rng;
    kick_watch *w = user;
    int s = srch_em_board_score(b);
    w->max_seen = s > w->max_seen ? s : w->max_seen;
    w->worst_gap = w->max_seen - s > w->worst_gap ? w->max_seen - s : w->worst_gap;
    return -1; /* the random pick */
}

/* A reheat of no tries starts each descent on the run's best, so (one move
 * per kick, no escalation) every kick starts within `slack` of the best;
 * restarts from the start board drop far below it, which the watch sees.
 * The restart interval is a few cycles of this build (a sanitizer build
 * cycles many times slower): a descent must live long enough to kick. */
static void check_reheat_from_best(const srch_em_inst *in, srch_em_opts o)
{
    srch_em_result res;
    o.perturb = 1;
    o.escalate = 0;
    o.ro_nodes = 2000;
    o.reheat_tries = 0;
    srch_em_opts calib = o;
    calib.restart = calib.reheat_temp = 0;
    calib.time_limit = 0.2;
    check_run(in, &calib, &res);
    double per_cycle = res.seconds / (res.cycles > 0 ? res.cycles : 1);
    o.restart = 10 * per_cycle;
    o.time_limit = 8 * o.restart;
    kick_watch w = {0, 0};
    o.choose = watch_kick;
    o.choose_user = &w;
    check_run(in, &o, &res);
    CHECK(res.restarts > 0);
    CHECK_MSG(w.max_seen > 0 && w.worst_gap <= o.slack, "a kick %d joins below the best (slack %d)",
              w.worst_gap, o.slack);
    kick_watch cold = {0, 0};
    o.choose_user = &cold;
    o.reheat_temp = 0; /* from the start board: the check above must be able to fail */
    check_run(in, &o, &res);
    CHECK_MSG(res.restarts > 0 && cold.worst_gap > o.slack,
              "start-board restarts: gap %d (%ld restarts)", cold.worst_gap, res.restarts);
}

/* --restart: a run that stalls goes back to its start board (counted), keeps
 * its best legal, and never restarts when the option is off; a negative
 * interval is refused. */
static void test_restart(void)
{
    srch_em_inst *in = hard8(79);
    if (!in)
        return;
    srch_em_opts o = short_run();
    o.time_limit = 0.5;
    o.ta_n = 20;
    o.ro_n = 1;
    o.restart = 0.02;
    srch_em_result res;
    check_run(in, &o, &res);
    CHECK_MSG(res.restarts > 0, "%ld restarts", res.restarts);
    o.restart = 0;
    check_run(in, &o, &res);
    CHECK(res.restarts == 0);
    o.restart = -1;
    check_refused(in, &o);
    /* reheats: new descents from the walked best, which stays legal */
    o.restart = 0.02;
    o.walk_temp = 0.3;
    o.walk = 1000;
    o.reheat_temp = 0.3;
    o.reheat_tries = 20000;
    check_run(in, &o, &res);
    CHECK_MSG(res.restarts > 0, "%ld reheats", res.restarts);
    check_reheat_from_best(in, o);
    o.reheat_tries = -1;
    check_refused(in, &o);
    o.reheat_tries = 20000;
    o.reheat_temp = 2000;
    check_refused(in, &o);
    o.reheat_temp = 0.3;
    o.restart = 0; /* a reheat without restarts would never happen: refused */
    check_refused(in, &o);
    srch_em_inst_free(in);
}

/* A counted draw: the rule must draw only when the draw decides. */
static uint64_t counted_draw(hn_rng *rng, int *calls)
{
    ++*calls;
    return hn_rng_u64(rng);
}

/* The Metropolis rule keeps a move losing d joins with probability
 * exp(-d / T) (frequencies over 200,000 draws within 4 standard errors),
 * always keeps a move that loses nothing, never one losing 8 or more, and at
 * temperature 0 never keeps a losing move; it draws only for a loss of 1..7
 * joins above temperature 0. */
static void test_metropolis(void)
{
    hn_rng *rng = hn_rng_new(5);
    srch_em_metropolis m, cold;
    srch_em_metropolis_init(&m, 0.5);
    srch_em_metropolis_init(&cold, 0);
    enum { N = 200000 };
    for (int d = 1; d <= 3; d++) {
        long kept = 0;
        for (int i = 0; i < N; i++)
            kept += SRCH_EM_METROPOLIS_KEEP(&m, -d, hn_rng_u64(rng));
        double p = exp(-d / 0.5), se = sqrt(p * (1 - p) / N);
        CHECK_MSG(fabs((double)kept / N - p) < 4 * se, "d %d: kept %.5f, want %.5f", d,
                  (double)kept / N, p);
    }
    int always = 1, never = 1;
    for (int i = 0; i < 1000; i++) {
        always &= SRCH_EM_METROPOLIS_KEEP(&m, 0, hn_rng_u64(rng)) &&
                  SRCH_EM_METROPOLIS_KEEP(&cold, 2, hn_rng_u64(rng));
        never &= !SRCH_EM_METROPOLIS_KEEP(&m, -8, hn_rng_u64(rng)) &&
                 !SRCH_EM_METROPOLIS_KEEP(&cold, -1, hn_rng_u64(rng));
    }
    CHECK(always && never);
    int calls = 0;
    (void)SRCH_EM_METROPOLIS_KEEP(&m, 0, counted_draw(rng, &calls));
    (void)SRCH_EM_METROPOLIS_KEEP(&m, -8, counted_draw(rng, &calls));
    (void)SRCH_EM_METROPOLIS_KEEP(&cold, -1, counted_draw(rng, &calls));
    CHECK_MSG(calls == 0, "%d draws where none decides", calls);
    (void)SRCH_EM_METROPOLIS_KEEP(&m, -7, counted_draw(rng, &calls));
    CHECK(calls == 1);
    hn_rng_free(rng);
}

/* The annealed walk keeps the run legal, and a walk-only search (no TA or
 * RO) still climbs from a random start. A negative temperature is refused. */
static void test_annealed_walk(void)
{
    srch_em_inst *in = hard8(78);
    if (!in)
        return;
    srch_em_opts o = short_run();
    o.time_limit = 0.5;
    o.ta_n = 0;
    o.ro_n = 0;
    o.walk = 200000;
    o.walk_temp = 0.3;
    o.slack = 20;
    srch_em_result res;
    check_run(in, &o, &res);
    CHECK_MSG(res.best > res.start_score + 20, "walk-only search: %d from %d", res.best,
              res.start_score);
    o.walk_temp = -0.1;
    check_refused(in, &o);
    srch_em_inst_free(in);
}

/* The fast walk scores a move exactly as srch_em_swap_best does (delta and
 * rotations, adjacent cells and turns included), keeps the score equal to a
 * recount and the board legal, and returns as soon as it beats stop_above. */
static void test_fast_walk(void)
{
    static const int shape[][4] = {{7, 5, 2, 3}, {6, 6, 1, 2}, {3, 3, 2, 1}, {16, 16, 5, 17}};
    hn_rng *rng = hn_rng_new(5);
    int bad = 0, moved = 0;
    for (int s = 0; s < 4 && rng; s++) {
        int st, w = shape[s][0], h = shape[s][1], n = w * h, v = 0, sol[2 * 256];
        srch_em_inst *in =
            srch_em_inst_gen(w, h, shape[s][2], shape[s][3], 40 + (uint64_t)s, sol, &st);
        if (in && s % 2 == 1) /* a clue inside: the walk must leave it alone */
            CHECK(srch_em_inst_add_clue(in, sol[2 * w + 2], 2, 2, sol[n + 2 * w + 2]) == HN_OK);
        srch_em_board *b = in ? srch_em_board_new(in, &st) : NULL;
        int *piece = malloc(sizeof(int) * (size_t)n), *rot = malloc(sizeof(int) * (size_t)n);
        CHECK(b && piece && rot);
        if (!b || !piece || !rot)
            goto next;
        srch_em_walk_rng wr;
        srch_em_walk_seed(&wr, (uint64_t)s);
        srch_em_metropolis hot;
        srch_em_metropolis_init(&hot, 0.7);
        for (int round = 0; round < 20; round++) {
            srch_em_board_random(b, rng);
            srch_em_walk(b, 500, &hot, &wr, INT_MAX); /* also a walked, non-random board */
            srch_em_walk_sync(b);
            for (int i = 0; i < 300; i++) {
                int a = (int)hn_rng_below(rng, (uint32_t)n);
                int c =
                    i % 3 == 0 ? (a + 1 < n ? a + 1 : a - w) : (int)hn_rng_below(rng, (uint32_t)n);
                if (c < 0 || b->fixed[a] || b->fixed[c] || in->cclass[a] != in->cclass[c])
                    continue;
                srch_em_move fast = {.a = a, .b = c}, slow = fast;
                srch_em_walk_score(b, &fast);
                srch_em_swap_best(b, &slow);
                bad += fast.delta != slow.delta || fast.ra != slow.ra ||
                       (a != c && fast.rb != slow.rb);
            }
            srch_em_walk(b, 2000, &hot, &wr, INT_MAX);
            srch_em_board_get(b, piece, rot);
            bad += srch_em_board_score(b) != srch_em_board_recount(b);
            bad += srch_em_sol_check(in, piece, rot, &v, NULL, 0) != srch_em_board_score(b) || v;
            for (int c = 0; c < n; c++)
                bad += b->pos[b->piece[c]] != c;
            /* at temperature 0 from a random board: stops on the first gain */
            srch_em_metropolis cold;
            srch_em_metropolis_init(&cold, 0);
            srch_em_board_random(b, rng);
            int start = srch_em_board_score(b);
            if (start == srch_em_inst_joins(in))
                continue; /* nothing to gain (one colour per class) */
            long t = srch_em_walk(b, 100000, &cold, &wr, start);
            bad += srch_em_board_score(b) <= start || t >= 100000;
            moved++;
        }
    next:
        free(piece);
        free(rot);
        srch_em_board_free(b);
        srch_em_inst_free(in);
    }
    CHECK_MSG(bad == 0 && moved > 0, "%d mismatches", bad);
    hn_rng_free(rng);
}

int main(void)
{
    test_read_shared();
    test_gen_and_formats();
    test_deltas();
    test_hungarian();
    test_neighbourhoods();
    test_bo_exact();
    test_bw_exact();
    test_starts_and_models();
    test_kick_ladder();
    test_metropolis();
    test_annealed_walk();
    test_fast_walk();
    test_escalation();
    test_restart();
    return CHECK_DONE();
}
