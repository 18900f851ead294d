/* One bounded line reader for every text format (instances, hints,
 * solutions): fgets and strlen cannot see a NUL byte inside a line and
 * silently split or cut long ones; this reader reports both. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/hn.h"

int hn_line_read(FILE *f, char *buf, size_t cap, size_t *len)
{
    size_t n = 0, col = 0, nul = 0;
    int c, got = 0, too_long = 0;
    while ((c = getc(f)) != EOF) {
        got = 1;
        if (c == '\n')
            break;
        col++;
        if (c == '\0' && !nul)
            nul = col; /* 1-based column of the first NUL */
        if (n + 1 < cap)
            buf[n++] = (char)c;
        else
            too_long = 1; /* keep consuming: the next call starts on the next line */
    }
    if (cap)
        buf[n] = '\0';
    *len = n;
    if (ferror(f))
        return hn_fail(HN_ERR_IO, "read error: %s", strerror(errno));
    if (!got)
        return 0;
    if (too_long)
        return hn_fail(HN_ERR_FORMAT, "line longer than %zu characters", cap - 1);
    if (nul)
        return hn_fail(HN_ERR_FORMAT, "NUL byte at column %zu", nul);
    return 1;
}
