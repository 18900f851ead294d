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
#include "solve/dom_search.h"

/* The domain a command names: argv's --domain value, else the "domain"
 * attribute of argv's --model (or its n-puzzle encoder), copied into spec;
 * "" when neither names one. 0, or CLI_EXIT_USAGE / CLI_EXIT_FAIL with the
 * reason printed. */
int cli_dom_spec(const char *cmd, int argc, char **argv, char *spec, size_t cap);

/* --puzzle N [--goal G] (G blank-first or blank-last; --goal alone with a
 * --model of a square n-puzzle: its size) as the short form of --domain
 * npuzzle:WxW[:blank-last]: argv copied into out (argc + 3 entries) with
 * those options replaced by --domain SPEC (spec[cap] holds its text).
 * 0, or CLI_EXIT_USAGE with the reason printed (also when --domain is
 * given too). */
int cli_dom_puzzle_args(const char *cmd, int argc, char **argv, char **out, int *argc_out,
                        char *spec, size_t cap);

/* The generic commands. */
int cli_dom_solve(int argc, char **argv);
/* heurnet predict --instances: "id<TAB>estimate" per state of FILE, on
 * domain (NULL: the model's) in goal layout goal (NULL: the domain's),
 * with network engine `engine` (enum srch_dom_engine), batch states per
 * call. An exit code. */
int cli_dom_predict(const char *model, const char *file, const char *domain, const char *goal,
                    int engine, int batch);

/* Options of the search (getopt long options 1000 + HEURNET_DOM_OPT_x,
 * solve/dom_search.h). */
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
        {"blend", required_argument, 0, 1023}, {"phases", required_argument, 0, 1024},             \
        {"bound", required_argument, 0, 1040}, {"admissible", required_argument, 0, 1041},         \
        {"prove", required_argument, 0, 1042},                                                     \
    {                                                                                              \
        "prove-at", required_argument, 0, 1043                                                     \
    }
/* 1 when opt was one of them (0 ok or an exit code in *rc, the reason
 * printed), 0 when not. */
int cli_dom_search_opt(const char *cmd, int opt, const char *arg, heurnet_dom_opts *o, int *rc);
/* A failed heurnet_dom_ call's status printed: HN_ERR_ARG as misuse
 * (CLI_EXIT_USAGE), anything else CLI_EXIT_FAIL. */
int cli_dom_fail(const char *cmd, int status);
/* The search of o on d (saying so when it runs a model's recorded search,
 * d borrowed), and the goal's ball once it is opened: 0, or an exit code
 * with the reason printed (*s may then be set: the caller frees it). */
int cli_dom_open(const char *cmd, const dom *d, const heurnet_dom_opts *o, heurnet_dom_search **s);
int cli_dom_prepare(const char *cmd, heurnet_dom_search *s);
/* The domain of o, the search opened on it, the instances of FILE read and
 * the ball built: 0, or an exit code with the reason printed (*d and *s
 * may then be set: the caller frees them, *s first). */
int cli_dom_setup(const char *cmd, const heurnet_dom_opts *o, const char *file, dom **d,
                  heurnet_dom_search **s, dom_instance_rec **inst, size_t *n);
/* The same for `threads` search threads, whose network caches must fit
 * (heurnet_dom_search_fits) before anything is loaded. */
int cli_dom_setup_n(const char *cmd, const heurnet_dom_opts *o, int threads, const char *file,
                    dom **d, heurnet_dom_search **s, dom_instance_rec **inst, size_t *n);
/* nn set-search: the record str (options of heurnet solve, "" clears
 * it) checked on the model's domain (or `domain`, a plug-in's file) and
 * written with its mark: an exit code, the reason printed. */
int cli_dom_set_search(const char *path, const char *domain, const char *str);
/* heurnet bench search (cli/bench_dom.c). */
int cli_bench_search_dom(int argc, char **argv);
/* Prints a bad instance line; user is the command's name. */
void cli_dom_parse_error(const char *msg, void *cmd);
/* The usage lines of the search options. */
void cli_dom_search_help(FILE *out);

#endif
