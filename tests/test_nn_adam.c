/* Adam against values computed by hand for two steps (with bias
 * correction), with and without decoupled weight decay; and the state
 * accessors used by checkpoints. */
#include <math.h>

#include "nn/nn.h"
#include "tests/check.h"

int main(void)
{
    struct nn_adam_opts o = {
        .lr = 0.1f, .beta1 = 0.9f, .beta2 = 0.999f, .eps = 1e-8f, .weight_decay = 0.0f};
    nn_adam *a = nn_adam_new(2, &o, NULL);
    float p[2] = {1.0f, -2.0f};
    float g1[2] = {0.5f, -1.0f}, g2[2] = {0.1f, 2.0f};
    nn_adam_step(a, p, g1);
    /* step 1: m = 0.1 g, v = 0.001 g^2, mhat = g, vhat = g^2: p -= lr * sign(g) */
    CHECK_CLOSE(p[0], 1.0 - 0.1, 1e-6);
    CHECK_CLOSE(p[1], -2.0 + 0.1, 1e-6);
    nn_adam_step(a, p, g2);
    /* step 2 by hand for element 0: m = 0.9*0.05 + 0.1*0.1 = 0.055; v = 0.999*0.00025 + 0.001*0.01
     * = 0.00025975; mhat = 0.055/0.19 = 0.289473684; vhat = 0.00025975/0.001999 = 0.129939970;
     * step = 0.1 * 0.289473684 / (0.360471871 + 1e-8) = 0.0803041 */
    CHECK_CLOSE(p[0], 0.9 - 0.0803041, 2e-6);
    /* element 1: m = 0.9*-0.1 + 0.1*2 = 0.11; v = 0.999*0.001 + 0.001*4 = 0.004999;
     * mhat = 0.578947368; vhat = 2.500750375; sqrt = 1.581376073; step = 0.0366104 */
    CHECK_CLOSE(p[1], -1.9 - 0.0366104, 2e-6);
    CHECK(nn_adam_step_count(a) == 2);
    CHECK_CLOSE(nn_adam_m(a)[0], 0.055, 1e-7);
    CHECK_CLOSE(nn_adam_v(a)[1], 0.004999, 1e-7);

    /* Restoring the state continues identically. */
    nn_adam *b = nn_adam_new(2, &o, NULL);
    for (int i = 0; i < 2; i++) {
        nn_adam_m(b)[i] = nn_adam_m(a)[i];
        nn_adam_v(b)[i] = nn_adam_v(a)[i];
    }
    nn_adam_set_step_count(b, nn_adam_step_count(a));
    float q[2] = {p[0], p[1]};
    nn_adam_step(a, p, g1);
    nn_adam_step(b, q, g1);
    CHECK(p[0] == q[0] && p[1] == q[1]);
    nn_adam_free(a);
    nn_adam_free(b);

    /* Decoupled weight decay: p -= lr*wd*p on top of the Adam step (old p). */
    o.weight_decay = 0.5f;
    a = nn_adam_new(1, &o, NULL);
    float r[1] = {2.0f}, gz[1] = {1.0f};
    nn_adam_step(a, r, gz);
    CHECK_CLOSE(r[0], 2.0 - 0.1 - 0.1 * 0.5 * 2.0, 1e-6);
    nn_adam_free(a);

    int st = 0;
    o.beta1 = 1.0f;
    CHECK(nn_adam_new(1, &o, &st) == NULL && st == HN_ERR_ARG);
    return CHECK_DONE();
}
