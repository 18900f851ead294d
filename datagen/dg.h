/* datagen: building pattern databases and labelled data sets. One public
 * header for the module. */
#ifndef DG_H
#define DG_H

#include <stddef.h>
#include <stdint.h>

#include "common/hn.h"
#include "search/srch.h"

HEURNET_API_BEGIN

/* ======================================================================
 * Pattern database construction (datagen/pdb*.c)
 * ==================================================================== */

/* Build the blank-aware additive PDB of `part` for the blank-first goal:
 * per pattern, a layered scan over (placement, region of the blank) where
 * blank moves cost 0 and pattern-tile moves cost 1; each entry stores the
 * minimum over blank positions. `threads` (>= 1) share each layer's scan.
 * `progress` (may be NULL) is called after each layer with entries done /
 * total over all patterns. Polls hn_stop_requested(). Returns 0 with *out
 * (caller frees with srch_np_pdb_free), or HN_ERR_NOMEM / HN_ERR_ARG /
 * HN_ERR_INTERRUPTED with a message; *out is then NULL. */
int dg_pdb_build(const srch_np_partition *part, int threads, hn_progress_fn progress, void *user,
                 srch_np_pdb **out);

/* ======================================================================
 * Labelled data
 * ==================================================================== */

/* Row sources and the reader of old n-puzzle datasets: datagen/dataset.h. */
#include "datagen/dataset.h"
/* Datasets of any domain, their generator and merge: datagen/dom_ds.h. */
#include "datagen/dom_ds.h"

HEURNET_API_END

#endif
