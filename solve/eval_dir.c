/* The report folder of heurnet eval: built under a private name and renamed
 * when complete, so a report is never seen half-written; and only the
 * report's own files are ever removed. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/hn.h"
#include "solve/eval_report.h"

const char *const heurnet_eval_report_files[] = {
    "instances.tsv", "summary.md",     "plots.gp",  "heuristic_error.png",
    "excess.png",    "expansions.png", "plots.log", NULL};
const char *const heurnet_dom_eval_report_files[] = {"instances.tsv", "summary.md", "plots.gp",
                                                     "length.png",    "diff.png",   "seconds.png",
                                                     "plots.log",     NULL};

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

int heurnet_eval_dir_prepare(const char *dir, int force, const char *const *files, char *part,
                             size_t cap)
{
    struct stat sb;
    int st = hn_part_path(dir, part, cap);
    if (st)
        return st;
    if (stat(dir, &sb) == 0 && !force)
        return hn_fail(HN_ERR_IO, "%s exists (use --force to replace it)", dir);
    if ((st = heurnet_eval_dir_remove(part, files)))
        return st;
    if (mkdir(part, 0755))
        return hn_fail(HN_ERR_IO, "cannot create %s: %s", part, strerror(errno));
    return HN_OK;
}
