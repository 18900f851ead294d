/* Private pieces shared by the generators (gen.c, gen_all.c): the buffer of
 * rows waiting to be written and the file set-up (create or continue). */
#ifndef DG_GEN_PRIV_H
#define DG_GEN_PRIV_H

#include "datagen/dataset_priv.h"
#include "datagen/dg.h"

/* Rows collected between two commits. */
struct dg_rowbuf {
    int cells;
    size_t rows, cap;
    uint8_t *boards, *source;
    uint16_t *cost;
    uint64_t *expanded;
};

int dg_rowbuf_init(struct dg_rowbuf *rb, int cells);
int dg_rowbuf_push(struct dg_rowbuf *rb, const srch_np_board *b, uint16_t cost, uint64_t expanded,
                   uint8_t source);
/* Append the rows to w, commit them with `done` boards finished, empty rb. */
int dg_rowbuf_flush(struct dg_rowbuf *rb, dg_writer *w, uint64_t done);
void dg_rowbuf_free(struct dg_rowbuf *rb);

/* The file attributes a run with options o produces (this shard's range). */
int dg_gen_info(const dg_gen_opts *o, dg_ds_info *info);
/* Create path, or continue it when it exists and o->overwrite is 0; *found
 * gets the existing file's info (done = 0 for a new file). */
dg_writer *dg_gen_open(const char *path, const dg_gen_opts *o, const dg_ds_info *info,
                       dg_ds_info *found, int *status);

#endif
