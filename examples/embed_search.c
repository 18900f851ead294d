/* Embedding heurnet, part 2: A* guided by a trained network, from C. The
 * heuristic is the network's estimate rounded to whole moves, so the search
 * is fast but not guaranteed optimal (see docs/search.md).
 *
 *   cc embed_search.c $(pkg-config --cflags --libs heurnet) -o embed_search
 *   ./embed_search models/15puzzle-annd.h5 instances/npuzzle/korf100.txt 5
 *
 * Solves the first N boards (default 3) of an instance file in the model's
 * goal layout and prints id, solution length, known optimum and expansions. */
#include <stdio.h>
#include <stdlib.h>

#include <heurnet/ann.h>
#include <heurnet/encode.h>
#include <heurnet/nn.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: embed_search MODEL.h5 INSTANCES [N]\n");
        return 2;
    }
    int st, width, goal;
    nn_model *m = nn_model_load(argv[1], &st);
    if (!m || srch_np_encode_parse(nn_model_encoder(m), &width, &goal)) {
        fprintf(stderr, "embed_search: %s\n", hn_errmsg());
        return 1;
    }
    srch_np_heur *h =
        srch_np_heur_ann_new(m, argv[1], width, goal, NULL, &SRCH_NP_ANN_DEFAULTS, &st);
    srch_np_instance *in = NULL;
    size_t n = 0;
    if (!h || srch_np_parse_file(argv[2], width, goal, NULL, NULL, &in, &n)) {
        fprintf(stderr, "embed_search: %s\n", hn_errmsg());
        return 1;
    }
    size_t todo = argc > 3 ? (size_t)atoi(argv[3]) : 3;
    srch_limits lim = {.max_expanded = 1000000};
    static srch_np_result res; /* holds the move list: keep it off the stack */
    int rc = 0;
    for (size_t i = 0; i < n && i < todo; i++) {
        if (srch_np_astar(&in[i].board, h, &lim, &res)) {
            fprintf(stderr, "embed_search: %s: %s\n", in[i].id, hn_errmsg());
            rc = 1;
            continue;
        }
        printf("id=%s length=%d optimal=%d expanded=%llu\n", in[i].id, res.length, in[i].optimal,
               (unsigned long long)res.expanded);
    }
    free(in);
    srch_np_heur_free(h);
    nn_model_free(m);
    return rc;
}
