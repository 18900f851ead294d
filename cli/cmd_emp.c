/* heurnet emp: edge-matching puzzles — score a solution, generate an
 * instance, run the local search; the MILP and clique models are in
 * cmd_emp_models.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_emp.h"
#include "cli/cmd_nn.h"
#include "common/hn.h"
#include "search/emp/emp.h"

/* ---- shared instance options --------------------------------------------- */

/* --clue P,R,C,ROT */
static int clue_parse(void *field, const char *v)
{
    emp_inst_opts *io = field;
    long x[4];
    char buf[128], *save = NULL;
    if (io->nclues >= EMP_MAX_CLUE_ARGS)
        return hn_fail(HN_ERR_ARG, "at most %d clues", EMP_MAX_CLUE_ARGS);
    snprintf(buf, sizeof buf, "%s", v);
    char *tok = strtok_r(buf, ",", &save);
    for (int k = 0; k < 4; k++, tok = strtok_r(NULL, ",", &save))
        if (!tok || cli_parse_long(tok, 0, 1L << 20, &x[k]) < 0)
            return hn_fail(HN_ERR_ARG, "'%s' is not P,R,C,ROT", v);
    if (tok || strlen(v) >= sizeof buf)
        return hn_fail(HN_ERR_ARG, "'%s' is not P,R,C,ROT", v);
    for (int k = 0; k < 4; k++)
        io->clues[io->nclues][k] = (int)x[k];
    io->nclues++;
    return 0;
}

/* The words are in SRCH_EM_FORMAT_META, _E2 order. */
const struct cli_opt emp_inst_table[] = {
    CLI_ENUM("format", offsetof(emp_inst_opts, format), "meta|e2pieces", "instance format"),
    CLI_FN("clue", 0, clue_parse, "P,R,C,ROT", "fixed piece, repeatable (Eternity II: 138,8,7,2)"),
    CLI_END};

srch_em_inst *emp_load(const char *path, const emp_inst_opts *io)
{
    int st;
    srch_em_inst *in = srch_em_inst_read(path, io->format, &st);
    if (!in) {
        cli_fail("");
        return NULL;
    }
    for (int k = 0; k < io->nclues; k++) {
        const int *c = io->clues[k];
        if (srch_em_inst_add_clue(in, c[0], c[1], c[2], c[3]) != HN_OK) {
            char what[4200];
            snprintf(what, sizeof what, "%s: --clue %d,%d,%d,%d", path, c[0], c[1], c[2], c[3]);
            cli_fail(what);
            srch_em_inst_free(in);
            return NULL;
        }
    }
    return in;
}

/* ---- score ---------------------------------------------------------------- */

static const struct cli_opt score_opts[] = {CLI_TABLE(emp_inst_table, 0), CLI_END};
static const struct cli_opt_cmd score_cmd = {
    .cmd = "emp score",
    .usage = "emp score [options] INSTANCE SOLUTION\n\n"
             "Recount a solution file (`piece rotation` per cell, row-major) and list\n"
             "violations of the frame rule, duplicate pieces and clues.\n\n",
    .opts = score_opts,
    .epilog = "Prints: score=S joins=J violations=V; exits 1 when V > 0.\n",
    .max_args = 2};

static int cmd_emp_score(int argc, char **argv)
{
    emp_inst_opts io = {0};
    int nargs, rc = cli_opt_parse(&score_cmd, &io, argc, argv, &nargs);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    if (nargs != 2)
        return cli_usage("emp score", "expected INSTANCE and SOLUTION");
    srch_em_inst *in = emp_load(argv[1], &io);
    if (!in)
        return CLI_EXIT_FAIL;
    int n = srch_em_inst_width(in) * srch_em_inst_height(in);
    int *piece = malloc(sizeof(int) * (size_t)n), *rot = malloc(sizeof(int) * (size_t)n);
    if (!piece || !rot) {
        rc = cli_fail("out of memory");
    } else if (srch_em_sol_read(in, argv[2], piece, rot) != HN_OK) {
        rc = cli_fail("");
    } else {
        int v;
        char msg[1024];
        int s = srch_em_sol_check(in, piece, rot, &v, msg, sizeof msg);
        printf("score=%d joins=%d violations=%d\n", s, srch_em_inst_joins(in), v);
        if (v) {
            fprintf(stderr, "heurnet: %s: %d violation(s): %s\n", argv[2], v, msg);
            rc = CLI_EXIT_FAIL;
        }
    }
    free(piece);
    free(rot);
    srch_em_inst_free(in);
    return rc;
}

/* ---- gen ------------------------------------------------------------------ */

struct gen_cli {
    int size, w, h, fc, ic; /* w, h: 0 until given */
    uint64_t seed;
    const char *out, *sol;
};

#define GO(f) offsetof(struct gen_cli, f)
static const struct cli_opt gen_opts[] = {
    CLI_INT("size", GO(size), 3, 64, "N", "board N x N"),
    CLI_INT("width", GO(w), 3, 64, "W", "rectangular board (overrides --size) [N]"),
    CLI_INT("height", GO(h), 3, 64, "H", "[N]"),
    CLI_INT("frame-colours", GO(fc), 1, 127, "F", "colours of joins along the frame"),
    CLI_INT("inner-colours", GO(ic), 1, 127, "I", "colours of the other joins"),
    CLI_U64("seed", GO(seed), 0, "S", "random seed"),
    CLI_STRL('o', "output", GO(out), "FILE", "instance file [required]"),
    CLI_STR("solution", GO(sol), "FILE", "also write the planted solution [none]"),
    CLI_END};
static const struct cli_opt_cmd gen_cmd = {
    .cmd = "emp gen",
    .usage = "emp gen [options] -o INSTANCE\n\n"
             "Write a solvable random instance in META format (colours drawn per join,\n"
             "pieces shuffled and rotated).\n\n",
    .opts = gen_opts};

static int cmd_emp_gen(int argc, char **argv)
{
    struct gen_cli g = {.size = 6, .fc = 4, .ic = 6, .seed = 1};
    int nargs, rc = cli_opt_parse(&gen_cmd, &g, argc, argv, &nargs);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    if (!g.out)
        return cli_usage("emp gen", "-o INSTANCE is required");
    int w = g.w ? g.w : g.size, h = g.h ? g.h : g.size, st;
    int *planted = malloc(sizeof(int) * 2 * (size_t)(w * h));
    if (!planted)
        return cli_fail("out of memory");
    srch_em_inst *in = srch_em_inst_gen(w, h, g.fc, g.ic, g.seed, planted, &st);
    if (!in || srch_em_inst_write(in, g.out) != HN_OK)
        rc = cli_fail(g.out);
    else if (g.sol && srch_em_sol_write(in, g.sol, planted, planted + w * h) != HN_OK)
        rc = cli_fail(g.sol);
    else
        printf("instance=%s width=%d height=%d frame_colours=%d inner_colours=%d seed=%llu "
               "joins=%d\n",
               g.out, w, h, g.fc, g.ic, (unsigned long long)g.seed, srch_em_inst_joins(in));
    free(planted);
    srch_em_inst_free(in);
    return rc;
}

/* ---- dispatch ------------------------------------------------------------- */

int cmd_emp(int argc, char **argv)
{
    static const struct cli_subcmd cmds[] = {
        {"solve", cmd_emp_solve, "multi-neighbourhood local search (TA, BO, BW, TSR, RO)"},
        {"score", cmd_emp_score, "recount a solution file and list violations"},
        {"gen", cmd_emp_gen, "write a solvable random instance"},
        {"milp", cmd_emp_milp, "write the MILP (CPLEX LP) and/or solve it with GLPK"},
        {"clique", cmd_emp_clique,
         "write the max-clique graph (DIMACS) and/or run the clique heuristic"},
        {"gen-data", cmd_emp_gendata,
         "scorer training data (move scorer; --decision place: candidate order)"},
        {"train-place", cmd_emp_train_place,
         "train a place scorer (listwise loss) on gen-data --decision place"},
        {"ab-stats", cmd_emp_ab_stats,
         "mean, standard error, paired and Welch t-tests of an A/B run"}};
    return cli_subcmd_run("emp", cmds, sizeof cmds / sizeof cmds[0], argc, argv);
}
