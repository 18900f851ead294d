/* Shared by the libFuzzer harnesses: the loaders under test read paths, so
 * each input is written to one scratch file per process (in /dev/shm when it
 * exists: no disk traffic) and the loader reads it from there. */
#ifndef HN_FUZZ_UTIL_H
#define HN_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/hn.h"

/* A scratch path unique to this process, with `suffix`; the file is
 * removed at exit. Aborts when no scratch file can be made: the harness
 * cannot run at all then. */
static inline const char *fuzz_scratch(const char *suffix)
{
    static char path[256];
    static int made;
    if (made)
        return path;
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/heurnet-fuzz-%ld%s", dir ? dir : "/tmp", (long)getpid(),
             suffix);
    made = 1;
    return path;
}

static inline void fuzz_unlink(void)
{
    unlink(fuzz_scratch(""));
}

/* Write the input to the scratch file; 0 or -1. */
static inline int fuzz_write(const char *path, const uint8_t *data, size_t size)
{
    static int registered;
    if (!registered) {
        atexit(fuzz_unlink);
        registered = 1;
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    size_t n = size ? fwrite(data, 1, size, f) : 0;
    if (fclose(f) != 0 || n != size)
        abort();
    return 0;
}

/* The input as a NUL-terminated string (malloc'd; embedded NULs stay). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = 0;
    return s;
}

#endif
