/* One-hot rows as their active inputs, for nn_train_forward_sparse. The
 * indices come ascending and once each: then the sparse first layer adds
 * the kernel rows in the order (and number) the dense path's row-wise sum
 * did, and training gives the same weights bit for bit. */
#include "train/trn_private.h"

int trn_active_tiles(const uint8_t *tiles, int cells, int32_t *act)
{
    int where[256]; /* cell of each tile (tiles are bytes) */
    for (int p = 0; p < cells; p++)
        where[tiles[p]] = p;
    for (int t = 0; t < cells; t++) /* tile t on cell p: input t * cells + p */
        act[t] = t * cells + where[t];
    return cells;
}

int trn_active_state(const dom *d, const void *state, int32_t *act, uint64_t *bits)
{
    /* a bitmap sorts a few dozen inputs in linear time; an insertion sort
     * of a 7x7 board's 49 cost as much as the sparse layer saved */
    int n = dom_encode(d, state, act), k = 0, lo = INT32_MAX, hi = -1;
    for (int i = 0; i < n; i++) {
        bits[act[i] >> 6] |= (uint64_t)1 << (act[i] & 63);
        lo = act[i] < lo ? act[i] : lo;
        hi = act[i] > hi ? act[i] : hi;
    }
    for (int w = lo >> 6; w <= hi >> 6; w++)
        for (; bits[w]; bits[w] &= bits[w] - 1)
            act[k++] = w * 64 + __builtin_ctzll(bits[w]);
    return k;
}
