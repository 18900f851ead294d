/* The cube's pattern databases through the core (built once into the
 * cache folder, $HEURNET_DATA or ~/.cache/heurnet: about 170 MB), checked
 * against breadth-first distances, and a small IDA* over them that must
 * find optimal lengths: for scrambles of 8-12 quarter turns the optimum
 * is checked by meeting in the middle of two depth-5 balls. With
 * HEURNET_CUBE3_IDS="13,..." it also solves those cubes of DeepCubeA's
 * test set against their listed optima (about a CPU minute each), and
 * with HEURNET_CUBE3_PDBS="corners,edges7a,edges7b" it uses those three
 * patterns. Timings go to stderr for docs/domains.md; they are not
 * asserted. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "cube3_ball.h"
#include "domains/dom.h"

#define SB BALL_SB
#define MAX_LEN 32

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void to_stderr(int level, const char *msg, void *user)
{
    (void)user;
    if (level >= HN_LOG_INFO)
        fprintf(stderr, "  [%.1f s] %s\n", now(), msg);
}

/* CPU seconds of this process: the machine is shared, wall time is not
 * a measure. */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int corner_parity(const uint8_t *s)
{
    int inv = 0;
    for (int i = 0; i < 8; i++)
        for (int j = i + 1; j < 8; j++)
            inv += s[i] > s[j];
    return inv & 1;
}

/* ---- a test-local IDA* ---- */

/* The heuristic is the max of parts, evaluated in turn and stopped at
 * the first that cuts (corners first: the strongest). A cut f may then be
 * below the full max; the next bound stays a lower bound on the optimum. */
typedef struct ida {
    const dom *d;
    dom_heur *const *part;
    int nparts;
    uint8_t s[SB];
    uint8_t path[MAX_LEN];
    int len, bound;
    uint64_t nodes;
} ida;

/* -1 when a goal was found within the bound, else the least f past it. */
static int ida_f(const ida *x, int g)
{
    int h = 0;
    for (int k = 0; k < x->nparts && g + h <= x->bound; k++) {
        int v = dom_heur_eval(x->part[k], x->s);
        h = v > h ? v : h;
    }
    return g + h;
}

static int ida_dfs(ida *x, int g, int q)
{
    int f = ida_f(x, g);
    if (f > x->bound)
        return f;
    if (dom_is_goal(x->d, x->s)) {
        x->len = g;
        return -1;
    }
    if (g == MAX_LEN)
        return INT_MAX;
    x->nodes++;
    int next = INT_MAX;
    for (int m = 0; m < dom_nmoves(x->d); m++) {
        int r = dom_prune_next(x->d, q, m);
        if (r == (int)DOM_PRUNED)
            continue;
        dom_apply(x->d, x->s, m);
        x->path[g] = (uint8_t)m;
        int t = ida_dfs(x, g + 1, r);
        dom_apply(x->d, x->s, dom_inverse(x->d, m));
        if (t < 0)
            return -1;
        next = t < next ? t : next;
    }
    return next;
}

/* Optimal length of start (-1 past MAX_LEN); the path in x->path. With
 * `verbose`, one line per iteration. */
static int ida_solve(ida *x, const uint8_t *start, int verbose)
{
    memcpy(x->s, start, SB);
    x->nodes = 0;
    /* In the quarter-turn metric every move flips the corner permutation's
     * parity, so the optimum has the parity of the corner permutation and
     * bounds of the other parity are skipped. */
    int parity = corner_parity(start);
    x->bound = INT_MAX / 2; /* the full max at the root */
    x->bound = ida_f(x, 0);
    x->bound += (x->bound & 1) != parity;
    double t0 = cpu_now();
    while (x->bound <= MAX_LEN) {
        int t = ida_dfs(x, 0, DOM_PRUNE_ROOT);
        if (verbose)
            fprintf(stderr, "  bound %d: %llu expansions, %.1f s CPU\n", x->bound,
                    (unsigned long long)x->nodes, cpu_now() - t0);
        if (t < 0)
            return x->len;
        x->bound = t + ((t & 1) != parity);
    }
    return -1;
}

/* ---- checks ---- */

static dom_heur *open_timed(const dom *d, const char *name)
{
    int st;
    double t0 = now(), c0 = cpu_now();
    dom_heur *h = dom_heur_open(d, name, &st);
    CHECK_MSG(h != NULL, "%s: %s", name, hn_errmsg());
    fprintf(stderr, "%s: opened (built or loaded) in %.1f s, %.1f s CPU\n", name, now() - t0,
            cpu_now() - c0);
    return h;
}

/* Every entry reached; the distribution by distance, for the docs. */
static void check_table(const dom_heur *h)
{
    uint64_t n, count[256] = {0};
    const uint8_t *t = dom_heur_pdb_table(h, &n);
    double sum = 0;
    for (uint64_t r = 0; r < n; r++)
        count[t[r]]++;
    CHECK(count[255] == 0 && count[0] == 1);
    int max = 0;
    for (int v = 0; v < 255; v++)
        if (count[v]) {
            max = v;
            sum += (double)v * (double)count[v];
        }
    fprintf(stderr, "%s: %llu entries, max %d, mean %.3f; by distance:", dom_heur_name(h),
            (unsigned long long)n, max, sum / (double)n);
    for (int v = 0; v <= max; v++)
        fprintf(stderr, " %llu", (unsigned long long)count[v]);
    fprintf(stderr, "\n");
}

static void check_admissible(const dom *d, dom_heur *const *h, int nh, const ball *b)
{
    for (int k = 0; k < nh; k++) {
        size_t over = 0;
        for (size_t i = 0; i < b->n; i++)
            over += dom_heur_eval(h[k], b->state + i * SB) > b->depth[i];
        CHECK_MSG(over == 0, "%s exceeds the distance on %zu cubes", dom_heur_name(h[k]), over);
    }
    (void)d;
}

static void report_means(const dom *d, dom_heur *const *h, int nh, hn_rng *rng)
{
    double sum[8] = {0};
    int n = 10000;
    uint8_t s[SB];
    for (int i = 0; i < n; i++) {
        dom_random_state(d, s, rng);
        for (int k = 0; k < nh; k++)
            sum[k] += dom_heur_eval(h[k], s);
    }
    for (int k = 0; k < nh; k++)
        fprintf(stderr, "mean of %s on %d random cubes: %.3f\n", dom_heur_name(h[k]), n,
                sum[k] / n);
}

/* The distance of s when it is 10 or less (else -1): a shortest path has
 * a middle cube within 5 of both ends. */
static int meet_in_middle(const dom *d, const ball *goal, const uint8_t *s)
{
    ball b;
    if (ball_build(&b, d, s, 5, 120000))
        return -2;
    int best = -1;
    for (size_t i = 0; i < b.n; i++) {
        int k = ball_depth(goal, d, b.state + i * SB);
        if (k >= 0 && (best < 0 || b.depth[i] + k < best))
            best = b.depth[i] + k;
    }
    ball_free(&b);
    return best;
}

static void check_own_scrambles(const dom *d, dom_heur *const *h, const ball *goal, hn_rng *rng)
{
    ida x = {.d = d, .part = h, .nparts = 3};
    for (int len = 8; len <= 12; len++)
        for (int rep = 0; rep < 2; rep++) {
            uint8_t s[SB];
            dom_goal(d, s);
            CHECK(dom_walk(d, s, len, rng) == len);
            double t0 = cpu_now();
            int opt = ida_solve(&x, s, 0);
            double dt = cpu_now() - t0;
            CHECK(opt >= 0 && opt <= len && dom_replay(d, s, x.path, opt) == 1);
            int mitm = meet_in_middle(d, goal, s);
            CHECK_MSG(mitm == -1 ? opt >= 11 : mitm == opt, "walk of %d: IDA* %d, BFS %d", len, opt,
                      mitm);
            fprintf(stderr, "walk %2d: optimum %2d (BFS: %s), %.3f s CPU, %llu expansions\n", len,
                    opt, mitm >= 0 ? "exact" : "> 10", dt, (unsigned long long)x.nodes);
        }
}

/* The cubes of the test file named in HEURNET_CUBE3_IDS, against their
 * listed optima. */
static void check_test_cubes(const dom *d, dom_heur *const *h)
{
    const char *ids = getenv("HEURNET_CUBE3_IDS");
    if (!ids || !ids[0])
        return;
    dom_instance_rec *rec = NULL;
    size_t n = 0;
    CHECK(dom_read_instances(d, HN_TEST_DATA "/cube3/deepcubea_test_cube3.txt", NULL, NULL, &rec,
                             &n) == 0);
    ida x = {.d = d, .part = h, .nparts = 3};
    for (size_t i = 0; i < n; i++) {
        char key[40];
        snprintf(key, sizeof key, ",%s,", rec[i].id);
        char list[1024];
        snprintf(list, sizeof list, ",%s,", ids);
        if (!strstr(list, key))
            continue;
        double t0 = cpu_now();
        int opt = ida_solve(&x, rec[i].state, 1);
        char text[256];
        dom_format_moves(d, x.path, opt > 0 ? opt : 0, text, sizeof text);
        CHECK_MSG(opt == rec[i].length && dom_replay(d, rec[i].state, x.path, opt) == 1,
                  "cube %s: IDA* %d, listed %d", rec[i].id, opt, rec[i].length);
        fprintf(stderr, "cube %s: optimum %d (listed %d), %.1f s CPU, %llu expansions: %s\n",
                rec[i].id, opt, rec[i].length, cpu_now() - t0, (unsigned long long)x.nodes, text);
    }
    free(rec);
}

int main(void)
{
    hn_log_set(to_stderr, NULL);
    int st;
    dom *d = dom_open("cube3", &st);
    CHECK_MSG(d != NULL, "%s", hn_errmsg());
    if (!d)
        return CHECK_DONE();
    /* HEURNET_CUBE3_PDBS="A,B,C" picks three other patterns (edges7a...) */
    const char *env = getenv("HEURNET_CUBE3_PDBS");
    char pat[3][32] = {"corners", "edges6a", "edges6b"}, name[3][100], max[320];
    if (env && sscanf(env, "%31[^,],%31[^,],%31s", pat[0], pat[1], pat[2]) != 3)
        return fprintf(stderr, "HEURNET_CUBE3_PDBS: three patterns, A,B,C\n"), 2;
    for (int k = 0; k < 3; k++)
        snprintf(name[k], sizeof name[k], "pdb:%s", pat[k]);
    snprintf(max, sizeof max, "max:%s,%s,%s", name[0], name[1], name[2]);
    dom_heur *h[5] = {open_timed(d, name[0]), open_timed(d, name[1]), open_timed(d, name[2]),
                      open_timed(d, max), open_timed(d, "manhattan")};
    for (int k = 0; k < 5; k++)
        if (!h[k])
            return CHECK_DONE();
    for (int k = 0; k < 3; k++)
        check_table(h[k]);
    ball goal;
    uint8_t g[SB];
    dom_goal(d, g);
    CHECK(ball_build(&goal, d, g, 5, 120000) == 0);
    check_admissible(d, h, 5, &goal);
    hn_rng *rng = hn_rng_new(44);
    report_means(d, h, 5, rng);
    check_own_scrambles(d, h, &goal, rng);
    check_test_cubes(d, h);
    hn_rng_free(rng);
    ball_free(&goal);
    for (int k = 0; k < 5; k++)
        dom_heur_free(h[k]);
    dom_free(d);
    return CHECK_DONE();
}
