/* Benchmark (not a test): the npuzzle domain's heuristics on one board
 * size. Opens each heuristic named on the command line (building its
 * pattern databases into $HEURNET_DATA when they are not there, which the
 * time includes), then prints the mean value over uniformly random boards
 * and the evaluations per second, and the expansions per second of the
 * domain's expand. The figures of docs/domains.md "npuzzle" come from it:
 *   HEURNET_DATA=DIR build/tests/bench_dom_npuzzle npuzzle:6x6 10000 \
 *       manhattan lc pdb:5-5-5-5-5-5-5 max:lc,pdb:5-5-5-5-5-5-5 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "domains/dom.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void log_line(int level, const char *msg, void *user)
{
    (void)user;
    if (level >= HN_LOG_INFO)
        fprintf(stderr, "%s\n", msg);
}

static double expand_rate(const dom *d, const uint8_t *boards, int n)
{
    uint8_t kids[4 * DOM_MAX_STATE_BYTES], moves[4];
    size_t sb = dom_state_bytes(d), total = 0;
    double t0 = now();
    for (int rep = 0; rep < 200; rep++)
        for (int i = 0; i < n; i++)
            total += (size_t)dom_expand(d, boards + (size_t)i * sb, rep % 5, kids, moves, NULL);
    double dt = now() - t0;
    return total ? 200.0 * n / dt : 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench_dom_npuzzle SPEC BOARDS HEURISTIC...\n");
        return 2;
    }
    hn_log_set(log_line, NULL);
    int st, n = atoi(argv[2]);
    dom *d = dom_open(argv[1], &st);
    if (!d || n < 1) {
        fprintf(stderr, "bench_dom_npuzzle: %s\n", d ? "BOARDS must be positive" : hn_errmsg());
        return 2;
    }
    size_t sb = dom_state_bytes(d);
    uint8_t *boards = malloc((size_t)n * sb);
    hn_rng *rng = hn_rng_new(4545);
    if (!boards || !rng)
        return 1;
    for (int i = 0; i < n; i++)
        dom_random_state(d, boards + (size_t)i * sb, rng);
    printf("domain=%s boards=%d typical_depth=%u expand_per_s=%.3g\n", dom_canonical(d), n,
           dom_facts_of(d)->typical_depth, expand_rate(d, boards, n));
    for (int a = 3; a < argc; a++) {
        double t0 = now();
        dom_heur *h = dom_heur_open(d, argv[a], &st);
        double open_s = now() - t0;
        if (!h) {
            fprintf(stderr, "bench_dom_npuzzle: %s\n", hn_errmsg());
            return 1;
        }
        double sum = 0;
        t0 = now();
        for (int i = 0; i < n; i++)
            sum += dom_heur_eval(h, boards + (size_t)i * sb);
        double eval_s = now() - t0;
        printf("heuristic=%s open_s=%.1f mean=%.2f eval_per_s=%.3g\n", argv[a], open_s, sum / n,
               n / eval_s);
        fflush(stdout);
        dom_heur_free(h);
    }
    hn_rng_free(rng);
    free(boards);
    dom_free(d);
    return 0;
}
