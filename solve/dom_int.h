/* Inside the search over any domain (solve/dom_*.c): the opened search and
 * the steps of opening it, shared by the record checks. */
#ifndef HEURNET_SOLVE_DOM_INT_H
#define HEURNET_SOLVE_DOM_INT_H

#include "solve/dom_search.h"

struct heurnet_dom_search {
    heurnet_dom_opts o; /* as resolved; its strings may point into the buffers below */
    dom *d;
    int own_dom;
    srch_dom_heur *h, *adm; /* the search's and the admissible one (may be NULL) */
    srch_dom_heur *prove;   /* the proof stage's (NULL: none) */
    srch_dom_ball *ball;
    double ball_seconds;
    char heur_buf[4200], adm_buf[256];
    char rec_buf[4096]; /* the record's words, which the settings point into */
    char record[4096];  /* the record taken, "" for none */
};

/* A search over d with settings o and nothing opened (d borrowed). */
heurnet_dom_search *heurnet_dom_search_new(const dom *d, const heurnet_dom_opts *o, int *status);
/* The model's recorded search into s->o when it applies (0 or a status). */
int heurnet_dom_record_use(heurnet_dom_search *s);
/* The settings of words ("--algo focal --bound 1.2") into o, their text
 * kept in buf (the options point into it), but for the options whose bits
 * are in `skip`: any option when `all`, else a record's (no domain, model
 * or limits). 0 or HN_ERR_ARG. */
int heurnet_dom_words_apply(const char *words, heurnet_dom_opts *o, char *buf, size_t cap,
                            uint64_t skip, int all);
/* Defaults and the rules tying options to algorithms and the domain. */
int heurnet_dom_finish(heurnet_dom_search *s);
/* s->h and s->adm from the settings. */
int heurnet_dom_heuristics(heurnet_dom_search *s);
/* The proof stage (dom_prove.c): its rules, its heuristic opened into
 * s->prove (0 or a status), the first search's limits (its share of the
 * time), and the stage on res within the time left of lim from t0. */
int heurnet_dom_prove_finish(const heurnet_dom_search *s);
int heurnet_dom_prove_open(heurnet_dom_search *s);
srch_limits heurnet_dom_prove_share(const heurnet_dom_search *s, const srch_limits *lim);
/* 1 when the search found nothing in its share because the clock ran out:
 * it runs again in the time left of lim (*again), since a proof needs a
 * solution (a narrow beam of a loaded process may need more than a short
 * limit's share). */
int heurnet_dom_prove_again(const heurnet_dom_search *s, const srch_limits *lim, double t0,
                            const srch_dom_result *res, srch_limits *again);
void heurnet_dom_prove_run(const heurnet_dom_search *s, const void *start, const srch_limits *lim,
                           double t0, srch_dom_result *res);
/* IDA* windows bounded by an admissible heuristic of relative states. */
int heurnet_dom_relative_windows(const heurnet_dom_opts *o, const dom *d);

#endif
