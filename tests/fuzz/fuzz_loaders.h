/* What the HDF5 harnesses do with a file, shared by the raw-byte harnesses
 * (fuzz_model.c, ...) and the structure-aware ones (fuzz_*_edit.c): each
 * loader must refuse the file or give an object that works. */
#ifndef HN_FUZZ_LOADERS_H
#define HN_FUZZ_LOADERS_H

#include "datagen/dataset.h"
#include "fuzz_util.h"
#include "nn/nn.h"
#include "train/trn.h"

/* A model: refused, or loaded and run forward on one row. */
static inline void fz_use_model(const char *path)
{
    int st;
    nn_model *m = nn_model_load(path, &st);
    if (!m)
        return;
    int in = nn_model_inputs(m), out = nn_model_outputs(m);
    nn_infer *c = nn_infer_new(m, 1, &st);
    float *x = calloc((size_t)in, sizeof *x), *y = calloc((size_t)out, sizeof *y);
    if (c && x && y)
        nn_infer_run(c, x, 1, y);
    free(x);
    free(y);
    nn_infer_free(c);
    nn_model_free(m);
}

/* A dataset: the attribute reader, the whole-file loader, the histogram
 * and the training reader each refuse or accept it. */
static inline void fz_use_dataset(const char *path)
{
    dg_ds_info info;
    if (dg_ds_info_read(path, &info) != 0)
        return;
    int st;
    dg_dataset *d = dg_dataset_load(path, &st);
    dg_dataset_free(d);
    uint64_t hist[64], by_source[5];
    unsigned max_cost;
    dg_ds_histogram(path, hist, 64, by_source, &max_cost);
    trn_data *t = trn_data_open(&path, 1, 0.1, 0, &st);
    trn_data_free(t);
}

/* The tiny dataset the checkpoint seed was trained on (64 labelled
 * 8-puzzle boards): HEURNET_FUZZ_DATA, else the corpus's copy. */
static inline trn_data *fz_ckpt_data(void)
{
    const char *path = getenv("HEURNET_FUZZ_DATA");
    if (!path)
        path = HN_FUZZ_CORPUS "/dataset/seed.h5";
    int st;
    trn_data *d = trn_data_open(&path, 1, 0.1, 0, &st);
    if (!d) {
        fprintf(stderr, "fuzz: cannot read the checkpoint's dataset %s\n", path);
        abort();
    }
    return d;
}

/* A checkpoint: resumed against that dataset and a fixed architecture; it
 * is refused, or training continues to epoch 2. */
static inline void fz_use_ckpt(trn_data *data, const char *path)
{
    struct trn_opts o;
    o = TRN_OPTS_DEFAULTS;
    o.arch = "81-8-1";
    o.batch = 16;
    o.epochs = 2;
    o.resume = path;
    nn_model *m = NULL;
    struct trn_result r;
    if (trn_run(data, &o, &m, &r) == 0 && (!m || r.epochs_run != 2))
        abort(); /* success must mean a model after the asked epochs */
    nn_model_free(m);
}

#endif
