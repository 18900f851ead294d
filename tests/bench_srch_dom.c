/* Benchmark (not a test): the generic search core against the specialized
 * n-puzzle searches on the same boards, one after the other, each run
 * `reps` times (the fastest counts). IDA* on the given lines of an
 * instance file (Korf's 100), A* on random walks from the goal; both with
 * Manhattan distance. Prints one TSV row per board and search and the
 * ratio of the total times. scripts/bench_domain.sh runs it:
 *   build/tests/bench_srch_dom instances/npuzzle/korf100.txt 3 IDS... -- WALKS STEPS
 * A negative REPS lists the boards specialized IDA* solves within -REPS
 * million expansions (to pick IDS). Two more modes (bench_ida, pick_boards
 * below): IDA* with Manhattan, linear conflicts or a PDB on a board file by every
 * pass of the generic IDA*, and the picking of moderate boards for it:
 *   build/tests/bench_srch_dom --ida instances/npuzzle/own/15puzzle-ida.txt 3 lc
 *   build/tests/bench_srch_dom --ida instances/npuzzle/korf100.txt 1 pdb:7-8
 *   build/tests/bench_srch_dom --pick 6262 16 500000 8000000 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/generic/srch_dom.h"
#include "search/npuzzle/ann.h"
#include "search/srch.h"
#include "solve/pdb_cache.h"

typedef struct {
    double spec_s, gen_s;
    uint64_t spec_n, gen_n;
} totals;

static void report(const char *algo, const char *id, int len, uint64_t ns, double ts, uint64_t ng,
                   double tg, totals *t)
{
    printf("%s\t%s\t%d\t%llu\t%.4f\t%llu\t%.4f\t%.0f\t%.0f\t%.3f\n", algo, id, len,
           (unsigned long long)ns, ts, (unsigned long long)ng, tg, ns / ts, ng / tg, tg / ts);
    t->spec_s += ts;
    t->gen_s += tg;
    t->spec_n += ns;
    t->gen_n += ng;
}

/* Both searches on one board, `reps` times each, interleaved. */
static int run_pair(int ida, const dom *d, srch_dom_heur *h, const srch_np_heur *md,
                    const srch_np_board *b, const char *id, int reps, totals *t)
{
    char text[256];
    uint8_t s[DOM_MAX_STATE_BYTES];
    srch_np_board_format(b, text, sizeof text);
    if (dom_parse_state(d, text, s))
        return 1;
    static srch_np_result r;
    static srch_dom_result g;
    double ts = 1e30, tg = 1e30;
    for (int k = 0; k < reps; k++) {
        int a = ida ? srch_np_idastar(b, md, NULL, &r) : srch_np_astar(b, md, NULL, &r);
        int c = ida ? srch_dom_idastar(d, s, h, NULL, &g) : srch_dom_astar(d, s, h, NULL, NULL, &g);
        if (a || c || r.expanded != g.expanded || r.length != g.length) {
            fprintf(stderr, "board %s: status %d/%d, expanded %llu/%llu\n", id, a, c,
                    (unsigned long long)r.expanded, (unsigned long long)g.expanded);
            return 1;
        }
        ts = r.seconds < ts ? r.seconds : ts;
        tg = g.seconds < tg ? g.seconds : tg;
    }
    report(ida ? "idastar" : "astar", id, r.length, r.expanded, ts, g.expanded, tg, t);
    return 0;
}

static void summary(const char *algo, const totals *t)
{
    printf("# %s: specialized %.0f expansions/s, generic %.0f expansions/s, time ratio "
           "generic/specialized %.3f\n",
           algo, t->spec_n / t->spec_s, t->gen_n / t->gen_s, t->gen_s / t->spec_s);
}

/* BENCH_BEAM=W and BENCH_BWAS=B,W: the generic beam search and batch
 * weighted A* with the same heuristic on the same board (lengths against
 * the optimum, seconds). */
static void other_searches(const dom *d, srch_dom_heur *h, const uint8_t *s, const char *id,
                           int optimal)
{
    static srch_dom_result g;
    srch_dom_opts o = SRCH_DOM_DEFAULTS;
    const char *beam = getenv("BENCH_BEAM"), *bwas = getenv("BENCH_BWAS");
    if (beam && (o.width = atoi(beam)) > 0 && srch_dom_beam(d, s, h, &o, NULL, &g) == 0)
        printf("beam-net\t%s\t%d/%d\t%llu\t%.4f\n", id, g.length, optimal,
               (unsigned long long)g.expanded, g.seconds);
    if (bwas && sscanf(bwas, "%d,%lf", &o.batch, &o.weight) == 2 &&
        srch_dom_bwas(d, s, h, &o, NULL, &g) == 0)
        printf("bwas-net\t%s\t%d/%d\t%llu\t%.4f\n", id, g.length, optimal,
               (unsigned long long)g.expanded, g.seconds);
}

/* A* with the shipped 15-puzzle search network as it records (scale 10,
 * delta 0.65, q8, no cache) on the first n boards of a DeepCubeA file,
 * turned into the model's blank-first layout (distances are the same):
 * srch_np_batch_astar against srch_dom_astar. */
static int run_net(const char *model, const char *file, int n, int reps)
{
    int st;
    size_t nb;
    srch_np_instance *inst;
    if (srch_np_parse_file(file, 4, SRCH_NP_GOAL_BLANK_LAST, NULL, NULL, &inst, &nb))
        return 1;
    srch_np_ann_opts ao = SRCH_NP_ANN_DEFAULTS;
    ao.scale = 10;
    ao.delta = 0.65;
    /* BENCH_FLOAT=1: both in float, where their values are the same */
    int flt = getenv("BENCH_FLOAT") && atoi(getenv("BENCH_FLOAT"));
    ao.engine = flt ? SRCH_NP_ANN_SPARSE : SRCH_NP_ANN_Q8;
    ao.cache_bits = 0;
    srch_np_heur *sa = srch_np_heur_ann_load(model, 4, SRCH_NP_GOAL_BLANK_FIRST, NULL, &ao, &st);
    dom *d = dom_open("npuzzle:4x4", &st);
    char spec[4096];
    snprintf(spec, sizeof spec, "ann:%s", model);
    srch_dom_net_opts no = SRCH_DOM_NET_DEFAULTS;
    no.engine = flt ? SRCH_DOM_ENGINE_FLOAT : SRCH_DOM_ENGINE_Q8;
    srch_dom_heur *ga = d ? srch_dom_heur_open(d, spec, &no, &st) : NULL;
    if (!sa || !ga || srch_dom_heur_set_value(ga, 10, 0.65, NULL)) {
        fprintf(stderr, "%s\n", hn_errmsg());
        return 1;
    }
    srch_np_bfs_opts bo = {.batch = 1, .weight = 1};
    static srch_np_result r;
    static srch_dom_result g;
    totals t = {0};
    for (size_t k = 0; k < nb && (int)k < n; k++) {
        char text[256];
        uint8_t s[DOM_MAX_STATE_BYTES];
        srch_np_board b;
        srch_np_board_convert(&inst[k].board, &b);
        srch_np_board_format(&b, text, sizeof text);
        if (dom_parse_state(d, text, s))
            return 1;
        double ts = 1e30, tg = 1e30;
        for (int rep = 0; rep < reps; rep++) {
            if (srch_np_batch_astar(&b, sa, &bo, NULL, &r) ||
                srch_dom_astar(d, s, ga, NULL, NULL, &g))
                return 1;
            ts = r.seconds < ts ? r.seconds : ts;
            tg = g.seconds < tg ? g.seconds : tg;
        }
        if (r.expanded != g.expanded || r.length != g.length)
            fprintf(stderr, "board %s: length %d/%d expanded %llu/%llu\n", inst[k].id, r.length,
                    g.length, (unsigned long long)r.expanded, (unsigned long long)g.expanded);
        printf("astar-net\t%s\t%d/%d\t%llu\t%.4f\t%llu\t%.4f\t%.0f\t%.0f\t%.3f\n", inst[k].id,
               r.length, g.length, (unsigned long long)r.expanded, ts,
               (unsigned long long)g.expanded, tg, r.expanded / ts, g.expanded / tg, tg / ts);
        t.spec_s += ts;
        t.gen_s += tg;
        t.spec_n += r.expanded;
        t.gen_n += g.expanded;
        other_searches(d, ga, s, inst[k].id, inst[k].optimal);
    }
    summary("A* with the 15-puzzle search network", &t);
    srch_np_heur_free(sa);
    srch_dom_heur_free(ga);
    dom_free(d);
    free(inst);
    return 0;
}

/* --pick SEED COUNT LO HI: uniformly random boards (seed SEED) that IDA*
 * with Manhattan distance solves in LO..HI expansions, as instance lines
 * (id optimal tiles), until COUNT of them. */
static int pick_boards(uint64_t seed, int count, uint64_t lo, uint64_t hi)
{
    int st;
    srch_np_heur *md = srch_np_heur_manhattan_new(4, SRCH_NP_GOAL_BLANK_FIRST, &st);
    hn_rng *rng = hn_rng_new(seed);
    srch_limits lim = {.max_expanded = hi};
    static srch_np_result r;
    for (int found = 0, tried = 0; md && found < count; tried++) {
        srch_np_board b;
        char text[256];
        srch_np_board_random(&b, 4, SRCH_NP_GOAL_BLANK_FIRST, rng);
        if (srch_np_idastar(&b, md, &lim, &r) || r.expanded < lo)
            continue;
        srch_np_board_format(&b, text, sizeof text);
        printf("%d %d %s\n", tried, r.length, text);
        found++;
    }
    hn_rng_free(rng);
    srch_np_heur_free(md);
    return md ? 0 : 1;
}

/* One IDA* run by name: "np" the n-puzzle path, else the generic one on
 * its domain and heuristic. The seconds, or -1 on failure or on counts
 * that differ from *want (filled by the first run). */
static double ida_once(const srch_np_board *b, const srch_np_heur *np, const dom *d,
                       srch_dom_heur *h, srch_np_result *want)
{
    static srch_dom_result g;
    if (!d) {
        if (srch_np_idastar(b, np, NULL, want))
            return -1;
        return want->seconds;
    }
    char text[256];
    uint8_t s[DOM_MAX_STATE_BYTES];
    srch_np_board_format(b, text, sizeof text);
    if (dom_parse_state(d, text, s) || srch_dom_idastar(d, s, h, NULL, &g))
        return -1;
    return g.expanded == want->expanded && g.generated == want->generated &&
                   g.length == want->length
               ? g.seconds
               : -1;
}

/* --ida FILE REPS HEUR: IDA* with HEUR (manhattan, lc or a pattern
 * database such as pdb:7-8, each path's from the cache folder) on every board of
 * FILE by the n-puzzle path, the generic one on the built-in domain, on a
 * copy of its definition under another name (the function table, as a
 * plug-in runs), and with max:HEUR (the table, each child valued whole);
 * runs interleaved board by board, best of REPS. One TSV row per board,
 * then the expansions per second of each over all boards. */
static int bench_ida(const char *file, int reps, const char *heur)
{
    enum { NRUN = 4 };
    static const char *const RUN[NRUN] = {"np", "generic", "table", "max"};
    int st, lc = !strcmp(heur, "lc");
    size_t n;
    srch_np_instance *inst;
    if (srch_np_parse_file(file, 4, SRCH_NP_GOAL_BLANK_FIRST, NULL, NULL, &inst, &n)) {
        fprintf(stderr, "%s\n", hn_errmsg());
        return 1;
    }
    dom_def copy = *dom_builtin(0);
    copy.name = "npcopy";
    char mx[64];
    snprintf(mx, sizeof mx, "max:%s", heur);
    srch_np_heur *np = NULL;
    if (!strncmp(heur, "pdb:", 4))
        st = heurnet_heur_new(heur, 4, SRCH_NP_GOAL_BLANK_FIRST, 1, &np);
    else
        np = lc ? srch_np_heur_lc_new(4, SRCH_NP_GOAL_BLANK_FIRST, &st)
                : srch_np_heur_manhattan_new(4, SRCH_NP_GOAL_BLANK_FIRST, &st);
    dom *d[NRUN] = {NULL, dom_open("npuzzle:4x4", &st), dom_open_def(&copy, "4x4", &st), NULL};
    d[3] = d[1];
    srch_dom_heur *h[NRUN] = {NULL};
    for (int k = 1; k < NRUN; k++)
        if (d[k] && !(h[k] = srch_dom_heur_adm(d[k], k == 3 ? mx : heur, &st)))
            break;
    if (!np || !h[1] || !h[2] || !h[3]) {
        fprintf(stderr, "%s\n", hn_errmsg());
        return 1;
    }
    double total[NRUN] = {0};
    uint64_t nodes = 0;
    printf("board\tlength\texpanded");
    for (int k = 0; k < NRUN; k++)
        printf("\t%s_s", RUN[k]);
    printf("\n");
    for (size_t i = 0; i < n; i++) {
        srch_np_result want;
        double best[NRUN] = {1e30, 1e30, 1e30, 1e30};
        for (int rep = 0; rep < reps; rep++)
            for (int k = 0; k < NRUN; k++) {
                double t = ida_once(&inst[i].board, np, d[k], h[k], &want);
                if (t < 0) {
                    fprintf(stderr, "board %s: %s failed or counted other nodes\n", inst[i].id,
                            RUN[k]);
                    return 1;
                }
                best[k] = t < best[k] ? t : best[k];
            }
        printf("%s\t%d\t%llu", inst[i].id, want.length, (unsigned long long)want.expanded);
        for (int k = 0; k < NRUN; k++) {
            printf("\t%.4f", best[k]);
            total[k] += best[k];
        }
        printf("\n");
        nodes += want.expanded;
    }
    printf("# IDA* %s, %zu boards, %llu expansions: M expansions/s", heur, n,
           (unsigned long long)nodes);
    for (int k = 0; k < NRUN; k++)
        printf(" %s %.2f", RUN[k], nodes / total[k] / 1e6);
    printf("\n");
    for (int k = 1; k < NRUN; k++)
        srch_dom_heur_free(h[k]);
    dom_free(d[1]);
    dom_free(d[2]);
    srch_np_heur_free(np);
    free(inst);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 6 && !strcmp(argv[1], "--pick"))
        return pick_boards(strtoull(argv[2], NULL, 10), atoi(argv[3]), strtoull(argv[4], NULL, 10),
                           strtoull(argv[5], NULL, 10));
    if (argc == 5 && !strcmp(argv[1], "--ida"))
        return bench_ida(argv[2], atoi(argv[3]), argv[4]);
    if (argc < 4) {
        fprintf(stderr, "usage: bench_srch_dom KORF_FILE REPS ID... [-- WALKS STEPS [-- MODEL "
                        "DEEPCUBEA_FILE N]]\n");
        return 2;
    }
    int st, reps = atoi(argv[2]);
    size_t n;
    srch_np_instance *inst;
    if (srch_np_parse_file(argv[1], 4, SRCH_NP_GOAL_BLANK_FIRST, NULL, NULL, &inst, &n)) {
        fprintf(stderr, "%s\n", hn_errmsg());
        return 1;
    }
    dom *d = dom_open("npuzzle:4x4", &st);
    srch_dom_heur *h = d ? srch_dom_heur_adm(d, "manhattan", &st) : NULL;
    srch_np_heur *md = srch_np_heur_manhattan_new(4, SRCH_NP_GOAL_BLANK_FIRST, &st);
    if (!h || !md) {
        fprintf(stderr, "%s\n", hn_errmsg());
        return 1;
    }
    if (reps < 0) { /* probe: the boards specialized IDA* solves within -reps million nodes */
        srch_limits lim = {.max_expanded = (uint64_t)-reps * 1000000};
        static srch_np_result r;
        for (size_t k = 0; k < n; k++)
            if (srch_np_idastar(&inst[k].board, md, &lim, &r) == 0)
                printf("%s\t%llu\n", inst[k].id, (unsigned long long)r.expanded);
        return 0;
    }
    printf("algo\tboard\tlength\tspec_expanded\tspec_s\tgen_expanded\tgen_s\tspec_exp_per_s\t"
           "gen_exp_per_s\tratio\n");
    totals ti = {0}, ta = {0};
    int i = 3, bad = 0;
    for (; i < argc && strcmp(argv[i], "--"); i++)
        for (size_t k = 0; k < n; k++)
            if (!strcmp(inst[k].id, argv[i]))
                bad |= run_pair(1, d, h, md, &inst[k].board, inst[k].id, reps, &ti);
    summary("IDA*", &ti);
    if (i + 2 < argc) {
        int walks = atoi(argv[i + 1]), steps = atoi(argv[i + 2]);
        hn_rng *r = hn_rng_new(2026);
        for (int w = 0; w < walks; w++) {
            srch_np_board b;
            char id[32];
            srch_np_board_random_walk(&b, 4, SRCH_NP_GOAL_BLANK_FIRST, steps, r);
            snprintf(id, sizeof id, "walk%d", w);
            bad |= run_pair(0, d, h, md, &b, id, reps, &ta);
        }
        hn_rng_free(r);
        summary("A*", &ta);
    }
    if (i + 6 < argc && !strcmp(argv[i + 3], "--"))
        bad |= run_net(argv[i + 4], argv[i + 5], atoi(argv[i + 6]), reps);
    free(inst);
    srch_np_heur_free(md);
    srch_dom_heur_free(h);
    dom_free(d);
    return bad;
}
