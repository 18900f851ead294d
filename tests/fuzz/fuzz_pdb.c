/* Pattern database files: refused or loaded and looked up (seed: a small
 * 3-3-2 partition of the 8-puzzle, written by tests/fuzz/seed_pdb.c). */
#include "fuzz_util.h"
#include "search/srch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_scratch(".pdb");
    fuzz_write(path, data, size);
    int st;
    srch_np_pdb *p = srch_np_pdb_load(path, NULL, &st);
    if (!p)
        return 0;
    const srch_np_partition *part = srch_np_pdb_partition(p);
    srch_np_board b;
    uint8_t tiles[SRCH_NP_MAX_CELLS];
    int cells = part->width * part->width;
    for (int i = 0; i < cells; i++)
        tiles[i] = (uint8_t)i;
    if (srch_np_board_set(&b, part->width, tiles) == 0 && srch_np_pdb_lookup(p, &b) < 0)
        abort();
    srch_np_pdb_free(p);
    return 0;
}
