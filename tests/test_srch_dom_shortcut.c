/* The anytime recipe on built-in domains and the paths the core mends or
 * varies: the window shortcut on the
 * 8-puzzle (padded and random-walk solutions against IDA*'s optimal
 * lengths), and anytime A* with deltas ending in inf on the 3x4 puzzle and
 * short cube scrambles, its network a random residual over an admissible
 * base, proving IDA*'s optimal lengths. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dom_test.h"
#include "nn/nn.h"
#include "search/generic/srch_dom.h"

static int optimal_length(const dom *d, const uint8_t *s, srch_dom_heur *h, srch_dom_result *res)
{
    int st = srch_dom_idastar(d, s, h, NULL, res);
    CHECK(st == 0 && res->proven);
    return st ? -1 : res->length;
}

/* Insert at position p of path[0..*n) from s: `k` legal moves and then
 * their inverses in reverse order (a detour back to where it left). */
static void pad(const dom *d, const uint8_t *s, uint8_t *path, int *n, int p, int k, hn_rng *r)
{
    uint8_t st[DOM_MAX_STATE_BYTES], det[32];
    memcpy(st, s, dom_state_bytes(d));
    for (int i = 0; i < p; i++)
        dom_apply(d, st, path[i]);
    for (int i = 0; i < k; i++) {
        int m = (int)hn_rng_below(r, (uint32_t)dom_nmoves(d));
        while (!dom_apply(d, st, m))
            m = (m + 1) % dom_nmoves(d);
        det[i] = (uint8_t)m;
        det[2 * k - 1 - i] = (uint8_t)dom_inverse(d, m);
    }
    memmove(path + p + 2 * k, path + p, (size_t)(*n - p));
    memcpy(path + p, det, (size_t)(2 * k));
    *n += 2 * k;
}

/* Detours padded into optimal 8-puzzle solutions are removed; random-walk
 * solutions come back never longer, and optimal with a window as long as
 * the path; a deadline already past leaves the path as it is. */
static void test_shortcut_8puzzle(void)
{
    int st;
    dom *d = dom_open("npuzzle:3x3", &st);
    srch_dom_heur *md = srch_dom_heur_adm(d, "manhattan", &st);
    CHECK(d && md);
    srch_dom_result *res = malloc(sizeof *res);
    srch_dom_shortcut_opts w8 = SRCH_DOM_SHORTCUT_DEFAULTS, w12 = w8, whole = w8;
    w8.max_window = 8;
    w12.max_window = 12;
    whole.max_window = 200;
    hn_rng *r = hn_rng_new(3);
    for (int i = 0; i < 10; i++) {
        uint8_t s[16], path[SRCH_DOM_MAX_PATH];
        int len = 30 + 3 * i;
        tdom_walk_solution(d, r, len, s, path);
        int opt = optimal_length(d, s, md, res), n = len, saved = 0;
        /* padded: an optimal path with a move and its undo, and a detour of 3 */
        memcpy(path, res->moves, (size_t)opt);
        n = opt;
        pad(d, s, path, &n, opt / 3, 1, r);
        pad(d, s, path, &n, 2 * opt / 3, 3, r);
        CHECK(n == opt + 8 && dom_replay(d, s, path, n) == 1);
        CHECK(srch_dom_shortcut(d, s, path, &n, &w8, 0, &saved) == 0);
        CHECK_MSG(n == opt && saved == 8 && dom_replay(d, s, path, n) == 1, "padded: %d vs %d", n,
                  opt);
        /* random walks */
        tdom_walk_solution(d, r, len, s, path);
        opt = optimal_length(d, s, md, res);
        n = len;
        saved = 0;
        CHECK(srch_dom_shortcut(d, s, path, &n, &w12, 0, &saved) == 0);
        CHECK(n <= len && n >= opt && n + saved == len && dom_replay(d, s, path, n) == 1);
        int n12 = n;
        uint8_t keep[SRCH_DOM_MAX_PATH];
        memcpy(keep, path, (size_t)n);
        CHECK(srch_dom_shortcut(d, s, path, &n, &whole, hn_now() - 1, NULL) == 0);
        CHECK(n == n12 && !memcmp(keep, path, (size_t)n)); /* past its deadline */
        CHECK(srch_dom_shortcut(d, s, path, &n, &whole, 0, &saved) == 0);
        CHECK_MSG(n == opt && n + saved == len && dom_replay(d, s, path, n) == 1,
                  "walk of %d: %d vs %d", len, n, opt);
    }
    hn_rng_free(r);
    free(res);
    srch_dom_heur_free(md);
    dom_free(d);
}

/* IDA* windows (--shortcut W:N:ida) on the 15-puzzle: random walks of 50
 * to 74 moves come back optimal from a window as long as the path, padded
 * detours of 2 x 10 moves (beyond the breadth-first reach of a 16-move
 * window) are removed, and the pancake plug-in-like domains without an
 * estimate between two states are refused. */
static void test_shortcut_ida(void)
{
    int st;
    dom *d = dom_open("npuzzle:4x4", &st);
    srch_dom_heur *pdb = srch_dom_heur_adm(d, "lc", &st);
    CHECK(d && pdb && dom_has_between(d));
    srch_dom_result *res = malloc(sizeof *res);
    srch_dom_shortcut_opts ida = SRCH_DOM_SHORTCUT_DEFAULTS, bfs = ida;
    ida.max_window = 200;
    ida.ida = 1;
    ida.budget = 20000000;
    bfs.max_window = 16;
    hn_rng *r = hn_rng_new(5);
    srch_dom_opts greedy = {.weight = 5, .batch = 1};
    for (int i = 0; i < 4; i++) {
        uint8_t s[32], path[SRCH_DOM_MAX_PATH];
        dom_goal(d, s);
        dom_walk(d, s, 40 + 4 * i, r);
        /* a long detouring solution by weighted A* at weight 5 */
        CHECK(srch_dom_astar(d, s, pdb, &greedy, NULL, res) == 0 && res->status == 0);
        int len = res->length, n = len, saved = 0;
        memcpy(path, res->moves, (size_t)len);
        int opt = optimal_length(d, s, pdb, res);
        CHECK_MSG(len > opt, "weighted A*: %d moves, the optimum %d", len, opt);
        fprintf(stderr, "ida windows: %d moves to %d\n", len, opt);
        CHECK(srch_dom_shortcut(d, s, path, &n, &ida, 0, &saved) == 0);
        CHECK_MSG(n == opt && n + saved == len && dom_replay(d, s, path, n) == 1,
                  "ida windows, walk of %d: %d vs %d", len, n, opt);
        /* an optimal path with a detour of 10 moves out and back */
        memcpy(path, res->moves, (size_t)opt);
        n = opt;
        pad(d, s, path, &n, opt / 2, 10, r);
        uint8_t padded[SRCH_DOM_MAX_PATH];
        int np = n;
        memcpy(padded, path, (size_t)n);
        CHECK(srch_dom_shortcut(d, s, padded, &np, &bfs, 0, NULL) == 0 &&
              dom_replay(d, s, padded, np));
        int by_bfs = np;
        CHECK(srch_dom_shortcut(d, s, path, &n, &ida, 0, NULL) == 0);
        CHECK_MSG(n == opt && dom_replay(d, s, path, n) == 1, "detour: %d vs %d (bfs %d)", n, opt,
                  by_bfs);
    }
    hn_rng_free(r);
    free(res);
    srch_dom_heur_free(pdb);
    dom_free(d);
    dom *c = dom_open("cube3", &st);
    uint8_t g[64], mv[2] = {0, 1};
    int n = 2;
    dom_goal(c, g);
    CHECK(c && !dom_has_between(c) && srch_dom_shortcut(c, g, mv, &n, &ida, 0, NULL) != 0);
    dom_free(c);
}

/* The cube's relative state: b^-1 a is the goal when a = b, and the moves
 * of a walk from a to b lead it to the goal. IDA* windows bounded by an
 * admissible heuristic of it (the cube has no estimate between two states
 * of its own) remove detours of 2 x 5 moves from optimal paths of 9-10
 * quarter turns, and a heuristic of another domain is refused. */
static void test_shortcut_relative(void)
{
    int st;
    dom *c = dom_open("cube3", &st), *p = dom_open("npuzzle:3x3", &st);
    srch_dom_heur *md = srch_dom_heur_adm(c, "manhattan", &st);
    srch_dom_heur *other = srch_dom_heur_adm(p, "manhattan", &st);
    CHECK(c && p && md && other && dom_has_relative(c) && !dom_has_relative(p));
    srch_dom_result *res = malloc(sizeof *res);
    srch_dom_shortcut_opts o = SRCH_DOM_SHORTCUT_DEFAULTS, bad;
    o.max_window = 30;
    o.ida = 1;
    o.budget = 5000000;
    o.between = md;
    bad = o;
    bad.between = other;
    hn_rng *r = hn_rng_new(17);
    for (int i = 0; c && md && i < 4; i++) {
        uint8_t a[64], b[64], rel[64], g[64], path[SRCH_DOM_MAX_PATH], walk[32];
        dom_goal(c, g);
        dom_goal(c, a);
        dom_walk(c, a, 30, r);
        dom_relative(c, a, a, rel);
        CHECK(!memcmp(rel, g, dom_state_bytes(c)));
        memcpy(b, a, dom_state_bytes(c));
        for (int k = 0; k < 12; k++) {
            walk[k] = (uint8_t)hn_rng_below(r, (uint32_t)dom_nmoves(c));
            dom_apply(c, b, walk[k]);
        }
        dom_relative(c, a, b, rel);
        CHECK(memcmp(rel, g, dom_state_bytes(c)) != 0 && dom_replay(c, rel, walk, 12) == 1);
        /* a detour padded into an optimal solution */
        tdom_walk_solution(c, r, 9 + i % 2, a, path);
        int opt = optimal_length(c, a, md, res), n = opt, saved = 0;
        memcpy(path, res->moves, (size_t)opt);
        pad(c, a, path, &n, opt / 2, 5, r);
        CHECK(n == opt + 10 && dom_replay(c, a, path, n) == 1);
        CHECK(srch_dom_shortcut(c, a, path, &n, &bad, 0, NULL) == HN_ERR_ARG && n == opt + 10);
        CHECK(srch_dom_shortcut(c, a, path, &n, &o, 0, &saved) == 0);
        CHECK_MSG(n == opt && saved == 10 && dom_replay(c, a, path, n) == 1,
                  "cube detour: %d vs %d", n, opt);
    }
    hn_rng_free(r);
    free(res);
    srch_dom_heur_free(md);
    srch_dom_heur_free(other);
    dom_free(c);
    dom_free(p);
}

/* Beam variants: the start and its first symmetric maps (the cube's
 * inverse and mirror images, a square board's mirror image) searched in
 * turn. At a fixed width the path is the shortest of beams on the start
 * and on each map with its path brought back (each replays); a domain
 * whose maps carry no paths is refused. */
static void beam_variants(const char *spec, const char *heur, int walk, int width, int ball,
                          int variants)
{
    int st;
    dom *d = dom_open(spec, &st);
    srch_dom_heur *h = d ? srch_dom_heur_adm(d, heur, &st) : NULL;
    srch_dom_ball *b = h && ball ? srch_dom_ball_new(d, ball, &st) : NULL;
    CHECK_MSG(h && (!ball || b) && dom_has_symmetric_path(d), "%s: %s", spec, hn_errmsg());
    srch_dom_opts one = SRCH_DOM_DEFAULTS, two;
    one.width = width;
    one.ball = b;
    two = one;
    two.variants = variants;
    srch_dom_result *res = malloc(sizeof *res);
    hn_rng *r = hn_rng_new(23);
    int shorter = 0;
    for (int i = 0; h && i < 8; i++) {
        uint8_t s[DOM_MAX_STATE_BYTES], t[DOM_MAX_STATE_BYTES], path[SRCH_DOM_MAX_PATH];
        tdom_walk_solution(d, r, walk, s, path);
        int best = SRCH_DOM_MAX_PATH + 1, la = 0;
        for (int k = 0; k < variants; k++) {
            dom_symmetric(d, s, k, t);
            int sk = srch_dom_beam(d, t, h, &one, NULL, res);
            CHECK_MSG(sk == 0, "%s beam on map %d: %d %s", spec, k, sk, hn_errmsg());
            if (sk)
                continue;
            int lk = res->length;
            memcpy(path, res->moves, (size_t)lk);
            dom_symmetric_path(d, k, path, lk);
            CHECK_MSG(dom_replay(d, s, path, lk) == 1, "%s map %d: length %d", spec, k, lk);
            if (k == 0)
                la = lk;
            best = lk < best ? lk : best;
        }
        CHECK(srch_dom_beam(d, s, h, &two, NULL, res) == 0 &&
              dom_replay(d, s, res->moves, res->length) == 1);
        CHECK_MSG(res->length == best, "%s %d variants: %d, the shortest beam %d", spec, variants,
                  res->length, best);
        shorter += best < la;
    }
    fprintf(stderr, "%s: a map's beam shorter on %d of 8\n", spec, shorter);
    dom *rect = dom_open("npuzzle:3x4", &st);
    srch_dom_heur *hr = srch_dom_heur_adm(rect, "manhattan", &st);
    uint8_t g[DOM_MAX_STATE_BYTES];
    dom_goal(rect, g);
    two.ball = NULL;
    int refused = srch_dom_beam(rect, g, hr, &two, NULL, res);
    CHECK_MSG(!dom_has_symmetric_path(rect) && refused == HN_ERR_ARG, "3x4 variants: %d %s",
              refused, hn_errmsg());
    srch_dom_heur_free(hr);
    dom_free(rect);
    hn_rng_free(r);
    free(res);
    srch_dom_ball_free(b);
    srch_dom_heur_free(h);
    dom_free(d);
}

/* Anytime A* with a weight, deltas 0, 2 and inf and the shortcut on every
 * incumbent proves IDA*'s length; so does the IDA* stage. */
static void anytime_proves(const char *spec, const char *base, const char *H, int walk, int count)
{
    int st;
    dom *d = dom_open(spec, &st);
    CHECK_MSG(d != NULL, "%s: %s", spec, hn_errmsg());
    if (!d)
        return;
    char arch[32];
    snprintf(arch, sizeof arch, "%u-16-1", dom_facts_of(d)->inputs);
    nn_model *m = tdom_random_model(arch, 5, 2.0, 1.0, base);
    nn_model_set_encoder(m, dom_facts_of(d)->encoding); /* a model reads its domain's encoding */
    srch_dom_heur *net = srch_dom_heur_net(d, m, "test model", NULL, &st);
    srch_dom_heur *adm = srch_dom_heur_adm(d, base, &st);
    srch_dom_heur *given = H ? srch_dom_heur_adm(d, H, &st) : NULL;
    CHECK_MSG(net && adm && (!H || given), "%s: %s", spec, hn_errmsg());
    srch_dom_opts o = SRCH_DOM_DEFAULTS, ida = SRCH_DOM_DEFAULTS, inf = SRCH_DOM_DEFAULTS;
    inf.nweights = 0; /* H alone: its first solution is proven */
    inf.ndeltas = 1;
    inf.deltas[0] = SRCH_DOM_DELTA_INF;
    o.nweights = 1;
    o.weights[0] = 2;
    o.ndeltas = 3;
    o.deltas[0] = 0;
    o.deltas[1] = 2;
    o.deltas[2] = SRCH_DOM_DELTA_INF;
    o.admissible = given;
    o.shortcut = SRCH_DOM_SHORTCUT_DEFAULTS;
    o.shortcut.max_window = 10;
    ida.nweights = 1;
    ida.weights[0] = 3;
    ida.ida = 1;
    ida.ida_at = 0.5;
    srch_dom_result *res = malloc(sizeof *res);
    hn_rng *r = hn_rng_new(11);
    for (int i = 0; net && adm && i < count; i++) {
        uint8_t s[DOM_MAX_STATE_BYTES], sol[64];
        tdom_walk_solution(d, r, walk, s, sol);
        int opt = optimal_length(d, s, adm, res);
        CHECK(srch_dom_anytime(d, s, net, &o, NULL, res) == 0 &&
              dom_replay(d, s, res->moves, res->length) == 1);
        CHECK_MSG(res->length == opt && res->proven && res->phases >= 1,
                  "%s deltas: %d vs %d (proven %d)", spec, res->length, opt, res->proven);
        CHECK(srch_dom_anytime(d, s, net, &inf, NULL, res) == 0);
        CHECK_MSG(res->length == opt && res->proven && res->phases == 1 && res->improvements == 1,
                  "%s inf alone: %d vs %d", spec, res->length, opt);
        CHECK(srch_dom_anytime(d, s, net, &ida, NULL, res) == 0 &&
              dom_replay(d, s, res->moves, res->length) == 1);
        CHECK_MSG(res->length == opt && res->proven, "%s IDA* stage: %d vs %d", spec, res->length,
                  opt);
    }
    hn_rng_free(r);
    free(res);
    srch_dom_heur_free(net);
    srch_dom_heur_free(adm);
    srch_dom_heur_free(given);
    nn_model_free(m);
    dom_free(d);
}

int main(void)
{
    test_shortcut_8puzzle();
    test_shortcut_ida();
    test_shortcut_relative();
    beam_variants("npuzzle:4x4", "manhattan", 30, 200, 0, 2);
    beam_variants("cube3", "manhattan", 10, 1000, 5, 4);
    anytime_proves("npuzzle:3x4", "manhattan", NULL, 40, 4);
    anytime_proves("npuzzle:3x4", "manhattan", "lc", 40, 3);
    anytime_proves("cube3", "manhattan", "pdb:edges4", 6, 4);
    return CHECK_DONE();
}
