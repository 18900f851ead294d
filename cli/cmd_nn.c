/* heurnet nn: create a model from a spec (init), describe a model file
 * (info), and a small self-contained training demo (demo) for the
 * quickstart. Also the spec options shared with bench nn. */
#include "cli/cmd_nn.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/search_opts.h"
#include "common/hn.h"

struct nn_layer_defaults cli_arch_defaults(void)
{
    struct nn_layer_defaults d = NN_LAYER_DEFAULTS;
    d.dropout = 0.1f;
    return d;
}

#define ND(f) offsetof(struct nn_layer_defaults, f)
/* The words are in enum nn_act's and enum nn_init's order. */
const struct cli_opt cli_arch_opts[] = {
    CLI_ENUM("act", ND(act), "linear|relu|elu|leaky", "hidden-layer activation"),
    CLI_FLAG("bn", ND(bn), 1, "batch norm after the hidden dense layers"),
    CLI_FLAG("no-bn", ND(bn), 0, "no batch norm"),
    CLI_REAL("dropout", ND(dropout), 0, 1, CLI_OPT_FLOAT | CLI_OPT_BELOW, "P",
             "hidden-layer dropout probability"),
    CLI_ENUM("init", ND(init), "he|glorot", "kernel init"),
    CLI_TEXT("  A layer in --arch may override these: 1024:relu,nobn,do=0.2\n"
             "  (also alpha=A for the ELU alpha, eps=E for the batch-norm epsilon)."),
    CLI_END};

void cli_arch_help(FILE *out, const struct nn_layer_defaults *d)
{
    cli_opt_help_table(out, cli_arch_opts, d);
}

int cli_arch_option(const char *cmd, int opt, const char *arg, struct nn_layer_defaults *d)
{
    static const char *const names[] = {"act", "bn", "no-bn", "dropout", "init"};
    if (opt < CLI_OPT_ACT || opt > CLI_OPT_INIT)
        return 0;
    return cli_opt_apply(cmd, cli_arch_opts, d, names[opt - CLI_OPT_ACT], arg) ? CLI_EXIT_USAGE : 1;
}

int cli_arch_parse(const char *cmd, const char *arch, const struct nn_layer_defaults *d,
                   struct nn_spec *out)
{
    if (!arch)
        return cli_usage(cmd, "--arch SPEC is required (e.g. 256-1024-1024-512-128-64-1)");
    if (nn_spec_parse(arch, d, out))
        return cli_usage(cmd, "--arch: %s", hn_errmsg());
    return 0;
}

/* ---- nn init ----------------------------------------------------------- */

struct init_cli {
    struct nn_layer_defaults d;
    const char *arch, *out, *enc;
    uint64_t seed;
    double tm, ts;
};

#define IN(f) offsetof(struct init_cli, f)
static const struct cli_opt init_opts[] = {
    CLI_STR("arch", IN(arch), "SPEC",
            "widths input-hidden...-output, e.g. 256-1024-1024-512-128-64-1 [required]"),
    CLI_TABLE(cli_arch_opts, IN(d)),
    CLI_U64("seed", IN(seed), 0, "S", "initialisation seed"),
    CLI_STR("encoder", IN(enc), "NAME", "input encoder recorded in the file [\"\"]"),
    CLI_REAL("target-mean", IN(tm), -DBL_MAX, DBL_MAX, 0, "M",
             "output scaling y = raw * std + mean [0]"),
    CLI_REAL("target-std", IN(ts), -DBL_MAX, DBL_MAX, 0, "S", "[1]"),
    CLI_STRL('o', "output", IN(out), "F", "model file to write [required]"),
    CLI_END};
static const struct cli_opt_cmd init_cmd = {
    .cmd = "nn init",
    .usage = "nn init --arch SPEC [options] -o model.h5\n\n"
             "Write a freshly initialised model (batch-norm running statistics at 0 and 1).\n\n",
    .opts = init_opts};

static int nn_init(int argc, char **argv)
{
    struct init_cli a = {.d = cli_arch_defaults(), .enc = "", .seed = 1, .ts = 1.0};
    int nargs, rc = cli_opt_parse(&init_cmd, &a, argc, argv, &nargs);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    const char *out = a.out, *enc = a.enc;
    uint64_t seed = a.seed;
    double tm = a.tm, ts = a.ts;
    struct nn_spec sp;
    if ((rc = cli_arch_parse("nn init", a.arch, &a.d, &sp)))
        return rc;
    if (!out)
        return cli_usage("nn init", "-o model.h5 is required");
    if (ts == 0.0)
        return cli_usage("nn init", "--target-std must not be 0");
    nn_model *m = nn_model_new(&sp, seed, &rc);
    if (!m)
        return cli_fail("nn init");
    char rev[64];
    snprintf(rev, sizeof rev, "%s", hn_revision());
    rc = nn_model_set_encoder(m, enc);
    if (!rc)
        rc = nn_model_set_target(m, tm, ts);
    if (!rc)
        rc = nn_model_set_meta_double(m, "seed", (double)seed);
    if (!rc)
        rc = nn_model_set_meta_str(m, "source_revision", rev);
    if (!rc)
        rc = nn_model_set_meta_str(m, "created_by", "heurnet nn init");
    if (!rc)
        rc = nn_model_save(m, out);
    size_t params = nn_model_param_count(m);
    nn_model_free(m);
    if (rc)
        return cli_fail("nn init");
    char s[NN_SPEC_MAX];
    nn_spec_format(&sp, NULL, s, sizeof s);
    printf("model=%s spec=%s params=%zu\n", out, s, params);
    return CLI_EXIT_OK;
}

/* ---- nn info ----------------------------------------------------------- */

static int nn_info(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: heurnet nn info MODEL.h5\n\n"
               "Print the spec, encoder, target scaling, parameter count, each layer and the\n"
               "training-record attributes of a model file (key=value lines).\n");
        return CLI_EXIT_OK;
    }
    if (argc != 2)
        return cli_usage("nn info", "expected one model file");
    cli_log_init(0); /* a model without a checksum is read with a warning */
    int rc;
    nn_model *m = nn_model_load(argv[1], &rc);
    if (!m)
        return cli_fail("nn info");
    char s[NN_SPEC_MAX];
    nn_spec_format(nn_model_spec(m), NULL, s, sizeof s);
    double tm, ts;
    nn_model_target(m, &tm, &ts);
    printf("file=%s\nspec=%s\ninputs=%d\noutputs=%d\nlayers=%d\nparams=%zu\nencoder=%s\n"
           "target_mean=%.9g\ntarget_std=%.9g\n",
           argv[1], s, nn_model_inputs(m), nn_model_outputs(m), nn_model_layers(m),
           nn_model_param_count(m), nn_model_encoder(m), tm, ts);
    for (int l = 0; l < nn_model_layers(m); l++) {
        struct nn_layer_info L;
        nn_model_layer(m, l, &L);
        printf("layer.%03d=in=%d out=%d activation=%s bn=%d", l, L.in, L.out, nn_act_name(L.act),
               L.has_bn);
        if (L.has_bn)
            printf(" bn_epsilon=%g", (double)L.bn_eps);
        if (L.act == NN_ACT_ELU)
            printf(" elu_alpha=%g", (double)L.elu_alpha);
        printf(" dropout=%g\n", (double)L.dropout);
    }
    for (int i = 0; i < nn_model_meta_count(m); i++) {
        const char *key, *str;
        int is_num;
        double num;
        nn_model_meta_at(m, i, &key, &is_num, &str, &num);
        if (is_num)
            printf("attr.%s=%.17g\n", key, num);
        else
            printf("attr.%s=%s\n", key, str);
    }
    nn_model_free(m);
    return CLI_EXIT_OK;
}

/* ---- nn demo ----------------------------------------------------------- */

/* The function the demo net learns: smooth, nonlinear, with interactions. */
static float demo_target(const float *x)
{
    return sinf(2.0f * x[0]) + x[1] * x[2] + 0.5f * x[3] * x[3] - 0.3f * x[4] +
           cosf(x[5] + x[6]) * x[7];
}

static void demo_batch(hn_rng *r, float *x, float *y, int n, int d)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < d; j++)
            x[i * d + j] = (float)(2.0 * hn_rng_uniform(r) - 1.0);
        y[i] = demo_target(x + i * d);
    }
}

static int demo_run(long steps, long every, uint64_t seed)
{
    enum { D = 8, B = 128, NVAL = 2048 };
    struct nn_spec sp;
    nn_spec_parse("8-64-64-1", NULL, &sp);
    int rc = 0;
    nn_model *m = nn_model_new(&sp, seed, &rc);
    nn_train *t = m ? nn_train_new(m, B, hn_seed_mix(seed, 1), &rc) : NULL;
    size_t np = 0;
    float *p = m ? nn_model_params(m, &np) : NULL;
    struct nn_adam_opts ao = NN_ADAM_DEFAULTS;
    ao.lr = 3e-3f;
    nn_adam *a = t ? nn_adam_new(np, &ao, &rc) : NULL;
    nn_infer *inf = a ? nn_infer_new(m, NVAL, &rc) : NULL;
    hn_rng *r = hn_rng_new(hn_seed_mix(seed, 2));
    float *x = malloc(sizeof(float) * NVAL * D), *y = malloc(sizeof(float) * NVAL);
    float *vx = malloc(sizeof(float) * NVAL * D), *vy = malloc(sizeof(float) * NVAL),
          *vp = malloc(sizeof(float) * NVAL);
    if (!inf || !r || !x || !y || !vx || !vy || !vp) {
        rc = rc ? rc : hn_fail(HN_ERR_NOMEM, "out of memory");
        goto done;
    }
    demo_batch(r, vx, vy, NVAL, D);
    printf("# nn demo: spec=8-64-64-1 batch=%d lr=%g seed=%llu "
           "target=sin(2x0)+x1*x2+x3^2/2-0.3x4+cos(x5+x6)*x7\n",
           B, (double)ao.lr, (unsigned long long)seed);
    double acc = 0.0;
    for (long s = 1; s <= steps && !hn_stop_requested(); s++) {
        demo_batch(r, x, y, B, D);
        nn_train_forward(t, x, B, NN_MODE_TRAIN);
        acc += nn_train_loss(t, y, NN_LOSS_MSE, 1.0f);
        nn_train_backward(t);
        nn_adam_step(a, p, nn_train_grad(t));
        if (s % every == 0 || s == steps) {
            long k = s % every ? s % every : every;
            if ((rc = nn_infer_refresh(inf, m)))
                goto done;
            nn_infer_run(inf, vx, NVAL, vp);
            double mse = 0.0;
            for (int i = 0; i < NVAL; i++)
                mse += (vp[i] - vy[i]) * (double)(vp[i] - vy[i]);
            printf("step=%ld train_loss=%.5f val_mse=%.5f\n", s, acc / k, mse / NVAL);
            fflush(stdout);
            acc = 0.0;
        }
    }
done:
    free(x), free(y), free(vx), free(vy), free(vp);
    hn_rng_free(r);
    nn_infer_free(inf);
    nn_adam_free(a);
    nn_train_free(t);
    nn_model_free(m);
    return rc ? cli_fail("nn demo") : CLI_EXIT_OK;
}

struct demo_cli {
    long steps, every;
    uint64_t seed;
};

static int nn_demo(int argc, char **argv)
{
    static const struct cli_opt opts[] = {
        CLI_LONG("steps", offsetof(struct demo_cli, steps), 1, 100000000, "N", "training steps"),
        CLI_U64("seed", offsetof(struct demo_cli, seed), 0, "S",
                "seed for data and initialisation"),
        CLI_LONG("every", offsetof(struct demo_cli, every), 1, 100000000, "K",
                 "print a line every K steps"),
        CLI_END};
    static const struct cli_opt_cmd cmd = {
        .cmd = "nn demo",
        .usage = "nn demo [options]\n\n"
                 "Train a small net (8-64-64-1, elu, batch norm, Adam) on a synthetic regression\n"
                 "task and print the training loss and held-out MSE as they fall.\n\n",
        .opts = opts};
    struct demo_cli a = {.steps = 2000, .every = 200, .seed = 1};
    int nargs, rc = cli_opt_parse(&cmd, &a, argc, argv, &nargs);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    hn_stop_install();
    return demo_run(a.steps, a.every, a.seed);
}

/* ---- dispatch ---------------------------------------------------------- */

int cli_subcmd_run(const char *cmd, const struct cli_subcmd *table, size_t n, int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        FILE *out = argc < 2 ? stderr : stdout;
        fprintf(out, "usage: heurnet %s <command> [options]\n\ncommands:\n", cmd);
        for (size_t i = 0; i < n; i++)
            fprintf(out, "  %-11s %s\n", table[i].name, table[i].help);
        return argc < 2 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
    }
    for (size_t i = 0; i < n; i++)
        if (!strcmp(argv[1], table[i].name))
            return table[i].fn(argc - 1, argv + 1);
    return cli_usage(cmd, "unknown %s command '%s'", cmd, argv[1]);
}

static const struct cli_subcmd nn_cmds[] = {
    {"init", nn_init, "write a freshly initialised model from a spec"},
    {"info", nn_info, "print a model file's spec, encoder, parameters and attributes"},
    {"demo", nn_demo, "train a small net on a synthetic task, printing the loss"},
    {"upgrade", cli_nn_upgrade, "add the checksum to an older model, dataset or checkpoint"},
    {"set-search", cli_nn_set_search, "record the search a model is meant for (attribute search)"},
};

int cmd_nn(int argc, char **argv)
{
    return cli_subcmd_run("nn", nn_cmds, sizeof nn_cmds / sizeof nn_cmds[0], argc, argv);
}
