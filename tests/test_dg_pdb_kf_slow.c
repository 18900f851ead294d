/* The large named n-puzzle partitions on the domain path against
 * search/npuzzle/'s: pdb:6-6-3 and pdb:7-8 (4x4), pdb:6-6-6-6 (5x5), both
 * goal layouts, with and without the mirrored lookup, on random and
 * near-goal boards. Builds every table (7-8: 519 M entries; 6-6-6-6:
 * 4 x 128 M) on both paths with 2 threads, so it takes minutes and about
 * 3 GB; the build times it prints are the builders' comparison of
 * docs/domains.md. */
#define _DEFAULT_SOURCE /* mkdtemp, setenv */
#include <stdlib.h>

#include "pdb_kf.h"

int main(int argc, char **argv)
{
    char dir[] = "/tmp/hn-test-kf-slow-XXXXXX";
    if (!mkdtemp(dir) || setenv("HEURNET_DATA", dir, 1))
        return 1;
    hn_rng *rng = hn_rng_new(620);
    static const char *const named[][2] = {{"6-6-3", "4"}, {"7-8", "4"}, {"6-6-6-6", "5"}};
    for (int i = 0; i < 3; i++) {
        if (argc > 1 && strcmp(argv[1], named[i][0]))
            continue; /* one partition when named */
        double t0 = hn_now();
        kf_compare(named[i][0], atoi(named[i][1]), 3000, rng);
        printf("pdb:%s: np build %.1f s, domain build %.1f s (blank-last %.1f s), all %.1f s\n",
               named[i][0], kf_seconds_np, kf_seconds_dom[0], kf_seconds_dom[1], hn_now() - t0);
        fflush(stdout);
    }
    hn_rng_free(rng);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return CHECK_DONE();
}
