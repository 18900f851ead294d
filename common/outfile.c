/* Output files that cannot be turned against their writer: a complete file
 * appears under its final name by a rename, its temporary name is private
 * to one process (two writers of one cache file never share it) and is
 * created with O_EXCL|O_NOFOLLOW, so a symlink planted in a shared folder
 * is refused instead of followed. Lock files serialise whole jobs. */
#define _GNU_SOURCE /* O_NOFOLLOW, O_CLOEXEC, flock */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/hn.h"

int hn_path_is_special(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* A per-process token next to the pid: pids repeat across the hosts of a
 * cluster sharing one file system, and an unpredictable name cannot be
 * planted in advance. Forked children keep it; their pid differs. */
static unsigned part_token(void)
{
    static atomic_uint token;
    unsigned t = atomic_load(&token);
    if (t)
        return t;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)ts.tv_sec ^
                 (uint64_t)(uintptr_t)&ts ^ (uint64_t)getpid() << 32;
    x ^= x >> 29;
    unsigned want = (unsigned)(x % 0xFFFFFFu) + 1, expect = 0;
    return atomic_compare_exchange_strong(&token, &expect, want) ? want : expect;
}

int hn_part_path(const char *path, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%s.%ld-%06x.part", path, (long)getpid(), part_token());
    if (n < 0 || (size_t)n >= cap)
        return hn_fail(HN_ERR_ARG, "%s: path too long", path);
    return HN_OK;
}

int hn_part_open(const char *path, char *buf, size_t cap)
{
    int rc = hn_part_path(path, buf, cap);
    if (rc)
        return rc;
    int fd = open(buf, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        return hn_fail(HN_ERR_IO, "%s: cannot create %s: %s", path, buf, strerror(errno));
    return fd;
}

FILE *hn_part_fopen(const char *path, char *buf, size_t cap, int *status)
{
    int fd = hn_part_open(path, buf, cap);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "w+b");
    if (fd >= 0 && !f) {
        hn_fail(HN_ERR_IO, "%s: %s", buf, strerror(errno));
        close(fd);
        unlink(buf);
        fd = HN_ERR_IO;
    }
    if (status)
        *status = f ? HN_OK : fd;
    return f;
}

int hn_part_commit(const char *path)
{
    char part[4096];
    int rc = hn_part_path(path, part, sizeof part);
    if (rc)
        return rc;
    if (rename(part, path) != 0)
        return hn_fail(HN_ERR_IO, "%s: cannot rename %s into place: %s", path, part,
                       strerror(errno));
    return HN_OK;
}

int hn_part_commit_sealed(const char *path)
{
    char part[4096];
    int rc = hn_part_path(path, part, sizeof part);
    if (!rc)
        rc = hn_file_seal(part);
    return rc ? rc : hn_part_commit(path);
}

void hn_part_discard(const char *path)
{
    char part[4096];
    if (hn_part_path(path, part, sizeof part) == HN_OK)
        unlink(part);
}

/* 1 when fd is still the file `name` names: a holder that drops the lock
 * (hn_lock_drop) unlinks it first, so a waiter that then gets the flock of
 * the unlinked file must open the name again. */
static int lock_current(int fd, const char *name)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && stat(name, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

int hn_lock_take(const char *path, int wait, int *waited)
{
    char name[4096];
    if (waited)
        *waited = 0;
    if (snprintf(name, sizeof name, "%s.lock", path) >= (int)sizeof name)
        return hn_fail(HN_ERR_ARG, "%s: path too long", path);
    for (;;) {
        /* never written, and O_NOFOLLOW: a planted symlink is refused */
        int fd = open(name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0)
            return hn_fail(HN_ERR_IO, "%s: cannot open the lock file: %s", name, strerror(errno));
        int r = flock(fd, LOCK_EX | LOCK_NB);
        if (r != 0 && errno == EWOULDBLOCK && wait) {
            if (waited)
                *waited = 1;
            while ((r = flock(fd, LOCK_EX)) != 0 && errno == EINTR && !hn_stop_requested())
                ;
        }
        if (r == 0 && lock_current(fd, name))
            return fd;
        if (r == 0) { /* dropped while this one waited: lock the file now there */
            close(fd);
            continue;
        }
        int busy = errno == EWOULDBLOCK || errno == EINTR;
        int rc = busy ? hn_fail(HN_ERR_BUSY, "%s is locked by another process", name)
                      : hn_fail(HN_ERR_IO, "%s: cannot lock: %s", name, strerror(errno));
        close(fd);
        return rc;
    }
}

void hn_lock_release(int fd)
{
    if (fd >= 0)
        close(fd); /* closing drops the flock; the file stays for the next user */
}

void hn_lock_drop(const char *path, int fd)
{
    char name[4096];
    if (fd < 0)
        return;
    if (snprintf(name, sizeof name, "%s.lock", path) < (int)sizeof name)
        unlink(name); /* before the flock goes: a waiter then sees a stale file */
    close(fd);
}

/* Pieces of at most 1 GiB: a larger read or write may be cut short. */
#define FD_PIECE ((uint64_t)1 << 30)

int hn_fd_read_full(int fd, void *buf, uint64_t n)
{
    uint8_t *b = buf;
    while (n) {
        ssize_t r = read(fd, b, (size_t)(n < FD_PIECE ? n : FD_PIECE));
        if (r <= 0) {
            if (r == 0)
                errno = 0;
            return -1;
        }
        b += r;
        n -= (uint64_t)r;
    }
    return 0;
}

int hn_fd_write_full(int fd, const void *buf, uint64_t n)
{
    const uint8_t *b = buf;
    while (n) {
        ssize_t r = write(fd, b, (size_t)(n < FD_PIECE ? n : FD_PIECE));
        if (r <= 0) {
            if (r == 0)
                errno = ENOSPC;
            return -1;
        }
        b += r;
        n -= (uint64_t)r;
    }
    return 0;
}

int hn_part_save(const char *path, const void *head, size_t head_bytes, const void *body,
                 uint64_t body_bytes)
{
    char part[4096];
    int fd = hn_part_open(path, part, sizeof part);
    if (fd < 0)
        return fd;
    int bad = hn_fd_write_full(fd, head, head_bytes) || hn_fd_write_full(fd, body, body_bytes);
    int e = errno;
    if (close(fd) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        unlink(part);
        return hn_fail(HN_ERR_IO, "cannot write %s: %s", path, strerror(e));
    }
    int rc = hn_part_commit(path);
    if (rc)
        unlink(part);
    return rc;
}
