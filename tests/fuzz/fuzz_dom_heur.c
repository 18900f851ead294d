/* A network heuristic's settings on a domain ("ann:M.h5,SETTINGS", the
 * syntax recorded searches use, with sym:K, scale:S, delta:D and an
 * admissible floor among them): any settings string is refused with a
 * message or opens a heuristic whose values are non-negative, 0 at the
 * goal, and, with the square board's mirror map averaged in (sym:2), equal
 * on a board and its mirror image. */
#include "fuzz_util.h"
#include "nn/nn.h"
#include "search/generic/srch_dom.h"

static dom *D;
static char MODEL[300];

static void setup(void)
{
    int st;
    D = dom_open("npuzzle:3x3", &st);
    struct nn_spec sp;
    nn_model *m = D && !nn_spec_parse("81-8-1", NULL, &sp) ? nn_model_new(&sp, 3, &st) : NULL;
    snprintf(MODEL, sizeof MODEL, "%s.h5", fuzz_scratch(""));
    if (!m || nn_model_save(m, MODEL))
        abort(); /* the harness cannot run without its model */
    nn_model_free(m);
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
    if (sym && e[1] != e[2])
        abort(); /* averaged over the mirror, a board and its image differ */
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
