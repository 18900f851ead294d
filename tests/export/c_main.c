/* Test driver for a C export named hmodel: reads raw float32 rows from
 * stdin, prints hmodel_eval_all's outputs per row, and checks hmodel_eval
 * returns output 0. Built with nothing but cc -std=c11 -O2. */
#include <stdio.h>

#include "hmodel.h"

int main(void)
{
    float x[HMODEL_INPUTS], y[HMODEL_OUTPUTS];
    while (fread(x, sizeof x, 1, stdin) == 1) {
        hmodel_eval_all(x, y);
        if (hmodel_eval(x) != y[0]) {
            fprintf(stderr, "hmodel_eval differs from hmodel_eval_all\n");
            return 1;
        }
        for (int j = 0; j < HMODEL_OUTPUTS; j++)
            printf("%.9g%c", (double)y[j], j + 1 < HMODEL_OUTPUTS ? '\t' : '\n');
    }
    return 0;
}
