/* common/hn_h5.h: small HDF5 helpers shared by the modules that read and
 * write HDF5 files. Private: HDF5's types stay out of the public headers
 * (common/hn.h and the module headers need only the C library). */
#ifndef HN_H5_H
#define HN_H5_H

#include <stddef.h>
#include <stdint.h>

#include <hdf5.h>

#include "common/hn.h"

/* ---- HDF5 helpers ------------------------------------------------------ */

/* Turn off HDF5's automatic error printing (libraries report through status). */
void hn_h5_quiet(void);
/* Open an existing file read-only; on failure the message names the file and
 * says whether it is missing, damaged (checksum mismatch, hn_file_verify) or
 * not HDF5. Returns the file id or a negative status. */
hid_t hn_h5_open_read(const char *path);
/* The same for files heurnet writes itself (models, datasets, checkpoints):
 * a file without a checksum is also opened, with a warning through hn_log
 * that names the file and `heurnet nn upgrade`. */
hid_t hn_h5_open_verified(const char *path);
/* libhdf5 can crash on a damaged file, and a file without a checksum
 * trailer cannot be verified: for such a file, run fn(arg) (a loader on the
 * same arguments) through the isolation function (hn_isolate_set) first.
 * 0 if it returned, the file is sealed (or cannot be read: the loader
 * reports that) or no isolation is set, else HN_ERR_FORMAT naming the file.
 * Inside the isolated run it does nothing. */
int hn_h5_probe_call(const char *path, void (*fn)(void *), void *arg);
/* Create a new HDF5 file at path (fcpl: file-creation properties, or a
 * negative id for the defaults). Never replaces or follows anything at the
 * name; on failure nothing is left there and the message names the file and
 * says why ("Permission denied", "No space left on device"). Returns the file
 * id or HN_ERR_IO. */
hid_t hn_h5_create(const char *path, hid_t fcpl);
/* Claim the space the next writes to an open file may take
 * (posix_fallocate up to its end of allocation plus `bytes`), so a full disk
 * refuses them before HDF5 writes half of them; `committed` (rows the file
 * keeps) goes into the message. HN_OK where the file system cannot
 * preallocate. */
int hn_h5_reserve(hid_t file, const char *path, uint64_t bytes, uint64_t committed);
/* Why the last failed HDF5 write failed, for messages: strerror(errno) when
 * the system set it, else a generic "disk full or I/O error". */
const char *hn_h5_why(void);
int hn_h5_attr_set_str(hid_t obj, const char *name, const char *value);
int hn_h5_attr_set_int(hid_t obj, const char *name, long long value);
int hn_h5_attr_set_double(hid_t obj, const char *name, double value);
/* Longest fixed-length string attribute the readers accept. */
#define HN_H5_STR_MAX 65536
/* Attribute readers: the attribute must hold exactly one value of the right
 * class (a string; an integer or float). A string is read with its stored
 * size and padding into buf (NUL-terminated); one that does not fit in cap is
 * an error, not a truncation. Numbers must be finite; get_int also wants an
 * integral value that fits a long long. Return 0 or HN_ERR_FORMAT (message
 * names the attribute), HN_ERR_NOMEM. */
int hn_h5_attr_get_str(hid_t obj, const char *name, char *buf, size_t cap);
int hn_h5_attr_get_int(hid_t obj, const char *name, long long *value);
int hn_h5_attr_get_double(hid_t obj, const char *name, double *value);
/* One integer >= 0 of up to 64 bits (seeds use all of them). */
int hn_h5_attr_get_u64(hid_t obj, const char *name, uint64_t *value);
int hn_h5_attr_exists(hid_t obj, const char *name); /* 1, 0 */
/* Before a dataset of a file that may be damaged is read: its stored type
 * must be an integer or a float of 1 to 8 bytes, and a chunked layout must
 * have chunks within its maximum extent and HN_H5_CHUNK_MAX bytes.
 * libhdf5 sizes its conversion and chunk buffers from these fields, so a
 * damaged one would make it allocate gigabytes. Returns 0 or
 * HN_ERR_FORMAT with a message naming path and what (a dataset name). */
#define HN_H5_CHUNK_MAX ((size_t)64 << 20)
int hn_h5_dset_check(hid_t d, const char *path, const char *what);

/* Give a file an older heurnet wrote (model, dataset, checkpoint) the
 * checksum, and set the root string attributes of sets[0..n) ("KEY=VALUE";
 * the keys that decide how a file is read are refused, HN_ERR_ARG). The
 * file is copied to FILE.part, changed there, sealed and renamed over
 * FILE; one with a correct checksum and nothing to set stays as it is.
 * *done says which. 0 or a status (FILE unchanged). */
enum { HN_UPGRADE_NONE, HN_UPGRADE_ADDED, HN_UPGRADE_RENEWED };
int hn_h5_upgrade(const char *path, const char *const *sets, int n, int *done);
/* 1 when attribute key decides how a file is read (format, spec, ...). */
int hn_h5_attr_reserved(const char *key);

#endif
