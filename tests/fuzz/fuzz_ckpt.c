/* Training checkpoints: any bytes are refused, or training resumes from
 * them to epoch 2 (seed: a checkpoint of a tiny run after one epoch). */
#include "common/hn_h5.h"
#include "fuzz_loaders.h"

static trn_data *data;

/* The dataset is read once, before fuzzing (libFuzzer calls this first). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    hn_h5_quiet();
    data = fz_ckpt_data();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data_in, size_t size)
{
    const char *path = fuzz_scratch(".h5");
    fuzz_write(path, data_in, size);
    fz_use_ckpt(data, path);
    return 0;
}
