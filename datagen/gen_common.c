/* Shared by the generators: the row buffer between commits, the attributes
 * that describe a run, and whether a run starts a file or continues one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datagen/gen_priv.h"

int dg_rowbuf_init(struct dg_rowbuf *rb, int cells)
{
    memset(rb, 0, sizeof *rb);
    rb->cells = cells;
    return HN_OK;
}

static int grow(struct dg_rowbuf *rb)
{
    size_t cap = rb->cap ? rb->cap * 2 : 4096;
    uint8_t *b = realloc(rb->boards, cap * (size_t)rb->cells);
    if (b)
        rb->boards = b;
    uint8_t *s = realloc(rb->source, cap);
    if (s)
        rb->source = s;
    uint16_t *c = realloc(rb->cost, cap * sizeof *c);
    if (c)
        rb->cost = c;
    uint64_t *e = realloc(rb->expanded, cap * sizeof *e);
    if (e)
        rb->expanded = e;
    if (!b || !s || !c || !e)
        return hn_fail(HN_ERR_NOMEM, "out of memory for %zu rows", cap);
    rb->cap = cap;
    return HN_OK;
}

int dg_rowbuf_push(struct dg_rowbuf *rb, const srch_np_board *b, uint16_t cost, uint64_t expanded,
                   uint8_t source)
{
    if (rb->rows == rb->cap) {
        int rc = grow(rb);
        if (rc)
            return rc;
    }
    memcpy(rb->boards + rb->rows * (size_t)rb->cells, b->tile, (size_t)rb->cells);
    rb->cost[rb->rows] = cost;
    rb->expanded[rb->rows] = expanded;
    rb->source[rb->rows] = source;
    rb->rows++;
    return HN_OK;
}

int dg_rowbuf_flush(struct dg_rowbuf *rb, dg_writer *w, uint64_t done)
{
    int rc = dg_writer_append(w, rb->boards, rb->cost, rb->expanded, rb->source, rb->rows);
    if (!rc)
        rc = dg_writer_commit(w, done);
    rb->rows = 0;
    return rc;
}

void dg_rowbuf_free(struct dg_rowbuf *rb)
{
    free(rb->boards);
    free(rb->source);
    free(rb->cost);
    free(rb->expanded);
    memset(rb, 0, sizeof *rb);
}

int dg_gen_info(const dg_gen_opts *o, dg_ds_info *info)
{
    memset(info, 0, sizeof *info);
    const char *goal = srch_np_goal_name(o->goal);
    if (!goal || o->width < SRCH_NP_MIN_WIDTH || o->width > SRCH_NP_MAX_WIDTH)
        return hn_fail(HN_ERR_ARG, "unsupported board width %d or goal %d", o->width, o->goal);
    if (o->shard_count < 1 || o->shard_index < 0 || o->shard_index >= o->shard_count)
        return hn_fail(HN_ERR_ARG, "shard %d/%d does not exist", o->shard_index, o->shard_count);
    info->width = o->width;
    info->cells = o->width * o->width;
    snprintf(info->goal, sizeof info->goal, "%s", goal);
    snprintf(info->heuristic, sizeof info->heuristic, "%s", o->heur_name ? o->heur_name : "");
    snprintf(info->solver, sizeof info->solver, "idastar");
    const char *src = o->instances ? "file" : o->walk_length > 0 ? "random-walk" : "random";
    snprintf(info->source, sizeof info->source, "%s%s", src, o->path_states ? "+path" : "");
    if (o->instances) {
        snprintf(info->from, sizeof info->from, "%s", o->from ? o->from : "");
        info->from_crc = o->from_crc;
    }
    info->walk_length = o->walk_length > 0 ? o->walk_length : 0;
    info->path_states = !!o->path_states;
    info->seed = o->instances ? 0 : o->seed;
    info->shard_index = o->shard_index;
    info->shard_count = o->shard_count;
    uint64_t total = o->instances ? (uint64_t)o->ninstances : o->count;
    /* contiguous blocks, so shards concatenate to the unsharded file */
    uint64_t lo =
        total / (uint64_t)o->shard_count * (uint64_t)o->shard_index +
        total % (uint64_t)o->shard_count * (uint64_t)o->shard_index / (uint64_t)o->shard_count;
    uint64_t hi = total / (uint64_t)o->shard_count * (uint64_t)(o->shard_index + 1) +
                  total % (uint64_t)o->shard_count * (uint64_t)(o->shard_index + 1) /
                      (uint64_t)o->shard_count;
    info->first_index = lo;
    info->count = hi - lo;
    info->total_count = total;
    return HN_OK;
}

dg_writer *dg_gen_open(const char *path, const dg_gen_opts *o, const dg_ds_info *info,
                       dg_ds_info *found, int *status)
{
    memset(found, 0, sizeof *found);
    if (!o->overwrite && access(path, F_OK) == 0)
        return dg_writer_resume(path, info, found, status);
    return dg_writer_create(path, info, status);
}
