/* The cube's text parsers: the first byte picks what the rest is read as
 * (a state line, an instance line `[id [length]] STATE`, or a move
 * sequence). Whatever is accepted must format back to text that parses to
 * the same cube or the same moves; whatever is refused must say why. */
#include "domains/dom.h"
#include "fuzz_util.h"

static dom *cube(void)
{
    static dom *d;
    if (!d && !(d = dom_open("cube3", NULL)))
        abort();
    return d;
}

static void state_round_trip(const dom *d, const uint8_t *s)
{
    char text[64];
    uint8_t back[DOM_MAX_STATE_BYTES];
    if (dom_format_state(d, s, text, sizeof text) != 54 || dom_parse_state(d, text, back) != 0 ||
        memcmp(back, s, dom_state_bytes(d)))
        abort();
}

static void moves_round_trip(const dom *d, const char *line)
{
    static uint8_t moves[4096], back[4096];
    static char text[4096 * 3];
    int n = dom_parse_moves(d, line, moves, 4096);
    if (n < 0) {
        if (!hn_errmsg()[0])
            abort();
        return;
    }
    dom_format_moves(d, moves, n, text, sizeof text);
    if (dom_parse_moves(d, text, back, 4096) != n || memcmp(back, moves, (size_t)n))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 16000)
        return 0;
    const dom *d = cube();
    char *line = malloc(size);
    if (!line)
        return 0;
    memcpy(line, data + 1, size - 1);
    line[size - 1] = '\0';
    uint8_t s[DOM_MAX_STATE_BYTES];
    dom_instance_rec rec;
    int st;
    switch (data[0] % 3) {
    case 0:
        st = dom_parse_state(d, line, s);
        if (st == 0)
            state_round_trip(d, s);
        else if (!hn_errmsg()[0] ||
                 (st != HN_ERR_FORMAT && st != HN_ERR_UNSOLVABLE && st != HN_ERR_ARG))
            abort();
        break;
    case 1:
        if (dom_parse_instance(d, line, &rec) == 1)
            state_round_trip(d, rec.state);
        break;
    default:
        moves_round_trip(d, line);
    }
    free(line);
    return 0;
}
