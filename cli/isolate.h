/* cli/isolate.h: the isolation function of the executable and the tests
 * (see hn_isolate_set in common/hn.h). Needs only common/hn.h. */
#ifndef CLI_ISOLATE_H
#define CLI_ISOLATE_H

#include <stddef.h>

/* Run fn(arg) in a forked child that ends with _exit(0) when fn returns, so a
 * libhdf5 crash ends the child only. An hn_isolate_fn. */
int cli_isolate(void (*fn)(void *), void *arg, char *why, size_t cap);

#endif
