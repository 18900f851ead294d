/* Learned candidate ordering for the backtracker: the emp-place-v1 features
 * (and the break gate's emp-break-v1, read from the same counts) kept
 * incrementally equal features recounted from the placed pieces after
 * random push/pop sequences; the sampler of labelled states is reproducible
 * by seed and its labels are within what a probe can reach; a place model
 * orders the backtracker's candidates (legal boards, cached orders) and
 * models of another decision, encoder or width are refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"
#include "search/emp/emp.h"
#include "search/emp/srch_em_place.h"
#include "tests/check.h"
#include "tests/emp_check.h"

/* Frame cells of the 7x6 board take one rotation only. */
static int is_frame(int cell)
{
    return cell < 7 || cell >= 35 || cell % 7 == 0 || cell % 7 == 6;
}

/* Encode every allowed rotation of a few unplaced pieces of `ref` on their
 * cells, and the cells' break state (emp-break-v1), incrementally and from
 * scratch; count mismatches. */
static void compare(srch_em_pfeat *f, const srch_em_board *ref, const uint8_t *on, hn_rng *rng,
                    long *compared, long *mismatched)
{
    srch_em_place_ctx ctx = {
        .depth = srch_em_pfeat_depth(f), .depths = 41, .breaks = 1, .allowed = 3, .budget = 6};
    for (int k = 0; k < 4; k++) {
        int cell = (int)hn_rng_below(rng, 42);
        if (on[cell])
            continue;
        float b1[SRCH_EM_BREAK_DIM], b2[SRCH_EM_BREAK_DIM];
        srch_em_bfeat_encode(f, cell, &ctx, b1);
        srch_em_bfeat_encode_scratch(f, cell, &ctx, b2);
        *mismatched += memcmp(b1, b2, sizeof b1) != 0;
        int p = srch_em_board_piece(ref, cell), r0 = srch_em_board_rot(ref, cell);
        for (int r = 0; r < (is_frame(cell) ? 1 : 4); r++) {
            float x1[SRCH_EM_PLACE_DIM], x2[SRCH_EM_PLACE_DIM];
            srch_em_pfeat_encode(f, cell, p, (r0 + r) & 3, &ctx, x1);
            srch_em_pfeat_encode_scratch(f, cell, p, (r0 + r) & 3, &ctx, x2);
            *mismatched += memcmp(x1, x2, sizeof x1) != 0;
            (*compared)++;
        }
    }
}

static void test_incremental(void)
{
    emp_feats x;
    int ok = emp_feats_open(&x, 3);
    srch_em_inst *in = x.in;
    srch_em_board *ref = x.ref;
    srch_em_pfeat *f = x.f;
    hn_rng *rng = x.rng;
    CHECK(ok);
    if (!ok)
        goto out;
    int n = 42;
    uint8_t on[42] = {0};
    for (int c = 0; c < n; c++)
        on[c] = (uint8_t)emp_is_clue(in, c);
    long compared = 0, mismatched = 0, pushes = 0;
    srch_em_board_random(ref, rng);
    for (int it = 0; it < 2000; it++) {
        int cell = (int)hn_rng_below(rng, (uint32_t)n);
        if (hn_rng_below(rng, 3) == 0 && srch_em_pfeat_depth(f) > 0) {
            int c, p, r;
            srch_em_pfeat_at(f, srch_em_pfeat_depth(f) - 1, &c, &p, &r);
            srch_em_pfeat_pop(f);
            on[c] = 0;
        } else if (!on[cell]) {
            srch_em_pfeat_push(f, cell, srch_em_board_piece(ref, cell),
                               srch_em_board_rot(ref, cell));
            on[cell] = 1;
            pushes++;
        }
        if (srch_em_pfeat_depth(f) == 0)
            srch_em_board_random(ref, rng); /* a new assignment to draw from */
        compare(f, ref, on, rng, &compared, &mismatched);
    }
    CHECK(pushes > 500);
    CHECK(compared > 1000);
    CHECK_MSG(mismatched == 0, "%ld of %ld candidates encode differently", mismatched, compared);
    /* the features move with the state: an empty board and a full one differ */
    float a[SRCH_EM_PLACE_DIM], b[SRCH_EM_PLACE_DIM];
    srch_em_place_ctx ctx = {.depths = n, .budget = 4};
    while (srch_em_pfeat_depth(f) > 0)
        srch_em_pfeat_pop(f);
    srch_em_pfeat_encode(f, 8, srch_em_board_piece(ref, 8), srch_em_board_rot(ref, 8), &ctx, a);
    for (int c = 0; c < n; c++)
        if (c != 8 && !emp_is_clue(in, c))
            srch_em_pfeat_push(f, c, srch_em_board_piece(ref, c), srch_em_board_rot(ref, c));
    srch_em_pfeat_encode(f, 8, srch_em_board_piece(ref, 8), srch_em_board_rot(ref, 8), &ctx, b);
    CHECK(memcmp(a, b, sizeof a) != 0);
    CHECK(b[2] == 0 && b[5] == 0 && b[10] == 0); /* nothing left open */
out:
    emp_feats_close(&x);
}

typedef struct {
    int n, cap, last_state, bad_groups;
    float *x, *y;
    int *state;
} rows;

static int collect(void *user, int state, const float *x, float y)
{
    rows *r = user;
    if (r->n == r->cap)
        return HN_ERR_LIMIT;
    if (r->n > 0 && state != r->state[r->n - 1] && state != r->state[r->n - 1] + 1)
        r->bad_groups++;
    memcpy(r->x + (size_t)r->n * SRCH_EM_PLACE_DIM, x, sizeof(float) * SRCH_EM_PLACE_DIM);
    r->y[r->n] = y;
    r->state[r->n++] = state;
    return HN_OK;
}

static int sample(const srch_em_inst *in, uint64_t seed, rows *r)
{
    srch_em_place_sample_opts o = SRCH_EM_PLACE_SAMPLE_DEFAULTS;
    o.states = 25, o.runs = 2, o.probe_nodes = 400, o.rate = 0.05, o.restart_nodes = 20000;
    o.breaks = 6, o.seed = seed;
    r->cap = 25 * 64, r->n = 0, r->bad_groups = 0;
    r->x = malloc(sizeof(float) * (size_t)r->cap * SRCH_EM_PLACE_DIM);
    r->y = malloc(sizeof(float) * (size_t)r->cap);
    r->state = malloc(sizeof(int) * (size_t)r->cap);
    int base = 0;
    if (!r->x || !r->y || !r->state)
        return HN_ERR_NOMEM;
    int st = srch_em_place_sample(in, &o, collect, r, &base);
    return st == HN_OK && base == 25 ? HN_OK : HN_ERR_LIMIT;
}

static void rows_free(rows *r)
{
    free(r->x), free(r->y), free(r->state);
}

static void test_sampler(void)
{
    int st;
    srch_em_inst *in = srch_em_inst_gen(8, 8, 3, 6, 5, NULL, &st);
    CHECK(in != NULL);
    if (!in)
        return;
    rows a = {0}, b = {0}, c = {0};
    CHECK(sample(in, 7, &a) == HN_OK);
    CHECK(sample(in, 7, &b) == HN_OK);
    CHECK(sample(in, 8, &c) == HN_OK);
    CHECK(a.n >= 50 && a.n == b.n);
    CHECK(a.bad_groups == 0 && a.state[0] == 0 && a.state[a.n - 1] == 24);
    if (a.n == b.n && a.n > 0) {
        CHECK(!memcmp(a.x, b.x, sizeof(float) * (size_t)a.n * SRCH_EM_PLACE_DIM));
        CHECK(!memcmp(a.y, b.y, sizeof(float) * (size_t)a.n));
    }
    CHECK(a.n != c.n || memcmp(a.y, c.y, sizeof(float) * (size_t)a.n) != 0);
    /* a label is the mean over the probes of the cells reached under the
     * candidate beyond its own depth (plus 1 + unused breaks for a complete
     * board): at least 1, at most the cells left plus the budget plus 1 */
    int bad = 0, spread = 0;
    for (int i = 0; i < a.n; i++) {
        int left = (int)(62 - a.x[(size_t)i * SRCH_EM_PLACE_DIM + 12] * 62 + 0.5);
        bad += a.y[i] < 1 || a.y[i] > left + 6 + 1 + 1e-4;
        spread += i > 0 && a.state[i] == a.state[i - 1] && a.y[i] != a.y[i - 1];
    }
    CHECK_MSG(bad == 0, "%d labels out of range", bad);
    CHECK(spread > 0); /* candidates of one state do differ */
    rows_free(&a), rows_free(&b), rows_free(&c);
    srch_em_inst_free(in);
}

static void test_scorer(void)
{
    int st;
    srch_em_inst *in = srch_em_inst_gen(8, 8, 3, 6, 5, NULL, &st);
    CHECK(in != NULL);
    if (!in)
        return;
    CHECK(emp_save_model("t_place_ok.h5", "18-8-1", SRCH_EM_PLACE_ENCODER, "place") == 0);
    CHECK(emp_save_model("t_place_move.h5", "18-8-1", "emp-move-v1", NULL) == 0);
    CHECK(emp_save_model("t_place_w.h5", "17-8-1", SRCH_EM_PLACE_ENCODER, "place") == 0);
    CHECK(emp_save_model("t_place_enc.h5", "18-8-1", "emp-move-v1", "place") == 0);
    srch_em_place_scorer *s = srch_em_place_scorer_new("t_place_move.h5", in, -1, 10, &st);
    CHECK(!s && st == HN_ERR_FORMAT && strstr(hn_errmsg(), "t_place_move.h5"));
    s = srch_em_place_scorer_new("t_place_w.h5", in, -1, 10, &st);
    CHECK(!s && st == HN_ERR_SHAPE && strstr(hn_errmsg(), "17 inputs"));
    s = srch_em_place_scorer_new("t_place_enc.h5", in, -1, 10, &st);
    CHECK(!s && st == HN_ERR_FORMAT && strstr(hn_errmsg(), "emp-place-v1"));
    CHECK(!strcmp(srch_em_model_decision("t_place_move.h5", &st), "move"));
    CHECK(!strcmp(srch_em_model_decision("t_place_ok.h5", &st), "place"));

    s = srch_em_place_scorer_new("t_place_ok.h5", in, 0.5, 12, &st);
    srch_em_board *b = srch_em_board_new(in, &st);
    hn_rng *rng = hn_rng_new(2);
    CHECK(s && b && rng);
    if (s && b && rng) {
        srch_em_scan_opts o = SRCH_EM_SCAN_OPTS_DEFAULTS;
        /* a node limit, not the clock, so a slow build searches as far */
        o.seconds = 600, o.breaks = 6, o.restart_nodes = 50000, o.order = s;
        o.max_nodes = 400000;
        srch_em_scan_result res;
        CHECK(srch_em_scan(b, &o, rng, &res) == HN_OK);
        int piece[64], rot[64], v;
        srch_em_board_get(b, piece, rot);
        int score = srch_em_sol_check(in, piece, rot, &v, NULL, 0);
        CHECK(v == 0 && score == srch_em_board_score(b));
        CHECK(res.complete && score == srch_em_inst_joins(in) - res.breaks);
        CHECK(res.nodes == o.max_nodes && res.restarts == 8);
        srch_em_place_stats ps;
        srch_em_place_scorer_stats(s, &ps);
        CHECK(ps.calls > 0 && ps.scored >= 2 * ps.calls && ps.hits > 0);
    }
    srch_em_place_scorer_free(s);
    srch_em_board_free(b);
    hn_rng_free(rng);
    srch_em_inst_free(in);
}

int main(void)
{
    test_incremental();
    test_sampler();
    test_scorer();
    return CHECK_DONE();
}
