/* File checksums: a 24-byte trailer after the last byte of a finished file
 * holds a CRC-32 (zlib) of everything before it, so a flipped or lost byte
 * anywhere in a model, dataset or checkpoint is found before HDF5 parses the
 * file (a damaged HDF5 file can crash libhdf5). HDF5 ignores bytes past its
 * end-of-allocation, so sealed files stay ordinary HDF5 files.
 * Trailer: "HNCRC32" 0x01 | u64 covered length | u32 crc | u32 crc of the
 * first 20 trailer bytes, little-endian. */
#include "common/hn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <zlib.h>

#define TRAILER 24
static const char magic[8] = {'H', 'N', 'C', 'R', 'C', '3', '2', 1};

static void put_le(unsigned char *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* CRC-32 of the first n bytes of f. */
static int crc_prefix(FILE *f, const char *path, uint64_t n, uint32_t *crc)
{
    enum { BLOCK = 1 << 20 };
    unsigned char *buf = malloc(BLOCK);
    if (!buf)
        return hn_fail(HN_ERR_NOMEM, "%s: out of memory for the checksum", path);
    uLong c = crc32(0L, Z_NULL, 0);
    int rc = fseeko(f, 0, SEEK_SET) == 0
                 ? HN_OK
                 : hn_fail(HN_ERR_IO, "%s: cannot seek: %s", path, strerror(errno));
    for (uint64_t at = 0; !rc && at < n;) {
        size_t k = n - at < BLOCK ? (size_t)(n - at) : BLOCK;
        if (fread(buf, 1, k, f) != k)
            rc = hn_fail(HN_ERR_IO, "%s: read error or early end at byte %llu", path,
                         (unsigned long long)at);
        else
            c = crc32(c, buf, (uInt)k);
        at += k;
    }
    free(buf);
    *crc = (uint32_t)c;
    return rc;
}

/* Read the trailer of f (size bytes): 1 and *covered, *crc when a valid one
 * ends the file, 0 when none does, HN_ERR_FORMAT when one is damaged. */
static int read_trailer(FILE *f, const char *path, uint64_t size, uint64_t *covered, uint32_t *crc)
{
    unsigned char t[TRAILER];
    if (size < TRAILER)
        return 0;
    if (fseeko(f, (off_t)(size - TRAILER), SEEK_SET) != 0 || fread(t, 1, TRAILER, f) != TRAILER)
        return hn_fail(HN_ERR_IO, "%s: cannot read the checksum trailer", path);
    if (memcmp(t, magic, sizeof magic) != 0)
        return 0;
    *covered = get_le(t + 8, 8);
    *crc = (uint32_t)get_le(t + 16, 4);
    if ((uint32_t)get_le(t + 20, 4) != (uint32_t)crc32(0L, t, 20) || *covered != size - TRAILER)
        return hn_fail(HN_ERR_FORMAT,
                       "%s: the checksum trailer is damaged (or the file was truncated "
                       "or extended)",
                       path);
    return 1;
}

static FILE *open_sized(const char *path, const char *mode, uint64_t *size, int *rc)
{
    FILE *f = fopen(path, mode);
    struct stat st;
    if (!f) {
        *rc = hn_fail(HN_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        *rc = hn_fail(HN_ERR_IO, "%s: not a regular file", path);
        fclose(f);
        return NULL;
    }
    *size = (uint64_t)st.st_size;
    *rc = HN_OK;
    return f;
}

int hn_file_verify(const char *path, int *sealed)
{
    uint64_t size, covered = 0;
    uint32_t want = 0, got = 0;
    int rc;
    *sealed = 0;
    FILE *f = open_sized(path, "rb", &size, &rc);
    if (!f)
        return rc;
    int t = read_trailer(f, path, size, &covered, &want);
    rc = t < 0 ? t : HN_OK;
    if (t == 1 && !(rc = crc_prefix(f, path, covered, &got)) && got != want)
        rc = hn_fail(
            HN_ERR_FORMAT,
            "%s: checksum mismatch (stored %08x, computed %08x): the file is damaged, or was "
            "changed by a program that does not update heurnet's checksum",
            path, (unsigned)want, (unsigned)got);
    fclose(f);
    *sealed = t == 1 && !rc;
    return rc;
}

int hn_file_seal(const char *path)
{
    uint64_t size, covered = 0;
    uint32_t crc = 0;
    int rc;
    FILE *f = open_sized(path, "r+b", &size, &rc);
    if (!f)
        return rc;
    int t = read_trailer(f, path, size, &covered, &crc);
    if (t != 0) { /* sealed already: verify rather than cover the trailer twice */
        fclose(f);
        int sealed;
        return t < 0 ? t : hn_file_verify(path, &sealed);
    }
    unsigned char tr[TRAILER];
    rc = crc_prefix(f, path, size, &crc);
    memcpy(tr, magic, sizeof magic);
    put_le(tr + 8, size, 8);
    put_le(tr + 16, crc, 4);
    put_le(tr + 20, (uint32_t)crc32(0L, tr, 20), 4);
    if (!rc && (fseeko(f, (off_t)size, SEEK_SET) != 0 || fwrite(tr, 1, TRAILER, f) != TRAILER ||
                fflush(f) != 0 || fsync(fileno(f)) != 0))
        rc = hn_fail(HN_ERR_IO, "%s: cannot write the checksum: %s", path, strerror(errno));
    if (fclose(f) != 0 && !rc)
        rc = hn_fail(HN_ERR_IO, "%s: cannot write the checksum: %s", path, strerror(errno));
    if (rc && truncate(path, (off_t)size) != 0)
        return rc; /* a partial trailer lacks the magic: the file reads as unsealed */
    return rc;
}

int hn_file_unseal(const char *path)
{
    int sealed, rc = hn_file_verify(path, &sealed);
    if (rc || !sealed)
        return rc;
    struct stat st;
    if (stat(path, &st) != 0 || truncate(path, st.st_size - TRAILER) != 0)
        return hn_fail(HN_ERR_IO, "%s: cannot remove the checksum before writing: %s", path,
                       strerror(errno));
    return HN_OK;
}

uint32_t hn_crc32(const void *data, uint64_t n)
{
    const uint8_t *p = data;
    uLong c = crc32(0L, Z_NULL, 0);
    for (uint64_t off = 0; off < n; off += (uint64_t)1 << 30) {
        uint64_t k = n - off < ((uint64_t)1 << 30) ? n - off : ((uint64_t)1 << 30);
        c = crc32(c, p + off, (uInt)k);
    }
    return (uint32_t)c;
}
