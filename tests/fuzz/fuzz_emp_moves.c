/* emp-move-v1 training data (datagen/emp_moves.c; seed: corpus/emp_moves/
 * moves.h5 from `heurnet emp gen-data`). First byte: raw bytes or edits of
 * the seed (fz_raw_or_edit). An accepted file has finite labels. */
#include <math.h>

#include "datagen/emp_moves.h"
#include "fuzz_h5edit.h"

FZ_SEED_INIT("emp_moves/moves.h5", (void)0)

static void use_moves(const char *path)
{
    float *x, *y;
    dg_emp_moves_info info;
    if (dg_emp_moves_read(path, &x, &y, &info) == 0)
        for (uint64_t r = 0; r < info.rows; r++)
            if (!isfinite(y[r]))
                abort();
    free(x);
    free(y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_scratch(".h5");
    if (fz_raw_or_edit(path, data, size) == 0)
        use_moves(path);
    return 0;
}
