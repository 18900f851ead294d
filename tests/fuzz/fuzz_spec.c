/* Network spec parser: any string is refused or parsed; a parsed spec that
 * passes the check formats to a string that parses back to the same spec. */
#include "fuzz_util.h"
#include "nn/nn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_string(data, size);
    struct nn_spec a, b;
    if (nn_spec_parse(s, NULL, &a) == 0 && nn_spec_check(&a) == 0) {
        char f1[4096], f2[4096];
        if (nn_spec_format(&a, NULL, f1, sizeof f1) == 0) {
            if (nn_spec_parse(f1, NULL, &b) != 0 || nn_spec_format(&b, NULL, f2, sizeof f2) != 0 ||
                strcmp(f1, f2) != 0)
                abort(); /* the round trip changed the spec */
        }
    }
    free(s);
    return 0;
}
