/* The generic search core on the npuzzle domain against the specialized
 * n-puzzle searches: A* and IDA* with Manhattan distance expand and
 * generate exactly as many states, with solutions of the same length (the
 * move order, U D L R, the heap and its tie-breaking are the same), IDA*
 * with linear conflicts too, by each instantiation of its pass; an
 * n-puzzle model from before models recorded their domain gives the
 * specialized ANN heuristic's estimates through the generic path. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "nn/nn.h"
#include "search/generic/srch_dom.h"
#include "search/npuzzle/ann.h"
#include "search/srch.h"

/* The domain's state of an n-puzzle board, through its text. */
static int to_state(const dom *d, const srch_np_board *b, uint8_t *state)
{
    char text[256];
    srch_np_board_format(b, text, sizeof text);
    return dom_parse_state(d, text, state);
}

static void compare(const dom *d, srch_dom_heur *h, const srch_np_heur *md, const srch_np_board *b,
                    srch_np_result *r, srch_dom_result *g)
{
    uint8_t s[DOM_MAX_STATE_BYTES];
    CHECK(to_state(d, b, s) == 0);
    CHECK(srch_np_idastar(b, md, NULL, r) == 0 && srch_dom_idastar(d, s, h, NULL, g) == 0);
    CHECK_MSG(r->length == g->length && r->expanded == g->expanded && r->generated == g->generated,
              "IDA*: length %d/%d expanded %llu/%llu generated %llu/%llu", r->length, g->length,
              (unsigned long long)r->expanded, (unsigned long long)g->expanded,
              (unsigned long long)r->generated, (unsigned long long)g->generated);
    CHECK(srch_np_astar(b, md, NULL, r) == 0 && srch_dom_astar(d, s, h, NULL, NULL, g) == 0);
    CHECK_MSG(r->length == g->length && r->expanded == g->expanded && r->generated == g->generated,
              "A*: length %d/%d expanded %llu/%llu generated %llu/%llu", r->length, g->length,
              (unsigned long long)r->expanded, (unsigned long long)g->expanded,
              (unsigned long long)r->generated, (unsigned long long)g->generated);
}

/* IDA* on one board by every instantiation of its pass (gen_ida_tmpl.h)
 * against the n-puzzle path's: the built-in domain's own (move and update
 * inlined), a copy of its definition under another name (the function
 * table with heur_delta), the copy as a plug-in built before the hook (the
 * table, children valued whole), and "max:H" (the table: not a plain
 * leaf). Same lengths, expansions and children. */
static void compare_passes(dom *const *doms, int ndoms, const char *name, const srch_np_heur *np,
                           const srch_np_board *b)
{
    srch_np_result r;
    static srch_dom_result g;
    CHECK(srch_np_idastar(b, np, NULL, &r) == 0);
    for (int i = 0; i < 2 * ndoms; i++) {
        const dom *d = doms[i % ndoms];
        char hname[64];
        snprintf(hname, sizeof hname, "%s%s", i < ndoms ? "" : "max:", name);
        int st;
        uint8_t s[DOM_MAX_STATE_BYTES];
        srch_dom_heur *h = srch_dom_heur_adm(d, hname, &st);
        CHECK(h && to_state(d, b, s) == 0 && srch_dom_idastar(d, s, h, NULL, &g) == 0);
        CHECK_MSG(r.length == g.length && r.expanded == g.expanded && r.generated == g.generated &&
                      g.h0 == r.h0,
                  "IDA* %s on %s: length %d/%d expanded %llu/%llu generated %llu/%llu", hname,
                  dom_def_of(d)->name, r.length, g.length, (unsigned long long)r.expanded,
                  (unsigned long long)g.expanded, (unsigned long long)r.generated,
                  (unsigned long long)g.generated);
        srch_dom_heur_free(h);
    }
}

static void passes(void)
{
    dom_def copy = *dom_builtin(0), old = *dom_builtin(0);
    copy.name = "npcopy";
    old.name = "npold";
    old.struct_size = (uint32_t)offsetof(dom_def, heur_delta);
    int st;
    dom *doms[3] = {dom_open("npuzzle:4x4", &st), dom_open_def(&copy, "4x4", &st),
                    dom_open_def(&old, "4x4", &st)};
    srch_np_heur *md = srch_np_heur_manhattan_new(4, SRCH_NP_GOAL_BLANK_FIRST, &st);
    srch_np_heur *lc = srch_np_heur_lc_new(4, SRCH_NP_GOAL_BLANK_FIRST, &st);
    CHECK(doms[0] && doms[1] && doms[2] && md && lc);
    hn_rng *rng = hn_rng_new(62);
    for (int i = 0; doms[0] && doms[1] && doms[2] && md && lc && i < 10; i++) {
        srch_np_board b;
        srch_np_board_random_walk(&b, 4, SRCH_NP_GOAL_BLANK_FIRST, 24 + 4 * i, rng);
        compare_passes(doms, 3, "manhattan", md, &b);
        compare_passes(doms, 3, "lc", lc, &b);
    }
    hn_rng_free(rng);
    srch_np_heur_free(md);
    srch_np_heur_free(lc);
    for (int i = 0; i < 3; i++)
        dom_free(doms[i]);
}

/* Boards the n-puzzle path does not have (rectangles, 6x6, the other goal):
 * the n-puzzle's own pass, the table's delta pass (a renamed copy of the
 * definition) and the table's plain pass (max:H) agree on each. */
static void passes_other_boards(void)
{
    static const char *const ARGS[] = {"3x5", "4x4:blank-last", "6x6", "5x3"};
    static srch_dom_result g[3];
    dom_def copy = *dom_builtin(0);
    copy.name = "npcopy";
    hn_rng *rng = hn_rng_new(63);
    for (size_t a = 0; a < sizeof ARGS / sizeof ARGS[0]; a++) {
        char spec[64];
        snprintf(spec, sizeof spec, "npuzzle:%s", ARGS[a]);
        int st;
        dom *d[3] = {dom_open(spec, &st), dom_open_def(&copy, ARGS[a], &st), NULL};
        d[2] = d[0];
        CHECK(d[0] && d[1]);
        for (int i = 0; d[0] && d[1] && i < 6; i++) {
            uint8_t s[DOM_MAX_STATE_BYTES];
            dom_goal(d[0], s);
            dom_walk(d[0], s, 30 + 2 * i, rng);
            const char *name = i & 1 ? "lc" : "manhattan";
            for (int k = 0; k < 3; k++) {
                char hn[32];
                snprintf(hn, sizeof hn, "%s%s", k == 2 ? "max:" : "", name);
                srch_dom_heur *h = srch_dom_heur_adm(d[k], hn, &st);
                CHECK(h && srch_dom_idastar(d[k], s, h, NULL, &g[k]) == 0);
                srch_dom_heur_free(h);
            }
            for (int k = 1; k < 3; k++)
                CHECK_MSG(g[k].length == g[0].length && g[k].expanded == g[0].expanded &&
                              g[k].generated == g[0].generated && g[k].h0 == g[0].h0,
                          "%s %s pass %d: length %d/%d expanded %llu/%llu", spec, name, k,
                          g[k].length, g[0].length, (unsigned long long)g[k].expanded,
                          (unsigned long long)g[0].expanded);
        }
        dom_free(d[0]);
        dom_free(d[1]);
    }
    hn_rng_free(rng);
}

static void compare_net(const dom *d, int engine, double tol)
{
    struct nn_spec sp;
    int st;
    CHECK(nn_spec_parse("256-24-12-1", NULL, &sp) == 0);
    nn_model *m = nn_model_new(&sp, 17, &st);
    nn_model_set_encoder(m, "npuzzle-onehot n=4 goal=blank-first");
    nn_model_set_target(m, 40.0, 10.0);
    srch_np_ann_opts ao = SRCH_NP_ANN_DEFAULTS;
    ao.cache_bits = 0;
    srch_np_heur *sa = srch_np_heur_ann_new(m, "m", 4, SRCH_NP_GOAL_BLANK_FIRST, NULL, &ao, &st);
    srch_dom_net_opts o = SRCH_DOM_NET_DEFAULTS;
    o.engine = engine;
    srch_dom_heur *ga = srch_dom_heur_net(d, m, "m", &o, &st);
    CHECK_MSG(sa && ga, "%s", hn_errmsg());
    enum { N = 200 };
    srch_np_board *b = malloc(N * sizeof *b);
    uint8_t *s = malloc((size_t)N * dom_state_bytes(d));
    float want[N];
    double got[N];
    hn_rng *rng = hn_rng_new(8);
    for (int i = 0; i < N; i++) {
        srch_np_board_random(&b[i], 4, SRCH_NP_GOAL_BLANK_FIRST, rng);
        CHECK(to_state(d, &b[i], s + (size_t)i * dom_state_bytes(d)) == 0);
    }
    CHECK(sa && ga && srch_np_heur_ann_estimate(sa, b, N, want) == 0 &&
          srch_dom_heur_estimate(ga, s, N, NULL, NULL, NULL, got) == 0);
    for (int i = 0; sa && ga && i < N; i++)
        CHECK_CLOSE(got[i], want[i], tol);
    hn_rng_free(rng);
    free(b);
    free(s);
    srch_np_heur_free(sa);
    srch_dom_heur_free(ga);
    nn_model_free(m);
}

/* A* with the shipped 15-puzzle search network in float, scale 10 and
 * delta 0.65 as it records: the generic and the specialized search expand
 * the same states (their values are the same to the bit). */
static void compare_net_astar(const dom *d)
{
    const char *path = HN_TEST_SRC "/models/15puzzle-search.h5";
    int st;
    srch_np_ann_opts ao = SRCH_NP_ANN_DEFAULTS;
    ao.scale = 10;
    ao.delta = 0.65;
    ao.cache_bits = 0;
    srch_np_heur *sa = srch_np_heur_ann_load(path, 4, SRCH_NP_GOAL_BLANK_FIRST, NULL, &ao, &st);
    char spec[1024];
    snprintf(spec, sizeof spec, "ann:%s,scale:10,delta:0.65,sparse,cache:0", path);
    srch_dom_heur *ga = srch_dom_heur_open(d, spec, NULL, &st);
    CHECK_MSG(sa && ga && srch_dom_heur_scale(ga) == 10, "%s", hn_errmsg());
    srch_np_result *r = malloc(sizeof *r);
    srch_dom_result *g = malloc(sizeof *g);
    srch_np_bfs_opts bo = {.batch = 1, .weight = 1};
    hn_rng *rng = hn_rng_new(45);
    for (int i = 0; sa && ga && i < 4; i++) {
        srch_np_board b;
        uint8_t s[DOM_MAX_STATE_BYTES];
        srch_np_board_random(&b, 4, SRCH_NP_GOAL_BLANK_FIRST, rng);
        CHECK(to_state(d, &b, s) == 0);
        CHECK(srch_np_batch_astar(&b, sa, &bo, NULL, r) == 0 &&
              srch_dom_astar(d, s, ga, NULL, NULL, g) == 0);
        CHECK_MSG(r->length == g->length && r->expanded == g->expanded &&
                      r->generated == g->generated,
                  "A* with a network: length %d/%d expanded %llu/%llu", r->length, g->length,
                  (unsigned long long)r->expanded, (unsigned long long)g->expanded);
        CHECK(g->rows > g->expanded && g->rows <= g->generated + 1); /* new states only */
    }
    hn_rng_free(rng);
    free(r);
    free(g);
    srch_np_heur_free(sa);
    srch_dom_heur_free(ga);
    /* a floor by name, and settings that do not fit */
    snprintf(spec, sizeof spec, "ann:%s,scale:10,q8,manhattan", path);
    ga = srch_dom_heur_open(d, spec, NULL, &st);
    CHECK(ga != NULL);
    srch_dom_heur_free(ga);
    snprintf(spec, sizeof spec, "ann:%s,scale:0", path);
    CHECK(srch_dom_heur_open(d, spec, NULL, &st) == NULL && st == HN_ERR_ARG);
    snprintf(spec, sizeof spec, "ann:%s,manhattan,lc", path);
    CHECK(srch_dom_heur_open(d, spec, NULL, &st) == NULL && st == HN_ERR_ARG);
    snprintf(spec, sizeof spec, "ann:%s,nonesuch", path);
    CHECK(srch_dom_heur_open(d, spec, NULL, &st) == NULL && st == HN_ERR_ARG);
}

int main(void)
{
    int st;
    dom *d = dom_open("npuzzle:4x4", &st);
    CHECK(d != NULL);
    if (!d)
        return CHECK_DONE();
    srch_dom_heur *h = srch_dom_heur_adm(d, "manhattan", &st);
    srch_np_heur *md = srch_np_heur_manhattan_new(4, SRCH_NP_GOAL_BLANK_FIRST, &st);
    srch_np_result *r = malloc(sizeof *r);
    srch_dom_result *g = malloc(sizeof *g);
    hn_rng *rng = hn_rng_new(44);
    for (int i = 0; h && md && i < 12; i++) {
        srch_np_board b;
        srch_np_board_random_walk(&b, 4, SRCH_NP_GOAL_BLANK_FIRST, 20 + 4 * i, rng);
        compare(d, h, md, &b, r, g);
    }
    hn_rng_free(rng);
    passes();
    passes_other_boards();
    compare_net(d, SRCH_DOM_ENGINE_FLOAT, 1e-5);
    compare_net(d, SRCH_DOM_ENGINE_Q8, 0.05);
    compare_net_astar(d);
    free(r);
    free(g);
    srch_np_heur_free(md);
    srch_dom_heur_free(h);
    dom_free(d);
    return CHECK_DONE();
}
