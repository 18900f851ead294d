/* Pattern databases and heuristics by name: PDB files are cached in a
 * directory ($HEURNET_DATA, else ~/.cache/heurnet) and built on first use. */
#ifndef HEURNET_SOLVE_PDB_CACHE_H
#define HEURNET_SOLVE_PDB_CACHE_H

#include <stddef.h>

#include "search/srch.h"

HEURNET_API_BEGIN

/* Directory of cached PDB files: $HEURNET_DATA, else ~/.cache/heurnet
 * (created if missing) into buf. Returns 0, or HN_ERR_ARG / HN_ERR_IO. */
int heurnet_pdb_dir(char *buf, size_t cap);

/* Build `part` on `threads` threads, with a progress line on stderr unless
 * quiet. Returns 0 with *out (free with srch_np_pdb_free), or a status. */
int heurnet_pdb_build(const srch_np_partition *part, int threads, int quiet, srch_np_pdb **out);

/* The PDB of `partition` ("7-8", "6-6-3", ...) for a `width` board: loaded
 * from the cache, or built on first use (logged, progress unless quiet) and
 * saved there. One table serves both goal layouts. Returns 0 with *out (free
 * with srch_np_pdb_free), or a negative status with hn_errmsg(). */
int heurnet_pdb_get(int width, const char *partition, int goal, int quiet, srch_np_pdb **out);

/* A heuristic from its name: "manhattan", "lc", "pdb:7-8" (reflected
 * lookup), "pdb:7-8:noreflect", "max:lc,pdb:6-6-3", or an ann: spec (see
 * solve/search.h). PDBs come from heurnet_pdb_get. Returns 0 with *out (free
 * with srch_np_heur_free), or HN_ERR_ARG for a bad name, another negative
 * status on failure; hn_errmsg() says why. */
int heurnet_heur_new(const char *spec, int width, int goal, int quiet, srch_np_heur **out);

HEURNET_API_END

#endif
