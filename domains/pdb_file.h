/* The one pattern-database file (docs/formats.md, "Pattern databases"):
 * a fixed header naming the domain and the table, then one byte per
 * abstract state, checked by a CRC-32. The core's pattern tables
 * (dom_heur.c) and the n-puzzle's tile-group tables (npuzzle_pdb.c) are
 * both kept in it, so `heurnet pdb info`, the cache and the fuzz harness
 * have one reader. The cube's pruning tables (.prune4) are not PDBs of
 * this kind: 4-bit entries over a symmetry-reduced index, their own file. */
#ifndef DOM_PDB_FILE_H
#define DOM_PDB_FILE_H

#include <stddef.h>
#include <stdint.h>

#define DOM_PDB_MAGIC "HNDOMPDB"
#define DOM_PDB_VERSION 1
#define DOM_PDB_MAX_ENTRIES ((uint64_t)1 << 36)

/* Read the file at path into t[0..entries) when its header names `domain`
 * and `table` and that many entries and the CRC matches: 0; 1 when there
 * is no such file; or a negative status with a message naming the file
 * and what is wrong (a table of an older heurnet's format included), for
 * the caller to log before it builds the table again. */
int dom_pdb_load(const char *path, const char *domain, const char *table, uint8_t *t,
                 uint64_t entries);

/* Write the table under a temporary name, read it back and check its
 * CRC, then rename it to path: readers see a whole file or none, and
 * concurrent builders each rename a complete table. 0, or a status with a
 * message naming path. */
int dom_pdb_save(const char *path, const char *domain, const char *table, const uint8_t *t,
                 uint64_t entries);

/* Build one table into t[0..entries) for dom_pdb_cached: 0 or a status. */
typedef int (*dom_pdb_make_fn)(void *ctx, uint8_t *t, uint64_t entries);

/* The table of path in the cache folder: loaded (dom_pdb_load), else made
 * by make once among processes and threads and kept (dom_pdb_save), under
 * path's lock (hn_cache_fill: a second asker waits and loads the file, a
 * killed build leaves none). *made (may be NULL) 1 when this call built
 * it. 0, or the status of make. */
int dom_pdb_cached(const char *path, const char *domain, const char *table, uint8_t *t,
                   uint64_t entries, dom_pdb_make_fn make, void *ctx, int *made);

#endif
