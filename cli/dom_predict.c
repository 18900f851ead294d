/* heurnet predict --instances on any domain: the network's estimate (its
 * residual heuristic added, as searches see it) of every state of a file. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "common/hn.h"
#include "nn/nn.h"

static void print_parse_error(const char *msg, void *user)
{
    (void)user;
    fprintf(stderr, "heurnet predict: %s\n", msg);
}

static int estimate_all(srch_dom_heur *h, const dom_instance_rec *inst, size_t n)
{
    double est;
    for (size_t i = 0; i < n; i++) {
        if (srch_dom_heur_estimate(h, inst[i].state, 1, NULL, NULL, NULL, &est))
            return cli_fail("predict");
        printf("%s\t%.6g\n", inst[i].id, est);
    }
    if (fflush(stdout) != 0) {
        hn_fail(HN_ERR_IO, "cannot write to standard output");
        return cli_fail("predict");
    }
    return CLI_EXIT_OK;
}

int cli_dom_predict(const char *model, const char *file, const char *domain)
{
    int st, rc;
    dom *d = dom_open(domain, &st);
    if (!d) {
        fprintf(stderr, "heurnet predict: --domain: %s\n", hn_errmsg());
        return CLI_EXIT_USAGE;
    }
    nn_model *m = nn_model_load(model, &st);
    srch_dom_heur *h = m ? srch_dom_heur_net(d, m, model, NULL, &st) : NULL;
    dom_instance_rec *inst = NULL;
    size_t n = 0;
    if (!h && (st == HN_ERR_ARG || st == HN_ERR_SHAPE)) {
        fprintf(stderr, "heurnet predict: %s\n", hn_errmsg());
        rc = CLI_EXIT_USAGE; /* a model of another domain */
    } else if (!h)
        rc = cli_fail("predict");
    else if (dom_read_instances(d, file, print_parse_error, NULL, &inst, &n))
        rc = cli_fail(NULL);
    else
        rc = estimate_all(h, inst, n);
    free(inst);
    srch_dom_heur_free(h);
    nn_model_free(m);
    dom_free(d);
    return rc;
}
