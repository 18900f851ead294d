/* The definitions of the built-in domains (one per folder under domains/). */
#ifndef DOM_BUILTIN_H
#define DOM_BUILTIN_H

#include "domains/domain.h"

#endif
