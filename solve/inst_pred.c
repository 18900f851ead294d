/* A model's estimates over an instance file (solve/inst_pred.h): boards
 * encoded in the model's goal layout, evaluated in batches, plus the base
 * heuristic of a residual model. */
#include "solve/inst_pred.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/hn.h"
#include "search/npuzzle/encode.h"
#include "solve/search.h"

static int eval_boards(const nn_model *m, struct heurnet_inst_pred *p, int file_goal,
                       int model_goal, int batch)
{
    int rc = 0, din = nn_model_inputs(m);
    nn_infer *inf = nn_infer_new(m, batch, &rc);
    float *x = malloc(sizeof(float) * (size_t)batch * din),
          *y = malloc(sizeof(float) * (size_t)batch);
    if (!inf || !x || !y)
        rc = rc ? rc : hn_fail(HN_ERR_NOMEM, "out of memory");
    for (size_t s = 0; !rc && s < p->n; s += (size_t)batch) {
        int k = p->n - s < (size_t)batch ? (int)(p->n - s) : batch;
        for (int i = 0; i < k; i++)
            srch_np_encode_onehot(&p->inst[s + i].board, file_goal, model_goal,
                                  x + (size_t)i * din);
        if ((rc = nn_infer_run(inf, x, k, y)))
            break;
        for (int i = 0; i < k; i++)
            p->pred[s + i] = y[i];
    }
    free(x);
    free(y);
    nn_infer_free(inf);
    return rc;
}

/* A residual model (root attribute "residual") predicts the correction to
 * its base heuristic: the estimate is base + network. */
static int add_residual(const nn_model *m, const char *name, int width, int goal,
                        struct heurnet_inst_pred *p)
{
    srch_np_heur *base = NULL;
    int rc = heurnet_residual_base(m, name, width, goal, 1, &base);
    for (size_t i = 0; !rc && base && i < p->n; i++)
        p->pred[i] += srch_np_heur_eval(base, &p->inst[i].board);
    srch_np_heur_free(base);
    return rc;
}

int heurnet_inst_predict(const nn_model *m, const char *name, const char *file, int file_goal,
                         int batch, srch_np_parse_err_fn err, void *user,
                         struct heurnet_inst_pred *out)
{
    int width, model_goal;
    memset(out, 0, sizeof *out);
    if (srch_np_encode_parse(nn_model_encoder(m), &width, &model_goal))
        return hn_fail(HN_ERR_UNSUPPORTED,
                       "%s: the model reads \"%s\", not n-puzzle boards "
                       "(encoder npuzzle-onehot)",
                       name, nn_model_encoder(m));
    if (nn_model_inputs(m) != srch_np_encode_width(width * width) || nn_model_outputs(m) != 1)
        return hn_fail(HN_ERR_SHAPE,
                       "%s: the model's input width %d does not fit its encoder \"%s\"", name,
                       nn_model_inputs(m), nn_model_encoder(m));
    if (file_goal < 0)
        file_goal = model_goal;
    int rc = srch_np_parse_file(file, width, file_goal, err, user, &out->inst, &out->n);
    if (rc)
        return rc;
    out->pred = malloc(sizeof(double) * (out->n ? out->n : 1));
    if (!out->pred)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    rc = eval_boards(m, out, file_goal, model_goal, batch);
    return rc ? rc : add_residual(m, name, width, file_goal, out);
}

void heurnet_inst_pred_free(struct heurnet_inst_pred *p)
{
    free(p->inst);
    free(p->pred);
    memset(p, 0, sizeof *p);
}

void heurnet_inst_errors(const struct heurnet_inst_pred *p, float over_weight,
                         struct heurnet_inst_err *e)
{
    memset(e, 0, sizeof *e);
    for (size_t i = 0; i < p->n; i++) {
        int opt = p->inst[i].optimal;
        if (opt < 0)
            continue;
        double err = p->pred[i] - opt;
        e->n_known++;
        e->loss += err * err * (err > 0 ? over_weight : 1.0);
        e->mae += fabs(err);
        e->exact += lround(p->pred[i]) == opt;
        e->over += lround(p->pred[i]) > opt;
    }
    if (e->n_known) {
        double n = (double)e->n_known;
        e->loss /= n, e->mae /= n, e->exact /= n, e->over /= n;
    }
}
