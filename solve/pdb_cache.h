/* Private to cli/pdbcache.c and cli/cmd_pdb.c: building a PDB with progress. */
#ifndef HN_CLI_PDBCACHE_H
#define HN_CLI_PDBCACHE_H

#include "search/srch.h"

/* Build `part` on `threads` threads with progress on stderr (unless quiet).
 * Returns 0 with *out, or CLI_EXIT_FAIL after printing the reason. */
int cli_pdb_build(const srch_np_partition *part, int threads, int quiet, srch_np_pdb **out);

#endif
