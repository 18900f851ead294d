/* Model files: any bytes are refused or give a model that runs a forward
 * pass (seed: a tiny trained model). */
#include "fuzz_util.h"
#include "nn/nn.h"
#include "common/hn_h5.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hn_h5_quiet();
    const char *path = fuzz_scratch(".h5");
    fuzz_write(path, data, size);
    int st;
    nn_model *m = nn_model_load(path, &st);
    if (!m)
        return 0;
    int in = nn_model_inputs(m), out = nn_model_outputs(m);
    nn_infer *c = nn_infer_new(m, 1, &st);
    float *x = calloc((size_t)in, sizeof *x), *y = calloc((size_t)out, sizeof *y);
    if (c && x && y)
        nn_infer_run(c, x, 1, y);
    free(x);
    free(y);
    nn_infer_free(c);
    nn_model_free(m);
    return 0;
}
