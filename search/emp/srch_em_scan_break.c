/* The break gate: a network trained on emp-break-v1 rows decides, at a
 * backtracker cell whose perfect matches are exhausted, whether the break
 * candidates are tried there or the search backtracks. Like the place
 * scorer it caches its verdicts under the local context (depth, breaks so
 * far, the colours to match), so the network runs only on a miss. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"
#include "search/emp/srch_em_scan_int.h"

struct srch_em_break_gate {
    nn_model *model;
    nn_infer *inf;
    srch_em_pfeat *feat;
    float x[SRCH_EM_BREAK_DIM], y[1];
    uint64_t *cache; /* key | verdict in bit 0 (key has bit 63 set, bit 0 clear) */
    uint64_t cache_mask;
    double refuse; /* >= 0: the ablation, refuse a context with this chance */
    srch_em_break_stats st;
};

void srch_em_break_gate_free(srch_em_break_gate *g)
{
    if (!g)
        return;
    nn_infer_free(g->inf);
    nn_model_free(g->model);
    srch_em_pfeat_free(g->feat);
    free(g->cache);
    free(g);
}

static int check_break_model(const nn_model *m, const char *path)
{
    const char *dec = nn_model_get_meta_str(m, "decision");
    if (!dec || strcmp(dec, SRCH_EM_DECISION_BREAK))
        return hn_fail(HN_ERR_FORMAT, "%s: model scores decision \"%s\", not \"%s\"", path,
                       dec ? dec : SRCH_EM_DECISION_MOVE, SRCH_EM_DECISION_BREAK);
    return srch_em_model_check(m, path, SRCH_EM_BREAK_ENCODER, SRCH_EM_BREAK_DIM, "break gate");
}

srch_em_break_gate *srch_em_break_gate_new(const char *path, const srch_em_inst *inst,
                                           double threshold, int cache_bits, int *status)
{
    if (cache_bits < 4 || cache_bits > 28) {
        *status = hn_fail(HN_ERR_ARG, "break gate: cache bits must be 4..28");
        return NULL;
    }
    srch_em_break_gate *g = calloc(1, sizeof *g);
    if (!g) {
        *status = hn_fail(HN_ERR_NOMEM, "out of memory for the break gate");
        return NULL;
    }
    g->model = nn_model_load(path, status);
    if (!g->model)
        goto fail;
    if ((*status = check_break_model(g->model, path)) != HN_OK)
        goto fail;
    g->st.threshold = threshold;
    g->refuse = -1;
    if (isnan(threshold) &&
        nn_model_get_meta_double(g->model, "break_threshold", &g->st.threshold) != HN_OK)
        g->st.threshold = 0;
    g->inf = nn_infer_new(g->model, 1, status);
    g->feat = g->inf ? srch_em_pfeat_new(inst, status) : NULL;
    if (!g->feat)
        goto fail;
    g->cache_mask = ((uint64_t)1 << cache_bits) - 1;
    g->cache = calloc(g->cache_mask + 1, sizeof *g->cache);
    if (!g->cache) {
        *status = hn_fail(HN_ERR_NOMEM, "out of memory for the break gate's cache");
        goto fail;
    }
    return g;
fail:
    srch_em_break_gate_free(g);
    return NULL;
}

void srch_em_break_gate_set_random(srch_em_break_gate *g, double refuse)
{
    g->refuse = refuse;
}

void srch_em_break_gate_stats(const srch_em_break_gate *g, srch_em_break_stats *st)
{
    *st = g->st;
}

void srch_em_scan_break_encode(srch_em_pfeat *f, const scan_ctx *s, int d, float *out)
{
    srch_em_scan_sync_feat(f, s, d);
    srch_em_place_ctx ctx;
    srch_em_scan_place_ctx(s, d, &ctx);
    srch_em_bfeat_encode(f, s->step[d].cell, &ctx, out);
}

/* The network's verdict on depth d (or the ablation's coin, a hash of the
 * context's key): 1 allow, 0 skip, -1 failure. */
static int verdict(scan_ctx *s, srch_em_break_gate *g, int d, uint64_t key)
{
    if (g->refuse >= 0)
        return (double)(scan_mix64(key ^ 0x9e3779b97f4a7c15ULL) >> 11) * 0x1p-53 >= g->refuse;
    double t0 = srch_em_cpu_seconds();
    srch_em_scan_break_encode(g->feat, s, d, g->x);
    int st = nn_infer_run(g->inf, g->x, 1, g->y);
    g->st.seconds += srch_em_cpu_seconds() - t0;
    g->st.calls++;
    if (st != HN_OK)
        return -1;
    return (double)g->y[0] > g->st.threshold;
}

int srch_em_scan_break_allow(scan_ctx *s, int d)
{
    srch_em_break_gate *g = s->gate;
    const scan_step *st = &s->step[d];
    uint64_t key = 0;
    if (d <= 0xffff && s->brk[d] <= 0xff)
        key = 1ULL << 63 | (uint64_t)s->brk[d] << 40 | (uint64_t)s->south[st->north] << 32 |
              (uint64_t)s->east[st->west] << 24 | (uint64_t)d << 1;
    uint64_t *e = &g->cache[scan_mix64(key) & g->cache_mask];
    int allow;
    if (key && (*e & ~1ULL) == key) {
        allow = (int)(*e & 1);
        g->st.hits++;
    } else {
        allow = verdict(s, g, d, key);
        if (allow < 0)
            return 1; /* the network failed: the ungated search */
        if (key)
            *e = key | (uint64_t)allow;
    }
    if (allow)
        g->st.allowed++;
    else
        g->st.denied++;
    return allow;
}
