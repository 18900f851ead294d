/* heurnet predict --instances on any domain: the network's estimate (its
 * residual base added, as searches see it) of every state of a file, the
 * states read in the layout the file's domain names (a model of the other
 * n-puzzle goal layout reads them renamed, srch_dom_heur_net). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "common/hn.h"
#include "nn/nn.h"

static void print_parse_error(const char *msg, void *user)
{
    (void)user;
    fprintf(stderr, "heurnet predict: %s\n", msg);
}

/* The estimates of every state, printed. */
static int estimate_all(const dom *d, const nn_model *m, const char *name,
                        const dom_instance_rec *inst, size_t n, int engine, int batch)
{
    size_t sb = dom_state_bytes(d);
    uint8_t *states = malloc((n ? n : 1) * sb);
    double *est = malloc((n ? n : 1) * sizeof *est);
    int rc = states && est ? 0 : hn_fail(HN_ERR_NOMEM, "out of memory");
    for (size_t i = 0; !rc && i < n; i++)
        memcpy(states + i * sb, inst[i].state, sb);
    if (!rc)
        rc = heurnet_dom_predict_states(d, m, name, states, n, engine, batch, est);
    for (size_t i = 0; !rc && i < n; i++)
        printf("%s\t%.6g\n", inst[i].id, est[i]);
    free(states);
    free(est);
    if (!rc && fflush(stdout) != 0)
        rc = hn_fail(HN_ERR_IO, "cannot write to standard output");
    if (rc == HN_ERR_ARG || rc == HN_ERR_SHAPE) {
        fprintf(stderr, "heurnet predict: %s\n", hn_errmsg());
        return CLI_EXIT_USAGE; /* a model of another domain */
    }
    return rc ? cli_fail("predict") : CLI_EXIT_OK;
}

/* The file's domain: --domain, else the model's, in --goal's layout. */
static int file_domain(const char *model, const char *domain, const char *goal, char *spec,
                       size_t cap)
{
    if (domain)
        snprintf(spec, cap, "%s", domain);
    else if (heurnet_dom_model_domain(model, spec, cap) || !spec[0]) {
        int st;
        nn_model *m = nn_model_load(model, &st); /* the reason it names no domain */
        if (!m)
            return cli_fail("predict");
        nn_model_free(m);
        fprintf(stderr,
                "heurnet predict: %s: the model names no domain (no domain attribute or "
                "n-puzzle encoder); give --domain D\n",
                model);
        return CLI_EXIT_FAIL; /* a model that does not read states */
    }
    if (goal && heurnet_dom_goal_spec(spec, goal, spec, cap))
        return cli_usage("predict", "--goal: %s", hn_errmsg());
    return 0;
}

int cli_dom_predict(const char *model, const char *file, const char *domain, const char *goal,
                    int engine, int batch)
{
    char spec[512];
    int st, rc = file_domain(model, domain, goal, spec, sizeof spec);
    if (rc)
        return rc;
    dom *d = dom_open(spec, &st);
    if (!d) {
        fprintf(stderr, "heurnet predict: --domain: %s\n", hn_errmsg());
        return CLI_EXIT_USAGE;
    }
    nn_model *m = nn_model_load(model, &st);
    dom_instance_rec *inst = NULL;
    size_t n = 0;
    if (!m)
        rc = cli_fail("predict");
    else if (dom_read_instances(d, file, print_parse_error, NULL, &inst, &n))
        rc = cli_fail(NULL);
    else
        rc = estimate_all(d, m, model, inst, n, engine, batch);
    free(inst);
    nn_model_free(m);
    dom_free(d);
    return rc;
}
