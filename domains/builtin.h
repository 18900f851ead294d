/* The definitions of the built-in domains (one per folder under domains/). */
#ifndef DOM_BUILTIN_H
#define DOM_BUILTIN_H

#include "domains/domain.h"

/* domains/npuzzle/: the sliding-tile puzzle, 2x2 to 8x8. */
extern const dom_def dom_npuzzle_def;
/* domains/cube3/: the Rubik's cube, quarter-turn metric. */
extern const dom_def dom_cube3_def;

#endif
