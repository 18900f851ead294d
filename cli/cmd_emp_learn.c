/* heurnet emp gen-data: move-scorer data for the learned move scorer, and
 * the --scorer glue of `heurnet emp solve`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_emp.h"
#include "common/hn.h"
#include "datagen/emp_moves.h"
#include "search/emp/srch_em_scorer.h"

/* ---- --scorer for emp solve -------------------------------------------- */

int emp_scorer_attach(const char *path, const char *pick, const srch_em_inst *in, srch_em_opts *o,
                      srch_em_scorer **out)
{
    int mode = SRCH_EM_PICK_BEST, st;
    double temp = 1.0;
    if (pick && strcmp(pick, "best")) {
        if (strncmp(pick, "softmax:", 8) || cli_parse_double(pick + 8, &temp) < 0 || !(temp > 0))
            return cli_usage("emp solve",
                             "--scorer-pick must be best or softmax:T (T > 0), not '%s'", pick);
        mode = SRCH_EM_PICK_SOFTMAX;
    }
    *out = srch_em_scorer_new(path, in, mode, temp, &st);
    if (!*out)
        return cli_fail("--scorer");
    o->choose = srch_em_scorer_choose;
    o->choose_user = *out;
    return CLI_EXIT_OK;
}

void emp_scorer_report(const srch_em_scorer *s)
{
    long calls, scored;
    double sec;
    srch_em_scorer_stats(s, &calls, &scored, &sec);
    printf("scorer_calls=%ld scorer_moves=%ld scorer_seconds=%.3f\n", calls, scored, sec);
}

/* ---- gen-data ----------------------------------------------------------- */

#define ED(f) offsetof(emp_data_args, f)
const struct cli_opt emp_data_table[] = {
    CLI_ENUM("format", ED(format), "meta|e2pieces", "instance format"),
    CLI_FLAG("allow-shared", ED(allow_shared), 1, "accept the benchmark instances (instances/)"),
    CLI_ENUM("decision", ED(decision), "move|place|break",
             "what the data is for: move (the local search's perturbation moves), place (the "
             "backtracker's candidate order) or break (its break gate); each one's --help "
             "lists its options"),
    CLI_STRL('o', "output", ED(out), "FILE", "dataset [required]"),
    CLI_FLAGL('q', "quiet", ED(quiet), 1, "no progress"),
    CLI_END};

typedef struct {
    dg_emp_moves_opts o;
    emp_data_args d;
} gendata_args;

#define GD(f) offsetof(gendata_args, f)
static const struct cli_opt gendata_opts[] = {
    CLI_INT("moves-per-state", GD(o.moves_per_state), 1, 100000, "M",
            "candidates labelled per state"),
    CLI_INT("horizon", GD(o.horizon), 0, 100000, "H", "greedy continuation steps"),
    CLI_INT("states", GD(o.states), 1, 100000000, "N", "states per instance"),
    CLI_U64("seed", GD(o.seed), 0, "S", "random seed"),
    CLI_INT("ta-n", GD(o.ta_n), 0, 100000000, "N", "TA iterations per cycle of the driving search"),
    CLI_LONG("nodes", GD(o.nodes), 1, 1L << 40, "N", "BO/RO node limit of the driving search"),
    CLI_TABLE(emp_data_table, GD(d)),
    CLI_END};
static const struct cli_opt_cmd gendata_cmd = {
    .cmd = "emp gen-data",
    .usage =
        "emp gen-data [options] INSTANCE... -o MOVES.h5\n\n"
        "Move-scorer training data: runs the local search on each instance (a state\n"
        "budget, no time limit, so the file depends only on the seed); at every\n"
        "perturbation step it labels a sample of the candidate moves with the gain\n"
        "after a greedy continuation. Writes /x (" SRCH_EM_FEAT_ENCODER " features, float32\n"
        "[n," CLI_QUOTE(
            SRCH_EM_FEAT_DIM) "]) and /y (gain in joins, float32 [n]) for `heurnet train --data`.\n"
                              "The benchmark instances in the repository's instances/ (META, "
                              "Eternity II;\n"
                              "any folder marked by a SOURCES.md) are refused, so benchmarks stay "
                              "out of\n"
                              "training: use `heurnet emp gen` instances.\n\n",
    .opts = gendata_opts,
    .max_args = 1 << 20};

int emp_data_parse(const struct cli_opt_cmd *c, void *base, const emp_data_args *d, int argc,
                   char **argv, int *nargs)
{
    int rc = cli_opt_parse(c, base, argc, argv, nargs);
    if (rc)
        return rc;
    if (!*nargs)
        return cli_usage(c->cmd, "expected at least one INSTANCE");
    if (!d->out)
        return cli_usage(c->cmd, "-o %s is required", d->decision ? "PLACE.h5" : "MOVES.h5");
    return 0;
}

/* Load training instances, refusing the benchmark ones (instances/, marked
 * by a SOURCES.md) unless allow_shared; CLI exit code (reason printed). */
static int emp_load_training(char **paths, int n, int format, int allow_shared, srch_em_inst **in)
{
    emp_inst_opts io = {.format = format};
    for (int i = 0; i < n; i++) {
        const char *p = paths[i];
        if (!allow_shared && srch_em_inst_is_benchmark(p)) {
            fprintf(stderr,
                    "heurnet emp gen-data: %s is a benchmark instance (instances/); train on "
                    "`heurnet emp gen` instances (or pass --allow-shared)\n",
                    p);
            return CLI_EXIT_USAGE;
        }
        if (!(in[i] = emp_load(p, &io)))
            return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

/* The value of --decision (either spelling), or NULL. */
static const char *decision_arg(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        if (!strcmp(argv[i], "--decision") && i + 1 < argc)
            return argv[i + 1];
        if (!strncmp(argv[i], "--decision=", 11))
            return argv[i] + 11;
    }
    return NULL;
}

static void print_summary(const char *out)
{
    float *x, *y;
    dg_emp_moves_info info;
    if (dg_emp_moves_read(out, &x, &y, &info) != HN_OK) {
        cli_fail(out);
        return;
    }
    double sum = 0, sq = 0;
    size_t pos = 0;
    for (size_t i = 0; i < info.rows; i++) {
        sum += y[i];
        sq += (double)y[i] * y[i];
        pos += y[i] > 0;
    }
    double mean = sum / (double)info.rows;
    printf("output=%s rows=%zu features=%d encoder=%s y_mean=%.3f y_std=%.3f y_positive=%.3f\n",
           out, info.rows, info.dim, SRCH_EM_FEAT_ENCODER, mean,
           sqrt(fmax(0, sq / (double)info.rows - mean * mean)), (double)pos / (double)info.rows);
    free(x);
    free(y);
}

int emp_data_run(const emp_data_args *d, char **paths, int n, uint64_t states, emp_data_gen_fn gen,
                 void *user)
{
    srch_em_inst **in = calloc((size_t)n, sizeof *in);
    if (!in)
        return cli_fail("out of memory");
    int rc = emp_load_training(paths, n, d->format, d->allow_shared, in);
    if (rc == CLI_EXIT_OK) {
        cli_log_init(d->quiet);
        hn_stop_install();
        hn_progress *bar = hn_progress_new("emp gen-data", states * (uint64_t)n, d->quiet);
        int st = gen(user, (const srch_em_inst *const *)in, (const char *const *)paths, n, bar);
        hn_progress_finish(bar);
        rc = st ? cli_fail(d->out) : CLI_EXIT_OK;
    }
    for (int i = 0; i < n; i++)
        srch_em_inst_free(in[i]);
    free(in);
    return rc;
}

void emp_data_progress(uint64_t done, uint64_t total, const char *extra, void *bar)
{
    (void)total;
    hn_progress_update(bar, done, extra);
}

static int moves_gen(void *user, const srch_em_inst *const *in, const char *const *paths, int n,
                     hn_progress *bar)
{
    gendata_args *a = user;
    a->o.progress = emp_data_progress;
    a->o.user = bar;
    return dg_emp_moves_gen(in, paths, n, &a->o, a->d.out);
}

int cmd_emp_gendata(int argc, char **argv)
{
    const char *decision = decision_arg(argc, argv);
    if (decision && (!strcmp(decision, "place") || !strcmp(decision, "break")))
        return cmd_emp_gendata_place(argc, argv);
    gendata_args a = {.o = DG_EMP_MOVES_DEFAULTS};
    int ninst, rc = emp_data_parse(&gendata_cmd, &a, &a.d, argc, argv, &ninst);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    rc = emp_data_run(&a.d, argv + 1, ninst, (uint64_t)a.o.states, moves_gen, &a);
    if (!rc)
        print_summary(a.d.out);
    return rc;
}
