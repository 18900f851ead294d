/* heurnet import: bring a network trained elsewhere (ONNX from PyTorch or
 * Keras) into a heurnet model file, so that solve, predict and eval can run
 * it. The library reads and checks; this file decides the exit code: an
 * operator or construct heurnet cannot express is a usage error (2), a
 * damaged file a failure (1). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "common/hn.h"
#include "nn/import.h"
#include "nn/nn.h"

struct import_opts {
    const char *in, *out, *encoder;
    int force;
};

static void help(void)
{
    printf("usage: heurnet import [options] MODEL.onnx OUT.h5\n\n"
           "Read a multilayer perceptron from ONNX (torch.onnx.export, tf2onnx) and write it\n"
           "as a heurnet model: Gemm or MatMul + Add, BatchNormalization, Relu, Elu,\n"
           "LeakyRelu, Dropout, Identity, Flatten, Mul and Add by constants (folded into\n"
           "the layers, or the target scaling after the last activation). Any other\n"
           "operator is refused (exit 2).\n\n"
           "  --encoder E   input encoder, e.g. 'npuzzle-onehot n=3 goal=blank-last'\n"
           "                [the file's \"encoder\" metadata, else none]\n"
           "  --force       replace an existing OUT [off]\n"
           "  -h, --help    this help\n");
}

static int parse(int argc, char **argv, struct import_opts *o)
{
    static const struct option opts[] = {{"encoder", required_argument, NULL, 'e'},
                                         {"force", no_argument, NULL, 'F'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'e':
            o->encoder = optarg;
            break;
        case 'F':
            o->force = 1;
            break;
        case 'h':
            help();
            return -1;
        default:
            return cli_usage("import", "unknown option");
        }
    }
    if (argc - optind != 2)
        return cli_usage("import", "need MODEL.onnx and OUT.h5 (got %d arguments)", argc - optind);
    o->in = argv[optind];
    o->out = argv[optind + 1];
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
    if ((o.encoder && nn_model_set_encoder(m, o.encoder)) || nn_model_save(m, o.out)) {
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
