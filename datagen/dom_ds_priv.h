/* Private to the domain datasets (dom_ds.c, dom_gen.c): the writer of
 * FILE.part. Rows are appended, then committed (a flush, then the row count
 * and the rows' CRC-32s and a flush), so a stopped or killed run leaves a
 * file whose committed rows a rerun continues; FILE.part stores them
 * uncompressed, so an append never rewrites them elsewhere. */
#ifndef DG_DOM_DS_PRIV_H
#define DG_DOM_DS_PRIV_H

#include "common/hn_h5.h"
#include "datagen/dom_ds.h"

typedef struct dg_dom_writer dg_dom_writer;

/* One batch of rows, column by column. */
struct dg_dom_rows {
    const uint8_t *states; /* n * state_bytes */
    const uint16_t *cost, *walk;
    const uint64_t *expanded;
    const uint8_t *source;
    size_t n;
};

/* Create `path` afresh with the attributes of info (progress zeroed). */
dg_dom_writer *dg_dom_writer_create(const char *path, const dg_dom_info *info, int *status);
/* Continue `path`: its settings must equal info's (count may grow); rows
 * beyond `committed` are cut off. *found gets the file's info. */
dg_dom_writer *dg_dom_writer_resume(const char *path, const dg_dom_info *info, dg_dom_info *found,
                                    int *status);
int dg_dom_writer_append(dg_dom_writer *w, const struct dg_dom_rows *r);
/* Every appended row is committed and `done` states are finished. */
int dg_dom_writer_commit(dg_dom_writer *w, uint64_t done);
uint64_t dg_dom_writer_rows(const dg_dom_writer *w);
/* Close; NULL is allowed. With `final` (the writer's rows all committed and
 * every state done), first mark FILE.part complete, write the finished file
 * (compressed, sealed) to FILE.part.pack, rename that to `final` and remove
 * FILE.part. Returns the first error seen. */
int dg_dom_writer_close(dg_dom_writer *w, const char *final);

/* Append the first `rows` rows of the domain dataset `src` (its info
 * checked by the caller) to w. */
int dg_dom_writer_append_file(dg_dom_writer *w, const char *src, uint64_t rows);

/* The first setting in which a and b differ (for messages), or NULL. */
const char *dg_dom_info_diff(const dg_dom_info *a, const dg_dom_info *b, char *buf, size_t cap);

/* Every root attribute of info (format included) on file f. */
int dg_dom_info_write(hid_t f, const dg_dom_info *info);

/* HDF5 reads a virtual dataset whose source file is gone as fill values
 * without complaint: HN_ERR_IO naming the first missing shard file that
 * dataset `name` of f refers to (relative names next to `path`), else 0. */
int dg_check_virtual_sources(hid_t f, const char *path, const char *name);

/* Every state reachable from d's goal in breadth-first order (*states,
 * n * state_bytes) with its distance (*cost), at most max of them (else
 * HN_ERR_UNSUPPORTED); unit-cost reversible domains only. The caller frees
 * both arrays. */
int dg_dom_enumerate(const dom *d, uint64_t max, uint8_t **states, uint16_t **cost, uint64_t *n);

/* Name under which a virtual file `out` refers to `shard`: the bare file
 * name when both lie in the same folder (the set stays movable), else
 * absolute. */
void dg_vds_source_name(const char *out, const char *shard, char *buf, size_t cap);

/* Dataset `name` (file type `type`, rank 1 or 2 with `cols` columns) of f
 * as an HDF5 virtual dataset stacking the same dataset of n files, rows[i]
 * rows of paths[i] each, in order; `out` names f in messages and is where
 * dg_vds_source_name resolves the paths from. */
int dg_vds_stack(hid_t f, const char *out, const char *name, hid_t type, int rank, int cols,
                 const char *const *paths, const uint64_t *rows, int n);

/* Open for reading. A file that `heurnet gen` is writing is locked by HDF5;
 * its committed rows are consistent on disk between commits, so look at it
 * without taking the lock (progress checks, `heurnet data info`). A
 * damaged file gets a message naming it. */
hid_t dg_h5_open_live(const char *path);

#endif
