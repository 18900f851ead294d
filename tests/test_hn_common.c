/* common: error messages, RNG reproducibility and state round trip, HDF5
 * attributes, and the .part output discipline. */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/hn.h"
#include "common/hn_h5.h"
#include "tests/check.h"

static void test_errors(void)
{
    int rc = hn_fail(HN_ERR_FORMAT, "%s: line %d: bad", "f.txt", 3);
    CHECK(rc == HN_ERR_FORMAT);
    CHECK(strcmp(hn_errmsg(), "f.txt: line 3: bad") == 0);
    /* context added to the last message: it was garbled (overlapping copy) */
    hn_fail(HN_ERR_FORMAT, "%s: %s", "model.h5", hn_errmsg());
    CHECK(strcmp(hn_errmsg(), "model.h5: f.txt: line 3: bad") == 0);
    hn_error_clear();
    CHECK(strcmp(hn_errmsg(), "success") == 0);
    CHECK(strcmp(hn_strerror(HN_ERR_UNSOLVABLE), "unsolvable board") == 0);
}

static void test_rng(void)
{
    hn_rng *a = hn_rng_new(42), *b = hn_rng_new(42), *c = hn_rng_new(43);
    CHECK(a && b && c);
    uint64_t x = hn_rng_u64(a);
    CHECK(x == hn_rng_u64(b));
    CHECK(x != hn_rng_u64(c));
    unsigned char st[8192];
    CHECK(hn_rng_state_size(a) <= sizeof st);
    hn_rng_state_get(a, st);
    uint64_t next[4];
    for (int i = 0; i < 4; i++)
        next[i] = hn_rng_u64(a);
    hn_rng_state_set(c, st);
    for (int i = 0; i < 4; i++)
        CHECK(hn_rng_u64(c) == next[i]);
    int hist[5] = {0};
    for (int i = 0; i < 50000; i++)
        hist[hn_rng_below(a, 5)]++;
    for (int i = 0; i < 5; i++)
        CHECK(hist[i] > 9500 && hist[i] < 10500);
    CHECK(hn_seed_mix(1, 0) != hn_seed_mix(1, 1));
    hn_rng_free(a);
    hn_rng_free(b);
    hn_rng_free(c);
}

static void test_h5(void)
{
    const char *path = "test_hn_common.h5";
    hn_h5_quiet();
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(f >= 0);
    CHECK(hn_h5_attr_set_str(f, "format", "heurnet-test") == 0);
    CHECK(hn_h5_attr_set_int(f, "n", -7) == 0);
    CHECK(hn_h5_attr_set_double(f, "x", 0.25) == 0);
    H5Fclose(f);
    f = hn_h5_open_read(path);
    CHECK(f >= 0);
    char buf[64];
    long long n = 0;
    double x = 0;
    CHECK(hn_h5_attr_get_str(f, "format", buf, sizeof buf) == 0 && !strcmp(buf, "heurnet-test"));
    CHECK(hn_h5_attr_get_int(f, "n", &n) == 0 && n == -7);
    CHECK(hn_h5_attr_get_double(f, "x", &x) == 0 && x == 0.25);
    CHECK(hn_h5_attr_get_int(f, "format", &n) == HN_ERR_FORMAT);
    CHECK(hn_h5_attr_get_int(f, "missing", &n) == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "missing") != NULL);
    H5Fclose(f);
    CHECK(hn_h5_open_read("no-such-file.h5") == HN_ERR_IO);
    FILE *t = fopen("not-hdf5.h5", "w");
    fputs("hello", t);
    fclose(t);
    CHECK(hn_h5_open_read("not-hdf5.h5") == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "not-hdf5.h5") != NULL);
    unlink("not-hdf5.h5");
    unlink(path);
}

static void test_part(void)
{
    char part[256], again[256];
    int rc;
    FILE *f = hn_part_fopen("out.bin", part, sizeof part, &rc);
    CHECK(f && rc == 0 && !strncmp(part, "out.bin.", 8));
    CHECK(strlen(part) > 13 && !strcmp(part + strlen(part) - 5, ".part"));
    CHECK(hn_part_path("out.bin", again, sizeof again) == 0 && !strcmp(part, again));
    fputs("x", f);
    fclose(f);
    CHECK(access("out.bin", F_OK) != 0);
    CHECK(hn_part_commit("out.bin") == 0);
    CHECK(access("out.bin", F_OK) == 0 && access(part, F_OK) != 0);
    unlink("out.bin");
}

/* Issue 48, defect 1: two processes writing one path shared `PATH.part`. */
static void test_part_private(void)
{
    char mine[256], theirs[256] = "";
    int pipefd[2];
    CHECK(hn_part_path("shared.bin", mine, sizeof mine) == 0);
    CHECK(pipe(pipefd) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        char buf[256];
        hn_part_path("shared.bin", buf, sizeof buf);
        ssize_t n = write(pipefd[1], buf, strlen(buf) + 1);
        _exit(n > 0 ? 0 : 1);
    }
    close(pipefd[1]);
    CHECK(pid > 0 && read(pipefd[0], theirs, sizeof theirs) > 0);
    close(pipefd[0]);
    waitpid(pid, NULL, 0);
    CHECK_MSG(strcmp(mine, theirs) != 0, "both processes write %s", mine);
}

/* Issue 48, defect 2: a symlink planted at the temporary name was followed. */
static void test_part_symlink(void)
{
    char part[256];
    FILE *v = fopen("victim.txt", "w");
    fputs("keep", v);
    fclose(v);
    CHECK(hn_part_path("planted.bin", part, sizeof part) == 0);
    CHECK(symlink("victim.txt", part) == 0);
    int rc = 0;
    FILE *f = hn_part_fopen("planted.bin", part, sizeof part, &rc);
    CHECK(!f && rc == HN_ERR_IO && strstr(hn_errmsg(), "planted.bin") != NULL);
    if (f)
        fclose(f);
    char buf[16] = "";
    v = fopen("victim.txt", "r");
    CHECK(v && fgets(buf, sizeof buf, v) && !strcmp(buf, "keep"));
    if (v)
        fclose(v);
    unlink(part);
    unlink("victim.txt");
    /* a symlink planted as the lock file is refused too */
    CHECK(symlink("victim.txt", "planted.bin.lock") == 0);
    CHECK(hn_lock_take("planted.bin", 0, NULL) == HN_ERR_IO);
    CHECK(access("victim.txt", F_OK) != 0);
    unlink("planted.bin.lock");
}

/* A held lock: a second process's try fails with HN_ERR_BUSY. */
static void test_lock(void)
{
    int fd = hn_lock_take("locked.bin", 0, NULL);
    CHECK(fd >= 0);
    pid_t pid = fork();
    if (pid == 0)
        _exit(hn_lock_take("locked.bin", 0, NULL) == HN_ERR_BUSY ? 0 : 1);
    int ws = 1;
    CHECK(pid > 0 && waitpid(pid, &ws, 0) == pid && WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
    hn_lock_release(fd);
    fd = hn_lock_take("locked.bin", 0, NULL);
    CHECK(fd >= 0);
    hn_lock_release(fd);
    unlink("locked.bin.lock");
}

int main(void)
{
    test_errors();
    test_rng();
    test_h5();
    test_part();
    test_part_private();
    test_part_symlink();
    test_lock();
    return CHECK_DONE();
}
