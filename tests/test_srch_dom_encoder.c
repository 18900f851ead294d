/* The generic network path compares a model's encoder with the domain's
 * encoding (issue 63, defect 7): a plug-in that keeps its canonical string
 * and changes its encoding, or a model that records no encoder at all, is
 * refused with a message naming the model and both encodings, as the
 * n-puzzle path refuses them; a model of the domain's own encoding runs. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dom_test.h"
#include "nn/nn.h"
#include "search/generic/srch_dom.h"

/* The built-in n-puzzle under another encoding name: the same canonical
 * string ("npuzzle:3x3"), as a plug-in's next version might be. */
static const dom_def *np_def;
static void *(*np_create)(const char *, const dom_host *, dom_facts *);

static void *create_v2(const char *args, const dom_host *host, dom_facts *facts)
{
    void *inst = np_create(args, host, facts);
    if (inst)
        facts->encoding = "npuzzle-onehot-v2 n=3 goal=blank-first";
    return inst;
}

static const dom_def *builtin_named(const char *name)
{
    for (int i = 0; dom_builtin(i); i++)
        if (!strcmp(dom_builtin(i)->name, name))
            return dom_builtin(i);
    return NULL;
}

static nn_model *model(int inputs, const char *domain, const char *encoder)
{
    char arch[32];
    snprintf(arch, sizeof arch, "%d-8-1", inputs);
    nn_model *m = tdom_random_model(arch, 3, 6.0, 2.0, NULL);
    if (m && domain)
        nn_model_set_meta_str(m, "domain", domain);
    if (m && encoder)
        nn_model_set_encoder(m, encoder);
    return m;
}

/* srch_dom_heur_net on m: 1 when refused with status want and a message
 * holding every non-NULL part; 0 when accepted (want 0) or else. */
static int refused(const dom *d, const nn_model *m, int want, const char *a, const char *b,
                   const char *c)
{
    int st = 0;
    srch_dom_heur *h = srch_dom_heur_net(d, m, "enc-test.h5", NULL, &st);
    const char *msg = h ? "" : hn_errmsg();
    srch_dom_heur_free(h);
    if (!want)
        return h != NULL;
    int ok = !h && st == want && strstr(msg, "enc-test.h5");
    ok = ok && (!a || strstr(msg, a)) && (!b || strstr(msg, b)) && (!c || strstr(msg, c));
    if (!ok)
        fprintf(stderr, "  status %d, message: %s\n", st, msg);
    return ok;
}

/* Same canonical string, other encoding: the model of the old one is
 * refused, naming both encodings; one of the new encoding runs. */
static void test_new_encoding(void)
{
    np_def = builtin_named("npuzzle");
    CHECK(np_def != NULL);
    if (!np_def)
        return;
    dom_def v2 = *np_def;
    np_create = np_def->create;
    v2.create = create_v2;
    int st;
    dom *d = dom_open_def(&v2, "3x3", &st);
    CHECK_MSG(d != NULL, "%s", hn_errmsg());
    if (!d)
        return;
    CHECK(!strcmp(dom_canonical(d), "npuzzle:3x3"));
    const char *old = "npuzzle-onehot n=3 goal=blank-first";
    nn_model *m = model(81, "npuzzle:3x3", old);
    CHECK(refused(d, m, HN_ERR_ARG, old, "npuzzle-onehot-v2 n=3 goal=blank-first", NULL));
    nn_model_set_encoder(m, "npuzzle-onehot-v2 n=3 goal=blank-first");
    CHECK(refused(d, m, 0, NULL, NULL, NULL));
    nn_model_free(m);
    dom_free(d);
}

/* No encoder at all: refused on every domain of its width (the pancake
 * stack of 9 and the 3x4 board in the issue; the 3x3 board here), with or
 * without a recorded domain; the right encoder makes it run. */
static void test_no_encoder(const char *spec)
{
    int st;
    dom *d = dom_open(spec, &st);
    CHECK_MSG(d != NULL, "%s: %s", spec, hn_errmsg());
    if (!d)
        return;
    const char *enc = dom_facts_of(d)->encoding;
    nn_model *m = model((int)dom_facts_of(d)->inputs, NULL, NULL);
    CHECK_MSG(refused(d, m, HN_ERR_ARG, "no encoder", enc, NULL), "%s: no encoder", spec);
    nn_model_set_meta_str(m, "domain", dom_spec(d));
    CHECK_MSG(refused(d, m, HN_ERR_ARG, "no encoder", enc, NULL), "%s: domain only", spec);
    nn_model_set_encoder(m, "someone-elses-onehot");
    CHECK_MSG(refused(d, m, HN_ERR_ARG, "someone-elses-onehot", enc, NULL), "%s: other", spec);
    nn_model_set_encoder(m, enc);
    CHECK_MSG(refused(d, m, 0, NULL, NULL, NULL), "%s: its own encoder", spec);
    /* the width is still checked first for a model of no encoder */
    nn_model *w = model((int)dom_facts_of(d)->inputs + 1, NULL, NULL);
    CHECK(refused(d, w, HN_ERR_SHAPE, "inputs", NULL, NULL));
    nn_model_free(w);
    nn_model_free(m);
    dom_free(d);
}

int main(void)
{
    test_new_encoding();
    test_no_encoder("npuzzle:3x4");
    test_no_encoder("npuzzle:3x3");
    test_no_encoder("cube3");
    return CHECK_DONE();
}
