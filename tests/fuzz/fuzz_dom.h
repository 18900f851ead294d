/* Shared by the domain harnesses that need a network: the 8-puzzle and a
 * tiny untrained 81-8-1 model saved next to the scratch file. */
#ifndef HN_FUZZ_DOM_H
#define HN_FUZZ_DOM_H

#include "fuzz_util.h"
#include "nn/nn.h"
#include "search/generic/srch_dom.h"

/* The 8-puzzle into *d and the model's path into model[300]; aborts when
 * either cannot be made (the harness cannot run then). */
static inline void fuzz_dom_tiny_model(dom **d, char model[300])
{
    int st;
    *d = dom_open("npuzzle:3x3", &st);
    struct nn_spec sp;
    nn_model *m = *d && !nn_spec_parse("81-8-1", NULL, &sp) ? nn_model_new(&sp, 3, &st) : NULL;
    snprintf(model, 300, "%s.h5", fuzz_scratch(""));
    if (!m || nn_model_save(m, model))
        abort();
    nn_model_free(m);
}

#endif
