/* e2pieces hint lines: a fixed 4x4 instance in e2pieces form followed by
 * the input (a hint count and `piece row col rotation` lines, or anything). */
#include "fuzz_util.h"
#include "search/emp/emp.h"

static char pieces[4096];
static size_t npieces;

/* The pieces of a generated 4x4 instance as e2pieces lines (N E S W). */
static void make_pieces(void)
{
    int st;
    srch_em_inst *in = srch_em_inst_gen(4, 4, 2, 3, 7, NULL, &st);
    if (!in)
        abort();
    size_t len = (size_t)snprintf(pieces, sizeof pieces, "4 4\n");
    for (int p = 0; p < 16; p++)
        len += (size_t)snprintf(pieces + len, sizeof pieces - len, "%d %d %d %d\n",
                                srch_em_colour(in, p, 0, 0), srch_em_colour(in, p, 0, 1),
                                srch_em_colour(in, p, 0, 2), srch_em_colour(in, p, 0, 3));
    npieces = len;
    srch_em_inst_free(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!npieces)
        make_pieces();
    uint8_t *buf = malloc(npieces + size + 1);
    if (!buf)
        abort();
    memcpy(buf, pieces, npieces);
    if (size)
        memcpy(buf + npieces, data, size);
    const char *path = fuzz_scratch(".txt");
    fuzz_write(path, buf, npieces + size);
    free(buf);
    int st;
    srch_em_inst *in = srch_em_inst_read(path, SRCH_EM_FORMAT_E2, &st);
    if (in) {
        for (int k = 0; k < srch_em_inst_nclues(in); k++) {
            int piece, cell, rot;
            srch_em_inst_clue(in, k, &piece, &cell, &rot);
            if (piece < 0 || piece >= 16 || cell < 0 || cell >= 16 || rot < 0 || rot > 3)
                abort(); /* a clue outside the board was accepted */
        }
        srch_em_inst_free(in);
    }
    return 0;
}
