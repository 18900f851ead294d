/* Model files, structure-aware (fuzz_h5edit.h): the input is a list of
 * edits to a valid sealed model (corpus/model/sealed.h5); the edited file is
 * sealed again, so the loader reads it in-process as a file heurnet wrote. */
#include "fuzz_h5edit.h"
#include "fuzz_loaders.h"

FZ_SEED_INIT("model/sealed.h5", (void)0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_scratch(".h5");
    if (fz_edit(path, data, size) == 0)
        fz_use_model(path);
    return 0;
}
