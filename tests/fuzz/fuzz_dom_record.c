/* A domain model's recorded search (its `search` attribute, parsed by
 * solve/dom_record.c when solve or eval --model replays it): any string is
 * refused or accepted the same way twice in a row (no state carried from
 * one check to the next), and nothing it names crashes, leaks or hangs on
 * the 8-puzzle: its heuristics, blends, floor, ball, windows and the
 * network given as ann:SELF. */
#include "solve/dom_search.h"
#include "fuzz_dom.h"

static dom *D;
static char MODEL[300];

/* The 8-puzzle's tables build in the PDB cache, as fuzz_dom_heur's do. */
static void setup(void)
{
    fuzz_dom_tiny_model(&D, MODEL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!D)
        setup();
    char *s = fuzz_string(data, size);
    int a = heurnet_dom_record_check(D, MODEL, s);
    int b = heurnet_dom_record_check(D, MODEL, s);
    if (a != b)
        abort(); /* a check that depends on the last one */
    hn_error_clear();
    free(s);
    return 0;
}
