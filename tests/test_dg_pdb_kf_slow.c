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
    if (kf_cache_begin(dir))
        return 1;
    hn_rng *rng = hn_rng_new(620);
    static const char *const named[][2] = {{"6-6-3", "4"}, {"7-8", "4"}, {"6-6-6-6", "5"}};
    kf_compare_named(named, 3, 3000, argc > 1 ? argv[1] : NULL, rng); /* one when named */
    hn_rng_free(rng);
    kf_cache_end(dir);
    return CHECK_DONE();
}
