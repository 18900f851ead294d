/* heurnet emp gen-data: move-scorer data for the learned move scorer, and
 * the --scorer glue of `heurnet emp solve`. */
#include <getopt.h>
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

static void gendata_help(FILE *f)
{
    dg_emp_moves_opts d = DG_EMP_MOVES_DEFAULTS;
    fprintf(f,
            "usage: heurnet emp gen-data [options] INSTANCE... -o MOVES.h5\n\n"
            "Move-scorer training data: runs the local search on each instance (a state\n"
            "budget, no time limit, so the file depends only on the seed); at every\n"
            "perturbation step it labels a sample of the candidate moves with the gain\n"
            "after a greedy continuation. Writes /x (emp-move-v1 features, float32\n"
            "[n,%d]) and /y (gain in joins, float32 [n]) for `heurnet train --data`.\n"
            "The benchmark instances in the repository's instances/ (META, Eternity II;\n"
            "any folder marked by a SOURCES.md) are refused, so benchmarks stay out of\n"
            "training: use `heurnet emp gen` instances.\n\n"
            "  --moves-per-state M   candidates labelled per state [%d]\n"
            "  --horizon H           greedy continuation steps [%d]\n"
            "  --states N            states per instance [%d]\n"
            "  --seed S              random seed [%llu]\n"
            "  --ta-n N              TA iterations per cycle of the driving search [%d]\n"
            "  --nodes N             BO/RO node limit of the driving search [%ld]\n"
            "  --format meta|e2pieces  instance format [meta]\n"
            "  --allow-shared        accept the benchmark instances (instances/)\n"
            "  --decision move|place|break  what the data is for: move (this page), place\n"
            "                        (the backtracker's candidate order) or break (its\n"
            "                        break gate); see `emp gen-data --decision place --help`\n"
            "                        [move]\n"
            "  -o, --output FILE     dataset (required)\n"
            "  -q, --quiet           no progress\n"
            "  -h, --help            this help\n",
            SRCH_EM_FEAT_DIM, d.moves_per_state, d.horizon, d.states, (unsigned long long)d.seed,
            d.ta_n, d.nodes);
}

static void on_gen_progress(uint64_t done, uint64_t total, const char *extra, void *user)
{
    (void)total;
    hn_progress_update(user, done, extra);
}

static int parse_gendata(int argc, char **argv, dg_emp_moves_opts *o, int *format, const char **out,
                         int *quiet, int *allow_shared)
{
    static const struct option lo[] = {{"moves-per-state", required_argument, 0, 'M'},
                                       {"horizon", required_argument, 0, 'H'},
                                       {"states", required_argument, 0, 'n'},
                                       {"seed", required_argument, 0, 's'},
                                       {"ta-n", required_argument, 0, 't'},
                                       {"nodes", required_argument, 0, 'N'},
                                       {"format", required_argument, 0, 'f'},
                                       {"allow-shared", no_argument, 0, 'A'},
                                       {"decision", required_argument, 0, 'D'},
                                       {"output", required_argument, 0, 'o'},
                                       {"quiet", no_argument, 0, 'q'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    const char *cmd = "emp gen-data";
    long v;
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "ho:q", lo, NULL)) != -1) {
        switch (ch) {
        case 'h':
            gendata_help(stdout);
            return -1;
        case 'M':
            if (cli_parse_long(optarg, 1, 100000, &v) < 0)
                return cli_usage(cmd, "--moves-per-state must be 1..1e5, not '%s'", optarg);
            o->moves_per_state = (int)v;
            break;
        case 'H':
            if (cli_parse_long(optarg, 0, 100000, &v) < 0)
                return cli_usage(cmd, "--horizon must be 0..1e5, not '%s'", optarg);
            o->horizon = (int)v;
            break;
        case 'n':
            if (cli_parse_long(optarg, 1, 100000000, &v) < 0)
                return cli_usage(cmd, "--states must be 1..1e8, not '%s'", optarg);
            o->states = (int)v;
            break;
        case 's':
            if (cli_parse_u64(optarg, &o->seed) < 0)
                return cli_usage(cmd, "--seed must be a non-negative integer");
            break;
        case 't':
            if (cli_parse_long(optarg, 0, 100000000, &v) < 0)
                return cli_usage(cmd, "--ta-n must be 0..1e8, not '%s'", optarg);
            o->ta_n = (int)v;
            break;
        case 'N':
            if (cli_parse_long(optarg, 1, 1L << 40, &o->nodes) < 0)
                return cli_usage(cmd, "--nodes must be >= 1, not '%s'", optarg);
            break;
        case 'f':
            if (emp_parse_format(optarg, format) < 0)
                return cli_usage(cmd, "--format must be meta or e2pieces, not '%s'", optarg);
            break;
        case 'A':
            *allow_shared = 1;
            break;
        case 'D':
            if (strcmp(optarg, "move"))
                return cli_usage(cmd, "--decision must be move, place or break, not '%s'", optarg);
            break;
        case 'o':
            *out = optarg;
            break;
        case 'q':
            *quiet = 1;
            break;
        default:
            return cli_usage(cmd, "unknown option");
        }
    }
    if (optind >= argc)
        return cli_usage(cmd, "expected at least one INSTANCE");
    if (!*out)
        return cli_usage(cmd, "-o MOVES.h5 is required");
    return 0;
}

int emp_load_training(char **paths, int n, int format, int allow_shared, srch_em_inst **in)
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

int cmd_emp_gendata(int argc, char **argv)
{
    const char *decision = decision_arg(argc, argv);
    if (decision && (!strcmp(decision, "place") || !strcmp(decision, "break")))
        return cmd_emp_gendata_place(argc, argv);
    dg_emp_moves_opts o = DG_EMP_MOVES_DEFAULTS;
    int format = SRCH_EM_FORMAT_META, quiet = 0, allow_shared = 0;
    const char *out = NULL;
    int prc = parse_gendata(argc, argv, &o, &format, &out, &quiet, &allow_shared);
    if (prc)
        return prc < 0 ? CLI_EXIT_OK : prc;
    int ninst = argc - optind, rc = CLI_EXIT_OK;
    srch_em_inst **in = calloc((size_t)ninst, sizeof *in);
    if (!in)
        return cli_fail("out of memory");
    rc = emp_load_training(argv + optind, ninst, format, allow_shared, in);
    if (rc == CLI_EXIT_OK) {
        cli_log_init(quiet);
        hn_stop_install();
        hn_progress *prog =
            hn_progress_new("emp gen-data", (uint64_t)o.states * (uint64_t)ninst, quiet);
        o.progress = on_gen_progress;
        o.user = prog;
        int st = dg_emp_moves_gen((const srch_em_inst *const *)in,
                                  (const char *const *)(argv + optind), ninst, &o, out);
        hn_progress_finish(prog);
        if (st != HN_OK)
            rc = cli_fail(out);
        else
            print_summary(out);
    }
    for (int i = 0; i < ninst; i++)
        srch_em_inst_free(in[i]);
    free(in);
    return rc;
}
