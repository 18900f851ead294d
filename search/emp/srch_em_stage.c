/* Board features for a learned value of restart points (after Boyan &
 * Moore's STAGE): a linear value of these picks, among a few kicked copies
 * of the best board, the one a new descent of the local search starts from.
 * Cheap (one pass over the joins), as it runs once per candidate. */
#include <math.h>
#include <string.h>

#include "search/emp/srch_em_int.h"

const char *const SRCH_EM_STAGE_NAMES[SRCH_EM_STAGE_DIM] = {
    "score",     "mm1_cells", "mm2_cells", "frame_breaks",
    "clustered", "isolated",  "distance",  "rare_unmatched"};

/* Broken joins of each cell (with in-board neighbours), into mm[]; returns
 * the broken joins between two frame cells. */
static int broken_joins(const srch_em_board *b, int *mm)
{
    const srch_em_inst *in = b->inst;
    int frame = 0;
    memset(mm, 0, sizeof *mm * (size_t)in->n);
    for (int c = 0; c < in->n; c++)
        for (int k = 1; k <= 2; k++) { /* east and south: each join once */
            int q = in->nb[(size_t)c * 4 + k];
            if (q == in->n)
                continue;
            uint8_t a = srch_em_pc(in, b->piece[c], b->rot[c])[k];
            uint8_t o = srch_em_pc(in, b->piece[q], b->rot[q])[(k + 2) & 3];
            if (a == o && a != 0)
                continue;
            mm[c]++, mm[q]++;
            frame += in->cclass[c] != SRCH_EM_INNER && in->cclass[q] != SRCH_EM_INNER;
        }
    return frame;
}

void srch_em_stage_features(const srch_em_board *b, const srch_em_board *ref, int *scratch,
                            float *f)
{
    const srch_em_inst *in = b->inst;
    int n = in->n, joins = srch_em_inst_joins(in), frame = broken_joins(b, scratch);
    int unmatched[256] = {0}, sides[256] = {0}, mm1 = 0, mm2 = 0, clustered = 0, isolated = 0;
    int moved = 0;
    for (int c = 0; c < n; c++) {
        const uint8_t *col = srch_em_pc(in, b->piece[c], b->rot[c]);
        const int *nb = in->nb + (size_t)c * 4;
        mm1 += scratch[c] == 1, mm2 += scratch[c] >= 2;
        moved += b->piece[c] != ref->piece[c] || b->rot[c] != ref->rot[c];
        for (int k = 0; k < 4; k++) {
            sides[col[k]]++;
            int q = nb[k];
            if (q == n || col[k] == srch_em_pc(in, b->piece[q], b->rot[q])[(k + 2) & 3])
                continue;
            unmatched[col[k]]++;
            clustered += scratch[c] >= 2 && scratch[q] >= 2; /* each join seen twice */
            isolated += scratch[c] == 1 && scratch[q] == 1;
        }
    }
    int total = 0;
    double rare = 0, lnn = log(4.0 * n);
    for (int c = 1; c < in->ncol; c++) {
        total += unmatched[c];
        if (unmatched[c])
            rare += unmatched[c] * log(4.0 * n / (sides[c] ? sides[c] : 1)) / lnn;
    }
    f[0] = (float)b->score / (float)joins;
    f[1] = (float)mm1 / (float)n;
    f[2] = (float)mm2 / (float)n;
    f[3] = (float)frame / (float)joins;
    f[4] = (float)clustered / 2.0f / (float)joins;
    f[5] = (float)isolated / 2.0f / (float)joins;
    f[6] = (float)moved / (float)n;
    f[7] = total ? (float)(rare / total) : 0.0f;
}

double srch_em_stage_value(const float *w, const float *f)
{
    double v = w[0];
    for (int k = 0; k < SRCH_EM_STAGE_DIM; k++)
        v += (double)w[k + 1] * f[k];
    return v;
}
