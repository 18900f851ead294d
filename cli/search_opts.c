/* The search options solve and eval share, and the `search` attribute of a
 * model file: a model records the search it was tuned for, in the words of
 * the command line, and `solve --model` / `eval --model` replay it. */
#include "cli/search_opts.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "nn/nn.h"
#include "search/npuzzle/encode.h"

#define DEFAULT_BATCH 16
#define DEFAULT_BOUND 1.05
#define DEFAULT_LAMBDA 0.8

int cli_search_usage(const char *cmd, int hint, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (hint)
        return cli_usage(cmd, "%s", msg);
    fprintf(stderr, "heurnet %s: %s\n", cmd, msg);
    return CLI_EXIT_USAGE;
}

static int copy_spec(const char *cmd, int hint, const char *what, const char *arg, char *dst,
                     size_t cap)
{
    if (strlen(arg) >= cap || !arg[0])
        return cli_search_usage(cmd, hint, "%s must be a heuristic of 1..%zu characters", what,
                                cap - 1);
    memcpy(dst, arg, strlen(arg) + 1);
    return 0;
}

/* A comma-separated list of at most `max` numbers (and "inf" when
 * allow_inf) into out: the count, or -1 for an empty item, a bad number or
 * too many. */
static int parse_list(const char *arg, double *out, int max, int allow_inf)
{
    int n = 0;
    for (const char *p = arg;; p++) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char item[64];
        if (!len || len >= sizeof item || n == max)
            return -1;
        memcpy(item, p, len);
        item[len] = 0;
        out[n] = INFINITY;
        if (!(allow_inf && !strcmp(item, "inf")) && cli_parse_double(item, &out[n]))
            return -1;
        n++;
        if (!end)
            return n;
        p = end;
    }
}

/* "0,1,2.5,inf" into o->deltas: rising, 0..1000, inf only last. */
static int parse_deltas(const char *cmd, int hint, const char *arg, cli_search_opts *o)
{
    int n = parse_list(arg, o->deltas, SRCH_NP_MAX_DELTAS, 1);
    if (n < 0)
        return cli_search_usage(cmd, hint,
                                "--deltas must be 1..%d comma-separated numbers or inf, not "
                                "'%s'",
                                SRCH_NP_MAX_DELTAS, arg);
    if (srch_np_anytime_check(o->deltas, n, NULL, 0))
        return cli_search_usage(cmd, hint, "--deltas '%s': %s", arg, hn_errmsg());
    o->ndeltas = n;
    return 0;
}

/* "1.5" or, for anytime, "1.5,1.25,1.1" into o->weights (checked, with the
 * algorithm, in cli_search_opts_finish). */
static int parse_weights(const char *cmd, int hint, const char *arg, cli_search_opts *o)
{
    double w[SRCH_NP_MAX_WEIGHTS];
    int n = parse_list(arg, w, SRCH_NP_MAX_WEIGHTS, 0);
    for (int i = 0; i < n; i++)
        if (!(w[i] > 0) || w[i] > 100)
            n = -1;
    if (n < 0)
        return cli_search_usage(cmd, hint,
                                "--weight must be a number in (0, 100] (anytime: up to %d, "
                                "comma-separated), not '%s'",
                                SRCH_NP_MAX_WEIGHTS, arg);
    memcpy(o->weights, w, (size_t)n * sizeof *w);
    o->nweights = n;
    o->weight = w[0];
    return 0;
}

/* "W" or "W:NODES" into o->shortcut (0 = off). */
static int parse_shortcut(const char *cmd, int hint, const char *arg, cli_search_opts *o)
{
    char buf[64];
    long w, nodes = CLI_SHORTCUT_BUDGET;
    const char *colon = strchr(arg, ':');
    size_t len = colon ? (size_t)(colon - arg) : strlen(arg);
    if (len < sizeof buf) {
        memcpy(buf, arg, len);
        buf[len] = 0;
    }
    if (len >= sizeof buf || cli_parse_long(buf, 0, SRCH_NP_SHORTCUT_MAX_WINDOW, &w) ||
        (colon && cli_parse_long(colon + 1, 1, (long)SRCH_NP_SHORTCUT_MAX_BUDGET, &nodes)))
        return cli_search_usage(cmd, hint,
                                "--shortcut must be W or W:NODES (W 0 = off or 4..%d moves, "
                                "NODES 1..%llu), not '%s'",
                                SRCH_NP_SHORTCUT_MAX_WINDOW, SRCH_NP_SHORTCUT_MAX_BUDGET, arg);
    o->shortcut = (srch_np_shortcut_opts){.max_window = (int)w, .budget = (uint64_t)nodes};
    if (srch_np_shortcut_check(&o->shortcut))
        return cli_search_usage(cmd, hint, "--shortcut '%s': %s", arg, hn_errmsg());
    o->shortcut_given = 1;
    return 0;
}

/* One band "LO-HI:D" of --ida into *b; 0 or -1. */
static int parse_band(const char *item, srch_np_band *b)
{
    char lo[16], hi[16], d[32];
    const char *dash = strchr(item, '-'), *colon = strchr(item, ':');
    if (!dash || !colon || colon < dash || dash - item >= (long)sizeof lo ||
        colon - dash - 1 >= (long)sizeof hi || strlen(colon + 1) >= sizeof d)
        return -1;
    memcpy(lo, item, (size_t)(dash - item));
    lo[dash - item] = 0;
    memcpy(hi, dash + 1, (size_t)(colon - dash - 1));
    hi[colon - dash - 1] = 0;
    strcpy(d, colon + 1);
    long l, h;
    b->delta = INFINITY;
    if (cli_parse_long(lo, 1, SRCH_NP_MAX_PATH - 1, &l) ||
        cli_parse_long(hi, 1, SRCH_NP_MAX_PATH - 1, &h) ||
        (strcmp(d, "inf") && cli_parse_double(d, &b->delta)))
        return -1;
    b->lo = (int)l;
    b->hi = (int)h;
    return 0;
}

/* --ida: "off", "plain" (the admissible heuristic alone) or bands
 * "LO-HI:D,LO-HI:D,..." into o->ida (its share `at` is --ida-at's). */
static int parse_ida(const char *cmd, int hint, const char *arg, cli_search_opts *o)
{
    srch_np_ida_opts ida = {.on = 1, .at = CLI_DEFAULT_IDA_AT};
    if (!strcmp(arg, "off"))
        ida.on = 0;
    else if (strcmp(arg, "plain")) {
        for (const char *p = arg;; p++) {
            const char *end = strchr(p, ',');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            char item[64];
            if (!len || len >= sizeof item || ida.nbands == SRCH_NP_MAX_BANDS)
                return cli_search_usage(
                    cmd, hint,
                    "--ida must be off, plain or 1..%d bands LO-HI:DELTA separated by commas, "
                    "not '%s'",
                    SRCH_NP_MAX_BANDS, arg);
            memcpy(item, p, len);
            item[len] = 0;
            if (parse_band(item, &ida.band[ida.nbands]))
                return cli_search_usage(cmd, hint,
                                        "--ida: band '%s' is not LO-HI:DELTA (moves left "
                                        "1..%d, delta a number or inf)",
                                        item, SRCH_NP_MAX_PATH - 1);
            ida.nbands++;
            if (!end)
                break;
            p = end;
        }
    }
    if (srch_np_ida_bands_check(&ida))
        return cli_search_usage(cmd, hint, "--ida '%s': %s", arg, hn_errmsg());
    ida.at = o->ida.at;
    o->ida = ida;
    o->ida_given = 1;
    return 0;
}

static int opt_take(const char *cmd, int hint, int code, const char *arg, cli_search_opts *o)
{
    long v;
    switch (code) {
    case CLI_SO_ALGO:
        if (heurnet_algo_parse(arg, &o->algo))
            return cli_search_usage(
                cmd, hint,
                "--algo must be idastar, astar, wastar, batch-astar, bwas, focal or "
                "anytime, not '%s'",
                arg);
        return 0;
    case CLI_SO_HEURISTIC:
        return copy_spec(cmd, hint, "--heuristic", arg, o->heuristic, sizeof o->heuristic);
    case CLI_SO_ADMISSIBLE:
        return copy_spec(cmd, hint, "--admissible", arg, o->admissible, sizeof o->admissible);
    case CLI_SO_BATCH:
        if (cli_parse_long(arg, 1, 65536, &v))
            return cli_search_usage(cmd, hint, "--batch must be 1..65536, not '%s'", arg);
        o->batch = (int)v;
        return 0;
    case CLI_SO_WEIGHT:
        /* the range depends on the algorithm: checked in cli_search_opts_finish */
        return parse_weights(cmd, hint, arg, o);
    case CLI_SO_BOUND:
        if (cli_parse_double(arg, &o->bound) || !(o->bound >= 1) || o->bound > 100)
            return cli_search_usage(cmd, hint, "--bound must be 1..100, not '%s'", arg);
        return 0;
    case CLI_SO_DELTAS:
        return parse_deltas(cmd, hint, arg, o);
    case CLI_SO_SHORTCUT:
        return parse_shortcut(cmd, hint, arg, o);
    case CLI_SO_IDA:
        return parse_ida(cmd, hint, arg, o);
    case CLI_SO_IDA_AT:
        if (cli_parse_double(arg, &o->ida.at) || !(o->ida.at >= 0) || o->ida.at > 1)
            return cli_search_usage(cmd, hint, "--ida-at must be a share 0..1, not '%s'", arg);
        o->ida_at_given = 1;
        return 0;
    default:
        return -1;
    }
}

int cli_search_opt(const char *cmd, int code, const char *arg, cli_search_opts *o)
{
    return opt_take(cmd, 1, code, arg, o);
}

/* One `--name value` / `--name=value` pair starting at tok[*i]. */
static int parse_pair(const char *where, char **tok, int ntok, int *i, cli_search_opts *o)
{
    static const struct option opts[] = {CLI_SEARCH_LONGOPTS};
    const char *t = tok[*i], *val;
    int code = cli_setting_pair(opts, sizeof opts / sizeof *opts, tok, ntok, i, &val);
    if (code < 0)
        return cli_search_usage(
            where, 0,
            "unknown setting '%s' (allowed: --algo --heuristic --admissible --batch "
            "--weight --bound --deltas --shortcut --ida --ida-at)",
            t);
    if (!val)
        return cli_search_usage(where, 0, "'%s' needs a value", t);
    return opt_take(where, 0, code, val, o);
}

int cli_search_opts_parse(const char *where, const char *str, const char *self, cli_search_opts *o)
{
    char buf[4096], *tok[64], *save = NULL;
    int ntok = 0, rc = 0;
    if (strlen(str) >= sizeof buf)
        return cli_search_usage(where, 0, "search settings longer than %zu characters",
                                sizeof buf - 1);
    memcpy(buf, str, strlen(str) + 1);
    for (char *t = strtok_r(buf, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
        if (ntok == 64)
            return cli_search_usage(where, 0, "more than 64 words in the search settings");
        tok[ntok++] = t;
    }
    for (int i = 0; i < ntok && !rc; i++)
        rc = parse_pair(where, tok, ntok, &i, o);
    if (!rc && self)
        rc = cli_search_opts_self(where, o, self);
    return rc;
}

void cli_search_opts_merge(cli_search_opts *o, const cli_search_opts *over)
{
    if (over->algo >= 0)
        o->algo = over->algo;
    if (over->batch)
        o->batch = over->batch;
    if (over->weight > 0) {
        o->weight = over->weight;
        memcpy(o->weights, over->weights, sizeof o->weights);
        o->nweights = over->nweights;
    }
    if (over->bound > 0)
        o->bound = over->bound;
    if (over->ndeltas) {
        memcpy(o->deltas, over->deltas, sizeof o->deltas);
        o->ndeltas = over->ndeltas;
    }
    if (over->shortcut_given) {
        o->shortcut = over->shortcut;
        o->shortcut_given = 1;
    }
    if (over->ida_given) {
        double at = o->ida.at;
        o->ida = over->ida;
        o->ida.at = at;
        o->ida_given = 1;
    }
    if (over->ida_at_given) {
        o->ida.at = over->ida.at;
        o->ida_at_given = 1;
    }
    if (over->heuristic[0])
        memcpy(o->heuristic, over->heuristic, sizeof o->heuristic);
    if (over->admissible[0])
        memcpy(o->admissible, over->admissible, sizeof o->admissible);
}

int cli_search_opts_self(const char *cmd, cli_search_opts *o, const char *model)
{
    const char *rest = o->heuristic + 8;
    if (strncmp(o->heuristic, "ann:SELF", 8) || (*rest && *rest != ','))
        return 0;
    char buf[sizeof o->heuristic];
    int n = snprintf(buf, sizeof buf, "ann:%s%s", model, rest);
    if (n < 0 || (size_t)n >= sizeof buf)
        return cli_search_usage(cmd, 1, "the model path is too long for the heuristic spec");
    memcpy(o->heuristic, buf, (size_t)n + 1);
    return 0;
}

int cli_search_opts_finish(const char *cmd, cli_search_opts *o, int default_algo)
{
    if (o->algo < 0)
        o->algo = default_algo;
    if (!o->batch)
        o->batch = o->algo == HEURNET_ALGO_WASTAR ? 1 : DEFAULT_BATCH;
    if (o->algo == HEURNET_ALGO_WASTAR && o->batch != 1)
        return cli_search_usage(cmd, 1,
                                "wastar expands one node at a time; use batch-astar for --batch");
    if (!o->bound)
        o->bound = DEFAULT_BOUND;
    if (!o->ndeltas && parse_deltas(cmd, 1, CLI_DEFAULT_DELTAS, o))
        return CLI_EXIT_USAGE;
    if (!(o->weight > 0)) {
        o->weight = o->algo == HEURNET_ALGO_WASTAR ? 1.5
                    : o->algo == HEURNET_ALGO_BWAS ? DEFAULT_LAMBDA
                                                   : 1;
        o->weights[0] = o->weight;
        o->nweights = 1;
    }
    if (o->nweights > 1 && o->algo != HEURNET_ALGO_ANYTIME)
        return cli_search_usage(cmd, 1, "--weight takes a list only for anytime, not for %s",
                                heurnet_algo_name(o->algo));
    /* anytime: a single weight 1 means no weighted phase; the list is the
     * phases' weights, and only anytime reads it from here on */
    if (o->algo != HEURNET_ALGO_ANYTIME || (o->nweights == 1 && o->weight == 1))
        o->nweights = 0;
    if (o->algo == HEURNET_ALGO_ANYTIME &&
        srch_np_anytime_check(o->deltas, o->ndeltas, o->weights, o->nweights))
        return cli_search_usage(cmd, 1, "--weight: %s", hn_errmsg());
    if ((o->ida_given || o->ida_at_given) && o->algo != HEURNET_ALGO_ANYTIME)
        return cli_search_usage(cmd, 1, "--ida and --ida-at are anytime's, not %s's",
                                heurnet_algo_name(o->algo));
    if (!o->ida_at_given)
        o->ida.at = CLI_DEFAULT_IDA_AT;
    if (o->algo == HEURNET_ALGO_BWAS && o->weight > 1)
        return cli_search_usage(cmd, 1,
                                "bwas: --weight is lambda in f = lambda*g + h, 0 < lambda <= 1, "
                                "not %g",
                                o->weight);
    if (o->algo != HEURNET_ALGO_BWAS && o->weight < 1)
        return cli_search_usage(cmd, 1, "--weight must be 1..100 for %s (f = g + W*h), not %g",
                                heurnet_algo_name(o->algo), o->weight);
    return 0;
}

heurnet_search cli_search_opts_search(const cli_search_opts *o)
{
    heurnet_search s = {.algo = o->algo,
                        .bfs = {o->batch, o->weight},
                        .bound = o->bound,
                        .ndeltas = o->ndeltas,
                        .nweights = o->nweights,
                        .shortcut = o->shortcut,
                        .ida = o->ida};
    memcpy(s.deltas, o->deltas, sizeof s.deltas);
    memcpy(s.weights, o->weights, sizeof s.weights);
    return s;
}

int cli_model_search_get(const char *path, int *width, char *buf, size_t cap)
{
    int st, goal;
    nn_model *m = nn_model_load(path, &st);
    if (!m)
        return cli_fail(NULL);
    *width = 0;
    if (srch_np_encode_parse(nn_model_encoder(m), width, &goal))
        *width = 0;
    const char *s = nn_model_get_meta_str(m, CLI_SEARCH_ATTR);
    int n = snprintf(buf, cap, "%s", s ? s : "");
    nn_model_free(m);
    if (n < 0 || (size_t)n >= cap) {
        fprintf(stderr, "heurnet: %s: the '%s' attribute is too long\n", path, CLI_SEARCH_ATTR);
        return CLI_EXIT_FAIL;
    }
    return 0;
}
/* Syntax of one built-in heuristic name (what cli_heur_get accepts), without
 * loading or building anything. */
static int name_check(const char *where, const char *part, int width)
{
    if (!strcmp(part, "manhattan") || !strcmp(part, "lc"))
        return 0;
    if (strncmp(part, "pdb:", 4))
        return cli_search_usage(
            where, 0, "unknown heuristic '%s' (manhattan, lc, pdb:P[:noreflect], max:..)", part);
    char name[64];
    snprintf(name, sizeof name, "%s", part + 4);
    char *opt = strchr(name, ':');
    if (opt && strcmp(opt, ":noreflect"))
        return cli_search_usage(where, 0, "heuristic '%s': unknown option '%s' (only noreflect)",
                                part, opt + 1);
    if (opt)
        *opt = '\0';
    srch_np_partition p;
    if (srch_np_partition_get(name, width, &p))
        return cli_search_usage(where, 0, "%s", hn_errmsg());
    return 0;
}

static int admissible_check(const char *where, const char *spec, int width)
{
    if (strncmp(spec, "max:", 4))
        return name_check(where, spec, width);
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", spec + 4);
    int rc = 0, n = 0;
    for (char *s = strtok_r(buf, ",", &save); s && !rc; s = strtok_r(NULL, ",", &save), n++)
        rc = name_check(where, s, width);
    return rc  ? rc
           : n ? 0
               : cli_search_usage(where, 0, "heuristic '%s': nothing after 'max:'", spec);
}

/* The settings a model may record: a network search on the model itself. */
static int settings_check(const char *where, const cli_search_opts *given, int width)
{
    char floor[256];
    if (strncmp(given->heuristic, "ann:SELF", 8) ||
        (given->heuristic[8] && given->heuristic[8] != ','))
        return cli_search_usage(where, 0,
                                "the settings need --heuristic ann:SELF[,...] (SELF = this model)");
    if (cli_ann_spec_check(given->heuristic, floor, sizeof floor))
        return CLI_EXIT_USAGE;
    if (floor[0] && admissible_check(where, floor, width))
        return CLI_EXIT_USAGE;
    if (given->admissible[0] && admissible_check(where, given->admissible, width))
        return CLI_EXIT_USAGE;
    cli_search_opts o = *given;
    int rc = cli_search_opts_finish(where, &o, HEURNET_ALGO_ASTAR);
    if (!rc && o.algo == HEURNET_ALGO_IDASTAR && strstr(o.heuristic, ",scale:"))
        rc = cli_search_usage(where, 0,
                              "IDA* needs whole-move values: drop scale: or pick another --algo");
    return rc;
}

int cli_search_record_check(const char *where, const char *rec, int width, cli_search_opts *out)
{
    *out = (cli_search_opts)CLI_SEARCH_OPTS_INIT;
    int rc = cli_search_opts_parse(where, rec, NULL, out);
    return rc ? rc : settings_check(where, out, width);
}
