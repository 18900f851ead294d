/* heurnet export: write a model file for another solver (ONNX, Keras
 * weights, C source, npy folder). The library writes atomically; this file
 * decides names, refuses to clobber what exists unless --force, and prints
 * what was written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "common/hn.h"
#include "nn/export.h"
#include "nn/nn.h"

#define PATH_CAP 4096

struct export_opts {
    const char *model, *format, *out, *name;
    int force;
};

#define EO(f) offsetof(struct export_opts, f)
static const struct cli_opt export_opts[] = {
    CLI_STR("model", EO(model), "F", "heurnet model file [required]"),
    CLI_STR("format", EO(format), "NAME",
            "onnx, keras, c, npy [from OUT's extension: .onnx, .h5, .c/.h]"),
    CLI_STRL('o', "output", EO(out), "P", "output file, folder (npy) or base path (c) [required]"),
    CLI_STR("name", EO(name), "NAME",
            "C identifier prefixing the generated functions (c) [OUT's file name]"),
    CLI_FLAG("force", EO(force), 1, "replace existing outputs [off]"),
    CLI_END};
static const struct cli_opt_cmd export_cmd = {
    .cmd = "export",
    .usage =
        "export --model M.h5 --format onnx|keras|c|npy -o OUT [options]\n\n"
        "Write the model for another solver; outputs are written under a temporary name\n"
        "and renamed when complete.\n"
        "  onnx   OUT.onnx: opset 13, input x [N, inputs], output h [N, outputs] (in moves)\n"
        "  keras  OUT.h5: Keras weights file; the Python that builds the model goes to stdout\n"
        "  c      OUT.h + OUT.c: float NAME_eval(const float *x), no dependencies\n"
        "  npy    folder OUT/ of .npy arrays + model.json\n\n",
    .opts = export_opts};

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* --format, or guessed from the output's extension. */
static int pick_format(const struct export_opts *o, enum nn_export_format *fmt)
{
    if (o->format) {
        if (nn_export_format_parse(o->format, fmt))
            return cli_usage("export", "--format: %s", hn_errmsg());
        return 0;
    }
    if (ends_with(o->out, ".onnx"))
        *fmt = NN_EXPORT_ONNX;
    else if (ends_with(o->out, ".h5"))
        *fmt = NN_EXPORT_KERAS;
    else if (ends_with(o->out, ".c") || ends_with(o->out, ".h"))
        *fmt = NN_EXPORT_C;
    else
        return cli_usage("export", "--format is required (cannot tell it from '%s')", o->out);
    return 0;
}

/* A file output: one the library refuses to replace fails (exit 1), the
 * model file itself is misuse (2). */
static int check_file_target(const struct export_opts *o, const char *path)
{
    int st = nn_export_target_check(path, o->model, o->force);
    return st == HN_ERR_ARG ? cli_usage("export", "%s", hn_errmsg()) : st ? cli_fail("export") : 0;
}

static int export_npy(const struct export_opts *o, const nn_model *m, const char *what)
{
    int stale, st = nn_export_npy_replace(m, o->out, o->force, &stale);
    if (stale)
        fprintf(stderr, "heurnet: export: warning: could not remove the previous export %s.old\n",
                o->out);
    return st ? cli_fail(what) : 0;
}

/* ---- the command ------------------------------------------------------- */

static int run(const struct export_opts *o, enum nn_export_format fmt, const nn_model *m,
               const char *what)
{
    char h[PATH_CAP], c[PATH_CAP], name[65];
    int rc;
    switch (fmt) {
    case NN_EXPORT_ONNX:
    case NN_EXPORT_KERAS:
        if ((rc = check_file_target(o, o->out)))
            return rc;
        if (fmt == NN_EXPORT_ONNX ? nn_export_onnx(m, o->out) : nn_export_keras(m, o->out))
            return cli_fail(what);
        if (fmt == NN_EXPORT_KERAS) {
            printf("# format=keras output=%s\n", o->out);
            return nn_export_keras_snippet(m, o->out, stdout) ? cli_fail(what) : 0;
        }
        printf("format=onnx output=%s\n", o->out);
        return 0;
    case NN_EXPORT_C:
        if (nn_export_c_paths(o->out, h, c, name, sizeof h))
            return cli_usage("export", "-o: %s", hn_errmsg());
        if ((rc = check_file_target(o, h)) || (rc = check_file_target(o, c)))
            return rc;
        if (nn_export_c(m, o->name ? o->name : name, h, c))
            return cli_fail(what);
        printf("format=c header=%s source=%s function=%s_eval\n", h, c, o->name ? o->name : name);
        return 0;
    case NN_EXPORT_NPY:
        if ((rc = export_npy(o, m, what)))
            return rc;
        printf("format=npy output=%s\n", o->out);
        return 0;
    }
    return cli_usage("export", "unknown format");
}

static int parse(int argc, char **argv, struct export_opts *o)
{
    int nargs, rc = cli_opt_parse(&export_cmd, o, argc, argv, &nargs);
    if (rc)
        return rc;
    if (!o->model)
        return cli_usage("export", "--model is required");
    if (!o->out || !*o->out)
        return cli_usage("export", "-o OUT is required");
    return 0;
}

int cmd_export(int argc, char **argv)
{
    struct export_opts o = {0};
    enum nn_export_format fmt;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    if ((rc = pick_format(&o, &fmt)))
        return rc;
    if (o.name && fmt != NN_EXPORT_C)
        return cli_usage("export", "--name applies to --format c only");
    if (o.name && !nn_export_c_name_ok(o.name))
        return cli_usage("export",
                         "--name: '%s' is not a C identifier (letters, digits, _; at most 64)",
                         o.name);
    char out[PATH_CAP];
    if ((size_t)snprintf(out, sizeof out, "%s", o.out) >= sizeof out)
        return cli_usage("export", "-o: path too long");
    for (size_t n = strlen(out); fmt == NN_EXPORT_NPY && n > 1 && out[n - 1] == '/'; n--)
        out[n - 1] = 0; /* "dir/" names the folder dir */
    o.out = out;
    nn_model *m = nn_model_load(o.model, &rc);
    if (!m)
        return cli_fail("export");
    char what[PATH_CAP + 32];
    snprintf(what, sizeof what, "export %s as %s", o.model, nn_export_format_name(fmt));
    if (nn_export_check(m, fmt))
        rc = cli_fail(what);
    else
        rc = run(&o, fmt, m, what);
    nn_model_free(m);
    if (!rc && fflush(stdout) != 0) {
        fprintf(stderr, "heurnet: export: cannot write to standard output\n");
        rc = CLI_EXIT_FAIL;
    }
    return rc;
}
