/* Linked into every test and fuzz harness: reads of files without a checksum
 * run in a forked child, as in the executable, so a libhdf5 crash on a
 * damaged file is a refusal there too, not the end of the test. */
#include "cli/isolate.h"
#include "common/hn.h"

__attribute__((constructor)) static void isolate_on(void)
{
    hn_isolate_set(cli_isolate);
}
