/* A time-limited beam search holds a solution early (issue 63, defect 12:
 * the cube's recorded beam returned nothing when its first, wide beam could
 * not finish). With a time limit a narrow beam runs first and bounds the
 * configured one; a limit that cuts the configured beam leaves the narrow
 * beam's path, replayed, with res->limited. Without a time limit the
 * search is what it was. On the 15-puzzle under Manhattan distance, whose
 * beams are cheap and deterministic; the limit that cuts the wide beam is a
 * node limit (each run's own expansions), so the cut does not depend on
 * the machine's speed, and once more a real clock with a wide margin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "search/generic/srch_dom.h"

#define NARROW 64
#define WIDE 4096

static int valid(const dom *d, const uint8_t *start, const srch_dom_result *res)
{
    return res->status == 0 && res->length > 0 &&
           dom_replay(d, start, res->moves, res->length) == 1;
}

/* One beam of `width` with no limits: its length and expansions. */
static void alone(const dom *d, const uint8_t *s, srch_dom_heur *h, int width, srch_dom_result *res)
{
    srch_dom_opts o = SRCH_DOM_DEFAULTS;
    o.width = width;
    CHECK(srch_dom_beam(d, s, h, &o, NULL, res) == 0 && valid(d, s, res));
    CHECK(res->limited == 0 && res->first_seconds >= 0);
}

/* The wide beam cut by a node limit between the narrow beam's expansions
 * and its own: the narrow beam's path stands (before the fix: no path,
 * HN_ERR_LIMIT). Without a time limit no narrow beam runs and the cut
 * beam still has no path, as before. */
static void test_cut(const dom *d, const uint8_t *s, srch_dom_heur *h, srch_dom_result *res)
{
    alone(d, s, h, NARROW, res);
    int nlen = res->length;
    uint64_t nexp = res->expanded;
    alone(d, s, h, WIDE, res);
    uint64_t wexp = res->expanded;
    CHECK_MSG(2 * nexp < wexp, "narrow %llu, wide %llu expansions", (unsigned long long)nexp,
              (unsigned long long)wexp);

    srch_dom_opts o = SRCH_DOM_DEFAULTS;
    o.width = WIDE;
    o.first_width = NARROW;
    srch_limits cut = {.max_expanded = (nexp + wexp) / 2, .time_limit = 1000};
    int st = srch_dom_beam(d, s, h, &o, &cut, res);
    CHECK_MSG(st == 0 && valid(d, s, res), "cut: status %d length %d", st, res->length);
    CHECK_MSG(res->length == nlen, "cut: %d moves, the narrow beam's %d", res->length, nlen);
    CHECK(res->limited == 1 && res->improvements >= 1 && !res->proven);
    CHECK(res->first_seconds >= 0 && res->first_seconds <= res->seconds);
    /* the narrow beam's work is counted (a run stops between depths) */
    CHECK(res->expanded >= nexp + cut.max_expanded && res->expanded < nexp + wexp);

    /* a narrow beam cut as well: no path, said as a limit */
    srch_limits tiny = {.max_expanded = 5, .time_limit = 1000};
    CHECK(srch_dom_beam(d, s, h, &o, &tiny, res) == HN_ERR_LIMIT && res->length == -1);
    CHECK(res->limited == 1 && res->first_seconds < 0);

    /* no time limit: the configured beam alone, cut as before */
    srch_limits nodes = {.max_expanded = cut.max_expanded};
    CHECK(srch_dom_beam(d, s, h, &o, &nodes, res) == HN_ERR_LIMIT && res->length == -1);
    CHECK(res->expanded >= cut.max_expanded && res->expanded < wexp && res->limited == 1);
}

/* A time limit that cuts nothing: the shorter of the narrow and the wide
 * beam's paths, the wide one bounded by the narrow one's length (so it
 * never expands more than alone); without a time limit, or with the
 * narrow beam off, exactly the wide beam alone. */
static void test_uncut(const dom *d, const uint8_t *s, srch_dom_heur *h, srch_dom_result *res)
{
    alone(d, s, h, NARROW, res);
    int nlen = res->length;
    uint64_t nexp = res->expanded;
    alone(d, s, h, WIDE, res);
    int wlen = res->length;
    uint64_t wexp = res->expanded;

    srch_dom_opts o = SRCH_DOM_DEFAULTS;
    o.width = WIDE;
    o.first_width = NARROW;
    srch_limits slow = {.time_limit = 1000};
    CHECK(srch_dom_beam(d, s, h, &o, &slow, res) == 0 && valid(d, s, res));
    int best = nlen < wlen ? nlen : wlen;
    CHECK_MSG(res->length == best, "%d moves, narrow %d, wide %d", res->length, nlen, wlen);
    CHECK(res->expanded > nexp && res->expanded <= nexp + wexp && !res->limited);
    CHECK(res->first_seconds >= 0 && res->first_seconds <= res->seconds);

    CHECK(srch_dom_beam(d, s, h, &o, NULL, res) == 0 && valid(d, s, res));
    CHECK(res->length == wlen && res->expanded == wexp);
    o.first_width = -1;
    CHECK(srch_dom_beam(d, s, h, &o, &slow, res) == 0 && valid(d, s, res));
    CHECK(res->length == wlen && res->expanded == wexp);
    /* the default narrow width is a sixteenth of the width */
    o.first_width = 0;
    CHECK(srch_dom_beam(d, s, h, &o, &slow, res) == 0 && valid(d, s, res));
    CHECK(res->length <= wlen && res->improvements >= 1);
}

/* The clock itself: a beam far too wide for a quarter of a second still
 * answers with a path (the configured run narrowed to the time the narrow
 * beam's rate says is left), as do two variants (the start and its mirror
 * image) sharing the time. */
static void test_clock(const dom *d, const uint8_t *s, srch_dom_heur *h, srch_dom_result *res)
{
    srch_dom_opts o = SRCH_DOM_DEFAULTS;
    o.width = 400000;
    o.first_width = NARROW;
    srch_limits quick = {.time_limit = 0.25};
    int st = srch_dom_beam(d, s, h, &o, &quick, res);
    CHECK_MSG(st == 0 && valid(d, s, res), "clock: status %d (%s)", st, st ? hn_errmsg() : "");
    CHECK(res->limited == 1 && res->first_seconds >= 0 && res->first_seconds < 0.25);
    o.variants = 2;
    o.widen = 4;
    st = srch_dom_beam(d, s, h, &o, &quick, res);
    CHECK_MSG(st == 0 && valid(d, s, res), "variants: status %d (%s)", st, st ? hn_errmsg() : "");
    CHECK(res->limited == 1 && res->seconds < 1.0);
}

int main(void)
{
    int st;
    dom *d = dom_open("npuzzle:4x4", &st);
    srch_dom_heur *h = d ? srch_dom_heur_adm(d, "manhattan", &st) : NULL;
    srch_dom_result *res = malloc(sizeof *res);
    CHECK(d && h && res);
    if (!d || !h || !res)
        return CHECK_DONE();
    hn_rng *r = hn_rng_new(63);
    for (int i = 0; i < 3; i++) {
        uint8_t s[DOM_MAX_STATE_BYTES];
        CHECK(dom_random_state(d, s, r) == 0);
        test_cut(d, s, h, res);
        test_uncut(d, s, h, res);
        if (i == 0)
            test_clock(d, s, h, res);
    }
    hn_rng_free(r);
    free(res);
    srch_dom_heur_free(h);
    dom_free(d);
    return CHECK_DONE();
}
