/* Private layout of the pattern database object (search/npuzzle/pdb*.c). */
#ifndef SRCH_NP_PDB_INTERNAL_H
#define SRCH_NP_PDB_INTERNAL_H

#include "search/srch.h"

#define SRCH_NP_PDB_UNREACHED 255

struct srch_np_pdb {
    srch_np_partition part;
    uint64_t entries[SRCH_NP_MAX_PATTERNS];
    uint8_t *table[SRCH_NP_MAX_PATTERNS]; /* private memory, 2 MB pages when large */
};

/* srch_np_pdb_new, with every entry SRCH_NP_PDB_UNREACHED when fill is set
 * and left uninitialised otherwise (a loader overwrites them all). */
srch_np_pdb *srch_np_pdb_alloc(const srch_np_partition *part, int fill, int *status);

/* 0 when the patterns are disjoint sets of tiles 1..N-1, else HN_ERR_FORMAT. */
int srch_np_partition_check(const srch_np_partition *part);

#endif
