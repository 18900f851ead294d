/* Anytime A* over a schedule of deltas (srch_np_anytime), guided by an
 * inadmissible heuristic (twice Manhattan) over Manhattan on 8-puzzle
 * boards whose optima come from a BFS table: every solution replays to the
 * goal; adding phases never makes a solution longer; a last phase of inf
 * makes it optimal and says so, also after weighted phases (one phase
 * each); the parity of solution lengths cuts what an admissible bound
 * alone would keep; every board is evaluated at most once per run, not once
 * per phase, and not at all when stored past the incumbent's bound; a
 * phase continues the last one's search (a repeated f expands nothing); a
 * limit keeps the incumbent; bad schedules and weights are refused. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "np_replay.h"
#include "np_bfs.h"
#include "search/npuzzle/ann.h"
#include "search/npuzzle/bfs_store.h"

#define NBOARDS 60

/* Twice Manhattan, counting the boards it is asked about. */
typedef struct {
    srch_np_heur *md;
    long boards;
} twice;

static int twice_eval(void *self, const srch_np_board *b)
{
    twice *t = self;
    t->boards++;
    return 2 * srch_np_heur_eval(t->md, b);
}

static int twice_batch(void *self, const srch_np_board *b, size_t n, int *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = twice_eval(self, &b[i]);
    return 0;
}

typedef struct {
    srch_np_heur *guide, *adm;
    twice *t;
    int goal;
} fixture;

/* Longer schedules of the same prefix: lengths never rise; with inf last
 * the length is the optimum and proven; at most one evaluation per stored
 * board. */
static void check_board(const fixture *f, const srch_np_board *b, int opt, int *optimal0,
                        int *improved, long *skipped)
{
    static const double s1[] = {0}, s2[] = {0, 2}, s3[] = {0, 2, INFINITY};
    const double *sched[] = {s1, s2, s3};
    int prev = 1 << 30;
    for (int k = 0; k < 3; k++) {
        srch_np_result r;
        f->t->boards = 0;
        int st = srch_np_anytime(b, f->guide, f->adm, sched[k], k + 1, NULL, 0, NULL, NULL, &r);
        CHECK_MSG(st == 0 && replays(b, &r, f->goal), "schedule %d: status %d", k + 1, st);
        CHECK_MSG(r.length >= opt && r.length <= prev,
                  "schedule %d: length %d, optimum %d, "
                  "before %d",
                  k + 1, r.length, opt, prev);
        CHECK(r.phases == k + 1 && r.proven == (k == 2));
        /* the root alone, every other stored board in a batch, except those
           stored when they could no longer beat the incumbent (never asked
           about unless a shorter path reaches them) */
        CHECK_MSG(f->t->boards <= (long)r.stored && r.heur_calls == (uint64_t)f->t->boards,
                  "schedule %d: %ld evaluations (%llu counted) for %llu stored boards", k + 1,
                  f->t->boards, (unsigned long long)r.heur_calls, (unsigned long long)r.stored);
        *skipped += (long)r.stored - f->t->boards;
        if (k == 0)
            *optimal0 += r.length == opt;
        if (k == 2) {
            CHECK_MSG(r.length == opt, "with inf last: length %d, optimum %d", r.length, opt);
            *improved += r.length < prev;
        }
        prev = r.length;
    }
    /* the inf phase alone (A* on adm, bounded by nothing) asks the guide
       about the root only: its f never reads the guide */
    static const double inf_only[] = {INFINITY};
    srch_np_result ri;
    f->t->boards = 0;
    CHECK(srch_np_anytime(b, f->guide, f->adm, inf_only, 1, NULL, 0, NULL, NULL, &ri) == 0 &&
          replays(b, &ri, f->goal) && ri.length == opt && ri.proven);
    CHECK_MSG(f->t->boards <= 1 && ri.heur_calls == (uint64_t)f->t->boards,
              "inf phase alone: %ld evaluations for %llu stored boards", f->t->boards,
              (unsigned long long)ri.stored);
    /* weighted phases come first, one each; the proof still holds */
    static const double w1[] = {1.5}, w3[] = {3, 2, 1.25};
    srch_np_result r;
    CHECK(srch_np_anytime(b, f->guide, f->adm, s3, 3, w1, 1, NULL, NULL, &r) == 0 &&
          replays(b, &r, f->goal) && r.length == opt && r.phases == 4 && r.proven);
    CHECK(srch_np_anytime(b, f->guide, f->adm, s3, 3, w3, 3, NULL, NULL, &r) == 0 &&
          replays(b, &r, f->goal) && r.length == opt && r.phases == 6 && r.proven);
}

static void test_schedules(const fixture *f, const uint8_t *dist, hn_rng *rng)
{
    int optimal0 = 0, improved = 0;
    long skipped = 0;
    for (int i = 0; i < NBOARDS; i++) {
        srch_np_board b;
        srch_np_board_random(&b, 3, f->goal, rng);
        check_board(f, &b, dist[srch_np_board_rank(&b)], &optimal0, &improved, &skipped);
    }
    CHECK_MSG(skipped > 0, "every stored board was evaluated: the cut never skipped one");
    /* the test has teeth only if the guide alone misses optima */
    CHECK_MSG(optimal0 < NBOARDS && improved > 0,
              "twice Manhattan alone: %d/%d optimal, %d improved by later phases", optimal0,
              NBOARDS, improved);
}

static void test_limits(const fixture *f, hn_rng *rng)
{
    const double sched[] = {0, 1, 2, 3, INFINITY};
    srch_np_board b;
    srch_np_result r;
    do
        srch_np_board_random(&b, 3, f->goal, rng);
    while (srch_np_heur_eval(f->adm, &b) < 16);
    /* no incumbent yet: the limit is the answer */
    srch_limits one = {.max_expanded = 1};
    CHECK(srch_np_anytime(&b, f->guide, f->adm, sched, 5, NULL, 0, NULL, &one, &r) ==
              HN_ERR_LIMIT &&
          r.length == -1 && r.phases == 0);
    /* enough for the first phase, not for all: the incumbent stands */
    srch_np_result full;
    const double first[] = {0};
    CHECK(srch_np_anytime(&b, f->guide, f->adm, first, 1, NULL, 0, NULL, NULL, &full) == 0);
    srch_limits some = {.max_expanded = full.expanded + 1};
    CHECK(srch_np_anytime(&b, f->guide, f->adm, sched, 5, NULL, 0, NULL, &some, &r) == 0);
    CHECK(replays(&b, &r, f->goal) && r.length <= full.length && r.phases >= 1 && !r.proven);
}

/* Manhattan less one (0 at 0): admissible, but without Manhattan's parity
 * (g + h of a node no longer has the parity of every solution's length). */
static int less_one(void *self, const srch_np_board *b)
{
    int v = srch_np_heur_eval(self, b);
    return v > 0 ? v - 1 : 0;
}

/* A shorter solution is at least two moves shorter (all solutions share a
 * parity), so the proof phase on Manhattan less one must expand exactly
 * what it expands on Manhattan: the same order, and a node is cut as soon
 * as its bound reaches best - 1. Without the parity cut the weaker bound
 * lets every node with g + Manhattan = best through. */
static void test_parity(const fixture *f, const uint8_t *dist, hn_rng *rng)
{
    int st;
    srch_np_heur_ops ops = {.name = "md-1", .eval = less_one};
    srch_np_heur *md = srch_np_heur_manhattan_new(3, f->goal, &st);
    srch_np_heur *weak = md ? srch_np_heur_custom_new(&ops, md, 3, f->goal, &st) : NULL;
    CHECK(weak != NULL);
    const double inf[] = {INFINITY}, w[] = {1.5};
    int same = 0, boards = 0;
    for (int i = 0; weak && i < 20; i++) {
        srch_np_board b;
        srch_np_board_random(&b, 3, f->goal, rng);
        srch_np_result r0, r1;
        CHECK(srch_np_anytime(&b, f->guide, f->adm, inf, 1, w, 1, NULL, NULL, &r0) == 0);
        CHECK(srch_np_anytime(&b, f->guide, weak, inf, 1, w, 1, NULL, NULL, &r1) == 0);
        int opt = dist[srch_np_board_rank(&b)];
        CHECK(r0.proven && r1.proven && r0.length == opt && r1.length == opt);
        same += r0.expanded == r1.expanded;
        boards++;
    }
    CHECK_MSG(same == boards, "%d of %d boards: other expansions on Manhattan less one",
              boards - same, boards);
    srch_np_heur_free(weak);
    srch_np_heur_free(md);
}

static void test_refused(const fixture *f)
{
    srch_np_board b;
    srch_np_board_goal(&b, 3, f->goal);
    CHECK(srch_np_board_apply(&b, "RRDD") == 0);
    srch_np_result r;
    const double bad[][3] = {{1, 0, 2}, {-1, 0, 1}, {INFINITY, 1, 2}, {NAN, 1, 2}, {0, 1, 1}};
    for (int i = 0; i < 5; i++)
        CHECK_MSG(srch_np_anytime(&b, f->guide, f->adm, bad[i], 3, NULL, 0, NULL, NULL, &r) ==
                      HN_ERR_ARG,
                  "bad schedule %d accepted", i);
    const double ok[] = {0};
    CHECK(srch_np_anytime(&b, f->guide, f->adm, ok, 0, NULL, 0, NULL, NULL, &r) == HN_ERR_ARG);
    const double wbad[][2] = {{1.5, 2}, {2, 1}, {0.5, 0.25}, {1.5, 1.5}, {101, 2}};
    for (int i = 0; i < 5; i++)
        CHECK_MSG(srch_np_anytime(&b, f->guide, f->adm, ok, 1, wbad[i], 2, NULL, NULL, &r) ==
                      HN_ERR_ARG,
                  "bad weights %d accepted", i);
    CHECK(srch_np_anytime(&b, f->guide, f->adm, ok, 1, NULL, 1, NULL, NULL, &r) == HN_ERR_ARG);
    CHECK(srch_np_anytime(&b, f->guide, f->adm, ok, 1, ok, SRCH_NP_MAX_WEIGHTS + 1, NULL, NULL,
                          &r) == HN_ERR_ARG);
    CHECK(srch_np_anytime(&b, f->guide, NULL, ok, 1, NULL, 0, NULL, NULL, &r) == HN_ERR_ARG);
    CHECK(srch_np_anytime(&b, f->guide, f->adm, ok, 1, NULL, 0, NULL, NULL, &r) == 0 &&
          r.length == 4);
}

/* Deltas below half a move round to the phase before them (the guide is
 * in whole moves), so the schedule with them repeats each f: continued,
 * the repeats find nothing left to expand and the run expands exactly what
 * the plain schedule does (from the root again, each repeat would expand
 * its phase's nodes once more). */
static void test_continued(const fixture *f, hn_rng *rng)
{
    static const double plain[] = {0, 2, INFINITY}, rep[] = {0, 0.1, 0.2, 2, 2.3, INFINITY};
    int differ = 0;
    uint64_t total = 0;
    for (int i = 0; i < 20; i++) {
        srch_np_board b;
        srch_np_board_random(&b, 3, f->goal, rng);
        srch_np_result r1, r2;
        CHECK(srch_np_anytime(&b, f->guide, f->adm, plain, 3, NULL, 0, NULL, NULL, &r1) == 0);
        CHECK(srch_np_anytime(&b, f->guide, f->adm, rep, 6, NULL, 0, NULL, NULL, &r2) == 0);
        CHECK(replays(&b, &r2, f->goal) && r2.length == r1.length && r2.proven);
        CHECK(r2.phases == 6);
        differ += r1.expanded != r2.expanded || r1.stored != r2.stored;
        total += r1.expanded;
    }
    CHECK_MSG(differ == 0, "%d of 20 boards expanded more with repeated phases", differ);
    CHECK(total > 20);
}

/* The admissible cut of srch_np_bfs_expand, below the search: the same
 * expansions with and without the cut store the same nodes in the same
 * order with the same g and adm values; a node is lazy exactly when g + adm
 * reaches the cut, every other node has the guide's value, the guide is
 * asked once per node that is not lazy (never about a lazy one), and
 * srch_np_bfs_fill_guide gives each lazy node the eager store's value. */
#define EXPANSIONS 300

static int no_push(void *ctx, uint32_t idx)
{
    (void)ctx;
    (void)idx;
    return 0;
}

/* The root and EXPANSIONS expansions in index order (breadth first). */
static int grow(srch_np_bfs_store *s, const srch_np_board *start, const srch_np_heur *guide,
                const srch_np_heur *adm, int cut, srch_np_result *res)
{
    srch_np_bfs_child root = {.b = *start, .parent = BFS_NO_PARENT};
    srch_np_bfs_pack(start, root.key);
    if (srch_np_bfs_store_add(s, &root, srch_np_heur_eval(guide, start),
                              srch_np_heur_eval(adm, start)) < 0)
        return HN_ERR_NOMEM;
    for (size_t i = 0; i < s->n && i < EXPANSIONS; i++) {
        srch_np_board b;
        srch_np_bfs_board_of(s, i, &b);
        s->nodes[i].open = 0;
        int st = srch_np_bfs_expand(s, (uint32_t)i, &b, guide, adm, cut, no_push, NULL, res);
        if (st)
            return st;
    }
    return 0;
}

static int same_node(const srch_np_bfs_node *x, const srch_np_bfs_node *y)
{
    return x->key[0] == y->key[0] && x->key[1] == y->key[1] && x->g == y->g && x->h[1] == y->h[1] &&
           x->parent == y->parent;
}

/* Eager and lazy stores of one board; adds the lazy nodes to *lazy_total. */
static void check_lazy_board(const fixture *f, const srch_np_board *b, long *lazy_total)
{
    twice *t = f->t;
    const srch_np_heur *guide = f->guide, *md = f->adm;
    srch_np_bfs_store e, l;
    srch_np_result re = {0}, rl = {0};
    CHECK(srch_np_bfs_store_init(&e, 3) == 0 && srch_np_bfs_store_init(&l, 3) == 0);
    int cut = srch_np_heur_eval(md, b) + 6;
    CHECK(grow(&e, b, guide, md, INT_MAX, &re) == 0);
    t->boards = 0;
    CHECK(grow(&l, b, guide, md, cut, &rl) == 0);
    long asked = t->boards - 1; /* less the root, evaluated by grow itself */
    CHECK_MSG(e.n == l.n, "%zu nodes eager, %zu with the cut", e.n, l.n);
    long lazy = 0, bad = 0;
    for (size_t i = 0; i < e.n && i < l.n; i++) {
        const srch_np_bfs_node *x = &e.nodes[i], *y = &l.nodes[i];
        int want_lazy = i > 0 && y->g + y->h[1] >= cut;
        bad +=
            !same_node(x, y) || x->lazy || y->lazy != want_lazy || (!y->lazy && y->h[0] != x->h[0]);
        lazy += y->lazy;
    }
    CHECK_MSG(bad == 0, "%ld of %zu nodes differ from the eager store", bad, l.n);
    CHECK_MSG(asked == (long)l.n - 1 - lazy && rl.heur_calls == (uint64_t)asked &&
                  re.heur_calls == (uint64_t)e.n - 1,
              "guide asked %ld times, heur_calls %llu, for %zu nodes of which %ld lazy", asked,
              (unsigned long long)rl.heur_calls, l.n, lazy);
    long filled = 0;
    for (size_t i = 0; i < l.n && i < e.n; i++)
        if (l.nodes[i].lazy) {
            CHECK(srch_np_bfs_fill_guide(&l, (uint32_t)i, guide, md, &rl) == 0);
            filled += !l.nodes[i].lazy && l.nodes[i].h[0] == e.nodes[i].h[0];
        }
    CHECK_MSG(filled == lazy && rl.heur_calls == (uint64_t)(l.n - 1),
              "%ld of %ld lazy nodes filled with the eager value", filled, lazy);
    *lazy_total += lazy;
    srch_np_bfs_store_free(&e);
    srch_np_bfs_store_free(&l);
}

static void test_lazy_store(const fixture *f, hn_rng *rng)
{
    long lazy_total = 0;
    for (int i = 0; i < 30; i++) {
        srch_np_board b;
        srch_np_board_random(&b, 3, f->goal, rng);
        check_lazy_board(f, &b, &lazy_total);
    }
    CHECK_MSG(lazy_total > 100, "only %ld lazy nodes: the cut was not exercised", lazy_total);
}

int main(void)
{
    int goal = SRCH_NP_GOAL_BLANK_FIRST, st;
    uint8_t *dist = bfs8(goal);
    twice t = {srch_np_heur_manhattan_new(3, goal, &st), 0};
    srch_np_heur_ops ops = {.name = "twice-md", .eval = twice_eval, .eval_batch = twice_batch};
    fixture f = {srch_np_heur_custom_new(&ops, &t, 3, goal, &st),
                 srch_np_heur_manhattan_new(3, goal, &st), &t, goal};
    CHECK(dist && t.md && f.guide && f.adm);
    if (dist && t.md && f.guide && f.adm) {
        hn_rng *rng = hn_rng_new(2026);
        CHECK(rng != NULL);
        if (rng) {
            test_schedules(&f, dist, rng);
            test_limits(&f, rng);
            test_parity(&f, dist, rng);
            test_continued(&f, rng);
            test_lazy_store(&f, rng);
            test_refused(&f);
        }
        hn_rng_free(rng);
    }
    srch_np_heur_free(f.guide);
    srch_np_heur_free(f.adm);
    srch_np_heur_free(t.md);
    free(dist);
    return CHECK_DONE();
}
