/* The incremental heuristic update (dom_def's heur_delta) against whole
 * evaluation: on the n-puzzle's boards, squares, rectangles and both goal
 * layouts, Manhattan distance and linear conflicts after every move of
 * random walks equal heur_eval of the child, an illegal move answers -1,
 * pattern databases with one view and with the mirrored one too; a
 * definition built before the hook, or one that declines every heuristic,
 * is valued without it. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "domains/dom.h"

/* Every move from every state of `walks` random walks: the update equals
 * the child's value (or -1 for an illegal move). Returns the moves checked. */
static long check_walks(const dom *d, const dom_heur *h, int walks, hn_rng *rng)
{
    uint8_t s[DOM_MAX_STATE_BYTES], c[DOM_MAX_STATE_BYTES];
    size_t sb = dom_state_bytes(d);
    long checked = 0;
    for (int w = 0; w < walks; w++) {
        dom_goal(d, s);
        int len = 1 + (int)hn_rng_below(rng, 120);
        for (int step = 0; step < len; step++) {
            int hv = dom_heur_eval(h, s);
            for (int m = 0; m < dom_nmoves(d); m++) {
                memcpy(c, s, sb);
                int legal = dom_apply(d, c, m);
                int want = legal ? dom_heur_eval(h, c) : -1, got = dom_heur_delta(h, s, m, hv);
                CHECK_MSG(got == want, "%s %s: step %d move %d: update %d, child %d",
                          dom_canonical(d), dom_heur_name(h), step, m, got, want);
                checked++;
            }
            dom_walk(d, s, 1, rng);
        }
    }
    return checked;
}

static void boards(hn_rng *rng)
{
    static const char *const SPECS[] = {
        "npuzzle:2x2", "npuzzle:3x3", "npuzzle:4x4", "npuzzle:4x4:blank-last",
        "npuzzle:3x5", "npuzzle:6x2", "npuzzle:5x5", "npuzzle:8x8"};
    for (size_t i = 0; i < sizeof SPECS / sizeof SPECS[0]; i++) {
        int st;
        dom *d = dom_open(SPECS[i], &st);
        CHECK_MSG(d != NULL, "%s: %s", SPECS[i], hn_errmsg());
        for (int k = 0; d && k < 2; k++) {
            dom_heur *h = dom_heur_open(d, k ? "lc" : "manhattan", &st);
            CHECK(h != NULL && dom_heur_has_delta(h));
            if (h)
                CHECK(check_walks(d, h, 40, rng) > 1000);
            dom_heur_free(h);
        }
        dom_free(d);
    }
}

/* Pattern databases (built into a folder of the test's own) are updated
 * too: with one view (a rectangle, or :noreflect) by the moved tile's
 * group, with the mirrored view as well by valuing the child whole. */
static void pattern_database(hn_rng *rng)
{
    static const char *const CASES[][2] = {
        {"npuzzle:2x3", "pdb:3-2"},
        {"npuzzle:3x3", "pdb:4-4"},
        {"npuzzle:3x3", "pdb:4-4:noreflect"},
        {"npuzzle:3x3:blank-last", "pdb:1.2.5/3.4.6.7.8"},
    };
    char dir[] = "/tmp/hn_delta_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    setenv("HEURNET_DATA", dir, 1);
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        int st;
        dom *d = dom_open(CASES[i][0], &st);
        dom_heur *h = d ? dom_heur_open(d, CASES[i][1], &st) : NULL;
        CHECK_MSG(h != NULL, "%s %s: %s", CASES[i][0], CASES[i][1], hn_errmsg());
        if (h) {
            CHECK(dom_heur_has_delta(h));
            CHECK(check_walks(d, h, 20, rng) > 100);
        }
        dom_heur_free(h);
        dom_free(d);
    }
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

static int decline(const void *heur, const void *state, int move, int h)
{
    (void)heur;
    (void)state;
    (void)move;
    (void)h;
    return DOM_HEUR_NO_DELTA;
}

/* A definition from before the hook (its struct ends at symmetric_path)
 * and one whose hook declines: the host values children whole. */
static void without_the_hook(hn_rng *rng)
{
    dom_def old = *dom_builtin(0), none = *dom_builtin(0);
    CHECK(!strcmp(old.name, "npuzzle") && old.heur_delta != NULL);
    old.struct_size = (uint32_t)offsetof(dom_def, heur_delta);
    none.heur_delta = decline;
    const dom_def *defs[2] = {&old, &none};
    for (int i = 0; i < 2; i++) {
        int st;
        dom *d = dom_open_def(defs[i], "4x4", &st);
        dom_heur *h = d ? dom_heur_open(d, "lc", &st) : NULL;
        CHECK_MSG(h != NULL, "%s", hn_errmsg());
        if (h) {
            CHECK(!dom_heur_has_delta(h));
            CHECK(check_walks(d, h, 10, rng) > 100);
        }
        dom_heur_free(h);
        dom_free(d);
    }
}

/* One more than the true update: a defect `domain check` must report. */
static int off_by_one(const void *heur, const void *state, int move, int h)
{
    int v = dom_builtin(0)->heur_delta(heur, state, move, h);
    return v >= 0 ? v + 1 : v;
}

/* dom_check compares every update with the child's value along walks: the
 * built-in domain passes with checks counted, a wrong update fails and is
 * named. */
static void domain_check(void)
{
    dom_def bad = *dom_builtin(0);
    bad.name = "npbad";
    bad.heur_delta = off_by_one;
    const dom_def *defs[2] = {dom_builtin(0), &bad};
    for (int i = 0; i < 2; i++) {
        int st;
        dom *d = dom_open_def(defs[i], "3x3", &st);
        CHECK(d != NULL);
        dom_check_opts o = DOM_CHECK_OPTS_DEFAULTS;
        o.walks = 20;
        o.heuristics = "lc,manhattan";
        dom_check_report r;
        CHECK(d && dom_check(d, &o, &r) == 0);
        if (i == 0)
            CHECK_MSG(r.failures == 0 && r.delta_checks > 500, "%llu failures: %s",
                      (unsigned long long)r.failures, r.first);
        else
            CHECK_MSG(r.failures == 2 && strstr(r.first, "heur_delta") &&
                          strstr(r.first, "lc after"),
                      "%llu failures: %s", (unsigned long long)r.failures, r.first);
        dom_free(d);
    }
}

int main(void)
{
    hn_rng *rng = hn_rng_new(62);
    boards(rng);
    pattern_database(rng);
    without_the_hook(rng);
    domain_check();
    hn_rng_free(rng);
    return CHECK_DONE();
}
