/* The generic state parser over the npuzzle domain: the first byte picks
 * the board (W and H 2..8) and the goal layout, the rest is an instance
 * file read by dom_read_instances. Every accepted board must be canonical
 * (a permutation with the blank's cell in the last byte) and format back to
 * a line that parses to the same bytes. */
#include "domains/dom.h"
#include "fuzz_util.h"

static dom *open_board(uint8_t pick)
{
    static dom *cache[98];
    int i = pick % 98;
    if (!cache[i]) {
        char spec[64];
        snprintf(spec, sizeof spec, "npuzzle:%dx%d%s", 2 + i % 7, 2 + i / 7 % 7,
                 i / 49 ? ":blank-last" : "");
        cache[i] = dom_open(spec, NULL);
        if (!cache[i])
            abort();
    }
    return cache[i];
}

static void check_board(const dom *d, const uint8_t *s)
{
    int n = (int)dom_state_bytes(d) - 1;
    uint64_t seen = 0;
    for (int c = 0; c < n; c++) {
        if (s[c] >= n || (seen >> s[c] & 1))
            abort();
        seen |= 1ull << s[c];
    }
    if (s[s[n]] != 0)
        abort();
    char line[512];
    uint8_t back[DOM_MAX_STATE_BYTES];
    if (dom_format_state(d, s, line, sizeof line) >= (int)sizeof line ||
        dom_parse_state(d, line, back) != 0 || memcmp(back, s, (size_t)n + 1))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const dom *d = open_board(data[0]);
    const char *path = fuzz_scratch(".txt");
    fuzz_write(path, data + 1, size - 1);
    dom_instance_rec *rec = NULL;
    size_t n = 0;
    if (dom_read_instances(d, path, NULL, NULL, &rec, &n) == 0)
        for (size_t i = 0; i < n; i++)
            check_board(d, rec[i].state);
    free(rec);
    /* the same bytes as one state line */
    char *text = fuzz_string(data + 1, size - 1);
    uint8_t s[DOM_MAX_STATE_BYTES];
    if (dom_parse_state(d, text, s) == 0)
        check_board(d, s);
    free(text);
    return 0;
}
