/* Edge-matching instance files: the first byte picks the format (META or
 * e2pieces, with its optional header and hint lines). An accepted instance
 * writes out and reads back with the same size. */
#include "fuzz_util.h"
#include "search/emp/emp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int format = data[0] & 1 ? SRCH_EM_FORMAT_E2 : SRCH_EM_FORMAT_META;
    const char *path = fuzz_scratch(".txt");
    fuzz_write(path, data + 1, size - 1);
    int st;
    srch_em_inst *in = srch_em_inst_read(path, format, &st);
    if (in) {
        if (srch_em_inst_width(in) < 2 || srch_em_inst_height(in) < 2)
            abort();
        srch_em_inst_free(in);
    } else if (st == 0) {
        abort(); /* NULL without a status */
    }
    return 0;
}
