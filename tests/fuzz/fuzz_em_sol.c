/* Edge-matching solution files (`piece rotation` per cell) for a fixed 5x4
 * instance, then the independent recount that heurnet emp score runs. */
#include "fuzz_util.h"
#include "search/emp/emp.h"

static srch_em_inst *inst;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int st;
    if (!inst && !(inst = srch_em_inst_gen(5, 4, 2, 3, 11, NULL, &st)))
        abort();
    const char *path = fuzz_scratch(".txt");
    fuzz_write(path, data, size);
    int piece[20], rot[20];
    if (srch_em_sol_read(inst, path, piece, rot) == 0) {
        for (int c = 0; c < 20; c++)
            if (piece[c] < 0 || piece[c] >= 20 || rot[c] < 0 || rot[c] > 3)
                abort(); /* an out-of-range cell was accepted */
        int bad;
        char msg[512];
        int score = srch_em_sol_check(inst, piece, rot, &bad, msg, sizeof msg);
        if (score < 0 || score > srch_em_inst_joins(inst))
            abort();
    }
    return 0;
}
