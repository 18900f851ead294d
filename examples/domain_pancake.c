/* A domain plug-in in one file: the pancake problem. A stack of N pancakes
 * (sizes 0..N-1, top first) is sorted by flips: move k turns the top k + 2
 * pancakes over. The gap heuristic (Helmert 2010) counts neighbours in the
 * stack, the plate below the last one included, whose sizes differ by more
 * than one; each flip removes at most one gap, so it is admissible. The
 * patterns bigK (pdb:big4, ...) give the core's pattern databases: a stack
 * seen only through where its K largest pancakes lie, the others alike.
 *
 * Build it against the installed headers only (no libheurnet needed):
 *   cc -shared -fPIC -O2 $(pkg-config --cflags heurnet) domain_pancake.c \
 *      -o libpancake.so
 * and use it as `heurnet domain check ./libpancake.so:12`. */
#include <heurnet/domain.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 32 /* the encoding delta of a flip must fit DOM_MAX_DELTA */

typedef struct pancake {
    const dom_host *host;
    int n;
    char canonical[32], encoding[48], patterns[64];
    char names[MAXN][4];
    const char *name_ptr[MAXN];
    int8_t inverse[MAXN];
    uint8_t *prune; /* (n) states: 0 root, 1 + last move */
} pancake;

static void *create(const char *args, const dom_host *host, dom_facts *f)
{
    char *end;
    long n = args[0] ? strtol(args, &end, 10) : 8;
    if (args[0] && (*end || n < 3 || n > MAXN)) {
        host->fail(DOM_ERR_ARG, "pancake: N must be 3..32");
        return NULL;
    }
    pancake *p = calloc(1, sizeof *p);
    int moves = (int)n - 1;
    if (p)
        p->prune = malloc((size_t)(moves + 1) * (size_t)moves);
    if (!p || !p->prune) {
        free(p);
        host->fail(DOM_ERR_NOMEM, "pancake: out of memory");
        return NULL;
    }
    p->host = host;
    p->n = (int)n;
    /* big2 .. big6, as far as the stack allows (big6 of 32: 652 M entries) */
    for (int k = 2, used = 0; k <= 6 && k < n; k++)
        used += snprintf(p->patterns + used, sizeof p->patterns - (size_t)used, "%sbig%d",
                         k > 2 ? "," : "", k);
    snprintf(p->canonical, sizeof p->canonical, "pancake:%d", p->n);
    snprintf(p->encoding, sizeof p->encoding, "pancake-onehot n=%d", p->n);
    for (int m = 0; m < moves; m++) {
        snprintf(p->names[m], sizeof p->names[m], "%d", m + 2);
        p->name_ptr[m] = p->names[m];
        p->inverse[m] = (int8_t)m; /* a flip undoes itself */
    }
    /* never the same flip twice in a row */
    for (int q = 0; q <= moves; q++)
        for (int m = 0; m < moves; m++)
            p->prune[q * moves + m] = q == m + 1 ? DOM_PRUNED : (uint8_t)(m + 1);
    *f = (dom_facts){.struct_size = f->struct_size,
                     .canonical = p->canonical,
                     .encoding = p->encoding,
                     .state_bytes = (uint32_t)n,
                     .nmoves = (uint32_t)moves,
                     .move_name = p->name_ptr,
                     .move_sep = " ",
                     .inverse = p->inverse,
                     .prune_states = (uint32_t)moves + 1,
                     .prune_next = p->prune,
                     .inputs = (uint32_t)(n * n),
                     .max_active = (uint32_t)n,
                     .max_delta = (uint32_t)n,
                     .heuristics = "gap",
                     .patterns = p->patterns,
                     .has_uniform = 1,
                     .typical_depth = (uint32_t)n};
    return p;
}

static void destroy(void *inst)
{
    pancake *p = inst;
    free(p->prune);
    free(p);
}

static void flip(uint8_t *s, int k)
{
    for (int i = 0, j = k - 1; i < j; i++, j--) {
        uint8_t t = s[i];
        s[i] = s[j];
        s[j] = t;
    }
}

static int apply(const void *inst, void *state, int move)
{
    const pancake *p = inst;
    if (move < 0 || move >= p->n - 1)
        return 0;
    flip(state, move + 2);
    return 1;
}

static int expand(const void *inst, const void *state, uint64_t allowed, void *children,
                  uint8_t *moves)
{
    const pancake *p = inst;
    uint8_t *out = children;
    int k = 0;
    for (int m = 0; m < p->n - 1; m++) {
        if (!(allowed >> m & 1))
            continue;
        memcpy(out + k * p->n, state, (size_t)p->n);
        flip(out + k * p->n, m + 2);
        moves[k++] = (uint8_t)m;
    }
    return k;
}

static void goal(const void *inst, void *state)
{
    const pancake *p = inst;
    for (int i = 0; i < p->n; i++)
        ((uint8_t *)state)[i] = (uint8_t)i;
}

/* input size * n + position is on for each pancake */
static int encode(const void *inst, const void *state, int32_t *active)
{
    const pancake *p = inst;
    const uint8_t *s = state;
    for (int i = 0; i < p->n; i++)
        active[i] = s[i] * p->n + i;
    return p->n;
}

static int encode_delta(const void *inst, const void *state, int move, int32_t *off, int *noff,
                        int32_t *on, int *non)
{
    const pancake *p = inst;
    const uint8_t *s = state;
    if (move < 0 || move >= p->n - 1)
        return -1;
    int k = move + 2, n = 0;
    for (int i = 0; i < k; i++) {
        if (s[i] == s[k - 1 - i])
            continue; /* the middle pancake of an odd flip stays */
        off[n] = s[i] * p->n + i;
        on[n++] = s[k - 1 - i] * p->n + i;
    }
    *noff = *non = n;
    return 0;
}

static int random_state(const void *inst, void *state, dom_rng *rng)
{
    const pancake *p = inst;
    uint8_t *s = state;
    goal(inst, state);
    for (int i = p->n - 1; i > 0; i--) {
        int j = (int)(rng->next(rng->ctx) % (uint64_t)(i + 1));
        uint8_t t = s[i];
        s[i] = s[j];
        s[j] = t;
    }
    return 0;
}

static int parse_state(const void *inst, const char *text, void *state)
{
    const pancake *p = inst;
    uint8_t *s = state;
    unsigned seen = 0;
    char msg[96];
    for (int i = 0; i < p->n; i++) {
        char *end;
        long v = strtol(text, &end, 10);
        if (end == text || v < 0 || v >= p->n) {
            snprintf(msg, sizeof msg, "pancake %d: expected a size 0..%d", i + 1, p->n - 1);
            return p->host->fail(DOM_ERR_FORMAT, msg);
        }
        if (seen >> v & 1) {
            snprintf(msg, sizeof msg, "size %ld appears twice", v);
            return p->host->fail(DOM_ERR_FORMAT, msg);
        }
        seen |= 1u << v;
        s[i] = (uint8_t)v;
        text = end;
    }
    while (*text == ' ' || *text == '\t')
        text++;
    if (*text) {
        snprintf(msg, sizeof msg, "more than %d sizes", p->n);
        return p->host->fail(DOM_ERR_FORMAT, msg);
    }
    return DOM_OK;
}

static int format_state(const void *inst, const void *state, char *buf, size_t cap)
{
    const pancake *p = inst;
    const uint8_t *s = state;
    size_t used = 0;
    if (cap)
        buf[0] = '\0';
    for (int i = 0; i < p->n; i++) {
        int w = snprintf(used < cap ? buf + used : NULL, used < cap ? cap - used : 0, "%s%d",
                         i ? " " : "", s[i]);
        used += (size_t)w;
    }
    return (int)used;
}

static void *heur_open(const void *inst, const char *name)
{
    const pancake *p = inst;
    if (strcmp(name, "gap")) {
        p->host->fail(DOM_ERR_ARG, "pancake: the only heuristic is gap");
        return NULL;
    }
    return (void *)p;
}

static int heur_eval(const void *heur, const void *state)
{
    const pancake *p = heur;
    const uint8_t *s = state;
    int gaps = 0;
    for (int i = 0; i < p->n; i++) {
        int below = i + 1 < p->n ? s[i + 1] : p->n; /* the plate is size n */
        gaps += abs(s[i] - below) > 1;
    }
    return gaps;
}

static void heur_free(void *heur)
{
    (void)heur; /* the instance itself */
}

/* ---- the pattern bigK: where the K largest pancakes lie ---- */

typedef struct big_pattern {
    int n, k;
} big_pattern;

/* Rank: pancake n-K+i's position among the positions the larger tracked
 * ones left free, in a mixed radix of n, n-1, ..., n-K+1. */
static uint64_t big_rank(const void *self, const void *state)
{
    const big_pattern *b = self;
    const uint8_t *s = state;
    int where[MAXN];
    for (int i = 0; i < b->n; i++)
        where[s[i]] = i;
    uint32_t taken = 0;
    uint64_t r = 0;
    for (int i = b->n - 1; i >= b->n - b->k; i--) {
        int pos = where[i];
        int free_before = pos - __builtin_popcount(taken & ((1u << pos) - 1));
        r = r * (uint64_t)(b->n - (b->n - 1 - i)) + (uint64_t)free_before;
        taken |= 1u << pos;
    }
    return r;
}

/* A stack of that rank: the tracked pancakes where the rank says, the
 * others in the free places smallest first (any order ranks the same). */
static void big_unrank(const void *self, uint64_t rank, void *state)
{
    const big_pattern *b = self;
    uint8_t *s = state;
    int digit[MAXN];
    for (int i = b->n - b->k; i < b->n; i++) { /* last digit first */
        uint64_t radix = (uint64_t)(b->n - (b->n - 1 - i));
        digit[i] = (int)(rank % radix);
        rank /= radix;
    }
    uint32_t taken = 0;
    for (int i = b->n - 1; i >= b->n - b->k; i--) {
        int pos = 0;
        for (int left = digit[i];; pos++)
            if (!(taken >> pos & 1) && left-- == 0)
                break;
        s[pos] = (uint8_t)i;
        taken |= 1u << pos;
    }
    for (int pos = 0, next = 0; pos < b->n; pos++)
        if (!(taken >> pos & 1))
            s[pos] = (uint8_t)next++;
}

static int pattern_open(const void *inst, const char *name, dom_pattern *out)
{
    const pancake *p = inst;
    char *end = (char *)name;
    long k = strncmp(name, "big", 3) ? 0 : strtol(name + 3, &end, 10);
    if (k < 2 || k > 6 || k >= p->n || *end)
        return p->host->fail(DOM_ERR_ARG, "pancake: patterns are bigK, K 2..6 and below N");
    big_pattern *b = malloc(sizeof *b);
    if (!b)
        return p->host->fail(DOM_ERR_NOMEM, "pancake: out of memory");
    *b = (big_pattern){p->n, (int)k};
    uint64_t entries = 1;
    for (int i = 0; i < k; i++)
        entries *= (uint64_t)(p->n - i);
    *out = (dom_pattern){entries, b, big_rank, big_unrank, free};
    return DOM_OK;
}

static const dom_def PANCAKE = {
    .abi_version = DOM_ABI_VERSION,
    .struct_size = sizeof(dom_def),
    .name = "pancake",
    .summary = "sort a stack of pancakes by flipping its top (gap heuristic)",
    .args_help = "N pancakes, 3..32 [8]",
    .create = create,
    .destroy = destroy,
    .expand = expand,
    .apply = apply,
    .goal = goal,
    .encode = encode,
    .encode_delta = encode_delta,
    .random_state = random_state,
    .parse_state = parse_state,
    .format_state = format_state,
    .heur_open = heur_open,
    .heur_eval = heur_eval,
    .heur_free = heur_free,
    .pattern_open = pattern_open,
};

__attribute__((visibility("default"))) const dom_def *heurnet_domain_entry(uint32_t index)
{
    return index == 0 ? &PANCAKE : NULL;
}
