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
    uint64_t allowed[256]; /* moves allowed per automaton state */
};

/* The host table given to every domain's create. */
const dom_host *dom_host_table(void);

#endif
