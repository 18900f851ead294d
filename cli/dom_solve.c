/* heurnet solve on any domain: every state of an instance file searched by
 * the generic core, one key=value record per state and a '#' summary line,
 * in the n-puzzle command's format. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "common/hn.h"

typedef struct {
    heurnet_dom_opts o;
    long threads;
    int quiet;
    const char *file;
} solve_args;

static void usage(FILE *out)
{
    fprintf(out, "usage: heurnet solve --domain D [options] FILE\n"
                 "       heurnet solve --puzzle N [--goal G] [options] FILE\n\n"
                 "Search every state of FILE (one per line, `[id [length]] STATE`, '#' comments)\n"
                 "on domain D. Prints per state: id= status= length= expanded= generated=\n"
                 "seconds= h0= nn_rows= stored= proven= phases= saved= [beam: first_seconds=\n"
                 "limit=] [optimal=|ref=] moves=, then a '#' summary line.\n\n");
    cli_dom_search_help(out);
    fprintf(out, "  --puzzle N          short for --domain npuzzle:WxW (N = W*W - 1: 8, 15, 24,\n"
                 "                      ..), the goal 0 1 2 .. (blank first)\n"
                 "  --goal G            with --puzzle (or a --model of a square n-puzzle):\n"
                 "                      blank-first, or blank-last (1 2 .. 0; the domain\n"
                 "                      npuzzle:WxW:blank-last) [blank-first]\n");
    fprintf(out, "  --reference         the file's lengths are references, not optima\n"
                 "  --threads T         states in parallel [1]\n"
                 "  -q, --quiet         no progress messages\n"
                 "  -h, --help          this help\n\n"
                 "Exit status: 0 all solved, 1 a bad file, a state not solved, or a known\n"
                 "optimum missed by a search that promises optimality, 2 misuse.\n");
}

static int parse_args(int argc, char **argv, solve_args *a, int *reference)
{
    static const struct option opts[] = {CLI_DOM_SEARCH_LONGOPTS,
                                         {"reference", no_argument, 0, 'r'},
                                         {"threads", required_argument, 0, 'T'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    int c, rc;
    optind = 1;
    while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
        if (cli_dom_search_opt("solve", c, optarg, &a->o, &rc)) {
            if (rc)
                return rc;
            continue;
        }
        if (c == 'h') {
            usage(stdout);
            return -1;
        } else if (c == 'q')
            a->quiet = 1;
        else if (c == 'r')
            *reference = 1;
        else if (c == 'T') {
            if (cli_parse_long(optarg, 1, 256, &a->threads))
                return cli_usage("solve", "--threads must be 1..256, not '%s'", optarg);
        } else
            return cli_usage("solve", "unknown option");
    }
    if (optind != argc - 1)
        return cli_usage("solve", "exactly one instance FILE is required");
    a->file = argv[optind];
    return 0;
}

static void print_record(const dom *d, const dom_instance_rec *x, const srch_dom_result *r,
                         int reference, int algo)
{
    printf("id=%s status=%s length=%d expanded=%llu generated=%llu seconds=%.4f h0=%d "
           "nn_rows=%llu stored=%llu proven=%d phases=%d saved=%d",
           x->id, r->status == 0 ? "solved" : hn_strerror(r->status), r->length,
           (unsigned long long)r->expanded, (unsigned long long)r->generated, r->seconds, r->h0,
           (unsigned long long)r->rows, (unsigned long long)r->stored, r->proven, r->phases,
           r->saved);
    if (algo == HEURNET_DOM_BEAM) /* when a path was first held; limit=1: the best one so far */
        printf(" first_seconds=%.4f limit=%d", r->status ? -1.0 : r->first_seconds, r->limited);
    if (algo == HEURNET_DOM_IDASTAR)
        printf(" nodes_per_s=%.0f", r->seconds > 0 ? (double)r->expanded / r->seconds : 0.0);
    if (r->proof_from >= 0) /* the proof stage: the length it began from, its IDA*'s speed */
        printf(" proof_from=%d proof_expanded=%llu proof_seconds=%.4f", r->proof_from,
               (unsigned long long)r->proof_expanded, r->proof_seconds);
    if (x->length >= 0)
        printf(" %s=%d", reference ? "ref" : "optimal", x->length);
    static char moves[SRCH_DOM_MAX_PATH * 8 + 1];
    if (r->status == 0)
        dom_format_moves(d, r->moves, r->length, moves, sizeof moves);
    printf(" moves=%s\n", r->status == 0 ? moves : "-");
}

static int summarize(const solve_args *a, const heurnet_dom_search *s, const srch_dom_result *res,
                     const int *known, size_t n, int reference, double wall)
{
    const heurnet_dom_opts *o = heurnet_dom_search_settings(s);
    heurnet_dom_summary m;
    heurnet_dom_summarize(res, known, n, &m);
    char ml[32], mr[32], me[32];
    printf("# count=%zu solved=%zu %s=%zu mean_length=%s mean_%s=%s %s=%zu mean_expanded=%s "
           "total_seconds=%.3f wall_seconds=%.3f threads=%ld domain=%s algo=%s heuristic=%s",
           m.count, m.solved, reference ? "with_reference" : "optimal_checked", m.with_known,
           cli_mean_or_na(ml, "%.3f", m.length, m.solved), reference ? "reference" : "optimal",
           cli_mean_or_na(mr, "%.3f", m.known, m.with_known), reference ? "shorter" : "not_optimal",
           reference ? m.shorter : m.differ, cli_mean_or_na(me, "%.1f", m.expanded, m.solved),
           m.seconds, wall, a->threads, dom_spec(heurnet_dom_search_domain(s)),
           heurnet_dom_algo_name(o->algo), o->heuristic);
    if (o->algo == HEURNET_DOM_ASTAR || o->algo == HEURNET_DOM_WASTAR ||
        o->algo == HEURNET_DOM_BWAS)
        printf(" weight=%g", o->so.weight);
    if (o->algo == HEURNET_DOM_BWAS)
        printf(" batch=%d", o->so.batch);
    if (o->algo == HEURNET_DOM_FOCAL)
        printf(" bound=%g admissible=%s", o->bound, o->admissible);
    printf(" mean_expanded_all=%.1f\n", n ? m.expanded_all / (double)n : 0.0);
    int exact = !reference && heurnet_dom_search_exact(s);
    if (m.differ && exact)
        fprintf(stderr, "heurnet solve: %zu solutions differ from the known optimal length\n",
                m.differ);
    if (m.solved < n)
        fprintf(stderr, "heurnet solve: %zu of %zu states not solved (limit or interrupted)\n",
                n - m.solved, n);
    return (m.differ && exact) || m.solved < n ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

/* Every state searched, then the records and the summary. */
static int solve_all(const solve_args *a, heurnet_dom_search *s, const dom_instance_rec *inst,
                     size_t n, int reference)
{
    srch_dom_result *res = malloc((n ? n : 1) * sizeof *res);
    int *known = malloc((n ? n : 1) * sizeof *known), rc;
    if (!res || !known) {
        fprintf(stderr, "heurnet solve: out of memory\n");
        rc = CLI_EXIT_FAIL;
    } else {
        for (size_t i = 0; i < n; i++)
            known[i] = inst[i].length;
        hn_stop_install();
        double t0 = hn_now();
        int st = heurnet_dom_search_batch(s, n ? inst->state : NULL, sizeof *inst, n,
                                          (int)a->threads, res);
        if (st)
            fprintf(stderr, "heurnet solve: %s\n", hn_errmsg());
        const dom *d = heurnet_dom_search_domain(s);
        for (size_t i = 0; i < n; i++)
            print_record(d, &inst[i], &res[i], reference, heurnet_dom_search_settings(s)->algo);
        rc = summarize(a, s, res, known, n, reference, hn_now() - t0);
        rc = st ? CLI_EXIT_FAIL : rc;
    }
    free(known);
    free(res);
    return rc;
}

int cli_dom_solve(int argc, char **argv)
{
    solve_args a = {.threads = 1};
    int reference = 0;
    heurnet_dom_opts_default(&a.o);
    int rc = parse_args(argc, argv, &a, &reference);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    cli_log_init(a.quiet);
    heurnet_dom_search *s = NULL;
    dom *d = NULL;
    dom_instance_rec *inst = NULL;
    size_t n = 0;
    if (!(rc = cli_dom_setup_n("solve", &a.o, (int)a.threads, a.file, &d, &s, &inst, &n)))
        rc = solve_all(&a, s, inst, n, reference);
    free(inst);
    heurnet_dom_search_free(s);
    dom_free(d);
    return rc;
}

/* heurnet solve: every domain on the one search core; --puzzle N [--goal G]
 * is the short form of a square n-puzzle's --domain. */
int cmd_solve(int argc, char **argv)
{
    char spec[64], **nv = malloc(sizeof *nv * ((size_t)argc + 3));
    int nc, rc;
    if (!nv) {
        fprintf(stderr, "heurnet solve: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    rc = cli_dom_puzzle_args("solve", argc, argv, nv, &nc, spec, sizeof spec);
    if (!rc)
        rc = cli_dom_solve(nc, nv);
    free(nv);
    return rc;
}
