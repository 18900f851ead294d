/* The report folder of heurnet eval: built under a private name and renamed
 * when complete, so a report is never seen half-written; and only the
 * report's own files are ever removed. A folder --force replaces is moved
 * aside, the new one renamed in, and only then the old one removed. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/hn.h"
#include "solve/eval_report.h"

const char *const heurnet_eval_report_files[] = {
    "instances.tsv",       "summary.md", "plots.gp",       "length.png", "diff.png", "seconds.png",
    "heuristic_error.png", "excess.png", "expansions.png", "plots.log",  NULL};

int heurnet_eval_dir_remove(const char *dir, const char *const *files)
{
    char path[4600];
    for (size_t i = 0; files[i]; i++)
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, files[i]) < sizeof path)
            unlink(path);
    if (rmdir(dir) && errno != ENOENT)
        return hn_fail(HN_ERR_IO, "cannot replace %s: %s (it holds files eval did not write?)", dir,
                       strerror(errno));
    return HN_OK;
}

/* "rep/" and "rep//" are the folder rep: without the slashes the private
 * names sit next to it, not inside it. */
static int dir_norm(const char *dir, char *out, size_t cap)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (n == 0 || n >= cap)
        return hn_fail(HN_ERR_ARG, "report folder '%s': %s", dir, n ? "path too long" : "empty");
    memcpy(out, dir, n);
    out[n] = 0;
    return HN_OK;
}

static int is_report_file(const char *name, const char *const *files)
{
    for (size_t i = 0; files[i]; i++)
        if (!strcmp(name, files[i]))
            return 1;
    return 0;
}

/* What --force may replace: nothing there, or a folder holding only files
 * a report has; checked before any work, and again just before the swap. */
static int replaceable(const char *dir, int force, const char *const *files)
{
    struct stat sb;
    if (lstat(dir, &sb) != 0)
        return errno == ENOENT
                   ? HN_OK
                   : hn_fail(HN_ERR_IO, "%s: cannot look at it: %s", dir, strerror(errno));
    if (!force)
        return hn_fail(HN_ERR_IO, "%s exists (use --force to replace it)", dir);
    if (!S_ISDIR(sb.st_mode))
        return hn_fail(HN_ERR_IO, "%s exists and is not a report folder: not replacing it", dir);
    DIR *d = opendir(dir);
    if (!d)
        return hn_fail(HN_ERR_IO, "%s: cannot read it: %s", dir, strerror(errno));
    struct dirent *e;
    int rc = HN_OK;
    while (!rc && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && !is_report_file(e->d_name, files))
            rc = hn_fail(HN_ERR_IO,
                         "%s holds %s, which eval does not write: not replacing it (remove it "
                         "or choose another -o)",
                         dir, e->d_name);
    closedir(d);
    return rc;
}

int heurnet_eval_dir_prepare(const char *dir, int force, const char *const *files, char *part,
                             size_t cap)
{
    char d[4096];
    int st = dir_norm(dir, d, sizeof d);
    if (!st)
        st = hn_part_path(d, part, cap);
    if (!st)
        st = replaceable(d, force, files);
    if (!st)
        st = heurnet_eval_dir_remove(part, files);
    if (!st && mkdir(part, 0755))
        st = hn_fail(HN_ERR_IO, "cannot create %s: %s", part, strerror(errno));
    return st;
}

int heurnet_eval_dir_commit(const char *dir, int force, const char *part, const char *const *files)
{
    char d[4096], old[4200];
    int st = dir_norm(dir, d, sizeof d);
    if (!st && (size_t)snprintf(old, sizeof old, "%s.old", part) >= sizeof old)
        st = hn_fail(HN_ERR_ARG, "%s: path too long", part);
    if (!st)
        st = replaceable(d, force, files);
    if (st)
        return st;
    int had = rename(d, old) == 0; /* the old report stays whole until the new one is in */
    if (!had && errno != ENOENT)
        return hn_fail(HN_ERR_IO, "cannot move %s aside to %s: %s", d, old, strerror(errno));
    if (rename(part, d) != 0) {
        int e = errno;
        if (had)
            rename(old, d);
        return hn_fail(HN_ERR_IO, "cannot rename %s to %s: %s", part, d, strerror(e));
    }
    if (had)
        heurnet_eval_dir_remove(old, files);
    return HN_OK;
}
