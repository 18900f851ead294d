/* The search a domain model records: its root attribute `search` (the
 * n-puzzle's, cli/search_opts.h) holds options of `heurnet solve --domain`
 * ("--algo focal --bound 1.2 --heuristic ann:SELF,scale:10"; SELF = the
 * model file). `nn set-search` checks a string against the model's domain
 * before writing it; solve and eval --model check it again and run it when
 * neither --algo nor --heuristic is given, options given still winning. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "cli/search_opts.h"
#include "common/hn.h"
#include "nn/nn.h"

/* Options a record may not hold: which domain and model (the file's own)
 * and the limits (the run's, not the model's). */
static int record_allows(int code)
{
    return code != 1000 && code != 1001 && (code < 1012 || code > 1014);
}

/* One `--name value` / `--name=value` pair at tok[*i] into s (skipped when
 * its bit is in `skip`). */
static int take_pair(const char *cmd, char **tok, int ntok, int *i, cli_dom_search *s,
                     uint64_t skip)
{
    static const struct option opts[] = {CLI_DOM_SEARCH_LONGOPTS};
    const char *t = tok[*i], *val;
    int code = cli_setting_pair(opts, sizeof opts / sizeof *opts, tok, ntok, i, &val), rc;
    if (code < 0 || !record_allows(code))
        return cli_usage(cmd,
                         "unknown setting '%s' in a recorded search (the search options of "
                         "heurnet solve --domain, without --domain, --model and the limits)",
                         t);
    if (!val)
        return cli_usage(cmd, "the recorded setting '%s' needs a value", t);
    if (skip & 1ull << (code - 1000))
        return 0;
    cli_dom_search_opt(cmd, code, val, s, &rc);
    return rc;
}

/* The settings of rec into s (their text kept in s->rec_buf, which the
 * options point into), but for the options whose bits are in `skip`. */
static int record_apply(const char *cmd, const char *rec, cli_dom_search *s, uint64_t skip)
{
    char *tok[64], *save = NULL;
    int ntok = 0, rc = 0;
    if (strlen(rec) >= sizeof s->rec_buf)
        return cli_usage(cmd, "a recorded search of more than %zu characters",
                         sizeof s->rec_buf - 1);
    memcpy(s->rec_buf, rec, strlen(rec) + 1);
    for (char *t = strtok_r(s->rec_buf, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
        if (ntok == 64)
            return cli_usage(cmd, "more than 64 words in a recorded search");
        tok[ntok++] = t;
    }
    for (int i = 0; i < ntok && !rc; i++)
        rc = take_pair(cmd, tok, ntok, &i, s, skip);
    return rc;
}

/* A recorded network must be the model itself, as the n-puzzle's rule. */
static int self_only(const char *cmd, const cli_dom_search *s)
{
    const char *h = s->heuristic;
    if (h && (strncmp(h, "ann:SELF", 8) || (h[8] && h[8] != ',')))
        return cli_usage(cmd,
                         "a recorded --heuristic must be ann:SELF[,...] (SELF = the model), "
                         "not %s",
                         h);
    return 0;
}

int cli_dom_record_check(const char *cmd, const char *rec, const char *model, const dom *d)
{
    cli_dom_search *v = malloc(sizeof *v);
    if (!v) {
        fprintf(stderr, "heurnet %s: out of memory\n", cmd);
        return CLI_EXIT_FAIL;
    }
    cli_dom_search_init(v);
    v->model = model;
    srch_dom_heur *h = NULL;
    int rc = record_apply(cmd, rec, v, 0);
    if (!rc)
        rc = self_only(cmd, v);
    /* the network loaded with its settings, the admissible heuristics
     * opened: what solve would refuse is refused here */
    if (!rc)
        rc = cli_dom_search_finish(cmd, v, d);
    if (!rc)
        rc = cli_dom_heur(cmd, v, d, &h);
    if (!rc)
        rc = cli_dom_adm_open(cmd, v, d, h);
    srch_dom_heur_free(h);
    cli_dom_search_free(v);
    free(v);
    return rc ? CLI_EXIT_USAGE : 0;
}

int cli_dom_record_use(const char *cmd, cli_dom_search *s, const dom *d)
{
    char rec[4096];
    int width;
    uint64_t algo = 1ull << 3, heur = 1ull << 2; /* --algo 1003, --heuristic 1002 */
    if (!s->model || (s->given & (algo | heur)))
        return 0; /* the record is not read: a model of another domain is refused as such */
    int rc = cli_model_search_get(s->model, &width, rec, sizeof rec);
    if (rc || !rec[strspn(rec, " \t")])
        return rc;
    /* a bad record is a bad file (exit 1), as for the n-puzzle's models */
    if (cli_dom_record_check(cmd, rec, s->model, d)) {
        fprintf(stderr, "heurnet %s: %s: the search recorded in its attribute '%s' is refused\n",
                cmd, s->model, CLI_SEARCH_ATTR);
        return CLI_EXIT_FAIL;
    }
    hn_log(HN_LOG_INFO, "%s: the search recorded in %s: %s", cmd, s->model, rec);
    return record_apply(cmd, rec, s, s->given) ? CLI_EXIT_FAIL : 0;
}

/* The domain a model's search is checked on: --domain, else the model's
 * "domain" attribute; NULL (*rc 0) for a model the n-puzzle's rules serve. */
static dom *record_domain(const char *path, const nn_model *m, const char *domain, int *rc)
{
    const char *attr = nn_model_get_meta_str(m, "domain");
    const char *name = domain ? domain : attr;
    char *nv[4];
    int nc, st;
    *rc = 0;
    if (!name || cli_dom_specialised(name, 0, nv, nv, &nc))
        return NULL;
    dom *d = dom_open(name, &st);
    if (d)
        return d;
    if (domain)
        fprintf(stderr, "heurnet nn set-search: --domain: %s\n", hn_errmsg());
    else
        fprintf(stderr,
                "heurnet nn set-search: %s is for domain %s, which is not built in (a plug-in's "
                "model names no file): give --domain PATH.so[:ARGS]\n",
                path, name);
    *rc = CLI_EXIT_USAGE;
    return NULL;
}

int cli_dom_set_search(const char *path, const char *domain, const char *str, int *rc)
{
    int st;
    nn_model *m = nn_model_load(path, &st);
    if (!m) {
        *rc = cli_fail(NULL);
        return 1;
    }
    dom *d = record_domain(path, m, domain, rc);
    if (!d) {
        nn_model_free(m);
        return *rc != 0;
    }
    int blank = !str[strspn(str, " \t")];
    if (!blank)
        *rc = cli_dom_record_check("nn set-search", str, path, d);
    /* an empty value means no recommendation (cli_model_search_get gives "") */
    if (!*rc && nn_model_set_meta_str(m, CLI_SEARCH_ATTR, blank ? "" : str))
        *rc = cli_fail(path);
    if (!*rc && nn_model_save(m, path))
        *rc = cli_fail(NULL);
    if (!*rc)
        printf("file=%s domain=%s %s=%s\n", path, dom_spec(d), CLI_SEARCH_ATTR, str);
    dom_free(d);
    nn_model_free(m);
    return 1;
}
