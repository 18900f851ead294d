/* Ckpt files, structure-aware (fuzz_h5edit.h): the input is a list of
 * edits to a valid sealed ckpt (corpus/ckpt/sealed.h5); the edited file is
 * sealed again, so the loader reads it in-process as a file heurnet wrote. */
#include "fuzz_h5edit.h"
#include "fuzz_loaders.h"

static trn_data *data;

FZ_SEED_INIT("ckpt/sealed.h5", data = fz_ckpt_data())

int LLVMFuzzerTestOneInput(const uint8_t *data_in, size_t size)
{
    const char *path = fuzz_scratch(".h5");
    if (fz_edit(path, data_in, size) == 0)
        fz_use_ckpt(data, path);
    return 0;
}
