/* Spec strings: parse -> format -> parse round trips, defaults and
 * overrides land where they should, and errors name the right position. */
#include <string.h>

#include "nn/nn.h"
#include "tests/check.h"

static int same_spec(const struct nn_spec *a, const struct nn_spec *b)
{
    if (a->n_inputs != b->n_inputs || a->n_layers != b->n_layers)
        return 0;
    for (int i = 0; i < a->n_layers; i++) {
        const struct nn_layer_spec *x = &a->layer[i], *y = &b->layer[i];
        if (x->width != y->width || x->act != y->act || x->bn != y->bn ||
            x->dropout != y->dropout || x->elu_alpha != y->elu_alpha || x->bn_eps != y->bn_eps ||
            x->init != y->init)
            return 0;
    }
    return 1;
}

static void round_trip(const char *s, const struct nn_layer_defaults *d)
{
    struct nn_spec a, b;
    char buf[NN_SPEC_MAX];
    CHECK_MSG(nn_spec_parse(s, d, &a) == 0, "%s: %s", s, hn_errmsg());
    CHECK(nn_spec_format(&a, d, buf, sizeof buf) == 0);
    CHECK_MSG(nn_spec_parse(buf, d, &b) == 0, "%s -> %s: %s", s, buf, hn_errmsg());
    CHECK_MSG(same_spec(&a, &b), "%s -> %s", s, buf);
    /* and through the library defaults, as model files store it */
    CHECK(nn_spec_format(&a, NULL, buf, sizeof buf) == 0);
    CHECK_MSG(nn_spec_parse(buf, NULL, &b) == 0 && same_spec(&a, &b), "%s -> %s (library defaults)",
              s, buf);
}

/* The error message must name `pos` (1-based). */
static void bad(const char *s, int pos)
{
    struct nn_spec a;
    char want[64];
    int rc = nn_spec_parse(s, NULL, &a);
    snprintf(want, sizeof want, "character %d:", pos);
    CHECK_MSG(rc == HN_ERR_FORMAT, "'%s' accepted", s);
    CHECK_MSG(strstr(hn_errmsg(), want) != NULL, "'%s': got '%s', want %s", s, hn_errmsg(), want);
}

int main(void)
{
    struct nn_layer_defaults d = NN_LAYER_DEFAULTS;
    d.dropout = 0.1f;
    struct nn_spec sp;
    CHECK(nn_spec_parse("256-1024-1024-512-128-64-1", &d, &sp) == 0);
    CHECK(sp.n_inputs == 256 && sp.n_layers == 6);
    CHECK(sp.layer[0].width == 1024 && sp.layer[0].act == NN_ACT_ELU && sp.layer[0].bn == 1);
    CHECK_CLOSE(sp.layer[3].dropout, 0.1, 1e-7);
    CHECK(sp.layer[5].width == 1 && sp.layer[5].act == NN_ACT_LINEAR && !sp.layer[5].bn &&
          sp.layer[5].dropout == 0.0f);

    CHECK(nn_spec_parse("10-20:relu,nobn,do=0.2-5:alpha=0.5,eps=1e-5,glorot-1:elu", &d, &sp) == 0);
    CHECK(sp.layer[0].act == NN_ACT_RELU && !sp.layer[0].bn && sp.layer[0].dropout == 0.2f);
    CHECK(sp.layer[1].act == NN_ACT_ELU && sp.layer[1].elu_alpha == 0.5f &&
          sp.layer[1].bn_eps == 1e-5f && sp.layer[1].init == NN_INIT_GLOROT &&
          sp.layer[1].dropout == 0.1f);
    CHECK(sp.layer[2].act == NN_ACT_ELU && !sp.layer[2].bn); /* output: only act overridden */

    char buf[NN_SPEC_MAX];
    CHECK(nn_spec_parse("256-1024-1024-512-128-64-1", &d, &sp) == 0);
    CHECK(nn_spec_format(&sp, &d, buf, sizeof buf) == 0 &&
          !strcmp(buf, "256-1024-1024-512-128-64-1"));
    CHECK(nn_spec_format(&sp, NULL, buf, sizeof buf) == 0);
    CHECK_MSG(!strcmp(buf, "256-1024:do=0.1-1024:do=0.1-512:do=0.1-128:do=0.1-64:do=0.1-1"), "%s",
              buf);
    CHECK(nn_spec_format(&sp, NULL, buf, 10) == HN_ERR_ARG);

    round_trip("256-1024-1024-512-128-64-1", &d);
    round_trip("256-1024:relu,nobn,do=0.2-64-1", &d);
    round_trip("3-4:linear,bn,eps=0.01,alpha=2,glorot-2:relu,bn,do=0.5", &d);
    round_trip("10-8:leaky,alpha=0.01,nobn-1", &d);
    round_trip("7-1", NULL);

    bad("", 1);
    bad("256", 4);
    bad("256-", 5);
    bad("256-x-1", 5);
    bad("256-1024:foo-1", 10);
    bad("256-1024:do=1.5-1", 13);
    bad("256-1024:do=abc-1", 13);
    bad("256-1024:relu,-1", 15);
    bad("256-0-1", 5);
    bad("256:relu-1", 4);
    bad("256-1024+1", 9);
    bad("256-1024:alpha=-1-1", 16);
    return CHECK_DONE();
}
