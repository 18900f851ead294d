/* Hostile text input for the instance, hint and solution parsers: NUL bytes,
 * over-long lines and numbers that do not fit an int are errors that name
 * the line; a well-formed file next to each keeps being accepted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "search/emp/emp.h"
#include "search/srch.h"

static const char *const FILE_NAME = "test_srch_files.txt";

static void put(const char *data, size_t len)
{
    FILE *f = fopen(FILE_NAME, "wb");
    CHECK(f != NULL);
    if (f) {
        CHECK(fwrite(data, 1, len, f) == len);
        CHECK(fclose(f) == 0);
    }
}

/* 1 if the last error message contains every one of the words. */
static int says(const char *a, const char *b)
{
    const char *m = hn_errmsg();
    return strstr(m, a) && (!b || strstr(m, b));
}

static int srch_np_read(const char *data, size_t len)
{
    put(data, len);
    srch_np_instance *in = NULL;
    size_t n = 0;
    int st = srch_np_parse_file(FILE_NAME, 3, SRCH_NP_GOAL_BLANK_FIRST, NULL, NULL, &in, &n);
    free(in);
    return st;
}

static void test_np(void)
{
    static const char ok[] = "a 0 0 1 2 3 4 5 6 7 8\n";
    CHECK(srch_np_read(ok, sizeof ok - 1) == 0);
    /* a NUL hides the rest of the line from strlen: "0 1 2 3 4 5 6 7 8" + junk */
    static const char nul[] = "# x\n0 1 2 3 4 5 6 7 8\0 9 junk\n";
    CHECK(srch_np_read(nul, sizeof nul - 1) == HN_ERR_FORMAT);
    CHECK_MSG(says("line 2", "NUL byte"), "%s", hn_errmsg());
    /* 2000 blanks then a board: one over-long line, not a board */
    char *lng = malloc(3000);
    CHECK(lng != NULL);
    if (lng) {
        memset(lng, ' ', 2000);
        int k = snprintf(lng + 2000, 1000, "0 1 2 3 4 5 6 7 8\n");
        CHECK(srch_np_read(lng, 2000 + (size_t)k) == HN_ERR_FORMAT);
        CHECK_MSG(says("line 1", "longer than"), "%s", hn_errmsg());
    }
    free(lng);
}

static srch_em_inst *em_read(const char *data, size_t len, int format, int *st)
{
    put(data, len);
    return srch_em_inst_read(FILE_NAME, format, st);
}

/* A 4x4 instance in e2pieces form with `extra` appended (hint lines). */
static srch_em_inst *e2_with(const char *extra, int *st, int *sol)
{
    srch_em_inst *g = srch_em_inst_gen(4, 4, 2, 3, 7, sol, st);
    CHECK(g != NULL);
    char buf[2048];
    size_t len = (size_t)snprintf(buf, sizeof buf, "4 4\n");
    for (int p = 0; g && p < 16; p++)
        len += (size_t)snprintf(
            buf + len, sizeof buf - len, "%d %d %d %d\n", srch_em_colour(g, p, 0, SRCH_EM_N),
            srch_em_colour(g, p, 0, SRCH_EM_E), srch_em_colour(g, p, 0, SRCH_EM_S),
            srch_em_colour(g, p, 0, SRCH_EM_W));
    len += (size_t)snprintf(buf + len, sizeof buf - len, "%s", extra);
    srch_em_inst_free(g);
    return em_read(buf, len, SRCH_EM_FORMAT_E2, st);
}

static void test_hints(void)
{
    int sol[32], st;
    srch_em_inst *g = srch_em_inst_gen(4, 4, 2, 3, 7, sol, &st);
    srch_em_inst_free(g);
    char hint[128];
    /* the inner cell (2,2) 1-based = cell 5 holds piece sol[5] */
    snprintf(hint, sizeof hint, "1\n%d 2 2 %d\n", sol[5] + 1, sol[16 + 5]);
    srch_em_inst *in = e2_with(hint, &st, sol);
    CHECK_MSG(in && srch_em_inst_nclues(in) == 1, "%s", hn_errmsg());
    srch_em_inst_free(in);
    /* the same hint with 2^32 added to each number wrapped to it before */
    snprintf(hint, sizeof hint, "1\n%lld 4294967298 4294967298 %lld\n",
             (long long)sol[5] + 1 + 4294967296LL, (long long)sol[16 + 5] + 4294967296LL);
    in = e2_with(hint, &st, sol);
    CHECK(in == NULL && st == HN_ERR_FORMAT);
    CHECK_MSG(says("line 19", "out of range"), "%s", hn_errmsg());
    srch_em_inst_free(in);
    /* INT_MIN - 1 would overflow when made 0-based */
    in = e2_with("1\n-2147483648 1 1 0\n", &st, sol);
    CHECK(in == NULL && st == HN_ERR_FORMAT && says("line 19", "piece"));
    srch_em_inst_free(in);
    in = e2_with("1\n1 1 1 7\n", &st, sol);
    CHECK(in == NULL && says("line 19", "rotation"));
    srch_em_inst_free(in);
}

static void test_em_lines(void)
{
    int st;
    static const char nul[] = "3 3\n0 0 1 1\0 2\n";
    srch_em_inst *in = em_read(nul, sizeof nul - 1, SRCH_EM_FORMAT_META, &st);
    CHECK(in == NULL && st == HN_ERR_FORMAT);
    CHECK_MSG(says("line 2", "NUL byte at column 8"), "%s", hn_errmsg());
    srch_em_inst_free(in);
}

static void test_solutions(void)
{
    int sol[40], st;
    srch_em_inst *in = srch_em_inst_gen(5, 4, 2, 3, 11, sol, &st);
    CHECK(in != NULL);
    if (!in)
        return;
    char buf[8192];
    size_t len = 0;
    for (int c = 0; c < 20; c++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%d %d\n", sol[c], sol[20 + c]);
    int piece[20], rot[20];
    put(buf, len);
    CHECK(srch_em_sol_read(in, FILE_NAME, piece, rot) == HN_OK);
    CHECK(memcmp(piece, sol, sizeof piece) == 0);
    /* a long comment line used to be cut at 1023 characters and its tail
     * read as the next line ("7 1" after the cut) */
    size_t at = (size_t)snprintf(buf, sizeof buf, "# ");
    memset(buf + at, 'x', 1030);
    at += 1030;
    at += (size_t)snprintf(buf + at, sizeof buf - at, " 7 1\n");
    for (int c = 0; c < 20; c++)
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%d %d\n", sol[c], sol[20 + c]);
    put(buf, at);
    CHECK(srch_em_sol_read(in, FILE_NAME, piece, rot) == HN_ERR_FORMAT);
    CHECK_MSG(says("line 1:", "longer than"), "%s", hn_errmsg());
    /* a NUL inside a line */
    static const char nul[] = "0 0\n1\0 1\n";
    put(nul, sizeof nul - 1);
    CHECK(srch_em_sol_read(in, FILE_NAME, piece, rot) == HN_ERR_FORMAT);
    CHECK_MSG(says("line 2", "NUL"), "%s", hn_errmsg());
    /* a number past long: sscanf's overflow was undefined */
    put("99999999999999999999999 0\n", 26);
    CHECK(srch_em_sol_read(in, FILE_NAME, piece, rot) == HN_ERR_FORMAT && says("line 1", NULL));
    srch_em_inst_free(in);
}

int main(void)
{
    test_np();
    test_hints();
    test_em_lines();
    test_solutions();
    remove(FILE_NAME);
    return CHECK_DONE();
}
