/* Test helpers shared by the edge-matching tests. */
#ifndef HN_TEST_EMP_CHECK_H
#define HN_TEST_EMP_CHECK_H

#include <stdlib.h>

#include "nn/nn.h"
#include "search/emp/emp.h"
#include "search/emp/srch_em_place.h"

/* 1 if a clue fixes the piece of `cell`. */
static inline int emp_is_clue(const srch_em_inst *in, int cell)
{
    for (int k = 0; k < srch_em_inst_nclues(in); k++) {
        int p, c, r;
        srch_em_inst_clue(in, k, &p, &c, &r);
        if (c == cell)
            return 1;
    }
    return 0;
}

/* A w x h instance (3 frame, 6 inner colours, seed) with the planted piece
 * of cell (2, 3) as a clue, turned `turn` quarters from its planted
 * rotation (turn != 0: no board is perfect); NULL on failure. */
static inline srch_em_inst *emp_clued(int w, int h, uint64_t seed, int turn)
{
    int st, *sol = malloc(sizeof(int) * 2 * (size_t)(w * h));
    srch_em_inst *in = sol ? srch_em_inst_gen(w, h, 3, 6, seed, sol, &st) : NULL;
    int cell = 2 * w + 3;
    if (in && srch_em_inst_add_clue(in, sol[cell], 2, 3, (sol[w * h + cell] + turn) & 3) != HN_OK) {
        srch_em_inst_free(in);
        in = NULL;
    }
    free(sol);
    return in;
}

/* The feature tests' setup: emp_clued(7, 6, 17, 0), a board of it, the
 * place encoder and an rng of `seed`; emp_feats_open returns 1 when all
 * four exist (close frees whatever does, either way). */
typedef struct {
    srch_em_inst *in;
    srch_em_board *ref;
    srch_em_pfeat *f;
    hn_rng *rng;
} emp_feats;

static inline int emp_feats_open(emp_feats *x, uint64_t seed)
{
    int st;
    x->in = emp_clued(7, 6, 17, 0);
    x->ref = x->in ? srch_em_board_new(x->in, &st) : NULL;
    x->f = x->ref ? srch_em_pfeat_new(x->in, &st) : NULL;
    x->rng = hn_rng_new(seed);
    return x->f && x->rng;
}

static inline void emp_feats_close(emp_feats *x)
{
    srch_em_pfeat_free(x->f);
    srch_em_board_free(x->ref);
    srch_em_inst_free(x->in);
    hn_rng_free(x->rng);
}

/* Save a fresh model with this spec, encoder and decision attribute (NULL:
 * none); 0 or -1. */
static inline int emp_save_model(const char *path, const char *spec, const char *enc,
                                 const char *decision)
{
    struct nn_spec s;
    int st;
    if (nn_spec_parse(spec, NULL, &s) != HN_OK)
        return -1;
    nn_model *m = nn_model_new(&s, 3, &st);
    int bad = !m || nn_model_set_encoder(m, enc) != HN_OK ||
              (decision && nn_model_set_meta_str(m, "decision", decision) != HN_OK) ||
              nn_model_save(m, path) != HN_OK;
    nn_model_free(m);
    return bad ? -1 : 0;
}

#endif
