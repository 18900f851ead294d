/* emp-place-v1 training data (datagen/emp_place.c; seed: corpus/emp_place/
 * place.h5 from `heurnet emp gen-data --decision place`). First byte: raw
 * bytes or edits of the seed (fz_raw_or_edit). An accepted file has finite
 * labels and contiguous, non-negative groups. */
#include <math.h>

#include "datagen/emp_place.h"
#include "fuzz_h5edit.h"

FZ_SEED_INIT("emp_place/place.h5", (void)0)

static void use_place(const char *path)
{
    float *x, *y;
    int32_t *group;
    dg_emp_place_info info;
    if (dg_emp_place_read(path, &x, &y, &group, &info) == 0)
        for (uint64_t r = 0; r < info.rows; r++)
            if (!isfinite(y[r]) || group[r] < 0 || (r && group[r] < group[r - 1]))
                abort();
    free(x);
    free(y);
    free(group);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_scratch(".h5");
    if (fz_raw_or_edit(path, data, size) == 0)
        use_place(path);
    return 0;
}
