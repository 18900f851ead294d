/* Domain datasets (datagen/dom_ds.h), read as `heurnet gen --domain` checks
 * a finished file and as `heurnet train` reads one (seed:
 * corpus/dom_dataset/seed.h5, heurnet gen --domain npuzzle:3x4). First byte:
 * raw bytes or edits of the seed (fz_raw_or_edit). Every reader refuses
 * the file or accepts it; the rows of an accepted file encode to 0/1
 * inputs (a state out of range would write past the batch, which ASan
 * sees). */
#include "datagen/dg.h"
#include "fuzz_h5edit.h"
#include "train/trn.h"

static dom *fz_dom;

FZ_SEED_INIT("dom_dataset/seed.h5", fz_dom = dom_open("npuzzle:3x4", NULL))

static void use_rows(const trn_data *t)
{
    enum { N = 4 };
    int in = trn_data_inputs(t);
    uint64_t rows = trn_data_rows(t, TRN_TRAIN);
    uint32_t idx[N];
    int n = rows < N ? (int)rows : N;
    for (int i = 0; i < n; i++)
        idx[i] = (uint32_t)i;
    float *x = malloc(sizeof(float) * (size_t)in * N), y[N];
    if (!x)
        return;
    trn_data_batch(t, TRN_TRAIN, idx, n, x, y);
    for (size_t k = 0; k < (size_t)in * (size_t)n; k++)
        if (x[k] != 0.0f && x[k] != 1.0f)
            abort();
    free(x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!fz_dom)
        abort();
    const char *path = fuzz_scratch(".h5");
    if (fz_raw_or_edit(path, data, size) != 0)
        return 0;
    dg_dom_info info;
    dg_dom_info_read(path, &info);
    static uint64_t hist[64], src[DG_DOM_SOURCES];
    unsigned mx;
    if (dg_dom_is_dataset(path))
        dg_dom_histogram(path, &info, hist, 64, src, &mx);
    char name[256];
    trn_data_file_domain(path, name, sizeof name);
    int st;
    trn_data *t = trn_data_open_dom(&path, 1, 0.1, 0, fz_dom, &st);
    if (t)
        use_rows(t);
    trn_data_free(t);
    return 0;
}
