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

#endif
