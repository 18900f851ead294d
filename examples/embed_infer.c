/* Embedding heurnet, part 1: load a trained model and ask it for distance
 * estimates of n-puzzle boards, as `heurnet predict --instances` does.
 *
 *   cc embed_infer.c $(pkg-config --cflags --libs heurnet) -o embed_infer
 *   ./embed_infer models/15puzzle-annd.h5 instances/npuzzle/korf100.txt [blank-first]
 *
 * Prints "id<TAB>estimate" per board. The boards are in the goal layout
 * given (default: the model's); they are converted when the model's differs. */
#include <stdio.h>
#include <stdlib.h>

#include <heurnet/encode.h>
#include <heurnet/nn.h>

static int fail(const char *what)
{
    fprintf(stderr, "embed_infer: %s: %s\n", what, hn_errmsg());
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: embed_infer MODEL.h5 INSTANCES [blank-first|blank-last]\n");
        return 2;
    }
    int st, width, model_goal, goal;
    nn_model *m = nn_model_load(argv[1], &st);
    if (!m)
        return fail(argv[1]);
    /* The model file names the encoder it reads, e.g. "npuzzle-onehot n=4 goal=blank-first". */
    if (srch_np_encode_parse(nn_model_encoder(m), &width, &model_goal))
        return fail(argv[1]);
    goal = model_goal;
    if (argc == 4 && srch_np_goal_parse(argv[3], &goal))
        return fail(argv[3]);

    srch_np_instance *in;
    size_t n;
    if (srch_np_parse_file(argv[2], width, goal, NULL, NULL, &in, &n))
        return fail(argv[2]);
    /* One inference context per thread, sized for the largest batch; one
     * call evaluates every board (as heurnet predict does, up to 1024). */
    int din = nn_model_inputs(m), batch = n < 1024 ? (int)n + (n == 0) : 1024;
    nn_infer *inf = nn_infer_new(m, batch, &st);
    float *x = malloc(sizeof *x * (size_t)batch * (size_t)din),
          *y = malloc(sizeof *y * (size_t)batch);
    if (!inf || !x || !y)
        return fail("inference context");
    for (size_t s = 0; s < n; s += (size_t)batch) {
        int k = n - s < (size_t)batch ? (int)(n - s) : batch;
        for (int i = 0; i < k; i++)
            srch_np_encode_onehot(&in[s + i].board, goal, model_goal, x + (size_t)i * din);
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
    return 0;
}
