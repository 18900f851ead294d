/* The command line's generic-domain path (cli/dom_*.c): which domain a
 * command runs on (--domain, or the one a --model records), and solve and
 * eval over any domain through search/generic. */
#ifndef HN_CLI_DOM_H
#define HN_CLI_DOM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "domains/dom.h"
#include "search/generic/srch_dom.h"

/* The domain a command names: argv's --domain value, else the "domain"
 * attribute of argv's --model (or its n-puzzle encoder), copied into spec;
 * "" when neither names one. 0, or CLI_EXIT_USAGE / CLI_EXIT_FAIL with the
 * reason printed. */
int cli_dom_spec(const char *cmd, int argc, char **argv, char *spec, size_t cap);

/* 1 when spec is a square n-puzzle of 3x3..5x5, which the specialised code
 * serves: argv is rewritten in place (--domain D -> --puzzle N --goal G,
 * into `out`, which holds argc + 2 entries) and *argc_out set. */
int cli_dom_specialised(const char *spec, int argc, char **argv, char **out, int *argc_out);

/* The generic commands. */
int cli_dom_solve(int argc, char **argv);
int cli_dom_eval(int argc, char **argv);
/* heurnet predict --instances on a domain: "id<TAB>estimate" per state. */
int cli_dom_predict(const char *model, const char *file, const char *domain);

/* Search settings shared by solve and eval on a domain. */
typedef struct cli_dom_search {
    const char *domain, *model, *heuristic, *floor;
    /* each --blend W:H's H and W, in the order given */
    const char *blend[SRCH_DOM_MAX_BLENDS];
    double blend_w[SRCH_DOM_MAX_BLENDS];
    int nblend;
    char heur_buf[4200];
    int algo; /* enum cli_dom_algo */
    srch_dom_opts so;
    srch_dom_net_opts no;
    double offset;
    int scale;
    srch_limits lim;
    /* focal's bound; --admissible (focal's proof, anytime's H) by name and,
     * once cli_dom_adm_open opened it, the heuristic (owned:
     * cli_dom_search_free) */
    double bound;
    const char *admissible;
    char adm_buf[256];
    srch_dom_heur *adm;
    /* --ball R, and the ball once cli_dom_ball_open built it (owned:
     * cli_dom_search_free) */
    int ball_radius;
    srch_dom_ball *ball;
    double ball_seconds;
    uint64_t given;     /* bit opt - 1000: the option was given */
    char rec_buf[4096]; /* the recorded search's text (cli/dom_record.c) */
} cli_dom_search;

/* focal's bound when --bound is not given. */
#define CLI_DOM_DEFAULT_BOUND 1.05

enum cli_dom_algo {
    CLI_DOM_ASTAR = 0,
    CLI_DOM_WASTAR,
    CLI_DOM_BWAS,
    CLI_DOM_BEAM,
    CLI_DOM_IDASTAR,
    CLI_DOM_ANYTIME,
    CLI_DOM_FOCAL
};

const char *cli_dom_algo_name(int algo);

/* The share of a time limit a beam leaves to the window shortcut after it. */
#define CLI_DOM_SHORTCUT_SHARE 0.05

/* focal's option ids, past the room other options may take. */
enum { CLI_DOM_OPT_BOUND = 1040, CLI_DOM_OPT_ADMISSIBLE = 1041 };

/* Options of the search (getopt long options with ids >= 1000); 1 when
 * opt was one of them (0 ok or an exit code in *rc), 0 when not. */
#define CLI_DOM_SEARCH_LONGOPTS                                                                    \
    {"domain", required_argument, 0, 1000}, {"model", required_argument, 0, 1001},                 \
        {"heuristic", required_argument, 0, 1002}, {"algo", required_argument, 0, 1003},           \
        {"weight", required_argument, 0, 1004}, {"batch", required_argument, 0, 1005},             \
        {"width", required_argument, 0, 1006}, {"weights", required_argument, 0, 1007},            \
        {"engine", required_argument, 0, 1008}, {"offset", required_argument, 0, 1009},            \
        {"scale", required_argument, 0, 1010}, {"floor", required_argument, 0, 1011},              \
        {"max-expanded", required_argument, 0, 1012}, {"time-limit", required_argument, 0, 1013},  \
        {"max-nodes", required_argument, 0, 1014}, {"deltas", required_argument, 0, 1015},         \
        {"shortcut", required_argument, 0, 1017}, {"ida", required_argument, 0, 1018},             \
        {"ida-at", required_argument, 0, 1019}, {"widen", required_argument, 0, 1020},             \
        {"ball", required_argument, 0, 1021}, {"variants", required_argument, 0, 1022},            \
        {"blend", required_argument, 0, 1023}, {"bound", required_argument, 0, CLI_DOM_OPT_BOUND}, \
    {                                                                                              \
        "admissible", required_argument, 0, CLI_DOM_OPT_ADMISSIBLE                                 \
    }
int cli_dom_search_opt(const char *cmd, int opt, const char *arg, cli_dom_search *s, int *rc);
void cli_dom_search_init(cli_dom_search *s);
/* Frees what the settings own (the --admissible heuristic of focal and anytime). */
void cli_dom_search_free(cli_dom_search *s);
/* After parsing: the heuristic defaults to ann:MODEL with --model, else the
 * domain's first heuristic; the algorithm to IDA* for an admissible one,
 * BWAS for a network. 0 or CLI_EXIT_USAGE. */
int cli_dom_search_finish(const char *cmd, cli_dom_search *s, const dom *d);
/* Open s->admissible into s->adm (focal's proof, anytime's H); anytime
 * also gets it as so.admissible, and with --deltas or --ida and no
 * --admissible the heuristic h (may be NULL: not checked) must have an
 * admissible base. 0, or CLI_EXIT_USAGE / CLI_EXIT_FAIL printed. */
int cli_dom_adm_open(const char *cmd, cli_dom_search *s, const dom *d, srch_dom_heur *h);
/* Build the goal's ball of --ball R into s->ball (beam's): 0, or
 * CLI_EXIT_USAGE / CLI_EXIT_FAIL printed. Nothing without --ball. */
int cli_dom_ball_open(const char *cmd, cli_dom_search *s, const dom *d);
/* The heuristic for one thread: 0 and *h, or CLI_EXIT_FAIL / CLI_EXIT_USAGE
 * printed. */
int cli_dom_heur(const char *cmd, const cli_dom_search *s, const dom *d, srch_dom_heur **h);
/* One search of `start`, its solution shortened by --shortcut (anytime
 * shortens each incumbent itself). Returns res->status. */
int cli_dom_run(const cli_dom_search *s, const dom *d, const void *start, srch_dom_heur *h,
                const srch_limits *lim, srch_dom_result *res);
/* The domain (--domain or the model's), the heuristic and the instances of
 * FILE: 0, or an exit code with the reason printed. */
int cli_dom_setup(const char *cmd, cli_dom_search *s, const char *file, dom **d, srch_dom_heur **h,
                  dom_instance_rec **inst, size_t *n);
/* The search a domain model records (cli/dom_record.c; the attribute
 * CLI_SEARCH_ATTR in the words of the options above, SELF = the model).
 * check: rec parsed, its network ann:SELF[,...] loaded from `model` and its
 * heuristics opened on d as solve would: 0, or CLI_EXIT_USAGE printed.
 * use: with s->model and neither --algo nor --heuristic given, its record
 * checked (a bad one: CLI_EXIT_FAIL) and its settings taken for the
 * options not given. */
int cli_dom_record_check(const char *cmd, const char *rec, const char *model, const dom *d);
int cli_dom_record_use(const char *cmd, cli_dom_search *s, const dom *d);
/* nn set-search on a model of a domain the specialised n-puzzle code does
 * not serve: 1 when it is one (*rc: the exit code, reason printed), 0 to
 * leave the model to the n-puzzle's rules. domain: --domain or NULL. */
int cli_dom_set_search(const char *path, const char *domain, const char *str, int *rc);
/* heurnet bench search --domain D (cli/bench_dom.c). */
int cli_bench_search_dom(int argc, char **argv);
/* Prints a bad instance line; user is the command's name. */
void cli_dom_parse_error(const char *msg, void *cmd);
/* The usage lines of the search options. */
void cli_dom_search_help(FILE *out);

#endif
