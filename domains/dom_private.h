/* domains/ internals: the open-domain object and the pieces its files share. */
#ifndef DOM_PRIVATE_H
#define DOM_PRIVATE_H

#include "domains/dom.h"

struct dom {
    const dom_def *def;
    void *inst;
    void *handle; /* dlopen handle of a plug-in, else NULL */
    dom_facts facts;
    uint8_t *goal;
    char *spec;
    int unit;
    int reversible; /* every move has an inverse */
    /* def->between when the definition has that entry (read once at open:
     * an older plug-in's struct ends before it), else NULL */
    int (*between)(const void *inst, const void *a, const void *b);
    /* def->symmetric when the definition has that entry, else NULL */
    void (*symmetric)(const void *inst, const void *state, uint32_t k, void *out);
    /* def->relative when the definition has that entry, else NULL */
    void (*relative)(const void *inst, const void *a, const void *b, void *out);
    /* def->symmetric_path when the definition has that entry, else NULL */
    void (*symmetric_path)(const void *inst, uint32_t k, uint8_t *moves, int n);
    /* def->heur_delta when the definition has that entry, else NULL */
    int (*heur_delta)(const void *heur, const void *state, int move, int h);
    /* def->encode_as when the definition has that entry, else NULL */
    int (*encode_as)(const void *inst, const char *encoding, int32_t *map);
    /* def->between_open when the definition has that entry, else NULL */
    void *(*between_open)(const void *inst, const void *b);
    uint64_t allowed[256]; /* moves allowed per automaton state */
};

/* The domain's own heur_delta answer for h (dom_heur_has_delta must hold),
 * without dom_heur_delta's cap and fallback: for `domain check`. */
int dom_heur_delta_own(const dom_heur *h, const void *state, int m, int hv);

/* The host table given to every domain's create. */
const dom_host *dom_host_table(void);
/* How often host->fail was called on this thread: equal marks before and
 * after a domain's call that failed mean it gave no reason. */
unsigned long dom_host_fail_mark(void);
/* 1 when nothing gave a reason since hn_error_clear() and the mark. */
int dom_no_reason_since(unsigned long mark);

#endif
