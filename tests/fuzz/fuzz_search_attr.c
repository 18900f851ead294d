/* A square n-puzzle model's recorded search in the old n-puzzle words (its
 * `search` attribute without the search_words mark), translated on read by
 * solve/dom_record_np.c: any string is refused or translated, the same way
 * twice; a translation is a string that fits, and the words it gives are
 * checked on the 8-puzzle as any record is (refused or accepted, nothing
 * it names crashes, leaks or hangs). */
#include <string.h>

#include "fuzz_dom.h"
#include "solve/dom_search.h"

static dom *D;
static char MODEL[300];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!D)
        fuzz_dom_tiny_model(&D, MODEL);
    char *s = fuzz_string(data, size), a[4096], b[4096];
    memset(a, 1, sizeof a);
    int ra = heurnet_dom_record_np_translate(3, s, a, sizeof a);
    int rb = heurnet_dom_record_np_translate(3, s, b, sizeof b);
    if (ra != rb || (!ra && (!memchr(a, 0, sizeof a) || strcmp(a, b))))
        abort(); /* a translation that depends on the last one, or no string */
    if (!ra)
        (void)heurnet_dom_record_check(D, MODEL, a);
    hn_error_clear();
    free(s);
    return 0;
}
