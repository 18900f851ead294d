/* Embedding heurnet, part 2: A* guided by a trained network, from C, on the
 * domain the model records (any n-puzzle, the cube, a plug-in). The
 * heuristic is the network's estimate rounded to whole moves, so the search
 * is fast but not guaranteed optimal (see docs/search.md).
 *
 *   cc embed_search.c $(pkg-config --cflags --libs heurnet) -o embed_search
 *   ./embed_search models/15puzzle-annd.h5 instances/npuzzle/korf100.txt 5
 *
 * Solves the first N states (default 3) of an instance file and prints id,
 * solution length, known optimum and expansions. */
#include <stdio.h>
#include <stdlib.h>

#include <heurnet/dom_search.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: embed_search MODEL.h5 INSTANCES [N]\n");
        return 2;
    }
    heurnet_dom_opts o;
    heurnet_dom_opts_default(&o);
    o.model = argv[1]; /* its domain; the heuristic ann:MODEL */
    o.lim.max_expanded = 1000000;
    int st = heurnet_dom_opts_set(&o, HEURNET_DOM_OPT_ALGO, "astar");
    heurnet_dom_search *s = st ? NULL : heurnet_dom_search_open(&o, &st);
    dom_instance_rec *in = NULL;
    size_t n = 0;
    if (!s || dom_read_instances(heurnet_dom_search_domain(s), argv[2], NULL, NULL, &in, &n)) {
        fprintf(stderr, "embed_search: %s\n", hn_errmsg());
        heurnet_dom_search_free(s);
        return 1;
    }
    size_t todo = argc > 3 ? (size_t)atoi(argv[3]) : 3;
    static srch_dom_result res; /* holds the move list: keep it off the stack */
    int rc = 0;
    for (size_t i = 0; i < n && i < todo; i++) {
        if (heurnet_dom_search_solve(s, in[i].state, NULL, &res)) {
            fprintf(stderr, "embed_search: %s: %s\n", in[i].id, hn_strerror(res.status));
            rc = 1;
            continue;
        }
        printf("id=%s length=%d optimal=%d expanded=%llu\n", in[i].id, res.length, in[i].length,
               (unsigned long long)res.expanded);
    }
    free(in);
    heurnet_dom_search_free(s);
    return rc;
}
