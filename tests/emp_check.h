/* Test helpers shared by the edge-matching tests. */
#ifndef HN_TEST_EMP_CHECK_H
#define HN_TEST_EMP_CHECK_H

#include "search/emp/emp.h"

/* 1 if a clue fixes the piece of `cell`. */
static inline int emp_is_clue(const srch_em_inst *in, int cell)
{
    for (int k = 0; k < srch_em_inst_nclues(in); k++) {
        int p, c, r;
        srch_em_inst_clue(in, k, &p, &c, &r);
        if (c == cell)
            return 1;
    }
    return 0;
}

#endif
