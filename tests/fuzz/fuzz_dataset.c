/* Dataset files: any bytes are refused or read without a crash by every
 * dataset reader (seed: a tiny 8-puzzle dataset from heurnet gen). */
#include "common/hn_h5.h"
#include "fuzz_loaders.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hn_h5_quiet();
    const char *path = fuzz_scratch(".h5");
    fuzz_write(path, data, size);
    fz_use_dataset(path);
    return 0;
}
