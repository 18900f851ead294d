/* The pattern-database file (domains/pdb_file.c, one format for both
 * kinds): an n-puzzle group table and a core pattern table (the cube's
 * 4-edge pattern). The first byte picks the kind, the rest is the file,
 * read by `pdb info`'s reader and then by the cache's loader. A file the
 * loader refuses is rebuilt, so every input must end in an open heuristic
 * that can be read (a refused file leaves a fresh table; an accepted one
 * passed its CRC). Seeds: the two files as the builders write them, the
 * cube's cut after its header, a group table of the older HNNPPDB2 format
 * (tests/fuzz/corpus/dom_pdb). */
#include <sys/stat.h>

#include "fuzz_util.h"
#include "domains/dom.h"

static const struct {
    const char *domain, *heur, *file;
} READER[2] = {
    {"npuzzle:2x3", "pdb:1.2.3/4.5", "npuzzle-2x3-blank0-cells-1.2.3.pdb"},
    {"cube3", "pdb:edges4", "dom-cube3-edges4.pdb"},
};

static dom *D[2];
static char DIR_[200];

/* The scratch cache folder goes at exit, with what the builders left. */
static void cleanup(void)
{
    char path[300];
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", DIR_, READER[i].file);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/npuzzle-2x3-blank0-cells-4.5.pdb", DIR_);
    unlink(path);
    rmdir(DIR_);
}

static void setup(void)
{
    snprintf(DIR_, sizeof DIR_, "%s.d", fuzz_scratch(""));
    if (mkdir(DIR_, 0755) && access(DIR_, W_OK))
        abort();
    setenv("HEURNET_DATA", DIR_, 1);
    atexit(cleanup);
    for (int i = 0; i < 2; i++) {
        int st;
        if (!(D[i] = dom_open(READER[i].domain, &st)))
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!D[0])
        setup();
    if (size < 1)
        return 0;
    int which = data[0] & 1;
    char path[300];
    snprintf(path, sizeof path, "%s/%s", DIR_, READER[which].file);
    fuzz_write(path, data + 1, size - 1);
    dom_pdb_file_info info;
    int read = dom_pdb_file_read(path, &info);
    if (read == 0 && info.entries == 0)
        abort(); /* an accepted file has a table */
    /* The loader rebuilds a file the reader refuses: a few milliseconds for
     * the 2x3 groups, but 20 s of instrumented breadth-first search for the
     * cube's pattern (a timeout under load). The first refused cube file is
     * rebuilt (the cut seed, on replay); later ones end here. */
    static int cube_rebuilt;
    if (read && which == 1 && cube_rebuilt++) {
        hn_error_clear();
        return 0;
    }
    int st;
    dom_heur *h = dom_heur_open(D[which], READER[which].heur, &st);
    if (!h)
        abort(); /* a damaged file is rebuilt, never a failure */
    uint8_t goal[DOM_MAX_STATE_BYTES];
    dom_goal(D[which], goal);
    (void)dom_heur_eval(h, goal); /* read, whatever an accepted file holds */
    dom_heur_free(h);
    hn_error_clear();
    return 0;
}
