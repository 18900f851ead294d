/* IDA* with the n-puzzle's pattern databases by every instantiation of
 * its pass: the built-in domain's own (one table read per view and child,
 * npuzzle_fast.h), a renamed copy of the definition (the function table
 * with heur_delta), the copy as a plug-in built before the hook (children
 * valued whole) and max:H (not a plain leaf). Same lengths, expansions,
 * children and start values on squares (both views) and rectangles, both
 * goal layouts, with and without the mirrored view; a blank-last board
 * valued as its turned blank-first board, from the same files. Tables are
 * built into a folder of the test's own. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "search/generic/srch_dom.h"

static void compare(const char *args, const char *heur, int boards, int walk, hn_rng *rng)
{
    dom_def copy = *dom_builtin(0), old = *dom_builtin(0);
    copy.name = "npcopy";
    old.name = "npold";
    old.struct_size = (uint32_t)offsetof(dom_def, heur_delta);
    char spec[64], mx[80];
    snprintf(spec, sizeof spec, "npuzzle:%s", args);
    snprintf(mx, sizeof mx, "max:%s", heur);
    int st;
    dom *d[4] = {dom_open(spec, &st), dom_open_def(&copy, args, &st), dom_open_def(&old, args, &st),
                 NULL};
    d[3] = d[0];
    srch_dom_heur *h[4] = {NULL};
    for (int k = 0; k < 4; k++)
        h[k] = d[k] ? srch_dom_heur_adm(d[k], k == 3 ? mx : heur, &st) : NULL;
    CHECK_MSG(h[0] && h[1] && h[2] && h[3], "%s %s: %s", spec, heur, hn_errmsg());
    for (int i = 0; h[0] && h[1] && h[2] && h[3] && i < boards; i++) {
        static srch_dom_result g[4];
        uint8_t s[DOM_MAX_STATE_BYTES];
        dom_goal(d[0], s);
        dom_walk(d[0], s, walk + 2 * i, rng);
        for (int k = 0; k < 4; k++)
            CHECK(srch_dom_idastar(d[k], s, h[k], NULL, &g[k]) == 0);
        for (int k = 1; k < 4; k++)
            CHECK_MSG(g[k].length == g[0].length && g[k].expanded == g[0].expanded &&
                          g[k].generated == g[0].generated && g[k].h0 == g[0].h0,
                      "%s %s pass %d: length %d/%d expanded %llu/%llu generated %llu/%llu", spec,
                      heur, k, g[k].length, g[0].length, (unsigned long long)g[k].expanded,
                      (unsigned long long)g[0].expanded, (unsigned long long)g[k].generated,
                      (unsigned long long)g[0].generated);
        CHECK(g[0].expanded > 0);
    }
    for (int k = 0; k < 4; k++)
        srch_dom_heur_free(h[k]);
    for (int k = 0; k < 3; k++)
        dom_free(d[k]);
}

/* A blank-last board read through the 180-degree turn: its value is the
 * blank-first value of the turned board (tile t -> cells - t on cell
 * cells - 1 - c) under the turned groups, both with the mirrored view
 * where the board is square, and the two layouts share one file per
 * group (no blank-last file is made). */
static void turned(const char *args, const char *last, const char *first, hn_rng *rng)
{
    char dir[] = "/tmp/hn_srch_turn_XXXXXX", spec[2][64], cmd[64];
    CHECK(mkdtemp(dir) != NULL);
    setenv("HEURNET_DATA", dir, 1);
    snprintf(spec[0], sizeof spec[0], "npuzzle:%s:blank-last", args);
    snprintf(spec[1], sizeof spec[1], "npuzzle:%s", args);
    int st;
    dom *d[2] = {dom_open(spec[0], &st), dom_open(spec[1], &st)};
    dom_heur *h[2] = {d[0] ? dom_heur_open(d[0], last, &st) : NULL,
                      d[1] ? dom_heur_open(d[1], first, &st) : NULL};
    CHECK_MSG(h[0] && h[1], "%s: %s", spec[0], hn_errmsg());
    size_t cells = d[0] ? dom_state_bytes(d[0]) - 1 : 0;
    for (int i = 0; h[0] && h[1] && i < 200; i++) {
        uint8_t s[DOM_MAX_STATE_BYTES], t[DOM_MAX_STATE_BYTES];
        dom_goal(d[0], s);
        dom_walk(d[0], s, 1 + i, rng);
        for (size_t c = 0; c < cells; c++)
            t[cells - 1 - c] = s[c] ? (uint8_t)(cells - s[c]) : 0;
        t[cells] = (uint8_t)(cells - 1 - s[cells]);
        CHECK_MSG(dom_heur_eval(h[0], s) == dom_heur_eval(h[1], t), "%s %s: %d, turned %d", spec[0],
                  last, dom_heur_eval(h[0], s), dom_heur_eval(h[1], t));
    }
    for (int k = 0; k < 2; k++) {
        dom_heur_free(h[k]);
        dom_free(d[k]);
    }
    snprintf(cmd, sizeof cmd, "ls %s | grep -vq blank0-", dir);
    CHECK_MSG(system(cmd) != 0, "%s: a table for another blank cell than 0", spec[0]);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

int main(void)
{
    char dir[] = "/tmp/hn_srch_pdb_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    setenv("HEURNET_DATA", dir, 1);
    hn_rng *rng = hn_rng_new(62);
    compare("3x3", "pdb:4-4", 8, 20, rng);
    compare("3x3", "pdb:4-4:noreflect", 8, 20, rng);
    compare("4x4", "pdb:3-3-3-3-3", 8, 30, rng);
    compare("4x4", "pdb:3-3-3-3-3:noreflect", 6, 30, rng);
    compare("4x4:blank-last", "pdb:1.2.5/3.4.8/6.7.11/9.10.13/12.14.15", 6, 30, rng);
    compare("3x4", "pdb:4-4-3", 6, 30, rng);
    turned("3x3", "pdb:8", "pdb:8", rng);
    turned("4x4", "pdb:1.2.5/3.4.8/6.7.11/9.10.13/12.14.15",
           "pdb:15.14.11/13.12.8/10.9.5/7.6.3/4.2.1", rng);
    turned("3x4", "pdb:1.2.3.4/5.6.7.8/9.10.11", "pdb:11.10.9.8/7.6.5.4/3.2.1", rng);
    hn_rng_free(rng);
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    return CHECK_DONE();
}
