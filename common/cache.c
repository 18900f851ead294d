/* Files a shared cache folder holds, made once (hn.h, "cache files"): the
 * maker holds the file's lock while it builds and renames the file into
 * place, so two processes or two threads needing one table build it once,
 * a killed build leaves no file under the final name, and its lock goes
 * with its process (flock). The tables are large (the cube's pruning table
 * of several GB), so a killed maker's temporary file is removed by the
 * next one. */
#define _GNU_SOURCE /* kill, strndup */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/hn.h"

/* The process that wrote temporary file `name` of `base` (hn_part_path's
 * "<base>.<pid>-<token>.part"), or 0 when name is not one. */
static long part_writer(const char *name, const char *base)
{
    size_t n = strlen(base), k = strlen(name);
    if (k < n + 6 || strncmp(name, base, n) || name[n] != '.' || strcmp(name + k - 5, ".part"))
        return 0;
    char *end;
    long pid = strtol(name + n + 1, &end, 10);
    return pid > 0 && *end == '-' ? pid : 0;
}

/* Remove the temporary files of `path` whose writer no longer runs: with
 * the lock held no live maker writes one. A writer on another host of a
 * shared folder looks dead here, but it would hold the lock. */
static void part_sweep(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
    const char *base = slash ? slash + 1 : path;
    DIR *d = dir ? opendir(dir) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        long pid = part_writer(e->d_name, base);
        if (!pid || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        char full[4400];
        if (snprintf(full, sizeof full, "%s%s", slash ? dir : "", e->d_name) < (int)sizeof full &&
            unlink(full) == 0)
            hn_log(HN_LOG_INFO, "removed %s, left by a build that did not finish", full);
    }
    if (d)
        closedir(d);
    free(dir);
}

/* Make the file (the lock held when lock >= 0) and keep it. */
static int make_keep(const char *path, const hn_cache_ops *ops, void *ctx, int lock)
{
    if (lock >= 0)
        part_sweep(path);
    int st = ops->make(ctx);
    if (st)
        return st;
    if (ops->keep(ctx, path)) /* the table in memory is good: only the copy is lost */
        hn_log(HN_LOG_WARN, "not kept in the cache: %s", hn_errmsg());
    return 0;
}

int hn_cache_fill(const char *path, const hn_cache_ops *ops, void *ctx, int *made)
{
    if (made)
        *made = 0;
    int st = ops->load(ctx, path);
    if (st == 0)
        return 0;
    int damaged = st < 0, waited = 0;
    if (damaged)
        hn_log(HN_LOG_WARN, "%s; rebuilding it", hn_errmsg());
    int lock = hn_lock_take(path, 0, NULL);
    if (lock == HN_ERR_BUSY) {
        hn_log(HN_LOG_INFO, "waiting for another process building %s", path);
        lock = hn_lock_take(path, 1, &waited);
    }
    if (lock < 0 && hn_stop_requested())
        return hn_fail(HN_ERR_INTERRUPTED, "%s: stopped while waiting for its build", path);
    if (lock < 0) /* a folder we cannot lock still works; the rename keeps files whole */
        hn_log(HN_LOG_WARN, "building without a lock: %s", hn_errmsg());
    /* another maker may have kept it since the first look (or while this
     * one waited): a damaged file is read again only after a wait */
    if (lock >= 0 && (waited || !damaged) && (st = ops->load(ctx, path)) == 0) {
        hn_lock_drop(path, lock);
        return 0;
    }
    if (st < 0 && waited)
        hn_log(HN_LOG_WARN, "%s; rebuilding it", hn_errmsg());
    st = make_keep(path, ops, ctx, lock);
    hn_lock_drop(path, lock);
    if (made && !st)
        *made = 1;
    return st;
}
