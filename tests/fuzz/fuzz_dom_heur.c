/* A network heuristic's settings on a domain ("ann:M.h5,SETTINGS", the
 * syntax recorded searches use, with sym:K, scale:S, delta:D and an
 * admissible floor among them): any settings string is refused with a
 * message or opens a heuristic whose values are non-negative, 0 at the
 * goal, and, with the square board's mirror map averaged in (sym:2), equal
 * on a board and its mirror image. */
#include <math.h>

#include "fuzz_dom.h"

static dom *D;
static char MODEL[300];

static void setup(void)
{
    fuzz_dom_tiny_model(&D, MODEL);
}

static void check_values(srch_dom_heur *h, int sym)
{
    uint8_t s[3][DOM_MAX_STATE_BYTES];
    hn_rng *r = hn_rng_new(5);
    dom_goal(D, s[0]);
    dom_goal(D, s[1]);
    dom_walk(D, s[1], 12, r);
    dom_symmetric(D, s[1], 1, s[2]);
    hn_rng_free(r);
    size_t sb = dom_state_bytes(D);
    uint8_t all[3 * DOM_MAX_STATE_BYTES];
    for (int i = 0; i < 3; i++)
        memcpy(all + (size_t)i * sb, s[i], sb);
    int v[3];
    double e[3];
    if (srch_dom_heur_eval(h, all, 3, NULL, NULL, NULL, v) ||
        srch_dom_heur_estimate(h, all, 3, NULL, NULL, NULL, e))
        return; /* a refused evaluation carries its own status */
    if (v[0] != 0 || v[1] < 0 || v[2] < 0)
        abort();
    /* averaged over the mirror, a board and its image must agree: exactly in
     * int8, and in float up to rounding, since the two meet their rows at
     * other places of the batch, where BLAS may sum in another order
     * (`float,sym:2` gave 0.0163678676 against 0.0163678527) */
    if (sym && fabs(e[1] - e[2]) > 1e-5 * (1 + fabs(e[1])))
        abort();
}

/* The K of the settings' last sym:K (the one that holds), else 1. */
static int last_sym(const char *settings)
{
    int k = 1;
    for (const char *p = settings; p; p = strchr(p, ',')) {
        p += *p == ',';
        if (!strncmp(p, "sym:", 4))
            k = atoi(p + 4);
    }
    return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!D)
        setup();
    char *s = fuzz_string(data, size), spec[4200];
    if (strlen(s) < 3800) {
        snprintf(spec, sizeof spec, "ann:%s,%s", MODEL, s);
        int st;
        srch_dom_heur *h = srch_dom_heur_open(D, spec, NULL, &st);
        if (!h && (!st || !hn_errmsg()[0]))
            abort(); /* refused without a status or a message */
        if (h)
            check_values(h, last_sym(s) == 2);
        srch_dom_heur_free(h);
        hn_error_clear();
    }
    free(s);
    return 0;
}
