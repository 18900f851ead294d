/* The place scorer's training (train/emp_place.c) on synthetic groups whose
 * label is the first feature: the split by group, the epoch callback, a
 * network that learns to pick the best candidate, the model's encoder, and
 * the refusals (an --arch of another shape, no group left to train on). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/hn.h"
#include "search/emp/srch_em_place.h"
#include "train/trn_emp.h"

enum { GROUPS = 60, PER = 4, ROWS = GROUPS * PER };

static float x[ROWS * SRCH_EM_PLACE_DIM], y[ROWS];
static int32_t grp[ROWS];

static void make_data(void)
{
    hn_rng *r = hn_rng_new(5);
    for (int i = 0; i < ROWS; i++) {
        for (int k = 0; k < SRCH_EM_PLACE_DIM; k++)
            x[i * SRCH_EM_PLACE_DIM + k] = (float)hn_rng_below(r, 1000) / 1000.0f;
        y[i] = 4 * x[i * SRCH_EM_PLACE_DIM];
        grp[i] = i / PER;
    }
    hn_rng_free(r);
}

static void count_epoch(int epoch, double loss, const struct trn_emp_place_val *v, void *user)
{
    int *n = user;
    CHECK(epoch == *n + 1 && loss > 0 && v->loss > 0);
    (*n)++;
}

int main(void)
{
    make_data();
    int epochs = 0;
    struct trn_emp_place_opts o = {.arch = "18-16-1",
                                   .data = "synthetic",
                                   .epochs = 40,
                                   .batch = 8,
                                   .lr = 0.01,
                                   .target_temp = 0.5,
                                   .val = 0.25,
                                   .temperature = 0.5,
                                   .seed = 3,
                                   .on_epoch = count_epoch,
                                   .user = &epochs};
    nn_model *m = NULL;
    struct trn_emp_place_result r;
    CHECK(trn_emp_place_train(x, y, grp, ROWS, GROUPS, &o, &m, &r) == 0 && m);
    CHECK(epochs == 40 && r.groups == GROUPS && r.train_groups == GROUPS - GROUPS / 4);
    /* the first choice beats a random pick and mostly finds the best */
    CHECK_MSG(r.val.top1 > 0.5 * r.val.oracle && r.val.hit > 0.5, "top1 %g oracle %g hit %g",
              r.val.top1, r.val.oracle, r.val.hit);
    CHECK(m && !strcmp(nn_model_encoder(m), SRCH_EM_PLACE_ENCODER));
    nn_model_free(m);

    o.on_epoch = NULL;
    o.arch = "17-8-1";
    CHECK(trn_emp_place_train(x, y, grp, ROWS, GROUPS, &o, &m, &r) == HN_ERR_SHAPE && !m);
    o.arch = "18-8-1";
    o.val = 1.0; /* every group held out */
    CHECK(trn_emp_place_train(x, y, grp, ROWS, GROUPS, &o, &m, &r) == HN_ERR_ARG && !m);
    CHECK(strstr(hn_errmsg(), "synthetic: no cell left") != NULL);
    return CHECK_DONE();
}
