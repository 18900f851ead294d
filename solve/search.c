/* Heuristics with a network and the choice of search algorithm, shared by
 * heurnet solve, heurnet eval and programs that embed heurnet. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "solve/pdb_cache.h"
#include "solve/search.h"
#include "nn/nn.h"

static const char *const ALGO_NAMES[] = {"idastar", "astar", "wastar", "batch-astar",
                                         "focal",   "bwas",  "anytime"};
#define N_ALGOS (int)(sizeof ALGO_NAMES / sizeof *ALGO_NAMES)

int heurnet_algo_parse(const char *s, int *algo)
{
    for (int i = 0; i < N_ALGOS; i++)
        if (!strcmp(s, ALGO_NAMES[i])) {
            *algo = i;
            return 0;
        }
    return -1;
}

const char *heurnet_algo_name(int algo)
{
    return algo >= 0 && algo < N_ALGOS ? ALGO_NAMES[algo] : "?";
}

const char *heurnet_default_heuristic(int width)
{
    return width == 3 ? "pdb:8" : width == 4 ? "pdb:7-8" : "pdb:6-6-6-6";
}

/* The settings of an ann: spec after the model path. */
typedef struct {
    char path[1024];
    char floor[256]; /* admissible heuristic for the max, "" = none */
    srch_np_ann_opts o;
} ann_spec;

/* The whole of `s` is a number in [lo, hi]. */
static int parse_num(const char *s, double lo, double hi, double *out)
{
    char *end;
    if (!hn_number_plain(s, lo < 0, 1))
        return -1;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v >= lo && v <= hi))
        return -1;
    *out = v;
    return 0;
}

static int ann_option(const char *spec, const char *part, ann_spec *a)
{
    double v;
    if (!strncmp(part, "delta:", 6)) {
        if (parse_num(part + 6, 0, HUGE_VAL, &a->o.delta))
            goto bad;
    } else if (!strncmp(part, "scale:", 6)) {
        if (parse_num(part + 6, 1, 1000, &v) || v != (int)v)
            goto bad;
        a->o.scale = (int)v;
    } else if (!strcmp(part, "mirror")) {
        a->o.mirror = 1;
    } else if (!strcmp(part, "acc16")) {
        a->o.acc16 = 1;
    } else if (!strcmp(part, "q8") || !strcmp(part, "sparse") || !strcmp(part, "dense")) {
        a->o.engine = part[0] == 'q'   ? SRCH_NP_ANN_Q8
                      : part[0] == 's' ? SRCH_NP_ANN_SPARSE
                                       : SRCH_NP_ANN_DENSE;
    } else if (!strncmp(part, "cache:", 6)) {
        if (parse_num(part + 6, 0, 28, &v) || v != (int)v)
            goto bad;
        a->o.cache_bits = (int)v;
    } else if (!strncmp(part, "ann:", 4)) {
        return hn_fail(HN_ERR_ARG, "heuristic '%s': only one ann: part is allowed", spec);
    } else if (a->floor[0]) {
        return hn_fail(HN_ERR_ARG, "heuristic '%s': only one admissible part is allowed", spec);
    } else {
        snprintf(a->floor, sizeof a->floor, "%s", part);
    }
    return 0;
bad:
    return hn_fail(HN_ERR_ARG,
                   "heuristic '%s': bad setting '%s' (delta:D >= 0, scale:1..1000, "
                   "cache:0..28 (24 * 2^BITS bytes per thread), mirror, sparse, q8, acc16, "
                   "dense)",
                   spec, part);
}

/* Split "ann:PATH,part,part". */
static int ann_parse(const char *spec, ann_spec *a)
{
    *a = (ann_spec){.o = SRCH_NP_ANN_DEFAULTS};
    char buf[1400];
    if (strlen(spec) >= sizeof buf)
        return hn_fail(HN_ERR_ARG, "heuristic '%.40s...': too long", spec);
    snprintf(buf, sizeof buf, "%s", spec + 4);
    char *save = NULL, *path = strtok_r(buf, ",", &save);
    if (!path || strlen(path) >= sizeof a->path)
        return hn_fail(HN_ERR_ARG, "heuristic '%s': expected ann:MODEL.h5", spec);
    snprintf(a->path, sizeof a->path, "%s", path);
    for (char *p = strtok_r(NULL, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        int rc = ann_option(spec, p, a);
        if (rc)
            return rc;
    }
    return 0;
}

/* Every search thread fills its own cache: refuse caches that together
 * would take more than half of physical memory (cache:28 is 6.4 GB a
 * thread), which swap or get the process killed instead of failing. */
static int cache_fits(const char *spec, int bits, int threads)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (bits <= 0 || pages <= 0 || page <= 0)
        return 0;
    double gb = 1e-9, phys = (double)pages * (double)page;
    double one = (double)srch_np_ann_cache_bytes(bits), all = one * (threads > 1 ? threads : 1);
    if (all <= phys / 2)
        return 0;
    int fit = bits;
    while (fit > 0 && (double)srch_np_ann_cache_bytes(fit) * (threads > 1 ? threads : 1) > phys / 2)
        fit--;
    return hn_fail(HN_ERR_ARG,
                   "heuristic '%s': cache:%d takes %.2f GB per search thread (%d thread%s: "
                   "%.2f GB), more than half of the %.2f GB of physical memory; use cache:%d or "
                   "less, or fewer threads",
                   spec, bits, one * gb, threads > 1 ? threads : 1, threads > 1 ? "s" : "",
                   all * gb, phys * gb, fit);
}

int heurnet_ann_settings_parse(const char *settings, srch_np_ann_opts *o, char *floor, size_t cap)
{
    char spec[1400];
    if (snprintf(spec, sizeof spec, "ann:MODEL,%s", settings) >= (int)sizeof spec)
        return hn_fail(HN_ERR_ARG, "ann: settings '%.40s...': too long", settings);
    ann_spec a;
    int rc = ann_parse(spec, &a);
    if (!rc) {
        *o = a.o;
        snprintf(floor, cap, "%s", a.floor);
    }
    return rc;
}

int heurnet_ann_spec_check(const char *spec, char *floor, size_t cap)
{
    ann_spec a;
    int rc = ann_parse(spec, &a);
    if (!rc)
        snprintf(floor, cap, "%s", a.floor);
    return rc;
}

/* Two heuristics built from one name (as pdb:6-6-6-6): the same tables,
 * so one pass can give both values. */
static int same_heuristic(const srch_np_heur *x, const srch_np_heur *y)
{
    return x && y && !strcmp(srch_np_heur_name(x), srch_np_heur_name(y));
}

/* The heuristic of an ann: spec; its admissible part is copied to
 * floor_spec and, unless `no_floor`, becomes the floor of the max. */
static int ann_build(const char *spec, int width, int goal, int quiet, int threads, int no_floor,
                     srch_np_heur **out, char *floor_spec, size_t cap)
{
    ann_spec a;
    int rc = ann_parse(spec, &a);
    if (!rc)
        rc = cache_fits(spec, a.o.cache_bits, threads);
    if (rc)
        return rc;
    snprintf(floor_spec, cap, "%s", a.floor);
    srch_np_heur *floor = NULL;
    if (a.floor[0] && !no_floor && (rc = heurnet_heur_new(a.floor, width, goal, quiet, &floor)))
        return rc;
    /* one BLAS thread per search thread: the calls are small and searches
     * parallelise over boards (--threads) */
    nn_blas_threads(1);
    nn_model *m = nn_model_load(a.path, &rc);
    if (!m) {
        srch_np_heur_free(floor);
        return rc ? rc : HN_ERR_IO;
    }
    rc = heurnet_ann_model_heur(m, a.path, width, goal, quiet, floor, &a.o, out);
    nn_model_free(m);
    /* a residual network over its own floor (both built from one name, as
       ann:M,pdb:6-6-6-6 on a model with residual = "pdb:6-6-6-6"): one
       table pass per board gives both; *out owns floor from here on */
    if (!rc && same_heuristic(srch_np_heur_ann_base(*out), floor) &&
        (rc = srch_np_heur_ann_share_floor(*out))) {
        srch_np_heur_free(*out);
        *out = NULL;
    }
    return rc;
}

int heurnet_residual_base(const nn_model *m, const char *name, int width, int goal, int quiet,
                          srch_np_heur **out)
{
    *out = NULL;
    const char *spec = nn_model_get_meta_str(m, "residual");
    if (!spec)
        return 0;
    int rc = !spec[0] || !strncmp(spec, "ann:", 4)
                 ? HN_ERR_ARG
                 : heurnet_heur_new(spec, width, goal, quiet, out);
    /* other failures (a table that cannot be built) keep their own message */
    if (rc == HN_ERR_ARG)
        return hn_fail(HN_ERR_ARG,
                       "%s: attribute residual = \"%s\" is not an admissible heuristic "
                       "(expected e.g. \"pdb:6-6-6-6\"; docs/formats.md)",
                       name, spec);
    return rc;
}

int heurnet_ann_model_heur(const nn_model *m, const char *name, int width, int goal, int quiet,
                           srch_np_heur *floor, const srch_np_ann_opts *o, srch_np_heur **out)
{
    srch_np_heur *base = NULL;
    int rc = heurnet_residual_base(m, name, width, goal, quiet, &base);
    if (rc) {
        srch_np_heur_free(floor);
        return rc;
    }
    *out = srch_np_heur_ann_new(m, name, width, goal, floor, o, &rc);
    if (!*out) {
        srch_np_heur_free(base);
        return rc ? rc : HN_ERR_NOMEM;
    }
    if (base && (rc = srch_np_heur_ann_set_base(*out, base))) {
        srch_np_heur_free(*out);
        *out = NULL;
    }
    return rc;
}

int heurnet_heur_ann_new(const char *spec, int width, int goal, int quiet, srch_np_heur **out)
{
    char floor[256];
    *out = NULL;
    return ann_build(spec, width, goal, quiet, 1, 0, out, floor, sizeof floor);
}

int heurnet_search_setup(heurnet_search *s, const char *spec, const char *adm_spec, int width,
                         int goal, int quiet)
{
    s->h = s->adm = NULL;
    char floor[256] = "";
    int rc = strncmp(spec, "ann:", 4)
                 ? heurnet_heur_new(spec, width, goal, quiet, &s->h)
                 /* anytime takes the max with its admissible heuristic itself:
                    max(max(net, H) - delta, H) = max(net - delta, H), so the floor
                    would be a second lookup of the same table per board */
                 : ann_build(spec, width, goal, quiet, s->threads, s->algo == HEURNET_ALGO_ANYTIME,
                             &s->h, floor, sizeof floor);
    if (rc)
        return rc;
    if (s->algo == HEURNET_ALGO_IDASTAR && srch_np_heur_scale(s->h) != 1) {
        heurnet_search_free(s);
        return hn_fail(HN_ERR_ARG,
                       "IDA* needs whole-move heuristic values; drop scale: from '%s' or use "
                       "--algo astar",
                       spec);
    }
    if (s->algo != HEURNET_ALGO_FOCAL && s->algo != HEURNET_ALGO_ANYTIME)
        return 0;
    if (!adm_spec)
        adm_spec = floor[0] ? floor : heurnet_default_heuristic(width);
    if (!strncmp(adm_spec, "ann:", 4)) {
        heurnet_search_free(s);
        return hn_fail(HN_ERR_ARG,
                       "%s: --admissible '%s' must be an admissible heuristic, not a network",
                       heurnet_algo_name(s->algo), adm_spec);
    }
    if ((rc = heurnet_heur_new(adm_spec, width, goal, quiet, &s->adm))) {
        heurnet_search_free(s);
        return rc;
    }
    /* a residual network over the admissible heuristic itself (built from
       the same name): one table pass per board gives both values */
    if (same_heuristic(srch_np_heur_ann_base(s->h), s->adm) &&
        (rc = srch_np_heur_ann_share_base(s->h, s->adm)))
        heurnet_search_free(s);
    return rc;
}

void heurnet_search_free(heurnet_search *s)
{
    srch_np_heur_free(s->h);
    srch_np_heur_free(s->adm);
    s->h = s->adm = NULL;
}

int heurnet_search_solve(const heurnet_search *s, const srch_np_board *b, const srch_limits *lim,
                         srch_np_result *res, srch_np_ann_stats *nn)
{
    srch_np_ann_stats before, after;
    srch_np_heur_ann_thread_stats(s->h, &before);
    srch_np_bfs_opts one = {.batch = 1, .weight = 1};
    switch (s->algo) {
    case HEURNET_ALGO_IDASTAR:
        srch_np_idastar(b, s->h, lim, res);
        break;
    case HEURNET_ALGO_ASTAR:
        /* fixed-point values need the scale-aware search; batch 1 is plain A* */
        if (srch_np_heur_scale(s->h) == 1)
            srch_np_astar(b, s->h, lim, res);
        else
            srch_np_batch_astar(b, s->h, &one, lim, res);
        break;
    case HEURNET_ALGO_WASTAR:
    case HEURNET_ALGO_BATCH:
        srch_np_batch_astar(b, s->h, &s->bfs, lim, res);
        break;
    case HEURNET_ALGO_BWAS: /* lambda*g + h orders like g + h/lambda */
        srch_np_batch_astar(b, s->h, &(srch_np_bfs_opts){s->bfs.batch, 1.0 / s->bfs.weight}, lim,
                            res);
        break;
    case HEURNET_ALGO_ANYTIME:
        srch_np_anytime_ida(b, s->h, s->adm, s->deltas, s->ndeltas, s->weights, s->nweights,
                            &s->shortcut, &s->ida, lim, res);
        break;
    default:
        srch_np_focal(b, s->adm, s->h, s->bound, lim, res);
        break;
    }
    if (s->algo != HEURNET_ALGO_ANYTIME && s->shortcut.max_window && res->status == 0 &&
        res->nmoves == res->length) {
        double t0 = hn_now();
        res->status = srch_np_shortcut(b, res->moves, &res->nmoves, &s->shortcut, 0, &res->saved);
        res->length = res->nmoves;
        res->seconds += hn_now() - t0;
    }
    srch_np_heur_ann_thread_stats(s->h, &after);
    *nn = (srch_np_ann_stats){.rows = after.rows - before.rows,
                              .calls = after.calls - before.calls,
                              .hits = after.hits - before.hits,
                              .seconds = after.seconds - before.seconds,
                              .acc_updates = after.acc_updates - before.acc_updates};
    return res->status;
}
