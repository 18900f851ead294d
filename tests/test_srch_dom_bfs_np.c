/* The generic best-first searches against the n-puzzle's on DeepCubeA's
 * 15-puzzle boards (blank-last) with the search models/15puzzle-search.h5
 * records (ann:SELF,scale:10,delta:0.65,q8,acc16: a blank-first model read
 * through the 180-degree turn): A*, weighted A*, batch weighted A* (BWAS,
 * lambda 0.8 = weight 1.25, batch 16) and focal search (bound 1.5) give the same
 * lengths, expansions and children. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "search/generic/srch_dom.h"
#include "search/npuzzle/ann.h"
#include "search/srch.h"

enum { BOARDS = 6 };

typedef struct {
    const dom *d;
    srch_np_heur *np, *np_adm;
    srch_dom_heur *gen, *gen_adm;
} heurs;

static void same(const char *what, const char *id, const srch_np_result *r,
                 const srch_dom_result *g)
{
    CHECK_MSG(r->status == 0 && g->status == 0 && r->length == g->length &&
                  r->expanded == g->expanded && r->generated == g->generated,
              "%s on board %s: length %d/%d expanded %llu/%llu generated %llu/%llu", what, id,
              r->length, g->length, (unsigned long long)r->expanded,
              (unsigned long long)g->expanded, (unsigned long long)r->generated,
              (unsigned long long)g->generated);
}

static void compare_board(const heurs *h, const srch_np_instance *in, srch_np_result *r,
                          srch_dom_result *g)
{
    uint8_t s[DOM_MAX_STATE_BYTES];
    char text[256];
    srch_np_board_format(&in->board, text, sizeof text);
    CHECK(dom_parse_state(h->d, text, s) == 0);
    srch_dom_opts o = SRCH_DOM_DEFAULTS;
    srch_np_bfs_opts bo = {.batch = 1, .weight = 1};
    CHECK(srch_np_batch_astar(&in->board, h->np, &bo, NULL, r) == 0);
    CHECK(srch_dom_astar(h->d, s, h->gen, &o, NULL, g) == 0);
    same("A*", in->id, r, g);
    bo.weight = o.weight = 1.5;
    CHECK(srch_np_batch_astar(&in->board, h->np, &bo, NULL, r) == 0);
    CHECK(srch_dom_astar(h->d, s, h->gen, &o, NULL, g) == 0);
    same("weighted A* 1.5", in->id, r, g);
    bo = (srch_np_bfs_opts){.batch = 16, .weight = 1 / 0.8};
    o.weight = 1 / 0.8;
    o.batch = 16;
    CHECK(srch_np_batch_astar(&in->board, h->np, &bo, NULL, r) == 0);
    CHECK(srch_dom_bwas(h->d, s, h->gen, &o, NULL, g) == 0);
    same("BWAS lambda 0.8, batch 16", in->id, r, g);
    o = SRCH_DOM_DEFAULTS;
    CHECK(srch_np_focal(&in->board, h->np_adm, h->np, 1.5, NULL, r) == 0);
    CHECK(srch_dom_focal(h->d, s, h->gen, h->gen_adm, 1.5, &o, NULL, g) == 0);
    same("focal 1.5", in->id, r, g);
}

int main(void)
{
    const char *path = HN_TEST_SRC "/models/15puzzle-search.h5";
    int st;
    heurs h = {0};
    dom *d = dom_open("npuzzle:4x4:blank-last", &st);
    h.d = d;
    srch_np_ann_opts ao = SRCH_NP_ANN_DEFAULTS;
    ao.scale = 10;
    ao.delta = 0.65;
    ao.engine = SRCH_NP_ANN_Q8;
    ao.acc16 = 1;
    ao.cache_bits = 0;
    h.np = srch_np_heur_ann_load(path, 4, SRCH_NP_GOAL_BLANK_LAST, NULL, &ao, &st);
    h.np_adm = srch_np_heur_lc_new(4, SRCH_NP_GOAL_BLANK_LAST, &st);
    char spec[1200];
    snprintf(spec, sizeof spec, "ann:%s,scale:10,delta:0.65,q8,acc16,cache:0", path);
    h.gen = d ? srch_dom_heur_open(d, spec, NULL, &st) : NULL;
    h.gen_adm = d ? srch_dom_heur_adm(d, "lc", &st) : NULL;
    srch_np_instance *in = NULL;
    size_t n = 0;
    CHECK(srch_np_parse_file(HN_TEST_DATA "/npuzzle/deepcubea_test_15puzzle.txt", 4,
                             SRCH_NP_GOAL_BLANK_LAST, NULL, NULL, &in, &n) == 0);
    CHECK_MSG(d && h.np && h.np_adm && h.gen && h.gen_adm && n >= BOARDS, "%s", hn_errmsg());
    srch_np_result *r = malloc(sizeof *r);
    srch_dom_result *g = malloc(sizeof *g);
    /* every 50th board: short and long ones */
    for (size_t i = 0; h.gen && h.np && h.gen_adm && h.np_adm && i < BOARDS && i * 50 < n; i++)
        compare_board(&h, &in[i * 50], r, g);
    free(r);
    free(g);
    free(in);
    srch_np_heur_free(h.np);
    srch_np_heur_free(h.np_adm);
    srch_dom_heur_free(h.gen);
    srch_dom_heur_free(h.gen_adm);
    dom_free(d);
    return CHECK_DONE();
}
