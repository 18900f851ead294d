/* Where an export may write (nn/export.h): a file export never replaces
 * the model it reads or a folder, and an existing file only when asked; an
 * npy export replaces only an earlier npy export, moved aside until the
 * new folder is complete. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/hn.h"
#include "nn/export.h"

#define PATH_CAP 4096

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

int nn_export_target_check(const char *path, const char *model, int force)
{
    struct stat st;
    if (same_file(path, model))
        return hn_fail(HN_ERR_ARG, "output %s is the model file itself", path);
    if (stat(path, &st) != 0)
        return HN_OK;
    if (S_ISDIR(st.st_mode))
        return hn_fail(HN_ERR_IO, "%s is a folder, not a file", path);
    if (!force)
        return hn_fail(HN_ERR_IO, "%s exists (use --force to replace it)", path);
    return HN_OK;
}

int nn_export_c_paths(const char *out, char *h, char *c, char *name, size_t cap)
{
    char base[PATH_CAP];
    snprintf(base, sizeof base, "%s", out);
    if (ends_with(base, ".c") || ends_with(base, ".h"))
        base[strlen(base) - 2] = 0;
    const char *file = strrchr(base, '/') ? strrchr(base, '/') + 1 : base;
    if (!*file)
        return hn_fail(HN_ERR_ARG, "'%s' names no file", out);
    if ((size_t)snprintf(h, cap, "%s.h", base) >= cap ||
        (size_t)snprintf(c, cap, "%s.c", base) >= cap)
        return hn_fail(HN_ERR_ARG, "path too long");
    size_t k = 0;
    if (*file >= '0' && *file <= '9')
        name[k++] = '_';
    for (; *file && k < 64; file++)
        name[k++] = (char)((*file >= 'a' && *file <= 'z') || (*file >= 'A' && *file <= 'Z') ||
                                   (*file >= '0' && *file <= '9')
                               ? *file
                               : '_');
    name[k] = 0;
    return HN_OK;
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

int nn_export_npy_replace(const nn_model *m, const char *dir, int force, int *stale)
{
    struct stat st;
    char old[PATH_CAP + 8];
    int aside = 0;
    *stale = 0;
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode) || !is_npy_export(dir))
            return hn_fail(HN_ERR_IO, "%s exists and is not an npy export; not replacing it", dir);
        if (!force)
            return hn_fail(HN_ERR_IO, "%s exists (use --force to replace it)", dir);
        snprintf(old, sizeof old, "%s.old", dir);
        if (rename(dir, old) != 0)
            return hn_fail(HN_ERR_IO, "cannot move %s aside to %s: %s", dir, old, strerror(errno));
        aside = 1;
    }
    int rc = nn_export_npy(m, dir);
    if (rc && aside)
        rename(old, dir);
    else if (aside && npy_remove_old(old) != 0)
        *stale = 1;
    return rc;
}
