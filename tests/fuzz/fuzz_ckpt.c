/* Training checkpoints: the input is resumed against a fixed tiny dataset
 * and architecture (seed: a checkpoint of that run after one epoch); it is
 * refused, or training continues to epoch 2. */
#include "datagen/dataset.h"
#include "fuzz_util.h"
#include "train/trn.h"
#include "common/hn_h5.h"

static trn_data *data;

/* The dataset is read once, before fuzzing (libFuzzer calls this first):
 * 64 labelled 8-puzzle boards as heurnet gen writes them. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    hn_h5_quiet();
    const char *path = getenv("HEURNET_FUZZ_DATA");
    int st;
    if (!path || !(data = trn_data_open(&path, 1, 0.1, 0, &st))) {
        fprintf(stderr, "fuzz_ckpt: set HEURNET_FUZZ_DATA to the dataset the seed "
                        "checkpoint was trained on (tests/fuzz/corpus/dataset/seed.h5)\n");
        abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data_in, size_t size)
{
    const char *path = fuzz_scratch(".h5");
    fuzz_write(path, data_in, size);
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
    return 0;
}
