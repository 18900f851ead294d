/* The domains compiled into heurnet, in the order `heurnet domain list`
 * shows them. Each domain's folder defines its dom_def. */
#include <stddef.h>

#include "domains/dom.h"
#include "domains/builtin.h"

static const dom_def *const BUILTIN[] = {
    &dom_npuzzle_def, /* sliding-tile puzzle (domains/npuzzle) */
    &dom_cube3_def,   /* Rubik's cube (domains/cube3) */
    NULL              /* keep last */
};

const dom_def *dom_builtin(int index)
{
    int n = (int)(sizeof BUILTIN / sizeof BUILTIN[0]) - 1;
    return index >= 0 && index < n ? BUILTIN[index] : NULL;
}
