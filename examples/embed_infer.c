/* Embedding heurnet, part 1: load a trained model and ask it for distance
 * estimates of the states of an instance file, as `heurnet predict
 * --instances` does, on the domain the model records (any n-puzzle, the
 * cube, a plug-in given by its path).
 *
 *   cc embed_infer.c $(pkg-config --cflags --libs heurnet) -o embed_infer
 *   ./embed_infer models/15puzzle-annd.h5 instances/npuzzle/korf100.txt [DOMAIN]
 *
 * Prints "id<TAB>estimate" per state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <heurnet/dom_search.h>
#include <heurnet/nn.h>

static int fail(const char *what)
{
    fprintf(stderr, "embed_infer: %s: %s\n", what, hn_errmsg());
    return 1;
}

/* The one-hot inputs of a state: the domain lists the inputs that are on. */
static void encode(const dom *d, const void *state, float *x, int din)
{
    int32_t on[DOM_MAX_ACTIVE];
    int k = dom_encode(d, state, on);
    memset(x, 0, sizeof *x * (size_t)din);
    for (int j = 0; j < k; j++)
        x[on[j]] = 1;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: embed_infer MODEL.h5 INSTANCES [DOMAIN]\n");
        return 2;
    }
    int st;
    char spec[512];
    nn_model *m = nn_model_load(argv[1], &st);
    if (!m)
        return fail(argv[1]);
    /* The model names its domain ("domain" attribute, or its encoder). */
    if (argc < 4 && heurnet_dom_model_domain(argv[1], spec, sizeof spec))
        return fail(argv[1]);
    dom *d = dom_open(argc == 4 ? argv[3] : spec, &st);
    if (!d)
        return fail(argc == 4 ? argv[3] : argv[1]);
    dom_instance_rec *in;
    size_t n;
    if (dom_read_instances(d, argv[2], NULL, NULL, &in, &n))
        return fail(argv[2]);
    /* One inference context per thread, sized for the largest batch; one
     * call evaluates every state (as heurnet predict does, up to 1024). */
    int din = nn_model_inputs(m), batch = n < 1024 ? (int)n + (n == 0) : 1024;
    if ((size_t)din != dom_facts_of(d)->inputs) {
        fprintf(stderr, "embed_infer: %s does not read %s's inputs\n", argv[1], dom_spec(d));
        return 1;
    }
    nn_infer *inf = nn_infer_new(m, batch, &st);
    float *x = malloc(sizeof *x * (size_t)batch * (size_t)din),
          *y = malloc(sizeof *y * (size_t)batch);
    if (!inf || !x || !y)
        return fail("inference context");
    for (size_t s = 0; s < n; s += (size_t)batch) {
        int k = n - s < (size_t)batch ? (int)(n - s) : batch;
        for (int i = 0; i < k; i++)
            encode(d, in[s + i].state, x + (size_t)i * din, din);
        if (nn_infer_run(inf, x, k, y))
            return fail("inference");
        for (int i = 0; i < k; i++)
            printf("%s\t%.6g\n", in[s + i].id, (double)y[i]);
    }
    free(x);
    free(y);
    free(in);
    nn_infer_free(inf);
    nn_model_free(m);
    dom_free(d);
    return 0;
}
