/* The pattern-database file: header, raw table, CRC-32 (pdb_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "common/hn.h"
#include "domains/dom.h"
#include "domains/pdb_file.h"

struct pdb_header {
    char magic[8];
    uint64_t entries;
    uint32_t crc;
    uint32_t version;
    char domain[128];
    char table[64];
};

/* Why a file that is not of this format cannot be read: the formats of
 * older heurnets get a message saying so, anything else a plain one. */
static const char *foreign(const char *magic)
{
    if (!memcmp(magic, "HNNPPDB2", 8))
        return "an n-puzzle group table of an older heurnet (HNNPPDB2), no longer read";
    if (!memcmp(magic, "HNPDB001", 8) || !memcmp(magic, "HNPDBRAW", 8))
        return "an n-puzzle partition file of an older heurnet (HNPDB001), no longer read: "
               "heurnet pdb build --domain npuzzle:WxW --partition P rebuilds its tables in the "
               "cache folder";
    return "not a heurnet pattern database (magic " DOM_PDB_MAGIC " expected)";
}

/* The header at fd: 0, or a status with a message naming path. */
static int head_read(int fd, const char *path, struct pdb_header *h)
{
    if (hn_fd_read_full(fd, h->magic, 8))
        return hn_fail(HN_ERR_FORMAT, "%s: truncated (no magic)", path);
    if (memcmp(h->magic, DOM_PDB_MAGIC, 8))
        return hn_fail(HN_ERR_FORMAT, "%s: %s", path, foreign(h->magic));
    if (hn_fd_read_full(fd, h->magic + 8, sizeof *h - 8))
        return hn_fail(HN_ERR_FORMAT, "%s: truncated header", path);
    if (h->version != DOM_PDB_VERSION)
        return hn_fail(HN_ERR_FORMAT, "%s: version %u (this heurnet reads %d)", path, h->version,
                       DOM_PDB_VERSION);
    if (h->entries == 0 || h->entries > DOM_PDB_MAX_ENTRIES ||
        !memchr(h->domain, 0, sizeof h->domain) || !memchr(h->table, 0, sizeof h->table))
        return hn_fail(HN_ERR_FORMAT, "%s: header inconsistent", path);
    return 0;
}

int dom_pdb_load(const char *path, const char *domain, const char *table, uint8_t *t,
                 uint64_t entries)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW);
    if (fd < 0)
        return errno == ENOENT ? 1
                               : hn_fail(HN_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    struct pdb_header h;
    int st = head_read(fd, path, &h);
    if (st)
        ;
    else if (h.entries != entries || strcmp(h.domain, domain) || strcmp(h.table, table))
        st = hn_fail(HN_ERR_FORMAT, "%s: made for another domain or table (%s %s)", path, h.domain,
                     h.table);
    else if (hn_fd_read_full(fd, t, entries))
        st = hn_fail(HN_ERR_FORMAT, "%s: truncated table", path);
    else if (hn_crc32(t, entries) != h.crc)
        st = hn_fail(HN_ERR_FORMAT, "%s: checksum mismatch", path);
    close(fd);
    return st;
}

/* The table after the header at fd: exactly `entries` bytes with CRC-32
 * crc; statistics into *out when out is set. 0, or -1 (a message naming
 * path through hn_fail). */
static int table_scan(int fd, const char *path, uint64_t entries, uint32_t crc,
                      dom_pdb_file_info *out)
{
    uint8_t buf[1 << 16];
    uLong c = crc32(0L, Z_NULL, 0);
    for (uint64_t off = 0; off < entries; off += sizeof buf) {
        uint64_t k = entries - off < sizeof buf ? entries - off : sizeof buf;
        if (hn_fd_read_full(fd, buf, k))
            return hn_fail(HN_ERR_FORMAT, "%s: truncated table (%llu of %llu entries)", path,
                           (unsigned long long)off, (unsigned long long)entries);
        c = crc32(c, buf, (uInt)k);
        for (uint64_t i = 0; out && i < k; i++)
            if (buf[i] != 255) {
                out->reached++;
                out->sum += buf[i];
                out->max = buf[i] > out->max ? buf[i] : out->max;
            }
    }
    if (read(fd, buf, 1) != 0)
        return hn_fail(HN_ERR_FORMAT, "%s: bytes after the table's %llu entries", path,
                       (unsigned long long)entries);
    if ((uint32_t)c != crc)
        return hn_fail(HN_ERR_FORMAT, "%s: checksum mismatch", path);
    return 0;
}

int dom_pdb_file_read(const char *path, dom_pdb_file_info *out)
{
    memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return hn_fail(HN_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    struct pdb_header h;
    int st = head_read(fd, path, &h);
    if (!st)
        st = table_scan(fd, path, h.entries, h.crc, out);
    close(fd);
    if (st)
        return st;
    memcpy(out->format, h.magic, 8);
    snprintf(out->domain, sizeof out->domain, "%s", h.domain);
    snprintf(out->table, sizeof out->table, "%s", h.table);
    out->entries = h.entries;
    return 0;
}

int dom_pdb_save(const char *path, const char *domain, const char *table, const uint8_t *t,
                 uint64_t entries)
{
    struct pdb_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, DOM_PDB_MAGIC, 8);
    h.entries = entries;
    h.crc = hn_crc32(t, entries);
    h.version = DOM_PDB_VERSION;
    if (strlen(domain) >= sizeof h.domain || strlen(table) >= sizeof h.table)
        return hn_fail(HN_ERR_ARG, "%s: domain or table name too long for the header", path);
    snprintf(h.domain, sizeof h.domain, "%s", domain);
    snprintf(h.table, sizeof h.table, "%s", table);
    char part[4096];
    int fd = hn_part_open(path, part, sizeof part);
    if (fd < 0)
        return fd;
    int st = 0;
    if (hn_fd_write_full(fd, &h, sizeof h) || hn_fd_write_full(fd, t, entries) || fchmod(fd, 0644))
        st = hn_fail(HN_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    else if (lseek(fd, (off_t)sizeof h, SEEK_SET) != (off_t)sizeof h ||
             table_scan(fd, part, entries, h.crc, NULL))
        st = hn_fail(HN_ERR_IO, "cannot write %s: the copy read back differs", path);
    if (close(fd) && !st)
        st = hn_fail(HN_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    if (!st)
        st = hn_part_commit(path);
    if (st)
        unlink(part);
    return st;
}

/* ---- the cache: one build among processes (hn_cache_fill) ---- */

typedef struct {
    const char *domain, *table;
    uint8_t *t;
    uint64_t entries;
    dom_pdb_make_fn make;
    void *ctx;
} cached_table;

static int cached_load(void *arg, const char *path)
{
    cached_table *c = arg;
    return dom_pdb_load(path, c->domain, c->table, c->t, c->entries);
}

static int cached_make(void *arg)
{
    cached_table *c = arg;
    return c->make(c->ctx, c->t, c->entries);
}

static int cached_keep(void *arg, const char *path)
{
    cached_table *c = arg;
    return dom_pdb_save(path, c->domain, c->table, c->t, c->entries);
}

int dom_pdb_cached(const char *path, const char *domain, const char *table, uint8_t *t,
                   uint64_t entries, dom_pdb_make_fn make, void *ctx, int *made)
{
    static const hn_cache_ops ops = {cached_load, cached_make, cached_keep};
    cached_table c = {domain, table, t, entries, make, ctx};
    return hn_cache_fill(path, &ops, &c, made);
}
