/* Heuristics with a network and the choice of search algorithm, shared by
 * heurnet solve and heurnet eval. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solve/search.h"
#include "cli/cli.h"
#include "nn/nn.h"

static const char *const ALGO_NAMES[] = {"idastar", "astar", "wastar", "batch-astar", "focal"};

int cli_algo_parse(const char *s, int *algo)
{
    for (int i = 0; i < 5; i++)
        if (!strcmp(s, ALGO_NAMES[i])) {
            *algo = i;
            return 0;
        }
    return -1;
}

const char *cli_algo_name(int algo)
{
    return algo >= 0 && algo < 5 ? ALGO_NAMES[algo] : "?";
}

const char *cli_default_heuristic(int width)
{
    return width == 3 ? "pdb:8" : width == 4 ? "pdb:7-8" : "pdb:6-6-6-6";
}

/* The settings of an ann: spec after the model path. */
typedef struct {
    char path[1024];
    char floor[256]; /* admissible heuristic for the max, "" = none */
    srch_np_ann_opts o;
} ann_spec;

static int ann_option(const char *spec, const char *part, ann_spec *a)
{
    long v;
    if (!strncmp(part, "delta:", 6)) {
        if (cli_parse_double(part + 6, &a->o.delta) || a->o.delta < 0)
            goto bad;
    } else if (!strncmp(part, "scale:", 6)) {
        if (cli_parse_long(part + 6, 1, 1000, &v))
            goto bad;
        a->o.scale = (int)v;
    } else if (!strcmp(part, "mirror")) {
        a->o.mirror = 1;
    } else if (!strncmp(part, "cache:", 6)) {
        if (cli_parse_long(part + 6, 0, 28, &v))
            goto bad;
        a->o.cache_bits = (int)v;
    } else if (!strncmp(part, "ann:", 4)) {
        fprintf(stderr, "heurnet: heuristic '%s': only one ann: part is allowed\n", spec);
        return CLI_EXIT_USAGE;
    } else if (a->floor[0]) {
        fprintf(stderr, "heurnet: heuristic '%s': only one admissible part is allowed\n", spec);
        return CLI_EXIT_USAGE;
    } else {
        snprintf(a->floor, sizeof a->floor, "%s", part);
    }
    return 0;
bad:
    fprintf(stderr,
            "heurnet: heuristic '%s': bad setting '%s' (delta:D >= 0, scale:1..1000, "
            "cache:0..28, mirror)\n",
            spec, part);
    return CLI_EXIT_USAGE;
}

/* Split "ann:PATH,part,part". */
static int ann_parse(const char *spec, ann_spec *a)
{
    *a = (ann_spec){.o = SRCH_NP_ANN_DEFAULTS};
    char buf[1400];
    if (strlen(spec) >= sizeof buf) {
        fprintf(stderr, "heurnet: heuristic '%.40s...': too long\n", spec);
        return CLI_EXIT_USAGE;
    }
    snprintf(buf, sizeof buf, "%s", spec + 4);
    char *save = NULL, *path = strtok_r(buf, ",", &save);
    if (!path || strlen(path) >= sizeof a->path) {
        fprintf(stderr, "heurnet: heuristic '%s': expected ann:MODEL.h5\n", spec);
        return CLI_EXIT_USAGE;
    }
    snprintf(a->path, sizeof a->path, "%s", path);
    for (char *p = strtok_r(NULL, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        int rc = ann_option(spec, p, a);
        if (rc)
            return rc;
    }
    return 0;
}

static int ann_build(const char *spec, int width, int goal, int quiet, srch_np_heur **out,
                     char *floor_spec, size_t cap)
{
    ann_spec a;
    int rc = ann_parse(spec, &a);
    if (rc)
        return rc;
    snprintf(floor_spec, cap, "%s", a.floor);
    srch_np_heur *floor = NULL;
    if (a.floor[0] && (rc = cli_heur_get(a.floor, width, goal, quiet, &floor)))
        return rc;
    int st;
    /* one BLAS thread per search thread: the calls are small and searches
     * parallelise over boards (--threads) */
    nn_blas_threads(1);
    *out = srch_np_heur_ann_load(a.path, width, goal, floor, &a.o, &st);
    if (!*out) {
        fprintf(stderr, "heurnet: %s\n", hn_errmsg());
        return st == HN_ERR_NOMEM || st == HN_ERR_IO ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
    }
    return 0;
}

int cli_search_setup(cli_search *s, const char *spec, const char *adm_spec, int width, int goal,
                     int quiet)
{
    s->h = s->adm = NULL;
    char floor[256] = "";
    int rc = strncmp(spec, "ann:", 4)
                 ? cli_heur_get(spec, width, goal, quiet, &s->h)
                 : ann_build(spec, width, goal, quiet, &s->h, floor, sizeof floor);
    if (rc)
        return rc;
    if (s->algo == CLI_ALGO_IDASTAR && srch_np_heur_scale(s->h) != 1) {
        fprintf(stderr,
                "heurnet: IDA* needs whole-move heuristic values; drop scale: from '%s' "
                "or use --algo astar\n",
                spec);
        cli_search_free(s);
        return CLI_EXIT_USAGE;
    }
    if (s->algo != CLI_ALGO_FOCAL)
        return 0;
    if (!adm_spec)
        adm_spec = floor[0] ? floor : cli_default_heuristic(width);
    if (!strncmp(adm_spec, "ann:", 4)) {
        fprintf(stderr,
                "heurnet: focal: --admissible '%s' must be an admissible heuristic, not a "
                "network\n",
                adm_spec);
        cli_search_free(s);
        return CLI_EXIT_USAGE;
    }
    if ((rc = cli_heur_get(adm_spec, width, goal, quiet, &s->adm)))
        cli_search_free(s);
    return rc;
}

void cli_search_free(cli_search *s)
{
    srch_np_heur_free(s->h);
    srch_np_heur_free(s->adm);
    s->h = s->adm = NULL;
}

int cli_search_solve(const cli_search *s, const srch_np_board *b, const srch_limits *lim,
                     srch_np_result *res, srch_np_ann_stats *nn)
{
    srch_np_ann_stats before, after;
    srch_np_heur_ann_thread_stats(s->h, &before);
    srch_np_bfs_opts one = {.batch = 1, .weight = 1};
    switch (s->algo) {
    case CLI_ALGO_IDASTAR:
        srch_np_idastar(b, s->h, lim, res);
        break;
    case CLI_ALGO_ASTAR:
        /* fixed-point values need the scale-aware search; batch 1 is plain A* */
        if (srch_np_heur_scale(s->h) == 1)
            srch_np_astar(b, s->h, lim, res);
        else
            srch_np_batch_astar(b, s->h, &one, lim, res);
        break;
    case CLI_ALGO_WASTAR:
    case CLI_ALGO_BATCH:
        srch_np_batch_astar(b, s->h, &s->bfs, lim, res);
        break;
    default:
        srch_np_focal(b, s->adm, s->h, s->bound, lim, res);
        break;
    }
    srch_np_heur_ann_thread_stats(s->h, &after);
    *nn = (srch_np_ann_stats){.rows = after.rows - before.rows,
                              .calls = after.calls - before.calls,
                              .hits = after.hits - before.hits,
                              .seconds = after.seconds - before.seconds};
    return res->status;
}
