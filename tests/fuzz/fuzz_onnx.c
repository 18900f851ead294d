/* ONNX import: any bytes are refused with a status and a message naming the
 * file, or give a model that runs a forward pass; a model that exports
 * imports again with the same architecture. Seeds: graphs as PyTorch,
 * tf2onnx and heurnet export write them (tests/import/make_onnx.py). */
#include "fuzz_util.h"
#include "nn/export.h"
#include "nn/import.h"

static void use(nn_model *m)
{
    int n = nn_model_inputs(m), k = nn_model_outputs(m);
    float *x = calloc((size_t)n, sizeof *x), *y = calloc((size_t)k, sizeof *y);
    nn_infer *c = nn_infer_new(m, 1, NULL);
    if (!x || !y)
        abort();
    if (c && nn_infer_run(c, x, 1, y) != 0)
        abort(); /* a model the importer accepted must run */
    nn_infer_free(c);
    free(x);
    free(y);
    const char *path = fuzz_scratch(".onnx");
    if (nn_export_onnx(m, path) == 0) {
        nn_model *r = nn_import_onnx(path, NULL);
        if (!r || nn_model_layers(r) != nn_model_layers(m) ||
            nn_model_inputs(r) != nn_model_inputs(m))
            abort(); /* heurnet's own export must import */
        nn_model_free(r);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int st = 0;
    nn_model *m = nn_import_onnx_mem(data, size, "fuzz.onnx", &st);
    if (!m && (st >= 0 || strncmp(hn_errmsg(), "fuzz.onnx: ", 11)))
        abort(); /* a refusal must carry a status and name the file */
    if (m)
        use(m);
    nn_model_free(m);
    return 0;
}
