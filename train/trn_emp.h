/* train, edge matching: the place scorer of `emp solve --scorer`, trained
 * with the listwise softmax cross-entropy on the candidate groups of
 * `emp gen-data --decision place`. Batches hold whole groups and the
 * validation split is by group, so a cell's candidates are never split.
 * Nothing prints: epoch figures go through a callback. Private to the
 * library and the command line (not installed). */
#ifndef TRN_EMP_H
#define TRN_EMP_H

#include <stddef.h>
#include <stdint.h>

#include "nn/nn.h"

/* Validation figures, means per held-out group: the loss and the label gain
 * over a random pick of the model's first choice (top1), of the rule "most
 * fillers for the east cell" and of the best candidate (oracle); hit: share
 * of groups where the first choice is a best one. */
struct trn_emp_place_val {
    double loss, top1, oracle, rule, hit;
};

struct trn_emp_place_opts {
    const char *arch; /* network spec; hidden layers without batch norm */
    const char *data; /* the dataset's name, recorded in the model */
    int epochs, batch;
    double lr, target_temp, val, temperature;
    uint64_t seed;
    /* after each epoch: its number (1-based), the mean batch loss and the
     * validation figures; may be NULL */
    void (*on_epoch)(int epoch, double loss, const struct trn_emp_place_val *v, void *user);
    void *user;
};

/* What training ended with. */
struct trn_emp_place_result {
    int groups, train_groups;
    struct trn_emp_place_val val;
};

/* Train on rows x [rows, SRCH_EM_PLACE_DIM], y and group [rows] (groups
 * contiguous, `ngroups` of them). *out gets the model with the decision,
 * encoder and settings `emp solve` reads (caller frees). Returns 0 or a
 * status with hn_errmsg; HN_ERR_INTERRUPTED is not returned: a stop ends
 * training early with the epochs done. */
int trn_emp_place_train(const float *x, const float *y, const int32_t *group, size_t rows,
                        int ngroups, const struct trn_emp_place_opts *o, nn_model **out,
                        struct trn_emp_place_result *res);

#endif
