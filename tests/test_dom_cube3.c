/* The cube3 domain: turns against known facts (the single R, Reid's
 * superflip, orders of move sequences), DeepCubeA's 800 test cubes read two
 * ways, every kind of impossible cube, the pruning automaton against
 * breadth-first counts, and the encoding, patterns and heuristic against
 * independent computations. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cube3_ball.h"
#include "domains/dom.h"
#include "dom_test.h"
#include "search/generic/srch_dom.h"

#define SB BALL_SB
#define SOLVED "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"

static void apply_text(const dom *d, uint8_t *s, const char *moves)
{
    uint8_t m[256];
    int n = dom_parse_moves(d, moves, m, 256);
    CHECK_MSG(n >= 0, "%s: %s", moves, hn_errmsg());
    for (int i = 0; i < n; i++)
        dom_apply(d, s, m[i]);
}

static void check_known_cubes(const dom *d)
{
    uint8_t s[SB], g[SB];
    char buf[64];
    dom_goal(d, g);
    CHECK(dom_format_state(d, g, buf, sizeof buf) == 54 && !strcmp(buf, SOLVED));
    memcpy(s, g, SB);
    apply_text(d, s, "R");
    dom_format_state(d, s, buf, sizeof buf);
    CHECK_MSG(!strcmp(buf, "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB"), "R gives %s",
              buf);
    /* Reid (1995): a 20-move half-turn sequence for the superflip, every
     * edge flipped in place, nothing else changed. */
    memcpy(s, g, SB);
    apply_text(d, s, "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2");
    uint8_t flip[SB];
    memcpy(flip, g, SB);
    memset(flip + 28, 1, 12);
    CHECK(!memcmp(s, flip, SB));
    dom_format_state(d, s, buf, sizeof buf);
    CHECK(!strcmp(buf, "UBULURUFURURFRBRDRFUFLFRFDFDFDLDRDBDLULBLFLDLBUBRBLBDB"));
    /* orders: R U R' U' is 6, R U is 105 */
    const char *seq[2] = {"R U R' U'", "R U"};
    int order[2] = {6, 105};
    for (int k = 0; k < 2; k++) {
        memcpy(s, g, SB);
        int n = 0;
        do {
            apply_text(d, s, seq[k]);
            n++;
        } while (memcmp(s, g, SB) && n < 1000);
        CHECK_MSG(n == order[k], "order of %s: %d", seq[k], n);
    }
}

static void random_cube(const dom *d, uint8_t *s, hn_rng *rng)
{
    CHECK(dom_random_state(d, s, rng) == 0);
}

static void check_moves(const dom *d, hn_rng *rng)
{
    uint8_t s[SB], t[SB], kids[12 * SB], mv[12], cq[12];
    for (int trial = 0; trial < 200; trial++) {
        random_cube(d, s, rng);
        for (int m = 0; m < 12; m++) {
            memcpy(t, s, SB);
            CHECK(dom_apply(d, t, m) == 1 && memcmp(t, s, SB));
            dom_apply(d, t, dom_inverse(d, m));
            CHECK(!memcmp(t, s, SB));
            for (int k = 0; k < 4; k++)
                dom_apply(d, t, m);
            CHECK(!memcmp(t, s, SB));
        }
        int q = (int)hn_rng_below(rng, 19);
        int n = dom_expand(d, s, q, kids, mv, cq), i = 0;
        for (int m = 0; m < 12; m++) {
            if (!(dom_allowed(d, q) >> m & 1))
                continue;
            memcpy(t, s, SB);
            dom_apply(d, t, m);
            CHECK(i < n && mv[i] == m && !memcmp(kids + i * SB, t, SB) &&
                  cq[i] == dom_prune_next(d, q, m));
            i++;
        }
        CHECK(i == n);
    }
}

static int cmp32(const void *a, const void *b)
{
    return *(const int32_t *)a - *(const int32_t *)b;
}

static void check_encoding(const dom *d, hn_rng *rng)
{
    const dom_facts *f = dom_facts_of(d);
    CHECK(f->inputs == 480 && f->max_active == 20 && !strcmp(f->encoding, "cube3-cubie-onehot"));
    uint8_t s[SB], t[SB];
    for (int trial = 0; trial < 200; trial++) {
        random_cube(d, s, rng);
        int32_t a[DOM_MAX_ACTIVE], b[DOM_MAX_ACTIVE], off[DOM_MAX_ACTIVE], on[DOM_MAX_ACTIVE];
        int na = dom_encode(d, s, a);
        CHECK(na == 20);
        qsort(a, (size_t)na, sizeof *a, cmp32);
        for (int i = 0; i < na; i++)
            CHECK(a[i] >= 0 && a[i] < 480 && (i == 0 || a[i] > a[i - 1]));
        int m = (int)hn_rng_below(rng, 12), noff, non;
        CHECK(dom_encode_delta(d, s, m, off, &noff, on, &non) == 0 && noff == 8 && non == 8);
        memcpy(t, s, SB);
        dom_apply(d, t, m);
        dom_encode(d, t, b);
        /* a minus off plus on is b */
        int32_t c[DOM_MAX_ACTIVE * 2];
        int nc = 0;
        for (int i = 0; i < na; i++) {
            int gone = 0;
            for (int k = 0; k < noff; k++)
                gone |= a[i] == off[k];
            if (!gone)
                c[nc++] = a[i];
        }
        for (int k = 0; k < non; k++)
            c[nc++] = on[k];
        qsort(c, (size_t)nc, sizeof *c, cmp32);
        qsort(b, 20, sizeof *b, cmp32);
        CHECK(nc == 20 && !memcmp(b, c, sizeof b[0] * 20));
    }
}

/* Formats back, and uniform: each corner cubie in position 0 about 1/8. */
static void check_random_and_text(const dom *d, hn_rng *rng)
{
    uint8_t s[SB], t[SB];
    int seen[8] = {0}, twist[3] = {0};
    char buf[64];
    for (int trial = 0; trial < 8000; trial++) {
        random_cube(d, s, rng);
        seen[s[0] & 7]++;
        twist[s[8] % 3]++;
        CHECK(dom_format_state(d, s, buf, sizeof buf) == 54);
        CHECK_MSG(dom_parse_state(d, buf, t) == 0 && !memcmp(s, t, SB), "%s: %s", buf, hn_errmsg());
    }
    for (int k = 0; k < 8; k++)
        CHECK_MSG(seen[k] > 800 && seen[k] < 1200, "corner %d first %d times", k, seen[k]);
    for (int k = 0; k < 3; k++)
        CHECK(twist[k] > 2400 && twist[k] < 2940);
    /* a short buffer: truncated, NUL-terminated, full length returned */
    CHECK(dom_format_state(d, s, buf, 10) == 54 && strlen(buf) == 9);
    uint8_t mv[16];
    CHECK(dom_parse_moves(d, "R2 U'_F  B2'", mv, 16) == 6);
    CHECK(mv[0] == 2 && mv[1] == 2 && mv[2] == 1 && mv[3] == 4 && mv[4] == 10 && mv[5] == 10);
    char text[64];
    dom_format_moves(d, mv, 6, text, sizeof text);
    CHECK(!strcmp(text, "R R U' F B B"));
    CHECK(dom_parse_moves(d, "R U X", mv, 16) == HN_ERR_FORMAT);
    CHECK(dom_parse_moves(d, "R2 R2", mv, 3) < 0);
}

/* Every line parses; the scramble alone gives the facelets alone, its
 * length is the listed optimum, and its reverse inverse solves the cube. */
static void check_test_file(const dom *d)
{
    dom_instance_rec *rec = NULL;
    size_t n = 0;
    int st =
        dom_read_instances(d, HN_TEST_DATA "/cube3/deepcubea_test_cube3.txt", NULL, NULL, &rec, &n);
    CHECK_MSG(st == 0 && n == 800, "%d %zu %s", st, n, hn_errmsg());
    FILE *f = fopen(HN_TEST_DATA "/cube3/deepcubea_test_cube3.txt", "r");
    CHECK(f != NULL);
    char line[1024];
    size_t k = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        line[strcspn(line, "\n")] = '\0';
        char id[16], len[8], facelets[64], scramble[512];
        CHECK(sscanf(line, "%15s %7s %63s %511s", id, len, facelets, scramble) == 4);
        uint8_t a[SB], b[SB], mv[128], inv[128];
        CHECK(dom_parse_state(d, facelets, a) == 0 && dom_parse_state(d, scramble, b) == 0);
        CHECK_MSG(!memcmp(a, b, SB), "cube %s: facelets and scramble differ", id);
        int nm = dom_parse_moves(d, scramble, mv, 128);
        CHECK(nm == atoi(len));
        for (int i = 0; i < nm; i++)
            inv[i] = (uint8_t)dom_inverse(d, mv[nm - 1 - i]);
        CHECK(dom_replay(d, a, inv, nm) == 1);
        CHECK(k < n && !memcmp(rec[k].state, a, SB) && rec[k].length == atoi(len) &&
              !strcmp(rec[k].id, id));
        k++;
    }
    CHECK(k == 800);
    if (f)
        fclose(f);
    free(rec);
}

static void swap_chars(char *s, int i, int j)
{
    char t = s[i];
    s[i] = s[j];
    s[j] = t;
}

static void refused(const dom *d, const char *text, int status, const char *word)
{
    uint8_t s[SB];
    int st = dom_parse_state(d, text, s);
    CHECK_MSG(st == status && strstr(hn_errmsg(), word), "'%s': status %d, '%s' (want %d, '%s')",
              text, st, hn_errmsg(), status, word);
}

/* Facelet indices: U1..U9 0..8, R 9.., F 18.., D 27.., L 36.., B 45.. */
static void check_impossible(const dom *d)
{
    char c[64];
    refused(d, "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBX", HN_ERR_FORMAT,
            "not one of");
    refused(d, "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBB", HN_ERR_FORMAT,
            "expected 54");
    snprintf(c, sizeof c, SOLVED);
    c[0] = 'R'; /* ten R, eight U */
    refused(d, c, HN_ERR_UNSOLVABLE, "colour");
    snprintf(c, sizeof c, SOLVED);
    swap_chars(c, 4, 13); /* the U and R centres swapped */
    refused(d, c, HN_ERR_UNSOLVABLE, "centre");
    snprintf(c, sizeof c, SOLVED);
    swap_chars(c, 9, 20); /* R1 and F3 of the URF corner: a mirrored corner */
    refused(d, c, HN_ERR_UNSOLVABLE, "no corner");
    snprintf(c, sizeof c, SOLVED);
    c[8] = 'R', c[9] = 'F', c[20] = 'U'; /* URF corner twisted in place */
    refused(d, c, HN_ERR_UNSOLVABLE, "twisted");
    snprintf(c, sizeof c, SOLVED);
    swap_chars(c, 5, 10); /* UR edge flipped in place */
    refused(d, c, HN_ERR_UNSOLVABLE, "flipped");
    snprintf(c, sizeof c, SOLVED);
    swap_chars(c, 10, 19); /* UR and UF edges swapped (U6/U8 stay U) */
    refused(d, c, HN_ERR_UNSOLVABLE, "parity");
    snprintf(c, sizeof c, SOLVED);
    c[8] = 'U', c[9] = 'U'; /* URF reads U U F: no such corner */
    c[5] = 'R';
    refused(d, c, HN_ERR_UNSOLVABLE, "no corner");
    /* UFL becomes a second URF (F1 -> R, L3 -> F) and UR a second UL
     * (R2 -> L): the colour counts stay 9 */
    snprintf(c, sizeof c, SOLVED);
    c[18] = 'R', c[38] = 'F', c[10] = 'L';
    refused(d, c, HN_ERR_UNSOLVABLE, "appears twice");
    refused(d, "R U Q", HN_ERR_FORMAT, "not a move");
    refused(d, SOLVED " R", HN_ERR_FORMAT, "different cubes");
    refused(d, "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB R", 0, "");
    refused(d, "", HN_ERR_FORMAT, "no cube");
    refused(d, "  " SOLVED " \r\n", 0, "");
    refused(d, "R U R' U'\r", 0, "");
    /* an instance line with an impossible cube keeps the reason */
    dom_instance_rec rec;
    snprintf(c, sizeof c, SOLVED);
    c[8] = 'R', c[9] = 'F', c[20] = 'U';
    char line[128];
    snprintf(line, sizeof line, "7 12 %s", c);
    CHECK(dom_parse_instance(d, line, &rec) == HN_ERR_UNSOLVABLE && strstr(hn_errmsg(), "twisted"));
}

/* Sequences of length n the automaton allows, counted by dynamic
 * programming over its states. */
static void automaton_counts(const dom *d, int maxn, uint64_t *count)
{
    uint64_t at[19] = {1}, next[19];
    count[0] = 1;
    for (int n = 1; n <= maxn; n++) {
        memset(next, 0, sizeof next);
        for (int q = 0; q < 19; q++)
            for (int m = 0; m < 12; m++) {
                int r = dom_prune_next(d, q, m);
                if (r != (int)DOM_PRUNED)
                    next[r] += at[q];
            }
        memcpy(at, next, sizeof at);
        count[n] = 0;
        for (int q = 0; q < 19; q++)
            count[n] += at[q];
    }
}

/* Every state the automaton's sequences reach at depth n lies at distance
 * n or less, and every state at distance n is reached at depth n. */
static int reach(const dom *d, const ball *b, uint8_t *s, int q, int depth, uint8_t *hit)
{
    int bad = 0;
    int k = ball_depth(b, d, s);
    if (k < 0 || k > depth)
        return 1;
    if (k == depth) {
        size_t at;
        hit[ball_find(b, d, s, &at)] = 1;
    }
    if (depth == b->maxd)
        return 0;
    for (int m = 0; m < 12; m++) {
        int r = dom_prune_next(d, q, m);
        if (r == (int)DOM_PRUNED)
            continue;
        dom_apply(d, s, m);
        bad += reach(d, b, s, r, depth + 1, hit);
        dom_apply(d, s, dom_inverse(d, m));
    }
    return bad;
}

/* A small pattern database through the core (built into a scratch cache
 * folder, then loaded back): every entry reached, never above the true
 * distance, consistent (a move changes it by at most 1), and a max over
 * it and the domain's own heuristic. */
static void check_core_pdb(const dom *d, const ball *b)
{
    char dir[] = "test_dom_cube3_XXXXXX", file[64];
    CHECK(mkdtemp(dir) != NULL);
    setenv("HEURNET_DATA", dir, 1);
    int st;
    dom_heur *h = dom_heur_open(d, "pdb:edges4", &st);
    dom_heur *again = dom_heur_open(d, "pdb:edges4", &st); /* from the cache file */
    dom_heur *max = dom_heur_open(d, "max:pdb:edges4,manhattan", &st);
    CHECK_MSG(h && again && max, "%s", hn_errmsg());
    uint64_t n = 0, n2 = 0;
    const uint8_t *t = h ? dom_heur_pdb_table(h, &n) : NULL;
    const uint8_t *t2 = again ? dom_heur_pdb_table(again, &n2) : NULL;
    CHECK(t && t2 && n == 190080 && n2 == n && !memcmp(t, t2, n));
    for (uint64_t r = 0; t && r < n; r++)
        CHECK(t[r] != 255);
    size_t over = 0, jump = 0;
    for (size_t k = 0; h && max && k < b->n; k++) {
        const uint8_t *s = b->state + k * SB;
        int v = dom_heur_eval(h, s), w = dom_heur_eval(max, s);
        over += v > b->depth[k] || w > b->depth[k] || w < v;
        for (int m = 0; m < 12; m++) {
            uint8_t c[SB];
            memcpy(c, s, SB);
            dom_apply(d, c, m);
            int u = dom_heur_eval(h, c);
            jump += u > v + 1 || u < v - 1;
        }
    }
    CHECK(over == 0 && jump == 0);
    /* the batched lookup gives each state's own value (a table and a max;
     * a count that is no multiple of the chunk) */
    size_t n_many = b->n - 3, differ = 0;
    int *many = malloc(n_many * sizeof *many);
    for (int k = 0; many && h && max && k < 2; k++) {
        dom_heur *which = k ? max : h;
        dom_heur_eval_many(which, b->state, n_many, SB, many);
        for (size_t i = 0; i < n_many; i++)
            differ += many[i] != dom_heur_eval(which, b->state + i * SB);
    }
    CHECK_MSG(many && differ == 0, "%zu batched values differ", differ);
    free(many);
    dom_heur_free(h);
    dom_heur_free(again);
    dom_heur_free(max);
    snprintf(file, sizeof file, "%s/dom-cube3-edges4.pdb", dir);
    CHECK(unlink(file) == 0 && rmdir(dir) == 0);
}

static void check_automaton_and_heuristic(const dom *d)
{
    static const uint64_t qtm[6] = {1, 12, 114, 1068, 10011, 93840}; /* OEIS A080602 */
    uint64_t count[6];
    automaton_counts(d, 5, count);
    for (int n = 0; n <= 4; n++)
        CHECK_MSG(count[n] == qtm[n], "depth %d: %llu sequences", n, (unsigned long long)count[n]);
    CHECK(count[5] >= qtm[5]);
    fprintf(stderr, "automaton: %llu sequences of length 5 for %llu cubes\n",
            (unsigned long long)count[5], (unsigned long long)qtm[5]);
    ball b;
    uint8_t g[SB];
    dom_goal(d, g);
    CHECK(ball_build(&b, d, g, 5, 120000) == 0);
    for (int n = 0; n <= 5; n++)
        CHECK(b.level[n + 1] - b.level[n] == qtm[n]);
    uint8_t *hit = calloc(b.n, 1);
    CHECK(reach(d, &b, g, DOM_PRUNE_ROOT, 0, hit) == 0);
    size_t missed = 0;
    for (size_t k = 0; k < b.n; k++)
        missed += !hit[k];
    CHECK_MSG(missed == 0, "%zu cubes the automaton never reaches at their distance", missed);
    check_core_pdb(d, &b);
    int st;
    dom_heur *h = dom_heur_open(d, "manhattan", &st);
    CHECK(h != NULL);
    size_t over = 0;
    for (size_t k = 0; h && k < b.n; k++)
        over += dom_heur_eval(h, b.state + k * SB) > b.depth[k];
    CHECK(over == 0);
    CHECK(h && dom_heur_eval(h, g) == 0 && dom_heur_eval(h, b.state + SB) == 1);
    dom_heur_free(h);
    /* "parity" is the distance's parity (avi --parity relies on it) */
    dom_heur *p = dom_heur_open(d, "parity", &st);
    CHECK(p != NULL);
    size_t wrong = 0;
    for (size_t k = 0; p && k < b.n; k++)
        wrong += dom_heur_eval(p, b.state + k * SB) != (b.depth[k] & 1);
    CHECK_MSG(wrong == 0, "%zu cubes whose parity is not their distance's", wrong);
    dom_heur_free(p);
    free(hit);
    ball_free(&b);
}

/* rank(unrank(r)) == r; a rank determines the rank after any move. */
static void check_patterns(const dom *d, hn_rng *rng)
{
    const dom_def *def = dom_def_of(d);
    const char *names[6] = {"corners", "edges6a", "edges6b", "edges7a", "edges7b", "edges4"};
    const uint64_t entries[6] = {88179840, 42577920, 42577920, 510935040, 510935040, 190080};
    for (int p = 0; p < 6; p++) {
        dom_pattern pat;
        CHECK(def->pattern_open(dom_instance(d), names[p], &pat) == 0);
        CHECK(pat.entries == entries[p]);
        uint8_t s[SB], u[SB], a[SB], b[SB];
        for (int trial = 0; trial < 2000; trial++) {
            uint64_t r = hn_rng_u64(rng) % pat.entries;
            pat.unrank(pat.self, r, u);
            CHECK(pat.rank(pat.self, u) == r);
            random_cube(d, s, rng);
            r = pat.rank(pat.self, s);
            CHECK(r < pat.entries);
            pat.unrank(pat.self, r, u);
            int m = (int)hn_rng_below(rng, 12);
            memcpy(a, s, SB);
            memcpy(b, u, SB);
            dom_apply(d, a, m);
            dom_apply(d, b, m);
            CHECK(pat.rank(pat.self, a) == pat.rank(pat.self, b));
        }
        uint8_t g[SB];
        dom_goal(d, g);
        pat.unrank(pat.self, pat.rank(pat.self, g), u);
        CHECK(!memcmp(u, g, SB));
        pat.free(pat.self);
    }
    dom_pattern pat;
    CHECK(def->pattern_open(dom_instance(d), "edges5", &pat) == HN_ERR_ARG);
}

/* The symmetric map (the inverse cube) is the cube the inverted walk
 * reaches, an involution, and a network averaged over it (sym:2) values a
 * cube and its inverse alike, as the mean of the two plain values. */
static void check_symmetric(const dom *d, hn_rng *rng)
{
    CHECK(dom_symmetries(d) == 40);
    uint8_t s[SB], t[SB], u[SB], w[SB], back[40];
    int bad = 0;
    for (int i = 0; i < 200; i++) {
        int n = 1 + (int)hn_rng_below(rng, 40);
        tdom_walk_solution(d, rng, n, s, back);
        dom_goal(d, t); /* the inverse cube: the undoing moves from the goal */
        for (int k = 0; k < n; k++)
            dom_apply(d, t, back[k]);
        dom_symmetric(d, s, 1, u);
        dom_symmetric(d, u, 1, w);
        bad += memcmp(u, t, SB) != 0 || memcmp(w, s, SB) != 0;
    }
    CHECK_MSG(bad == 0, "inverse cube: %d of 200 walks wrong", bad);
    nn_model *m = tdom_random_model("480-16-1", 5, 10, 3, NULL);
    nn_model_set_encoder(m, dom_facts_of(d)->encoding); /* a model reads its domain's encoding */
    srch_dom_net_opts o = SRCH_DOM_NET_DEFAULTS;
    int st;
    srch_dom_heur *h1 = m ? srch_dom_heur_net(d, m, "r", &o, &st) : NULL;
    o.symmetries = 2;
    srch_dom_heur *h2 = m ? srch_dom_heur_net(d, m, "r", &o, &st) : NULL;
    o.symmetries = 41;
    CHECK(m && !srch_dom_heur_net(d, m, "r", &o, &st) && st == HN_ERR_ARG);
    CHECK(h1 && h2);
    for (int i = 0; h1 && h2 && i < 50; i++) {
        uint8_t pair[2 * SB];
        random_cube(d, pair, rng);
        dom_symmetric(d, pair, 1, pair + SB);
        double e1[2], e2[2];
        CHECK(srch_dom_heur_estimate(h1, pair, 2, NULL, NULL, NULL, e1) == 0);
        CHECK(srch_dom_heur_estimate(h2, pair, 2, NULL, NULL, NULL, e2) == 0);
        /* the mean is kept in single precision, as the network's outputs */
        CHECK_MSG(fabs(e2[0] - e2[1]) < 1e-9 && e2[0] == (float)((e1[0] + e1[1]) / 2),
                  "sym:2: %g and %g, plain %g and %g", e2[0], e2[1], e1[0], e1[1]);
    }
    srch_dom_heur_free(h1);
    srch_dom_heur_free(h2);
    nn_model_free(m);
}

/* The whole-cube maps: one turn of the solved cube becomes the turn the
 * symmetry names (the L-R mirror: R -> L', the half turn about U-D: R -> L),
 * every map undoes itself, keeps the goal and, for a cube 20 turns deep,
 * gives 40 different cubes (no two symmetries built alike). */
static void check_conjugates(const dom *d, hn_rng *rng)
{
    static const struct {
        int k, move, want;
    } turn[] = {{2, 2, 9}, {2, 0, 1}, {4, 2, 8}, {4, 4, 10}, {6, 4, 11}, {8, 0, 6}};
    uint8_t g[SB], s[SB], u[SB], w[SB], all[40][SB], back[40];
    for (size_t i = 0; i < sizeof turn / sizeof turn[0]; i++) {
        dom_goal(d, s);
        dom_apply(d, s, turn[i].move);
        dom_goal(d, w);
        dom_apply(d, w, turn[i].want);
        dom_symmetric(d, s, turn[i].k, u);
        CHECK_MSG(!memcmp(u, w, SB), "map %d of move %d is not move %d", turn[i].k, turn[i].move,
                  turn[i].want);
    }
    dom_goal(d, g);
    int bad = 0, same = 0;
    for (int k = 0; k < 40; k++) {
        dom_symmetric(d, g, k, u);
        bad += memcmp(u, g, SB) != 0;
    }
    tdom_walk_solution(d, rng, 20, s, back);
    for (int k = 0; k < 40; k++) {
        dom_symmetric(d, s, k, all[k]);
        dom_symmetric(d, all[k], k, w);
        bad += memcmp(w, s, SB) != 0;
        for (int j = 0; j < k; j++)
            same += !memcmp(all[j], all[k], SB);
    }
    CHECK_MSG(bad == 0 && same == 0, "%d maps wrong, %d pairs alike", bad, same);
}

int main(void)
{
    int st;
    dom *d = dom_open("cube3", &st);
    CHECK_MSG(d != NULL, "%s", hn_errmsg());
    if (!d)
        return CHECK_DONE();
    CHECK(dom_open("cube3:2", &st) == NULL && st == HN_ERR_ARG);
    hn_rng *rng = hn_rng_new(46);
    check_known_cubes(d);
    check_moves(d, rng);
    check_encoding(d, rng);
    check_random_and_text(d, rng);
    check_test_file(d);
    check_impossible(d);
    check_automaton_and_heuristic(d);
    check_patterns(d, rng);
    check_symmetric(d, rng);
    check_conjugates(d, rng);
    hn_rng_free(rng);
    dom_free(d);
    return CHECK_DONE();
}
