/* The IDA* stage of anytime A* (srch_np_anytime_ida) on 8-puzzle boards
 * whose optima come from a BFS table, guided by three times Manhattan (an
 * over-estimate that leaves the delta-0 phase sub-optimal on many boards):
 * plain passes (Manhattan alone) make every solution optimal and proven,
 * with or without the incremental pair, and never ask the guide; a band
 * that trusts the guide with a huge delta finds the same lengths without
 * calling them proven, one of delta inf (order only) proves them; a band with delta 0 prunes
 * optimal paths away; the handover share decides how many A* phases run; a node limit keeps the
 * incumbent; bad stage settings are refused. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "np_bfs.h"
#include "np_replay.h"
#include "search/npuzzle/ann.h"

#define NBOARDS 60

/* k times Manhattan, counting the boards it is asked about. */
typedef struct {
    srch_np_heur *md;
    int k;
    long boards;
} times_md;

static int times_eval(void *self, const srch_np_board *b)
{
    times_md *t = self;
    t->boards++;
    return t->k * srch_np_heur_eval(t->md, b);
}

static int times_batch(void *self, const srch_np_board *b, size_t n, int *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = times_eval(self, &b[i]);
    return 0;
}

typedef struct {
    srch_np_heur *guide, *adm, *adm_plain; /* adm_plain: Manhattan without the incremental pair */
    times_md *t;
    int goal;
} fixture;

static const double ZERO[] = {0};

static int solve(const fixture *f, const srch_np_board *b, const srch_np_heur *adm,
                 const srch_np_ida_opts *ida, srch_np_result *r)
{
    int st = srch_np_anytime_ida(b, f->guide, adm, ZERO, 1, NULL, 0, NULL, ida, NULL, r);
    CHECK_MSG(st == 0 && replays(b, r, f->goal), "status %d", st);
    return r->length;
}

static void test_passes(const fixture *f, const uint8_t *dist, hn_rng *rng)
{
    srch_np_ida_opts plain = {.on = 1}, trust = {.on = 1, .nbands = 1},
                     strict = {.on = 1, .nbands = 1}, order = {.on = 1, .nbands = 1};
    trust.band[0] = (srch_np_band){1, 40, 1000};
    order.band[0] = (srch_np_band){1, 40, INFINITY};
    strict.band[0] = (srch_np_band){1, 40, 0};
    int worse = 0, strict_opt = 0;
    for (int i = 0; i < NBOARDS; i++) {
        srch_np_board b;
        srch_np_board_random(&b, 3, f->goal, rng);
        int opt = dist[srch_np_board_rank(&b)];
        srch_np_result r0, r;
        f->t->boards = 0;
        int l0 = solve(f, &b, f->adm, NULL, &r0);
        long asked = f->t->boards;
        worse += l0 > opt;
        f->t->boards = 0;
        CHECK_MSG(solve(f, &b, f->adm, &plain, &r) == opt && r.proven && r.phases >= 2,
                  "board %d plain: length %d, optimum %d, proven %d", i, r.length, opt, r.proven);
        CHECK_MSG(f->t->boards == asked, "board %d: a plain pass asked the guide", i);
        CHECK_MSG(solve(f, &b, f->adm_plain, &plain, &r) == opt && r.proven,
                  "board %d without the incremental pair: %d, optimum %d", i, r.length, opt);
        f->t->boards = 0;
        CHECK_MSG(solve(f, &b, f->adm, &trust, &r) == opt && !r.proven,
                  "board %d trusting band: %d, optimum %d, proven %d", i, r.length, opt, r.proven);
        CHECK_MSG(f->t->boards > asked, "board %d: the band did not ask the guide", i);
        f->t->boards = 0;
        CHECK_MSG(solve(f, &b, f->adm, &order, &r) == opt && r.proven,
                  "board %d ordering band: %d, optimum %d, proven %d", i, r.length, opt, r.proven);
        CHECK_MSG(f->t->boards > asked, "board %d: the ordering band did not ask the guide", i);
        int ls = solve(f, &b, f->adm, &strict, &r);
        CHECK_MSG(ls >= opt && ls <= l0, "board %d strict band: %d, optimum %d, before %d", i, ls,
                  opt, l0);
        strict_opt += ls == opt;
    }
    /* the stage must have something to do, and delta 0 on 3 x Manhattan must cut */
    CHECK_MSG(worse >= 10, "only %d of %d boards sub-optimal without the stage", worse, NBOARDS);
    CHECK_MSG(strict_opt < NBOARDS - worse / 2, "a delta-0 band found %d of %d optima", strict_opt,
              NBOARDS);
}

/* at = 0 hands over after the first phase with an incumbent, at = 1 only
 * after the whole schedule; both end optimal and proven. Phases count the
 * A* phases that ended and the passes (at least one each run). */
static void test_handover(const fixture *f, const uint8_t *dist, hn_rng *rng)
{
    const double sched[] = {0, 8, 16}; /* smaller deltas leave 3 x Manhattan above the incumbent */
    srch_np_ida_opts early = {.on = 1, .at = 0}, late = {.on = 1, .at = 1};
    srch_limits lim = {.time_limit = 1000};
    int short_runs = 0;
    for (int i = 0; i < 10; i++) {
        srch_np_board b;
        srch_np_board_random(&b, 3, f->goal, rng);
        int opt = dist[srch_np_board_rank(&b)];
        srch_np_result r1, r2;
        CHECK(srch_np_anytime_ida(&b, f->guide, f->adm, sched, 3, NULL, 0, NULL, &early, &lim,
                                  &r1) == 0);
        CHECK(srch_np_anytime_ida(&b, f->guide, f->adm, sched, 3, NULL, 0, NULL, &late, &lim,
                                  &r2) == 0);
        CHECK(replays(&b, &r1, f->goal) && r1.length == opt && r1.proven && r1.phases >= 2);
        CHECK(replays(&b, &r2, f->goal) && r2.length == opt && r2.proven && r2.phases >= 4);
        short_runs += r1.phases < 4; /* only one A* phase ran */
    }
    CHECK_MSG(short_runs > 0, "at = 0 never handed over after the first phase");
}

static void test_limit(const fixture *f, hn_rng *rng)
{
    srch_np_board b;
    do
        srch_np_board_random(&b, 3, f->goal, rng);
    while (srch_np_heur_eval(f->adm, &b) < 18);
    srch_np_result full, r;
    srch_np_ida_opts plain = {.on = 1};
    CHECK(srch_np_anytime_ida(&b, f->guide, f->adm, ZERO, 1, NULL, 0, NULL, NULL, NULL, &full) ==
          0);
    srch_limits some = {.max_expanded = full.expanded + 1};
    CHECK(srch_np_anytime_ida(&b, f->guide, f->adm, ZERO, 1, NULL, 0, NULL, &plain, &some, &r) ==
          0);
    CHECK(replays(&b, &r, f->goal) && r.length == full.length && !r.proven &&
          r.phases == full.phases);
}

static void test_refused(const fixture *f)
{
    srch_np_board b;
    srch_np_board_goal(&b, 3, f->goal);
    CHECK(srch_np_board_apply(&b, "RRDD") == 0);
    srch_np_result r;
    const srch_np_band bad[] = {
        {0, 5, 1}, {5, 4, 1}, {1, 5, -1}, {1, 5, NAN}, {1, SRCH_NP_MAX_PATH, 1}, {1, 5, 1001}};
    for (int i = 0; i < 6; i++) {
        srch_np_ida_opts o = {.on = 1, .nbands = 1, .band = {bad[i]}};
        CHECK_MSG(srch_np_anytime_ida(&b, f->guide, f->adm, ZERO, 1, NULL, 0, NULL, &o, NULL, &r) ==
                      HN_ERR_ARG,
                  "bad band %d accepted", i);
    }
    srch_np_ida_opts overlap = {.on = 1, .nbands = 2, .band = {{1, 5, 1}, {5, 9, 2}}};
    srch_np_ida_opts many = {.on = 1, .nbands = SRCH_NP_MAX_BANDS + 1};
    srch_np_ida_opts at = {.on = 1, .at = 1.5}, at_nan = {.on = 1, .at = NAN};
    const srch_np_ida_opts *refused[] = {&overlap, &many, &at, &at_nan};
    for (int i = 0; i < 4; i++)
        CHECK_MSG(srch_np_anytime_ida(&b, f->guide, f->adm, ZERO, 1, NULL, 0, NULL, refused[i],
                                      NULL, &r) == HN_ERR_ARG,
                  "bad stage %d accepted", i);
    /* off: the settings are not looked at, as without a stage */
    srch_np_ida_opts off = {.on = 0, .at = 7};
    CHECK(srch_np_anytime_ida(&b, f->guide, f->adm, ZERO, 1, NULL, 0, NULL, &off, NULL, &r) == 0 &&
          r.length == 4 && r.phases == 1);
}

int main(void)
{
    int goal = SRCH_NP_GOAL_BLANK_FIRST, st;
    uint8_t *dist = bfs8(goal);
    times_md t = {srch_np_heur_manhattan_new(3, goal, &st), 3, 0};
    times_md one = {srch_np_heur_manhattan_new(3, goal, &st), 1, 0};
    srch_np_heur_ops ops = {.name = "3md", .eval = times_eval, .eval_batch = times_batch};
    srch_np_heur_ops plain_ops = {.name = "md", .eval = times_eval};
    fixture f = {srch_np_heur_custom_new(&ops, &t, 3, goal, &st),
                 srch_np_heur_manhattan_new(3, goal, &st),
                 srch_np_heur_custom_new(&plain_ops, &one, 3, goal, &st), &t, goal};
    CHECK(dist && t.md && one.md && f.guide && f.adm && f.adm_plain);
    CHECK(f.adm && srch_np_heur_incremental(f.adm) && !srch_np_heur_incremental(f.adm_plain));
    if (dist && t.md && one.md && f.guide && f.adm && f.adm_plain) {
        hn_rng *rng = hn_rng_new(2027);
        CHECK(rng != NULL);
        if (rng) {
            test_passes(&f, dist, rng);
            test_handover(&f, dist, rng);
            test_limit(&f, rng);
            test_refused(&f);
        }
        hn_rng_free(rng);
    }
    srch_np_heur_free(f.guide);
    srch_np_heur_free(f.adm);
    srch_np_heur_free(f.adm_plain);
    srch_np_heur_free(t.md);
    srch_np_heur_free(one.md);
    free(dist);
    return CHECK_DONE();
}
