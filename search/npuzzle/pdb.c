/* Pattern databases: the standard partitions, the placement ranking that
 * builder and lookup share, and the table object with its plain lookup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/npuzzle/np_internal.h"
#include "search/npuzzle/pdb_internal.h"

/* Tile groups for the blank-first goal (cell = tile). 7-8 is Korf &
 * Felner's split (top two rows / bottom two rows); 6-6-3, 5-5-5 are compact
 * groups of neighbouring tiles in the same spirit; 6-6-6-6 is Korf &
 * Felner's (2002) 24-puzzle partition. */
static const struct {
    const char *name;
    int width;
    const char *groups;
} standard[] = {
    {"8", 3, "1,2,3,4,5,6,7,8"},
    {"7-8", 4, "1,2,3,4,5,6,7/8,9,10,11,12,13,14,15"},
    {"6-6-3", 4, "1,2,3/4,5,8,9,12,13/6,7,10,11,14,15"},
    {"5-5-5", 4, "1,2,3,6,7/4,5,8,9,12/10,11,13,14,15"},
    {"6-6-6-6", 5, "1,2,5,6,7,12/3,4,8,9,13,14/10,11,15,16,20,21/17,18,19,22,23,24"},
};

static void parse_groups(const char *groups, int width, srch_np_partition *out)
{
    memset(out, 0, sizeof *out);
    out->width = width;
    out->npatterns = 1;
    for (const char *s = groups; *s;) {
        if (*s == '/') {
            out->npatterns++;
            s++;
        } else if (*s == ',') {
            s++;
        } else {
            char *end;
            long t = strtol(s, &end, 10);
            int i = out->npatterns - 1;
            out->tiles[i][out->size[i]++] = (uint8_t)t;
            s = end;
        }
    }
}

int srch_np_partition_get(const char *name, int width, srch_np_partition *out)
{
    char known[128] = "";
    for (size_t i = 0; i < sizeof standard / sizeof standard[0]; i++) {
        if (standard[i].width != width)
            continue;
        if (!strcmp(standard[i].name, name)) {
            parse_groups(standard[i].groups, width, out);
            snprintf(out->name, sizeof out->name, "%s", name);
            return 0;
        }
        size_t len = strlen(known);
        snprintf(known + len, sizeof known - len, "%s%s", len ? ", " : "", standard[i].name);
    }
    return hn_fail(HN_ERR_ARG, "no partition '%s' for the %d-puzzle (known: %s)", name,
                   width * width - 1, known[0] ? known : "none");
}

uint64_t srch_np_pdb_entries(int ncells, int k)
{
    uint64_t e = 1;
    for (int i = 0; i < k; i++)
        e *= (uint64_t)(ncells - i);
    return e;
}

uint64_t srch_np_pdb_rank(const uint8_t *cells, int k, int ncells)
{
    return srch_np_rank(cells, k, ncells);
}

void srch_np_pdb_unrank(uint64_t rank, int k, int ncells, uint8_t *cells)
{
    int digit[SRCH_NP_MAX_CELLS];
    for (int i = k - 1; i >= 0; i--) {
        digit[i] = (int)(rank % (uint64_t)(ncells - i));
        rank /= (uint64_t)(ncells - i);
    }
    uint32_t used = 0;
    for (int i = 0; i < k; i++) {
        cells[i] = (uint8_t)srch_np_select_free(used, digit[i]);
        used |= 1u << cells[i];
    }
}

/* A partition is usable when its patterns are disjoint sets of tiles 1..N-1. */
int srch_np_partition_check(const srch_np_partition *part)
{
    if (part->width < SRCH_NP_MIN_WIDTH || part->width > SRCH_NP_MAX_WIDTH)
        return hn_fail(HN_ERR_FORMAT, "partition width %d not supported", part->width);
    if (part->npatterns < 1 || part->npatterns > SRCH_NP_MAX_PATTERNS)
        return hn_fail(HN_ERR_FORMAT, "partition has %d patterns", part->npatterns);
    int n = part->width * part->width;
    uint32_t seen = 0;
    for (int i = 0; i < part->npatterns; i++) {
        if (part->size[i] < 1 || part->size[i] > n - 1)
            return hn_fail(HN_ERR_FORMAT, "pattern %d has %d tiles", i + 1, part->size[i]);
        for (int j = 0; j < part->size[i]; j++) {
            int t = part->tiles[i][j];
            if (t < 1 || t >= n || (seen & (1u << t)))
                return hn_fail(HN_ERR_FORMAT, "pattern %d: tile %d invalid or repeated", i + 1, t);
            seen |= 1u << t;
        }
    }
    return 0;
}

srch_np_pdb *srch_np_pdb_new(const srch_np_partition *part, int *status)
{
    return srch_np_pdb_alloc(part, 1, status);
}

srch_np_pdb *srch_np_pdb_alloc(const srch_np_partition *part, int fill, int *status)
{
    int st = srch_np_partition_check(part);
    srch_np_pdb *p = NULL;
    if (st)
        goto fail;
    st = HN_ERR_NOMEM;
    p = calloc(1, sizeof *p);
    if (!p)
        goto fail;
    p->part = *part;
    int n = part->width * part->width;
    for (int i = 0; i < part->npatterns; i++) {
        p->entries[i] = srch_np_pdb_entries(n, part->size[i]);
        p->table[i] = hn_alloc_huge((size_t)p->entries[i], 0); /* up to 0.5 GB read at random */
        if (!p->table[i]) {
            hn_fail(HN_ERR_NOMEM, "out of memory for a %llu-entry pattern table",
                    (unsigned long long)p->entries[i]);
            goto fail;
        }
        if (fill)
            memset(p->table[i], SRCH_NP_PDB_UNREACHED, p->entries[i]);
    }
    if (status)
        *status = 0;
    return p;
fail:
    srch_np_pdb_free(p);
    if (status)
        *status = st;
    return NULL;
}

void srch_np_pdb_free(srch_np_pdb *p)
{
    if (!p)
        return;
    for (int i = 0; i < SRCH_NP_MAX_PATTERNS; i++)
        free(p->table[i]);
    free(p);
}

const srch_np_partition *srch_np_pdb_partition(const srch_np_pdb *p)
{
    return &p->part;
}

uint8_t *srch_np_pdb_table(srch_np_pdb *p, int i, uint64_t *entries)
{
    if (i < 0 || i >= p->part.npatterns)
        return NULL;
    if (entries)
        *entries = p->entries[i];
    return p->table[i];
}

int srch_np_pdb_lookup(const srch_np_pdb *p, const srch_np_board *b)
{
    int n = p->part.width * p->part.width, h = 0;
    for (int i = 0; i < p->part.npatterns; i++) {
        uint8_t cells[SRCH_NP_MAX_CELLS];
        for (int j = 0; j < p->part.size[i]; j++)
            cells[j] = b->pos[p->part.tiles[i][j]];
        h += p->table[i][srch_np_rank(cells, p->part.size[i], n)];
    }
    return h;
}

int srch_np_pdb_file_name(const srch_np_partition *part, char *buf, size_t cap)
{
    return snprintf(buf, cap, "npuzzle%d-%s.pdb", part->width * part->width - 1, part->name);
}
