/* n-puzzle solutions: an instance line, a newline, then a move string
 * (the moves= field of heurnet solve), applied to the board. */
#include "fuzz_util.h"
#include "search/srch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int width = 3 + data[0] % 3, goal = (data[0] / 3) & 1;
    char *s = fuzz_string(data + 1, size - 1);
    char *nl = strchr(s, '\n');
    if (nl) {
        *nl = 0;
        srch_np_instance in;
        if (srch_np_parse_line(s, width, goal, &in) == 1) {
            srch_np_board b = in.board;
            if (srch_np_board_apply(&b, nl + 1) == 0 && !srch_np_board_solvable(&b, goal))
                abort(); /* legal moves keep a board solvable */
        }
    }
    free(s);
    return 0;
}
