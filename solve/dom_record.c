/* The search a domain model records: its root attribute `search` holds
 * options of `heurnet solve --domain` ("--algo focal --bound 1.2
 * --heuristic ann:SELF,scale:10"; SELF = the model file). It is checked
 * against the model's domain before it is written, and again when a search
 * opens the model; it runs when neither the algorithm nor the heuristic is
 * given, options given still winning. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"
#include "solve/dom_int.h"

/* Options a record may not hold: which domain and model (the file's own)
 * and the limits (the run's, not the model's). */
static int record_allows(int id)
{
    return id != HEURNET_DOM_OPT_DOMAIN && id != HEURNET_DOM_OPT_MODEL &&
           (id < HEURNET_DOM_OPT_MAX_EXPANDED || id > HEURNET_DOM_OPT_MAX_NODES);
}

/* One `--name value` / `--name=value` pair at tok[*i] into o (skipped when
 * its bit is in `skip`); any option when `all`, else a record's. */
static int take_pair(char **tok, int ntok, int *i, heurnet_dom_opts *o, uint64_t skip, int all)
{
    char *t = tok[*i], *eq = strchr(t, '=');
    const char *val = eq ? eq + 1 : *i + 1 < ntok ? tok[++*i] : NULL;
    if (eq)
        *eq = '\0';
    int id = strncmp(t, "--", 2) ? -1 : heurnet_dom_opt_id(t + 2);
    if (id < 0 && all)
        return hn_fail(HN_ERR_ARG, "unknown search option '%s'", t);
    if (id < 0 || (!all && !record_allows(id)))
        return hn_fail(HN_ERR_ARG,
                       "unknown setting '%s' in a recorded search (the search options of "
                       "heurnet solve --domain, without --domain, --model and the limits)",
                       t);
    if (!val)
        return hn_fail(HN_ERR_ARG, "the recorded setting '%s' needs a value", t);
    if (skip & 1ull << id)
        return 0;
    return heurnet_dom_opts_set(o, id, val);
}

int heurnet_dom_words_apply(const char *rec, heurnet_dom_opts *o, char *buf, size_t cap,
                            uint64_t skip, int all)
{
    char *tok[64], *save = NULL;
    int ntok = 0, rc = 0;
    if (strlen(rec) >= cap)
        return hn_fail(HN_ERR_ARG, "a recorded search of more than %zu characters", cap - 1);
    memcpy(buf, rec, strlen(rec) + 1);
    for (char *t = strtok_r(buf, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
        if (ntok == 64)
            return hn_fail(HN_ERR_ARG, "more than 64 words in a recorded search");
        tok[ntok++] = t;
    }
    for (int i = 0; i < ntok && !rc; i++) /* each counts as given, as on the command line */
        rc = take_pair(tok, ntok, &i, o, skip, all);
    return rc;
}

/* A recorded network must be the model itself, as the n-puzzle's rule. */
static int self_only(const heurnet_dom_opts *o)
{
    const char *h = o->heuristic;
    if (h && (strncmp(h, "ann:SELF", 8) || (h[8] && h[8] != ',')))
        return hn_fail(HN_ERR_ARG,
                       "a recorded --heuristic must be ann:SELF[,...] (SELF = the model), "
                       "not %s",
                       h);
    return 0;
}

heurnet_dom_search *heurnet_dom_record_config(const dom *d, const char *model, const char *rec,
                                              int *status)
{
    heurnet_dom_opts o;
    heurnet_dom_opts_default(&o);
    o.model = model;
    int st;
    heurnet_dom_search *v = heurnet_dom_search_new(d, &o, &st);
    if (v)
        st = heurnet_dom_words_apply(rec, &v->o, v->rec_buf, sizeof v->rec_buf, 0, 0);
    if (v && !st)
        st = self_only(&v->o);
    if (v && !st)
        st = heurnet_dom_finish(v);
    if (status)
        *status = st ? HN_ERR_ARG : 0;
    if (!st)
        return v;
    heurnet_dom_search_free(v);
    return NULL;
}

/* The network loaded with its settings, the admissible heuristics opened:
 * what solve would refuse is refused here. With proof 0 the proof stage's
 * heuristic is left to the search that runs it: cube3's fsst is 1.67 GB,
 * loaded once, and not built at all by a run that turns the stage off. */
static int record_check(const dom *d, const char *model, const char *rec, int proof)
{
    int st;
    heurnet_dom_search *v = heurnet_dom_record_config(d, model, rec, &st);
    if (v && !proof)
        v->o.prove = NULL;
    if (v)
        st = heurnet_dom_search_load(v);
    heurnet_dom_search_free(v);
    return st ? HN_ERR_ARG : 0;
}

int heurnet_dom_record_check(const dom *d, const char *model, const char *rec)
{
    return record_check(d, model, rec, 1);
}

/* The model's record into rec (cap bytes; "" when none), *marked 1 when
 * the model says it is in these words. */
static int record_read(const char *path, char *rec, size_t cap, int *marked)
{
    int st;
    nn_model *m = nn_model_load(path, &st);
    if (!m)
        return st;
    const char *s = nn_model_get_meta_str(m, HEURNET_DOM_RECORD_ATTR);
    const char *words = nn_model_get_meta_str(m, HEURNET_DOM_RECORD_WORDS_ATTR);
    *marked = words && !strcmp(words, HEURNET_DOM_RECORD_WORDS);
    int n = snprintf(rec, cap, "%s", s ? s : "");
    nn_model_free(m);
    if (n < 0 || (size_t)n >= cap)
        return hn_fail(HN_ERR_FORMAT, "%s: the '%s' attribute is too long", path,
                       HEURNET_DOM_RECORD_ATTR);
    return 0;
}

/* An unmarked record of a square n-puzzle model up to 5x5 (by the domain
 * the model records, whatever the search runs on) is in the old n-puzzle
 * words: translated in place. */
static int record_words(heurnet_dom_search *s, int marked)
{
    char spec[512];
    int st, width = 0;
    dom *md = marked || heurnet_dom_model_domain(s->o.model, spec, sizeof spec) || !spec[0]
                  ? NULL
                  : dom_open(spec, &st);
    width = md ? heurnet_dom_record_np_width(md) : 0;
    dom_free(md);
    hn_error_clear();
    if (!width)
        return 0;
    char old[sizeof s->record];
    memcpy(old, s->record, sizeof old);
    if (!heurnet_dom_record_np_translate(width, old, s->record, sizeof s->record))
        return 0;
    return hn_fail(HN_ERR_FORMAT,
                   "%s: the search recorded in its attribute '%s' (n-puzzle words) is refused: "
                   "%s",
                   s->o.model, HEURNET_DOM_RECORD_ATTR, hn_errmsg());
}

int heurnet_dom_record_use(heurnet_dom_search *s)
{
    heurnet_dom_opts *o = &s->o;
    uint64_t mine = 1ull << HEURNET_DOM_OPT_ALGO | 1ull << HEURNET_DOM_OPT_HEURISTIC;
    if (!o->model || (o->given & mine))
        return 0; /* the record is not read: a model of another domain is refused as such */
    int marked = 0, st = record_read(o->model, s->record, sizeof s->record, &marked);
    if (st || !s->record[strspn(s->record, " \t")]) {
        s->record[0] = '\0';
        return st;
    }
    if ((st = record_words(s, marked)))
        return st;
    /* a bad record is a bad file, as for the n-puzzle's models */
    if (record_check(s->d, o->model, s->record, 0))
        return hn_fail(HN_ERR_FORMAT,
                       "%s: the search recorded in its attribute '%s' is refused: %s", o->model,
                       HEURNET_DOM_RECORD_ATTR, hn_errmsg());
    st = heurnet_dom_words_apply(s->record, o, s->rec_buf, sizeof s->rec_buf, o->given, 0);
    return st ? HN_ERR_FORMAT : 0;
}
