/* Writes the seeds of the PDB harness: the 8-puzzle split into patterns of
 * 3, 3 and 2 tiles (about 600 entries each, a file of a few hundred bytes,
 * small enough for the fuzzer to mutate quickly), compressed to OUT.pdb and,
 * when RAW.pdb is given, uncompressed as the PDB cache keeps large tables
 * (magic HNPDBRAW, mapped on load). Usage: seed_pdb OUT.pdb [RAW.pdb] */
#include <stdio.h>

#include "datagen/dg.h"
#include "search/srch.h"

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: seed_pdb OUT.pdb [RAW.pdb]\n");
        return 2;
    }
    srch_np_partition part = {.name = "3-3-2",
                              .width = 3,
                              .npatterns = 3,
                              .size = {3, 3, 2},
                              .tiles = {{1, 2, 3}, {4, 5, 6}, {7, 8}}};
    srch_np_pdb *p = NULL;
    if (dg_pdb_build(&part, 1, NULL, NULL, &p) != 0 || srch_np_pdb_save(p, argv[1]) != 0 ||
        (argc == 3 && srch_np_pdb_save_raw(p, argv[2]) != 0)) {
        fprintf(stderr, "seed_pdb: %s\n", hn_errmsg());
        srch_np_pdb_free(p);
        return 1;
    }
    srch_np_pdb_free(p);
    return 0;
}
