/* heurnet import: bring a network trained elsewhere (ONNX from PyTorch or
 * Keras) into a heurnet model file, so that solve, predict and eval can run
 * it. The library reads and checks; this file decides the exit code: an
 * operator or construct heurnet cannot express is a usage error (2), a
 * damaged file a failure (1). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "common/hn.h"
#include "domains/dom.h"
#include "nn/import.h"
#include "nn/nn.h"
#include "search/emp/srch_em_scorer.h"

struct import_opts {
    const char *in, *out, *encoder;
    int force;
};

#define IO(f) offsetof(struct import_opts, f)
static const struct cli_opt import_opts[] = {
    CLI_STR("encoder", IO(encoder), "E",
            "input encoder, e.g. 'npuzzle-onehot n=3 goal=blank-last' [the file's \"encoder\" "
            "metadata, else none]"),
    CLI_FLAG("force", IO(force), 1, "replace an existing OUT [off]"), CLI_END};
static const struct cli_opt_cmd import_cmd = {
    .cmd = "import",
    .usage = "import [options] MODEL.onnx OUT.h5\n\n"
             "Read a multilayer perceptron from ONNX (torch.onnx.export, tf2onnx) and write it\n"
             "as a heurnet model: Gemm or MatMul + Add, BatchNormalization, Relu, Elu,\n"
             "LeakyRelu, Dropout, Identity, Flatten, Mul and Add by constants (folded into\n"
             "the layers, or the target scaling after the last activation). Any other\n"
             "operator is refused (exit 2).\n\n",
    .opts = import_opts,
    .max_args = 1 << 20}; /* the count is checked below, with a better message */

static int parse(int argc, char **argv, struct import_opts *o)
{
    int nargs, rc = cli_opt_parse(&import_cmd, o, argc, argv, &nargs);
    if (rc)
        return rc;
    if (nargs != 2)
        return cli_usage("import", "need MODEL.onnx and OUT.h5 (got %d arguments)", nargs);
    o->in = argv[1];
    o->out = argv[2];
    if (!*o->out)
        return cli_usage("import", "OUT.h5 is empty");
    return 0;
}

static int check_target(const struct import_opts *o)
{
    struct stat si, so;
    if (stat(o->out, &so) != 0)
        return 0;
    if (stat(o->in, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino)
        return cli_usage("import", "OUT.h5 %s is the ONNX file itself", o->out);
    if (S_ISDIR(so.st_mode)) {
        fprintf(stderr, "heurnet: import: %s is a folder, not a file\n", o->out);
        return CLI_EXIT_FAIL;
    }
    if (!o->force) {
        fprintf(stderr, "heurnet: import: %s exists (use --force to replace it)\n", o->out);
        return CLI_EXIT_FAIL;
    }
    return 0;
}

/* The built-in domain an n-puzzle encoder name is the encoding of:
 * "npuzzle-onehot n=W[xH] goal=G" -> "npuzzle:WxH[:blank-last]". 0, or -1
 * when the name does not read so. */
static int npuzzle_spec(const char *enc, char *spec, size_t cap)
{
    int w, h, used = 0, at = 0;
    char goal[32];
    if (sscanf(enc, "npuzzle-onehot n=%d%n", &w, &at) != 1)
        return -1;
    h = w;
    if (enc[at] == 'x' && sscanf(enc + at, "x%d%n", &h, &used) == 1)
        at += used;
    used = 0;
    if (sscanf(enc + at, " goal=%31s%n", goal, &used) != 1 || enc[at + used] || w < 1 || h < 1)
        return -1;
    if (strcmp(goal, "blank-first") && strcmp(goal, "blank-last"))
        return -1;
    snprintf(spec, cap, "npuzzle:%dx%d%s", w, h, strcmp(goal, "blank-last") ? "" : ":blank-last");
    return 0;
}

/* The network must fit built-in domain `spec`'s encoding `enc`: its
 * name exactly, its inputs, one output (or one per move). */
static int fit_domain(const char *path, const nn_model *m, const char *enc, const char *spec)
{
    int st;
    dom *d = dom_open(spec, &st);
    if (!d) {
        fprintf(stderr, "heurnet import: encoder \"%s\" names no domain heurnet can open: %s\n",
                enc, hn_errmsg());
        return CLI_EXIT_USAGE;
    }
    const dom_facts *f = dom_facts_of(d);
    int rc = 0, in = nn_model_inputs(m), out = nn_model_outputs(m);
    if (strcmp(f->encoding, enc)) {
        fprintf(stderr, "heurnet import: encoder \"%s\": domain %s's encoding is written \"%s\"\n",
                enc, dom_spec(d), f->encoding);
        rc = CLI_EXIT_USAGE;
    } else if (in != (int)f->inputs || (out != 1 && out != dom_nmoves(d))) {
        fprintf(stderr,
                "heurnet import: %s: the network reads %d inputs and gives %d output(s), but "
                "encoder \"%s\" (domain %s) has %u inputs and needs 1 output (or %d, one per "
                "move); nothing written\n",
                path, in, out, enc, dom_spec(d), f->inputs, dom_nmoves(d));
        rc = CLI_EXIT_USAGE;
    }
    dom_free(d);
    return rc;
}

/* The encoder the model will record (--encoder, else the file's) must fit
 * the network when heurnet knows it: the n-puzzle's (every size and goal
 * the domain opens), the cube's and the move scorer's; checked here, before
 * anything is written, since every later command would refuse the model.
 * Other names (a plug-in's encoding) are checked when the model meets its
 * domain. */
static int check_encoder(const char *path, const nn_model *m)
{
    const char *enc = nn_model_encoder(m);
    char spec[64];
    if (!enc || !enc[0]) {
        fprintf(stderr,
                "heurnet import: note: %s records no encoder; solve, predict and eval "
                "refuse such a model on a domain (give --encoder)\n",
                path);
        return 0;
    }
    for (const char *c = enc; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) {
            fprintf(stderr, "heurnet import: the encoder name holds a control character\n");
            return CLI_EXIT_USAGE;
        }
    if (!strncmp(enc, "npuzzle-onehot", 14)) {
        if (npuzzle_spec(enc, spec, sizeof spec)) {
            fprintf(stderr,
                    "heurnet import: encoder \"%s\" is not \"npuzzle-onehot n=W[xH] "
                    "goal=blank-first|blank-last\"\n",
                    enc);
            return CLI_EXIT_USAGE;
        }
        return fit_domain(path, m, enc, spec);
    }
    for (int i = 0; dom_builtin(i); i++) {
        int st;
        dom *d = dom_builtin(i)->name ? dom_open(dom_builtin(i)->name, &st) : NULL;
        int same = d && !strcmp(dom_facts_of(d)->encoding, enc);
        if (d)
            snprintf(spec, sizeof spec, "%s", dom_spec(d));
        dom_free(d);
        hn_error_clear();
        if (same)
            return fit_domain(path, m, enc, spec);
    }
    if (!strcmp(enc, SRCH_EM_FEAT_ENCODER) &&
        (nn_model_inputs(m) != SRCH_EM_FEAT_DIM || nn_model_outputs(m) != 1)) {
        fprintf(stderr,
                "heurnet import: %s: the network reads %d inputs and gives %d output(s), but "
                "encoder \"%s\" has %d inputs and 1 output; nothing written\n",
                path, nn_model_inputs(m), nn_model_outputs(m), enc, SRCH_EM_FEAT_DIM);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(enc, SRCH_EM_FEAT_ENCODER))
        fprintf(stderr,
                "heurnet import: note: encoder \"%s\" is not one of heurnet's; its width "
                "is checked when the model meets its domain\n",
                enc);
    return 0;
}

int cmd_import(int argc, char **argv)
{
    struct import_opts o = {0};
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    if ((rc = check_target(&o)))
        return rc;
    int st;
    nn_model *m = nn_import_onnx(o.in, &st);
    if (!m) {
        rc = cli_fail("import");
        return st == HN_ERR_UNSUPPORTED ? CLI_EXIT_USAGE : rc;
    }
    if (o.encoder && nn_model_set_encoder(m, o.encoder)) {
        nn_model_free(m);
        return cli_fail("import");
    }
    if ((rc = check_encoder(o.in, m))) {
        nn_model_free(m);
        return rc;
    }
    if (nn_model_save(m, o.out)) {
        nn_model_free(m);
        return cli_fail("import");
    }
    char spec[NN_SPEC_MAX];
    double mean, std;
    nn_spec_format(nn_model_spec(m), NULL, spec, sizeof spec);
    nn_model_target(m, &mean, &std);
    printf("input=%s output=%s spec=%s params=%zu target_mean=%.9g target_std=%.9g "
           "encoder=\"%s\"\n",
           o.in, o.out, spec, nn_model_param_count(m), mean, std, nn_model_encoder(m));
    nn_model_free(m);
    return CLI_EXIT_OK;
}
