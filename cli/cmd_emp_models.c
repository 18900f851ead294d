/* heurnet emp milp / emp clique: the seed paper's exact formulations for
 * small instances — export (CPLEX LP, DIMACS) and solving (GLPK, the
 * max-clique local search), with one key=value record on stdout. */
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

#define MO(f) offsetof(model_opts, f)
/* What both commands take. */
static const struct cli_opt model_common[] = {
    CLI_STR("write", MO(write), "FILE", "write the model (milp: CPLEX LP, clique: DIMACS) [none]"),
    CLI_FLAG("solve", MO(solve), 1,
             "solve it (milp: GLPK; clique: the heuristic, completing "
             "the board)"),
    CLI_STRL('o', "output", MO(out), "FILE", "write the solution (with --solve) [none]"),
    CLI_TABLE(emp_inst_table, MO(io)), CLI_END};
static const struct cli_opt milp_opts[] = {
    CLI_REAL("time", MO(seconds), 0, 1e12, CLI_OPT_OPEN, "S", "GLPK limit in CPU seconds"),
    CLI_TABLE(model_common, 0), CLI_END};
static const struct cli_opt clique_opts[] = {
    CLI_LONG("selections", MO(selections), 1, 1L << 40, "Q", "heuristic steps"),
    CLI_U64("seed", MO(seed), 0, "S", "random seed"), CLI_TABLE(model_common, 0), CLI_END};
static const struct cli_opt_cmd milp_cmd = {
    .cmd = "emp milp",
    .usage = "emp milp [options] INSTANCE\n\n"
             "The MILP (1)-(14) of Salassa et al. (min unmatched joins).\n\n",
    .opts = milp_opts,
    .max_args = 1};
static const struct cli_opt_cmd clique_cmd = {
    .cmd = "emp clique",
    .usage = "emp clique [options] INSTANCE\n\n"
             "The max-clique graph of Salassa et al. (Section 2.2) and a max-clique local\n"
             "search (greedy additions, plateau swaps with tabu, restarts).\n\n",
    .opts = clique_opts,
    .max_args = 1};

static int parse_model(int argc, char **argv, const struct cli_opt_cmd *c, model_opts *o)
{
    int nargs, rc = cli_opt_parse(c, o, argc, argv, &nargs);
    if (rc)
        return rc;
    if (nargs != 1)
        return cli_usage(c->cmd, "expected one INSTANCE");
    if (!o->write && !o->solve)
        return cli_usage(c->cmd, "nothing to do: give --write FILE and/or --solve");
    if (o->out && !o->solve)
        return cli_usage(c->cmd, "-o needs --solve");
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
static int model_begin(int argc, char **argv, const struct cli_opt_cmd *c, model_run *r)
{
    *r = (model_run){.o = {.seconds = 60, .selections = 1000000, .seed = 1}};
    int prc = parse_model(argc, argv, c, &r->o);
    if (prc)
        return prc < 0 ? CLI_EXIT_OK : prc;
    r->path = argv[1];
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
    int rc = model_begin(argc, argv, &milp_cmd, &r);
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
    int st, rc = model_begin(argc, argv, &clique_cmd, &r);
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
