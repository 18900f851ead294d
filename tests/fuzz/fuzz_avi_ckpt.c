/* Value-iteration checkpoints (train/avi_ckpt.c), read as a bootstrap run
 * of the 8-puzzle resumes them (seed: corpus/avi_ckpt/boot.h5, one round of
 * `heurnet avi --method bootstrap` of an earlier version, whose buffer rows
 * are tiles only, so the conversion to states is fuzzed too). First byte:
 * raw bytes or edits of the seed (fz_raw_or_edit). An accepted
 * checkpoint's buffer holds states of npuzzle:3x3. */
#include "fuzz_h5edit.h"
#include "train/avi_private.h"

FZ_SEED_INIT("avi_ckpt/boot.h5", (void)0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_scratch(".h5");
    if (fz_raw_or_edit(path, data, size) != 0)
        return 0;
    static dom *d;
    int st = 0;
    if (!d && !(d = dom_open("npuzzle:3x3", &st)))
        abort();
    struct trn_avi_opts o;
    trn_avi_opts_default(&o);
    o.dom = d;
    o.method = TRN_AVI_BOOT;
    o.batch = 16; /* as the seed's run */
    o.buffer_max = 4096;
    struct avi_state s = {0};
    size_t sb = dom_state_bytes(d); /* 9 cells and the blank's */
    s.buf_b = malloc(sb * o.buffer_max);
    s.buf_y = malloc(sizeof(float) * o.buffer_max);
    if (!s.buf_b || !s.buf_y)
        abort();
    if (trn_avi_ckpt_load(path, &o, &s) == 0)
        for (uint64_t r = 0; r < s.buf_n * sb; r++)
            if (s.buf_b[r] > 8)
                abort();
    nn_model_free(s.m);
    nn_model_free(s.target);
    nn_adam_free(s.a);
    free(s.buf_b);
    free(s.buf_y);
    return 0;
}
