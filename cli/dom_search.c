/* The search options of solve and eval on any domain, which domain a
 * command runs on, and the hand-over of square n-puzzles up to 5x5 to the
 * specialised commands. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "common/hn.h"
#include "nn/nn.h"
#include "search/npuzzle/encode.h"

static const char *const ALGO[] = {"astar",   "wastar",  "bwas", "beam",
                                   "idastar", "anytime", "focal"};

const char *cli_dom_algo_name(int algo)
{
    return algo >= 0 && algo < (int)(sizeof ALGO / sizeof *ALGO) ? ALGO[algo] : "?";
}

/* ---- which domain ---- */

static const char *arg_of(int argc, char **argv, const char *name)
{
    size_t n = strlen(name);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            return NULL;
        if (!strcmp(argv[i], name) && i + 1 < argc)
            return argv[i + 1];
        if (!strncmp(argv[i], name, n) && argv[i][n] == '=')
            return argv[i] + n + 1;
    }
    return NULL;
}

/* The domain a model records: its "domain" attribute, else its n-puzzle
 * encoder's domain, else "". */
static int model_domain(const char *cmd, const char *path, char *spec, size_t cap)
{
    int st;
    (void)cmd;
    spec[0] = '\0';
    nn_model *m = nn_model_load(path, &st);
    if (!m) { /* the command reports a bad model as it always did */
        hn_error_clear();
        return 0;
    }
    const char *dm = nn_model_get_meta_str(m, "domain");
    if (dm && strlen(dm) < cap)
        snprintf(spec, cap, "%s", dm);
    else if (srch_np_encode_domain(nn_model_encoder(m), spec, cap))
        spec[0] = '\0';
    hn_error_clear();
    nn_model_free(m);
    return 0;
}

int cli_dom_spec(const char *cmd, int argc, char **argv, char *spec, size_t cap)
{
    const char *d = arg_of(argc, argv, "--domain"), *m = arg_of(argc, argv, "--model");
    spec[0] = '\0';
    if (d) {
        if (strlen(d) >= cap)
            return cli_usage(cmd, "--domain is too long");
        snprintf(spec, cap, "%s", d);
        return 0;
    }
    return m ? model_domain(cmd, m, spec, cap) : 0;
}

int cli_dom_specialised(const char *spec, int argc, char **argv, char **out, int *argc_out)
{
    static char puzzle[16];
    int w = 0, h = 0, n = 0;
    if (sscanf(spec, "npuzzle:%dx%d%n", &w, &h, &n) != 2 || w != h || w < 3 || w > 5)
        return 0;
    const char *goal = !spec[n]                           ? "blank-first"
                       : !strcmp(spec + n, ":blank-last") ? "blank-last"
                                                          : NULL;
    if (!goal)
        return 0;
    snprintf(puzzle, sizeof puzzle, "%d", w * w - 1);
    int k = 0, given = arg_of(argc, argv, "--domain") != NULL;
    for (int i = 0; i < argc; i++) {
        if (given && !strcmp(argv[i], "--domain") && i + 1 < argc) {
            i++;
            continue;
        }
        if (given && !strncmp(argv[i], "--domain=", 9))
            continue;
        out[k++] = argv[i];
    }
    if (given) { /* the goal a --domain names; a model's the command reads itself */
        out[k++] = "--puzzle";
        out[k++] = puzzle;
        out[k++] = "--goal";
        out[k++] = (char *)goal;
    }
    out[k] = NULL;
    *argc_out = k;
    return 1;
}

/* ---- options ---- */

void cli_dom_search_init(cli_dom_search *s)
{
    *s = (cli_dom_search){.algo = -1,
                          .so = SRCH_DOM_DEFAULTS,
                          .no = SRCH_DOM_NET_DEFAULTS,
                          .scale = 1,
                          .bound = CLI_DOM_DEFAULT_BOUND};
    s->so.shortcut = SRCH_DOM_SHORTCUT_DEFAULTS;
    s->so.ida_at = 0.5;
}

void cli_dom_search_free(cli_dom_search *s)
{
    srch_dom_heur_free(s->adm);
    s->adm = NULL;
    s->so.admissible = NULL;
    srch_dom_ball_free(s->ball);
    s->ball = NULL;
    s->so.ball = NULL;
}

static int parse_weights(const char *cmd, const char *arg, cli_dom_search *s)
{
    if (!strcmp(arg, "none")) { /* the deltas alone */
        s->so.nweights = 0;
        return 0;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", arg);
    s->so.nweights = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        double w;
        if (s->so.nweights == SRCH_DOM_MAX_WEIGHTS || cli_parse_double(t, &w) || !(w >= 1) ||
            w > 100)
            return cli_usage(cmd, "--weights '%s': up to %d weights of 1..100", arg,
                             SRCH_DOM_MAX_WEIGHTS);
        s->so.weights[s->so.nweights++] = w;
    }
    return s->so.nweights ? 0 : cli_usage(cmd, "--weights names no weight");
}

/* "0,1,2.5,inf": rising moves 0..1000, inf only last. */
static int parse_deltas(const char *cmd, const char *arg, cli_dom_search *s)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", arg);
    int n = 0, ok = strlen(arg) < sizeof buf;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); ok && t; t = strtok_r(NULL, ",", &save)) {
        double x = SRCH_DOM_DELTA_INF;
        ok = n < SRCH_DOM_MAX_DELTAS &&
             (!strcmp(t, "inf") || (!cli_parse_double(t, &x) && x >= 0 && x <= 1000)) &&
             (n == 0 || (x > s->so.deltas[n - 1] && s->so.deltas[n - 1] < SRCH_DOM_DELTA_INF));
        s->so.deltas[n++] = x;
    }
    if (!ok || !n)
        return cli_usage(cmd,
                         "--deltas '%s': 1..%d rising moves 0..1000 separated by commas, 'inf' "
                         "only last",
                         arg, SRCH_DOM_MAX_DELTAS);
    s->so.ndeltas = n;
    return 0;
}

/* "W", "W:N" (N states per window), and either with ":ida" (long windows
 * by IDA*, N then counting expansions). */
static int parse_shortcut(const char *cmd, const char *arg, cli_dom_search *s)
{
    char buf[64], *colon;
    long w = -1;
    uint64_t nodes = SRCH_DOM_SHORTCUT_DEFAULTS.budget;
    snprintf(buf, sizeof buf, "%s", arg);
    size_t len = strlen(buf);
    int ida = len > 4 && !strcmp(buf + len - 4, ":ida");
    if (ida)
        buf[len - 4] = '\0';
    if ((colon = strchr(buf, ':')))
        *colon = '\0';
    int bad = strlen(arg) >= sizeof buf ||
              cli_parse_long(buf, 0, SRCH_DOM_SHORTCUT_MAX_WINDOW, &w) || (w > 0 && w < 2) ||
              (colon && cli_parse_u64(colon + 1, &nodes)) || nodes < 1 ||
              nodes > SRCH_DOM_SHORTCUT_MAX_BUDGET;
    if (bad)
        return cli_usage(cmd,
                         "--shortcut '%s' is not W, W:N, W:ida or W:N:ida (W 0 = off or "
                         "2..%d moves, N 1..%llu states or expansions per window)",
                         arg, SRCH_DOM_SHORTCUT_MAX_WINDOW,
                         (unsigned long long)SRCH_DOM_SHORTCUT_MAX_BUDGET);
    s->so.shortcut.max_window = (int)w;
    s->so.shortcut.budget = nodes;
    s->so.shortcut.ida = ida;
    return 0;
}

/* --ida off|plain, --ida-at P. */
static int ida_opt(const char *cmd, int opt, const char *arg, cli_dom_search *s)
{
    double x;
    if (opt == 1019) {
        if (cli_parse_double(arg, &x) || !(x >= 0 && x <= 1))
            return cli_usage(cmd, "--ida-at '%s' is not a share 0..1", arg);
        s->so.ida_at = x;
        return 0;
    }
    if (strcmp(arg, "off") && strcmp(arg, "plain"))
        return cli_usage(cmd, "--ida '%s' is not off or plain", arg);
    s->so.ida = !strcmp(arg, "plain");
    return 0;
}

static int algo_opt(const char *cmd, const char *arg, cli_dom_search *s)
{
    for (int i = 0; i < (int)(sizeof ALGO / sizeof *ALGO); i++)
        if (!strcmp(arg, ALGO[i])) {
            s->algo = i;
            return 0;
        }
    return cli_usage(cmd, "--algo '%s' is not astar, wastar, bwas, beam, idastar, anytime or focal",
                     arg);
}

static int engine_opt(const char *cmd, const char *arg, cli_dom_search *s)
{
    if (!strcmp(arg, "auto"))
        s->no.engine = SRCH_DOM_ENGINE_AUTO;
    else if (!strcmp(arg, "float"))
        s->no.engine = SRCH_DOM_ENGINE_FLOAT;
    else if (!strcmp(arg, "q8"))
        s->no.engine = SRCH_DOM_ENGINE_Q8;
    else
        return cli_usage(cmd, "--engine '%s' is not auto, float or q8", arg);
    return 0;
}

static int number_opt(const char *cmd, int opt, const char *arg, cli_dom_search *s)
{
    long v;
    double x;
    switch (opt) {
    case 1004:
        if (cli_parse_double(arg, &x) || !(x >= 0 && x <= 100))
            return cli_usage(cmd, "--weight '%s' is not 0..100", arg);
        s->so.weight = x;
        return 0;
    case 1005:
        if (cli_parse_long(arg, 1, 65536, &v))
            return cli_usage(cmd, "--batch '%s' is not 1..65536", arg);
        s->so.batch = (int)v;
        return 0;
    case 1006:
        if (cli_parse_long(arg, 1, 10000000, &v))
            return cli_usage(cmd, "--width '%s' is not 1..10^7", arg);
        s->so.width = (int)v;
        return 0;
    case 1009:
        if (cli_parse_double(arg, &x) || !(x >= 0 && x <= 1000))
            return cli_usage(cmd, "--offset '%s' is not 0..1000", arg);
        s->offset = x;
        return 0;
    case 1010:
        if (cli_parse_long(arg, 1, 1000, &v))
            return cli_usage(cmd, "--scale '%s' is not 1..1000", arg);
        s->scale = (int)v;
        return 0;
    case 1012:
        return cli_parse_u64(arg, &s->lim.max_expanded)
                   ? cli_usage(cmd, "--max-expanded '%s' is not a count", arg)
                   : 0;
    case 1013:
        return cli_parse_double(arg, &s->lim.time_limit) || !(s->lim.time_limit >= 0)
                   ? cli_usage(cmd, "--time-limit '%s' is not seconds >= 0", arg)
                   : 0;
    default:
        return cli_parse_u64(arg, &s->lim.max_nodes)
                   ? cli_usage(cmd, "--max-nodes '%s' is not a count", arg)
                   : 0;
    }
}

/* focal's options: the bound and the admissible heuristic proving it. */
static int focal_opt(const char *cmd, int opt, const char *arg, cli_dom_search *s)
{
    if (opt == CLI_DOM_OPT_ADMISSIBLE) {
        s->admissible = arg;
        return 0;
    }
    if (cli_parse_double(arg, &s->bound) || !(s->bound >= 1) || s->bound > 100)
        return cli_usage(cmd, "--bound '%s' is not 1..100", arg);
    return 0;
}

/* --blend W:H (repeatable): W in (0, 100], H an admissible heuristic's name. */
static int blend_opt(const char *cmd, const char *arg, cli_dom_search *s)
{
    const char *colon = strchr(arg, ':');
    char w[64];
    double x;
    if (!colon || colon == arg || (size_t)(colon - arg) >= sizeof w || !colon[1])
        return cli_usage(cmd, "--blend '%s' is not W:H (a weight, then a heuristic)", arg);
    memcpy(w, arg, (size_t)(colon - arg));
    w[colon - arg] = '\0';
    if (cli_parse_double(w, &x) || !(x > 0 && x <= 100))
        return cli_usage(cmd, "--blend '%s': the weight must be over 0 and at most 100", arg);
    if (s->nblend == SRCH_DOM_MAX_BLENDS)
        return cli_usage(cmd, "--blend '%s': at most %d blends", arg, SRCH_DOM_MAX_BLENDS);
    s->blend[s->nblend] = colon + 1;
    s->blend_w[s->nblend++] = x;
    return 0;
}

int cli_dom_search_opt(const char *cmd, int opt, const char *arg, cli_dom_search *s, int *rc)
{
    *rc = 0;
    if (opt >= 1000 && opt < 1064)
        s->given |= 1ull << (opt - 1000);
    switch (opt) {
    case CLI_DOM_OPT_BOUND:
    case CLI_DOM_OPT_ADMISSIBLE:
        *rc = focal_opt(cmd, opt, arg, s);
        return 1;
    case 1000:
        s->domain = arg;
        return 1;
    case 1001:
        s->model = arg;
        return 1;
    case 1002:
        s->heuristic = arg;
        return 1;
    case 1003:
        *rc = algo_opt(cmd, arg, s);
        return 1;
    case 1007:
        *rc = parse_weights(cmd, arg, s);
        return 1;
    case 1008:
        *rc = engine_opt(cmd, arg, s);
        return 1;
    case 1011:
        s->floor = arg;
        return 1;
    case 1015:
        *rc = parse_deltas(cmd, arg, s);
        return 1;
    case 1017:
        *rc = parse_shortcut(cmd, arg, s);
        return 1;
    case 1018:
    case 1019:
        *rc = ida_opt(cmd, opt, arg, s);
        return 1;
    case 1021: {
        long v;
        if (cli_parse_long(arg, 0, SRCH_DOM_BALL_MAX_RADIUS, &v))
            *rc = cli_usage(cmd, "--ball '%s' is not a radius 0 (none)..%d moves", arg,
                            SRCH_DOM_BALL_MAX_RADIUS);
        else
            s->ball_radius = (int)v;
        return 1;
    }
    case 1023:
        *rc = blend_opt(cmd, arg, s);
        return 1;
    case 1022: {
        long v;
        if (cli_parse_long(arg, 1, DOM_MAX_SYMMETRIES, &v))
            *rc = cli_usage(cmd, "--variants '%s' is not 1..%d", arg, DOM_MAX_SYMMETRIES);
        else
            s->so.variants = (int)v;
        return 1;
    }
    case 1020: {
        double x;
        if (cli_parse_double(arg, &x) || !(x == 0 || (x > 1 && x <= 100)))
            *rc = cli_usage(cmd, "--widen '%s' is not 0 (off) or over 1 up to 100", arg);
        else
            s->so.widen = x;
        return 1;
    }
    default:
        if (opt < 1004 || opt > 1014)
            return 0;
        *rc = number_opt(cmd, opt, arg, s);
        return 1;
    }
}

/* A domain whose IDA* windows are bounded by an admissible heuristic of
 * relative states (--admissible H): it has no estimate between two states
 * of its own but maps two states to one (the cube). */
static int relative_domain(const dom *d)
{
    return !dom_has_between(d) && dom_has_relative(d);
}

/* IDA* windows on such a domain. */
static int relative_windows(const cli_dom_search *s, const dom *d)
{
    return s->so.shortcut.max_window && s->so.shortcut.ida && relative_domain(d);
}

/* focal: --bound and --admissible belong to it; the admissible heuristic
 * defaults to the domain's first. */
static int focal_finish(const char *cmd, cli_dom_search *s, const char *own, const dom *d)
{
    int bound = (s->given & 1ull << (CLI_DOM_OPT_BOUND - 1000)) != 0;
    int adm = (s->given & 1ull << (CLI_DOM_OPT_ADMISSIBLE - 1000)) != 0;
    if (s->algo == CLI_DOM_ANYTIME && !bound)
        return 0; /* anytime's H */
    /* the windows' heuristic (unused with --shortcut 0, which turns a
     * model's recorded windows off) */
    if (s->algo != CLI_DOM_FOCAL && !bound && relative_domain(d))
        return 0;
    if (s->algo != CLI_DOM_FOCAL)
        return bound || adm
                   ? cli_usage(cmd, "--bound%s focal's, not %s's",
                               adm ? " and --admissible are" : " is", cli_dom_algo_name(s->algo))
                   : 0;
    size_t k = own ? strcspn(own, ",") : 0;
    if (!s->admissible && !k)
        return cli_usage(cmd, "%s has no heuristic of its own: focal needs --admissible H",
                         dom_spec(d));
    if (!s->admissible) {
        snprintf(s->adm_buf, sizeof s->adm_buf, "%.*s", (int)k, own);
        s->admissible = s->adm_buf;
    }
    if (!strncmp(s->admissible, "ann:", 4))
        return cli_usage(cmd, "--admissible must be an admissible heuristic, not %s",
                         s->admissible);
    return 0;
}

int cli_dom_search_finish(const char *cmd, cli_dom_search *s, const dom *d)
{
    const char *own = dom_facts_of(d)->heuristics;
    if (!s->heuristic && s->model) {
        snprintf(s->heur_buf, sizeof s->heur_buf, "ann:%s", s->model);
        s->heuristic = s->heur_buf;
    } else if (!s->heuristic) {
        size_t k = own ? strcspn(own, ",") : 0;
        if (!k)
            return cli_usage(cmd, "%s has no heuristic of its own: give --heuristic or --model",
                             dom_spec(d));
        snprintf(s->heur_buf, sizeof s->heur_buf, "%.*s", (int)k, own);
        s->heuristic = s->heur_buf;
    } else if (s->model && !strncmp(s->heuristic, "ann:SELF", 8)) {
        snprintf(s->heur_buf, sizeof s->heur_buf, "ann:%s%s", s->model, s->heuristic + 8);
        s->heuristic = s->heur_buf;
    }
    int net = !strncmp(s->heuristic, "ann:", 4);
    if (s->algo < 0)
        s->algo = net ? CLI_DOM_BWAS : CLI_DOM_IDASTAR;
    if (s->algo == CLI_DOM_WASTAR && s->so.weight == 1.0)
        s->so.weight = 1.5;
    if (s->algo == CLI_DOM_IDASTAR && net)
        return cli_usage(cmd, "--algo idastar needs an admissible heuristic, not %s", s->heuristic);
    if (s->algo != CLI_DOM_BEAM && s->so.widen)
        return cli_usage(cmd, "--widen is beam's, not %s's", cli_dom_algo_name(s->algo));
    if (s->algo != CLI_DOM_BEAM && s->ball_radius)
        return cli_usage(cmd, "--ball is beam's, not %s's", cli_dom_algo_name(s->algo));
    if (s->algo != CLI_DOM_BEAM && s->so.variants > 1)
        return cli_usage(cmd, "--variants is beam's, not %s's", cli_dom_algo_name(s->algo));
    if (s->so.variants > 1 && (!dom_has_symmetric_path(d) || s->so.variants > dom_symmetries(d)))
        return cli_usage(cmd,
                         "--variants %d: %s has %d symmetric map(s) that carry paths (the "
                         "start counted)",
                         s->so.variants, dom_spec(d),
                         dom_has_symmetric_path(d) ? dom_symmetries(d) : 1);
    if (s->algo != CLI_DOM_ANYTIME && (s->so.ndeltas || s->so.ida))
        return cli_usage(cmd, "--deltas and --ida are anytime's, not %s's",
                         cli_dom_algo_name(s->algo));
    if (s->so.shortcut.max_window) {
        if (!dom_unit_cost(d) || !dom_reversible(d))
            return cli_usage(cmd,
                             "--shortcut needs unit move costs and an inverse for every "
                             "move; %s has not",
                             dom_spec(d));
        if (relative_windows(s, d) && s->admissible && !strncmp(s->admissible, "ann:", 4))
            return cli_usage(cmd, "--admissible must be an admissible heuristic, not %s",
                             s->admissible);
        if (relative_windows(s, d) && !s->admissible)
            return cli_usage(cmd,
                             "--shortcut ...:ida on %s needs --admissible H (the windows' "
                             "lower bound, e.g. max:pdb:corners,pdb:edges6a,pdb:edges6b)",
                             dom_spec(d));
        if (s->so.shortcut.ida && !dom_has_between(d) && !dom_has_relative(d))
            return cli_usage(cmd,
                             "--shortcut ...:ida needs an estimate between two states; %s has "
                             "none (the n-puzzle has)",
                             dom_spec(d));
    }
    return focal_finish(cmd, s, own, d);
}

/* The j-th --blend W:H onto the opened heuristic h: 0 or an exit code,
 * printed. */
static int heur_blend(const char *cmd, const cli_dom_search *s, int j, const dom *d,
                      srch_dom_heur *h)
{
    int st;
    srch_dom_heur *b = srch_dom_heur_adm(d, s->blend[j], &st);
    if (!b) {
        fprintf(stderr, "heurnet %s: --blend %s: %s\n", cmd, s->blend[j], hn_errmsg());
        return CLI_EXIT_USAGE;
    }
    if (srch_dom_heur_set_blend(h, s->blend_w[j], b)) {
        fprintf(stderr, "heurnet %s: --blend %g:%s: %s\n", cmd, s->blend_w[j], s->blend[j],
                hn_errmsg());
        return CLI_EXIT_USAGE;
    }
    return 0;
}

int cli_dom_heur(const char *cmd, const cli_dom_search *s, const dom *d, srch_dom_heur **h)
{
    int st, rc = CLI_EXIT_USAGE;
    *h = srch_dom_heur_open(d, s->heuristic, &s->no, &st);
    if (!*h) {
        fprintf(stderr, "heurnet %s: --heuristic %s: %s\n", cmd, s->heuristic, hn_errmsg());
        return st == HN_ERR_ARG || st == HN_ERR_SHAPE ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
    }
    srch_dom_heur *fl = NULL;
    if (s->floor && !(fl = srch_dom_heur_adm(d, s->floor, &st))) {
        fprintf(stderr, "heurnet %s: --floor %s: %s\n", cmd, s->floor, hn_errmsg());
        goto fail;
    }
    if ((s->scale != 1 || s->offset != 0 || fl) &&
        srch_dom_heur_set_value(*h, s->scale, s->offset, fl)) {
        fprintf(stderr, "heurnet %s: %s\n", cmd, hn_errmsg());
        goto fail;
    }
    for (int j = 0; j < s->nblend; j++)
        if ((rc = heur_blend(cmd, s, j, d, *h)))
            goto fail;
    return 0;
fail: /* the caller frees what it is given back: nothing */
    srch_dom_heur_free(*h);
    *h = NULL;
    return rc;
}

int cli_dom_ball_open(const char *cmd, cli_dom_search *s, const dom *d)
{
    int st;
    if (!s->ball_radius || s->ball)
        return 0;
    double t0 = hn_now();
    if (!(s->ball = srch_dom_ball_new(d, s->ball_radius, &st))) {
        fprintf(stderr, "heurnet %s: --ball %d: %s\n", cmd, s->ball_radius, hn_errmsg());
        return st == HN_ERR_UNSUPPORTED || st == HN_ERR_ARG ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
    }
    s->ball_seconds = hn_now() - t0;
    s->so.ball = s->ball;
    return 0;
}

int cli_dom_adm_open(const char *cmd, cli_dom_search *s, const dom *d, srch_dom_heur *h)
{
    int st;
    if (s->admissible && !s->adm && !(s->adm = srch_dom_heur_adm(d, s->admissible, &st))) {
        fprintf(stderr, "heurnet %s: --admissible %s: %s\n", cmd, s->admissible, hn_errmsg());
        return st == HN_ERR_ARG ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
    }
    if (relative_windows(s, d))
        s->so.shortcut.between = s->adm;
    if (s->algo != CLI_DOM_ANYTIME)
        return 0;
    s->so.admissible = s->adm;
    if ((s->so.ndeltas || s->so.ida) && !s->adm && h && !srch_dom_heur_base(h))
        return cli_usage(cmd,
                         "--deltas and --ida need an admissible heuristic: give --admissible H "
                         "(%s has no floor or residual base)",
                         s->heuristic);
    return 0;
}

/* focal with a clone of the admissible heuristic: the search writes its
 * scratch memory, and solve runs one search per thread. */
static int run_focal(const cli_dom_search *s, const dom *d, const void *start, srch_dom_heur *h,
                     const srch_limits *lim, srch_dom_result *res)
{
    int st;
    srch_dom_heur *adm = srch_dom_heur_clone(s->adm, &st);
    if (adm)
        st = srch_dom_focal(d, start, h, adm, s->bound, &s->so, lim, res);
    else
        res->status = st;
    srch_dom_heur_free(adm);
    return st;
}

static int search(const cli_dom_search *s, const dom *d, const void *start, srch_dom_heur *h,
                  const srch_limits *lim, srch_dom_result *res)
{
    switch (s->algo) {
    case CLI_DOM_FOCAL:
        return run_focal(s, d, start, h, lim, res);
    case CLI_DOM_BWAS:
        return srch_dom_bwas(d, start, h, &s->so, lim, res);
    case CLI_DOM_BEAM:
        return srch_dom_beam(d, start, h, &s->so, lim, res);
    case CLI_DOM_IDASTAR:
        return srch_dom_idastar(d, start, h, lim, res);
    case CLI_DOM_ANYTIME:
        return srch_dom_anytime(d, start, h, &s->so, lim, res);
    default:
        return srch_dom_astar(d, start, h, &s->so, lim, res);
    }
}

int cli_dom_run(const cli_dom_search *s, const dom *d, const void *start, srch_dom_heur *h,
                const srch_limits *lim, srch_dom_result *res)
{
    double t0 = hn_now();
    srch_limits own = lim ? *lim : (srch_limits){0};
    /* a beam widens until its deadline: the windows get a share of the
     * time after it (the cube's windows of 16 moves take about 0.55 s under
     * the 6-edge PDB max) */
    if (s->algo == CLI_DOM_BEAM && s->so.shortcut.max_window && own.time_limit > 0)
        own.time_limit *= 1.0 - CLI_DOM_SHORTCUT_SHARE;
    int st = search(s, d, start, h, lim ? &own : NULL, res);
    if (st || s->algo == CLI_DOM_ANYTIME || !s->so.shortcut.max_window)
        return st;
    /* the final solution shortened within the instance's time limit */
    double deadline = lim && lim->time_limit > 0 ? t0 + lim->time_limit : 0;
    if (srch_dom_result_shortcut(d, start, &s->so.shortcut, deadline, res))
        hn_error_clear(); /* the search's solution stands */
    res->seconds = hn_now() - t0;
    return st;
}

void cli_dom_search_help(FILE *out)
{
    fprintf(out,
            "  --domain D          any domain: npuzzle:WxH[:blank-last], cube3, PATH.so[:ARGS]\n"
            "                      (heurnet domain list) [the model's]\n"
            "  --model M.h5        search with this network (its domain is the default; the\n"
            "                      search it records, heurnet nn set-search, runs when\n"
            "                      neither --algo nor --heuristic is given)\n"
            "  --heuristic H       the domain's own (heurnet domain info), pdb:PATTERN,\n"
            "                      max:A,B, zero, or ann:M.h5 (ann:SELF = --model) [ann:MODEL\n"
            "                      with --model, else the domain's first]\n"
            "  --floor H           admissible H below which no value falls\n"
            "  --blend W:H         add W times admissible H to a network's value (ranks\n"
            "                      by both); repeatable, up to 4 terms summed\n"
            "  --offset D          subtract D moves from the estimate [0]\n"
            "  --scale S           values in 1/S moves [1]\n"
            "  --engine E          auto, float, q8 (network layers) [auto]\n"
            "  --algo A            astar, wastar, bwas, beam, idastar, anytime, focal [idastar\n"
            "                      for an admissible heuristic, bwas for a network]\n"
            "  --weight W          f = g + W*h (astar, wastar, bwas) [1; wastar 1.5]\n"
            "  --batch B           bwas, focal: states expanded per step [%d]\n"
            "  --width W           beam: states kept per depth [%d]; with --time-limit a\n"
            "                      narrow beam (W/16, at most 4096) runs first, so a path\n"
            "                      is held early (first_seconds=), then W, the shortest\n"
            "                      standing; limit=1: a limit cut a run, the best so far\n"
            "  --widen F           beam: after each solution search again F times wider\n"
            "                      (each run stopping at the incumbent's depth) while the\n"
            "                      time limit allows; the shortest stands [0: one run]\n"
            "  --ball R            beam: all states within R moves of the goal, found once\n"
            "                      before the first search (cube3: R=7 9.2 M states, 8\n"
            "                      86 M); a path entering it ends there by its shortest\n"
            "                      route [0: none]\n"
            "  --weights W1,W2,..  anytime: passes on f = g + W*h for the falling weights,\n"
            "                      before the deltas' phases ('none': no pass) [5,3,2,1.5,1]\n"
            "  --deltas LIST       anytime: A* phases on max(h - delta, H), one per delta of\n"
            "                      the rising LIST, each bounded by the best solution so far;\n"
            "                      a last 'inf' (H alone) proves it optimal (proven=1); the\n"
            "                      time limit ends the schedule, the best solution stands\n"
            "                      (phases= says how many passes ran to their end) [none]\n"
            "  --bound E           focal: cost at most E times the optimum [%g]\n"
            "  --admissible H      focal: the admissible heuristic proving the bound [the\n"
            "                      domain's first]; anytime: the H of max(h - delta, H), also\n"
            "                      pruning every pass below the best solution [the heuristic's\n"
            "                      floor or residual base; the heuristic itself when\n"
            "                      admissible]; cube3 with --shortcut W:N:ida: the windows'\n"
            "                      lower bound\n"
            "  --ida off|plain     anytime: after the A* phases, IDA* pruned by H below the\n"
            "                      best solution; a stage that ends proves it (proven=1) [off]\n"
            "  --ida-at P          anytime with --ida: the A* phases give way to IDA* after\n"
            "                      the share P of --time-limit once they have a solution [0.5]\n"
            "  --shortcut W[:N]    re-solve every window of up to W moves of the solution (of\n"
            "                      each anytime incumbent, which then bounds the next phases)\n"
            "                      by a bidirectional breadth-first search between its end\n"
            "                      states, N states per window, rounds repeated while one\n"
            "                      improves; keeps the shorter path (saved= moves). Unit-cost\n"
            "                      domains with inverse moves [0: off; N 1000000]\n"
            "  --shortcut W[:N]:ida  windows over 16 moves by IDA* guided by the domain's\n"
            "                      estimate between two states (n-puzzle: Manhattan and\n"
            "                      linear conflicts), N expansions per window: windows far\n"
            "                      longer than breadth-first search reaches; on cube3\n"
            "                      every window, from the relative state to the goal under\n"
            "                      --admissible H (a beam leaves them 5%% of its time)\n"
            "  --variants K        beam: search the start and its first K-1 symmetric maps\n"
            "                      (cube3, 40 maps: the inverse, the L-R mirror image and\n"
            "                      the mirror of the inverse, ...; a square board: its\n"
            "                      mirror image) in turn, each in an equal share of the time\n"
            "                      left and bounded by the best path so far; the shortest\n"
            "                      stands [1]\n"
            "  --max-expanded N    per-instance expansions, 0 = none [0]\n"
            "  --time-limit S      per-instance seconds, 0 = none [0]\n"
            "  --max-nodes N       stored states, 0 = none [0]\n",
            SRCH_DOM_DEFAULTS.batch, SRCH_DOM_DEFAULTS.width, CLI_DOM_DEFAULT_BOUND);
}

/* The domain (--domain, or the model's) and the search's heuristic, opened
 * before any file is read so that a model of another domain is refused
 * first; then the instance file. 0 or an exit code (reason printed). */
int cli_dom_setup(const char *cmd, cli_dom_search *s, const char *file, dom **d, srch_dom_heur **h,
                  dom_instance_rec **inst, size_t *n)
{
    char spec[512];
    int st, rc = 0;
    const char *name = s->domain;
    if (!name && s->model) {
        char *av[] = {(char *)cmd, "--model", (char *)s->model, NULL};
        rc = cli_dom_spec(cmd, 3, av, spec, sizeof spec);
        name = spec[0] ? spec : NULL;
    }
    if (rc)
        return rc;
    if (!name)
        return cli_usage(cmd, "--domain D is required (or a --model that records one)");
    if (!(*d = dom_open(name, &st))) {
        if (s->domain)
            fprintf(stderr, "heurnet %s: --domain: %s\n", cmd, hn_errmsg());
        else
            fprintf(stderr,
                    "heurnet %s: --model %s is for domain %s, which is not built in (a "
                    "plug-in's model names no file): give --domain PATH.so\n",
                    cmd, s->model, name);
        return CLI_EXIT_USAGE;
    }
    if ((rc = cli_dom_record_use(cmd, s, *d)) || (rc = cli_dom_search_finish(cmd, s, *d)) ||
        (rc = cli_dom_heur(cmd, s, *d, h)) || (rc = cli_dom_adm_open(cmd, s, *d, *h)))
        return rc;
    if (dom_read_instances(*d, file, cli_dom_parse_error, (void *)cmd, inst, n))
        return cli_fail(NULL);
    return cli_dom_ball_open(cmd, s, *d);
}

void cli_dom_parse_error(const char *msg, void *cmd)
{
    fprintf(stderr, "heurnet %s: %s\n", (const char *)cmd, msg);
}
