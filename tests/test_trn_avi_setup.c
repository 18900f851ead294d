/* train/avi_setup.c: a resumed round log keeps one line per round, the
 * checkpoint guard refuses to replace a file that is not the run's own,
 * and instance files give their states and lengths (a missing length or
 * an empty file refused). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/hn.h"
#include "train/trn_avi_setup.h"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0);
}

static char *read_file(const char *path)
{
    static char buf[4096];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[n] = 0;
    if (f)
        fclose(f);
    return buf;
}

static void test_log_truncate(void)
{
    const char *log = "test_trn_avi_setup.log.csv";
    int dropped = -1;
    write_file(log, "round,loss\n1,0.5\n2,0.4\n3,0.3\n");
    CHECK(trn_avi_log_truncate(log, 2, &dropped) == HN_OK && dropped == 2);
    CHECK(!strcmp(read_file(log), "round,loss\n1,0.5\n"));
    /* nothing to drop: the file stays as it was */
    CHECK(trn_avi_log_truncate(log, 5, &dropped) == HN_OK && dropped == 0);
    CHECK(!strcmp(read_file(log), "round,loss\n1,0.5\n"));
    remove(log);
    CHECK(trn_avi_log_truncate(log, 1, &dropped) == HN_ERR_IO);
}

static void test_checkpoint_check(void)
{
    const char *ck = "test_trn_avi_setup.ck.h5", *other = "test_trn_avi_setup.other.h5";
    remove(ck);
    CHECK(trn_avi_checkpoint_check(ck, NULL) == HN_OK); /* no file yet */
    write_file(ck, "x");
    write_file(other, "y");
    CHECK(trn_avi_checkpoint_check(ck, NULL) == HN_ERR_ARG);
    CHECK(strstr(hn_errmsg(), "--force") != NULL);
    CHECK(trn_avi_checkpoint_check(ck, other) == HN_ERR_ARG);
    CHECK(trn_avi_checkpoint_check(ck, ck) == HN_OK); /* the checkpoint it continues */
    CHECK(trn_avi_checkpoint_check(".", NULL) == HN_ERR_ARG);
    remove(ck);
    remove(other);
}

static void test_states_read(void)
{
    const char *f = "test_trn_avi_setup.txt";
    int st;
    dom *d = dom_open("npuzzle:3x3", &st);
    uint8_t *s = NULL;
    int *len = NULL;
    size_t n = 0;
    CHECK(d != NULL);
    if (!d)
        return;
    write_file(f, "a 0 0 1 2 3 4 5 6 7 8\nb 1 1 0 2 3 4 5 6 7 8\n");
    CHECK(trn_avi_states_read(d, f, NULL, NULL, &s, &len, &n) == HN_OK && n == 2);
    CHECK(len && len[0] == 0 && len[1] == 1);
    CHECK(s && memcmp(s, s + dom_state_bytes(d), dom_state_bytes(d)) != 0);
    free(s);
    free(len);
    write_file(f, "a 1 0 2 3 4 5 6 7 8\n"); /* no length */
    CHECK(trn_avi_states_read(d, f, NULL, NULL, &s, &len, &n) == HN_ERR_FORMAT && !s && !len);
    CHECK(trn_avi_states_read(d, f, NULL, NULL, &s, NULL, &n) == HN_OK && n == 1);
    free(s);
    write_file(f, "# nothing\n");
    CHECK(trn_avi_states_read(d, f, NULL, NULL, &s, NULL, &n) == HN_ERR_FORMAT && !s);
    remove(f);
    dom_free(d);
}

int main(void)
{
    test_log_truncate();
    test_checkpoint_check();
    test_states_read();
    return CHECK_DONE();
}
