/* The row buffer of the edge-matching data generators (emp_h5.h). */
#include <stdlib.h>
#include <string.h>

#include "common/hn.h"
#include "datagen/emp_h5.h"

int dg_emp_rows_push(dg_emp_rows *r, const float *x, float y, int32_t group)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 4096;
        float *nx = realloc(r->x, sizeof *nx * cap * (size_t)r->dim);
        if (nx)
            r->x = nx;
        float *ny = nx ? realloc(r->y, sizeof *ny * cap) : NULL;
        if (ny)
            r->y = ny;
        int32_t *ng = ny ? realloc(r->group, sizeof *ng * cap) : NULL;
        if (!ng)
            return hn_fail(HN_ERR_NOMEM, "out of memory for %zu dataset rows", cap);
        r->group = ng;
        r->cap = cap;
    }
    memcpy(r->x + r->n * (size_t)r->dim, x, sizeof *x * (size_t)r->dim);
    r->group[r->n] = group;
    r->y[r->n++] = y;
    return HN_OK;
}

void dg_emp_rows_free(dg_emp_rows *r)
{
    free(r->x), free(r->y), free(r->group);
    r->x = r->y = NULL;
    r->group = NULL;
}
