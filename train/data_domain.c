/* Which domain training data is read through (train/trn.h,
 * trn_data_domain_open): the one asked for, else a starting model's, else
 * the one the data records. */
#include <stdio.h>
#include <string.h>

#include "common/hn.h"
#include "nn/nn.h"
#include "train/trn.h"

/* The "domain" a model records into buf ("" when none or unreadable: the
 * training reports a bad model itself). */
static void model_domain(const char *path, char *buf, size_t cap)
{
    int st;
    nn_model *m = nn_model_load(path, &st);
    const char *md = m ? nn_model_get_meta_str(m, "domain") : NULL;
    snprintf(buf, cap, "%s", md ? md : "");
    nn_model_free(m);
    hn_error_clear();
}

int trn_data_domain_open(const char *given, const char *data0, const char *init, dom **dm)
{
    char file[256] = "", from[256] = "";
    *dm = NULL;
    if (trn_data_file_domain(data0, file, sizeof file))
        hn_error_clear(); /* the reader says what is wrong with the file */
    if (init)
        model_domain(init, from, sizeof from);
    const char *spec = given ? given : from[0] && file[0] ? from : file;
    if (!spec[0])
        return HN_OK;
    int st;
    if (!(*dm = dom_open(spec, &st)))
        return given ? hn_fail(HN_ERR_ARG, "--domain %s: %s", spec, hn_errmsg())
                     : hn_fail(HN_ERR_ARG,
                               "%s: cannot open its domain %s (%s); name it with --domain, e.g. "
                               "--domain ./libplugin.so:ARGS",
                               spec == from ? init : data0, spec, hn_errmsg());
    if (from[0] && strcmp(from, dom_spec(*dm)) && strcmp(from, dom_canonical(*dm))) {
        st = hn_fail(HN_ERR_ARG, "--init-from %s: a model of domain %s, not of %s", init, from,
                     dom_spec(*dm));
        dom_free(*dm);
        *dm = NULL;
        return st;
    }
    return HN_OK;
}
