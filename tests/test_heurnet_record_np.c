/* The old n-puzzle words of a model's recorded search, translated on read
 * (solve/dom_record_np.c): each rule checked through the settings the
 * translated words resolve to on the model's domain, the mark that says a
 * record is in the new words, and words no rule translates refused with a
 * message naming them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "nn/nn.h"
#include "solve/dom_search.h"

#define MODEL8 HN_TEST_SRC "/models/8puzzle-annd.h5"

/* The settings `old` resolves to for an 8-puzzle model (NULL: refused). */
static heurnet_dom_search *resolve(const dom *d, const char *old, char *words, size_t cap)
{
    int st = heurnet_dom_record_np_translate(3, old, words, cap);
    CHECK_MSG(st == 0, "%s: %s", old, hn_errmsg());
    if (st)
        return NULL;
    heurnet_dom_search *s = heurnet_dom_record_config(d, MODEL8, words, &st);
    CHECK_MSG(s != NULL, "%s -> %s: %s", old, words, hn_errmsg());
    return s;
}

static const heurnet_dom_opts *opts(heurnet_dom_search *s)
{
    return heurnet_dom_search_settings(s);
}

/* BWAS's lambda orders f = lambda*g + h as g + h/lambda; batch-astar is
 * BWAS with the weight as given; both took 16 states a step by default. */
static void bwas_rules(const dom *d)
{
    const double lambdas[] = {0.8, 0.5, 1, 0.3};
    char w[4096], rec[128];
    for (size_t i = 0; i < sizeof lambdas / sizeof *lambdas; i++) {
        snprintf(rec, sizeof rec, "--algo bwas --weight %g --heuristic ann:SELF", lambdas[i]);
        heurnet_dom_search *s = resolve(d, rec, w, sizeof w);
        CHECK(s && opts(s)->algo == HEURNET_DOM_BWAS && opts(s)->so.batch == 16);
        CHECK_MSG(s && fabs(opts(s)->so.weight * lambdas[i] - 1) < 1e-15, "%s -> %s", rec, w);
        heurnet_dom_search_free(s);
    }
    heurnet_dom_search *s = resolve(d, "--algo bwas --heuristic ann:SELF", w, sizeof w);
    CHECK(s && fabs(opts(s)->so.weight * 0.8 - 1) < 1e-15);
    heurnet_dom_search_free(s);
    s = resolve(d, "--algo batch-astar --weight 1.5 --batch 4 --heuristic ann:SELF", w, sizeof w);
    CHECK(s && opts(s)->algo == HEURNET_DOM_BWAS && opts(s)->so.weight == 1.5 &&
          opts(s)->so.batch == 4);
    heurnet_dom_search_free(s);
    /* A* took no weight and no batch: the plain A* it ran */
    s = resolve(d, "--algo astar --weight 2 --batch 8 --heuristic ann:SELF", w, sizeof w);
    CHECK(s && opts(s)->algo == HEURNET_DOM_ASTAR && opts(s)->so.weight == 1 &&
          opts(s)->so.batch == 1);
    heurnet_dom_search_free(s);
    s = resolve(d, "--heuristic ann:SELF", w, sizeof w);
    CHECK(s && opts(s)->algo == HEURNET_DOM_ASTAR);
    heurnet_dom_search_free(s);
}

/* anytime: --weight LIST is --weights, none for a single 1 or none given;
 * the old deltas by default; H the spec's admissible part, else the PDB. */
static void anytime_rules(const dom *d)
{
    char w[4096];
    heurnet_dom_search *s =
        resolve(d, "--algo anytime --weight 1.5,1.25 --heuristic ann:SELF,pdb:8,q8", w, sizeof w);
    CHECK(s && opts(s)->algo == HEURNET_DOM_ANYTIME && opts(s)->so.nweights == 2 &&
          opts(s)->so.weights[0] == 1.5 && opts(s)->so.weights[1] == 1.25);
    CHECK(s && opts(s)->so.ndeltas == 7 && opts(s)->so.deltas[5] == 6 &&
          opts(s)->so.deltas[6] >= SRCH_DOM_DELTA_INF);
    CHECK_MSG(s && opts(s)->admissible && !strcmp(opts(s)->admissible, "pdb:8"), "%s", w);
    heurnet_dom_search_free(s);
    const char *none[] = {"--algo anytime --heuristic ann:SELF",
                          "--algo anytime --weight 1 --deltas 0,2,inf --heuristic ann:SELF,lc"};
    for (int i = 0; i < 2; i++) {
        s = resolve(d, none[i], w, sizeof w);
        CHECK_MSG(s && opts(s)->so.nweights == 0, "%s", w);
        CHECK(s && opts(s)->so.ndeltas == (i ? 3 : 7));
        CHECK(s && !strcmp(opts(s)->admissible, i ? "lc" : "pdb:8"));
        heurnet_dom_search_free(s);
    }
    s = resolve(d, "--algo focal --bound 1.2 --heuristic ann:SELF", w, sizeof w);
    CHECK(s && opts(s)->algo == HEURNET_DOM_FOCAL && opts(s)->bound == 1.2 &&
          !strcmp(opts(s)->admissible, "pdb:8"));
    heurnet_dom_search_free(s);
}

/* Windows were IDA* windows of one round, N 10^6 by default; the network's
 * engine the sparse float one unless q8, whose sums were 32-bit without
 * acc16. */
static void window_and_engine_rules(const dom *d)
{
    char w[4096];
    heurnet_dom_search *s =
        resolve(d, "--algo astar --shortcut 30 --heuristic ann:SELF", w, sizeof w);
    const srch_dom_shortcut_opts *sc = s ? &opts(s)->so.shortcut : NULL;
    CHECK(sc && sc->max_window == 30 && sc->budget == 1000000 && sc->ida && sc->max_rounds == 1);
    CHECK(s && strstr(opts(s)->heuristic, ",float"));
    heurnet_dom_search_free(s);
    s = resolve(d, "--algo astar --shortcut 20:5000 --heuristic ann:SELF,q8,scale:10", w, sizeof w);
    sc = s ? &opts(s)->so.shortcut : NULL;
    CHECK(sc && sc->max_window == 20 && sc->budget == 5000 && sc->max_rounds == 1);
    CHECK(s && strstr(opts(s)->heuristic, ",acc32") && !strstr(opts(s)->heuristic, "float"));
    heurnet_dom_search_free(s);
    s = resolve(d, "--algo astar --heuristic ann:SELF,q8,acc16,mirror", w, sizeof w);
    CHECK(s && !strstr(opts(s)->heuristic, "acc32") && !strstr(opts(s)->heuristic, "float"));
    heurnet_dom_search_free(s);
}

/* Words no rule translates: refused, the word named. */
static void refusals(void)
{
    const char *bad[] = {"--algo anytime --ida 40-90:8 --heuristic ann:SELF",
                         "--algo astar --width 3 --heuristic ann:SELF",
                         "--algo bwas --weight 2 --heuristic ann:SELF", "--algo", "astar"};
    const char *says[] = {"40-90:8", "--width", "lambda", "needs a value", "astar"};
    char w[4096];
    for (int i = 0; i < 5; i++) {
        int st = heurnet_dom_record_np_translate(3, bad[i], w, sizeof w);
        CHECK_MSG(st == HN_ERR_FORMAT && strstr(hn_errmsg(), says[i]), "%s: %s", bad[i],
                  hn_errmsg());
    }
}

/* Which models may hold old words: square n-puzzles of 3x3 to 5x5. */
static void widths(void)
{
    const char *spec[] = {"npuzzle:3x3", "npuzzle:4x4:blank-last",
                          "npuzzle:5x5", "npuzzle:6x6",
                          "npuzzle:4x3", "cube3"};
    const int want[] = {3, 4, 5, 0, 0, 0};
    for (int i = 0; i < 6; i++) {
        int st;
        dom *d = dom_open(spec[i], &st);
        CHECK_MSG(d && heurnet_dom_record_np_width(d) == want[i], "%s", spec[i]);
        dom_free(d);
    }
}

/* A model's record read by a search: translated without the mark, taken
 * as it is with it (lambda 0.5 = weight 2; the new words' weight 0.5). */
static void mark(void)
{
    const char *path = "record_np_model.h5";
    int st;
    for (int marked = 0; marked < 2; marked++) {
        nn_model *m = nn_model_load(MODEL8, &st);
        CHECK(m && nn_model_set_meta_str(m, HEURNET_DOM_RECORD_ATTR,
                                         "--algo bwas --weight 0.5 --heuristic ann:SELF") == 0);
        if (marked)
            CHECK(nn_model_set_meta_str(m, HEURNET_DOM_RECORD_WORDS_ATTR,
                                        HEURNET_DOM_RECORD_WORDS) == 0);
        CHECK(m && nn_model_save(m, path) == 0);
        nn_model_free(m);
        heurnet_dom_opts o;
        heurnet_dom_opts_default(&o);
        o.model = path;
        heurnet_dom_search *s = heurnet_dom_search_open(&o, &st);
        CHECK_MSG(s != NULL, "%s", hn_errmsg());
        CHECK(s && opts(s)->algo == HEURNET_DOM_BWAS);
        CHECK_MSG(s && opts(s)->so.weight == (marked ? 0.5 : 2), "marked %d: weight %g", marked,
                  s ? opts(s)->so.weight : -1);
        heurnet_dom_search_free(s);
    }
    remove(path);
}

int main(void)
{
    int st;
    dom *d = dom_open("npuzzle:3x3", &st);
    CHECK(d != NULL);
    if (d) {
        bwas_rules(d);
        anytime_rules(d);
        window_and_engine_rules(d);
    }
    dom_free(d);
    refusals();
    widths();
    mark();
    return CHECK_DONE();
}
