/* Recorded search settings (a model's `search` attribute, parsed by
 * cli/search_opts.c when `solve --model` replays it): any string is refused
 * or parsed, and settings that parse and finish pass the library's own
 * checks, so no invalid schedule, shortcut or IDA* stage reaches a search. */
#include "cli/search_opts.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_string(data, size);
    cli_search_opts o = CLI_SEARCH_OPTS_INIT;
    if (cli_search_opts_parse("fuzz", s, "m.h5", &o) == 0 &&
        cli_search_opts_finish("fuzz", &o, HEURNET_ALGO_ANYTIME) == 0) {
        if (o.algo == HEURNET_ALGO_ANYTIME &&
            srch_np_anytime_check(o.deltas, o.ndeltas, o.weights, o.nweights))
            abort(); /* a schedule the search would refuse was accepted */
        if (o.ida_given && o.ida.on && srch_np_ida_bands_check(&o.ida))
            abort();
        if (o.shortcut.max_window && srch_np_shortcut_check(&o.shortcut))
            abort();
        if (!memchr(o.heuristic, 0, sizeof o.heuristic))
            abort(); /* the spec must stay a string */
    }
    free(s);
    return 0;
}
