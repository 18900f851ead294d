/* Structure-aware fuzzing of heurnet's HDF5 loaders, shared by the *_edit
 * harnesses. The raw-byte harnesses (fuzz_model.c, ...) mostly exercise
 * libhdf5's parser, and a file without a valid checksum is probed in a
 * forked child, so they run at tens of inputs per second. Here the input is
 * a list of edits applied through the HDF5 API to a valid seed file (replace
 * an attribute or a dataset by one of another type, shape or value, poke raw
 * bytes into its values, delete it); the result is sealed with a valid
 * checksum, so the loader reads it in-process like a file heurnet wrote.
 * That is the case the checksum cannot catch: a well-formed file whose
 * contents are wrong, as a buggy writer or another tool would produce. */
#ifndef HN_FUZZ_H5EDIT_H
#define HN_FUZZ_H5EDIT_H

#include <hdf5.h>

#include "common/hn_h5.h"
#include "fuzz_util.h"

/* The seed's objects, collected once: datasets and attributes by path. */
struct fz_obj {
    char path[160]; /* object (group or dataset) */
    char attr[64];  /* attribute name, "" for the dataset itself */
};
static struct fz_obj fz_objs[512];
static int fz_nobj;
static uint8_t *fz_seed; /* the seed without its checksum trailer */
static size_t fz_seed_len;
static char fz_empty[1]; /* a string when malloc fails: never freed */

/* Reads the input a byte at a time; zeros once it is used up. */
struct fz_in {
    const uint8_t *p;
    size_t n, at;
};

static inline unsigned fz_u8(struct fz_in *in)
{
    return in->at < in->n ? in->p[in->at++] : 0;
}

static inline void fz_bytes(struct fz_in *in, uint8_t *dst, size_t len)
{
    for (size_t i = 0; i < len; i++)
        dst[i] = (uint8_t)fz_u8(in);
}

static inline void fz_add(const char *path, const char *attr)
{
    if (fz_nobj >= (int)(sizeof fz_objs / sizeof *fz_objs))
        return;
    snprintf(fz_objs[fz_nobj].path, sizeof fz_objs[0].path, "%s", path);
    snprintf(fz_objs[fz_nobj].attr, sizeof fz_objs[0].attr, "%s", attr);
    fz_nobj++;
}

static inline herr_t fz_attr_cb(hid_t loc, const char *name, const H5A_info_t *info, void *op)
{
    (void)loc;
    (void)info;
    fz_add((const char *)op, name);
    return 0;
}

static inline herr_t fz_visit_cb(hid_t root, const char *name, const H5O_info_t *info, void *op)
{
    (void)op;
    char path[160];
    snprintf(path, sizeof path, "%s%s", name[0] == '.' ? "" : "/", name[0] == '.' ? "/" : name);
    if (info->type == H5O_TYPE_DATASET)
        fz_add(path, "");
    hid_t o = H5Oopen(root, path, H5P_DEFAULT);
    if (o >= 0) {
        H5Aiterate2(o, H5_INDEX_NAME, H5_ITER_NATIVE, NULL, fz_attr_cb, path);
        H5Oclose(o);
    }
    return 0;
}

/* Load the seed (a sealed heurnet file) and list its objects; aborts when
 * the seed is unusable, since the harness cannot run without it. */
static inline void fz_seed_load(const char *seed)
{
    hn_h5_quiet();
    /* keep libhdf5's freed blocks for reuse: by default its ~1 MB metadata
     * cache goes back to the allocator at each file close, and under ASan
     * every open then maps and clears fresh pages (most of the time) */
    H5set_free_list_limits(-1, -1, -1, -1, -1, -1);
    const char *tmp = fuzz_scratch(".h5");
    FILE *f = fopen(seed, "rb");
    if (!f) {
        fprintf(stderr, "fuzz: cannot open the seed %s\n", seed);
        abort();
    }
    uint8_t *buf = malloc(1 << 22);
    size_t n = buf ? fread(buf, 1, 1 << 22, f) : 0;
    fclose(f);
    if (!n || fuzz_write(tmp, buf, n) || hn_file_unseal(tmp))
        abort();
    free(buf);
    f = fopen(tmp, "rb");
    fz_seed = malloc(1 << 22);
    if (!f || !fz_seed)
        abort();
    fz_seed_len = fread(fz_seed, 1, 1 << 22, f);
    fclose(f);
    hid_t h = H5Fopen(tmp, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (h < 0 || H5Ovisit2(h, H5_INDEX_NAME, H5_ITER_NATIVE, fz_visit_cb, NULL, H5O_INFO_BASIC) < 0)
        abort();
    H5Fclose(h);
    if (fz_nobj == 0)
        abort();
}

/* A stored type chosen by the input: integers and floats of every size,
 * fixed strings with each padding, variable strings. */
static inline hid_t fz_type(struct fz_in *in)
{
    static const hid_t *num[] = {&H5T_NATIVE_INT8_g,   &H5T_NATIVE_UINT8_g,  &H5T_NATIVE_INT16_g,
                                 &H5T_NATIVE_UINT16_g, &H5T_NATIVE_INT32_g,  &H5T_NATIVE_UINT32_g,
                                 &H5T_NATIVE_INT64_g,  &H5T_NATIVE_UINT64_g, &H5T_NATIVE_FLOAT_g,
                                 &H5T_NATIVE_DOUBLE_g};
    unsigned k = fz_u8(in) % 12;
    if (k < 10)
        return H5Tcopy(*num[k]);
    hid_t t = H5Tcopy(H5T_C_S1);
    if (k == 10) {
        static const H5T_str_t pad[] = {H5T_STR_NULLTERM, H5T_STR_NULLPAD, H5T_STR_SPACEPAD};
        H5Tset_size(t, 1 + fz_u8(in) % 40);
        H5Tset_strpad(t, pad[fz_u8(in) % 3]);
    } else {
        H5Tset_size(t, H5T_VARIABLE);
    }
    return t;
}

/* A dataspace for a replacement: scalar or up to rank 3, small extents, or
 * the original's extents with one of them moved by -2..+2. */
static inline hid_t fz_space(struct fz_in *in, hid_t orig, hsize_t *count)
{
    hsize_t d[3] = {1, 1, 1};
    int rank = 0;
    unsigned mode = fz_u8(in) % 3;
    if (mode == 0 && orig >= 0 && (rank = H5Sget_simple_extent_ndims(orig)) > 0 && rank <= 3) {
        H5Sget_simple_extent_dims(orig, d, NULL);
        int i = (int)(fz_u8(in) % (unsigned)rank);
        hsize_t m = fz_u8(in) % 5;
        d[i] = d[i] + m >= 2 ? d[i] + m - 2 : 0;
    } else {
        rank = mode == 1 ? 0 : 1 + (int)(fz_u8(in) % 3);
        for (int i = 0; i < rank; i++)
            d[i] = fz_u8(in) % 9;
    }
    *count = 1;
    for (int i = 0; i < rank; i++)
        *count *= d[i];
    if (*count > (1u << 16))
        return -1; /* bounded: the point is the shape, not a big file */
    return rank ? H5Screate_simple(rank, d, NULL) : H5Screate(H5S_SCALAR);
}

/* Values for count elements of t: raw input bytes (so NaN, inf, huge and
 * negative numbers all occur), strings of the input's bytes. */
static inline void *fz_values(struct fz_in *in, hid_t t, hsize_t count)
{
    int var = H5Tis_variable_str(t) > 0;
    size_t es = var ? sizeof(char *) : H5Tget_size(t);
    uint8_t *v = calloc(count ? count : 1, es);
    if (!v)
        return NULL;
    if (var) {
        for (hsize_t i = 0; i < count; i++) {
            size_t len = fz_u8(in) % 24;
            char *s = calloc(len + 1, 1);
            if (s)
                fz_bytes(in, (uint8_t *)s, len);
            ((char **)v)[i] = s ? s : fz_empty;
        }
    } else {
        fz_bytes(in, v, (size_t)count * es);
    }
    return v;
}

static inline void fz_values_free(void *v, hid_t t, hsize_t count)
{
    if (v && H5Tis_variable_str(t) > 0)
        for (hsize_t i = 0; i < count; i++)
            if (((char **)v)[i] != fz_empty)
                free(((char **)v)[i]);
    free(v);
}

/* One object of the seed opened for an edit: obj is its group or dataset,
 * h the attribute itself (or obj again for a dataset). obj < 0: nothing is
 * open; h < 0: the attribute is missing. */
struct fz_h {
    hid_t obj, h;
    int attr;
};

static inline struct fz_h fz_open(hid_t f, const struct fz_obj *o)
{
    struct fz_h x = {H5Oopen(f, o->path, H5P_DEFAULT), -1, o->attr[0] != 0};
    if (x.obj >= 0)
        x.h = x.attr ? H5Aopen(x.obj, o->attr, H5P_DEFAULT) : x.obj;
    return x;
}

static inline hid_t fz_h_space(const struct fz_h *x)
{
    return x->h < 0 ? -1 : x->attr ? H5Aget_space(x->h) : H5Dget_space(x->h);
}

static inline hid_t fz_h_type(const struct fz_h *x)
{
    return x->h < 0 ? -1 : x->attr ? H5Aget_type(x->h) : H5Dget_type(x->h);
}

/* Close the attribute (before it is deleted); obj stays open. */
static inline void fz_h_close_attr(struct fz_h *x)
{
    if (x->attr && x->h >= 0)
        H5Aclose(x->h);
    if (x->attr)
        x->h = -1;
}

static inline void fz_h_close(struct fz_h *x)
{
    fz_h_close_attr(x);
    if (x->obj >= 0)
        H5Oclose(x->obj);
    x->obj = x->h = -1;
}

/* Replace the object (an attribute, or a dataset with its attributes
 * lost) by a new one of the input's type, shape and values. */
static inline void fz_replace(hid_t f, const struct fz_obj *o, struct fz_in *in)
{
    struct fz_h x = fz_open(f, o);
    if (x.obj < 0)
        return;
    hid_t osp = fz_h_space(&x);
    hsize_t count;
    hid_t t = fz_type(in), sp = fz_space(in, osp, &count);
    void *v = sp >= 0 ? fz_values(in, t, count) : NULL;
    if (osp >= 0)
        H5Sclose(osp);
    fz_h_close_attr(&x);
    if (v && x.attr) {
        H5Adelete(x.obj, o->attr);
        hid_t a = H5Acreate2(x.obj, o->attr, t, sp, H5P_DEFAULT, H5P_DEFAULT);
        if (a >= 0) {
            H5Awrite(a, t, v);
            H5Aclose(a);
        }
    }
    fz_h_close(&x);
    if (v && !x.attr && H5Ldelete(f, o->path, H5P_DEFAULT) >= 0) {
        hid_t d = H5Dcreate2(f, o->path, t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        if (d >= 0) {
            H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
            H5Dclose(d);
        }
    }
    fz_values_free(v, t, count);
    if (sp >= 0)
        H5Sclose(sp);
    H5Tclose(t);
}

/* Overwrite a few bytes of the stored values in place: same type and shape,
 * wrong contents (a NaN weight, a huge epoch, a negative count). */
static inline void fz_poke(hid_t f, const struct fz_obj *o, struct fz_in *in)
{
    struct fz_h x = fz_open(f, o);
    hid_t ft = fz_h_type(&x), sp = fz_h_space(&x);
    hssize_t n = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : 0;
    hid_t mt = ft >= 0 ? H5Tget_native_type(ft, H5T_DIR_DEFAULT) : -1;
    size_t es = mt >= 0 ? H5Tget_size(mt) : 0;
    int plain = mt >= 0 && H5Tget_class(mt) != H5T_STRING && H5Tget_class(mt) != H5T_VLEN;
    uint8_t *v = plain && n > 0 && (size_t)n * es <= (1u << 22) ? malloc((size_t)n * es) : NULL;
    herr_t rd = !v       ? -1
                : x.attr ? H5Aread(x.h, mt, v)
                         : H5Dread(x.h, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    if (rd >= 0) {
        size_t total = (size_t)n * es;
        for (unsigned k = 1 + fz_u8(in) % 4; k; k--) {
            size_t at = fz_u8(in); /* three bytes, read in order */
            at = at << 8 | fz_u8(in);
            at = (at << 8 | fz_u8(in)) % total;
            v[at] = (uint8_t)fz_u8(in);
        }
        if (x.attr)
            H5Awrite(x.h, mt, v);
        else
            H5Dwrite(x.h, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    }
    free(v);
    if (mt >= 0)
        H5Tclose(mt);
    if (ft >= 0)
        H5Tclose(ft);
    if (sp >= 0)
        H5Sclose(sp);
    fz_h_close(&x);
}

static inline void fz_delete(hid_t f, const struct fz_obj *o)
{
    if (!o->attr[0]) {
        H5Ldelete(f, o->path, H5P_DEFAULT);
        return;
    }
    hid_t obj = H5Oopen(f, o->path, H5P_DEFAULT);
    if (obj >= 0) {
        H5Adelete(obj, o->attr);
        H5Oclose(obj);
    }
}

/* Write the seed with the input's edits applied to path, sealed; 0, or -1
 * when the edited file could not be made (the input is then skipped). */
static inline int fz_edit(const char *path, const uint8_t *data, size_t size)
{
    if (fuzz_write(path, fz_seed, fz_seed_len))
        return -1;
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0)
        abort(); /* the seed itself must open */
    struct fz_in in = {data, size, 0};
    for (int ops = 0; ops < 8 && in.at < in.n; ops++) {
        unsigned op = fz_u8(&in) % 4;
        const struct fz_obj *o = &fz_objs[fz_u8(&in) % (unsigned)fz_nobj];
        if (op == 0)
            fz_replace(f, o, &in);
        else if (op == 3)
            fz_delete(f, o);
        else
            fz_poke(f, o, &in); /* twice as likely: the subtle case */
    }
    if (H5Fclose(f) < 0)
        return -1;
    return hn_file_seal(path) ? -1 : 0;
}

/* Defines libFuzzer's start-up hook of a harness: load the seed (a path
 * under corpus/), then run the statement `then`. */
#define FZ_SEED_INIT(seed, then)                                                                   \
    int LLVMFuzzerInitialize(int *argc, char ***argv);                                             \
    int LLVMFuzzerInitialize(int *argc, char ***argv)                                              \
    {                                                                                              \
        (void)argc;                                                                                \
        (void)argv;                                                                                \
        fz_seed_load(HN_FUZZ_CORPUS "/" seed);                                                     \
        then;                                                                                      \
        return 0;                                                                                  \
    }

/* Harnesses that take both kinds of input: an even first byte means the
 * rest is a raw file, an odd one a list of edits to the seed. Writes the
 * file to path; 0, or -1 when it could not be made. */
static inline int fz_raw_or_edit(const char *path, const uint8_t *data, size_t size)
{
    if (size == 0)
        return -1;
    if (data[0] & 1)
        return fz_edit(path, data + 1, size - 1);
    return fuzz_write(path, data + 1, size - 1);
}

#endif
