/* common: cache files made once (hn_cache_fill). Two threads asking at
 * once build once and both get the file's contents; a maker killed in its
 * build leaves no file under the final name and no lock that blocks, and
 * the next maker removes the temporary file it left; no lock file stays. */
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/hn.h"
#include "tests/check.h"

#define BYTES 4096

typedef struct {
    uint8_t table[BYTES];
    atomic_int *makes; /* shared by the askers: how often make ran */
    int hold_ms;       /* make waits this long, so the askers overlap */
    int made, status;
    const char *path;
} asker;

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void fill(uint8_t *t)
{
    for (int i = 0; i < BYTES; i++)
        t[i] = (uint8_t)(i * 7 + 3);
}

static int t_load(void *arg, const char *path)
{
    asker *a = arg;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 1;
    size_t n = fread(a->table, 1, BYTES, f);
    int extra = fgetc(f) != EOF;
    fclose(f);
    return n == BYTES && !extra ? 0 : hn_fail(HN_ERR_FORMAT, "%s: damaged", path);
}

static int t_make(void *arg)
{
    asker *a = arg;
    atomic_fetch_add(a->makes, 1);
    sleep_ms(a->hold_ms);
    fill(a->table);
    return 0;
}

static int t_keep(void *arg, const char *path)
{
    asker *a = arg;
    return hn_part_save(path, "", 0, a->table, BYTES);
}

static const hn_cache_ops OPS = {t_load, t_make, t_keep};

static void *ask(void *arg)
{
    asker *a = arg;
    a->status = hn_cache_fill(a->path, &OPS, a, &a->made);
    return NULL;
}

static int parts_left(const char *base)
{
    DIR *d = opendir(".");
    int n = 0;
    size_t k = strlen(base);
    for (struct dirent *e; d && (e = readdir(d));)
        n += !strncmp(e->d_name, base, k) &&
             (strstr(e->d_name, ".part") != NULL || strstr(e->d_name, ".lock") != NULL);
    if (d)
        closedir(d);
    return n;
}

/* Two threads of one process: one build, both get the table. */
static void test_threads(void)
{
    const char *path = "cache_threads.bin";
    unlink(path);
    atomic_int makes = 0;
    asker a[2];
    pthread_t tid[2];
    uint8_t want[BYTES];
    fill(want);
    for (int i = 0; i < 2; i++) {
        memset(&a[i], 0, sizeof a[i]);
        a[i].makes = &makes;
        a[i].hold_ms = 300;
        a[i].path = path;
        CHECK(pthread_create(&tid[i], NULL, ask, &a[i]) == 0);
    }
    for (int i = 0; i < 2; i++)
        pthread_join(tid[i], NULL);
    CHECK(atomic_load(&makes) == 1);
    CHECK(a[0].made + a[1].made == 1);
    for (int i = 0; i < 2; i++)
        CHECK(a[i].status == 0 && !memcmp(a[i].table, want, BYTES));
    CHECK(access(path, F_OK) == 0 && parts_left(path) == 0);
    /* a third asker loads it */
    asker c = {.makes = &makes, .path = path};
    CHECK(hn_cache_fill(path, &OPS, &c, &c.made) == 0 && c.made == 0);
    CHECK(atomic_load(&makes) == 1 && !memcmp(c.table, want, BYTES));
    unlink(path);
}

/* A maker killed while it builds: no file, no lock left, its temporary
 * file removed by the next maker, which builds and keeps the table. */
static void test_killed(void)
{
    const char *path = "cache_killed.bin";
    unlink(path);
    int ready[2];
    CHECK(pipe(ready) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = hn_lock_take(path, 0, NULL); /* what hn_cache_fill takes */
        char part[4096];
        int pf = hn_part_open(path, part, sizeof part); /* a write cut short */
        if (fd < 0 || pf < 0 || write(pf, "half", 4) != 4 || write(ready[1], "x", 1) != 1)
            _exit(1);
        pause();
        _exit(0);
    }
    char x;
    CHECK(pid > 0 && read(ready[0], &x, 1) == 1);
    close(ready[0]);
    close(ready[1]);
    CHECK(parts_left(path) == 2);                      /* its temporary file and its lock */
    CHECK(hn_lock_take(path, 0, NULL) == HN_ERR_BUSY); /* held by the maker */
    kill(pid, SIGKILL);
    int ws;
    CHECK(waitpid(pid, &ws, 0) == pid && WIFSIGNALED(ws));
    CHECK(access(path, F_OK) != 0); /* nothing under the final name */
    atomic_int makes = 0;
    asker a = {.makes = &makes, .path = path};
    CHECK(hn_cache_fill(path, &OPS, &a, &a.made) == 0 && a.made == 1);
    CHECK(atomic_load(&makes) == 1 && access(path, F_OK) == 0);
    CHECK(parts_left(path) == 0);
    unlink(path);
}

/* A damaged file is built again and replaced. */
static void test_damaged(void)
{
    const char *path = "cache_damaged.bin";
    FILE *f = fopen(path, "wb");
    CHECK(f && fputs("short", f) >= 0 && fclose(f) == 0);
    atomic_int makes = 0;
    asker a = {.makes = &makes, .path = path};
    CHECK(hn_cache_fill(path, &OPS, &a, &a.made) == 0 && a.made == 1);
    asker b = {.makes = &makes, .path = path};
    CHECK(t_load(&b, path) == 0 && parts_left(path) == 0);
    unlink(path);
}

int main(void)
{
    test_threads();
    test_killed();
    test_damaged();
    return CHECK_DONE();
}
