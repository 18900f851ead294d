/* The pieces heurnet avi assembles around trn_avi_run (train/trn_avi_setup.h). */
#include "train/trn_avi_setup.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/hn.h"
#include "search/generic/srch_dom.h"

int trn_avi_states_read(const dom *d, const char *path, void (*err)(const char *msg, void *user),
                        void *user, uint8_t **states, int **len, size_t *n)
{
    dom_instance_rec *in = NULL;
    size_t sb = dom_state_bytes(d);
    int st = dom_read_instances(d, path, err, user, &in, n);
    *states = NULL;
    if (len)
        *len = NULL;
    if (st)
        return st;
    if (!*n || *n > UINT32_MAX)
        st = hn_fail(HN_ERR_FORMAT, "%s: %s", path, *n ? "more than 2^32 states" : "no states");
    else if (!(*states = malloc(sb * *n)) || (len && !(*len = malloc(sizeof **len * *n))))
        st = hn_fail(HN_ERR_NOMEM, "%s: out of memory for %zu states", path, *n);
    for (size_t i = 0; !st && i < *n; i++) {
        if (len && in[i].length < 0)
            st = hn_fail(HN_ERR_FORMAT, "%s:%d: no optimal length (lines must be: id length state)",
                         path, in[i].line);
        memcpy(*states + i * sb, in[i].state, sb);
        if (len)
            (*len)[i] = in[i].length;
    }
    free(in);
    if (st) {
        free(*states);
        *states = NULL;
        if (len) {
            free(*len);
            *len = NULL;
        }
    }
    return st;
}

int trn_avi_eval_states(const dom *d, const nn_model *m, const dom_heur *residual,
                        const uint8_t *states, const int *len, size_t n, double *mae, double *exact)
{
    int st;
    srch_dom_net_opts no = SRCH_DOM_NET_DEFAULTS;
    no.engine = SRCH_DOM_ENGINE_FLOAT;
    no.residual = 0; /* added below from the run's own, already open */
    srch_dom_heur *h = srch_dom_heur_net(d, m, "model", &no, &st);
    double *est = malloc(sizeof *est * n);
    size_t sb = dom_state_bytes(d);
    *mae = *exact = NAN;
    if (h && !est)
        st = hn_fail(HN_ERR_NOMEM, "out of memory for %zu estimates", n);
    else if (h)
        st = srch_dom_heur_estimate(h, states, n, NULL, NULL, NULL, est);
    if (h && !st) {
        double sa = 0, ex = 0;
        for (size_t i = 0; i < n; i++) {
            if (residual)
                est[i] += dom_heur_eval(residual, states + i * sb);
            sa += fabs(est[i] - len[i]);
            ex += lround(est[i]) == len[i];
        }
        *mae = sa / (double)n;
        *exact = ex / (double)n;
    }
    srch_dom_heur_free(h);
    free(est);
    return st;
}

int trn_avi_log_truncate(const char *path, int round, int *dropped)
{
    FILE *in = fopen(path, "r"), *out = NULL;
    char part[4200], *line = NULL;
    size_t cap = 0;
    int st = in ? 0 : hn_fail(HN_ERR_IO, "%s: cannot read it: %s", path, strerror(errno));
    int first = 1;
    *dropped = 0;
    if (!st)
        out = hn_part_fopen(path, part, sizeof part, &st);
    while (!st && getline(&line, &cap, in) > 0) {
        if (!first && atoi(line) >= round) {
            ++*dropped;
            continue;
        }
        first = 0;
        if (fputs(line, out) < 0)
            st = hn_fail(HN_ERR_IO, "%s: write error", part);
    }
    free(line);
    if (in)
        fclose(in);
    if (out && (fclose(out) || st))
        st = st ? st : hn_fail(HN_ERR_IO, "%s: write error", part);
    if (!st && *dropped)
        st = hn_part_commit(path);
    if (out && (st || !*dropped))
        hn_part_discard(path);
    return st;
}

/* The network the options describe: arch in full, or the checkpoint's
 * with the hidden-layer settings that the options given set. */
static void arch_wanted(const char *arch, const struct nn_layer_defaults *d, const char *arch_opts,
                        const struct nn_spec *have, struct nn_spec *want)
{
    *want = *have;
    if (arch) {
        if (nn_spec_parse(arch, d, want))
            *want = *have; /* the caller parsed it already */
        return;
    }
    for (int i = 0; i < want->n_layers - 1; i++) {
        if (strstr(arch_opts, "--act"))
            want->layer[i].act = d->act;
        if (strstr(arch_opts, "bn"))
            want->layer[i].bn = d->bn;
        if (strstr(arch_opts, "--dropout"))
            want->layer[i].dropout = d->dropout;
    }
}

int trn_avi_resume_arch_check(const char *resume, const char *arch,
                              const struct nn_layer_defaults *d, const char *arch_opts)
{
    if (!resume || (!arch && !arch_opts[0]))
        return HN_OK;
    int st;
    nn_model *m = nn_model_load(resume, &st);
    if (!m) {
        hn_error_clear();
        return HN_OK;
    }
    struct nn_spec want;
    char have_s[512], want_s[512];
    arch_wanted(arch, d, arch_opts, nn_model_spec(m), &want);
    int differ = nn_spec_format(nn_model_spec(m), NULL, have_s, sizeof have_s) ||
                 nn_spec_format(&want, NULL, want_s, sizeof want_s) || strcmp(have_s, want_s);
    nn_model_free(m);
    if (!differ)
        return HN_OK;
    return hn_fail(HN_ERR_ARG,
                   "%s: the checkpoint's network is %s, but '%s%s%s%s' describes %s; --resume "
                   "continues the checkpoint's network (drop those options, or start a new run)",
                   resume, have_s, arch ? "--arch " : "", arch ? arch : "",
                   arch && arch_opts[0] ? " " : "", arch_opts, want_s);
}

int trn_avi_checkpoint_check(const char *checkpoint, const char *resume)
{
    struct stat st, rs;
    if (!checkpoint || lstat(checkpoint, &st) != 0)
        return HN_OK;
    if (S_ISDIR(st.st_mode))
        return hn_fail(HN_ERR_ARG, "--checkpoint %s is a folder, not a file", checkpoint);
    if (resume && stat(resume, &rs) == 0 && stat(checkpoint, &st) == 0 && rs.st_dev == st.st_dev &&
        rs.st_ino == st.st_ino)
        return HN_OK;
    return hn_fail(HN_ERR_ARG,
                   "--checkpoint %s exists (continue it with --resume %s, or use --force to "
                   "replace it)",
                   checkpoint, checkpoint);
}
