/* Pieces the exporters share: the model as inference sees it (batch norm and
 * target scaling folded), the encoder string taken apart, a growable byte
 * buffer, and files written under a temporary name. */
#ifndef NN_EXPORT_PRIVATE_H
#define NN_EXPORT_PRIVATE_H

#include <stdio.h>

#include "nn/export.h"

/* One dense layer after folding: y = act(x @ w + b), w row-major [in, out]. */
struct nn_ex_dense {
    int in, out;
    enum nn_act act;
    float alpha; /* ELU alpha */
    float *w, *b;
};

/* The whole net after folding. Target scaling y = raw * scale + offset is
 * folded into the last layer when it is linear; otherwise `post` is 1 and
 * the writer applies it after the last activation. */
struct nn_ex_net {
    int n_layers;
    struct nn_ex_dense layer[NN_MAX_LAYERS];
    int post;
    float post_scale, post_offset;
};

/* Fill *net from the model (allocates w and b). 0 or HN_ERR_NOMEM; free
 * with nn_ex_net_free (also after a failure). */
int nn_ex_fold(const nn_model *m, struct nn_ex_net *net);
void nn_ex_net_free(struct nn_ex_net *net);

/* An encoder string such as "npuzzle-onehot n=4 goal=blank-first". */
#define NN_EX_MAX_CELLS 25
struct nn_ex_encoder {
    char name[64];                  /* first word, "" when the model records none */
    int npuzzle;                    /* 1: npuzzle-onehot with a known width and goal */
    int width;                      /* board width N */
    char goal[16];                  /* "blank-first" / "blank-last" */
    int goal_tile[NN_EX_MAX_CELLS]; /* tile at each row-major cell of the goal */
};
void nn_ex_encoder_parse(const char *enc, struct nn_ex_encoder *e);
/* "0 1 2 ... 15" (the goal tiles, row-major) into buf; "" if not npuzzle. */
void nn_ex_goal_string(const struct nn_ex_encoder *e, char *buf, size_t cap);
/* One sentence saying how a board becomes the input vector. */
void nn_ex_encoding_text(const struct nn_ex_encoder *e, int inputs, char *buf, size_t cap);

/* A growable byte buffer; `failed` sticks after the first allocation failure
 * so writers check once at the end. */
struct nn_ex_buf {
    unsigned char *p;
    size_t n, cap;
    int failed;
};
void nn_ex_buf_put(struct nn_ex_buf *b, const void *src, size_t n);
/* A float as 4 little-endian bytes, whatever the host's byte order. */
void nn_ex_buf_put_f32le(struct nn_ex_buf *b, float f);
void nn_ex_buf_free(struct nn_ex_buf *b);

/* Text and binary files written to `path.part`, renamed when closed with
 * ok = 1 and no write error; removed otherwise. */
FILE *nn_ex_part_open(const char *path, int *status);
int nn_ex_part_close(FILE *f, const char *path, int ok);
/* Write n bytes to path atomically. */
int nn_ex_write_file(const char *path, const void *data, size_t n);

/* The shortest decimal that reads back as the same float ("0.001", not
 * "0.00100000005"); buf of at least 32 bytes. */
void nn_ex_float_str(float v, char *buf, size_t cap);

/* A JSON / Python string literal (double quotes, escapes) to f. */
void nn_ex_put_quoted(FILE *f, const char *s);

#endif
