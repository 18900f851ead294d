/* Private to cli/: the search options heurnet solve and heurnet eval share
 * (--algo --heuristic --admissible --batch --weight --bound --deltas
 * --shortcut --ida --ida-at) and the model
 * attribute `search` that records a model's recommended search in the
 * same words, so the settings travel with the model file. */
#ifndef HN_CLI_SEARCH_OPTS_H
#define HN_CLI_SEARCH_OPTS_H

#include <getopt.h>

#include "solve/search.h"

/* getopt_long codes of the shared options (above the short-option range). */
enum {
    CLI_SO_ALGO = 300,
    CLI_SO_HEURISTIC,
    CLI_SO_ADMISSIBLE,
    CLI_SO_BATCH,
    CLI_SO_WEIGHT,
    CLI_SO_BOUND,
    CLI_SO_DELTAS,
    CLI_SO_SHORTCUT,
    CLI_SO_IDA,
    CLI_SO_IDA_AT
};

#define CLI_SEARCH_LONGOPTS                                                                        \
    {"algo", required_argument, 0, CLI_SO_ALGO},                                                   \
        {"heuristic", required_argument, 0, CLI_SO_HEURISTIC},                                     \
        {"admissible", required_argument, 0, CLI_SO_ADMISSIBLE},                                   \
        {"batch", required_argument, 0, CLI_SO_BATCH},                                             \
        {"weight", required_argument, 0, CLI_SO_WEIGHT},                                           \
        {"bound", required_argument, 0, CLI_SO_BOUND},                                             \
        {"deltas", required_argument, 0, CLI_SO_DELTAS},                                           \
        {"shortcut", required_argument, 0, CLI_SO_SHORTCUT},                                       \
        {"ida", required_argument, 0, CLI_SO_IDA},                                                 \
    {                                                                                              \
        "ida-at", required_argument, 0, CLI_SO_IDA_AT                                              \
    }

/* IDA* nodes per window when --shortcut gives none. */
#define CLI_SHORTCUT_BUDGET 1000000

/* The anytime schedule when --deltas is not given. */
#define CLI_DEFAULT_DELTAS "0,1,2,3,4,6,inf"

/* The share of the time limit after which anytime's IDA* stage may start
 * when --ida-at is not given. */
#define CLI_DEFAULT_IDA_AT 0.5

/* The name of a model's root attribute holding its recommended search. */
#define CLI_SEARCH_ATTR "search"

/* What was given; unset fields are -1 / 0 / "" until cli_search_opts_finish. */
typedef struct cli_search_opts {
    int algo;      /* enum cli_algo, -1 = not given */
    int batch;     /* 0 = not given */
    double weight; /* wastar, batch-astar: f = g + W*h; bwas: lambda; anytime: the first
                      weighted phase's; 0 = not given */
    double weights[SRCH_NP_MAX_WEIGHTS]; /* --weight as given (a list only for anytime); after
                                            cli_search_opts_finish anytime's weighted phases */
    int nweights;                        /* after finish: 0 unless anytime has such phases */
    double bound;                        /* focal; 0 = not given */
    double deltas[SRCH_NP_MAX_DELTAS];   /* anytime */
    int ndeltas;                         /* 0 = not given */
    srch_np_shortcut_opts shortcut;      /* --shortcut W[:NODES] */
    int shortcut_given;
    srch_np_ida_opts ida; /* --ida (bands or plain) and --ida-at (ida.at) */
    int ida_given, ida_at_given;
    char heuristic[1400], admissible[256]; /* "" = not given */
} cli_search_opts;

#define CLI_SEARCH_OPTS_INIT                                                                       \
    {                                                                                              \
        .algo = -1                                                                                 \
    }

/* Take option `code` with argument `arg` (cmd names the command in
 * messages). Returns 0, -1 when code is not a search option, or
 * CLI_EXIT_USAGE after printing the reason. */
int cli_search_opt(const char *cmd, int code, const char *arg, cli_search_opts *o);

/* Parse a search string ("--algo bwas --weight 0.8 --heuristic
 * ann:SELF,mirror": `--name value` or `--name=value`, separated by blanks)
 * into *o. A heuristic "ann:SELF..." gets `self` as its model path (NULL:
 * SELF stays). `where` names the string's origin in messages. Returns 0 or
 * CLI_EXIT_USAGE after printing the reason. */
int cli_search_opts_parse(const char *where, const char *str, const char *self, cli_search_opts *o);

/* The rules of `nn set-search`, for a search string recorded in a model of
 * `width` (cli/cmd_nn_search.c): parsed into *out (SELF kept), the network
 * ann:SELF[,...] only (no other file, no search without the network),
 * heuristic names that exist, a valid combination. Applied on write and on
 * every read. Returns 0 or CLI_EXIT_USAGE after printing the reason. */
int cli_search_record_check(const char *where, const char *rec, int width, cli_search_opts *out);

/* The options given in *over replace those of *o. */
void cli_search_opts_merge(cli_search_opts *o, const cli_search_opts *over);

/* Replace a leading "ann:SELF" of o->heuristic by "ann:<model>". 0, or
 * CLI_EXIT_USAGE (printed) when the result does not fit. */
int cli_search_opts_self(const char *cmd, cli_search_opts *o, const char *model);

/* Fill what was not given (algo `default_algo`, batch 16, weight: wastar 1.5,
 * bwas 0.8, else 1; bound 1.05; deltas CLI_DEFAULT_DELTAS) and check the combination (bwas weight
 * lambda in (0, 1], other weights 1..100). Returns 0 or CLI_EXIT_USAGE. */
int cli_search_opts_finish(const char *cmd, cli_search_opts *o, int default_algo);

/* The configured search of finished options (heuristics not built yet). */
heurnet_search cli_search_opts_search(const cli_search_opts *o);

/* Load model `path`: its puzzle width (from the encoder; 0 when it is not an
 * n-puzzle model) and its `search` attribute into buf[cap] ("" when it has
 * none). Returns 0 or CLI_EXIT_FAIL after printing the reason. */
int cli_model_search_get(const char *path, int *width, char *buf, size_t cap);

/* A misuse message: "heurnet CMD: MSG", then cli's --help hint when `hint`
 * (cmd is a command such as "solve"); without it for recorded settings,
 * where cmd says where they came from (the place to fix is the model
 * file). Returns CLI_EXIT_USAGE. */
int cli_search_usage(const char *cmd, int hint, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* heurnet nn set-search M.h5 "SETTINGS": validate and store the attribute
 * (cli/cmd_nn_search.c). */
int cli_nn_set_search(int argc, char **argv);

#endif
