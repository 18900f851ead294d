/* What an ablation sets up before its runs: the variants' training options,
 * the CSV columns, the search boards and the journal with its config tag. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/hn.h"
#include "solve/ablate_int.h"

void heurnet_abl_say(const struct heurnet_ablate *a, int kind, const char *fmt, ...)
{
    char msg[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (a->on_message)
        a->on_message(kind, msg, a->user);
}

int heurnet_ablate_variant(const char *arg, const struct trn_opts *base, char *spec, size_t cap,
                           struct trn_opts *o)
{
    *o = *base;
    snprintf(spec, cap, "%s", arg);
    char *at = strchr(spec, '@');
    if (strchr(arg, ',') || strchr(arg, '"'))
        return hn_fail(HN_ERR_ARG, "variant '%s': no ',' or '\"' (they would break the CSV)", arg);
    /* hn_errmsg is overwritten by hn_fail: copied first */
    char why[1024];
    if (at) {
        *at = '\0';
        if (trn_loss_parse(at + 1, &o->loss, &o->over_weight)) {
            snprintf(why, sizeof why, "%s", hn_errmsg());
            return hn_fail(HN_ERR_ARG, "variant %s: %s", arg, why);
        }
    }
    struct nn_spec sp;
    if (nn_spec_parse(spec, &o->defaults, &sp)) {
        snprintf(why, sizeof why, "%s", hn_errmsg());
        return hn_fail(HN_ERR_ARG, "--arch: %s", why);
    }
    o->arch = spec;
    return 0;
}

static void col_set(struct heurnet_ablate *a, const char *name, const char *label, int pct,
                    int digits, int timing, int compare)
{
    struct heurnet_abl_col *c = &a->col[a->ncol++];
    *c = (struct heurnet_abl_col){
        .pct = pct, .digits = digits, .timing = timing, .compare = compare};
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->label, sizeof c->label, "%s", label);
}

/* Three columns per instance file, named after its base name. */
static void inst_columns(struct heurnet_ablate *a, const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    char n[96], l[96];
    snprintf(n, sizeof n, "%.60s_mae", b);
    snprintf(l, sizeof l, "%.60s MAE", b);
    col_set(a, n, l, 0, 3, 0, 1);
    snprintf(n, sizeof n, "%.60s_exact", b);
    snprintf(l, sizeof l, "%.60s exact %%", b);
    col_set(a, n, l, 1, 2, 0, 1);
    snprintf(n, sizeof n, "%.60s_over", b);
    snprintf(l, sizeof l, "%.60s over %%", b);
    col_set(a, n, l, 1, 2, 0, 1);
}

void heurnet_ablate_columns(struct heurnet_ablate *a)
{
    col_set(a, "params", "params", 0, 0, 0, 0);
    col_set(a, "epochs", "epochs", 0, 1, 0, 0);
    col_set(a, "train_s", "train s", 0, 1, 1, 0);
    col_set(a, "samples_per_s", "samples/s", 0, 0, 1, 0);
    col_set(a, "val_mse", "val MSE", 0, 4, 0, 1);
    col_set(a, "val_mae", "val MAE", 0, 4, 0, 1);
    col_set(a, "val_exact", "exact %", 1, 2, 0, 1);
    col_set(a, "val_over", "over %", 1, 2, 0, 1);
    for (int k = 0; k < a->ninst; k++)
        inst_columns(a, a->inst[k]);
    a->col_search = a->search[0] ? a->ncol : -1;
    if (a->search[0]) {
        col_set(a, "search_optimal", "A* optimal %", 1, 1, 0, 1);
        col_set(a, "search_excess", "A* excess", 0, 3, 0, 1);
        col_set(a, "search_expanded", "A* expanded", 0, 0, 0, 1);
        col_set(a, "search_solved", "A* solved %", 1, 1, 0, 0);
        col_set(a, "search_s_per_board", "A* s/board", 0, 4, 1, 0);
    }
}

/* The goal layout of the model trained on d ("npuzzle-onehot n=4
 * goal=..."): 1 for blank-last. */
static int data_goal(const trn_data *d)
{
    const char *g = strstr(trn_data_encoder(d), "goal=");
    return g && !strncmp(g + 5, "blank-last", 10);
}

int heurnet_ablate_domain(struct heurnet_ablate *a, const trn_data *d)
{
    if (a->dom || !(a->ninst || a->search[0]))
        return 0;
    int w = trn_data_width(d), st;
    if (!w)
        return hn_fail(HN_ERR_ARG, "--search and --instances need data of a domain (/states or "
                                   "/boards rows), not plain /x rows");
    char spec[64];
    snprintf(spec, sizeof spec, "npuzzle:%dx%d%s", w, w, data_goal(d) ? ":blank-last" : "");
    if (!(a->own_dom = dom_open(spec, &st)))
        return st;
    a->dom = a->own_dom;
    return 0;
}

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* The settings every run shares, as a short tag in each CSV row (files by
 * base name and row counts: the same data reached by another path is the
 * same data; variants and seeds are checked by name). */
static void config_tag(const struct heurnet_ablate *a, const trn_data *d, char *tag, size_t cap)
{
    const struct trn_opts *o = &a->o;
    const struct nn_layer_defaults *l = &o->defaults;
    char *s = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);
    if (f) {
        for (int i = 0; i < a->ndata; i++)
            fprintf(f, "data=%s;", base_name(a->data[i]));
        fprintf(f, "rows=%llu:%llu;", (unsigned long long)trn_data_rows(d, TRN_TRAIN),
                (unsigned long long)trn_data_rows(d, TRN_VAL));
        fprintf(f, "val=%.17g;src=%u;loss=%d:%.9g;b=%d;e=%d;lr=%.17g;sch=%d:%d:%.17g:%.17g;",
                a->val_fraction, a->sources, (int)o->loss, o->over_weight, o->batch, o->epochs,
                o->lr, (int)o->schedule, o->lr_step, o->lr_gamma, o->lr_min);
        fprintf(f, "wd=%.17g;t=%d;p=%d;act=%d:%.9g;bn=%d:%.9g;do=%.9g;init=%d;", o->weight_decay,
                o->threads, o->patience, (int)l->act, l->elu_alpha, l->bn, l->bn_eps, l->dropout,
                (int)l->init);
        for (int k = 0; k < a->ninst; k++)
            fprintf(f, "inst=%s@%d;", base_name(a->inst[k]), a->goal[k]);
        fprintf(f, "search=%s@%d:%d:%s:%llu", base_name(a->search), a->search_goal, a->search_n,
                a->search_opts ? a->search_opts : "", (unsigned long long)a->search_limit);
        fclose(f);
    }
    /* FNV-1a, 64 bits: a tag, not a security measure */
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; s && i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
    free(s);
    snprintf(tag, cap, "%016llx", (unsigned long long)h);
}

trn_abl_journal *heurnet_ablate_journal_open(struct heurnet_ablate *a, const trn_data *d,
                                             int *status)
{
    char tag[32];
    config_tag(a, d, tag, sizeof tag);
    const char *cols[HEURNET_ABL_MAX_COLS];
    for (int c = 0; c < a->ncol; c++)
        cols[c] = a->col[c].name;
    for (int k = 0; k < a->nseeds; k++)
        a->seed[k] = a->o.seed + (uint64_t)k;
    trn_abl_journal *j = trn_abl_journal_new((const char *const *)a->var.s, a->var.n, a->seed,
                                             a->nseeds, cols, a->ncol, tag);
    if (!j) {
        *status = hn_fail(HN_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if ((*status = trn_abl_journal_load(j, a->csv))) {
        trn_abl_journal_free(j);
        return NULL;
    }
    return j;
}

void heurnet_ablate_clear(struct heurnet_ablate *a)
{
    trn_abl_list_free(&a->var);
    free(a->states);
    dom_free(a->search_dom);
    dom_free(a->own_dom);
    a->states = NULL;
    a->search_dom = a->own_dom = NULL;
    a->dom = NULL;
    a->nboards = 0;
}
