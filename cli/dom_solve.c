/* heurnet solve on any domain: every state of an instance file searched by
 * the generic core, one key=value record per state and a '#' summary line,
 * in the n-puzzle command's format. */
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "common/hn.h"

typedef struct {
    cli_dom_search s;
    long threads;
    int quiet;
    const char *file;
} solve_args;

typedef struct {
    const solve_args *a;
    const dom *d;
    const srch_dom_heur *base; /* each thread searches with a clone */
    const dom_instance_rec *inst;
    srch_dom_result *res;
    size_t n;
    atomic_size_t next;
    int rc;
} job;

static void usage(FILE *out)
{
    fprintf(out, "usage: heurnet solve --domain D [options] FILE\n\n"
                 "Search every state of FILE (one per line, `[id [length]] STATE`, '#' comments)\n"
                 "on domain D. Prints per state: id= status= length= expanded= generated=\n"
                 "seconds= h0= nn_rows= stored= proven= phases= saved= [beam: first_seconds=\n"
                 "limit=] [optimal=|ref=] moves=, then a '#' summary line. A square n-puzzle\n"
                 "of 3x3..5x5 runs the n-puzzle command (heurnet solve --puzzle N --help).\n\n");
    cli_dom_search_help(out);
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
        if (cli_dom_search_opt("solve", c, optarg, &a->s, &rc)) {
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

static void *worker(void *arg)
{
    job *j = arg;
    int st;
    srch_dom_heur *h = srch_dom_heur_clone(j->base, &st);
    if (!h) {
        fprintf(stderr, "heurnet solve: %s\n", hn_errmsg());
        j->rc = CLI_EXIT_FAIL;
        return NULL;
    }
    for (size_t i; (i = atomic_fetch_add(&j->next, 1)) < j->n && !hn_stop_requested();)
        cli_dom_run(&j->a->s, j->d, j->inst[i].state, h, &j->a->s.lim, &j->res[i]);
    srch_dom_heur_free(h);
    return NULL;
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
    if (algo == CLI_DOM_BEAM) /* when a path was first held; limit=1: the best one so far */
        printf(" first_seconds=%.4f limit=%d", r->status ? -1.0 : r->first_seconds, r->limited);
    if (x->length >= 0)
        printf(" %s=%d", reference ? "ref" : "optimal", x->length);
    static char moves[SRCH_DOM_MAX_PATH * 8 + 1];
    if (r->status == 0)
        dom_format_moves(d, r->moves, r->length, moves, sizeof moves);
    printf(" moves=%s\n", r->status == 0 ? moves : "-");
}

static void run_all(job *j, const solve_args *a)
{
    for (size_t i = 0; i < j->n; i++)
        j->res[i] = (srch_dom_result){.status = HN_ERR_INTERRUPTED, .length = -1};
    pthread_t tid[256];
    long started = 0;
    for (; a->threads > 1 && started < a->threads; started++)
        if (pthread_create(&tid[started], NULL, worker, j))
            break;
    if (!started)
        worker(j);
    for (long t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
}

static int summarize(const solve_args *a, const job *j, int reference, double wall)
{
    size_t solved = 0, known = 0, wrong = 0, shorter = 0;
    double expanded = 0, seconds = 0, len = 0, ref = 0, all = 0;
    for (size_t i = 0; i < j->n; i++) {
        const srch_dom_result *r = &j->res[i];
        seconds += r->seconds;
        all += (double)r->expanded; /* an unsolved state: until its limit */
        if (r->status)
            continue;
        solved++;
        expanded += (double)r->expanded;
        len += r->length;
        if (j->inst[i].length >= 0) {
            known++;
            ref += j->inst[i].length;
            wrong += r->length != j->inst[i].length;
            shorter += r->length < j->inst[i].length;
        }
    }
    char ml[32], mr[32], me[32];
    printf("# count=%zu solved=%zu %s=%zu mean_length=%s mean_%s=%s %s=%zu mean_expanded=%s "
           "total_seconds=%.3f wall_seconds=%.3f threads=%ld domain=%s algo=%s heuristic=%s",
           j->n, solved, reference ? "with_reference" : "optimal_checked", known,
           cli_mean_or_na(ml, "%.3f", len, solved), reference ? "reference" : "optimal",
           cli_mean_or_na(mr, "%.3f", ref, known), reference ? "shorter" : "not_optimal",
           reference ? shorter : wrong, cli_mean_or_na(me, "%.1f", expanded, solved), seconds, wall,
           a->threads, dom_spec(j->d), cli_dom_algo_name(a->s.algo), a->s.heuristic);
    if (a->s.algo == CLI_DOM_FOCAL)
        printf(" bound=%g admissible=%s", a->s.bound, a->s.admissible);
    printf(" mean_expanded_all=%.1f\n", j->n ? all / (double)j->n : 0.0);
    int exact = !reference &&
                (a->s.algo == CLI_DOM_IDASTAR || (a->s.algo == CLI_DOM_FOCAL && a->s.bound == 1.0));
    if (wrong && exact)
        fprintf(stderr, "heurnet solve: %zu solutions differ from the known optimal length\n",
                wrong);
    if (solved < j->n)
        fprintf(stderr, "heurnet solve: %zu of %zu states not solved (limit or interrupted)\n",
                j->n - solved, j->n);
    return (wrong && exact) || solved < j->n || j->rc ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

int cli_dom_solve(int argc, char **argv)
{
    solve_args a = {.threads = 1};
    int reference = 0;
    cli_dom_search_init(&a.s);
    int rc = parse_args(argc, argv, &a, &reference);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    cli_log_init(a.quiet);
    dom *d = NULL;
    srch_dom_heur *h = NULL;
    dom_instance_rec *inst = NULL;
    size_t n = 0;
    if ((rc = cli_dom_setup("solve", &a.s, a.file, &d, &h, &inst, &n))) {
        srch_dom_heur_free(h);
        cli_dom_search_free(&a.s);
        dom_free(d);
        return rc;
    }
    job j = {.a = &a,
             .d = d,
             .base = h,
             .inst = inst,
             .n = n,
             .res = malloc((n ? n : 1) * sizeof *j.res)};
    if (!j.res) {
        fprintf(stderr, "heurnet solve: out of memory\n");
        rc = CLI_EXIT_FAIL;
    } else {
        hn_stop_install();
        double t0 = hn_now();
        run_all(&j, &a);
        for (size_t i = 0; i < n; i++)
            print_record(d, &inst[i], &j.res[i], reference, a.s.algo);
        rc = summarize(&a, &j, reference, hn_now() - t0);
    }
    free(j.res);
    free(inst);
    srch_dom_heur_free(h);
    cli_dom_search_free(&a.s);
    dom_free(d);
    return rc;
}
