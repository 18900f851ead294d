/* The definitions of the built-in domains (one per folder under domains/). */
#ifndef DOM_BUILTIN_H
#define DOM_BUILTIN_H

#include "domains/domain.h"

extern const dom_def dom_cube3_def; /* domains/cube3 */

#endif
