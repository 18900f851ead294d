/* The searches that square n-puzzle models (3x3 to 5x5) recorded before
 * the one search core: `heurnet nn set-search` wrote them in the words of
 * the n-puzzle command, where some options meant something else. They are
 * translated on read into the words of heurnet solve --domain, one rule per
 * word (docs/formats.md, "Recorded searches"), so that such a model runs
 * the search it was tuned with:
 *
 *   --algo batch-astar         --algo bwas (f = g + W*h, as batch-astar)
 *   bwas --weight L (lambda)   --weight 1/L (lambda*g + h orders as
 *                              g + h/lambda); no --weight: lambda 0.8
 *   bwas, batch-astar          --batch 16 when none is given; the other
 *                              algorithms' --batch, --deltas, --bound and
 *                              --admissible are dropped (they did not apply)
 *   astar, idastar, focal      --weight dropped (it did not apply)
 *   anytime --weight LIST      --weights LIST; none, or the single 1: none
 *   anytime                    --deltas 0,1,2,3,4,6,inf when none is given
 *   focal, anytime             --admissible: the ann: spec's admissible
 *                              part, else the width's PDB (8, 7-8, 6-6-6-6)
 *   --shortcut W[:N]           W:N:ida:r1 (IDA* windows, one round)
 *   --ida LO-HI:D bands        refused (not kept: docs/search-24.md)
 *   ann: without an engine     ,float (the sparse float engine)
 *   ann: q8 without acc16      ,acc32 (32-bit first-layer accumulators)
 *   no --algo                  --algo astar */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"
#include "solve/dom_int.h"

/* The old words' settings, as text. */
typedef struct {
    const char *algo, *heuristic, *admissible, *batch, *weight, *bound, *deltas, *shortcut, *ida,
        *ida_at;
} np_words;

static const char **np_field(np_words *w, const char *name)
{
    static const char *const names[] = {"algo",  "heuristic", "admissible", "batch", "weight",
                                        "bound", "deltas",    "shortcut",   "ida",   "ida-at"};
    const char **f[] = {&w->algo,  &w->heuristic, &w->admissible, &w->batch, &w->weight,
                        &w->bound, &w->deltas,    &w->shortcut,   &w->ida,   &w->ida_at};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i]))
            return f[i];
    return NULL;
}

/* "--name value" / "--name=value" pairs of buf (cut in place) into *w. */
static int np_words_read(char *buf, np_words *w)
{
    char *tok[64], *save = NULL;
    int n = 0;
    for (char *t = strtok_r(buf, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
        if (n == 64)
            return hn_fail(HN_ERR_FORMAT, "more than 64 words in a recorded search");
        tok[n++] = t;
    }
    for (int i = 0; i < n; i++) {
        char *t = tok[i], *eq = strchr(t, '=');
        if (eq)
            *eq = '\0';
        const char **f = strncmp(t, "--", 2) ? NULL : np_field(w, t + 2);
        const char *val = eq ? eq + 1 : i + 1 < n ? tok[++i] : NULL;
        if (!f)
            return hn_fail(HN_ERR_FORMAT,
                           "unknown setting '%s' (an n-puzzle record takes --algo --heuristic "
                           "--admissible --batch --weight --bound --deltas --shortcut --ida "
                           "--ida-at)",
                           t);
        if (!val)
            return hn_fail(HN_ERR_FORMAT, "the recorded setting '%s' needs a value", t);
        *f = val;
    }
    return 0;
}

/* Append "fmt" to out (cap bytes, *len used). */
static int put(char *out, size_t cap, size_t *len, const char *fmt, const char *a, const char *b)
{
    int n = snprintf(out + *len, cap - *len, fmt, a, b ? b : "");
    if (n < 0 || (size_t)n >= cap - *len)
        return hn_fail(HN_ERR_FORMAT, "the recorded search is too long once translated");
    *len += (size_t)n;
    return 0;
}

/* 1 when `part` (one item after ann:PATH,) is one of the old spec's
 * network settings rather than its admissible heuristic. */
static int ann_setting(const char *part)
{
    return !strncmp(part, "delta:", 6) || !strncmp(part, "scale:", 6) ||
           !strncmp(part, "cache:", 6) || !strcmp(part, "mirror") || !strcmp(part, "q8") ||
           !strcmp(part, "sparse") || !strcmp(part, "dense") || !strcmp(part, "acc16");
}

/* The heuristic with the old engine defaults made explicit, and its
 * admissible part (or "") into floor. */
static int heuristic_words(const char *spec, char *out, size_t cap, char *floor, size_t fcap)
{
    char buf[4096], *save = NULL;
    int q8 = 0, acc16 = 0, engine = 0;
    floor[0] = '\0';
    if (snprintf(buf, sizeof buf, "%s", spec) >= (int)sizeof buf)
        return -1;
    int first = 1;
    for (char *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save), first = 0) {
        q8 |= !strcmp(p, "q8");
        acc16 |= !strcmp(p, "acc16");
        engine |= !strcmp(p, "q8") || !strcmp(p, "sparse") || !strcmp(p, "dense");
        if (!first && !ann_setting(p) && !floor[0])
            snprintf(floor, fcap, "%s", p);
    }
    int n =
        snprintf(out, cap, "%s%s%s", spec, engine ? "" : ",float", q8 && !acc16 ? ",acc32" : "");
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

/* The width's PDB, the old default admissible heuristic. */
static const char *default_pdb(int width)
{
    return width == 3 ? "pdb:8" : width == 4 ? "pdb:7-8" : "pdb:6-6-6-6";
}

/* --shortcut W[:N] as IDA* windows of one round. */
static int shortcut_words(const char *v, char *out, size_t cap)
{
    const char *colon = strchr(v, ':');
    int n = !strcmp(v, "0") ? snprintf(out, cap, "0")
            : colon         ? snprintf(out, cap, "%s:ida:r1", v)
                            : snprintf(out, cap, "%s:1000000:ida:r1", v);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

/* The weight options of the new words for algorithm `algo`. */
static int weight_words(const np_words *w, const char *algo, char *out, size_t cap, size_t *len)
{
    if (!strcmp(algo, "anytime")) {
        const char *v = w->weight && strcmp(w->weight, "1") ? w->weight : "none";
        return put(out, cap, len, " --weights %s", v, NULL);
    }
    int batch = w->algo && !strcmp(w->algo, "batch-astar");
    if (!strcmp(algo, "bwas") && !batch) {
        char *end;
        double lambda = w->weight ? strtod(w->weight, &end) : 0.8;
        if (w->weight && (*end || !(lambda > 0 && lambda <= 1)))
            return hn_fail(HN_ERR_FORMAT, "bwas: --weight is lambda in (0, 1], not '%s'",
                           w->weight);
        char num[64];
        snprintf(num, sizeof num, "%.17g", 1.0 / lambda);
        return put(out, cap, len, " --weight %s", num, NULL);
    }
    /* weighted A* and batch-astar order by f = g + W*h as the new words do;
     * A*, IDA* and focal took no weight */
    return w->weight && (batch || !strcmp(algo, "wastar"))
               ? put(out, cap, len, " --weight %s", w->weight, NULL)
               : 0;
}

/* The settings that depend on the algorithm. */
static int algo_words(const np_words *w, const char *algo, int width, const char *floor, char *out,
                      size_t cap, size_t *len)
{
    int bwas = !strcmp(algo, "bwas"), any = !strcmp(algo, "anytime");
    int st = weight_words(w, algo, out, cap, len);
    /* the other old algorithms took no batch, no deltas, no bound: dropped */
    if (!st && bwas)
        st = put(out, cap, len, " --batch %s", w->batch ? w->batch : "16", NULL);
    if (!st && any)
        st = put(out, cap, len, " --deltas %s", w->deltas ? w->deltas : "0,1,2,3,4,6,inf", NULL);
    if (!st && (any || !strcmp(algo, "focal"))) {
        const char *adm = w->admissible ? w->admissible : floor[0] ? floor : default_pdb(width);
        st = put(out, cap, len, " --admissible %s", adm, NULL);
    }
    if (!st && w->bound && !strcmp(algo, "focal"))
        st = put(out, cap, len, " --bound %s", w->bound, NULL);
    if (!st && w->ida)
        st = put(out, cap, len, " --ida %s", w->ida, NULL);
    if (!st && w->ida_at)
        st = put(out, cap, len, " --ida-at %s", w->ida_at, NULL);
    return st ? HN_ERR_FORMAT : 0;
}

int heurnet_dom_record_np_translate(int width, const char *rec, char *out, size_t cap)
{
    char buf[4096], heur[4200], floor[256], sc[96];
    np_words w = {0};
    size_t len = 0;
    if (snprintf(buf, sizeof buf, "%s", rec) >= (int)sizeof buf)
        return hn_fail(HN_ERR_FORMAT, "a recorded search of more than %zu characters",
                       sizeof buf - 1);
    if (np_words_read(buf, &w))
        return HN_ERR_FORMAT;
    if (w.ida && strcmp(w.ida, "off") && strcmp(w.ida, "plain"))
        return hn_fail(HN_ERR_FORMAT,
                       "--ida '%s': the bands of IDA* passes are not kept (they lost moves "
                       "and proved nothing, docs/search-24.md); --ida plain is",
                       w.ida);
    const char *algo = !w.algo ? "astar" : !strcmp(w.algo, "batch-astar") ? "bwas" : w.algo;
    floor[0] = '\0';
    if (w.heuristic && heuristic_words(w.heuristic, heur, sizeof heur, floor, sizeof floor))
        return hn_fail(HN_ERR_FORMAT, "--heuristic '%s' is too long", w.heuristic);
    if (w.shortcut && shortcut_words(w.shortcut, sc, sizeof sc))
        return hn_fail(HN_ERR_FORMAT, "--shortcut '%s' is too long", w.shortcut);
    int st = put(out, cap, &len, "--algo %s", algo, NULL);
    if (!st && w.heuristic)
        st = put(out, cap, &len, " --heuristic %s", heur, NULL);
    if (!st && w.shortcut)
        st = put(out, cap, &len, " --shortcut %s", sc, NULL);
    return st ? HN_ERR_FORMAT : algo_words(&w, algo, width, floor, out, cap, &len);
}

int heurnet_dom_record_np_width(const dom *d)
{
    int w = 0, h = 0, n = 0;
    const char *spec = dom_spec(d);
    if (sscanf(spec, "npuzzle:%dx%d%n", &w, &h, &n) != 2 || w != h || w < 3 || w > 5)
        return 0;
    return !spec[n] || !strcmp(spec + n, ":blank-last") ? w : 0;
}
