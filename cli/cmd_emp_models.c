/* heurnet emp milp / emp clique: the seed paper's exact formulations for
 * small instances — export (CPLEX LP, DIMACS) and solving (GLPK, the
 * max-clique local search), with one key=value record on stdout. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_emp.h"
#include "common/hn.h"

typedef struct {
    emp_inst_opts io;
    const char *write, *out;
    double seconds;
    long selections;
    uint64_t seed;
    int solve;
} model_opts;

static void milp_help(FILE *f)
{
    fprintf(f, "usage: heurnet emp milp [options] INSTANCE\n\n"
               "The MILP (1)-(14) of Salassa et al. (min unmatched joins).\n\n"
               "  --write FILE          write the model in CPLEX LP format\n"
               "  --solve               solve it with GLPK\n"
               "  --time S              GLPK limit in CPU seconds [60]\n"
               "  -o, --output FILE     write GLPK's solution (with --solve)\n"
               "  --format meta|e2pieces  instance format [meta]\n"
               "  --clue P,R,C,ROT      fixed piece, repeatable\n"
               "  -h, --help            this help\n");
}

static void clique_help(FILE *f)
{
    fprintf(f, "usage: heurnet emp clique [options] INSTANCE\n\n"
               "The max-clique graph of Salassa et al. (Section 2.2) and a max-clique local\n"
               "search (greedy additions, plateau swaps with tabu, restarts).\n\n"
               "  --write FILE          write the graph in DIMACS format\n"
               "  --solve               run the clique heuristic, complete the board\n"
               "  --selections Q        heuristic steps [1000000]\n"
               "  --seed S              random seed [1]\n"
               "  -o, --output FILE     write the completed board (with --solve)\n"
               "  --format meta|e2pieces  instance format [meta]\n"
               "  --clue P,R,C,ROT      fixed piece, repeatable\n"
               "  -h, --help            this help\n");
}

static int parse_model(int argc, char **argv, const char *cmd, model_opts *o)
{
    static const struct option lo[] = {
        {"write", required_argument, 0, 'w'},  {"solve", no_argument, 0, 'S'},
        {"time", required_argument, 0, 't'},   {"selections", required_argument, 0, 'q'},
        {"seed", required_argument, 0, 's'},   {"output", required_argument, 0, 'o'},
        {"format", required_argument, 0, 'f'}, {"clue", required_argument, 0, 'c'},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "ho:", lo, NULL)) != -1) {
        switch (ch) {
        case 'h':
            (strcmp(cmd, "emp milp") ? clique_help : milp_help)(stdout);
            return -1;
        case 'w':
            o->write = optarg;
            break;
        case 'S':
            o->solve = 1;
            break;
        case 'o':
            o->out = optarg;
            break;
        case 't':
            if (cli_parse_double(optarg, &o->seconds) < 0 || o->seconds <= 0)
                return cli_usage(cmd, "--time must be seconds > 0, not '%s'", optarg);
            break;
        case 'q':
            if (cli_parse_long(optarg, 1, 1L << 40, &o->selections) < 0)
                return cli_usage(cmd, "--selections must be >= 1, not '%s'", optarg);
            break;
        case 's':
            if (cli_parse_u64(optarg, &o->seed) < 0)
                return cli_usage(cmd, "--seed must be a non-negative integer");
            break;
        case 'f':
            if (emp_parse_format(optarg, &o->io.format) < 0)
                return cli_usage(cmd, "--format must be meta or e2pieces, not '%s'", optarg);
            break;
        case 'c':
            if (emp_add_clue_arg(&o->io, optarg) < 0)
                return cli_usage(cmd, "--clue wants P,R,C,ROT, got '%s'", optarg);
            break;
        default:
            return cli_usage(cmd, "unknown option");
        }
    }
    if (argc - optind != 1)
        return cli_usage(cmd, "expected one INSTANCE");
    if (!o->write && !o->solve)
        return cli_usage(cmd, "nothing to do: give --write FILE and/or --solve");
    if (o->out && !o->solve)
        return cli_usage(cmd, "-o needs --solve");
    return 0;
}

/* What both commands hold: options, the instance and a board's worth of output. */
typedef struct {
    model_opts o;
    const char *path;
    srch_em_inst *in;
    int *piece, *rot;
} model_run;

static void model_end(model_run *r)
{
    free(r->piece);
    free(r->rot);
    srch_em_inst_free(r->in);
}

/* Parse, load and allocate; returns -1 to go on, otherwise the exit code. */
static int model_begin(int argc, char **argv, const char *cmd, model_run *r)
{
    *r = (model_run){.o = {.seconds = 60, .selections = 1000000, .seed = 1}};
    int prc = parse_model(argc, argv, cmd, &r->o);
    if (prc)
        return prc < 0 ? CLI_EXIT_OK : prc;
    r->path = argv[optind];
    r->in = emp_load(r->path, &r->o.io);
    if (!r->in)
        return CLI_EXIT_FAIL;
    size_t n = (size_t)srch_em_inst_width(r->in) * (size_t)srch_em_inst_height(r->in);
    r->piece = malloc(sizeof(int) * n);
    r->rot = malloc(sizeof(int) * n);
    if (!r->piece || !r->rot) {
        model_end(r);
        return cli_fail("out of memory");
    }
    return -1;
}

/* After a solve: write -o, print the tail of the record, map the status. */
static int model_finish(model_run *r, int st, const char *what, double t0, double c0)
{
    double t = hn_now() - t0, ct = srch_em_cpu_seconds() - c0;
    if (st == HN_OK && r->o.out && srch_em_sol_write(r->in, r->o.out, r->piece, r->rot) != HN_OK)
        st = -1;
    if (st == HN_OK) {
        int v, score = srch_em_sol_check(r->in, r->piece, r->rot, &v, NULL, 0);
        printf(" %s score=%d joins=%d seconds=%.2f cpu_seconds=%.2f", what, score,
               srch_em_inst_joins(r->in), t, ct);
    }
    printf("\n");
    return st == HN_OK ? CLI_EXIT_OK : cli_fail(r->path);
}

int cmd_emp_milp(int argc, char **argv)
{
    model_run r;
    int rc = model_begin(argc, argv, "emp milp", &r);
    if (rc >= 0)
        return rc;
    rc = CLI_EXIT_OK;
    srch_em_milp_stats ms;
    if (srch_em_milp_write(r.in, r.o.write, &ms) != HN_OK) {
        rc = cli_fail(r.o.write ? r.o.write : r.path);
    } else {
        printf("instance=%s size=%dx%d variables=%ld constraints=%ld", r.path,
               srch_em_inst_width(r.in), srch_em_inst_height(r.in), ms.variables, ms.constraints);
        if (r.o.write)
            printf(" model=%s", r.o.write);
        if (r.o.solve) {
            int score = -1, optimal = 0;
            double t0 = hn_now(), c0 = srch_em_cpu_seconds();
            int st = srch_em_milp_solve(r.in, r.o.seconds, r.piece, r.rot, &score, &optimal);
            rc = model_finish(&r, st, optimal ? "optimal=1" : "optimal=0", t0, c0);
        } else {
            printf("\n");
        }
    }
    model_end(&r);
    return rc;
}

int cmd_emp_clique(int argc, char **argv)
{
    model_run r;
    int st, rc = model_begin(argc, argv, "emp clique", &r);
    if (rc >= 0)
        return rc;
    rc = CLI_EXIT_OK;
    srch_em_graph *g = srch_em_graph_new(r.in, &st);
    if (!g) {
        rc = cli_fail(r.path);
    } else if (r.o.write && srch_em_graph_write(g, r.o.write) != HN_OK) {
        rc = cli_fail(r.o.write);
    } else {
        double nn = (double)srch_em_graph_nodes(g), ne = (double)srch_em_graph_edges(g);
        printf("instance=%s size=%dx%d nodes=%ld edges=%ld density=%.3f", r.path,
               srch_em_inst_width(r.in), srch_em_inst_height(r.in), srch_em_graph_nodes(g),
               srch_em_graph_edges(g), nn > 1 ? 2.0 * ne / (nn * (nn - 1)) : 0.0);
        if (r.o.write)
            printf(" graph=%s", r.o.write);
        if (r.o.solve) {
            char what[96];
            double t0 = hn_now(), c0 = srch_em_cpu_seconds();
            long size = srch_em_clique_search(g, r.o.selections, r.o.seed, r.piece, r.rot);
            st = size < 0 ? hn_fail(HN_ERR_NOMEM, "out of memory in the clique search")
                          : srch_em_clique_complete(r.in, r.piece, r.rot);
            snprintf(what, sizeof what, "clique=%ld cells=%d selections=%ld", size,
                     srch_em_inst_width(r.in) * srch_em_inst_height(r.in), r.o.selections);
            rc = model_finish(&r, st, what, t0, c0);
        } else {
            printf("\n");
        }
    }
    srch_em_graph_free(g);
    model_end(&r);
    return rc;
}
