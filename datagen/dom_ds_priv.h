/* Private to the domain datasets (dom_ds.c, dom_gen.c): the writer of
 * FILE.part. Rows are appended, then committed (a flush, then the row count
 * and the rows' CRC-32s and a flush), so a stopped or killed run leaves a
 * file whose committed rows a rerun continues; FILE.part stores them
 * uncompressed, so an append never rewrites them elsewhere. */
#ifndef DG_DOM_DS_PRIV_H
#define DG_DOM_DS_PRIV_H

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

/* The first setting in which a and b differ (for messages), or NULL. */
const char *dg_dom_info_diff(const dg_dom_info *a, const dg_dom_info *b, char *buf, size_t cap);

#endif
