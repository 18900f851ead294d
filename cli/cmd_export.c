/* heurnet export: write a model file for another solver (ONNX, Keras
 * weights, C source, npy folder). The library writes atomically; this file
 * decides names, refuses to clobber what exists unless --force, and prints
 * what was written. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/hn.h"
#include "nn/export.h"
#include "nn/nn.h"

#define PATH_CAP 4096

struct export_opts {
    const char *model, *format, *out, *name;
    int force;
};

static void help(void)
{
    printf(
        "usage: heurnet export --model M.h5 --format onnx|keras|c|npy -o OUT [options]\n\n"
        "Write the model for another solver; outputs are written under a temporary name\n"
        "and renamed when complete.\n"
        "  onnx   OUT.onnx: opset 13, input x [N, inputs], output h [N, outputs] (in moves)\n"
        "  keras  OUT.h5: Keras weights file; the Python that builds the model goes to stdout\n"
        "  c      OUT.h + OUT.c: float NAME_eval(const float *x), no dependencies\n"
        "  npy    folder OUT/ of .npy arrays + model.json\n\n"
        "  --model F       heurnet model file [required]\n"
        "  --format NAME   onnx, keras, c, npy [from OUT's extension: .onnx, .h5, .c/.h]\n"
        "  -o, --output P  output file, folder (npy) or base path (c) [required]\n"
        "  --name NAME     C identifier prefixing the generated functions (c) [OUT's file name]\n"
        "  --force         replace existing outputs [off]\n"
        "  -h, --help      this help\n");
}

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

/* C output: OUT, OUT.c or OUT.h all name the pair OUT.h + OUT.c; the
 * default function prefix is OUT's file name made an identifier. */
static int c_paths(const struct export_opts *o, char *h, char *c, char *name, size_t cap)
{
    char base[PATH_CAP];
    snprintf(base, sizeof base, "%s", o->out);
    if (ends_with(base, ".c") || ends_with(base, ".h"))
        base[strlen(base) - 2] = 0;
    const char *file = strrchr(base, '/') ? strrchr(base, '/') + 1 : base;
    if (!*file)
        return cli_usage("export", "-o: '%s' names no file", o->out);
    if ((size_t)snprintf(h, cap, "%s.h", base) >= cap ||
        (size_t)snprintf(c, cap, "%s.c", base) >= cap)
        return cli_usage("export", "-o: path too long");
    if (o->name) {
        if (!nn_export_c_name_ok(o->name))
            return cli_usage("export",
                             "--name: '%s' is not a C identifier (letters, digits, _; at most 64)",
                             o->name);
        snprintf(name, 65, "%s", o->name);
        return 0;
    }
    size_t k = 0;
    if (*file >= '0' && *file <= '9')
        name[k++] = '_';
    for (; *file && k < 64; file++)
        name[k++] = (char)((*file >= 'a' && *file <= 'z') || (*file >= 'A' && *file <= 'Z') ||
                                   (*file >= '0' && *file <= '9')
                               ? *file
                               : '_');
    name[k] = 0;
    return 0;
}

/* ---- collisions -------------------------------------------------------- */

static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* A file output may replace an existing regular file only with --force. */
static int check_file_target(const struct export_opts *o, const char *path)
{
    struct stat st;
    if (same_file(path, o->model))
        return cli_usage("export", "output %s is the model file itself", path);
    if (stat(path, &st) != 0)
        return 0;
    if (S_ISDIR(st.st_mode)) {
        fprintf(stderr, "heurnet: export: %s is a folder, not a file\n", path);
        return CLI_EXIT_FAIL;
    }
    if (!o->force) {
        fprintf(stderr, "heurnet: export: %s exists (use --force to replace it)\n", path);
        return CLI_EXIT_FAIL;
    }
    return 0;
}

/* Remove a previous npy export: only its own files, then the folder. */
static int npy_remove_old(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *e;
    char full[PATH_CAP + 300];
    while ((e = readdir(d))) {
        const char *n = e->d_name;
        if ((!strncmp(n, "layer", 5) && ends_with(n, ".npy")) || !strcmp(n, "model.json")) {
            snprintf(full, sizeof full, "%s/%s", dir, n);
            unlink(full);
        }
    }
    closedir(d);
    return rmdir(dir);
}

static int is_npy_export(const char *dir)
{
    char json[PATH_CAP + 16];
    snprintf(json, sizeof json, "%s/model.json", dir);
    FILE *f = fopen(json, "r");
    char head[256] = {0};
    if (!f)
        return 0;
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = 0;
    return strstr(head, "\"heurnet-npy\"") != NULL;
}

/* npy into a folder: an existing export is moved aside, replaced, and
 * removed only after the new folder is in place. */
static int export_npy(const struct export_opts *o, const nn_model *m, const char *what)
{
    struct stat st;
    char old[PATH_CAP + 8];
    int aside = 0;
    if (stat(o->out, &st) == 0) {
        if (!S_ISDIR(st.st_mode) || !is_npy_export(o->out)) {
            fprintf(stderr,
                    "heurnet: export: %s exists and is not an npy export; not replacing it\n",
                    o->out);
            return CLI_EXIT_FAIL;
        }
        if (!o->force) {
            fprintf(stderr, "heurnet: export: %s exists (use --force to replace it)\n", o->out);
            return CLI_EXIT_FAIL;
        }
        snprintf(old, sizeof old, "%s.old", o->out);
        if (rename(o->out, old) != 0) {
            fprintf(stderr, "heurnet: export: cannot move %s aside to %s: %s\n", o->out, old,
                    strerror(errno));
            return CLI_EXIT_FAIL;
        }
        aside = 1;
    }
    int rc = nn_export_npy(m, o->out);
    if (rc) {
        if (aside)
            rename(old, o->out);
        return cli_fail(what);
    }
    if (aside && npy_remove_old(old) != 0)
        fprintf(stderr, "heurnet: export: warning: could not remove the previous export %s\n", old);
    return 0;
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
        if ((rc = c_paths(o, h, c, name, sizeof h)) || (rc = check_file_target(o, h)) ||
            (rc = check_file_target(o, c)))
            return rc;
        if (nn_export_c(m, name, h, c))
            return cli_fail(what);
        printf("format=c header=%s source=%s function=%s_eval\n", h, c, name);
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
    static const struct option opts[] = {{"model", required_argument, NULL, 'm'},
                                         {"format", required_argument, NULL, 'f'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"name", required_argument, NULL, 'n'},
                                         {"force", no_argument, NULL, 'F'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'm':
            o->model = optarg;
            break;
        case 'f':
            o->format = optarg;
            break;
        case 'o':
            o->out = optarg;
            break;
        case 'n':
            o->name = optarg;
            break;
        case 'F':
            o->force = 1;
            break;
        case 'h':
            help();
            return -1;
        default:
            return cli_usage("export", "unknown option");
        }
    }
    if (optind < argc)
        return cli_usage("export", "unexpected argument '%s'", argv[optind]);
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
