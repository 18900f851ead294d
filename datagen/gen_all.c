/* --all: every state of the 8-puzzle with its exact distance, from one
 * breadth-first search backwards from the goal (no PDB, no solver), written
 * in rank order through the same resumable writer as the sampled data. */
#include <stdlib.h>
#include <string.h>

#include "datagen/gen_priv.h"

/* Distances by full-board rank (255 = unreachable); *reached counts states. */
static int bfs(int width, int goal, uint8_t **dist_out, uint64_t *states, uint64_t *reached)
{
    uint64_t n = 1;
    for (int i = 2; i <= width * width; i++)
        n *= (uint64_t)i;
    uint8_t *dist = malloc(n);
    uint32_t *queue = malloc(n / 2 * sizeof *queue + sizeof *queue);
    if (!dist || !queue) {
        free(dist);
        free(queue);
        return hn_fail(HN_ERR_NOMEM, "out of memory for %llu states", (unsigned long long)n);
    }
    memset(dist, 255, n);
    srch_np_board b;
    srch_np_board_goal(&b, width, goal);
    uint64_t head = 0, tail = 0;
    queue[tail++] = (uint32_t)srch_np_board_rank(&b);
    dist[queue[0]] = 0;
    while (head < tail) {
        uint32_t r = queue[head++];
        srch_np_board_unrank(&b, width, r);
        for (int d = 0; d < 4; d++) {
            if (srch_np_board_move(&b, d) < 0)
                continue;
            uint64_t c = srch_np_board_rank(&b);
            if (dist[c] == 255 && tail < n / 2 + 1) {
                dist[c] = (uint8_t)(dist[r] + 1);
                queue[tail++] = (uint32_t)c;
            }
            srch_np_board_move(&b, srch_np_dir_opposite(d));
        }
    }
    free(queue);
    *dist_out = dist;
    *states = n;
    *reached = tail;
    return HN_OK;
}

/* States with global index [from, end) among the reachable ones; the file's
 * first board has global index `first`. */
static int write_states(dg_writer *w, const dg_gen_opts *o, const uint8_t *dist, uint64_t n,
                        uint64_t first, uint64_t from, uint64_t end)
{
    struct dg_rowbuf rb;
    dg_rowbuf_init(&rb, o->width * o->width);
    int rc = HN_OK;
    uint64_t k = 0; /* index among reachable states */
    srch_np_board b;
    for (uint64_t r = 0; r < n && k < end && !rc; r++) {
        if (dist[r] == 255)
            continue;
        if (k++ < from)
            continue;
        srch_np_board_unrank(&b, o->width, r);
        rc = dg_rowbuf_push(&rb, &b, dist[r], 0, DG_SOURCE_ALL);
        if (!rc && (rb.rows == 65536 || k == end)) {
            rc = dg_rowbuf_flush(&rb, w, k - first);
            if (o->progress)
                o->progress(k - from, end - from, NULL, o->user);
            if (!rc && hn_stop_requested() && k < end)
                rc =
                    hn_fail(HN_ERR_INTERRUPTED, "stopped after %llu states", (unsigned long long)k);
        }
    }
    dg_rowbuf_free(&rb);
    return rc;
}

int dg_gen_all(const char *path, const dg_gen_opts *o, dg_gen_stats *st)
{
    dg_gen_stats local;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    if (o->width != 3)
        return hn_fail(HN_ERR_UNSUPPORTED,
                       "--all enumerates the 181,440 states of the 8-puzzle only; the %d-puzzle "
                       "has far too many states",
                       o->width * o->width - 1);
    double t0 = hn_now();
    uint8_t *dist = NULL;
    uint64_t n = 0, reached = 0;
    int rc = bfs(o->width, o->goal, &dist, &n, &reached);
    if (rc)
        return rc;
    dg_gen_opts a = *o;
    a.instances = NULL;
    a.count = reached;
    a.seed = 0;
    a.walk_length = 0;
    a.path_states = 0;
    a.heur_name = "bfs";
    dg_ds_info info, found;
    rc = dg_gen_info(&a, &info);
    snprintf(info.solver, sizeof info.solver, "bfs");
    snprintf(info.source, sizeof info.source, "all");
    dg_writer *w = rc ? NULL : dg_gen_open(path, &a, &info, &found, &rc);
    if (w) {
        uint64_t end = info.first_index + info.count;
        if (a.stop_after && end > info.first_index + found.done + a.stop_after)
            end = info.first_index + found.done + a.stop_after;
        rc = write_states(w, &a, dist, n, info.first_index, info.first_index + found.done, end);
        st->resumed_from = found.done;
        st->rows = dg_writer_rows(w);
        st->boards = st->rows - found.done;
        st->complete = st->rows == info.count;
        if (!rc && !st->complete)
            rc = hn_fail(HN_ERR_INTERRUPTED, "%s: stopped after %llu of %llu states", path,
                         (unsigned long long)st->rows, (unsigned long long)info.count);
        int crc = dg_writer_close(w, st->complete);
        rc = rc ? rc : crc;
    }
    free(dist);
    st->seconds = hn_now() - t0;
    return rc;
}
