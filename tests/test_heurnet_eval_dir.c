/* The report folder of heurnet eval (solve/eval_dir.c): a private folder
 * made empty, an existing report kept unless forced, and a folder holding
 * a file the report does not write never removed. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "common/hn.h"
#include "solve/eval_report.h"

static void touch(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f)
        fclose(f);
}

static int is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

int main(void)
{
    const char *const *files = heurnet_eval_report_files;
    char part[512];
    heurnet_eval_dir_remove("eval_dir_t", files);
    CHECK(heurnet_eval_dir_prepare("eval_dir_t", 0, files, part, sizeof part) == 0);
    CHECK(is_dir(part) && strstr(part, "eval_dir_t.") == part);
    touch(part, "summary.md");
    touch(part, "plots.gp");
    CHECK(rename(part, "eval_dir_t") == 0);

    /* an existing report: refused without force, kept with it until renamed */
    CHECK(heurnet_eval_dir_prepare("eval_dir_t", 0, files, part, sizeof part) == HN_ERR_IO);
    CHECK(strstr(hn_errmsg(), "use --force") != NULL);
    CHECK(heurnet_eval_dir_prepare("eval_dir_t", 1, files, part, sizeof part) == 0);
    CHECK(is_dir("eval_dir_t") && is_dir(part));
    CHECK(heurnet_eval_dir_remove(part, files) == 0 && !is_dir(part));

    /* the report's own files go; a foreign one keeps the folder */
    touch("eval_dir_t", "mine.txt");
    CHECK(heurnet_eval_dir_remove("eval_dir_t", files) == HN_ERR_IO);
    CHECK(strstr(hn_errmsg(), "cannot replace") != NULL);
    CHECK(is_dir("eval_dir_t") && access("eval_dir_t/summary.md", F_OK) != 0);
    CHECK(unlink("eval_dir_t/mine.txt") == 0);
    CHECK(heurnet_eval_dir_remove("eval_dir_t", files) == 0);
    CHECK(!is_dir("eval_dir_t"));
    /* a missing folder is already removed */
    CHECK(heurnet_eval_dir_remove("eval_dir_t", files) == 0);

    /* a name that does not fit */
    char small[8];
    CHECK(heurnet_eval_dir_prepare("eval_dir_t", 0, files, small, sizeof small) == HN_ERR_ARG);
    return CHECK_DONE();
}
