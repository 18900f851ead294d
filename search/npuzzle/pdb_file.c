/* The PDB file: a fixed little-endian header (puzzle, partition, goal
 * layout, CRC-32 of the tables and of the header) followed by one zlib
 * stream holding all tables back to back. Writes go to a temporary file
 * private to the process (hn_part_open), checked, then renamed. The raw
 * variant (magic HNPDBRAW) stores the tables uncompressed, so a load is a
 * read from the page cache instead of an inflate. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "search/npuzzle/np_internal.h"
#include "search/npuzzle/pdb_internal.h"

#define MAGIC "HNPDB001"
#define MAGIC_RAW "HNPDBRAW"
#define FORMAT_VERSION 1
#define PAT_BYTES 32 /* u32 size + 25 tiles + padding */
#define HEADER_BYTES (8 + 5 * 4 + 32 + SRCH_NP_MAX_PATTERNS * PAT_BYTES + 8 + 4 + 4)
#define CHUNK (1u << 20)

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t total_entries(const srch_np_pdb *p)
{
    uint64_t t = 0;
    for (int i = 0; i < p->part.npatterns; i++)
        t += p->entries[i];
    return t;
}

static uint32_t tables_crc(const srch_np_pdb *p)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    for (int i = 0; i < p->part.npatterns; i++)
        for (uint64_t off = 0; off < p->entries[i]; off += CHUNK) {
            uint64_t len = p->entries[i] - off < CHUNK ? p->entries[i] - off : CHUNK;
            crc = crc32(crc, p->table[i] + off, (uInt)len);
        }
    return (uint32_t)crc;
}

static void header_encode(const srch_np_pdb *p, const char *magic, uint8_t *h)
{
    const srch_np_partition *part = &p->part;
    memset(h, 0, HEADER_BYTES);
    memcpy(h, magic, 8);
    uint8_t *q = h + 8;
    put_u32(q, FORMAT_VERSION);
    put_u32(q + 4, (uint32_t)(part->width * part->width));
    put_u32(q + 8, (uint32_t)part->width);
    put_u32(q + 12, SRCH_NP_GOAL_BLANK_FIRST);
    put_u32(q + 16, (uint32_t)part->npatterns);
    q += 20;
    memcpy(q, part->name, 31);
    q += 32;
    for (int i = 0; i < SRCH_NP_MAX_PATTERNS; i++, q += PAT_BYTES) {
        put_u32(q, (uint32_t)part->size[i]);
        memcpy(q + 4, part->tiles[i], SRCH_NP_MAX_CELLS);
    }
    uint64_t t = total_entries(p);
    put_u32(q, (uint32_t)t);
    put_u32(q + 4, (uint32_t)(t >> 32));
    put_u32(q + 8, tables_crc(p));
    put_u32(q + 12, (uint32_t)crc32(0L, h, HEADER_BYTES - 4));
}

/* A stream being written, with the length and CRC-32 of what went in. */
struct written {
    FILE *f;
    uint64_t bytes;
    uLong crc;
};

static int put_bytes(struct written *w, const uint8_t *b, size_t n, const char *path)
{
    if (fwrite(b, 1, n, w->f) != n)
        return hn_fail(HN_ERR_IO, "%s: write failed: %s", path, strerror(errno));
    w->crc = crc32(w->crc, b, (uInt)n);
    w->bytes += n;
    return HN_OK;
}

/* Compress every table into w as one zlib stream. */
static int write_tables(const srch_np_pdb *p, struct written *w, const char *path)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit(&z, 1) != Z_OK)
        return hn_fail(HN_ERR_NOMEM, "%s: zlib deflateInit failed", path);
    uint8_t *out = malloc(CHUNK);
    int st = out ? 0 : hn_fail(HN_ERR_NOMEM, "out of memory writing %s", path);
    for (int i = 0; !st && i < p->part.npatterns; i++) {
        for (uint64_t off = 0; !st && off < p->entries[i]; off += CHUNK) {
            uint64_t len = p->entries[i] - off < CHUNK ? p->entries[i] - off : CHUNK;
            int last = i == p->part.npatterns - 1 && off + len == p->entries[i];
            z.next_in = p->table[i] + off;
            z.avail_in = (uInt)len;
            do {
                z.next_out = out;
                z.avail_out = CHUNK;
                deflate(&z, last ? Z_FINISH : Z_NO_FLUSH);
                st = put_bytes(w, out, CHUNK - z.avail_out, path);
            } while (!st && z.avail_out == 0);
        }
    }
    deflateEnd(&z);
    free(out);
    return st;
}

/* Read the finished temporary file back and compare it with what was
 * written (length and CRC-32): a file that another process or a full disk
 * changed must not be renamed into the cache. */
static int verify_written(FILE *f, const char *path, uint64_t bytes, uint32_t crc)
{
    uint8_t *buf = malloc(CHUNK);
    if (!buf)
        return hn_fail(HN_ERR_NOMEM, "out of memory verifying %s", path);
    uLong c = crc32(0L, Z_NULL, 0);
    uint64_t n = 0;
    size_t got;
    rewind(f);
    while ((got = fread(buf, 1, CHUNK, f)) > 0) {
        c = crc32(c, buf, (uInt)got);
        n += got;
    }
    free(buf);
    if (ferror(f) || n != bytes || (uint32_t)c != crc)
        return hn_fail(HN_ERR_IO, "%s: the file read back differs from what was written", path);
    return HN_OK;
}

int srch_np_pdb_save(const srch_np_pdb *p, const char *path)
{
    char part_path[4096];
    int st;
    FILE *f = hn_part_fopen(path, part_path, sizeof part_path, &st);
    if (!f)
        return st;
    uint8_t h[HEADER_BYTES];
    header_encode(p, MAGIC, h);
    struct written w = {.f = f, .crc = crc32(0L, Z_NULL, 0)};
    st = put_bytes(&w, h, sizeof h, part_path);
    if (!st)
        st = write_tables(p, &w, part_path);
    if (!st && fflush(f))
        st = hn_fail(HN_ERR_IO, "%s: write failed: %s", part_path, strerror(errno));
    if (!st)
        st = verify_written(f, part_path, w.bytes, (uint32_t)w.crc);
    if (fclose(f) && !st)
        st = hn_fail(HN_ERR_IO, "%s: write failed: %s", part_path, strerror(errno));
    if (st) {
        hn_part_discard(path);
        return st;
    }
    return hn_part_commit(path);
}

/* Fill part from a header, checking every field. */
static int header_decode(const uint8_t *h, const char *path, srch_np_partition *part,
                         uint64_t *total, uint32_t *crc, int *raw)
{
    *raw = !memcmp(h, MAGIC_RAW, 8);
    if (memcmp(h, MAGIC, 8) && !*raw)
        return hn_fail(HN_ERR_FORMAT, "%s: not a heurnet PDB file (bad magic)", path);
    if (get_u32(h + HEADER_BYTES - 4) != (uint32_t)crc32(0L, h, HEADER_BYTES - 4))
        return hn_fail(HN_ERR_FORMAT, "%s: header checksum mismatch (file corrupted)", path);
    const uint8_t *q = h + 8;
    if (get_u32(q) != FORMAT_VERSION)
        return hn_fail(HN_ERR_FORMAT, "%s: format version %u, this build reads %d", path,
                       get_u32(q), FORMAT_VERSION);
    memset(part, 0, sizeof *part);
    /* width first: width * width of a forged header overflows an int */
    if (get_u32(q + 8) < 2 || get_u32(q + 8) > SRCH_NP_MAX_WIDTH)
        return hn_fail(HN_ERR_FORMAT, "%s: width %u is not a puzzle's", path, get_u32(q + 8));
    part->width = (int)get_u32(q + 8);
    part->npatterns = (int)get_u32(q + 16);
    if (get_u32(q + 12) != SRCH_NP_GOAL_BLANK_FIRST ||
        get_u32(q + 4) != (uint32_t)(part->width * part->width))
        return hn_fail(HN_ERR_FORMAT, "%s: unexpected goal layout or cell count", path);
    q += 20;
    memcpy(part->name, q, 31);
    q += 32;
    for (int i = 0; i < SRCH_NP_MAX_PATTERNS; i++, q += PAT_BYTES) {
        part->size[i] = (int)get_u32(q);
        if (part->size[i] > SRCH_NP_MAX_CELLS)
            return hn_fail(HN_ERR_FORMAT, "%s: pattern %d has %d tiles", path, i + 1,
                           part->size[i]);
        memcpy(part->tiles[i], q + 4, SRCH_NP_MAX_CELLS);
    }
    if (srch_np_partition_check(part))
        return hn_fail(HN_ERR_FORMAT, "%s: bad partition: %s", path, hn_errmsg());
    *total = (uint64_t)get_u32(q) | (uint64_t)get_u32(q + 4) << 32;
    *crc = get_u32(q + 8);
    return 0;
}

static int same_partition(const srch_np_partition *a, const srch_np_partition *b)
{
    if (a->width != b->width || a->npatterns != b->npatterns)
        return 0;
    for (int i = 0; i < a->npatterns; i++)
        if (a->size[i] != b->size[i] || memcmp(a->tiles[i], b->tiles[i], (size_t)a->size[i]))
            return 0;
    return 1;
}

/* Inflate the rest of f into the tables; exactly all entries, then the end. */
static int read_tables(srch_np_pdb *p, FILE *f, const char *path)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK)
        return hn_fail(HN_ERR_NOMEM, "%s: zlib inflateInit failed", path);
    uint8_t *in = malloc(CHUNK);
    int st = in ? 0 : hn_fail(HN_ERR_NOMEM, "out of memory reading %s", path);
    int zr = Z_OK;
    for (int i = 0; !st && i < p->part.npatterns; i++) {
        z.next_out = p->table[i];
        uint64_t left = p->entries[i];
        while (!st && left > 0) {
            z.avail_out = (uInt)(left < CHUNK ? left : CHUNK);
            uInt want = z.avail_out;
            while (!st && z.avail_out > 0) {
                if (z.avail_in == 0) {
                    z.avail_in = (uInt)fread(in, 1, CHUNK, f);
                    z.next_in = in;
                    if (z.avail_in == 0)
                        st = hn_fail(HN_ERR_FORMAT, "%s: truncated (table data ends early)", path);
                }
                if (st)
                    break;
                zr = inflate(&z, Z_NO_FLUSH);
                if (zr == Z_STREAM_END && z.avail_out > 0)
                    st =
                        hn_fail(HN_ERR_FORMAT, "%s: table data shorter than the header says", path);
                else if (zr != Z_OK && zr != Z_STREAM_END)
                    st = hn_fail(HN_ERR_FORMAT, "%s: corrupted table data (zlib: %s)", path,
                                 z.msg ? z.msg : "error");
            }
            left -= want;
        }
    }
    if (!st && zr != Z_STREAM_END) {
        /* All entries are in; the stream must end here. */
        uint8_t extra;
        z.next_out = &extra;
        z.avail_out = 1;
        if (z.avail_in == 0) {
            z.avail_in = (uInt)fread(in, 1, CHUNK, f);
            z.next_in = in;
        }
        zr = inflate(&z, Z_FINISH);
        if (zr != Z_STREAM_END)
            st = hn_fail(HN_ERR_FORMAT, "%s: %s", path,
                         z.avail_out == 0 ? "more table data than the header says"
                                          : "truncated (zlib stream not finished)");
    }
    inflateEnd(&z);
    free(in);
    return st;
}

/* Read n bytes at the descriptor's position; a short file is an error. */
static int read_full(int fd, uint8_t *dst, uint64_t n, const char *path)
{
    while (n > 0) {
        size_t want = n < ((size_t)1 << 30) ? (size_t)n : (size_t)1 << 30;
        ssize_t got = read(fd, dst, want);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return hn_fail(HN_ERR_IO, "%s: read error: %s", path, strerror(errno));
        if (got == 0)
            return hn_fail(HN_ERR_FORMAT, "%s: truncated (table data ends early)", path);
        dst += got;
        n -= (uint64_t)got;
    }
    return HN_OK;
}

/* A raw file: the tables are read into private memory in 2 MB pages
 * (srch_np_pdb_alloc), not mapped. A mapping gave 4 KB pages, so lookups
 * missed the TLB and IDA* on the 7-8 tables ran about 1.5 times slower,
 * and a file truncated or replaced under a running search killed it with
 * SIGBUS. Reading from the page cache costs a fraction of a second. */
static srch_np_pdb *read_raw(FILE *f, const char *path, const srch_np_partition *part, int *st)
{
    srch_np_pdb *p = srch_np_pdb_alloc(part, 0, st);
    if (!p)
        return NULL;
    uint64_t at = HEADER_BYTES;
    for (int i = 0; i < part->npatterns; i++)
        at += p->entries[i];
    struct stat sb;
    int fd = fileno(f);
    if (fstat(fd, &sb))
        sb.st_size = -1;
    if ((uint64_t)sb.st_size != at)
        *st = hn_fail(HN_ERR_FORMAT, "%s: %lld bytes, the header says %llu", path,
                      (long long)sb.st_size, (unsigned long long)at);
    else if (lseek(fd, HEADER_BYTES, SEEK_SET) != HEADER_BYTES)
        *st = hn_fail(HN_ERR_IO, "%s: cannot seek: %s", path, strerror(errno));
    for (int i = 0; !*st && i < part->npatterns; i++)
        *st = read_full(fd, p->table[i], p->entries[i], path);
    if (*st) {
        srch_np_pdb_free(p);
        return NULL;
    }
    return p;
}

int srch_np_pdb_save_raw(const srch_np_pdb *p, const char *path)
{
    char tmp[4096];
    int st;
    FILE *f = hn_part_fopen(path, tmp, sizeof tmp, &st);
    if (!f)
        return st;
    uint8_t h[HEADER_BYTES];
    header_encode(p, MAGIC_RAW, h);
    st = fwrite(h, 1, sizeof h, f) == sizeof h ? HN_OK : HN_ERR_IO;
    for (int i = 0; !st && i < p->part.npatterns; i++)
        if (fwrite(p->table[i], 1, p->entries[i], f) != p->entries[i])
            st = HN_ERR_IO;
    if (fclose(f) && !st)
        st = HN_ERR_IO;
    if (st)
        st = hn_fail(HN_ERR_IO, "%s: write failed: %s", tmp, strerror(errno));
    /* rename is atomic: processes writing the same file at once each
     * leave a complete one */
    if (!st)
        st = hn_part_commit(path);
    if (st)
        hn_part_discard(path);
    return st;
}

srch_np_pdb *srch_np_pdb_load(const char *path, const srch_np_partition *expect, int *status)
{
    srch_np_pdb *p = NULL;
    int st;
    FILE *f = fopen(path, "rb");
    if (!f) {
        st = hn_fail(HN_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        goto done;
    }
    uint8_t h[HEADER_BYTES];
    srch_np_partition part;
    uint64_t total = 0;
    uint32_t crc = 0;
    if (fread(h, 1, sizeof h, f) != sizeof h) {
        st = hn_fail(HN_ERR_FORMAT, "%s: truncated (header incomplete)", path);
        goto done;
    }
    int raw = 0;
    st = header_decode(h, path, &part, &total, &crc, &raw);
    if (st)
        goto done;
    if (expect && !same_partition(expect, &part)) {
        st = hn_fail(HN_ERR_FORMAT,
                     "%s: holds partition '%s' of the %d-puzzle, expected '%s' of the %d-puzzle",
                     path, part.name, part.width * part.width - 1, expect->name,
                     expect->width * expect->width - 1);
        goto done;
    }
    p = raw ? read_raw(f, path, &part, &st) : srch_np_pdb_alloc(&part, 0, &st);
    if (!p)
        goto done;
    if (total != total_entries(p)) {
        st = hn_fail(HN_ERR_FORMAT, "%s: header entry count does not match the partition", path);
        goto done;
    }
    if (!raw)
        st = read_tables(p, f, path);
    if (!st && tables_crc(p) != crc)
        st = hn_fail(HN_ERR_FORMAT, "%s: table checksum mismatch (file corrupted)", path);
done:
    if (f)
        fclose(f);
    if (st) {
        srch_np_pdb_free(p);
        p = NULL;
    }
    if (status)
        *status = st;
    return p;
}
