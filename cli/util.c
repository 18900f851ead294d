/* Error reporting and strict number parsing shared by all subcommands. */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hn.h"

int cli_fail(const char *what)
{
    if (what && what[0])
        fprintf(stderr, "heurnet: %s: %s\n", what, hn_errmsg());
    else
        fprintf(stderr, "heurnet: %s\n", hn_errmsg());
    return CLI_EXIT_FAIL;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "heurnet %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'heurnet %s --help'.\n", cmd);
    return CLI_EXIT_USAGE;
}

int cli_parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    if (!hn_number_plain(s, lo < 0, 0))
        return -1;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (!hn_number_plain(s, 0, 0))
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_double(const char *s, double *out)
{
    char *end;
    if (!hn_number_plain(s, 1, 1))
        return -1;
    errno = 0;
    double v = strtod(s, &end);
    /* ERANGE also flags underflow (1e-400 -> 0); refuse it too: the user
     * asked for a value the program cannot hold */
    if (errno || end == s || *end || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static void log_sink(int level, const char *msg, void *user)
{
    int quiet = *(int *)user;
    if (level >= HN_LOG_WARN)
        fprintf(stderr, "heurnet: warning: %s\n", msg);
    else if (level >= HN_LOG_INFO && !quiet)
        fprintf(stderr, "heurnet: %s\n", msg);
}

void cli_log_init(int quiet)
{
    static int q;
    q = quiet;
    hn_log_set(log_sink, &q);
}

int cli_setting_pair(const struct option *opts, size_t n, char **tok, int ntok, int *i,
                     const char **val)
{
    const char *t = tok[*i], *eq = strchr(t, '=');
    size_t len = eq ? (size_t)(eq - t) : strlen(t);
    int code = -1;
    for (size_t k = 0; !strncmp(t, "--", 2) && k < n && opts[k].name; k++)
        if (strlen(opts[k].name) == len - 2 && !strncmp(opts[k].name, t + 2, len - 2))
            code = opts[k].val;
    *val = eq ? eq + 1 : *i + 1 < ntok ? tok[++*i] : NULL;
    return code;
}

int cli_puzzle_parse(void *field, const char *v)
{
    long n;
    int w = 2;
    if (!cli_parse_long(v, 3, 1023, &n))
        while (w * w - 1 < n)
            w++;
    if (w * w - 1 != n)
        return hn_fail(HN_ERR_ARG, "'%s' is not 8, 15, 24, 35, ... (N + 1 a square)", v);
    *(int *)field = w;
    return 0;
}

const char *cli_mean_or_na(char buf[32], const char *fmt, double sum, size_t n)
{
    if (n)
        snprintf(buf, 32, fmt, sum / (double)n);
    else
        snprintf(buf, 32, "n/a");
    return buf;
}
