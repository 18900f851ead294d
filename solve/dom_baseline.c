/* The admissible baseline of eval and bench search on any domain: which
 * heuristic it uses and whether eval runs it without being asked. */
#include <stdio.h>
#include <string.h>

#include "common/hn.h"
#include "solve/dom_search.h"

/* Eval runs the baseline by default only where an optimal search is
 * quick: the 8- and 15-puzzle (typical depths 22 and 52), not the
 * 24-puzzle (100, hours per board with 6-6-6-6) nor the cube (12 moves). */
#define BASELINE_MAX_DEPTH 60
#define BASELINE_MAX_MOVES 4

int heurnet_dom_baseline_heuristic(const dom *d, char *out, size_t cap)
{
    const char *list = dom_facts_of(d)->heuristics ? dom_facts_of(d)->heuristics : "";
    const char *pick = list;
    for (const char *p = list; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        if (!strncmp(p, "pdb:", 4)) {
            pick = p;
            break;
        }
    }
    size_t n = strcspn(pick, ",");
    if (!n)
        return hn_fail(HN_ERR_ARG, "domain %s names no admissible heuristic: give --baseline H",
                       dom_spec(d));
    if (n >= cap)
        return hn_fail(HN_ERR_ARG, "heuristic name %.*s does not fit", (int)n, pick);
    memcpy(out, pick, n);
    out[n] = '\0';
    return 0;
}

int heurnet_dom_baseline_default(const dom *d)
{
    const dom_facts *f = dom_facts_of(d);
    return f->typical_depth > 0 && f->typical_depth <= BASELINE_MAX_DEPTH &&
           dom_nmoves(d) <= BASELINE_MAX_MOVES;
}

int heurnet_dom_baseline_algo_parse(const char *name, int none_ok, int *algo)
{
    if (none_ok && !strcmp(name, "none")) {
        *algo = -1;
        return 0;
    }
    if (heurnet_dom_algo_parse(name, algo) ||
        (*algo != HEURNET_DOM_ASTAR && *algo != HEURNET_DOM_IDASTAR))
        return hn_fail(HN_ERR_ARG, "--baseline-algo must be astar%s idastar%s, not '%s'",
                       none_ok ? "," : " or", none_ok ? " or none" : "", name);
    return 0;
}
