/* Broken domain plug-ins for tests/cli_domain.sh and cli_domain_bad.sh, one
 * per defect a host must refuse or `heurnet domain check` must find; picked
 * by @NAME. They wrap the pancake example (compiled in with its entry
 * renamed). */
#define heurnet_domain_entry pancake_entry
#include "../../examples/domain_pancake.c"
#undef heurnet_domain_entry

/* apply breaks the inverse: flip 2 also swaps the last two pancakes when
 * the top one is the smaller (so flipping twice does not restore) */
static int bad_apply(const void *inst, void *state, int move)
{
    const pancake *p = inst;
    int swap = move == 0 && ((uint8_t *)state)[0] < ((uint8_t *)state)[1];
    int ok = apply(inst, state, move);
    if (ok && swap) {
        uint8_t *s = state, t = s[p->n - 1];
        s[p->n - 1] = s[p->n - 2];
        s[p->n - 2] = t;
    }
    return ok;
}

/* the delta forgets the inputs of the first pancake */
static int bad_delta(const void *inst, const void *state, int move, int32_t *off, int *noff,
                     int32_t *on, int *non)
{
    int rc = encode_delta(inst, state, move, off, noff, on, non);
    if (!rc && *noff > 0) {
        (*noff)--;
        (*non)--;
    }
    return rc;
}

/* over-estimates: gap + 1 */
static int bad_heur(const void *heur, const void *state)
{
    return heur_eval(heur, state) + 1;
}

/* ---- facts and values the host must refuse or survive ---- */

#include <limits.h>

/* create through the pancake's, then one fact spoilt by `spoil` */
#define SPOILT_CREATE(fn, stmt)                                                                    \
    static void *fn(const char *args, const dom_host *host, dom_facts *f)                          \
    {                                                                                              \
        pancake *p = create(args, host, f);                                                        \
        if (p) {                                                                                   \
            stmt;                                                                                  \
        }                                                                                          \
        return p;                                                                                  \
    }

static uint8_t prune_all[MAXN];

SPOILT_CREATE(create_nullsep, f->move_sep = NULL)
SPOILT_CREATE(create_canon_nl, f->canonical = "pancake:6\nx=1")
SPOILT_CREATE(create_canon_blank, f->canonical = "pancake 6")
SPOILT_CREATE(create_canon_empty, f->canonical = "")
SPOILT_CREATE(create_canon_eq, f->canonical = "pancake=6")
SPOILT_CREATE(create_noinverse, f->inverse = NULL)
/* the automaton forbids every move: one state, every entry DOM_PRUNED */
SPOILT_CREATE(create_pruneall, (memset(prune_all, DOM_PRUNED, sizeof prune_all),
                                f->prune_states = 1, f->prune_next = prune_all))
/* the automaton also forbids flip 2 (move 0) everywhere: stacks one flip 2
 * from the goal are then reached only by longer paths */
SPOILT_CREATE(create_prunetwo,
              for (uint32_t q = 0; q < f->prune_states; q++) p->prune[q * f->nmoves] = DOM_PRUNED)

/* create fails without telling the host why */
static void *create_silent(const char *args, const dom_host *host, dom_facts *f)
{
    pancake *p = create(args, host, f);
    if (p)
        destroy(p);
    return NULL;
}

/* heuristic values no admissible heuristic has: negative everywhere, or
 * INT_MAX everywhere (the goal included) */
static int heur_negative(const void *heur, const void *state)
{
    (void)heur;
    (void)state;
    return -1;
}

static int heur_huge(const void *heur, const void *state)
{
    (void)heur;
    (void)state;
    return INT_MAX;
}

/* an estimate between two states far below 0 */
static int between_negative(const void *inst, const void *a, const void *b)
{
    (void)inst;
    (void)a;
    (void)b;
    return -1000;
}

#define NDEFS 20
static dom_def defs[NDEFS];

__attribute__((visibility("default"))) const dom_def *heurnet_domain_entry(uint32_t index)
{
    if (!defs[0].name) {
        for (int i = 0; i < NDEFS; i++)
            defs[i] = PANCAKE;
        defs[0].name = "inverse";
        defs[0].apply = bad_apply;
        defs[1].name = "delta";
        defs[1].encode_delta = bad_delta;
        defs[2].name = "heuristic";
        defs[2].heur_eval = bad_heur;
        defs[3].name = "version";
        defs[3].abi_version = 99;
        defs[4].name = "missing";
        defs[4].expand = NULL;
        defs[5].name = "small";
        defs[5].struct_size = 16;
        defs[6].name = "nullsep";
        defs[6].create = create_nullsep;
        defs[7].name = "canonnl";
        defs[7].create = create_canon_nl;
        defs[8].name = "canonblank";
        defs[8].create = create_canon_blank;
        defs[9].name = "canonempty";
        defs[9].create = create_canon_empty;
        defs[10].name = "canoneq";
        defs[10].create = create_canon_eq;
        defs[11].name = "silent";
        defs[11].create = create_silent;
        defs[12].name = "bad name";
        defs[13].name = "pruneall";
        defs[13].create = create_pruneall;
        defs[14].name = "prunetwo";
        defs[14].create = create_prunetwo;
        defs[15].name = "negative";
        defs[15].heur_eval = heur_negative;
        defs[16].name = "huge";
        defs[16].heur_eval = heur_huge;
        defs[17].name = "noinverse";
        defs[17].create = create_noinverse;
        defs[18].name = "newline\n";
        defs[19].name = "between";
        defs[19].between = between_negative;
    }
    return index < NDEFS ? &defs[index] : NULL;
}
