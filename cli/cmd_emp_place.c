/* heurnet emp gen-data --decision place: labelled backtracker states for the
 * place scorer, and the glue that plugs a place model into `emp solve`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_emp.h"
#include "common/hn.h"
#include "datagen/emp_place.h"
#include "search/emp/srch_em_place.h"

/* ---- --scorer for emp solve (a place model) ----------------------------- */

int emp_place_attach(const char *path, double temp, const srch_em_inst *in, srch_em_opts *o,
                     srch_em_place_scorer **out)
{
    int st;
    *out = srch_em_place_scorer_new(path, in, temp, 16, &st);
    if (!*out)
        return cli_fail("--scorer");
    o->order = *out;
    return CLI_EXIT_OK;
}

void emp_place_report(const srch_em_place_scorer *s, double cpu_seconds)
{
    srch_em_place_stats ps;
    srch_em_place_scorer_stats(s, &ps);
    printf("scorer_decision=place scorer_calls=%ld scorer_moves=%ld scorer_hits=%ld "
           "scorer_seconds=%.3f scorer_share=%.4f\n",
           ps.calls, ps.scored, ps.hits, ps.seconds,
           cpu_seconds > 0 ? ps.seconds / cpu_seconds : 0.0);
}

int emp_break_attach(const char *path, double threshold, double refuse, const srch_em_inst *in,
                     srch_em_opts *o, srch_em_break_gate **out)
{
    int st;
    *out = srch_em_break_gate_new(path, in, threshold, 16, &st);
    if (!*out)
        return cli_fail("--scorer");
    srch_em_break_gate_set_random(*out, refuse);
    o->gate = *out;
    return CLI_EXIT_OK;
}

void emp_break_report(const srch_em_break_gate *g, double cpu_seconds)
{
    srch_em_break_stats bs;
    srch_em_break_gate_stats(g, &bs);
    printf("scorer_decision=break scorer_threshold=%g scorer_calls=%ld scorer_hits=%ld "
           "scorer_allowed=%ld scorer_denied=%ld scorer_seconds=%.3f scorer_share=%.4f\n",
           bs.threshold, bs.calls, bs.hits, bs.allowed, bs.denied, bs.seconds,
           cpu_seconds > 0 ? bs.seconds / cpu_seconds : 0.0);
}

/* ---- gen-data --decision place ----------------------------------------- */

typedef struct {
    srch_em_place_sample_opts o;
    emp_data_args d;
} place_args;

#define PA(f) offsetof(place_args, f)
static const struct cli_opt place_opts[] = {
    CLI_INT("states", PA(o.states), 1, 1000000, "N", "sampled cells per instance"),
    CLI_INT("runs", PA(o.runs), 1, 1000, "R", "probes per candidate"),
    CLI_LONG("probe-nodes", PA(o.probe_nodes), 1, 1L << 40, "N", "placements per probe"),
    CLI_INT("probe-rows", PA(o.probe_rows), 0, 64, "R",
            "break: the probes' subtree begins R rows above the sampled cell"),
    CLI_REAL("min-depth", PA(o.min_depth), 0, 1, CLI_OPT_BELOW, "F",
             "sample cells past this fraction of the free cells"),
    CLI_REAL("rate", PA(o.rate), 0, 1, CLI_OPT_OPEN, "Q",
             "chance a qualifying cell entry is sampled"),
    CLI_LONG("restart-nodes", PA(o.restart_nodes), 1, 1L << 40, "N",
             "placements per restart of the driving search"),
    CLI_REAL("break-from", PA(o.break_from), 0, 1, 0, "F",
             "budget: fraction of cells before the first break"),
    CLI_INT("breaks", PA(o.breaks), 0, 100000, "B", "budget at the last cell"),
    CLI_U64("seed", PA(o.seed), 0, "S", "random seed"),
    CLI_TABLE(emp_data_table, PA(d)),
    CLI_END};
static const struct cli_opt_cmd place_cmd = {
    .cmd = "emp gen-data",
    .usage = "emp gen-data --decision place [options] INSTANCE... -o PLACE.h5\n\n"
             "Place-scorer training data: drives the backtracker (start backtrack) on each\n"
             "instance and samples cells with two or more perfect-match candidates; each\n"
             "candidate is placed and the backtracker explores the subtree under it\n"
             "--runs times within --probe-nodes placements (the same shuffles for every\n"
             "candidate of a cell). The label is the mean number of cells reached beyond\n"
             "the sampled one (a complete board adds 1 + the breaks it leaves unused).\n"
             "Writes /x (" SRCH_EM_PLACE_ENCODER " features, float32 [n," CLI_QUOTE(
                 SRCH_EM_PLACE_DIM) "]), /y and /group (the sampled\n"
                                    "cell, int32) for `heurnet emp train-place`. A state budget, "
                                    "no time limit:\n"
                                    "the file depends only on the seed. Benchmark instances "
                                    "(instances/) are\n"
                                    "refused: use `heurnet emp gen` instances.\n\n"
                                    "--decision break: the break gate's data instead. At a sampled "
                                    "cell where the\n"
                                    "driving search would begin its break phases, the search is "
                                    "continued from\n"
                                    "that moment for --probe-nodes placements with the cell's "
                                    "breaks tried and\n"
                                    "with them skipped (--runs times, the same shuffles in both "
                                    "arms); the label\n"
                                    "is the mean difference (tried - skipped) of the deepest cell "
                                    "reached (a\n"
                                    "complete board adds 1 + its unused breaks). One row "
                                    "of " SRCH_EM_BREAK_ENCODER " features per\n"
                                    "cell; train it with `heurnet train` (the model records "
                                    "decision=break).\n\n",
    .opts = place_opts,
    .max_args = 1 << 20};

static void print_summary(const char *out)
{
    float *x, *y;
    int32_t *g;
    dg_emp_place_info info;
    if (dg_emp_place_read(out, &x, &y, &g, &info) != HN_OK) {
        cli_fail(out);
        return;
    }
    double sum = 0, sq = 0;
    for (size_t i = 0; i < info.rows; i++)
        sum += y[i], sq += (double)y[i] * y[i];
    double mean = sum / (double)info.rows;
    printf("output=%s rows=%zu groups=%d features=%d encoder=%s y_mean=%.3f y_std=%.3f\n", out,
           info.rows, info.groups, SRCH_EM_PLACE_DIM, SRCH_EM_PLACE_ENCODER, mean,
           sqrt(fmax(0, sq / (double)info.rows - mean * mean)));
    free(x), free(y), free(g);
}

static int place_gen(void *user, const srch_em_inst *const *in, const char *const *paths, int n,
                     hn_progress *bar)
{
    place_args *a = user;
    a->o.progress = emp_data_progress;
    a->o.user = bar;
    return (a->d.decision == 2 ? dg_emp_break_gen : dg_emp_place_gen)(in, paths, n, &a->o,
                                                                      a->d.out);
}

int cmd_emp_gendata_place(int argc, char **argv)
{
    place_args a = {.o = SRCH_EM_PLACE_SAMPLE_DEFAULTS};
    int ninst, rc = emp_data_parse(&place_cmd, &a, &a.d, argc, argv, &ninst);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    rc = emp_data_run(&a.d, argv + 1, ninst, (uint64_t)a.o.states, place_gen, &a);
    if (!rc && a.d.decision == 2)
        printf("output=%s states=%d decision=%s features=%d encoder=%s\n", a.d.out,
               a.o.states * ninst, SRCH_EM_DECISION_BREAK, SRCH_EM_BREAK_DIM,
               SRCH_EM_BREAK_ENCODER);
    else if (!rc)
        print_summary(a.d.out);
    return rc;
}
