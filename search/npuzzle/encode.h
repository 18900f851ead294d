/* search/npuzzle/encode.h: encoders that turn n-puzzle boards into network
 * inputs, and the encoder names models record (docs/formats.md "Encoders").
 *
 * npuzzle-onehot: a board of C = N*N cells becomes C*C floats with
 * x[t * C + p] = 1 where p is the cell (row-major) holding tile t (t = 0 is
 * the blank), all other entries 0. The board must be in the goal layout the
 * model was trained with; models name it: "npuzzle-onehot n=4 goal=blank-first". */
#ifndef SRCH_NP_ENCODE_H
#define SRCH_NP_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "search/srch.h"

HEURNET_API_BEGIN

/* Inputs of the one-hot encoder for a board of `cells` cells (cells^2). */
int srch_np_encode_width(int cells);

/* Encode one board given as `cells` tiles row-major (a permutation of
 * 0..cells-1, not checked) into x[cells*cells] (fully overwritten). */
void srch_np_encode_onehot_tiles(const uint8_t *tiles, int cells, float *x);

/* Encode n boards stored back to back (n * cells bytes) into x[n, cells^2]. */
void srch_np_encode_onehot_rows(const uint8_t *tiles, size_t n, int cells, float *x);

/* Encode a board in the layout `model_goal`: boards are converted from
 * `board_goal` first when the two differ. */
void srch_np_encode_onehot(const srch_np_board *b, int board_goal, int model_goal, float *x);

/* The encoder name, e.g. "npuzzle-onehot n=4 goal=blank-first", into buf.
 * Returns the length needed (like snprintf). */
int srch_np_encode_name(int width, int goal, char *buf, size_t cap);

/* Parse an encoder name written by srch_np_encode_name. Returns 0 with
 * *width and *goal, or HN_ERR_FORMAT with a message quoting the name. */
int srch_np_encode_parse(const char *name, int *width, int *goal);

/* The domain (domains/dom.h) an n-puzzle encoder name stands for:
 * "npuzzle-onehot n=4 goal=blank-last" -> "npuzzle:4x4:blank-last" (the
 * default goal blank-first adds nothing). 0, or HN_ERR_FORMAT for another
 * encoder. Models without a "domain" attribute are read through it. */
int srch_np_encode_domain(const char *name, char *buf, size_t cap);

HEURNET_API_END

#endif
