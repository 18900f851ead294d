/* Dataset files: the attribute reader, the whole-file loader, the histogram
 * and the training reader each refuse or accept any bytes without a crash
 * (seed: a tiny 8-puzzle dataset from heurnet gen). */
#include "datagen/dataset.h"
#include "fuzz_util.h"
#include "train/trn.h"
#include "common/hn_h5.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hn_h5_quiet();
    const char *path = fuzz_scratch(".h5");
    fuzz_write(path, data, size);
    dg_ds_info info;
    if (dg_ds_info_read(path, &info) != 0)
        return 0;
    int st;
    dg_dataset *d = dg_dataset_load(path, &st);
    dg_dataset_free(d);
    uint64_t hist[64], by_source[5];
    unsigned max_cost;
    dg_ds_histogram(path, hist, 64, by_source, &max_cost);
    trn_data *t = trn_data_open(&path, 1, 0.1, 0, &st);
    trn_data_free(t);
    return 0;
}
