/* n-puzzle instance files: the first byte picks the board width and the goal
 * layout, the rest is the file. Every accepted board must be a solvable
 * permutation that formats back to a line the line parser accepts. */
#include "fuzz_util.h"
#include "search/srch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int width = 3 + data[0] % 3, goal = (data[0] / 3) & 1;
    const char *path = fuzz_scratch(".txt");
    fuzz_write(path, data + 1, size - 1);
    srch_np_instance *in = NULL;
    size_t n = 0;
    if (srch_np_parse_file(path, width, goal, NULL, NULL, &in, &n) == 0) {
        for (size_t i = 0; i < n; i++) {
            char line[256];
            srch_np_instance back;
            srch_np_board_format(&in[i].board, line, sizeof line);
            if (srch_np_parse_line(line, width, goal, &back) != 1 ||
                srch_np_board_rank(&back.board) != srch_np_board_rank(&in[i].board))
                abort();
        }
    }
    free(in);
    return 0;
}
