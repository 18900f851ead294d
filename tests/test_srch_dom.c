/* The generic search core (search/generic) on a domain defined here: the
 * pancake problem (flip the top k pancakes) with the gap heuristic, in
 * unit costs ("N") and in general costs ("Nc": flip k costs 1 + k % 3).
 * Searches are checked against breadth-first (Dijkstra) distances over all
 * N! stacks; the network heuristic against nn_infer on dense rows. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dom_test.h"
#include "nn/nn.h"
#include "search/generic/srch_dom.h"

/* ======================================================================
 * The pancake domain
 * ==================================================================== */

#define PMAX 12

typedef struct {
    int n, costly;
    char canonical[32], encoding[48];
    const char *names[PMAX];
    char name_buf[PMAX][4];
    int8_t inverse[PMAX];
    uint16_t cost[PMAX];
    uint8_t prune[(PMAX + 1) * PMAX];
    const dom_host *host;
} pancake;

static void *pk_create(const char *args, const dom_host *host, dom_facts *f)
{
    int n = atoi(args);
    if (n < 3 || n > PMAX)
        return host->fail(DOM_ERR_ARG, "pancake: N must be 3..12"), NULL;
    pancake *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->n = n;
    p->costly = strchr(args, 'c') != NULL;
    p->host = host;
    snprintf(p->canonical, sizeof p->canonical, "pancake:%d%s", n, p->costly ? "c" : "");
    snprintf(p->encoding, sizeof p->encoding, "pancake-onehot n=%d", n);
    int nm = n - 1;
    for (int m = 0; m < nm; m++) { /* move m flips the top m + 2 */
        snprintf(p->name_buf[m], sizeof p->name_buf[m], "%c", 'a' + m);
        p->names[m] = p->name_buf[m];
        p->inverse[m] = (int8_t)m;
        p->cost[m] = (uint16_t)(1 + (m + 2) % 3);
        for (int q = 0; q <= nm; q++) /* automaton state 1 + m: m was the last move */
            p->prune[q * nm + m] = q == 1 + m ? DOM_PRUNED : (uint8_t)(1 + m);
    }
    *f = (dom_facts){.struct_size = f->struct_size,
                     .canonical = p->canonical,
                     .encoding = p->encoding,
                     .state_bytes = (uint32_t)n,
                     .nmoves = (uint32_t)nm,
                     .move_name = p->names,
                     .move_sep = "",
                     .inverse = p->inverse,
                     .cost = p->costly ? p->cost : NULL,
                     .prune_states = (uint32_t)nm + 1,
                     .prune_next = p->prune,
                     .inputs = (uint32_t)(n * n),
                     .max_active = (uint32_t)n,
                     .max_delta = (uint32_t)n,
                     .heuristics = "gap",
                     .patterns = ""};
    return p;
}

static void pk_destroy(void *inst)
{
    free(inst);
}

static void flip(uint8_t *s, int k)
{
    for (int i = 0, j = k - 1; i < j; i++, j--) {
        uint8_t t = s[i];
        s[i] = s[j];
        s[j] = t;
    }
}

static int pk_apply(const void *inst, void *state, int m)
{
    const pancake *p = inst;
    if (m < 0 || m >= p->n - 1)
        return 0;
    flip(state, m + 2);
    return 1;
}

static int pk_expand(const void *inst, const void *state, uint64_t allowed, void *children,
                     uint8_t *moves)
{
    const pancake *p = inst;
    int k = 0;
    for (int m = 0; m < p->n - 1; m++) {
        if (!(allowed >> m & 1))
            continue;
        uint8_t *c = (uint8_t *)children + (size_t)k * (size_t)p->n;
        memcpy(c, state, (size_t)p->n);
        flip(c, m + 2);
        moves[k++] = (uint8_t)m;
    }
    return k;
}

static void pk_goal(const void *inst, void *state)
{
    const pancake *p = inst;
    for (int i = 0; i < p->n; i++)
        ((uint8_t *)state)[i] = (uint8_t)i;
}

static int pk_encode(const void *inst, const void *state, int32_t *active)
{
    const pancake *p = inst;
    const uint8_t *s = state;
    for (int i = 0; i < p->n; i++)
        active[i] = i * p->n + s[i];
    return p->n;
}

static int pk_encode_delta(const void *inst, const void *state, int move, int32_t *off, int *noff,
                           int32_t *on, int *non)
{
    const pancake *p = inst;
    const uint8_t *s = state;
    int k = move + 2;
    if (move < 0 || k > p->n)
        return -1;
    *noff = *non = 0;
    for (int i = 0; i < k; i++) {
        if (s[i] == s[k - 1 - i])
            continue; /* the middle pancake of an odd flip stays */
        off[(*noff)++] = i * p->n + s[i];
        on[(*non)++] = i * p->n + s[k - 1 - i];
    }
    return 0;
}

static int pk_parse(const void *inst, const char *text, void *state)
{
    const pancake *p = inst;
    uint8_t *s = state;
    unsigned seen = 0;
    for (int i = 0; i < p->n; i++) {
        char *end;
        long v = strtol(text, &end, 10);
        if (end == text || v < 0 || v >= p->n || (seen >> v & 1))
            return p->host->fail(DOM_ERR_FORMAT, "pancake: expected a permutation of 0..N-1");
        seen |= 1u << v;
        s[i] = (uint8_t)v;
        text = end;
    }
    return 0;
}

static int pk_format(const void *inst, const void *state, char *buf, size_t cap)
{
    const pancake *p = inst;
    int len = 0;
    for (int i = 0; i < p->n; i++) {
        int w = snprintf(buf + (len < (int)cap ? len : (int)cap),
                         (size_t)len < cap ? cap - (size_t)len : 0, "%s%d", i ? " " : "",
                         ((const uint8_t *)state)[i]);
        len += w;
    }
    return len;
}

static void *pk_heur_open(const void *inst, const char *name)
{
    (void)name;
    return (void *)inst;
}

/* The gap heuristic: adjacent pancakes (and the plate under the largest)
 * whose sizes differ by more than one need a flip each between them. */
static int pk_gap(const void *heur, const void *state)
{
    const pancake *p = heur;
    const uint8_t *s = state;
    int gaps = 0;
    for (int i = 0; i < p->n; i++) {
        int below = i + 1 < p->n ? s[i + 1] : p->n;
        gaps += abs((int)s[i] - below) != 1;
    }
    return gaps;
}

static void pk_heur_free(void *heur)
{
    (void)heur;
}

static const dom_def PANCAKE = {.abi_version = DOM_ABI_VERSION,
                                .struct_size = sizeof(dom_def),
                                .name = "pancake",
                                .summary = "the pancake problem (tests)",
                                .args_help = "N[c] (3..12 pancakes; c: flips cost 1..3)",
                                .create = pk_create,
                                .destroy = pk_destroy,
                                .expand = pk_expand,
                                .apply = pk_apply,
                                .goal = pk_goal,
                                .encode = pk_encode,
                                .encode_delta = pk_encode_delta,
                                .parse_state = pk_parse,
                                .format_state = pk_format,
                                .heur_open = pk_heur_open,
                                .heur_eval = pk_gap,
                                .heur_free = pk_heur_free};

/* ======================================================================
 * Optimal costs of every stack by Dijkstra from the goal (moves are their
 * own inverses, so distances to and from the goal agree)
 * ==================================================================== */

static int fact(int n)
{
    return n <= 1 ? 1 : n * fact(n - 1);
}

static int rank_of(const uint8_t *s, int n)
{
    int r = 0;
    for (int i = 0; i < n; i++) {
        int less = 0;
        for (int j = i + 1; j < n; j++)
            less += s[j] < s[i];
        r = r * (n - i) + less;
    }
    return r;
}

static void unrank(int r, int n, uint8_t *s)
{
    int digit[PMAX], used[PMAX] = {0};
    for (int i = n - 1; i >= 0; i--) {
        digit[i] = r % (n - i);
        r /= n - i;
    }
    for (int i = 0; i < n; i++) {
        int k = digit[i], v = 0;
        for (;; v++)
            if (!used[v] && k-- == 0)
                break;
        used[v] = 1;
        s[i] = (uint8_t)v;
    }
}

/* dist[rank]: the optimal cost; a plain O(V^2)-free bucket Dijkstra. */
static int *optimal_costs(const dom *d)
{
    int n = (int)dom_state_bytes(d), total = fact(n), maxc = 3 * 4 * n + 4;
    int *dist = malloc((size_t)total * sizeof *dist);
    int *bucket = malloc((size_t)total * (size_t)(maxc + 1) * sizeof *bucket);
    int *nb = calloc((size_t)maxc + 1, sizeof *nb);
    for (int i = 0; i < total; i++)
        dist[i] = -1;
    uint8_t g[PMAX], s[PMAX];
    dom_goal(d, g);
    bucket[0] = rank_of(g, n);
    nb[0] = 1;
    int *best = malloc((size_t)total * sizeof *best);
    for (int i = 0; i < total; i++)
        best[i] = 1 << 30;
    best[bucket[0]] = 0;
    for (int c = 0; c <= maxc; c++)
        for (int k = 0; k < nb[c]; k++) {
            int r = bucket[(size_t)c * (size_t)total + (size_t)k];
            if (dist[r] >= 0)
                continue;
            dist[r] = c;
            unrank(r, n, s);
            for (int m = 0; m < dom_nmoves(d); m++) {
                uint8_t t[PMAX];
                memcpy(t, s, (size_t)n);
                dom_apply(d, t, m);
                int rt = rank_of(t, n), ct = c + dom_move_cost(d, m);
                if (dist[rt] < 0 && ct < best[rt] && ct <= maxc) {
                    best[rt] = ct;
                    bucket[(size_t)ct * (size_t)total + (size_t)nb[ct]++] = rt;
                }
            }
        }
    free(best);
    free(bucket);
    free(nb);
    return dist;
}

/* ======================================================================
 * Helpers
 * ==================================================================== */

static void random_stack(const dom *d, hn_rng *r, uint8_t *s)
{
    int n = (int)dom_state_bytes(d);
    dom_goal(d, s);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)hn_rng_below(r, (uint32_t)i + 1);
        uint8_t t = s[i];
        s[i] = s[j];
        s[j] = t;
    }
}

static int64_t cost_of(const dom *d, const srch_dom_result *res)
{
    int64_t c = 0;
    for (int i = 0; i < res->length; i++)
        c += dom_move_cost(d, res->moves[i]);
    return c;
}

/* A solved result that replays to the goal at the cost it reports. */
static int valid(const dom *d, const uint8_t *start, const srch_dom_result *res)
{
    return res->status == 0 && dom_replay(d, start, res->moves, res->length) == 1 &&
           cost_of(d, res) == res->cost;
}

/* ======================================================================
 * Tests
 * ==================================================================== */

/* A* and IDA* with the admissible gap (and A* with zero) find the optimal
 * cost of every instance; the weighted, batch and beam searches find
 * valid solutions no cheaper than it. */
static void test_optimal(const char *args, int count)
{
    int st;
    dom *d = dom_open_def(&PANCAKE, args, &st);
    CHECK(d != NULL);
    if (!d)
        return;
    int n = (int)dom_state_bytes(d);
    int *dist = optimal_costs(d);
    srch_dom_heur *gap = srch_dom_heur_adm(d, "gap", &st),
                  *zero = srch_dom_heur_adm(d, "zero", &st);
    CHECK(gap && zero);
    hn_rng *r = hn_rng_new(7);
    srch_dom_result *res = malloc(sizeof *res);
    srch_dom_opts wa = SRCH_DOM_DEFAULTS, bw = SRCH_DOM_DEFAULTS, bw1 = SRCH_DOM_DEFAULTS;
    wa.weight = 2.5;
    bw.batch = 8;
    bw.weight = 3.0;
    bw1.batch = 16;
    srch_dom_opts bm = SRCH_DOM_DEFAULTS;
    bm.width = 8;
    for (int i = 0; i < count; i++) {
        uint8_t s[PMAX];
        random_stack(d, r, s);
        int opt = dist[rank_of(s, n)];
        CHECK(srch_dom_astar(d, s, gap, NULL, NULL, res) == 0 && valid(d, s, res));
        CHECK_MSG(res->cost == opt && res->proven, "A* %s: %lld vs %d", args, (long long)res->cost,
                  opt);
        CHECK(srch_dom_idastar(d, s, gap, NULL, res) == 0 && valid(d, s, res));
        CHECK_MSG(res->cost == opt && res->proven, "IDA* %s: %lld vs %d", args,
                  (long long)res->cost, opt);
        if (i % 4 == 0) {
            CHECK(srch_dom_astar(d, s, zero, NULL, NULL, res) == 0 && res->cost == opt);
            CHECK(srch_dom_idastar(d, s, zero, NULL, res) == 0 && res->cost == opt);
        }
        CHECK(srch_dom_bwas(d, s, gap, &bw1, NULL, res) == 0 && valid(d, s, res));
        CHECK_MSG(res->cost == opt, "BWAS w=1 %s: %lld vs %d", args, (long long)res->cost, opt);
        CHECK(srch_dom_astar(d, s, gap, &wa, NULL, res) == 0 && valid(d, s, res) &&
              res->cost >= opt && !res->proven);
        CHECK(srch_dom_bwas(d, s, gap, &bw, NULL, res) == 0 && valid(d, s, res) &&
              res->cost >= opt);
        CHECK(srch_dom_beam(d, s, gap, &bm, NULL, res) == 0 && valid(d, s, res) &&
              res->cost >= opt);
        CHECK(srch_dom_anytime(d, s, gap, NULL, NULL, res) == 0 && valid(d, s, res));
        CHECK_MSG(res->cost == opt && res->proven && res->improvements >= 1,
                  "anytime %s: %lld vs %d", args, (long long)res->cost, opt);
    }
    free(res);
    hn_rng_free(r);
    srch_dom_heur_free(gap);
    srch_dom_heur_free(zero);
    free(dist);
    dom_free(d);
}

/* Node, memory and time limits and a stop request give their status. */
static void test_limits(void)
{
    int st;
    dom *d = dom_open_def(&PANCAKE, "10", &st);
    srch_dom_heur *zero = srch_dom_heur_adm(d, "zero", &st);
    uint8_t s[PMAX] = {9, 3, 7, 1, 5, 0, 8, 2, 6, 4};
    srch_dom_result *res = malloc(sizeof *res);
    srch_limits few = {.max_expanded = 50}, mem = {.max_nodes = 100}, tm = {.time_limit = 1e-9};
    srch_dom_opts bw = SRCH_DOM_DEFAULTS, bm = SRCH_DOM_DEFAULTS;
    bw.batch = 4;
    bm.width = 2;
    CHECK(srch_dom_astar(d, s, zero, NULL, &few, res) == HN_ERR_LIMIT && res->length == -1);
    CHECK(res->expanded == 50 && res->status == HN_ERR_LIMIT);
    CHECK(srch_dom_astar(d, s, zero, NULL, &mem, res) == HN_ERR_LIMIT);
    CHECK(srch_dom_astar(d, s, zero, NULL, &tm, res) == HN_ERR_LIMIT);
    CHECK(srch_dom_bwas(d, s, zero, &bw, &few, res) == HN_ERR_LIMIT);
    CHECK(srch_dom_idastar(d, s, zero, &few, res) == HN_ERR_LIMIT);
    CHECK(srch_dom_beam(d, s, zero, &bm, &few, res) == HN_ERR_LIMIT);
    CHECK(srch_dom_anytime(d, s, zero, NULL, &few, res) == HN_ERR_LIMIT);
    hn_stop_set(1);
    CHECK(srch_dom_astar(d, s, zero, NULL, NULL, res) == HN_ERR_INTERRUPTED);
    CHECK(srch_dom_bwas(d, s, zero, &bw, NULL, res) == HN_ERR_INTERRUPTED);
    CHECK(srch_dom_beam(d, s, zero, &bm, NULL, res) == HN_ERR_INTERRUPTED);
    CHECK(srch_dom_idastar(d, s, zero, NULL, res) == HN_ERR_INTERRUPTED);
    hn_stop_set(0);
    /* the anytime search answers with its incumbent when a limit ends it */
    srch_dom_heur *gap = srch_dom_heur_adm(d, "gap", &st);
    srch_limits some = {.max_expanded = 30};
    srch_dom_opts at = SRCH_DOM_DEFAULTS;
    at.nweights = 2;
    at.weights[0] = 50;
    at.weights[1] = 1;
    CHECK(srch_dom_anytime(d, s, gap, &at, &some, res) == 0 && valid(d, s, res) && !res->proven);
    /* the goal itself: length 0 */
    uint8_t g[PMAX];
    dom_goal(d, g);
    CHECK(srch_dom_astar(d, g, gap, NULL, NULL, res) == 0 && res->length == 0);
    CHECK(srch_dom_idastar(d, g, gap, NULL, res) == 0 && res->length == 0);
    CHECK(srch_dom_beam(d, g, gap, &bm, NULL, res) == 0 && res->length == 0);
    srch_dom_heur_free(gap);
    free(res);
    srch_dom_heur_free(zero);
    dom_free(d);
}

static srch_dom_heur *net_heur(const dom *d, const nn_model *m, int engine, int max_batch)
{
    srch_dom_net_opts o = SRCH_DOM_NET_DEFAULTS;
    o.engine = engine;
    o.max_batch = max_batch;
    int st;
    srch_dom_heur *h = srch_dom_heur_net(d, m, "test model", &o, &st);
    CHECK_MSG(h != NULL, "%s", hn_errmsg());
    return h;
}

/* The generic network path gives nn_infer's values on dense rows: float
 * to rounding, q8 within a tolerance; residual and max combine them. */
static void test_net_values(void)
{
    int st;
    dom *d = dom_open_def(&PANCAKE, "8", &st);
    nn_model *m = tdom_random_model("64-32-16-1", 11, 6.0, 2.0, NULL);
    nn_model_set_encoder(m, dom_facts_of(d)->encoding); /* a model reads its domain's encoding */
    nn_model_set_meta_str(m, "domain", dom_spec(d));
    enum { N = 300 };
    uint8_t *states = malloc((size_t)N * 8);
    hn_rng *r = hn_rng_new(3);
    for (int i = 0; i < N; i++)
        random_stack(d, r, states + (size_t)i * 8);
    float y[N];
    double est[N];
    CHECK(tdom_dense_outputs(d, m, states, N, y) == 0);
    srch_dom_heur *hf = net_heur(d, m, SRCH_DOM_ENGINE_FLOAT, 64);
    srch_dom_heur *hq = net_heur(d, m, SRCH_DOM_ENGINE_Q8, 1024);
    CHECK(srch_dom_heur_estimate(hf, states, N, NULL, NULL, NULL, est) == 0);
    double qerr = 0;
    for (int i = 0; i < N; i++)
        CHECK_CLOSE(est[i], y[i], 1e-5);
    CHECK(srch_dom_heur_estimate(hq, states, N, NULL, NULL, NULL, est) == 0);
    for (int i = 0; i < N; i++)
        qerr = fmax(qerr, fabs(est[i] - y[i]));
    CHECK_MSG(qerr < 0.1, "q8 differs from float by %g", qerr);
    CHECK(srch_dom_heur_rows(hf) == N && srch_dom_heur_rows(hq) == N);
    CHECK(!srch_dom_heur_admissible(hf));
    /* values: rounded, the goal 0, scale / offset / floor */
    int v[N], g[N];
    srch_dom_heur *gap = srch_dom_heur_adm(d, "gap", &st);
    CHECK(srch_dom_heur_eval(gap, states, N, NULL, NULL, NULL, g) == 0);
    CHECK(srch_dom_heur_set_value(hf, 10, 0.5, srch_dom_heur_adm(d, "gap", &st)) == 0);
    CHECK(srch_dom_heur_eval(hf, states, N, NULL, NULL, NULL, v) == 0);
    for (int i = 0; i < N; i++) {
        long want = lround((y[i] - 0.5) * 10);
        want = want < g[i] * 10 ? g[i] * 10 : want;
        CHECK_MSG(labs(v[i] - want) <= 1, "%d vs %ld", v[i], want);
    }
    CHECK(srch_dom_heur_set_value(hf, 0, 0, NULL) == HN_ERR_ARG);
    /* a blend adds W x gap before scaling (the floor still below); a clone keeps it */
    CHECK(srch_dom_heur_set_value(hf, 10, 0.5, NULL) == 0);
    CHECK(srch_dom_heur_set_blend(hf, 0.75, srch_dom_heur_adm(d, "gap", &st)) == 0);
    srch_dom_heur *hc = srch_dom_heur_clone(hf, &st);
    int vc[N];
    CHECK(hc && srch_dom_heur_eval(hf, states, N, NULL, NULL, NULL, v) == 0 &&
          srch_dom_heur_eval(hc, states, N, NULL, NULL, NULL, vc) == 0);
    for (int i = 0; i < N; i++) {
        long want = lround((y[i] + 0.75 * g[i] - 0.5) * 10);
        want = want < 0 ? 0 : want;
        CHECK_MSG(labs(v[i] - want) <= 1 && vc[i] == v[i], "blend: %d vs %ld", v[i], want);
    }
    srch_dom_heur_free(hc);
    /* blends add up: a second 0.25 x gap on a clone makes 1.0 x gap; a fifth
     * blend is refused */
    hc = srch_dom_heur_clone(hf, &st);
    CHECK(hc && srch_dom_heur_set_blend(hc, 0.25, srch_dom_heur_adm(d, "gap", &st)) == 0 &&
          srch_dom_heur_eval(hc, states, N, NULL, NULL, NULL, vc) == 0);
    for (int i = 0; hc && i < N; i++) {
        long want = lround((y[i] + 1.0 * g[i] - 0.5) * 10);
        want = want < 0 ? 0 : want;
        CHECK_MSG(labs(vc[i] - want) <= 1, "two blends: %d vs %ld", vc[i], want);
    }
    CHECK(srch_dom_heur_set_blend(hc, 1, srch_dom_heur_adm(d, "gap", &st)) == 0);
    CHECK(srch_dom_heur_set_blend(hc, 1, srch_dom_heur_adm(d, "gap", &st)) == 0);
    CHECK(srch_dom_heur_set_blend(hc, 1, srch_dom_heur_adm(d, "gap", &st)) == HN_ERR_ARG);
    srch_dom_heur_free(hc);
    CHECK(srch_dom_heur_set_blend(hf, 0, srch_dom_heur_adm(d, "gap", &st)) == HN_ERR_ARG);
    CHECK(srch_dom_heur_set_blend(hf, 101, srch_dom_heur_adm(d, "gap", &st)) == HN_ERR_ARG);
    CHECK(srch_dom_heur_set_blend(gap, 1, srch_dom_heur_adm(d, "gap", &st)) == HN_ERR_ARG);
    CHECK(srch_dom_heur_set_blend(hf, 1, net_heur(d, m, SRCH_DOM_ENGINE_FLOAT, 16)) == HN_ERR_ARG);
    uint8_t goal[8];
    dom_goal(d, goal);
    CHECK(srch_dom_heur_eval(hq, goal, 1, NULL, NULL, NULL, v) == 0 && v[0] == 0);
    /* residual: the model records its base; max of two */
    nn_model_set_meta_str(m, "residual", "gap");
    srch_dom_heur *hr = net_heur(d, m, SRCH_DOM_ENGINE_FLOAT, 1024);
    CHECK(srch_dom_heur_estimate(hr, states, N, NULL, NULL, NULL, est) == 0);
    for (int i = 0; i < N; i++)
        CHECK_CLOSE(est[i], y[i] + g[i], 1e-5);
    srch_dom_heur *hm = srch_dom_heur_max_new(srch_dom_heur_adm(d, "gap", &st),
                                              net_heur(d, m, SRCH_DOM_ENGINE_FLOAT, 8), &st);
    CHECK(hm && srch_dom_heur_estimate(hm, states, N, NULL, NULL, NULL, est) == 0);
    for (int i = 0; hm && i < N; i++)
        CHECK_CLOSE(est[i], fmax(y[i] + g[i], g[i]), 1e-5);
    srch_dom_heur_free(hm);
    srch_dom_heur_free(hr);
    srch_dom_heur_free(gap);
    srch_dom_heur_free(hf);
    srch_dom_heur_free(hq);
    hn_rng_free(r);
    free(states);
    nn_model_free(m);
    dom_free(d);
}

/* Models of another domain, width or encoder are refused. */
static void test_net_refused(void)
{
    int st;
    dom *d = dom_open_def(&PANCAKE, "8", &st);
    nn_model *m = tdom_random_model("64-8-1", 2, 6.0, 2.0, NULL),
             *w = tdom_random_model("49-8-1", 2, 6.0, 2.0, NULL);
    nn_model_set_encoder(m, dom_facts_of(d)->encoding); /* a model reads its domain's encoding */
    srch_dom_net_opts o = SRCH_DOM_NET_DEFAULTS;
    nn_model_set_meta_str(m, "domain", "pancake:9");
    CHECK(srch_dom_heur_net(d, m, "m", &o, &st) == NULL && st == HN_ERR_ARG);
    CHECK(strstr(hn_errmsg(), "pancake:9") != NULL);
    nn_model_set_meta_str(m, "domain", "pancake:8");
    srch_dom_heur *h = srch_dom_heur_net(d, m, "m", &o, &st);
    CHECK(h != NULL);
    srch_dom_heur_free(h);
    /* no recorded domain: the width and the encoder decide */
    CHECK(srch_dom_heur_net(d, w, "w", &o, &st) == NULL && st == HN_ERR_SHAPE);
    nn_model *old = tdom_random_model("64-8-1", 3, 6.0, 2.0, NULL);
    nn_model_set_encoder(old, "npuzzle-onehot n=8 goal=blank-first");
    CHECK(srch_dom_heur_net(d, old, "old", &o, &st) == NULL && st == HN_ERR_ARG);
    nn_model_set_encoder(old, "pancake-onehot n=8");
    h = srch_dom_heur_net(d, old, "old", &o, &st);
    CHECK(h != NULL);
    srch_dom_heur_free(h);
    nn_model_set_meta_str(old, "residual", "nonesuch");
    CHECK(srch_dom_heur_net(d, old, "old", &o, &st) == NULL && st == HN_ERR_ARG);
    CHECK(srch_dom_heur_open(d, "ann:/nonexistent/model.h5", NULL, &st) == NULL && st != 0);
    nn_model_free(m);
    nn_model_free(w);
    nn_model_free(old);
    dom_free(d);
}

/* Along a random walk, each step's children evaluated from their parent
 * (the parent's first layer carried over from the previous call, the
 * children's by the move's delta) give exactly the values of fresh rows. */
static void test_incremental(int engine)
{
    int st;
    dom *d = dom_open_def(&PANCAKE, "9", &st);
    nn_model *m = tdom_random_model("81-24-8-1", 5, 6.0, 2.0, NULL);
    nn_model_set_encoder(m, dom_facts_of(d)->encoding); /* a model reads its domain's encoding */
    srch_dom_heur *inc = net_heur(d, m, engine, 1024), *fresh = net_heur(d, m, engine, 1024);
    hn_rng *r = hn_rng_new(9);
    uint8_t s[PMAX], kids[PMAX * PMAX], moves[PMAX];
    int parent_of[PMAX] = {0}, bad = 0;
    double a[PMAX], b[PMAX];
    random_stack(d, r, s);
    for (int step = 0; step < 300; step++) {
        int n = dom_expand(d, s, DOM_PRUNE_ROOT, kids, moves, NULL);
        CHECK(srch_dom_heur_estimate(inc, kids, (size_t)n, s, parent_of, moves, a) == 0);
        CHECK(srch_dom_heur_estimate(fresh, kids, (size_t)n, NULL, NULL, NULL, b) == 0);
        for (int i = 0; i < n; i++)
            bad += a[i] != b[i];
        memcpy(s, kids + hn_rng_below(r, (uint32_t)n) * 9, 9);
    }
    CHECK_MSG(bad == 0, "%d values differ", bad);
    /* every row of the walk came from a parent's accumulator */
    CHECK(srch_dom_heur_acc_updates(inc) == srch_dom_heur_rows(inc));
    hn_rng_free(r);
    srch_dom_heur_free(inc);
    srch_dom_heur_free(fresh);
    nn_model_free(m);
    dom_free(d);
}

/* The searches run with a network (inadmissible): valid solutions, rows
 * counted. */
static void test_net_search(void)
{
    int st;
    dom *d = dom_open_def(&PANCAKE, "7", &st);
    int *dist = optimal_costs(d);
    nn_model *m = tdom_random_model("49-16-1", 21, 6.0, 2.0, NULL);
    nn_model_set_encoder(m, dom_facts_of(d)->encoding); /* a model reads its domain's encoding */
    nn_model_set_meta_str(m, "residual", "gap");
    srch_dom_heur *h = net_heur(d, m, SRCH_DOM_ENGINE_AUTO, 256);
    srch_dom_result *res = malloc(sizeof *res);
    srch_dom_opts bw = SRCH_DOM_DEFAULTS, bm = SRCH_DOM_DEFAULTS;
    bw.batch = 8;
    bm.width = 4;
    srch_dom_opts wide = bm;
    wide.widen = 2;
    int calls = 0;
    hn_rng *r = hn_rng_new(5);
    for (int i = 0; i < 20; i++) {
        uint8_t s[PMAX];
        random_stack(d, r, s);
        int opt = dist[rank_of(s, 7)];
        CHECK(srch_dom_astar(d, s, h, NULL, NULL, res) == 0 && valid(d, s, res) &&
              res->cost >= opt && res->rows > 0 && !res->proven);
        CHECK(srch_dom_bwas(d, s, h, &bw, NULL, res) == 0 && valid(d, s, res) && res->cost >= opt);
        CHECK(srch_dom_beam(d, s, h, &bm, NULL, res) == 0 && valid(d, s, res) && res->cost >= opt);
        /* widening: never longer than the first run, optimal once the beam
         * holds every stack (7! = 5040 < 4 * 2^11) */
        int narrow = res->length;
        CHECK(srch_dom_beam(d, s, h, &wide, NULL, res) == 0 && valid(d, s, res) &&
              res->length <= narrow);
        CHECK_MSG(res->cost == opt, "widened beam: %lld, the optimum %d", (long long)res->cost,
                  opt);
        if (i < 5) /* IDA* with a network: children of a state in one call */
            CHECK(srch_dom_idastar(d, s, h, NULL, res) == 0 && valid(d, s, res) &&
                  res->cost >= opt && !res->proven && res->rows >= res->generated);
        CHECK(srch_dom_anytime(d, s, h, NULL, NULL, res) == 0 && valid(d, s, res) &&
              res->cost >= opt);
        CHECK(res->rows <= res->stored); /* one evaluation per state over all passes */
        calls += res->improvements;
    }
    CHECK(calls >= 20);
    hn_rng_free(r);
    free(res);
    srch_dom_heur_free(h);
    nn_model_free(m);
    free(dist);
    dom_free(d);
}

/* Focal search: with the admissible gap bounding it and a network (or gap
 * itself) guiding it, costs within bound times the optimum (IDA*'s and
 * Dijkstra's), the optimum itself with bound 1; bad arguments refused. */
static void test_focal(const char *args, int count)
{
    int st;
    dom *d = dom_open_def(&PANCAKE, args, &st);
    int n = (int)dom_state_bytes(d);
    int *dist = optimal_costs(d);
    char arch[32];
    snprintf(arch, sizeof arch, "%d-16-1", n * n);
    nn_model *m = tdom_random_model(arch, 41, 6.0, 2.0, NULL);
    nn_model_set_encoder(m, dom_facts_of(d)->encoding); /* a model reads its domain's encoding */
    nn_model_set_meta_str(m, "residual", "gap");
    srch_dom_heur *net = net_heur(d, m, SRCH_DOM_ENGINE_AUTO, 256),
                  *gap = srch_dom_heur_adm(d, "gap", &st);
    CHECK(net && gap);
    srch_dom_result *res = malloc(sizeof *res);
    srch_dom_opts bt = SRCH_DOM_DEFAULTS;
    bt.batch = 4;
    static const double bounds[] = {1.0, 1.2, 1.5, 3.0};
    hn_rng *r = hn_rng_new(17);
    for (int i = 0; i < count; i++) {
        uint8_t s[PMAX];
        random_stack(d, r, s);
        int opt = dist[rank_of(s, n)];
        CHECK(srch_dom_idastar(d, s, gap, NULL, res) == 0 && res->cost == opt);
        for (int k = 0; k < 4; k++) {
            double b = bounds[k];
            CHECK(srch_dom_focal(d, s, net, gap, b, NULL, NULL, res) == 0 && valid(d, s, res));
            CHECK_MSG(res->cost <= b * opt + 1e-9 && res->cost >= opt && res->rows > 0,
                      "focal %s bound %g: %lld vs %d", args, b, (long long)res->cost, opt);
            CHECK(res->proven == (b == 1.0) && (b > 1.0 || res->cost == opt));
            int bst = srch_dom_focal(d, s, net, gap, b, &bt, NULL, res);
            CHECK_MSG(bst == 0 && valid(d, s, res) && res->cost <= b * opt + 1e-9,
                      "focal %s batch 4 bound %g: status %d cost %lld vs %d (%s)", args, b, bst,
                      (long long)res->cost, opt, hn_errmsg());
            CHECK(srch_dom_focal(d, s, gap, gap, b, NULL, NULL, res) == 0 &&
                  res->cost <= b * opt + 1e-9 && res->rows == 0);
        }
    }
    uint8_t g[PMAX];
    dom_goal(d, g);
    CHECK(srch_dom_focal(d, g, net, gap, 1.5, NULL, NULL, res) == 0 && res->length == 0);
    /* limits, and a bound or a bounding heuristic that cannot prove anything */
    srch_limits few = {.max_expanded = 2};
    uint8_t s[PMAX];
    random_stack(d, r, s);
    CHECK(srch_dom_focal(d, s, net, gap, 1.0, NULL, &few, res) == HN_ERR_LIMIT);
    CHECK(srch_dom_focal(d, s, net, net, 1.5, NULL, NULL, res) == HN_ERR_ARG);
    CHECK(srch_dom_focal(d, s, net, NULL, 1.5, NULL, NULL, res) == HN_ERR_ARG);
    CHECK(srch_dom_focal(d, s, net, gap, 0.5, NULL, NULL, res) == HN_ERR_ARG);
    hn_stop_set(1);
    CHECK(srch_dom_focal(d, s, net, gap, 1.5, NULL, NULL, res) == HN_ERR_INTERRUPTED);
    hn_stop_set(0);
    hn_rng_free(r);
    free(res);
    srch_dom_heur_free(net);
    srch_dom_heur_free(gap);
    nn_model_free(m);
    free(dist);
    dom_free(d);
}

static void count_solution(const srch_dom_result *res, void *user)
{
    int *k = user;
    (*k)++;
    CHECK(res->length >= 0);
}

/* The anytime search reports each improvement, costs falling. */
static void test_anytime_reports(void)
{
    int st, k = 0;
    dom *d = dom_open_def(&PANCAKE, "9c", &st);
    srch_dom_heur *gap = srch_dom_heur_adm(d, "gap", &st);
    srch_dom_opts o = SRCH_DOM_DEFAULTS;
    o.on_solution = count_solution;
    o.user = &k;
    uint8_t s[PMAX] = {8, 2, 6, 0, 4, 7, 1, 5, 3};
    srch_dom_result *res = malloc(sizeof *res);
    CHECK(srch_dom_anytime(d, s, gap, &o, NULL, res) == 0 && valid(d, s, res) && res->proven);
    CHECK(k == res->improvements && k >= 1);
    free(res);
    srch_dom_heur_free(gap);
    dom_free(d);
}

/* Anytime phases on max(h - delta, H) after a weight: a last delta of inf
 * proves the optimal cost, with H the network's residual base or given;
 * the IDA* stage proves it too; deltas without any H are refused. */
static void test_anytime_deltas(void)
{
    int st;
    dom *d = dom_open_def(&PANCAKE, "8", &st);
    int *dist = optimal_costs(d);
    nn_model *m = tdom_random_model("64-16-1", 41, 6.0, 2.0, NULL);
    nn_model_set_encoder(m, dom_facts_of(d)->encoding); /* a model reads its domain's encoding */
    srch_dom_heur *plain = net_heur(d, m, SRCH_DOM_ENGINE_FLOAT, 256);
    nn_model_set_meta_str(m, "residual", "gap");
    srch_dom_heur *res_h = net_heur(d, m, SRCH_DOM_ENGINE_FLOAT, 256);
    srch_dom_heur *gap = srch_dom_heur_adm(d, "gap", &st);
    srch_dom_result *res = malloc(sizeof *res);
    srch_dom_opts o = SRCH_DOM_DEFAULTS, ida = SRCH_DOM_DEFAULTS, given = SRCH_DOM_DEFAULTS;
    o.nweights = 1;
    o.weights[0] = 3;
    o.ndeltas = 3;
    o.deltas[0] = 0;
    o.deltas[1] = 1;
    o.deltas[2] = SRCH_DOM_DELTA_INF;
    given = o;
    given.admissible = gap;
    ida.nweights = 1;
    ida.weights[0] = 4;
    ida.ida = 1;
    ida.ida_at = 0.5;
    hn_rng *r = hn_rng_new(9);
    for (int i = 0; i < 12; i++) {
        uint8_t s[PMAX];
        random_stack(d, r, s);
        int opt = dist[rank_of(s, 8)];
        CHECK(srch_dom_anytime(d, s, res_h, &o, NULL, res) == 0 && valid(d, s, res));
        CHECK_MSG(res->cost == opt && res->proven && res->phases >= 1, "deltas: %lld vs %d",
                  (long long)res->cost, opt);
        CHECK(srch_dom_anytime(d, s, plain, &given, NULL, res) == 0 && valid(d, s, res));
        CHECK_MSG(res->cost == opt && res->proven, "deltas, H given: %lld vs %d",
                  (long long)res->cost, opt);
        CHECK(srch_dom_anytime(d, s, res_h, &ida, NULL, res) == 0 && valid(d, s, res));
        CHECK_MSG(res->cost == opt && res->proven && res->phases == 2, "IDA* stage: %lld vs %d",
                  (long long)res->cost, opt);
    }
    /* without the inf phase nothing need prove a network's order */
    srch_dom_opts no_h = o, bad = o;
    uint8_t s[PMAX] = {3, 7, 1, 0, 5, 2, 6, 4};
    CHECK(srch_dom_anytime(d, s, plain, &no_h, NULL, res) == HN_ERR_ARG);
    bad.deltas[1] = 0; /* not rising */
    CHECK(srch_dom_anytime(d, s, res_h, &bad, NULL, res) == HN_ERR_ARG);
    bad = o;
    bad.deltas[0] = SRCH_DOM_DELTA_INF; /* inf only last */
    CHECK(srch_dom_anytime(d, s, res_h, &bad, NULL, res) == HN_ERR_ARG);
    hn_error_clear();
    hn_rng_free(r);
    free(res);
    srch_dom_heur_free(plain);
    srch_dom_heur_free(res_h);
    srch_dom_heur_free(gap);
    nn_model_free(m);
    free(dist);
    dom_free(d);
}

/* The window shortcut on random-walk solutions: replayable, never longer,
 * optimal when a window covers the whole path; refused on general costs. */
static void test_shortcut(void)
{
    int st;
    dom *d = dom_open_def(&PANCAKE, "8", &st);
    int *dist = optimal_costs(d);
    srch_dom_shortcut_opts small = SRCH_DOM_SHORTCUT_DEFAULTS, whole = small;
    small.max_window = 4;
    whole.max_window = 200;
    hn_rng *r = hn_rng_new(17);
    int longer = 0;
    for (int i = 0; i < 20; i++) {
        uint8_t s[PMAX], moves[64];
        int len = 10 + i;
        tdom_walk_solution(d, r, len, s, moves);
        int opt = dist[rank_of(s, 8)], n = len, saved = 0;
        longer += len > opt;
        CHECK(srch_dom_shortcut(d, s, moves, &n, &small, 0, &saved) == 0);
        CHECK(n <= len && n + saved == len && dom_replay(d, s, moves, n) == 1);
        CHECK(srch_dom_shortcut(d, s, moves, &n, &whole, 0, &saved) == 0);
        CHECK_MSG(n == opt && n + saved == len && dom_replay(d, s, moves, n) == 1,
                  "shortcut %d vs %d", n, opt);
    }
    CHECK(longer >= 5);
    dom *dc = dom_open_def(&PANCAKE, "8c", &st);
    uint8_t s[PMAX] = {1, 0, 2, 3, 4, 5, 6, 7}, mv[2] = {0, 0};
    int n = 2;
    CHECK(srch_dom_shortcut(dc, s, mv, &n, &whole, 0, NULL) == HN_ERR_UNSUPPORTED && n == 2);
    small.max_window = 1;
    CHECK(srch_dom_shortcut(d, s, mv, &n, &small, 0, NULL) == HN_ERR_ARG && n == 2);
    hn_error_clear();
    hn_rng_free(r);
    free(dist);
    dom_free(dc);
    dom_free(d);
}

typedef struct {
    const dom *d;
    srch_dom_heur *h;
    const uint8_t *starts;
    int n;
    int64_t cost[16];
    uint64_t expanded[16];
} job;

static void *run_job(void *arg)
{
    job *j = arg;
    srch_dom_result *res = malloc(sizeof *res);
    srch_dom_opts bw = SRCH_DOM_DEFAULTS;
    bw.batch = 4;
    for (int i = 0; i < j->n; i++) {
        j->cost[i] = srch_dom_bwas(j->d, j->starts + (size_t)i * 8, j->h, &bw, NULL, res) == 0
                         ? res->cost
                         : -1;
        j->expanded[i] = res->expanded;
    }
    free(res);
    return NULL;
}

/* Clones share tables and weights: searches on two threads at once give
 * what one heuristic gives alone, after the original is freed. */
static void test_clone(void)
{
    int st;
    dom *d = dom_open_def(&PANCAKE, "8", &st);
    nn_model *m = tdom_random_model("64-16-1", 31, 6.0, 2.0, NULL);
    nn_model_set_encoder(m, dom_facts_of(d)->encoding); /* a model reads its domain's encoding */
    nn_model_set_meta_str(m, "residual", "gap");
    srch_dom_heur *h = net_heur(d, m, SRCH_DOM_ENGINE_AUTO, 64);
    CHECK(srch_dom_heur_set_value(h, 4, 0.25, srch_dom_heur_adm(d, "gap", &st)) == 0);
    enum { N = 12 };
    uint8_t starts[N * 8];
    hn_rng *r = hn_rng_new(12);
    for (int i = 0; i < N; i++)
        random_stack(d, r, starts + i * 8);
    job one = {.d = d, .h = h, .starts = starts, .n = N};
    run_job(&one);
    job a = one, b = one;
    a.h = srch_dom_heur_clone(h, &st);
    b.h = srch_dom_heur_clone(a.h, &st);
    CHECK(a.h && b.h && srch_dom_heur_scale(b.h) == 4);
    srch_dom_heur_free(h);
    pthread_t ta, tb;
    int started_a = pthread_create(&ta, NULL, run_job, &a) == 0;
    int started_b = pthread_create(&tb, NULL, run_job, &b) == 0;
    CHECK(started_a && started_b);
    if (started_a)
        pthread_join(ta, NULL);
    if (started_b)
        pthread_join(tb, NULL);
    for (int i = 0; i < N; i++)
        CHECK(one.cost[i] > 0 && a.cost[i] == one.cost[i] && b.cost[i] == one.cost[i] &&
              a.expanded[i] == one.expanded[i] && b.expanded[i] == one.expanded[i]);
    srch_dom_heur_free(a.h);
    srch_dom_heur_free(b.h);
    hn_rng_free(r);
    nn_model_free(m);
    dom_free(d);
}

/* The goal's ball holds exactly the stacks within its radius at their
 * optimal costs, walks each back to the goal, and a beam ending there
 * gives valid paths (optimal and proven from inside the ball). */
static void test_ball(void)
{
    int st;
    dom *d = dom_open_def(&PANCAKE, "8", &st), *dc = dom_open_def(&PANCAKE, "8c", &st);
    int n = 8, *dist = optimal_costs(d);
    srch_dom_ball *b = srch_dom_ball_new(d, 4, &st);
    CHECK(b && st == 0 && srch_dom_ball_radius(b) == 4);
    size_t within = 0, bad = 0, badpath = 0;
    uint8_t s[PMAX], path[SRCH_DOM_BALL_MAX_RADIUS];
    for (int r = 0; b && r < fact(n); r++) {
        unrank(r, n, s);
        int want = dist[r] <= 4 ? dist[r] : -1, got = srch_dom_ball_dist(b, s);
        within += want >= 0;
        bad += got != want;
        int k = srch_dom_ball_path(b, s, path, SRCH_DOM_BALL_MAX_RADIUS);
        badpath += k != want || (k >= 0 && dom_replay(d, s, path, k) != 1);
    }
    CHECK(b && srch_dom_ball_states(b) == within && within > 100);
    CHECK_MSG(bad == 0 && badpath == 0, "ball: %zu wrong distances, %zu wrong paths", bad, badpath);
    srch_dom_heur *gap = srch_dom_heur_adm(d, "gap", &st);
    srch_dom_result *res = malloc(sizeof *res);
    srch_dom_opts bm = SRCH_DOM_DEFAULTS;
    bm.width = 4;
    bm.ball = b;
    hn_rng *rng = hn_rng_new(11);
    for (int i = 0; i < 40; i++) {
        random_stack(d, rng, s);
        int opt = dist[rank_of(s, n)];
        CHECK(srch_dom_beam(d, s, gap, &bm, NULL, res) == 0 && valid(d, s, res) &&
              res->cost >= opt && (opt > 4 || (res->cost == opt && res->proven)));
    }
    /* a ball past the diameter: every beam optimal at once, and nothing to
     * widen after a proven start */
    srch_dom_ball *all = srch_dom_ball_new(d, SRCH_DOM_BALL_MAX_RADIUS, &st);
    CHECK(all && srch_dom_ball_states(all) == (size_t)fact(n));
    bm.ball = all;
    bm.widen = 4;
    nn_model *m = tdom_random_model("64-8-1", 3, 6.0, 2.0, NULL);
    nn_model_set_encoder(m, dom_facts_of(d)->encoding); /* a model reads its domain's encoding */
    srch_dom_heur *net = m ? net_heur(d, m, SRCH_DOM_ENGINE_FLOAT, 64) : NULL;
    CHECK(net != NULL);
    for (int i = 0; all && net && i < 20; i++) {
        random_stack(d, rng, s);
        CHECK(srch_dom_beam(d, s, net, &bm, NULL, res) == 0 && valid(d, s, res) &&
              res->cost == dist[rank_of(s, n)] && res->proven && res->expanded == 0);
        CHECK_MSG(res->rows == 1, "a start in the ball: %llu network rows (the start's one)",
                  (unsigned long long)res->rows);
    }
    srch_dom_heur_free(net);
    nn_model_free(m);
    /* refused: radius out of range, costs, a ball of another domain */
    CHECK(!srch_dom_ball_new(d, 0, &st) && st == HN_ERR_ARG);
    CHECK(!srch_dom_ball_new(d, SRCH_DOM_BALL_MAX_RADIUS + 1, &st) && st == HN_ERR_ARG);
    CHECK(!srch_dom_ball_new(dc, 3, &st) && st == HN_ERR_UNSUPPORTED);
    srch_dom_heur *gapc = srch_dom_heur_adm(dc, "gap", &st);
    CHECK(srch_dom_beam(dc, s, gapc, &bm, NULL, res) == HN_ERR_ARG);
    srch_dom_heur_free(gapc);
    hn_rng_free(rng);
    free(res);
    srch_dom_heur_free(gap);
    srch_dom_ball_free(all);
    srch_dom_ball_free(b);
    free(dist);
    dom_free(dc);
    dom_free(d);
}

/* A beam that kept every child (no depth over the width) searched all
 * paths below its bound: its answer is proven, and widening stops there.
 * A narrower one proves nothing. */
static void test_beam_proof(void)
{
    int st;
    dom *d = dom_open_def(&PANCAKE, "8", &st);
    int *dist = optimal_costs(d);
    srch_dom_heur *gap = srch_dom_heur_adm(d, "gap", &st);
    CHECK(d && dist && gap);
    srch_dom_result *res = malloc(sizeof *res);
    srch_dom_opts all = SRCH_DOM_DEFAULTS, one = SRCH_DOM_DEFAULTS, wide = SRCH_DOM_DEFAULTS;
    all.width = 50000; /* over 8! = 40320: every stack fits */
    one.width = 1;
    wide.width = 2;
    wide.widen = 2;
    int proofs = 0;
    hn_rng *r = hn_rng_new(11);
    for (int i = 0; i < 30; i++) {
        uint8_t s[PMAX];
        random_stack(d, r, s);
        int opt = dist[rank_of(s, 8)];
        CHECK(srch_dom_beam(d, s, gap, &all, NULL, res) == 0 && valid(d, s, res));
        CHECK_MSG(res->proven && res->cost == opt, "full beam: %lld proven %d, the optimum %d",
                  (long long)res->cost, res->proven, opt);
        CHECK(srch_dom_beam(d, s, gap, &one, NULL, res) == 0 && valid(d, s, res));
        CHECK(!res->proven || opt <= 1);
        /* the widened runs end with the first that keeps every child */
        CHECK(srch_dom_beam(d, s, gap, &wide, NULL, res) == 0 && valid(d, s, res));
        CHECK_MSG(!res->proven || res->cost == opt, "widened beam: %lld proven, the optimum %d",
                  (long long)res->cost, opt);
        proofs += res->proven;
    }
    CHECK_MSG(proofs == 30, "widened beams proved %d of 30", proofs);
    hn_rng_free(r);
    free(res);
    srch_dom_heur_free(gap);
    free(dist);
    dom_free(d);
}

int main(void)
{
    test_optimal("7", 60);
    test_optimal("8c", 30);
    test_limits();
    test_net_values();
    test_net_refused();
    test_incremental(SRCH_DOM_ENGINE_FLOAT);
    test_incremental(SRCH_DOM_ENGINE_Q8);
    test_net_search();
    test_anytime_reports();
    test_focal("7", 30);
    test_focal("8c", 15);
    test_anytime_deltas();
    test_shortcut();
    test_clone();
    test_ball();
    test_beam_proof();
    return CHECK_DONE();
}
