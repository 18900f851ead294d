/* common: attributes of the wrong shape, type or padding are refused or read
 * exactly (issue 22, defects 1 and 4), a damaged RNG state is refused, and
 * the file seal (whole-file CRC in the user block) catches every flipped byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/hn.h"
#include "cli/isolate.h"
#include "common/hn_h5.h"
#include "tests/check.h"

static void put_array_attr(hid_t f, const char *name, hid_t type, const void *val, hsize_t n)
{
    hid_t sp = H5Screate_simple(1, &n, NULL);
    hid_t a = H5Acreate2(f, name, type, sp, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(a >= 0 && H5Awrite(a, type, val) >= 0);
    H5Aclose(a);
    H5Sclose(sp);
}

static void put_fixed_str(hid_t f, const char *name, const char *val, size_t size, H5T_str_t pad)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, size);
    H5Tset_strpad(t, pad);
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(f, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(a >= 0 && H5Awrite(a, t, val) >= 0);
    H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(t);
}

/* Defect 1: a 1x64 array read as a scalar wrote past the caller's variable. */
static void test_array_attrs(hid_t f)
{
    double many[64];
    for (int i = 0; i < 64; i++)
        many[i] = i + 1;
    put_array_attr(f, "epochs", H5T_NATIVE_DOUBLE, many, 64);
    static char strs[64][100];
    for (int i = 0; i < 64; i++)
        snprintf(strs[i], sizeof strs[i], "s%d", i);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, 100);
    put_array_attr(f, "names", t, strs, 64);
    H5Tclose(t);
    struct {
        long long v;
        long long guard[4];
    } n = {0, {0, 0, 0, 0}};
    CHECK(hn_h5_attr_get_int(f, "epochs", &n.v) == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "epochs") != NULL);
    CHECK(n.guard[0] == 0 && n.guard[3] == 0);
    double d = 0;
    CHECK(hn_h5_attr_get_double(f, "epochs", &d) == HN_ERR_FORMAT);
    char buf[256];
    CHECK(hn_h5_attr_get_str(f, "names", buf, sizeof buf) == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "names") != NULL);
    /* a one-element array is a scalar in all but name */
    put_array_attr(f, "one", H5T_NATIVE_DOUBLE, many, 1);
    CHECK(hn_h5_attr_get_double(f, "one", &d) == HN_OK && d == 1.0);
}

/* Numbers must be finite, and integers integral and in range. */
static void test_number_values(hid_t f)
{
    long long n = 0;
    double d = 0;
    CHECK(hn_h5_attr_set_double(f, "nan", 0.0 / 0.0) == HN_OK);
    CHECK(hn_h5_attr_set_double(f, "big", 1e30) == HN_OK);
    CHECK(hn_h5_attr_set_double(f, "half", 2.5) == HN_OK);
    CHECK(hn_h5_attr_set_str(f, "word", "12") == HN_OK);
    CHECK(hn_h5_attr_get_double(f, "nan", &d) == HN_ERR_FORMAT);
    CHECK(hn_h5_attr_get_int(f, "nan", &n) == HN_ERR_FORMAT);
    CHECK(hn_h5_attr_get_int(f, "big", &n) == HN_ERR_FORMAT);
    CHECK(hn_h5_attr_get_int(f, "half", &n) == HN_ERR_FORMAT);
    CHECK(hn_h5_attr_get_int(f, "word", &n) == HN_ERR_FORMAT);
    unsigned long long huge = 0xffffffffffffffffULL;
    hsize_t one = 1;
    hid_t sp = H5Screate_simple(1, &one, NULL);
    hid_t a = H5Acreate2(f, "u64", H5T_STD_U64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(a >= 0 && H5Awrite(a, H5T_NATIVE_ULLONG, &huge) >= 0);
    H5Aclose(a);
    H5Sclose(sp);
    CHECK(hn_h5_attr_get_int(f, "u64", &n) == HN_ERR_FORMAT);
    CHECK(hn_h5_attr_set_int(f, "neg", -5) == HN_OK);
    CHECK(hn_h5_attr_get_int(f, "neg", &n) == HN_OK && n == -5);
    CHECK(hn_h5_attr_get_double(f, "neg", &d) == HN_OK && d == -5.0);
}

/* Defect 4: a fixed-length NULLPAD string lost its last character. */
static void test_string_padding(hid_t f)
{
    char buf[64];
    put_fixed_str(f, "nullpad", "elu", 3, H5T_STR_NULLPAD);
    CHECK(hn_h5_attr_get_str(f, "nullpad", buf, sizeof buf) == HN_OK && !strcmp(buf, "elu"));
    put_fixed_str(f, "nullpad_short", "ab\0\0\0", 5, H5T_STR_NULLPAD);
    CHECK(hn_h5_attr_get_str(f, "nullpad_short", buf, sizeof buf) == HN_OK && !strcmp(buf, "ab"));
    put_fixed_str(f, "spacepad", "relu  ", 6, H5T_STR_SPACEPAD);
    CHECK(hn_h5_attr_get_str(f, "spacepad", buf, sizeof buf) == HN_OK && !strcmp(buf, "relu"));
    put_fixed_str(f, "nullterm", "linear", 7, H5T_STR_NULLTERM);
    CHECK(hn_h5_attr_get_str(f, "nullterm", buf, sizeof buf) == HN_OK && !strcmp(buf, "linear"));
    /* a value that does not fit is an error, not a silent truncation */
    char small[4];
    CHECK(hn_h5_attr_get_str(f, "nullterm", small, sizeof small) == HN_ERR_FORMAT);
    double d;
    CHECK(hn_h5_attr_get_double(f, "nullterm", &d) == HN_ERR_FORMAT);
}

static hid_t put_dset(hid_t f, const char *name, hid_t type, hsize_t n, hsize_t max, hsize_t chunk)
{
    hid_t sp = H5Screate_simple(1, &n, &max);
    hid_t pl = H5Pcreate(H5P_DATASET_CREATE);
    if (chunk)
        CHECK(H5Pset_chunk(pl, 1, &chunk) >= 0);
    hid_t d = H5Dcreate2(f, name, type, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
    CHECK(d >= 0);
    H5Pclose(pl);
    H5Sclose(sp);
    return d;
}

/* A damaged type or chunk layout made libhdf5 allocate gigabytes in
 * H5Dread (the fuzzed checkpoint oom-d60c...): such datasets are refused
 * before any read, by name; extendible datasets with large chunks pass. */
static void test_dset_check(hid_t f)
{
    struct {
        const char *name;
        hid_t type;
        hsize_t n, max, chunk;
        int ok;
    } cases[] = {
        {"f32", H5T_NATIVE_FLOAT, 8, 8, 0, 1},
        {"u16_grow", H5T_NATIVE_UINT16, 4, H5S_UNLIMITED, 65536, 1},
        {"f32_chunked", H5T_NATIVE_FLOAT, 8, 8, 4, 1},
        {"ldouble", H5T_NATIVE_LDOUBLE, 8, 8, 0, 0},
        {"huge_chunk", H5T_NATIVE_DOUBLE, 4, H5S_UNLIMITED, (hsize_t)1 << 24, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hid_t d =
            put_dset(f, cases[i].name, cases[i].type, cases[i].n, cases[i].max, cases[i].chunk);
        int rc = hn_h5_dset_check(d, "file.h5", cases[i].name);
        CHECK(cases[i].ok ? rc == HN_OK : rc == HN_ERR_FORMAT);
        if (!cases[i].ok)
            CHECK(strstr(hn_errmsg(), "file.h5") && strstr(hn_errmsg(), cases[i].name));
        H5Dclose(d);
    }
    hid_t s = H5Tcopy(H5T_C_S1);
    H5Tset_size(s, 16);
    hid_t d = put_dset(f, "strings", s, 2, 2, 0);
    CHECK(hn_h5_dset_check(d, "file.h5", "strings") == HN_ERR_FORMAT);
    H5Dclose(d);
    H5Tclose(s);
}

static void test_attrs(void)
{
    const char *path = "test_hn_h5files.h5";
    hn_h5_quiet();
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(f >= 0);
    test_array_attrs(f);
    test_number_values(f);
    test_string_padding(f);
    test_dset_check(f);
    H5Fclose(f);
    unlink(path);
}

static int isolate_calls;

static int isolate_refuse(void (*fn)(void *), void *arg, char *why, size_t cap)
{
    (void)fn;
    (void)arg;
    isolate_calls++;
    snprintf(why, cap, "signal 11");
    return HN_ERR_FORMAT;
}

/* A file without a checksum goes through the program's isolation function
 * (a failure there refuses it, naming the file); a sealed file does not, and
 * without a function the library reads it in-process. */
static void test_isolation(void)
{
    const char *path = "test_hn_h5files_iso.h5";
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(f >= 0 && H5Fclose(f) >= 0);
    hn_isolate_set(isolate_refuse);
    isolate_calls = 0;
    CHECK(hn_h5_open_read(path) == HN_ERR_FORMAT && isolate_calls == 1);
    CHECK(strstr(hn_errmsg(), path) && strstr(hn_errmsg(), "signal 11"));
    CHECK(hn_file_seal(path) == HN_OK);
    f = hn_h5_open_read(path);
    CHECK(f >= 0 && isolate_calls == 1);
    H5Fclose(f);
    CHECK(hn_file_unseal(path) == HN_OK);
    hn_isolate_set(NULL);
    f = hn_h5_open_read(path);
    CHECK(f >= 0 && isolate_calls == 1);
    H5Fclose(f);
    hn_isolate_set(cli_isolate);
    unlink(path);
}

/* Defect 7: a damaged mt19937 position crashed in gsl_rng_get. */
static void test_rng_state(void)
{
    hn_rng *r = hn_rng_new(5);
    size_t n = hn_rng_state_size(r);
    unsigned char *st = malloc(n);
    hn_rng_state_get(r, st);
    CHECK(hn_rng_state_check(st, n) == HN_OK);
    CHECK(hn_rng_state_check(st, n - 1) == HN_ERR_FORMAT);
    int bad = -1000000;
    memcpy(st + 624 * sizeof(unsigned long), &bad, sizeof bad);
    CHECK(hn_rng_state_check(st, n) == HN_ERR_FORMAT);
    memset(st, 0, n);
    CHECK(hn_rng_state_check(st, n) == HN_ERR_FORMAT);
    free(st);
    hn_rng_free(r);
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

static void poke(const char *path, long at, unsigned char x)
{
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (!f)
        return;
    fseek(f, at, SEEK_SET);
    int c = fgetc(f);
    fseek(f, at, SEEK_SET);
    fputc(c ^ x, f);
    fclose(f);
}

/* The trailer: added once, verified, removed; damage anywhere is found. */
static void test_seal(void)
{
    const char *path = "test_hn_h5files.bin";
    FILE *f = fopen(path, "wb");
    for (int i = 0; f && i < 5000; i++)
        fputc(i * 7 % 251, f);
    if (f)
        fclose(f);
    int sealed = -1;
    CHECK(hn_file_verify(path, &sealed) == HN_OK && sealed == 0);
    CHECK(hn_file_seal(path) == HN_OK && file_size(path) == 5024);
    CHECK(hn_file_seal(path) == HN_OK && file_size(path) == 5024); /* not sealed twice */
    CHECK(hn_file_verify(path, &sealed) == HN_OK && sealed == 1);
    long at[] = {0, 2500, 4999, 5008, 5016, 5020, 5023};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        poke(path, at[i], 0x10);
        CHECK_MSG(hn_file_verify(path, &sealed) == HN_ERR_FORMAT && strstr(hn_errmsg(), path),
                  "byte %ld changed, not found", at[i]);
        poke(path, at[i], 0x10);
    }
    poke(path, 5001, 0x10); /* the magic: the file reads as one without a trailer */
    CHECK(hn_file_verify(path, &sealed) == HN_OK && sealed == 0);
    poke(path, 5001, 0x10);
    CHECK(hn_file_unseal(path) == HN_OK && file_size(path) == 5000);
    CHECK(hn_file_verify(path, &sealed) == HN_OK && sealed == 0);
    unlink(path);
}

int main(void)
{
    test_attrs();
    test_isolation();
    test_rng_state();
    test_seal();
    return CHECK_DONE();
}
