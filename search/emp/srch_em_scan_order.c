/* The place scorer: a network trained on emp-place-v1 rows orders the
 * perfect-match candidates of a backtracker cell. The backtracker meets the
 * same local context (cell, the colours it must match, the breaks so far,
 * which of the cell's candidates are still free) again and again, so orders
 * are cached under that key and the network runs only on a miss: one
 * batched call for all the cell's candidates. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"
#include "search/emp/srch_em_scan_int.h"

/* One cached order in 16 bytes, so the table stays in the fast caches: the
 * key (bit 63 set when in use; depth, colours, breaks, free candidates) and
 * the candidates' bucket offsets best first, four bits each. */
typedef struct {
    uint64_t key, ord;
} order_entry;

struct srch_em_place_scorer {
    nn_model *model;
    nn_infer *inf;
    srch_em_pfeat *feat;
    float x[SCAN_ORD_MAX * SRCH_EM_PLACE_DIM], y[SCAN_ORD_MAX];
    double temp;
    order_entry *cache;
    uint64_t cache_mask;
    srch_em_place_stats st;
};

void srch_em_place_scorer_free(srch_em_place_scorer *s)
{
    if (!s)
        return;
    nn_infer_free(s->inf);
    nn_model_free(s->model);
    srch_em_pfeat_free(s->feat);
    free(s->cache);
    free(s);
}

/* The model must score placements: decision, encoder, width, one output. */
static int check_place_model(const nn_model *m, const char *path)
{
    const char *dec = nn_model_get_meta_str(m, "decision");
    if (!dec || strcmp(dec, SRCH_EM_DECISION_PLACE))
        return hn_fail(HN_ERR_FORMAT, "%s: model scores decision \"%s\", not \"%s\"", path,
                       dec ? dec : SRCH_EM_DECISION_MOVE, SRCH_EM_DECISION_PLACE);
    return srch_em_model_check(m, path, SRCH_EM_PLACE_ENCODER, SRCH_EM_PLACE_DIM, "place scorer");
}

srch_em_place_scorer *srch_em_place_scorer_new(const char *path, const srch_em_inst *inst,
                                               double temperature, int cache_bits, int *status)
{
    if (cache_bits < 4 || cache_bits > 28) {
        *status = hn_fail(HN_ERR_ARG, "place scorer: cache bits must be 4..28");
        return NULL;
    }
    srch_em_place_scorer *s = calloc(1, sizeof *s);
    if (!s) {
        *status = hn_fail(HN_ERR_NOMEM, "out of memory for the place scorer");
        return NULL;
    }
    s->model = nn_model_load(path, status);
    if (!s->model)
        goto fail;
    if ((*status = check_place_model(s->model, path)) != HN_OK)
        goto fail;
    s->temp = temperature;
    if (s->temp < 0 && nn_model_get_meta_double(s->model, "place_temperature", &s->temp) != HN_OK)
        s->temp = 1.0;
    s->inf = nn_infer_new(s->model, SCAN_ORD_MAX, status);
    s->feat = s->inf ? srch_em_pfeat_new(inst, status) : NULL;
    if (!s->feat)
        goto fail;
    s->cache_mask = ((uint64_t)1 << cache_bits) - 1;
    s->cache = calloc(s->cache_mask + 1, sizeof *s->cache);
    if (!s->cache) {
        *status = hn_fail(HN_ERR_NOMEM, "out of memory for the place scorer's cache");
        goto fail;
    }
    return s;
fail:
    srch_em_place_scorer_free(s);
    return NULL;
}

void srch_em_place_scorer_stats(const srch_em_place_scorer *s, srch_em_place_stats *st)
{
    *st = s->st;
}

void srch_em_scan_order_restart(srch_em_place_scorer *sc)
{
    memset(sc->cache, 0, sizeof *sc->cache * (sc->cache_mask + 1));
}

const char *srch_em_model_decision(const char *path, int *status)
{
    nn_model *m = nn_model_load(path, status);
    if (!m)
        return NULL;
    const char *dec = nn_model_get_meta_str(m, "decision");
    const char *out = SRCH_EM_DECISION_MOVE;
    if (dec && !strcmp(dec, SRCH_EM_DECISION_PLACE))
        out = SRCH_EM_DECISION_PLACE;
    else if (dec && !strcmp(dec, SRCH_EM_DECISION_BREAK))
        out = SRCH_EM_DECISION_BREAK;
    nn_model_free(m);
    return out;
}

void srch_em_scan_sync_feat(srch_em_pfeat *f, const scan_ctx *s, int d)
{
    int k = 0, top = srch_em_pfeat_depth(f);
    while (k < top && k < d) {
        int cell, p, r;
        srch_em_pfeat_at(f, k, &cell, &p, &r);
        if (cell != s->step[k].cell || p != s->chosen[k].piece || r != s->chosen[k].rot)
            break;
        k++;
    }
    for (; top > k; top--)
        srch_em_pfeat_pop(f);
    for (; k < d; k++)
        srch_em_pfeat_push(f, s->step[k].cell, s->chosen[k].piece, s->chosen[k].rot);
}

void srch_em_scan_place_ctx(const scan_ctx *s, int d, srch_em_place_ctx *c)
{
    *c = (srch_em_place_ctx){.depth = d,
                             .depths = s->m,
                             .breaks = s->brk[d],
                             .allowed = s->allowed[d],
                             .budget = s->allowed[s->m]};
}

/* Score the n candidates (bucket offsets in ord) in one network call, add
 * Gumbel noise at the scorer's temperature and sort ord best first. */
static int score_and_sort(scan_ctx *s, int d, const scan_item *list, int lo, uint8_t *ord, int n)
{
    srch_em_place_scorer *sc = s->order;
    srch_em_scan_sync_feat(sc->feat, s, d);
    srch_em_place_ctx ctx;
    srch_em_scan_place_ctx(s, d, &ctx);
    int cell = s->step[d].cell;
    for (int i = 0; i < n; i++) {
        const scan_item *it = &list[lo + ord[i]];
        srch_em_pfeat_encode(sc->feat, cell, it->piece, it->rot, &ctx,
                             sc->x + (size_t)i * SRCH_EM_PLACE_DIM);
    }
    if (nn_infer_run(sc->inf, sc->x, n, sc->y) != HN_OK)
        return -1;
    for (int i = 0; i < n && sc->temp > 0; i++) {
        double u = hn_rng_uniform(s->rng);
        sc->y[i] += (float)(-sc->temp * log(-log(u + 1e-300) + 1e-300));
    }
    for (int i = 1; i < n; i++) { /* insertion sort, descending, stable */
        float v = sc->y[i];
        uint8_t o = ord[i];
        int j = i - 1;
        for (; j >= 0 && sc->y[j] < v; j--)
            sc->y[j + 1] = sc->y[j], ord[j + 1] = ord[j];
        sc->y[j + 1] = v, ord[j + 1] = o;
    }
    sc->st.calls++;
    sc->st.scored += n;
    return n;
}

/* The cache key of depth d's context, or 0 when it does not fit one. */
static uint64_t order_key(const scan_ctx *s, int d, uint64_t mask, int n)
{
    const scan_step *st = &s->step[d];
    if (d > 0xffff || s->brk[d] > 0xff)
        return 0;
    return 1ULL << 63 | (uint64_t)n << 56 | (uint64_t)s->brk[d] << 48 |
           (uint64_t)s->south[st->north] << 40 | (uint64_t)s->east[st->west] << 32 |
           (uint64_t)d << 16 | mask;
}

/* The order of the n free candidates of depth d into ord (bucket offsets),
 * from the cache or the network; n, or -1 if the network failed. */
static int cached_order(scan_ctx *s, int d, const scan_item *list, int lo, uint8_t *ord, int n,
                        uint64_t mask)
{
    srch_em_place_scorer *sc = s->order;
    uint64_t key = order_key(s, d, mask, n);
    order_entry *e = &sc->cache[scan_mix64(key) & sc->cache_mask];
    if (key && e->key == key) {
        for (int i = 0; i < n; i++)
            ord[i] = (uint8_t)(e->ord >> 4 * i & 15);
        sc->st.hits++;
        return n;
    }
    double t0 = srch_em_cpu_seconds();
    int k = score_and_sort(s, d, list, lo, ord, n);
    sc->st.seconds += srch_em_cpu_seconds() - t0;
    if (k < 0 || !key)
        return k;
    e->key = key, e->ord = 0;
    for (int i = 0; i < n; i++)
        e->ord |= (uint64_t)ord[i] << 4 * i;
    return n;
}

int srch_em_scan_order(scan_ctx *s, int d)
{
    int lo, hi, n = 0;
    const scan_item *list = scan_perfect(s, d, &lo, &hi);
    if (hi - lo < 2 || hi - lo > SCAN_ORD_MAX)
        return -1;
    uint8_t *ord = s->ord + (size_t)d * SCAN_ORD_MAX;
    uint64_t mask = 0;
    for (int i = lo; i < hi; i++)
        if (!s->used[list[i].piece]) {
            ord[n++] = (uint8_t)(i - lo);
            mask |= (uint64_t)1 << (i - lo);
        }
    return n < 2 ? -1 : cached_order(s, d, list, lo, ord, n, mask);
}
