/* Status codes and the per-thread detailed error message: libraries return a
 * code and leave the human-readable reason here for the command line. */
#include "common/hn.h"

#include <stdio.h>
#include <string.h>

static _Thread_local char err_msg[1024];
static _Thread_local int err_status;

const char *hn_strerror(int status)
{
    switch (status) {
    case HN_OK:
        return "success";
    case HN_ERR_NOMEM:
        return "out of memory";
    case HN_ERR_IO:
        return "input/output error";
    case HN_ERR_FORMAT:
        return "malformed input";
    case HN_ERR_ARG:
        return "invalid argument";
    case HN_ERR_SHAPE:
        return "shapes do not match";
    case HN_ERR_NAN:
        return "not a finite number";
    case HN_ERR_UNSOLVABLE:
        return "unsolvable board";
    case HN_ERR_LIMIT:
        return "limit reached";
    case HN_ERR_INTERRUPTED:
        return "interrupted";
    case HN_ERR_HDF5:
        return "HDF5 error";
    case HN_ERR_UNSUPPORTED:
        return "unsupported";
    case HN_ERR_BUSY:
        return "in use by another process";
    default:
        return "unknown error";
    }
}

int hn_fail(int status, const char *fmt, ...)
{
    /* callers may pass hn_errmsg() to add context: format into a copy, as
     * vsnprintf's source and destination must not overlap */
    char msg[sizeof err_msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    memcpy(err_msg, msg, sizeof msg);
    err_status = status;
    return status;
}

const char *hn_errmsg(void)
{
    if (err_msg[0])
        return err_msg;
    return hn_strerror(err_status);
}

void hn_error_clear(void)
{
    err_msg[0] = '\0';
    err_status = HN_OK;
}
