/* The proof stage after a search (--prove H, --prove-at P: solve/dom_prove.c,
 * search/generic/gen_prove.c), checked against IDA*'s optima: a narrow beam
 * on the 8-puzzle and weighted A* on cube scrambles under the small fst
 * table, each followed by IDA* below its length, ends optimal and proven on
 * every state, improves the beam where it was long, and replays; a node
 * limit that stops the proof leaves the beam's path unproven with status
 * 0; a time limit is kept; settings that cannot hold are refused. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "solve/dom_search.h"

#define N 12

static heurnet_dom_search *open_words(const char *const *kv, int *status)
{
    heurnet_dom_opts o;
    heurnet_dom_opts_default(&o);
    for (int i = 0; kv[i]; i += 2) {
        int id = heurnet_dom_opt_id(kv[i]);
        CHECK_MSG(id >= 0 && heurnet_dom_opts_set(&o, id, kv[i + 1]) == 0, "--%s %s: %s", kv[i],
                  kv[i + 1], hn_errmsg());
    }
    return heurnet_dom_search_open(&o, status);
}

/* A state `moves` random moves from the goal. */
static void walk_state(const dom *d, hn_rng *r, int moves, uint8_t *x)
{
    dom_goal(d, x);
    dom_walk(d, x, moves, r);
}

/* A search that is not exact (key, value: its setting) then the proof,
 * against IDA* on each state: the same length, proven, a path; *improved
 * counts the states the proof shortened. */
static void proof_is_optimal(const char *domain, const char *heur, const char *algo,
                             const char *key, const char *value, int steps, int spread,
                             int *improved)
{
    const char *first[] = {"domain", domain, "algo",  algo, "heuristic", heur,
                           key,      value,  "prove", heur, NULL};
    const char *ida[] = {"domain", domain, "algo", "idastar", "heuristic", heur, NULL};
    int st;
    heurnet_dom_search *b = open_words(first, &st), *i = open_words(ida, &st);
    CHECK_MSG(b && i, "%s: %s", domain, hn_errmsg());
    *improved = 0;
    if (!b || !i)
        goto out;
    const dom *d = heurnet_dom_search_domain(b);
    uint8_t x[DOM_MAX_STATE_BYTES];
    srch_dom_result *rb = malloc(sizeof *rb), *ri = malloc(sizeof *ri);
    hn_rng *r = hn_rng_new(17);
    CHECK(rb && ri && r);
    for (int k = 0; rb && ri && r && k < N; k++) {
        walk_state(d, r, steps + spread * k / 2, x);
        CHECK(heurnet_dom_search_solve(i, x, NULL, ri) == 0 && ri->proven);
        CHECK_MSG(heurnet_dom_search_solve(b, x, NULL, rb) == 0, "%s", hn_errmsg());
        CHECK_MSG(rb->length == ri->length && rb->proven, "%s state %d: %d (from %d) vs %d", domain,
                  k, rb->length, rb->proof_from, ri->length);
        CHECK(rb->proof_from >= rb->length && rb->proof_seconds >= 0);
        CHECK(dom_replay(d, x, rb->moves, rb->length) == 1);
        *improved += rb->proof_from > rb->length;
    }
    hn_rng_free(r);
    free(rb);
    free(ri);
out:
    heurnet_dom_search_free(b);
    heurnet_dom_search_free(i);
}

/* A proof cut by the node limit (the search's expansions and half the
 * proof's): the search's path, unproven, status 0, the limit kept; and a
 * time limit kept. */
static void limits_kept(void)
{
    const char *words[] = {"domain", "npuzzle:3x3", "algo",  "beam",      "heuristic", "manhattan",
                           "width",  "64",          "prove", "manhattan", NULL};
    int st;
    heurnet_dom_search *s = open_words(words, &st);
    CHECK_MSG(s != NULL, "%s", hn_errmsg());
    if (!s)
        return;
    const dom *d = heurnet_dom_search_domain(s);
    uint8_t x[DOM_MAX_STATE_BYTES];
    srch_dom_result *res = malloc(sizeof *res);
    hn_rng *r = hn_rng_new(5);
    int cut = 0;
    for (int k = 0; res && r && k < N; k++) {
        walk_state(d, r, 40 + k, x);
        CHECK(heurnet_dom_search_solve(s, x, NULL, res) == 0);
        if (res->proof_expanded < 4)
            continue; /* too short a proof to cut */
        uint64_t search = res->expanded - res->proof_expanded;
        int from = res->proof_from;
        srch_limits lim = {.max_expanded = search + res->proof_expanded / 2};
        CHECK(heurnet_dom_search_solve(s, x, &lim, res) == 0 && !res->proven);
        CHECK(res->length == from && dom_replay(d, x, res->moves, res->length) == 1);
        CHECK_MSG(res->expanded <= lim.max_expanded + 1, "%llu expanded, limit %llu",
                  (unsigned long long)res->expanded, (unsigned long long)lim.max_expanded);
        cut++;
    }
    CHECK_MSG(cut > 0, "no proof long enough to cut");
    srch_limits lim = {.time_limit = 0.05};
    walk_state(d, r, 60, x);
    double t0 = hn_now();
    CHECK(res && heurnet_dom_search_solve(s, x, &lim, res) == 0);
    CHECK(hn_now() - t0 < 1.0);
    hn_rng_free(r);
    free(res);
    heurnet_dom_search_free(s);
}

/* Settings the stage cannot take, each refused with its reason. */
static void refused(void)
{
    const char *ida[] = {"domain", "npuzzle:3x3", "algo", "idastar", "prove", "manhattan", NULL};
    const char *net[] = {"domain", "npuzzle:3x3", "algo", "beam", "prove", "ann:x.h5", NULL};
    const char *at[] = {"domain", "npuzzle:3x3", "algo", "beam", "prove-at", "0.5", NULL};
    const char *any[] = {"domain", "npuzzle:3x3", "algo", "anytime", "prove", "manhattan", NULL};
    const char *bad[] = {"domain", "npuzzle:3x3", "algo", "beam", "prove", "nosuch", NULL};
    const char *const *cases[] = {ida, net, at, any, bad};
    const char *why[] = {"idastar", "admissible", "--prove H", "--ida plain", "nosuch"};
    for (int k = 0; k < 5; k++) {
        int st = 0;
        heurnet_dom_search *s = open_words(cases[k], &st);
        CHECK_MSG(!s && st == HN_ERR_ARG && strstr(hn_errmsg(), why[k]), "case %d: %s", k,
                  hn_errmsg());
        heurnet_dom_search_free(s);
    }
    heurnet_dom_opts o;
    heurnet_dom_opts_default(&o);
    CHECK(heurnet_dom_opts_set(&o, HEURNET_DOM_OPT_PROVE_AT, "1.5") == HN_ERR_ARG);
    /* off drops a proof stage given before (a model's record), with its share */
    const char *off[] = {"domain", "npuzzle:3x3", "algo",  "beam", "prove-at", "0.5",
                         "prove",  "manhattan",   "prove", "off",  NULL};
    int st = 0;
    heurnet_dom_search *s = open_words(off, &st);
    CHECK_MSG(s && !heurnet_dom_search_settings(s)->prove, "--prove off: %s", hn_errmsg());
    heurnet_dom_search_free(s);
    CHECK(heurnet_dom_opts_set(&o, HEURNET_DOM_OPT_PROVE_AT, "0.3") == 0 && o.prove_at == 0.3);
}

int main(void)
{
    char dir[] = "hn_prove_XXXXXX"; /* the cube's fst table, built here */
    CHECK(mkdtemp(dir) != NULL);
    setenv("HEURNET_DATA", dir, 1);
    int improved;
    proof_is_optimal("npuzzle:3x3", "manhattan", "beam", "width", "64", 16, 4, &improved);
    CHECK_MSG(improved > 0, "the beam was never longer than the optimum");
    proof_is_optimal("cube3", "fst", "wastar", "weight", "5", 6, 1, &improved);
    CHECK_MSG(improved > 0, "weighted A* was never longer than the optimum");
    limits_kept();
    refused();
    char path[64];
    snprintf(path, sizeof path, "%s/dom-cube3-fst.prune4", dir);
    remove(path); /* 70 MB */
    return CHECK_DONE();
}
