/* Test helpers shared by the value-iteration tests (test_trn_avi*.c). */
#ifndef HN_TEST_AVI_CHECK_H
#define HN_TEST_AVI_CHECK_H

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "train/trn.h"

/* The state of domain d whose cells read `tiles` ("012345678": one digit
 * per cell, or blank-separated numbers). */
static inline void avi_state(const dom *d, const char *tiles, uint8_t *out)
{
    char text[512];
    size_t k = 0;
    if (strchr(tiles, ' '))
        snprintf(text, sizeof text, "%s", tiles);
    else
        for (const char *c = tiles; *c && k + 3 < sizeof text; c++)
            k += (size_t)snprintf(text + k, sizeof text - k, "%s%c", k ? " " : "", *c);
    CHECK_MSG(dom_parse_state(d, text, out) == 0, "%s: %s", tiles, hn_errmsg());
}

/* The state of d whose cells hold tiles[0..cells). */
static inline void avi_tiles_state(const dom *d, const uint8_t *tiles, int cells, uint8_t *out)
{
    char t[512];
    size_t k = 0;
    for (int c = 0; c < cells && k + 5 < sizeof t; c++)
        k += (size_t)snprintf(t + k, sizeof t - k, "%s%u", c ? " " : "", tiles[c]);
    avi_state(d, t, out);
}

static inline int avi_weights_equal(nn_model *a, nn_model *b)
{
    size_t na, nb;
    float *p = nn_model_params(a, &na), *q = nn_model_params(b, &nb);
    return na == nb && !memcmp(p, q, sizeof(float) * na);
}

/* on_round callback: the round's mean target into *(double *)user. */
static inline void avi_keep_mean(const struct trn_avi_round *r, void *user)
{
    *(double *)user = r->target_mean;
}

/* Run o for `rounds` rounds on 2 threads; then half of them on 1 thread with
 * checkpoint ck (sealed), and resume it to `rounds`: the weights must equal
 * the straight run's bit for bit (the thread count does not change the
 * targets) and differ from the half run's. *o is left set for the resume;
 * returns the resumed model (the caller frees it; NULL on failure). */
static inline nn_model *avi_check_resume(struct trn_avi_opts *o, int rounds, const char *ck)
{
    nn_model *full = NULL, *half = NULL, *rest = NULL;
    o->rounds = rounds;
    o->threads = 2;
    CHECK(trn_avi_run(o, &full) == 0);
    o->rounds = rounds / 2;
    o->threads = 1;
    o->checkpoint = ck;
    CHECK(trn_avi_run(o, &half) == 0);
    int sealed = 0; /* the checkpoint carries the checksum trailer */
    CHECK(hn_file_verify(ck, &sealed) == HN_OK && sealed == 1);
    o->rounds = rounds;
    o->resume = ck;
    o->arch = NULL;
    CHECK(trn_avi_run(o, &rest) == 0);
    CHECK(full && rest && avi_weights_equal(full, rest));
    CHECK(full && half && !avi_weights_equal(full, half));
    nn_model_free(full);
    nn_model_free(half);
    return rest;
}

#endif
