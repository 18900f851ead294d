/* Model files: any bytes are refused or give a model that runs a forward
 * pass (seed: a tiny trained model). */
#include "common/hn_h5.h"
#include "fuzz_loaders.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hn_h5_quiet();
    const char *path = fuzz_scratch(".h5");
    fuzz_write(path, data, size);
    fz_use_model(path);
    return 0;
}
