/* The library's search over any domain by name (solve/dom_search.h) and
 * its flat facade, checked against independent computations: IDA*'s
 * optima equal A*'s on the 8-puzzle and on short cube scrambles, every
 * solution replays to the goal, a batch on two threads equals one search
 * at a time, the summary counts what the rows say, and wrong names,
 * settings and state bytes are refused with a message naming them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "solve/dom_search.h"

#define N 6

/* N states of d, the i-th steps + i * spread random moves from the goal,
 * back to back. */
static uint8_t *walks(const dom *d, int steps, int spread, uint64_t seed)
{
    size_t b = dom_state_bytes(d);
    uint8_t *x = malloc((N + 1) * b); /* room for one more */
    hn_rng *r = hn_rng_new(seed);
    for (int i = 0; x && r && i < N; i++) {
        dom_goal(d, x + (size_t)i * b);
        dom_walk(d, x + (size_t)i * b, steps + spread * i, r);
    }
    hn_rng_free(r);
    return x;
}

static heurnet_dom_search *open_algo(const char *domain, const char *algo, const char *heur)
{
    heurnet_dom_opts o;
    heurnet_dom_opts_default(&o);
    CHECK(heurnet_dom_opts_set(&o, HEURNET_DOM_OPT_DOMAIN, domain) == 0);
    CHECK(heurnet_dom_opts_set(&o, HEURNET_DOM_OPT_ALGO, algo) == 0);
    CHECK(heurnet_dom_opts_set(&o, HEURNET_DOM_OPT_HEURISTIC, heur) == 0);
    int st = 0;
    heurnet_dom_search *s = heurnet_dom_search_open(&o, &st);
    CHECK_MSG(s && st == 0, "%s %s %s: %s", domain, algo, heur, hn_errmsg());
    return s;
}

/* IDA* one state at a time against A* as a batch on two threads: the same
 * optimal lengths, every solution a path to the goal. */
static void optima_agree(const char *domain, const char *heur, int steps, int spread)
{
    heurnet_dom_search *ida = open_algo(domain, "idastar", heur);
    heurnet_dom_search *astar = open_algo(domain, "astar", heur);
    if (!ida || !astar)
        goto out;
    const dom *d = heurnet_dom_search_domain(ida);
    uint8_t *x = walks(d, steps, spread, 7);
    srch_dom_result *res = calloc(N + 1, sizeof *res);
    int known[N];
    CHECK(x && res);
    if (!x || !res)
        goto done;
    for (int i = 0; i < N; i++) {
        const uint8_t *st = x + (size_t)i * dom_state_bytes(d);
        CHECK(heurnet_dom_search_solve(ida, st, NULL, &res[N]) == 0 && res[N].proven);
        CHECK(dom_replay(d, st, res[N].moves, res[N].length) == 1);
        known[i] = res[N].length;
    }
    CHECK(heurnet_dom_search_batch(astar, x, 0, N, 2, res) == 0);
    for (int i = 0; i < N; i++) {
        CHECK_MSG(res[i].status == 0 && res[i].length == known[i], "%s state %d: %d vs %d", domain,
                  i, res[i].length, known[i]);
        CHECK(dom_replay(d, x + (size_t)i * dom_state_bytes(d), res[i].moves, res[i].length) == 1);
    }
    heurnet_dom_summary m;
    heurnet_dom_summarize(res, known, N, &m);
    CHECK(m.count == N && m.solved == N && m.with_known == N && m.differ == 0);
    CHECK(m.length == m.known && m.expanded > 0 && m.expanded == m.expanded_all);
    CHECK(heurnet_dom_search_exact(ida) && !heurnet_dom_search_exact(astar));
done:
    free(res);
    free(x);
out:
    heurnet_dom_search_free(ida);
    heurnet_dom_search_free(astar);
}

/* The defaults: IDA* with the domain's first heuristic; wastar's weight. */
static void defaults(void)
{
    heurnet_dom_opts o;
    heurnet_dom_opts_default(&o);
    o.domain = "npuzzle:3x3";
    heurnet_dom_search *s = heurnet_dom_search_open(&o, NULL);
    CHECK(s != NULL);
    if (s) {
        const heurnet_dom_opts *r = heurnet_dom_search_settings(s);
        CHECK(r->algo == HEURNET_DOM_IDASTAR && r->heuristic && r->heuristic[0]);
        CHECK(heurnet_dom_search_record(s)[0] == '\0');
    }
    heurnet_dom_search_free(s);
    CHECK(heurnet_dom_opts_set(&o, heurnet_dom_opt_id("algo"), "wastar") == 0);
    s = heurnet_dom_search_open(&o, NULL);
    CHECK(s && heurnet_dom_search_settings(s)->so.weight == 1.5);
    char buf[256];
    CHECK(s && heurnet_dom_search_describe(s, buf, sizeof buf) > 0 &&
          !strncmp(buf, "wastar, weight 1.5, batch ", 26));
    heurnet_dom_search_free(s);
}

/* expect a NULL search with HN_ERR_ARG and `what` in the message */
static void refused(const heurnet_dom_opts *o, const char *what)
{
    int st = 0;
    heurnet_dom_search *s = heurnet_dom_search_open(o, &st);
    CHECK_MSG(!s && st == HN_ERR_ARG && strstr(hn_errmsg(), what), "%s: %d %s", what, st,
              hn_errmsg());
    heurnet_dom_search_free(s);
}

static void bad_settings(void)
{
    int algo = -1;
    CHECK(heurnet_dom_algo_parse("nosuch", &algo) == HN_ERR_ARG && algo == -1);
    CHECK(strstr(hn_errmsg(), "'nosuch'") && strstr(hn_errmsg(), "focal"));
    CHECK(heurnet_dom_algo_parse("beam", &algo) == 0 && algo == HEURNET_DOM_BEAM);
    heurnet_dom_opts o;
    heurnet_dom_opts_default(&o);
    CHECK(heurnet_dom_opts_set(&o, HEURNET_DOM_OPT_WEIGHTS, "5,3,x") == HN_ERR_ARG);
    CHECK(strstr(hn_errmsg(), "--weights '5,3,x'") != NULL);
    CHECK(heurnet_dom_opts_set(&o, HEURNET_DOM_OPT_BOUND, "0.5") == HN_ERR_ARG);
    CHECK(heurnet_dom_opts_set(&o, 16, "1") == HN_ERR_ARG && heurnet_dom_opt_id("nosuch") < 0);
    o.domain = "nosuch:3";
    refused(&o, "nosuch:3");
    o.domain = "npuzzle:3x3";
    o.heuristic = "nosuch";
    refused(&o, "nosuch");
    o.heuristic = "manhattan";
    o.algo = HEURNET_DOM_ASTAR;
    CHECK(heurnet_dom_opts_set(&o, HEURNET_DOM_OPT_BOUND, "2") == 0);
    refused(&o, "focal's, not astar's");
    heurnet_dom_opts_default(&o);
    refused(&o, "--domain D is required");
    dom *d = dom_open("npuzzle:3x3", NULL);
    /* the settings are checked before anything loads; an unknown name
     * fails the load, which opens nothing and may be retried */
    heurnet_dom_opts_default(&o);
    o.heuristic = "nosuch";
    int st = 0;
    heurnet_dom_search *s = d ? heurnet_dom_search_config(d, &o, &st) : NULL;
    CHECK(s && st == 0 && heurnet_dom_search_load(s) == HN_ERR_ARG);
    CHECK(s && heurnet_dom_search_heur(s) == NULL && heurnet_dom_search_prepare(s) == HN_ERR_ARG);
    heurnet_dom_search_free(s);
    o.heuristic = NULL;
    o.ball_radius = 2;
    CHECK(d && !heurnet_dom_search_config(d, &o, &st) && st == HN_ERR_ARG);
    CHECK(strstr(hn_errmsg(), "--ball is beam's, not idastar's") != NULL);
    CHECK(d && heurnet_dom_record_check(d, "none.h5", "--time-limit 3") == HN_ERR_ARG);
    CHECK(strstr(hn_errmsg(), "unknown setting '--time-limit'") != NULL);
    CHECK(d && !heurnet_dom_record_config(d, "none.h5", "--algo focal --bound 0", &st));
    CHECK(st == HN_ERR_ARG && strstr(hn_errmsg(), "--bound '0' is not 1..100"));
    s = d ? heurnet_dom_record_config(d, "none.h5", "--algo astar --weight 2", &st) : NULL;
    CHECK(s && heurnet_dom_search_settings(s)->so.weight == 2);
    CHECK(s && heurnet_dom_search_load(s) != 0); /* ann:none.h5 does not load */
    heurnet_dom_search_free(s);
    dom_free(d);
}

/* Manhattan estimates: the start's value the search saw, never above the
 * optimum (admissible), 0 at the goal; bad names and bytes refused. */
static void estimates(const dom *d, uint8_t *x, const heurnet_dom_row *opt)
{
    size_t b = dom_state_bytes(d);
    double est[N + 1];
    dom_goal(d, x + (size_t)N * b);
    CHECK(heurnet_dom_estimate_states(d, x, N + 1, b, "manhattan", est) == 0);
    CHECK(est[N] == 0);
    for (int i = 0; i < N; i++)
        CHECK_MSG(est[i] == opt[i].h0 && est[i] <= opt[i].length, "state %d: %g, h0 %d, opt %d", i,
                  est[i], opt[i].h0, opt[i].length);
    CHECK(heurnet_dom_estimate_states(d, x, N, b, "nosuch", est) == HN_ERR_ARG);
    CHECK(heurnet_dom_estimate_states(d, x, N, b - 1, "manhattan", est) == HN_ERR_ARG);
}

/* The facade: bytes in, rows and moves out; bad bytes refused by index. */
static void facade(void)
{
    dom *d = dom_open("npuzzle:3x3", NULL);
    CHECK(d != NULL);
    if (!d)
        return;
    size_t b = dom_state_bytes(d);
    uint8_t *x = walks(d, 10, 2, 3), moves[N][64];
    heurnet_dom_row rows[N], ref[N];
    CHECK(heurnet_dom_solve_states(d, x, N, b, "idastar", "manhattan", NULL, 1, ref, NULL, 0) == 0);
    estimates(d, x, ref);
    CHECK(heurnet_dom_solve_states(d, x, N, b, "astar", "lc", "--max-expanded 100000", 2, rows,
                                   &moves[0][0], sizeof moves[0]) == 0);
    for (int i = 0; i < N; i++) {
        CHECK(ref[i].status == 0 && ref[i].proven && rows[i].status == 0);
        CHECK_MSG(rows[i].length == ref[i].length, "state %d: %d vs %d", i, rows[i].length,
                  ref[i].length);
        CHECK(rows[i].nmoves == rows[i].length && rows[i].cost == rows[i].length);
        CHECK(dom_replay(d, x + (size_t)i * b, moves[i], rows[i].nmoves) == 1);
    }
    CHECK(heurnet_dom_solve_states(d, x, N, b, "astar", "manhattan", "--max-expanded 1", 1, rows,
                                   NULL, 0) == 0);
    CHECK(rows[N - 1].status == HN_ERR_LIMIT && rows[N - 1].length == -1);
    CHECK(heurnet_dom_solve_states(d, x, N, b + 1, NULL, NULL, NULL, 1, rows, NULL, 0) ==
          HN_ERR_ARG);
    CHECK(strstr(hn_errmsg(), "bytes") != NULL);
    memcpy(x + b, x, b);
    x[b] = x[b + 1]; /* a tile twice: no board */
    CHECK(heurnet_dom_solve_states(d, x, N, b, NULL, NULL, NULL, 1, rows, NULL, 0) == HN_ERR_ARG);
    CHECK_MSG(strstr(hn_errmsg(), "state 1 ") != NULL, "%s", hn_errmsg());
    CHECK(heurnet_dom_solve_states(d, x, 1, b, "nosuch", NULL, NULL, 1, rows, NULL, 0) ==
          HN_ERR_ARG);
    CHECK(heurnet_dom_solve_states(d, x, 1, b, NULL, "nosuch", NULL, 1, rows, NULL, 0) ==
          HN_ERR_ARG);
    CHECK(heurnet_dom_solve_states(d, x, 1, b, NULL, NULL, "--widht 3", 1, rows, NULL, 0) ==
          HN_ERR_ARG);
    CHECK(strstr(hn_errmsg(), "'--widht'") != NULL);
    CHECK(heurnet_dom_solve_states(d, x, 1, b, NULL, NULL, NULL, 0, rows, NULL, 0) == HN_ERR_ARG);
    free(x);
    dom_free(d);
}

int main(void)
{
    optima_agree("npuzzle:3x3", "manhattan", 14, 2);
    optima_agree("cube3", "manhattan", 2, 1);
    defaults();
    bad_settings();
    facade();
    return CHECK_DONE();
}
