/* Variant lists for ablations: brace grids ("81-{64,128}-1@{mse,amse:4}")
 * and files with one variant (or grid) a line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hn.h"
#include "train/ablate.h"

#define GRID_MAX_GROUPS 16
#define GRID_MAX_LEN 1024
#define GRID_MAX_ALT 64

void trn_abl_list_free(struct trn_abl_list *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->s[i]);
    free(l->s);
    *l = (struct trn_abl_list){0};
}

int trn_abl_list_add(struct trn_abl_list *l, const char *s)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        char **p = realloc(l->s, (size_t)cap * sizeof *p);
        if (!p)
            return hn_fail(HN_ERR_NOMEM, "out of memory for the variant list");
        l->s = p;
        l->cap = cap;
    }
    size_t len = strlen(s) + 1;
    if (!(l->s[l->n] = malloc(len)))
        return hn_fail(HN_ERR_NOMEM, "out of memory for the variant list");
    memcpy(l->s[l->n++], s, len);
    return 0;
}

/* A grid split into literal text and groups: part[0] {group 0} part[1] ... */
struct grid {
    char buf[GRID_MAX_LEN];
    const char *part[GRID_MAX_GROUPS + 1];
    const char *alt[GRID_MAX_GROUPS][GRID_MAX_ALT];
    int nalt[GRID_MAX_GROUPS], ngroup;
};

/* Cut the group that starts after '{' at p into alternatives; returns the
 * character after its '}', or NULL with a message. */
static char *grid_group(const char *pattern, struct grid *g, char *p)
{
    int k = g->ngroup;
    g->nalt[k] = 0;
    for (char *start = p;; p++) {
        if (*p == '{' || !*p) {
            hn_fail(HN_ERR_ARG, "grid '%s': %s", pattern,
                    *p ? "groups do not nest" : "a '{' has no matching '}'");
            return NULL;
        }
        if (*p != ',' && *p != '}')
            continue;
        if (g->nalt[k] == GRID_MAX_ALT) {
            hn_fail(HN_ERR_ARG, "grid '%s': more than %d alternatives in a group", pattern,
                    GRID_MAX_ALT);
            return NULL;
        }
        if (p == start) {
            hn_fail(HN_ERR_ARG, "grid '%s': an empty alternative", pattern);
            return NULL;
        }
        int last = *p == '}';
        *p = '\0';
        g->alt[k][g->nalt[k]++] = start;
        start = p + 1;
        if (last)
            return p + 1;
    }
}

static int grid_split(const char *pattern, struct grid *g)
{
    if (strlen(pattern) >= sizeof g->buf)
        return hn_fail(HN_ERR_ARG, "grid '%.40s...': longer than %d characters", pattern,
                       GRID_MAX_LEN - 1);
    snprintf(g->buf, sizeof g->buf, "%s", pattern);
    g->ngroup = 0;
    char *p = g->buf;
    g->part[0] = p;
    while ((p = strpbrk(p, "{}"))) {
        if (*p == '}')
            return hn_fail(HN_ERR_ARG, "grid '%s': a '}' without '{'", pattern);
        if (g->ngroup == GRID_MAX_GROUPS)
            return hn_fail(HN_ERR_ARG, "grid '%s': more than %d groups", pattern, GRID_MAX_GROUPS);
        *p = '\0';
        if (!(p = grid_group(pattern, g, p + 1)))
            return HN_ERR_ARG;
        g->part[++g->ngroup] = p;
    }
    return 0;
}

int trn_abl_grid_expand(const char *pattern, int max, struct trn_abl_list *out)
{
    struct grid g;
    int rc = grid_split(pattern, &g);
    if (rc)
        return rc;
    long total = 1;
    for (int k = 0; k < g.ngroup && total <= max; k++)
        total *= g.nalt[k];
    if (out->n + total > max)
        return hn_fail(HN_ERR_ARG, "grid '%s': more than %d variants in all", pattern, max);
    int pick[GRID_MAX_GROUPS] = {0};
    for (long v = 0; v < total; v++) {
        /* odometer: the last group turns fastest */
        long rest = v;
        for (int k = g.ngroup - 1; k >= 0; k--) {
            pick[k] = (int)(rest % g.nalt[k]);
            rest /= g.nalt[k];
        }
        char s[GRID_MAX_LEN * 2] = "";
        size_t len = 0;
        for (int k = 0; k <= g.ngroup; k++) {
            len += (size_t)snprintf(s + len, sizeof s - len, "%s%s", g.part[k],
                                    k < g.ngroup ? g.alt[k][pick[k]] : "");
            if (len >= sizeof s)
                return hn_fail(HN_ERR_ARG, "grid '%s': a variant is too long", pattern);
        }
        if ((rc = trn_abl_list_add(out, s)))
            return rc;
    }
    return 0;
}

/* Strip the comment, leading and trailing blanks of a line in place. */
static char *line_trim(char *s)
{
    char *hash = strchr(s, '#');
    if (hash)
        *hash = '\0';
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && strchr(" \t\r\n", s[n - 1]))
        s[--n] = '\0';
    return s;
}

int trn_abl_variants_read(const char *path, int max, struct trn_abl_list *out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return hn_fail(HN_ERR_IO, "%s: cannot open the variant file: %s", path, strerror(errno));
    char line[GRID_MAX_LEN + 2];
    int rc = 0, no = 0, before = out->n;
    while (!rc && fgets(line, sizeof line, f)) {
        no++;
        if (!strchr(line, '\n') && !feof(f)) {
            rc = hn_fail(HN_ERR_ARG, "%s:%d: line longer than %d characters", path, no,
                         GRID_MAX_LEN);
            break;
        }
        char *s = line_trim(line);
        if (*s && (rc = trn_abl_grid_expand(s, max, out))) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", hn_errmsg());
            rc = hn_fail(rc, "%s:%d: %s", path, no, msg);
        }
    }
    if (!rc && ferror(f))
        rc = hn_fail(HN_ERR_IO, "%s: read error", path);
    fclose(f);
    if (!rc && out->n == before)
        rc = hn_fail(HN_ERR_ARG, "%s: no variants (one SPEC[@LOSS] a line)", path);
    return rc;
}
