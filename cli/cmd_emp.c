/* heurnet emp: edge-matching puzzles — score a solution, generate an
 * instance, run the local search; the MILP and clique models are in
 * cmd_emp_models.c. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_emp.h"
#include "common/hn.h"
#include "search/emp/emp.h"

/* ---- shared instance options --------------------------------------------- */

int emp_parse_format(const char *s, int *format)
{
    if (!strcmp(s, "meta"))
        *format = SRCH_EM_FORMAT_META;
    else if (!strcmp(s, "e2pieces"))
        *format = SRCH_EM_FORMAT_E2;
    else
        return -1;
    return 0;
}

int emp_add_clue_arg(emp_inst_opts *io, const char *s)
{
    long v[4];
    char buf[128], *save = NULL;
    if (io->nclues >= EMP_MAX_CLUE_ARGS || strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    char *tok = strtok_r(buf, ",", &save);
    for (int k = 0; k < 4; k++) {
        if (!tok || cli_parse_long(tok, 0, 1L << 20, &v[k]) < 0)
            return -1;
        tok = strtok_r(NULL, ",", &save);
    }
    if (tok)
        return -1;
    for (int k = 0; k < 4; k++)
        io->clues[io->nclues][k] = (int)v[k];
    io->nclues++;
    return 0;
}

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

static void score_help(FILE *f)
{
    fprintf(f, "usage: heurnet emp score [options] INSTANCE SOLUTION\n\n"
               "Recount a solution file (`piece rotation` per cell, row-major) and list\n"
               "violations of the frame rule, duplicate pieces and clues.\n\n"
               "  --format meta|e2pieces  instance file format [meta]\n"
               "  --clue P,R,C,ROT        fixed piece (0-based piece, row, column), repeatable\n"
               "  -h, --help              this help\n"
               "Prints: score=S joins=J violations=V; exits 1 when V > 0.\n");
}

static int cmd_emp_score(int argc, char **argv)
{
    emp_inst_opts io = {0};
    static const struct option lo[] = {{"format", required_argument, 0, 'f'},
                                       {"clue", required_argument, 0, 'c'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        if (ch == 'h') {
            score_help(stdout);
            return CLI_EXIT_OK;
        } else if (ch == 'f') {
            if (emp_parse_format(optarg, &io.format) < 0)
                return cli_usage("emp score", "--format must be meta or e2pieces, not '%s'",
                                 optarg);
        } else if (ch == 'c') {
            if (emp_add_clue_arg(&io, optarg) < 0)
                return cli_usage("emp score", "--clue wants P,R,C,ROT, got '%s'", optarg);
        } else {
            return cli_usage("emp score", "unknown option");
        }
    }
    if (argc - optind != 2)
        return cli_usage("emp score", "expected INSTANCE and SOLUTION");
    srch_em_inst *in = emp_load(argv[optind], &io);
    if (!in)
        return CLI_EXIT_FAIL;
    int n = srch_em_inst_width(in) * srch_em_inst_height(in), rc = CLI_EXIT_OK;
    int *piece = malloc(sizeof(int) * (size_t)n), *rot = malloc(sizeof(int) * (size_t)n);
    if (!piece || !rot) {
        rc = cli_fail("out of memory");
    } else if (srch_em_sol_read(in, argv[optind + 1], piece, rot) != HN_OK) {
        rc = cli_fail("");
    } else {
        int v;
        char msg[1024];
        int s = srch_em_sol_check(in, piece, rot, &v, msg, sizeof msg);
        printf("score=%d joins=%d violations=%d\n", s, srch_em_inst_joins(in), v);
        if (v) {
            fprintf(stderr, "heurnet: %s: %d violation(s): %s\n", argv[optind + 1], v, msg);
            rc = CLI_EXIT_FAIL;
        }
    }
    free(piece);
    free(rot);
    srch_em_inst_free(in);
    return rc;
}

/* ---- gen ------------------------------------------------------------------ */

static void gen_help(FILE *f)
{
    fprintf(f, "usage: heurnet emp gen [options] -o INSTANCE\n\n"
               "Write a solvable random instance in META format (colours drawn per join,\n"
               "pieces shuffled and rotated).\n\n"
               "  --size N             board N x N [6]\n"
               "  --width W, --height H  rectangular board (override --size)\n"
               "  --frame-colours F    colours of joins along the frame [4]\n"
               "  --inner-colours I    colours of the other joins [6]\n"
               "  --seed S             random seed [1]\n"
               "  -o, --output FILE    instance file (required)\n"
               "  --solution FILE      also write the planted solution\n"
               "  -h, --help           this help\n");
}

static int cmd_emp_gen(int argc, char **argv)
{
    long w = 6, h = 6, fc = 4, ic = 6;
    uint64_t seed = 1;
    const char *out = NULL, *sol = NULL;
    static const struct option lo[] = {{"size", required_argument, 0, 'n'},
                                       {"width", required_argument, 0, 'W'},
                                       {"height", required_argument, 0, 'H'},
                                       {"frame-colours", required_argument, 0, 'F'},
                                       {"inner-colours", required_argument, 0, 'I'},
                                       {"seed", required_argument, 0, 's'},
                                       {"output", required_argument, 0, 'o'},
                                       {"solution", required_argument, 0, 'S'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    int ch, wset = 0, hset = 0;
    long size = 6;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "ho:", lo, NULL)) != -1) {
        switch (ch) {
        case 'h':
            gen_help(stdout);
            return CLI_EXIT_OK;
        case 'n':
            if (cli_parse_long(optarg, 3, 64, &size) < 0)
                return cli_usage("emp gen", "--size must be 3..64, not '%s'", optarg);
            break;
        case 'W':
            if (cli_parse_long(optarg, 3, 64, &w) < 0)
                return cli_usage("emp gen", "--width must be 3..64, not '%s'", optarg);
            wset = 1;
            break;
        case 'H':
            if (cli_parse_long(optarg, 3, 64, &h) < 0)
                return cli_usage("emp gen", "--height must be 3..64, not '%s'", optarg);
            hset = 1;
            break;
        case 'F':
            if (cli_parse_long(optarg, 1, 127, &fc) < 0)
                return cli_usage("emp gen", "--frame-colours must be 1..127, not '%s'", optarg);
            break;
        case 'I':
            if (cli_parse_long(optarg, 1, 127, &ic) < 0)
                return cli_usage("emp gen", "--inner-colours must be 1..127, not '%s'", optarg);
            break;
        case 's':
            if (cli_parse_u64(optarg, &seed) < 0)
                return cli_usage("emp gen", "--seed must be a non-negative integer");
            break;
        case 'o':
            out = optarg;
            break;
        case 'S':
            sol = optarg;
            break;
        default:
            return cli_usage("emp gen", "unknown option");
        }
    }
    if (optind != argc)
        return cli_usage("emp gen", "unexpected argument '%s'", argv[optind]);
    if (!out)
        return cli_usage("emp gen", "-o INSTANCE is required");
    if (!wset)
        w = size;
    if (!hset)
        h = size;
    int st, *planted = malloc(sizeof(int) * 2 * (size_t)(w * h));
    if (!planted)
        return cli_fail("out of memory");
    srch_em_inst *in = srch_em_inst_gen((int)w, (int)h, (int)fc, (int)ic, seed, planted, &st);
    int rc = CLI_EXIT_OK;
    if (!in || srch_em_inst_write(in, out) != HN_OK)
        rc = cli_fail(out);
    else if (sol && srch_em_sol_write(in, sol, planted, planted + w * h) != HN_OK)
        rc = cli_fail(sol);
    else
        printf("instance=%s width=%ld height=%ld frame_colours=%ld inner_colours=%ld seed=%llu "
               "joins=%d\n",
               out, w, h, fc, ic, (unsigned long long)seed, srch_em_inst_joins(in));
    free(planted);
    srch_em_inst_free(in);
    return rc;
}

/* ---- dispatch ------------------------------------------------------------- */

static void emp_help(FILE *f)
{
    fprintf(f,
            "usage: heurnet emp <command> [options]\n\n"
            "Edge-matching puzzles (Eternity II style).\n\n"
            "commands:\n"
            "  solve   multi-neighbourhood local search (TA, BO, BW, TSR, RO)\n"
            "  score   recount a solution file and list violations\n"
            "  gen     write a solvable random instance\n"
            "  milp    write the MILP (CPLEX LP) and/or solve it with GLPK\n"
            "  clique  write the max-clique graph (DIMACS) and/or run the clique heuristic\n"
            "  gen-data  scorer training data (move scorer; --decision place: candidate order)\n"
            "  train-place  train a place scorer (listwise loss) on gen-data --decision place\n"
            "  ab-stats  mean, standard error, paired and Welch t-tests of an A/B run\n\n"
            "'heurnet emp <command> --help' prints its options and defaults.\n"
            "Eternity II's centre clue: --clue 138,8,7,2 (0-based piece, row, column, rotation)\n"
            "for the shared eternity2.txt.\n");
}

int cmd_emp(int argc, char **argv)
{
    if (argc < 2) {
        emp_help(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *sub = argv[1];
    if (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help")) {
        emp_help(stdout);
        return CLI_EXIT_OK;
    }
    if (!strcmp(sub, "score"))
        return cmd_emp_score(argc - 1, argv + 1);
    if (!strcmp(sub, "gen"))
        return cmd_emp_gen(argc - 1, argv + 1);
    if (!strcmp(sub, "solve"))
        return cmd_emp_solve(argc - 1, argv + 1);
    if (!strcmp(sub, "milp"))
        return cmd_emp_milp(argc - 1, argv + 1);
    if (!strcmp(sub, "gen-data"))
        return cmd_emp_gendata(argc - 1, argv + 1);
    if (!strcmp(sub, "clique"))
        return cmd_emp_clique(argc - 1, argv + 1);
    if (!strcmp(sub, "train-place"))
        return cmd_emp_train_place(argc - 1, argv + 1);
    if (!strcmp(sub, "ab-stats"))
        return cmd_emp_ab_stats(argc - 1, argv + 1);
    fprintf(stderr, "heurnet emp: unknown command '%s'\nTry 'heurnet emp --help'.\n", sub);
    return CLI_EXIT_USAGE;
}
