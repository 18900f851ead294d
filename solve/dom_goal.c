/* A domain spec in another goal layout: the n-puzzle's --goal blank-first
 * or blank-last as the ":blank-last" suffix of its spec, so the commands
 * that take --goal (predict, eval, bench search) read a file of boards in
 * either layout and a model of the other layout reads them renamed. */
#include <stdio.h>
#include <string.h>

#include "common/hn.h"
#include "solve/dom_search.h"

int heurnet_dom_goal_spec(const char *spec, const char *goal, char *out, size_t cap)
{
    int last = goal && !strcmp(goal, "blank-last");
    if (!goal || (!last && strcmp(goal, "blank-first")))
        return hn_fail(HN_ERR_ARG, "the goal layout is blank-first or blank-last, not '%s'",
                       goal ? goal : "");
    if (strncmp(spec, "npuzzle:", 8))
        return hn_fail(HN_ERR_ARG, "domain %s has no goal layouts (--goal is the n-puzzle's)",
                       spec);
    char base[512];
    size_t n = strcspn(spec + 8, ":") + 8; /* "npuzzle:WxH" without its layout */
    if (n >= sizeof base)
        return hn_fail(HN_ERR_ARG, "domain spec '%.40s...' is too long", spec);
    memcpy(base, spec, n);
    base[n] = '\0';
    if ((size_t)snprintf(out, cap, "%s%s", base, last ? ":blank-last" : "") >= cap)
        return hn_fail(HN_ERR_ARG, "domain spec %s%s does not fit", base,
                       last ? ":blank-last" : "");
    return 0;
}

int heurnet_dom_puzzle_spec(int n, char *out, size_t cap)
{
    int w = 2;
    while ((w + 1) * (w + 1) <= n + 1)
        w++;
    if (w * w != n + 1 || w < 3)
        return hn_fail(HN_ERR_ARG, "the %d-puzzle is not a square board (8, 15, 24, 35, ...)", n);
    if ((size_t)snprintf(out, cap, "npuzzle:%dx%d", w, w) >= cap)
        return hn_fail(HN_ERR_ARG, "no room for the domain spec");
    return 0;
}
