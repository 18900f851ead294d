/* Broken domain plug-ins for tests/cli_domain.sh, one per defect a host
 * must refuse or `heurnet domain check` must find; picked by @NAME. They
 * wrap the pancake example (compiled in with its entry renamed). */
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

static dom_def defs[6];

__attribute__((visibility("default"))) const dom_def *heurnet_domain_entry(uint32_t index)
{
    if (!defs[0].name) {
        for (int i = 0; i < 6; i++)
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
    }
    return index < 6 ? &defs[index] : NULL;
}
