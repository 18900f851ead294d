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
    /* One inference context per thread; it owns its scratch memory. */
    nn_infer *inf = nn_infer_new(m, 1, &st);
    float *x = malloc(sizeof *x * (size_t)nn_model_inputs(m));
    if (!inf || !x)
        return fail("inference context");
    for (size_t i = 0; i < n; i++) {
        float y;
        srch_np_encode_onehot(&in[i].board, goal, model_goal, x);
        if (nn_infer_run(inf, x, 1, &y))
            return fail("inference");
        printf("%s\t%.6g\n", in[i].id, (double)y);
    }
    free(x);
    free(in);
    nn_infer_free(inf);
    nn_model_free(m);
    return 0;
}
