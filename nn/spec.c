/* Architecture spec strings ("256-1024:relu,nobn,do=0.2-1"): parsing with
 * errors that name the character position, and formatting that round-trips. */
#include "nn/nn_private.h"

#include <errno.h>
#include <float.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct nn_layer_defaults NN_LAYER_DEFAULTS = {
    .act = NN_ACT_ELU,
    .elu_alpha = 1.0f,
    .bn = 1,
    .bn_eps = 1e-3f,
    .dropout = 0.0f,
    .init = NN_INIT_HE,
};

static const char *const act_names[] = {"linear", "relu", "elu", "leaky"};

const char *nn_act_name(enum nn_act act)
{
    if ((unsigned)act < sizeof act_names / sizeof act_names[0])
        return act_names[act];
    return "?";
}

int nn_act_parse(const char *name, enum nn_act *act)
{
    for (unsigned i = 0; i < sizeof act_names / sizeof act_names[0]; i++)
        if (!strcmp(name, act_names[i])) {
            *act = (enum nn_act)i;
            return HN_OK;
        }
    return hn_fail(HN_ERR_FORMAT, "unknown activation '%s' (expected elu, relu, leaky or linear)",
                   name);
}

static struct nn_layer_spec layer_default(const struct nn_layer_defaults *d, int output)
{
    struct nn_layer_spec l = {.act = d->act,
                              .elu_alpha = d->elu_alpha,
                              .bn = d->bn,
                              .bn_eps = d->bn_eps,
                              .dropout = d->dropout,
                              .init = d->init};
    if (output) {
        l.act = NN_ACT_LINEAR;
        l.bn = 0;
        l.dropout = 0.0f;
    }
    return l;
}

/* Largest ELU alpha and batch-norm epsilon accepted: beyond these a layer's
 * outputs overflow a float long before training could use them. */
#define ALPHA_MAX 100.0f
#define EPS_MAX 1.0f

/* Parse a float after "key=" at s; sets *end. -1 if not a number or if it
 * does not survive the conversion to float (overflow to inf, underflow). */
static int parse_float(const char *s, const char **end, float *v)
{
    char *e;
    errno = 0;
    double x = strtod(s, &e);
    if (e == s || errno || !isfinite(x) || fabs(x) > FLT_MAX || (x != 0.0 && fabs(x) < FLT_MIN))
        return -1;
    *v = (float)x;
    *end = e;
    return 0;
}

static int spec_err(const char *s, const char *p, const char *what)
{
    return hn_fail(HN_ERR_FORMAT, "spec '%s': character %d: %s", s, (int)(p - s) + 1, what);
}

/* One override token at p (up to ',' '-' or end). */
static int parse_token(const char *s, const char **pp, struct nn_layer_spec *l)
{
    const char *p = *pp;
    size_t n = strcspn(p, ",-");
    const char *e = p + n;
    float v;
    if (n == 0)
        return spec_err(
            s, p,
            "expected an override (elu, relu, leaky, linear, bn, nobn, do=P, alpha=A, eps=E, he, "
            "glorot)");
#define TOKEN(str) (n == strlen(str) && !strncmp(p, str, n))
    if (TOKEN("elu"))
        l->act = NN_ACT_ELU;
    else if (TOKEN("relu"))
        l->act = NN_ACT_RELU;
    else if (TOKEN("linear"))
        l->act = NN_ACT_LINEAR;
    else if (TOKEN("leaky"))
        l->act = NN_ACT_LEAKY;
    else if (TOKEN("bn"))
        l->bn = 1;
    else if (TOKEN("nobn"))
        l->bn = 0;
    else if (TOKEN("he"))
        l->init = NN_INIT_HE;
    else if (TOKEN("glorot"))
        l->init = NN_INIT_GLOROT;
    else if (!strncmp(p, "do=", 3) || !strncmp(p, "alpha=", 6) || !strncmp(p, "eps=", 4)) {
        const char *q = strchr(p, '=') + 1, *qe;
        /* strtod would swallow a following "-" only as a sign of nothing; a
         * number such as 1e-3 contains '-', so parse first, then check. */
        if (parse_float(q, &qe, &v) != 0)
            return spec_err(s, q, "expected a number");
        if (*qe && *qe != ',' && *qe != '-')
            return spec_err(s, qe, "unexpected character after number");
        if (p[0] == 'd') {
            if (!(v >= 0.0f && v < 1.0f))
                return spec_err(s, q, "dropout must be in [0, 1)");
            l->dropout = v;
        } else if (p[0] == 'a') {
            if (!(v > 0.0f && v <= ALPHA_MAX))
                return spec_err(s, q, "alpha (ELU scale, leaky slope) must be in (0, 100]");
            l->elu_alpha = v;
        } else {
            if (!(v > 0.0f && v <= EPS_MAX))
                return spec_err(s, q, "batch-norm epsilon must be in (0, 1]");
            l->bn_eps = v;
        }
        e = qe;
    } else
        return spec_err(
            s, p,
            "unknown override (expected elu, relu, leaky, linear, bn, nobn, do=P, alpha=A, "
            "eps=E, he, glorot)");
#undef TOKEN
    *pp = e;
    return HN_OK;
}

static int parse_width(const char *s, const char **pp, int *w)
{
    const char *p = *pp;
    if (*p < '0' || *p > '9')
        return spec_err(s, p,
                        *p ? "expected a layer width" : "expected a layer width, found the end");
    long v = 0;
    while (*p >= '0' && *p <= '9') {
        v = v * 10 + (*p - '0');
        if (v > 1000000)
            return spec_err(s, *pp, "layer width too large (max 1000000)");
        p++;
    }
    if (v == 0)
        return spec_err(s, *pp, "layer width must be at least 1");
    *w = (int)v;
    *pp = p;
    return HN_OK;
}

int nn_spec_parse(const char *s, const struct nn_layer_defaults *d, struct nn_spec *out)
{
    if (!d)
        d = &NN_LAYER_DEFAULTS;
    struct nn_spec sp = {0};
    const char *p = s;
    int widths = 0;
    const char *overridden[NN_MAX_LAYERS + 1] = {0};
    struct nn_layer_spec tmp[NN_MAX_LAYERS + 1];
    for (;;) {
        int w = 0, rc;
        if (widths > NN_MAX_LAYERS)
            return spec_err(s, p, "too many layers (max 64)");
        if ((rc = parse_width(s, &p, &w)))
            return rc;
        tmp[widths] = layer_default(d, 0);
        tmp[widths].width = w;
        if (*p == ':') {
            overridden[widths] = p;
            p++;
            for (;;) {
                if ((rc = parse_token(s, &p, &tmp[widths])))
                    return rc;
                if (*p != ',')
                    break;
                p++;
            }
        }
        widths++;
        if (*p == '\0')
            break;
        if (*p != '-')
            return spec_err(s, p, "expected '-' between layers");
        p++;
    }
    if (widths < 2)
        return spec_err(s, p, "need at least an input and an output width");
    if (overridden[0])
        return spec_err(s, overridden[0], "the input width takes no overrides");
    sp.n_inputs = tmp[0].width;
    sp.n_layers = widths - 1;
    for (int i = 1; i < widths; i++)
        sp.layer[i - 1] = tmp[i];
    /* The output layer is linear without bn/dropout unless overridden. */
    if (!overridden[widths - 1]) {
        struct nn_layer_spec o = layer_default(d, 1);
        o.width = tmp[widths - 1].width;
        sp.layer[sp.n_layers - 1] = o;
    } else {
        /* Re-apply the overrides on output defaults, not hidden defaults. */
        const char *q = overridden[widths - 1] + 1;
        struct nn_layer_spec o = layer_default(d, 1);
        o.width = tmp[widths - 1].width;
        for (;;) {
            int rc = parse_token(s, &q, &o);
            if (rc)
                return rc;
            if (*q != ',')
                break;
            q++;
        }
        sp.layer[sp.n_layers - 1] = o;
    }
    *out = sp;
    return HN_OK;
}

static int put(char *buf, size_t cap, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int put(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, cap > *len ? cap - *len : 0, fmt, ap);
    va_end(ap);
    if (n < 0 || *len + (size_t)n >= cap)
        return hn_fail(HN_ERR_ARG, "spec does not fit in %zu characters", cap);
    *len += (size_t)n;
    return HN_OK;
}

/* The shortest decimal that reads back as the same float (0.1, not 0.100000001). */
static const char *short_float(float v, char *buf, size_t cap)
{
    for (int prec = 1; prec <= 9; prec++) {
        snprintf(buf, cap, "%.*g", prec, (double)v);
        if ((float)strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

/* Overrides of l relative to base, e.g. ":relu,nobn,do=0.2" or "". */
static int put_overrides(const struct nn_layer_spec *l, const struct nn_layer_spec *base, char *buf,
                         size_t cap, size_t *len)
{
    char sep = ':', num[32];
    int rc = HN_OK;
    if (l->act != base->act)
        rc = rc ? rc : put(buf, cap, len, "%c%s", sep, nn_act_name(l->act)), sep = ',';
    if (l->bn != base->bn)
        rc = rc ? rc : put(buf, cap, len, "%c%s", sep, l->bn ? "bn" : "nobn"), sep = ',';
    if (l->dropout != base->dropout)
        rc = rc ? rc : put(buf, cap, len, "%cdo=%s", sep, short_float(l->dropout, num, sizeof num)),
        sep = ',';
    if (l->elu_alpha != base->elu_alpha)
        rc = rc ? rc
                : put(buf, cap, len, "%calpha=%s", sep, short_float(l->elu_alpha, num, sizeof num)),
        sep = ',';
    if (l->bn_eps != base->bn_eps)
        rc = rc ? rc : put(buf, cap, len, "%ceps=%s", sep, short_float(l->bn_eps, num, sizeof num)),
        sep = ',';
    if (l->init != base->init)
        rc = rc ? rc : put(buf, cap, len, "%c%s", sep, l->init == NN_INIT_HE ? "he" : "glorot");
    return rc;
}

int nn_spec_format(const struct nn_spec *spec, const struct nn_layer_defaults *d, char *buf,
                   size_t cap)
{
    if (!d)
        d = &NN_LAYER_DEFAULTS;
    size_t len = 0;
    int rc = put(buf, cap, &len, "%d", spec->n_inputs);
    for (int i = 0; !rc && i < spec->n_layers; i++) {
        struct nn_layer_spec base = layer_default(d, i == spec->n_layers - 1);
        rc = put(buf, cap, &len, "-%d", spec->layer[i].width);
        if (!rc)
            rc = put_overrides(&spec->layer[i], &base, buf, cap, &len);
    }
    return rc;
}

int nn_spec_check(const struct nn_spec *spec)
{
    if (spec->n_inputs < 1 || spec->n_layers < 1 || spec->n_layers > NN_MAX_LAYERS)
        return hn_fail(HN_ERR_ARG, "spec: need an input width and 1..%d layers", NN_MAX_LAYERS);
    for (int i = 0; i < spec->n_layers; i++) {
        const struct nn_layer_spec *l = &spec->layer[i];
        if (l->width < 1 || l->width > 1000000)
            return hn_fail(HN_ERR_ARG, "spec: layer %d: width %d out of range", i, l->width);
        if ((unsigned)l->act > NN_ACT_LEAKY || (unsigned)l->init > NN_INIT_GLOROT)
            return hn_fail(HN_ERR_ARG, "spec: layer %d: unknown activation or init", i);
        if (!(l->dropout >= 0.0f && l->dropout < 1.0f))
            return hn_fail(HN_ERR_ARG, "spec: layer %d: dropout %g not in [0, 1)", i,
                           (double)l->dropout);
        if (!(l->elu_alpha > 0.0f && l->elu_alpha <= ALPHA_MAX) ||
            !(l->bn_eps > 0.0f && l->bn_eps <= EPS_MAX))
            return hn_fail(HN_ERR_ARG,
                           "spec: layer %d: alpha must be in (0, 100], bn epsilon in (0, 1]", i);
    }
    return HN_OK;
}
