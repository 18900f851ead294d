/* nn set-search: the search a model records (its root attribute `search`,
 * in the words of heurnet solve on every domain) checked against the
 * model's domain (solve/dom_record.c) before it is written, and marked as
 * being in these words (a square n-puzzle model's unmarked record is in the
 * old n-puzzle words, translated on read). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "common/hn.h"
#include "nn/nn.h"

/* The domain a model's search is checked on: --domain, else the one the
 * model records (its attribute or its encoder's); NULL with *rc set when
 * none opens. */
static dom *record_domain(const char *path, const char *domain, int *rc)
{
    char spec[512];
    int st;
    *rc = 0;
    if (!domain && (heurnet_dom_model_domain(path, spec, sizeof spec) || !spec[0])) {
        fprintf(stderr,
                "heurnet nn set-search: %s names no domain (no 'domain' attribute, no n-puzzle "
                "encoder): give --domain D\n",
                path);
        *rc = CLI_EXIT_USAGE;
        return NULL;
    }
    dom *d = dom_open(domain ? domain : spec, &st);
    if (d)
        return d;
    if (domain)
        fprintf(stderr, "heurnet nn set-search: --domain: %s\n", hn_errmsg());
    else
        fprintf(stderr,
                "heurnet nn set-search: %s is for domain %s, which is not built in (a plug-in's "
                "model names no file): give --domain PATH.so[:ARGS]\n",
                path, spec);
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

int cli_dom_set_search(const char *path, const char *domain, const char *str)
{
    int st, rc = 0;
    nn_model *m = nn_model_load(path, &st);
    if (!m)
        return cli_fail(NULL);
    dom *d = record_domain(path, domain, &rc);
    if (!d) {
        nn_model_free(m);
        return rc;
    }
    int blank = !str[strspn(str, " \t")];
    if (!blank)
        rc = record_check(d, path, str);
    /* an empty value means no recommendation */
    if (!rc && (nn_model_set_meta_str(m, HEURNET_DOM_RECORD_ATTR, blank ? "" : str) ||
                nn_model_set_meta_str(m, HEURNET_DOM_RECORD_WORDS_ATTR, HEURNET_DOM_RECORD_WORDS)))
        rc = cli_fail(path);
    if (!rc && nn_model_save(m, path))
        rc = cli_fail(NULL);
    if (!rc)
        printf("file=%s domain=%s %s=%s\n", path, dom_spec(d), HEURNET_DOM_RECORD_ATTR, str);
    dom_free(d);
    nn_model_free(m);
    return rc;
}
