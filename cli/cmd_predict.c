/* heurnet predict: run a model over input rows and print one output line per
 * row. Inputs come from a "row source"; today the float dataset of an HDF5
 * file (--data X.h5 --x /x). Another mode (e.g. puzzle instances through an
 * encoder) plugs in as another source with the same next/close pair. */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "common/hn.h"
#include "common/hn_h5.h"
#include "nn/nn.h"

/* A source of input rows of `width` floats. next() fills up to `cap` rows
 * and sets *rows (0 at the end); returns 0 or a status with hn_fail's message. */
struct row_source {
    int width;
    long long total; /* rows, or -1 if unknown */
    int (*next)(struct row_source *s, float *x, int cap, int *rows);
    void (*close)(struct row_source *s);
    void *impl;
};

/* ---- HDF5 float dataset ------------------------------------------------ */

struct h5_rows {
    const char *path, *name;
    hid_t file, dset;
    hsize_t n, d, cursor;
};

static int h5_next(struct row_source *s, float *x, int cap, int *rows)
{
    struct h5_rows *h = s->impl;
    hsize_t k = h->n - h->cursor < (hsize_t)cap ? h->n - h->cursor : (hsize_t)cap;
    *rows = (int)k;
    if (k == 0)
        return HN_OK;
    hid_t fs = H5Dget_space(h->dset);
    hsize_t start[2] = {h->cursor, 0}, count[2] = {k, h->d};
    hid_t ms = H5Screate_simple(2, count, NULL);
    int ok = fs >= 0 && ms >= 0 &&
             H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
             H5Dread(h->dset, H5T_NATIVE_FLOAT, ms, fs, H5P_DEFAULT, x) >= 0;
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    if (!ok)
        return hn_fail(HN_ERR_FORMAT,
                       "%s: %s: rows %llu..%llu cannot be read (truncated or damaged file)",
                       h->path, h->name, (unsigned long long)h->cursor,
                       (unsigned long long)(h->cursor + k - 1));
    for (hsize_t i = 0; i < k * h->d; i++)
        if (!isfinite(x[i]))
            return hn_fail(HN_ERR_NAN, "%s: %s: row %llu holds NaN or infinity", h->path, h->name,
                           (unsigned long long)(h->cursor + i / h->d));
    h->cursor += k;
    return HN_OK;
}

static void h5_close(struct row_source *s)
{
    struct h5_rows *h = s->impl;
    if (!h)
        return;
    if (h->dset >= 0)
        H5Dclose(h->dset);
    if (h->file >= 0)
        H5Fclose(h->file);
    free(h);
    s->impl = NULL;
}

/* Open name in path as [rows, want] numbers. The width is checked against
 * the model here, as a 64-bit count: an int cast of 2^32 + want columns
 * would pass and let a read overflow the row buffer. */
static int h5_open(struct row_source *s, const char *path, const char *name, int want)
{
    struct h5_rows *h = calloc(1, sizeof *h);
    if (!h)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    *h = (struct h5_rows){.path = path, .name = name, .file = -1, .dset = -1};
    *s = (struct row_source){.next = h5_next, .close = h5_close, .impl = h};
    h->file = hn_h5_open_read(path);
    if (h->file < 0)
        return (int)h->file;
    if (H5Lexists(h->file, name, H5P_DEFAULT) <= 0 ||
        (h->dset = H5Dopen2(h->file, name, H5P_DEFAULT)) < 0)
        return hn_fail(HN_ERR_FORMAT, "%s: dataset %s is missing", path, name);
    hid_t t = H5Dget_type(h->dset), sp = H5Dget_space(h->dset);
    H5T_class_t c = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    size_t size = t >= 0 ? H5Tget_size(t) : 0;
    int rank = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
    hsize_t dims[2] = {0, 0};
    if (rank == 2 && H5Sget_simple_extent_dims(sp, dims, NULL) < 0)
        rank = -1;
    if (t >= 0)
        H5Tclose(t);
    if (sp >= 0)
        H5Sclose(sp);
    if ((c != H5T_FLOAT && c != H5T_INTEGER) || size > 8)
        return hn_fail(HN_ERR_FORMAT, "%s: %s is not an array of numbers (integer or float)", path,
                       name);
    int bad = hn_h5_dset_check(h->dset, path, name);
    if (bad)
        return bad;
    if (rank != 2)
        return hn_fail(HN_ERR_SHAPE, "%s: %s has rank %d, expected a 2-d [rows, features] array",
                       path, name, rank);
    if (dims[1] != (hsize_t)want)
        return hn_fail(HN_ERR_SHAPE, "%s: %s has %llu columns but the model reads %d inputs", path,
                       name, (unsigned long long)dims[1], want);
    h->n = dims[0];
    h->d = dims[1];
    s->width = want;
    s->total = dims[0] > (hsize_t)LLONG_MAX ? -1 : (long long)dims[0];
    return HN_OK;
}

/* ---- the command ------------------------------------------------------- */

static void help(void)
{
    printf("usage: heurnet predict --model M.h5 --data X.h5 [--x /x] [options]\n\n"
           "Evaluate the model on every row of a float dataset and print one line per row\n"
           "(outputs tab-separated when the model has several), target scaling applied.\n\n"
           "  --model F     model file [required]\n"
           "  --data F      HDF5 file with the input rows [required]\n"
           "  --x NAME      dataset of [rows, inputs] numbers [/x]\n"
           "  --instances F instead of --data: an instance file of the model's domain (or\n"
           "                --domain's); prints id<TAB>estimate, the residual base added\n"
           "  --domain D    the domain of --instances [the model's]\n"
           "  --goal G      n-puzzle: goal layout of --instances boards, blank-first or\n"
           "                blank-last (a model of the other layout reads them renamed)\n"
           "                [the domain's]\n"
           "  --engine E    --instances: float or q8 network layers [float]\n"
           "  --batch B     rows per network call [1024]\n"
           "  --threads T   BLAS threads [1]\n"
           "  -h, --help    this help\n");
}

/* Run the model over every row of src, printing outputs. */
static int predict_rows(const nn_model *m, struct row_source *src, int batch)
{
    int din = nn_model_inputs(m), dout = nn_model_outputs(m), rc = 0, rows;
    uint64_t printed = 0;
    /* The buffers hold what the source is asked for, never more. */
    nn_infer *inf = nn_infer_new(m, batch, &rc);
    float *x = malloc(sizeof(float) * (size_t)batch * din),
          *y = malloc(sizeof(float) * (size_t)batch * dout);
    if (!inf || !x || !y) {
        rc = rc ? rc : hn_fail(HN_ERR_NOMEM, "out of memory");
        goto done;
    }
    while (!(rc = src->next(src, x, batch, &rows)) && rows > 0) {
        if ((rc = nn_infer_run(inf, x, rows, y)))
            break;
        for (size_t i = 0; i < (size_t)rows * dout; i++)
            if (!isfinite(y[i])) {
                rc = hn_fail(HN_ERR_NAN, "the prediction for row %llu is not a finite number",
                             (unsigned long long)(printed + i / (size_t)dout));
                goto done;
            }
        printed += (uint64_t)rows;
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < dout; j++)
                printf("%.9g%c", (double)y[(size_t)i * dout + j], j + 1 < dout ? '\t' : '\n');
    }
done:
    free(x);
    free(y);
    nn_infer_free(inf);
    return rc;
}

int cmd_predict(int argc, char **argv)
{
    static const struct option opts[] = {{"model", required_argument, NULL, 'm'},
                                         {"data", required_argument, NULL, 'd'},
                                         {"x", required_argument, NULL, 'x'},
                                         {"batch", required_argument, NULL, 'b'},
                                         {"threads", required_argument, NULL, 't'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"instances", required_argument, NULL, 'i'},
                                         {"goal", required_argument, NULL, 'g'},
                                         {"domain", required_argument, NULL, 'D'},
                                         {"engine", required_argument, NULL, 'e'},
                                         {NULL, 0, NULL, 0}};
    const char *model = NULL, *data = NULL, *xname = "/x", *instances = NULL, *goal = NULL,
               *domain = NULL;
    long batch = 1024, threads = 1;
    int c, engine = SRCH_DOM_ENGINE_FLOAT;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'm':
            model = optarg;
            break;
        case 'd':
            data = optarg;
            break;
        case 'x':
            xname = optarg;
            break;
        case 'i':
            instances = optarg;
            break;
        case 'g':
            goal = optarg;
            break;
        case 'D':
            domain = optarg;
            break;
        case 'e':
            if (strcmp(optarg, "float") && strcmp(optarg, "q8"))
                return cli_usage("predict", "--engine: float or q8, not '%s'", optarg);
            engine = strcmp(optarg, "q8") ? SRCH_DOM_ENGINE_FLOAT : SRCH_DOM_ENGINE_Q8;
            break;
        case 'b':
            if (cli_parse_long(optarg, 1, 1 << 20, &batch))
                return cli_usage("predict", "--batch: expected 1..%d, got '%s'", 1 << 20, optarg);
            break;
        case 't':
            if (cli_parse_long(optarg, 1, 256, &threads))
                return cli_usage("predict", "--threads: expected 1..256, got '%s'", optarg);
            break;
        case 'h':
            help();
            return CLI_EXIT_OK;
        default:
            return cli_usage("predict", "unknown option");
        }
    }
    if (optind < argc)
        return cli_usage("predict", "unexpected argument '%s'", argv[optind]);
    if (!model)
        return cli_usage("predict", "--model is required");
    nn_blas_threads((int)threads);
    cli_log_init(0); /* a model without a checksum is read with a warning */
    if (instances)
        return cli_dom_predict(model, instances, domain, goal, engine, (int)batch);
    if (!data)
        return cli_usage("predict", "--data is required");
    int rc;
    nn_model *m = nn_model_load(model, &rc);
    if (!m)
        return cli_fail("predict");
    struct row_source src = {0};
    rc = h5_open(&src, data, xname, nn_model_inputs(m));
    if (!rc)
        rc = predict_rows(m, &src, (int)batch);
    if (src.close)
        src.close(&src);
    nn_model_free(m);
    if (fflush(stdout) != 0 && !rc)
        rc = hn_fail(HN_ERR_IO, "cannot write to standard output");
    return rc ? cli_fail("predict") : CLI_EXIT_OK;
}
