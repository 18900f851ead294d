/* The cube's symmetry-reduced pruning table "fst" (cube3_prune.c): the 16
 * U-D symmetries and the coordinates against cubie-level computations, the
 * class count, the table's distances against a plain breadth-first search
 * over the same coordinate, the heuristic admissible and consistent on
 * walks and on cubes with known optimal lengths; and IDA* compiled for the
 * cube on it (search/generic/gen_ida_cube.c): its nodes against cubes
 * turned by the domain, its inverse lookups against the inverse cube's,
 * its optima against breadth-first distances (every cube within 6 quarter
 * turns of solved) and against the function table's IDA* on longer
 * scrambles. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "cube3_ball.h"
#include "domains/cube3/cube3_fast.h"
#include "domains/cube3/cube3_prune.h"
#include "domains/dom.h"
#include "search/generic/srch_dom.h"

#define SB C3_STATE_BYTES
#define BFS_DEPTH 6

static void random_walk(const dom *d, hn_rng *r, uint8_t *s, int n)
{
    dom_goal(d, s);
    for (int i = 0; i < n; i++)
        dom_apply(d, s, (int)hn_rng_below(r, C3_MOVES));
}

static int same_coord(dom_c3_coord a, dom_c3_coord b)
{
    return a.flip == b.flip && a.slice == b.slice && a.twist == b.twist;
}

/* Coordinates of random cubes: read back, moved like the cube, and
 * conjugated like the cube whatever the other cubies are. */
static void check_coords(const dom *d, const dom_c3_coords *co, hn_rng *r)
{
    const c3 *c = dom_instance(d);
    uint8_t s[SB], t[SB], u[SB];
    int bad_move = 0, bad_sym = 0, bad_back = 0, bad_class = 0;
    for (int i = 0; i < 300; i++) {
        random_walk(d, r, s, 40);
        dom_c3_coord x, y, z;
        dom_c3_coord_of(co, s, &x);
        dom_c3_coord_state(co, &x, t);
        dom_c3_coord_of(co, t, &y);
        bad_back += !same_coord(x, y);
        for (int m = 0; m < C3_MOVES; m++) {
            memcpy(t, s, SB);
            dom_apply(d, t, m);
            dom_c3_coord_of(co, t, &y);
            z = (dom_c3_coord){co->flip_move[x.flip][m], co->slice_move[x.slice * C3_MOVES + m],
                               co->twist_move[x.twist][m]};
            bad_move += !same_coord(y, z);
        }
        for (int k = 0; k < C3P_SYMS; k++) {
            dom_c3_udsym_apply(&co->sym[k], s, u);
            dom_c3_coord_of(co, u, &y);
            uint32_t e = dom_c3_edge_conj(co, k, x.flip * co->nslice + x.slice);
            bad_sym += y.flip * co->nslice + y.slice != e || y.twist != co->twist_conj[k][x.twist];
            /* the class index (built from tables) agrees with the cubes:
             * the same class, and its symmetry leads to the representative */
            uint32_t cs = co->edge_class[x.flip * co->nslice + x.slice];
            bad_class += co->edge_class[e] / C3P_SYMS != cs / C3P_SYMS;
            dom_c3_udsym_apply(&co->sym[cs % C3P_SYMS], s, u);
            dom_c3_coord_of(co, u, &y);
            bad_class += y.flip * co->nslice + y.slice != co->class_rep[cs / C3P_SYMS];
        }
    }
    CHECK_MSG(!bad_back && !bad_move && !bad_sym && !bad_class,
              "round trip %d, moves %d, symmetries %d, classes %d", bad_back, bad_move, bad_sym,
              bad_class);
    /* the symmetries keep the solved cube and the U-D axis (U turns stay U
     * or D turns: a U turn's cubies stay in the U or D layer) */
    uint8_t g[SB];
    dom_goal(d, g);
    int moved_goal = 0;
    for (int k = 0; k < C3P_SYMS; k++) {
        dom_c3_udsym_apply(&co->sym[k], g, u);
        moved_goal += memcmp(u, g, SB) != 0;
        dom_c3_udsym_apply(&co->sym[co->sym_inv[k]], s, t);
        dom_c3_udsym_apply(&co->sym[k], t, u);
        CHECK(!memcmp(u, s, SB));
    }
    CHECK(moved_goal == 0);
    CHECK(co->axis_sym[1] > 0 && co->axis_sym[2] > 0 && co->axis_sym[1] != co->axis_sym[2]);
    (void)c;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t pack(dom_c3_coord x)
{
    return ((uint64_t)x.flip * C3P_SLICE_SORTED + x.slice) * C3P_TWISTS + x.twist;
}

static dom_c3_coord unpack(uint64_t k)
{
    return (dom_c3_coord){(uint32_t)(k / C3P_TWISTS / C3P_SLICE_SORTED),
                          (uint32_t)(k / C3P_TWISTS % C3P_SLICE_SORTED),
                          (uint32_t)(k % C3P_TWISTS)};
}

static int seen_before(const uint64_t *v, size_t n, uint64_t k)
{
    return bsearch(&k, v, n, sizeof k, cmp_u64) != NULL;
}

/* Plain breadth-first search over the raw coordinate (no symmetry, no
 * table), depth by depth: every coordinate it reaches at depth d has table
 * distance d, and random coordinates it never reaches have more. */
static void check_against_bfs(const void *h, const dom_c3_coords *co, hn_rng *r)
{
    size_t cap = 4000000, nall = 1, nfront = 1;
    uint64_t *all = malloc(cap * sizeof *all), *front = malloc(cap * sizeof *front);
    uint64_t *next = malloc(cap * sizeof *next);
    if (!all || !front || !next) {
        CHECK(0);
        return;
    }
    front[0] = all[0] = pack((dom_c3_coord){0, co->goal_slice, 0});
    long counts[BFS_DEPTH + 1] = {1}, wrong = 0;
    for (int depth = 1; depth <= BFS_DEPTH; depth++) {
        size_t nn = 0;
        for (size_t i = 0; i < nfront && nn + C3_MOVES <= cap; i++) {
            dom_c3_coord x = unpack(front[i]);
            for (int m = 0; m < C3_MOVES; m++) {
                dom_c3_coord y = {co->flip_move[x.flip][m], co->slice_move[x.slice * C3_MOVES + m],
                                  co->twist_move[x.twist][m]};
                uint64_t k = pack(y);
                if (!seen_before(all, nall, k))
                    next[nn++] = k;
            }
        }
        qsort(next, nn, sizeof *next, cmp_u64);
        size_t u = 0;
        for (size_t i = 0; i < nn; i++)
            if (!u || next[i] != next[u - 1])
                next[u++] = next[i];
        CHECK(nall + u <= cap);
        for (size_t i = 0; i < u; i++) {
            dom_c3_coord x = unpack(next[i]);
            wrong += dom_c3_prune_exact(h, &x) != depth;
            all[nall++] = next[i];
        }
        qsort(all, nall, sizeof *all, cmp_u64);
        memcpy(front, next, u * sizeof *next);
        nfront = u;
        counts[depth] = (long)u;
    }
    CHECK_MSG(wrong == 0, "%ld coordinates within %d moves at another table distance", wrong,
              BFS_DEPTH);
    /* U and D turns keep twist, flip and slice; X and X' give the same
     * twist, flip and slice edge positions (the slice edges' order differs) */
    CHECK_MSG(counts[1] == (co->sorted ? 8 : 4), "%ld coordinates at depth 1", counts[1]);
    long beyond = 0;
    for (int i = 0; i < 2000; i++) {
        dom_c3_coord x = {hn_rng_below(r, C3P_FLIPS), hn_rng_below(r, co->nslice),
                          hn_rng_below(r, C3P_TWISTS)};
        if (!seen_before(all, nall, pack(x)))
            beyond += dom_c3_prune_exact(h, &x) <= BFS_DEPTH;
    }
    CHECK_MSG(beyond == 0, "%ld coordinates beyond the search within %d moves", beyond, BFS_DEPTH);
    free(all);
    free(front);
    free(next);
}

/* The bound on cubes: 0 at solved, at most a walk's length, consistent
 * (a turn changes it by at most 1), equal to the uncached maximum of the
 * three axes' distances, and at most the known optimal lengths. */
static void check_heuristic(const dom *d, const dom_heur *dh, const void *h, hn_rng *r)
{
    const c3 *c = dom_instance(d);
    const dom_c3_coords *co = dom_c3_prune_coords(h);
    uint8_t s[SB], t[SB];
    dom_goal(d, s);
    CHECK(dom_heur_eval(dh, s) == 0);
    long over = 0, jumps = 0, uncached = 0, sum = 0;
    for (int w = 0; w < 200; w++) {
        dom_goal(d, s);
        int prev = 0, len = 1 + w % 20;
        for (int i = 1; i <= len; i++) {
            dom_apply(d, s, (int)hn_rng_below(r, C3_MOVES));
            int v = dom_heur_eval(dh, s);
            over += v > i;
            jumps += abs(v - prev) > 1;
            prev = v;
        }
        int best = 0;
        for (int a = 0; a < 3; a++) {
            dom_c3_coord x;
            if (a)
                dom_c3_conjugate(c, co->axis_sym[a], s, t);
            dom_c3_coord_of(co, a ? t : s, &x);
            int e = dom_c3_prune_exact(h, &x);
            best = e > best ? e : best;
        }
        uncached += best != prev;
        sum += prev;
    }
    CHECK_MSG(!over && !jumps && !uncached, "above the walk %ld, jumps %ld, cache differs %ld",
              over, jumps, uncached);
    CHECK(sum > 200); /* not a trivial bound */
    char path[4096], line[512];
    snprintf(path, sizeof path, "%s/cube3/own/cube3-walk10-16-optimal.txt", HN_TEST_DATA);
    FILE *f = fopen(path, "r");
    CHECK_MSG(f != NULL, "%s", path);
    int n = 0, above = 0;
    while (f && fgets(line, sizeof line, f)) {
        int id, opt;
        char text[128];
        if (line[0] == '#' || sscanf(line, "%d %d %127s", &id, &opt, text) != 3)
            continue;
        CHECK(dom_parse_state(d, text, s) == 0);
        above += dom_heur_eval(dh, s) > opt;
        n++;
    }
    if (f)
        fclose(f);
    CHECK_MSG(n == 60 && above == 0, "%d cubes, %d above the optimum", n, above);
}

/* A node kept by turns equals the node made from the turned cube, and its
 * inverse's bound is the bound of the inverse cube (dom_symmetric map 1). */
static void check_nodes(const dom *d, const void *handle, hn_rng *r)
{
    const c3_fast *f = dom_c3_fast_of(handle);
    CHECK(f != NULL);
    long differ = 0, inverse = 0, parity = 0, steps = 0;
    for (int w = 0; f && w < 200; w++) {
        uint8_t s[SB], t[SB];
        dom_goal(d, s);
        c3f_node n, c, fresh, inv;
        memset(&c, 0, sizeof c); /* padding too: nodes are compared whole */
        dom_c3_fast_node(handle, s, &n);
        for (int i = 0; i < 1 + w % 25; i++, steps++) {
            int m = (int)hn_rng_below(r, 12);
            c3f_turn(f, &n, m, &c);
            c3f_turn_inverse(f, &n, m, &c);
            dom_apply(d, s, m);
            dom_c3_fast_node(handle, s, &fresh);
            differ += memcmp(&c, &fresh, sizeof c) != 0;
            dom_symmetric(d, s, 1, t);
            dom_c3_fast_node(handle, t, &inv);
            inverse += c3f_bound_inverse(f, &c) != c3f_bound_cube(f, &inv);
            parity += c.parity != (i + 1) % 2;
            n = c;
        }
    }
    CHECK_MSG(!differ && !inverse && !parity && steps > 2000,
              "%ld steps: %ld nodes differ, %ld inverse bounds, %ld parities", steps, differ,
              inverse, parity);
}

/* The optimum of cubes in the ball is their breadth-first distance; the
 * start's bound has the distance's parity and stays below it. */
static void check_ida_against_bfs(const dom *d, srch_dom_heur *h, hn_rng *r)
{
    ball b;
    uint8_t s[SB];
    dom_goal(d, s);
    CHECK(ball_build(&b, d, s, BFS_DEPTH, 1200000) == 0);
    srch_dom_result *res = malloc(sizeof *res);
    int wrong = 0, bound = 0, n = 0;
    for (int depth = 0; res && depth <= BFS_DEPTH; depth++) {
        size_t lo = b.level[depth], hi = b.level[depth + 1];
        for (int k = 0; k < 50 && lo < hi; k++, n++) {
            size_t i = lo + hn_rng_below(r, (uint32_t)(hi - lo));
            int st = srch_dom_idastar(d, b.state + i * SB, h, NULL, res);
            wrong += st || res->length != depth || !res->proven ||
                     ball_depth(&b, d, b.state + i * SB) != depth;
            bound += res->h0 > depth || (depth - res->h0) % 2;
        }
    }
    CHECK_MSG(n > 300 && !wrong && !bound, "%d cubes: %d not at their distance, %d bounds wrong", n,
              wrong, bound);
    free(res);
    ball_free(&b);
}

/* Scrambles of 9-12 turns: the same optimal length as IDA* through the
 * function table on the same table without the inverse and parity ("max"
 * keeps the search off the cube's pass), in fewer nodes. */
static void check_against_table(const dom *d, srch_dom_heur *fast, hn_rng *r)
{
    int st;
    srch_dom_heur *table = srch_dom_heur_adm(d, "max:fst,manhattan", &st);
    CHECK_MSG(table != NULL, "%s", hn_errmsg());
    srch_dom_result *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    uint64_t na = 0, nb = 0;
    int differ = 0;
    for (int k = 0; table && a && b && k < 12; k++) {
        uint8_t s[SB];
        dom_goal(d, s);
        dom_walk(d, s, 9 + k % 4, r);
        CHECK(srch_dom_idastar(d, s, fast, NULL, a) == 0);
        CHECK(srch_dom_idastar(d, s, table, NULL, b) == 0);
        differ += a->length != b->length || !a->proven || !b->proven;
        na += a->expanded;
        nb += b->expanded;
    }
    CHECK_MSG(!differ && na < nb, "%d lengths differ; expanded %llu against %llu", differ,
              (unsigned long long)na, (unsigned long long)nb);
    free(a);
    free(b);
    srch_dom_heur_free(table);
}

int main(void)
{
    int st;
    dom *d = dom_open("cube3", &st);
    CHECK_MSG(d != NULL, "%s", hn_errmsg());
    if (!d)
        return CHECK_DONE();
    char dir[] = "/tmp/hn_c3prune_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    setenv("HEURNET_DATA", dir, 1);
    hn_rng *r = hn_rng_new(65);
    clock_t t0 = clock();
    dom_heur *dh = dom_heur_open(d, "fst", &st);
    CHECK_MSG(dh != NULL, "%s", hn_errmsg());
    double built = (double)(clock() - t0) / CLOCKS_PER_SEC;
    const c3 *c = dom_instance(d);
    void *h = dom_c3_prune_open(c, "fst"); /* from the cache file */
    CHECK_MSG(h != NULL, "%s", hn_errmsg());
    if (dh && h) {
        const dom_c3_coords *co = dom_c3_prune_coords(h);
        CHECK_MSG(co->nclass == 64430, "%u classes", co->nclass);
        check_coords(d, co, r);
        check_against_bfs(h, co, r);
        check_heuristic(d, dh, h, r);
        check_nodes(d, h, r);
    }
    srch_dom_heur *sh = dh ? srch_dom_heur_adm_borrow(d, dh, &st) : NULL;
    CHECK_MSG(!dh || sh != NULL, "%s", hn_errmsg());
    if (sh) {
        check_ida_against_bfs(d, sh, r);
        check_against_table(d, sh, r);
    }
    srch_dom_heur_free(sh);
    fprintf(stderr, "fst: opened (built) in %.1f CPU s\n", built);
    dom_c3_prune_free(h);
    dom_heur_free(dh);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    hn_rng_free(r);
    dom_free(d);
    return CHECK_DONE();
}
