/* Large tables read at random (pattern databases, the goal's ball): with
 * 4 KB pages nearly every lookup also misses the TLB; 2 MB pages
 * (transparent huge pages, which Debian enables on madvise only) make
 * those misses rare. */
#define _DEFAULT_SOURCE /* madvise and MADV_HUGEPAGE (Linux) */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/hn.h"

void *hn_alloc_huge(size_t bytes, int zero)
{
    const size_t huge = (size_t)2 << 20;
    if (bytes < huge)
        return zero ? calloc(1, bytes ? bytes : 1) : malloc(bytes ? bytes : 1);
    size_t rounded = (bytes + huge - 1) / huge * huge;
    void *t = aligned_alloc(huge, rounded);
    if (!t)
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(t, rounded, MADV_HUGEPAGE); /* a hint: failure only costs speed */
#endif
    if (zero)
        memset(t, 0, bytes);
    return t;
}
