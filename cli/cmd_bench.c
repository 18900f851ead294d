/* heurnet bench: throughput benchmarks. `bench nn` times training steps or
 * inference calls of a network from a spec, and the same sgemm calls alone,
 * so the result reads as a fraction of what BLAS allows for these shapes. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cblas.h>

#include "cli/cli.h"
#include "cli/cmd_nn.h"
#include "cli/dom_cli.h"
#include "common/hn.h"
#include "nn/sparse.h"

/* How inference runs: nn_infer_run on dense rows, or nn/sparse.h from
 * active inputs (accumulators built in each call) in float or int8. */
enum bench_engine { ENGINE_DENSE, ENGINE_SPARSE, ENGINE_Q8 };
static const char *const ENGINE_NAMES[] = {"dense", "sparse", "q8"};

struct bench_cfg {
    struct nn_spec spec;
    int batch, threads, train, onehot, engine;
    enum nn_simd simd;
    double seconds;
};

/* Floating-point operations of one sample: forward, or forward + backward
 * (two sgemms per layer, no input gradient for the first layer). */
static double flops_per_sample(const struct nn_spec *sp, int train)
{
    double f = 0.0, first = 0.0;
    int in = sp->n_inputs;
    for (int l = 0; l < sp->n_layers; l++) {
        double mm = 2.0 * in * sp->layer[l].width;
        if (l == 0)
            first = mm;
        f += mm;
        in = sp->layer[l].width;
    }
    return train ? 3.0 * f - first : f;
}

/* Random inputs: Gaussian, or one-hot blocks of 16 like 15-puzzle boards. */
static void fill_inputs(hn_rng *r, float *x, int n, int d, int onehot)
{
    for (int i = 0; i < n; i++) {
        float *xi = x + (size_t)i * d;
        if (!onehot) {
            for (int j = 0; j < d; j++)
                xi[j] = (float)hn_rng_gauss(r, 1.0);
            continue;
        }
        memset(xi, 0, sizeof(float) * d);
        for (int b = 0; b + 16 <= d; b += 16)
            xi[b + hn_rng_below(r, 16)] = 1.0f;
    }
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Wall and process-CPU seconds per repetition of body, repeated until
 * `seconds` have passed. On a shared machine CPU time is the steadier
 * measure of a single-threaded run (waiting for a core is not counted). */
struct timing {
    double wall, cpu;
};
#define TIME_LOOP(seconds, body, out)                                                              \
    do {                                                                                           \
        body;                                                                                      \
        body;                                                                                      \
        long reps_ = 0;                                                                            \
        double t0_ = hn_now(), c0_ = cpu_now(), el_;                                               \
        do {                                                                                       \
            body;                                                                                  \
            reps_++;                                                                               \
            el_ = hn_now() - t0_;                                                                  \
        } while (el_ < (seconds) || reps_ < 3);                                                    \
        (out).wall = el_ / reps_;                                                                  \
        (out).cpu = (cpu_now() - c0_) / reps_;                                                     \
    } while (0)

static int widest(const struct nn_spec *sp)
{
    int w = sp->n_inputs;
    for (int l = 0; l < sp->n_layers; l++)
        w = sp->layer[l].width > w ? sp->layer[l].width : w;
    return w;
}

/* The sgemm calls of one step alone, on scratch buffers of the same shapes. */
static int sgemm_only(const struct bench_cfg *c, struct timing *sec)
{
    const struct nn_spec *sp = &c->spec;
    int w = widest(sp), n = c->batch;
    size_t big = (size_t)n * w, wsz = (size_t)w * w;
    float *a = calloc(big, sizeof(float)), *b = calloc(big, sizeof(float)),
          *k = calloc(wsz, sizeof(float));
    if (!a || !b || !k) {
        free(a), free(b), free(k);
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    }
    TIME_LOOP(
        c->seconds / 2,
        {
            int in = sp->n_inputs;
            for (int l = 0; l < sp->n_layers; l++) {
                int out = sp->layer[l].width;
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, out, in, 1.0f, a, in, k,
                            out, 0.0f, b, out);
                if (c->train) {
                    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, in, out, n, 1.0f, a, in, b,
                                out, 0.0f, k, out);
                    if (l > 0)
                        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, in, out, 1.0f, b,
                                    out, k, out, 0.0f, a, in);
                }
                in = out;
            }
        },
        *sec);
    free(a), free(b), free(k);
    return HN_OK;
}

static int time_train(const struct bench_cfg *c, nn_model *m, const float *x, const float *y,
                      struct timing *sec)
{
    int rc = 0;
    size_t np;
    float *p = nn_model_params(m, &np);
    nn_train *t = nn_train_new(m, c->batch, 1, &rc);
    nn_adam *a = t ? nn_adam_new(np, NULL, &rc) : NULL;
    if (a)
        TIME_LOOP(
            c->seconds,
            {
                nn_train_forward(t, x, c->batch, NN_MODE_TRAIN);
                nn_train_loss(t, y, NN_LOSS_MSE, 1.0f);
                nn_train_backward(t);
                nn_adam_step(a, p, nn_train_grad(t));
            },
            *sec);
    nn_adam_free(a);
    nn_train_free(t);
    return rc;
}

static int time_infer(const struct bench_cfg *c, nn_model *m, const float *x, float *y,
                      struct timing *sec)
{
    int rc = 0;
    nn_infer *inf = nn_infer_new(m, c->batch, &rc);
    if (inf)
        TIME_LOOP(c->seconds, nn_infer_run(inf, x, c->batch, y), *sec);
    nn_infer_free(inf);
    return rc;
}

/* The active inputs of each one-hot row, then accumulators and the rest of
 * the network: what a search pays per call without incremental updates. */
static int sparse_call(nn_sparse *sp, const float *x, int n, int d, int *idx, int32_t *acc,
                       float *y)
{
    int stride = nn_sparse_acc_stride(sp);
    for (int r = 0; r < n; r++) {
        int k = 0;
        for (int j = 0; j < d; j++)
            if (x[(size_t)r * d + j] != 0.0f)
                idx[k++] = j;
        nn_sparse_acc_init(sp, idx, k, acc + (size_t)r * stride);
    }
    return nn_sparse_run(sp, acc, n, y);
}

static int time_sparse(const struct bench_cfg *c, nn_model *m, const float *x, float *y,
                       struct timing *sec)
{
    int rc = 0, d = c->spec.n_inputs;
    nn_sparse *sp =
        nn_sparse_new(m, c->engine == ENGINE_Q8 ? NN_SPARSE_Q8 : NN_SPARSE_FLOAT, c->batch, &rc);
    if (sp && (rc = nn_sparse_set_simd(sp, c->simd)))
        goto done;
    int *idx = sp ? malloc(sizeof(int) * d) : NULL;
    int32_t *acc = sp ? nn_sparse_acc_alloc(sp, c->batch) : NULL;
    if (sp && (!idx || !acc))
        rc = hn_fail(HN_ERR_NOMEM, "out of memory");
    else if (sp)
        TIME_LOOP(c->seconds, sparse_call(sp, x, c->batch, d, idx, acc, y), *sec);
    free(idx);
    free(acc);
done:
    nn_sparse_free(sp);
    return rc;
}

static int bench_run(const struct bench_cfg *c, const char *arch)
{
    int rc = 0;
    nn_model *m = nn_model_new(&c->spec, 1, &rc);
    int din = c->spec.n_inputs, dout = c->spec.layer[c->spec.n_layers - 1].width;
    float *x = malloc(sizeof(float) * (size_t)c->batch * din),
          *y = malloc(sizeof(float) * (size_t)c->batch * dout);
    hn_rng *r = hn_rng_new(2);
    struct timing sec = {0, 0}, sg = {0, 0};
    if (!m || !x || !y || !r) {
        rc = rc ? rc : hn_fail(HN_ERR_NOMEM, "out of memory");
        goto done;
    }
    fill_inputs(r, x, c->batch, din, c->onehot);
    for (int i = 0; i < c->batch * dout; i++)
        y[i] = (float)hn_rng_gauss(r, 1.0);
    rc = c->train                    ? time_train(c, m, x, y, &sec)
         : c->engine == ENGINE_DENSE ? time_infer(c, m, x, y, &sec)
                                     : time_sparse(c, m, x, y, &sec);
    if (!rc)
        rc = sgemm_only(c, &sg);
    if (!rc) {
        double fl = flops_per_sample(&c->spec, c->train) * c->batch;
        if (!c->train)
            printf("engine=%s simd=%s ", ENGINE_NAMES[c->engine],
                   c->engine == ENGINE_Q8 ? nn_simd_name(c->simd) : "-");
        printf("mode=%s arch=%s batch=%d threads=%d input=%s samples_per_s=%.1f us_per_call=%.2f "
               "cpu_samples_per_s=%.1f cpu_us_per_call=%.2f gflops=%.2f sgemm_gflops=%.2f "
               "sgemm_bound_samples_per_s=%.1f fraction_of_sgemm=%.3f cpu_fraction_of_sgemm=%.3f\n",
               c->train ? "train" : "infer", arch, c->batch, c->threads,
               c->onehot ? "onehot" : "gauss", c->batch / sec.wall, sec.wall * 1e6,
               c->batch / sec.cpu, sec.cpu * 1e6, fl / sec.wall / 1e9, fl / sg.wall / 1e9,
               c->batch / sg.wall, sg.wall / sec.wall, sg.cpu / sec.cpu);
    }
done:
    free(x), free(y);
    hn_rng_free(r);
    nn_model_free(m);
    return rc ? cli_fail("bench nn") : CLI_EXIT_OK;
}

static void bench_nn_help(const struct nn_layer_defaults *d)
{
    printf("usage: heurnet bench nn --arch SPEC [options]\n\n"
           "Time training steps (forward, MSE, backward, Adam) or inference calls (batch norm\n"
           "folded) on random data, then the same sgemm calls alone. Prints one key=value\n"
           "record: samples_per_s, us_per_call (wall clock), the same from process CPU time\n"
           "(cpu_*), gflops, sgemm_gflops and fraction_of_sgemm.\n\n"
           "  --arch SPEC      network [256-1024-1024-512-128-64-1]\n");
    cli_arch_help(stdout, d);
    printf("  --batch B        rows per step or call [1024]\n"
           "  --threads T      BLAS threads [1]\n"
           "  --mode M         train or infer [train]\n"
           "  --input KIND     gauss, or onehot (16-wide one-hot blocks, like boards) [gauss]\n"
           "  --engine E       infer: dense (nn_infer_run), sparse (accumulators from the\n"
           "                   active inputs, float) or q8 (the same, int8 layers); sparse\n"
           "                   and q8 need --input onehot [dense]\n"
           "  --simd K         q8 kernel: scalar, avx2 or avx512vnni [best this CPU runs: %s]\n"
           "  --seconds S      time each measurement for about S seconds [3]\n"
           "  -h, --help       this help\n",
           nn_simd_name(nn_simd_best()));
}

static int bench_nn(int argc, char **argv)
{
    static const struct option opts[] = {{"arch", required_argument, NULL, 'a'},
                                         CLI_ARCH_LONGOPTS,
                                         {"batch", required_argument, NULL, 'b'},
                                         {"threads", required_argument, NULL, 't'},
                                         {"mode", required_argument, NULL, 'm'},
                                         {"input", required_argument, NULL, 'i'},
                                         {"seconds", required_argument, NULL, 's'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"engine", required_argument, NULL, 'e'},
                                         {"simd", required_argument, NULL, 'k'},
                                         {NULL, 0, NULL, 0}};
    struct nn_layer_defaults d = cli_arch_defaults();
    struct bench_cfg c = {
        .batch = 1024, .threads = 1, .train = 1, .seconds = 3.0, .simd = nn_simd_best()};
    const char *arch = "256-1024-1024-512-128-64-1";
    long v;
    int ch, rc;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if ((rc = cli_arch_option("bench nn", ch, optarg, &d)) == 1)
            continue;
        else if (rc)
            return rc;
        switch (ch) {
        case 'a':
            arch = optarg;
            break;
        case 'b':
        case 't':
            if (cli_parse_long(optarg, 1, ch == 'b' ? 1 << 20 : 256, &v))
                return cli_usage("bench nn", "--%s: expected a positive integer, got '%s'",
                                 ch == 'b' ? "batch" : "threads", optarg);
            *(ch == 'b' ? &c.batch : &c.threads) = (int)v;
            break;
        case 'm':
            if (strcmp(optarg, "train") && strcmp(optarg, "infer"))
                return cli_usage("bench nn", "--mode: expected train or infer, got '%s'", optarg);
            c.train = !strcmp(optarg, "train");
            break;
        case 'i':
            if (strcmp(optarg, "gauss") && strcmp(optarg, "onehot"))
                return cli_usage("bench nn", "--input: expected gauss or onehot, got '%s'", optarg);
            c.onehot = !strcmp(optarg, "onehot");
            break;
        case 's':
            if (cli_parse_double(optarg, &c.seconds) || c.seconds <= 0)
                return cli_usage("bench nn", "--seconds: expected a positive number, got '%s'",
                                 optarg);
            break;
        case 'e':
            for (c.engine = 2; c.engine >= 0 && strcmp(optarg, ENGINE_NAMES[c.engine]); c.engine--)
                ;
            if (c.engine < 0)
                return cli_usage("bench nn", "--engine: expected dense, sparse or q8, got '%s'",
                                 optarg);
            break;
        case 'k':
            if (nn_simd_parse(optarg, &c.simd) || !nn_simd_supported(c.simd))
                return cli_usage("bench nn",
                                 "--simd: '%s' is not a kernel this CPU runs (best: %s)", optarg,
                                 nn_simd_name(nn_simd_best()));
            break;
        case 'h':
            bench_nn_help(&d);
            return CLI_EXIT_OK;
        default:
            return cli_usage("bench nn", "unknown option");
        }
    }
    if (optind < argc)
        return cli_usage("bench nn", "unexpected argument '%s'", argv[optind]);
    if ((rc = cli_arch_parse("bench nn", arch, &d, &c.spec)))
        return rc;
    if (c.engine != ENGINE_DENSE && (c.train || !c.onehot))
        return cli_usage("bench nn", "--engine %s needs --mode infer --input onehot",
                         ENGINE_NAMES[c.engine]);
    if (c.train && c.batch < 2)
        return cli_usage("bench nn", "--mode train needs --batch >= 2 (batch norm)");
    nn_blas_threads(c.threads);
    return bench_run(&c, arch);
}

static const struct cli_subcmd benches[] = {
    {"nn", bench_nn, "training / inference throughput of a network vs. sgemm alone"},
    {"search", cli_bench_search_dom, "searches with networks next to an admissible baseline"},
};

int cmd_bench(int argc, char **argv)
{
    return cli_subcmd_run("bench", benches, sizeof benches / sizeof benches[0], argc, argv);
}
