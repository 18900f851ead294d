/* nn set-search on a domain model: the search it records (the root
 * attribute `search`, the n-puzzle's, cli/search_opts.h) checked against
 * the model's domain (solve/dom_record.c) before it is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "cli/search_opts.h"
#include "common/hn.h"
#include "nn/nn.h"

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

/* The record checked as solve would run it: a misuse of the options with
 * the hint, a name that does not open without it (both exit 2). */
static int record_check(const dom *d, const char *path, const char *str)
{
    int st;
    heurnet_dom_search *s = heurnet_dom_record_config(d, path, str, &st);
    if (!s)
        return cli_usage("nn set-search", "%s", hn_errmsg());
    st = heurnet_dom_search_load(s);
    heurnet_dom_search_free(s);
    if (st)
        fprintf(stderr, "heurnet nn set-search: %s\n", hn_errmsg());
    return st ? CLI_EXIT_USAGE : 0;
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
        *rc = record_check(d, path, str);
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
