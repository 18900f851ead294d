/* The generic network heuristic (search/generic) against the n-puzzle's
 * (search/npuzzle/heur_ann.c) on the shipped models, setting by setting:
 * scale, delta, float and q8 engines, acc16/acc32, cache, mirror (sym:2),
 * an admissible floor, a residual base and a model of the other goal
 * layout. Values must be equal to the bit, on states evaluated alone and
 * on children evaluated from their parents (the incremental first layer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "nn/nn.h"
#include "search/generic/srch_dom.h"
#include "search/npuzzle/ann.h"
#include "search/srch.h"

enum { NBOARDS = 1500, NPARENTS = 200 };

typedef struct {
    const char *model;  /* under models/ */
    int width, goal;    /* the boards' */
    const char *np_set; /* the n-puzzle's settings (srch_np_ann_opts below) */
    srch_np_ann_opts o; /* the same as n-puzzle options */
    const char *floor;  /* "manhattan", "lc" or NULL */
    const char *gen;    /* the generic spec's settings */
    const char *resid;  /* an admissible base added on both sides, or NULL */
} ann_case;

static int to_state(const dom *d, const srch_np_board *b, uint8_t *state)
{
    char text[256];
    srch_np_board_format(b, text, sizeof text);
    return dom_parse_state(d, text, state);
}

static srch_np_heur *np_adm(const char *name, int width, int goal)
{
    int st;
    if (!name)
        return NULL;
    return !strcmp(name, "lc") ? srch_np_heur_lc_new(width, goal, &st)
                               : srch_np_heur_manhattan_new(width, goal, &st);
}

/* The generic heuristic of case c: by spec, or (with a residual base) a
 * network without the model's own base plus the base named. */
static srch_dom_heur *gen_heur(const dom *d, const ann_case *c, const char *path)
{
    int st;
    char spec[1200];
    if (!c->resid) {
        snprintf(spec, sizeof spec, "ann:%s%s%s", path, c->gen[0] ? "," : "", c->gen);
        srch_dom_heur *h = srch_dom_heur_open(d, spec, NULL, &st);
        CHECK_MSG(h != NULL, "%s: %s", spec, hn_errmsg());
        return h;
    }
    nn_model *m = nn_model_load(path, &st);
    srch_dom_net_opts o = SRCH_DOM_NET_DEFAULTS;
    o.residual = 0;
    o.engine = c->o.engine == SRCH_NP_ANN_Q8 ? SRCH_DOM_ENGINE_Q8 : SRCH_DOM_ENGINE_FLOAT;
    o.acc32 = c->o.engine == SRCH_NP_ANN_Q8 && !c->o.acc16;
    o.symmetries = c->o.mirror ? 2 : 1;
    srch_dom_heur *net = m ? srch_dom_heur_net(d, m, path, &o, &st) : NULL;
    nn_model_free(m);
    srch_dom_heur *h = srch_dom_heur_sum_new(srch_dom_heur_adm(d, c->resid, &st), net, &st);
    srch_dom_heur *fl = c->floor ? srch_dom_heur_adm(d, c->floor, &st) : NULL;
    CHECK_MSG(h && srch_dom_heur_set_value(h, c->o.scale, c->o.delta, fl) == 0, "%s: %s", path,
              hn_errmsg());
    return h;
}

static int count_diff(const int *a, const int *b, size_t n, size_t *first)
{
    int k = 0;
    for (size_t i = n; i-- > 0;)
        if (a[i] != b[i]) {
            k++;
            *first = i;
        }
    return k;
}

/* Every board's value alone, then every child of the first NPARENTS from
 * its parent (the generic leaf updates the parent's first layer). */
static void compare_case(const ann_case *c)
{
    char path[1024], spec[64];
    snprintf(path, sizeof path, "%s/models/%s", HN_TEST_SRC, c->model);
    snprintf(spec, sizeof spec, "npuzzle:%dx%d%s", c->width, c->width,
             c->goal == SRCH_NP_GOAL_BLANK_LAST ? ":blank-last" : "");
    int st;
    dom *d = dom_open(spec, &st);
    srch_np_heur *old = srch_np_heur_ann_load(path, c->width, c->goal,
                                              np_adm(c->floor, c->width, c->goal), &c->o, &st);
    if (old && c->resid)
        CHECK(srch_np_heur_ann_set_base(old, np_adm(c->resid, c->width, c->goal)) == 0);
    srch_dom_heur *gen = d ? gen_heur(d, c, path) : NULL;
    CHECK_MSG(d && old && gen, "%s %s: %s", c->model, c->np_set, hn_errmsg());
    if (!d || !old || !gen) {
        srch_np_heur_free(old);
        srch_dom_heur_free(gen);
        dom_free(d);
        return;
    }
    size_t sb = dom_state_bytes(d), nk = (size_t)NPARENTS * DOM_MAX_MOVES;
    srch_np_board *b = malloc((NBOARDS + nk) * sizeof *b);
    uint8_t *s = malloc(NBOARDS * sb), *kids = malloc(nk * sb);
    int *want = malloc((NBOARDS + nk) * sizeof *want), *got = malloc((NBOARDS + nk) * sizeof *got);
    int *parent_of = malloc(nk * sizeof *parent_of);
    uint8_t *moves = malloc(nk);
    hn_rng *rng = hn_rng_new(62);
    for (int i = 0; i < NBOARDS; i++) {
        if (i % 3)
            srch_np_board_random_walk(&b[i], c->width, c->goal, 1 + i % 97, rng);
        else
            srch_np_board_random(&b[i], c->width, c->goal, rng);
        CHECK(to_state(d, &b[i], s + (size_t)i * sb) == 0);
    }
    CHECK(srch_np_heur_eval_batch(old, b, NBOARDS, want) == 0);
    CHECK(srch_dom_heur_eval(gen, s, NBOARDS, NULL, NULL, NULL, got) == 0);
    size_t at = 0;
    int bad = count_diff(want, got, NBOARDS, &at);
    CHECK_MSG(bad == 0, "%s ann:%s vs %s: %d of %d boards differ (board %zu: %d vs %d)", c->model,
              c->np_set, c->gen, bad, NBOARDS, at, want[at], got[at]);
    /* children of the first boards, from their parents */
    size_t n = 0;
    for (int p = 0; p < NPARENTS; p++) {
        uint8_t mv[DOM_MAX_MOVES], q[DOM_MAX_MOVES];
        int k = dom_expand(d, s + (size_t)p * sb, DOM_PRUNE_ROOT, kids + n * sb, mv, q);
        for (int j = 0; j < k; j++, n++) {
            parent_of[n] = p;
            moves[n] = mv[j];
            /* a state is the cells' tiles, then the blank's cell */
            CHECK(srch_np_board_set(&b[n], c->width, kids + n * sb) == 0);
        }
    }
    CHECK(srch_np_heur_eval_batch(old, b, n, want) == 0);
    CHECK(srch_dom_heur_eval(gen, kids, n, s, parent_of, moves, got) == 0);
    bad = count_diff(want, got, n, &at);
    CHECK_MSG(bad == 0, "%s ann:%s vs %s: %d of %zu children differ", c->model, c->np_set, c->gen,
              bad, n);
    hn_rng_free(rng);
    free(b);
    free(s);
    free(kids);
    free(want);
    free(got);
    free(parent_of);
    free(moves);
    srch_np_heur_free(old);
    srch_dom_heur_free(gen);
    dom_free(d);
}

#define OPTS(...) ((srch_np_ann_opts){.max_batch = 1024, __VA_ARGS__})

int main(void)
{
    enum { BF = SRCH_NP_GOAL_BLANK_FIRST, BL = SRCH_NP_GOAL_BLANK_LAST };
    enum { SP = SRCH_NP_ANN_SPARSE, Q8 = SRCH_NP_ANN_Q8 };
    const ann_case cases[] = {
        /* the recorded search of 15puzzle-search.h5 */
        {"15puzzle-search.h5", 4, BF, "scale:10,delta:0.65,q8,acc16,cache:0",
         OPTS(.scale = 10, .delta = 0.65, .engine = Q8, .acc16 = 1), NULL,
         "scale:10,delta:0.65,q8,acc16,cache:0", NULL},
        /* q8 without acc16 on the n-puzzle is acc32 here; caches on both */
        {"15puzzle-search.h5", 4, BF, "scale:10,q8,cache:12",
         OPTS(.scale = 10, .engine = Q8, .cache_bits = 12), NULL, "scale:10,q8,acc32,cache:12",
         NULL},
        /* the n-puzzle's default engine (sparse float) and a floor */
        {"15puzzle-search.h5", 4, BF, "scale:10,delta:1,manhattan",
         OPTS(.scale = 10, .delta = 1, .engine = SP), "manhattan",
         "scale:10,delta:1,float,manhattan", NULL},
        /* the recorded search of 15puzzle-annd-q35.h5: mirror, float */
        {"15puzzle-annd-q35.h5", 4, BF, "scale:10,mirror", OPTS(.scale = 10, .mirror = 1), NULL,
         "scale:10,mirror,float", NULL},
        {"15puzzle-annd.h5", 4, BF, "scale:10,mirror,q8,acc16",
         OPTS(.scale = 10, .mirror = 1, .engine = Q8, .acc16 = 1), NULL, "scale:10,sym:2,q8", NULL},
        /* a blank-first model on blank-last boards (the 180-degree turn) */
        {"15puzzle-search.h5", 4, BL, "scale:10,delta:0.65,q8,acc16",
         OPTS(.scale = 10, .delta = 0.65, .engine = Q8, .acc16 = 1), NULL,
         "scale:10,delta:0.65,q8,acc16", NULL},
        {"15puzzle-annd.h5", 4, BL, "scale:10,mirror,lc", OPTS(.scale = 10, .mirror = 1), "lc",
         "scale:10,mirror,float,lc", NULL},
        {"8puzzle-annd.h5", 3, BF, "", OPTS(.scale = 1, .engine = SP), NULL, "float", NULL},
        {"8puzzle-avi.h5", 3, BL, "scale:100,q8,acc16,mirror",
         OPTS(.scale = 100, .engine = Q8, .acc16 = 1, .mirror = 1), NULL, "scale:100,q8,mirror",
         NULL},
        /* 24-puzzle networks over a residual base (lc here: the recorded
         * pdb:6-6-6-6 takes minutes to build) */
        {"24puzzle-search.h5", 5, BF, "scale:10,q8,acc16 + lc",
         OPTS(.scale = 10, .engine = Q8, .acc16 = 1), NULL, "(net + lc)", "lc"},
        {"24puzzle-annd-big.h5", 5, BL, "scale:10,mirror,manhattan + lc",
         OPTS(.scale = 10, .mirror = 1, .engine = SP), "manhattan", "(net + lc)", "lc"},
        {"24puzzle-annd-next.h5", 5, BF, "scale:10,delta:2,q8,acc16,cache:10 + manhattan",
         OPTS(.scale = 10, .delta = 2, .engine = Q8, .acc16 = 1, .cache_bits = 10), NULL,
         "(net + manhattan)", "manhattan"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        compare_case(&cases[i]);
    return CHECK_DONE();
}
