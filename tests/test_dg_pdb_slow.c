/* The 7-8 PDB (slow: minutes to build; reuses the cache file when present):
 * admissible on all of Korf's 100, mean initial heuristic with reflection
 * as published for the blank-aware construction (45.6, Felner, Korf & Hanan
 * 2004), and IDA* reaches the known optimal lengths. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "datagen/dg.h"

static srch_np_pdb *get_78(const srch_np_partition *part)
{
    char path[4096];
    const char *env = getenv("HEURNET_DATA"), *home = getenv("HOME");
    if (env && env[0])
        snprintf(path, sizeof path, "%s/npuzzle15-7-8.pdb", env);
    else
        snprintf(path, sizeof path, "%s/.cache/heurnet/npuzzle15-7-8.pdb", home ? home : ".");
    int st;
    srch_np_pdb *p = access(path, R_OK) == 0 ? srch_np_pdb_load(path, part, &st) : NULL;
    if (p) {
        fprintf(stderr, "using %s\n", path);
        return p;
    }
    fprintf(stderr, "building 7-8 (no usable cache file at %s)\n", path);
    st = dg_pdb_build(part, 2, NULL, NULL, &p);
    CHECK_MSG(st == 0, "%s", hn_errmsg());
    return p;
}

int main(void)
{
    srch_np_partition part;
    CHECK(srch_np_partition_get("7-8", 4, &part) == 0);
    srch_np_pdb *p = get_78(&part);
    srch_np_instance *inst;
    size_t n;
    CHECK(srch_np_parse_file(HN_TEST_DATA "/npuzzle/korf100.txt", 4, 0, NULL, NULL, &inst, &n) ==
          0);
    if (!p || n != 100)
        return CHECK_DONE();
    srch_np_heur *h = srch_np_heur_pdb_new(p, 0, 1, 1, NULL);
    double mean = 0;
    int over = 0;
    for (size_t i = 0; i < n; i++) {
        int v = srch_np_heur_eval(h, &inst[i].board);
        mean += v;
        over += v > inst[i].optimal;
    }
    mean /= (double)n;
    CHECK(over == 0);
    CHECK_MSG(mean > 45.5 && mean < 45.7, "mean h0 %.3f", mean);
    for (size_t i = 0; i < 20; i++) {
        srch_np_result res;
        CHECK(srch_np_idastar(&inst[i].board, h, NULL, &res) == 0);
        CHECK_MSG(res.length == inst[i].optimal, "instance %zu: %d vs %d", i + 1, res.length,
                  inst[i].optimal);
    }
    srch_np_heur_free(h);
    free(inst);
    return CHECK_DONE();
}
