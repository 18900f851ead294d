/* The npuzzle domain's heuristics on 3x4 and 4x3 against breadth-first
 * distances over all 239,500,800 reachable boards (a 479 MB table indexed
 * by permutation rank, filled layer by layer): too long for the unit run,
 * which checks boards up to 2x5. Every 101st board is compared. */
#define _DEFAULT_SOURCE /* mkdtemp, setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "domains/dom.h"

#define CELLS 12
#define PERMS 479001600u /* 12! */

static uint32_t perm_rank(const uint8_t *t)
{
    uint32_t r = 0, used = 0;
    for (int i = 0; i < CELLS; i++) {
        r = r * (uint32_t)(CELLS - i) +
            (uint32_t)(t[i] - __builtin_popcount(used & ((1u << t[i]) - 1)));
        used |= 1u << t[i];
    }
    return r;
}

static void perm_unrank(uint32_t r, uint8_t *s)
{
    int digit[CELLS];
    for (int i = CELLS - 1; i >= 0; i--) {
        digit[i] = (int)(r % (uint32_t)(CELLS - i));
        r /= (uint32_t)(CELLS - i);
    }
    uint32_t used = 0;
    for (int i = 0; i < CELLS; i++) {
        int c = 0;
        for (int seen = -1;; c++)
            if (!(used >> c & 1) && ++seen == digit[i])
                break;
        s[i] = (uint8_t)c;
        used |= 1u << c;
        if (c == 0)
            s[CELLS] = (uint8_t)i;
    }
}

/* Distances of every board from the goal; returns the count reached. */
static uint64_t bfs(const dom *d, uint8_t *dist)
{
    uint8_t s[DOM_MAX_STATE_BYTES], c[DOM_MAX_STATE_BYTES];
    memset(dist, 255, PERMS);
    dom_goal(d, s);
    dist[perm_rank(s)] = 0;
    uint64_t total = 1;
    for (int depth = 0;; depth++) {
        uint64_t found = 0;
        for (uint32_t r = 0; r < PERMS; r++) {
            if (dist[r] != depth)
                continue;
            perm_unrank(r, s);
            for (int m = 0; m < 4; m++) {
                memcpy(c, s, CELLS + 1);
                if (!dom_apply(d, c, m))
                    continue;
                uint32_t k = perm_rank(c);
                if (dist[k] == 255) {
                    dist[k] = (uint8_t)(depth + 1);
                    found++;
                }
            }
        }
        if (!found)
            return total;
        total += found;
    }
}

static void check_board(const char *spec, const char *custom, uint8_t *dist)
{
    int st;
    dom *d = dom_open(spec, &st);
    CHECK_MSG(d, "%s: %s", spec, hn_errmsg());
    if (!d)
        return;
    uint64_t n = bfs(d, dist);
    CHECK_MSG(n == PERMS / 2, "%s: %llu boards reached", spec, (unsigned long long)n);
    const char *names[] = {"manhattan", "lc", strrchr(dom_facts_of(d)->heuristics, ',') + 1,
                           custom};
    dom_heur *h[4];
    for (int i = 0; i < 4; i++) {
        h[i] = dom_heur_open(d, names[i], &st);
        CHECK_MSG(h[i], "%s %s: %s", spec, names[i], hn_errmsg());
    }
    uint64_t over[4] = {0}, checked = 0;
    uint8_t s[DOM_MAX_STATE_BYTES];
    for (uint32_t r = 0; r < PERMS; r += 101) {
        if (dist[r] == 255)
            continue;
        perm_unrank(r, s);
        checked++;
        for (int i = 0; i < 4; i++)
            over[i] += h[i] && dom_heur_eval(h[i], s) > dist[r];
    }
    for (int i = 0; i < 4; i++) {
        CHECK_MSG(over[i] == 0, "%s %s: above the distance on %llu of %llu boards", spec, names[i],
                  (unsigned long long)over[i], (unsigned long long)checked);
        dom_heur_free(h[i]);
    }
    fprintf(stderr, "%s: %llu boards, %llu compared\n", spec, (unsigned long long)n,
            (unsigned long long)checked);
    dom_free(d);
}

int main(void)
{
    char dir[] = "/tmp/hn-test-dnp-slow-XXXXXX";
    uint8_t *dist = malloc(PERMS);
    if (!dist || !mkdtemp(dir) || setenv("HEURNET_DATA", dir, 1))
        return 1;
    check_board("npuzzle:3x4", "pdb:4-4-3", dist);
    check_board("npuzzle:4x3:blank-last", "pdb:3-3-3-2", dist);
    free(dist);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return CHECK_DONE();
}
