/* common: what every heurnet module shares — status codes with a detailed
 * per-thread error message, logging through a callback, a stop flag for
 * Ctrl-C, timing, a progress reporter, the RNG. The HDF5
 * helpers are in the private common/hn_h5.h. */
#ifndef HN_H
#define HN_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/hn_version.h"

HEURNET_API_BEGIN

/* ---- status codes ------------------------------------------------------ */

enum hn_status {
    HN_OK = 0,
    HN_ERR_NOMEM = -1,        /* allocation failed */
    HN_ERR_IO = -2,           /* file could not be opened, read or written */
    HN_ERR_FORMAT = -3,       /* file or text does not follow its format */
    HN_ERR_ARG = -4,          /* invalid argument or option */
    HN_ERR_SHAPE = -5,        /* array shapes do not fit together */
    HN_ERR_NAN = -6,          /* NaN or infinity where numbers were expected */
    HN_ERR_UNSOLVABLE = -7,   /* puzzle board cannot reach the goal */
    HN_ERR_LIMIT = -8,        /* a node, memory or time limit was reached */
    HN_ERR_INTERRUPTED = -9,  /* stopped on request (Ctrl-C, SIGTERM) */
    HN_ERR_HDF5 = -10,        /* the HDF5 library reported an error */
    HN_ERR_UNSUPPORTED = -11, /* valid request this build or format cannot do */
    HN_ERR_BUSY = -12         /* a lock is held by another process */
};

/* Short fixed description of a status code (never NULL). */
const char *hn_strerror(int status);

/* Record a detailed message for the calling thread and return `status`, so
 * library code can write `return hn_fail(HN_ERR_FORMAT, "%s: line %d: ...")`.
 * The message stays until the next hn_fail on this thread. */
int hn_fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The calling thread's last detailed message, or hn_strerror of the last
 * status when none was given. Owned by the library; valid until the next
 * hn_fail on this thread. */
const char *hn_errmsg(void);

/* Forget the calling thread's last message. */
void hn_error_clear(void);

/* ---- logging ----------------------------------------------------------- */

enum hn_log_level { HN_LOG_DEBUG = 0, HN_LOG_INFO = 1, HN_LOG_WARN = 2 };

typedef void (*hn_log_fn)(int level, const char *msg, void *user);

/* Install the sink for library log messages (NULL: drop them). Libraries
 * never print; the command line decides where messages go. */
void hn_log_set(hn_log_fn fn, void *user);
void hn_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- stop requests ----------------------------------------------------- */

/* Install SIGINT/SIGTERM handlers that set the stop flag (first signal) and
 * restore the default action (second signal). Called by the command line. */
void hn_stop_install(void);
/* Nonzero once a stop was requested; long-running library loops poll this
 * and return HN_ERR_INTERRUPTED after leaving their output consistent. */
int hn_stop_requested(void);
/* Request a stop programmatically (tests) or clear it (value 0). */
void hn_stop_set(int value);

/* ---- isolation for files that cannot be verified ---------------------- */

/* A file without a checksum trailer cannot be verified, and libhdf5 can crash
 * on a damaged one. With an isolation function set, the readers first run
 * themselves on such a file through it and refuse the file when that fails.
 * The function runs fn(arg) where a crash cannot reach the caller (the
 * executable and the tests fork a child, cli/isolate.c) and returns 0 if fn
 * returned, HN_ERR_FORMAT if it did not, HN_ERR_IO if it could not be run;
 * on failure why (cap bytes) says how it ended. The library itself never
 * forks or ends a process: without a function (the default) such files are
 * read in the calling process. */
typedef int (*hn_isolate_fn)(void (*fn)(void *), void *arg, char *why, size_t cap);
void hn_isolate_set(hn_isolate_fn fn);

/* ---- time and memory --------------------------------------------------- */

double hn_now(void);       /* monotonic seconds */
long hn_peak_rss_kb(void); /* peak resident set size of the process */
/* bytes (zeroed when `zero`) for a table read at random: from 2 MB up on
 * 2 MB boundaries with transparent huge pages asked for. free() it. NULL
 * when out of memory. */
void *hn_alloc_huge(size_t bytes, int zero);
const char *hn_version(void);  /* "0.1.0" */
const char *hn_revision(void); /* git revision the build came from */

/* ---- progress reporter (stderr) ---------------------------------------- */

/* On a terminal the line is redrawn in place with rate and ETA; otherwise a
 * plain line is written every few seconds. `total` 0 means unknown. */
typedef struct hn_progress hn_progress;

hn_progress *hn_progress_new(const char *label, uint64_t total, int quiet);
/* Report `done` units finished; `extra` (may be NULL) is appended verbatim. */
void hn_progress_update(hn_progress *p, uint64_t done, const char *extra);
/* Draw the final line and free the reporter. NULL is allowed. */
void hn_progress_finish(hn_progress *p);

/* Progress callback type libraries accept instead of printing themselves. */
typedef void (*hn_progress_fn)(uint64_t done, uint64_t total, const char *extra, void *user);

/* ---- random numbers (GSL mt19937) -------------------------------------- */

typedef struct hn_rng hn_rng;

hn_rng *hn_rng_new(uint64_t seed); /* NULL on allocation failure */
void hn_rng_free(hn_rng *r);
uint64_t hn_rng_u64(hn_rng *r);
uint32_t hn_rng_below(hn_rng *r, uint32_t n); /* uniform in [0, n), n > 0 */
double hn_rng_uniform(hn_rng *r);             /* uniform in [0, 1) */
double hn_rng_gauss(hn_rng *r, double sigma);
/* Serialised state for checkpoints: size in bytes, and copy out / in. */
size_t hn_rng_state_size(const hn_rng *r);
void hn_rng_state_get(const hn_rng *r, void *buf);
void hn_rng_state_set(hn_rng *r, const void *buf);
/* Whether buf (len bytes, e.g. read from a checkpoint) is a state that
 * hn_rng_state_set may take: 0, or HN_ERR_FORMAT with the reason. */
int hn_rng_state_check(const void *buf, size_t len);
/* A seed derived from (seed, stream), so shards and threads get independent
 * reproducible streams (SplitMix64 mixing). */
uint64_t hn_seed_mix(uint64_t seed, uint64_t stream);

/* ---- file checksums (common/seal.c) ------------------------------------ */

/* A finished model, dataset or checkpoint ends with a 24-byte trailer holding
 * a CRC-32 of all bytes before it (HDF5 ignores bytes past its end).
 * hn_file_seal appends it to a closed file (a file sealed already is only
 * verified). hn_file_verify: 0 with *sealed 1 if the trailer is there and
 * matches, 0 with *sealed 0 if there is none, HN_ERR_FORMAT (message names
 * the file) if the trailer or the data is damaged, HN_ERR_IO on read errors.
 * hn_file_unseal verifies and removes the trailer before a writer reopens the
 * file for writing. */
int hn_file_seal(const char *path);
int hn_file_verify(const char *path, int *sealed);
int hn_file_unseal(const char *path);

/* ---- numbers ------------------------------------------------------------ */

/* 1 if s is a plain decimal number: digits, a leading '-' only when minus,
 * and for real numbers one point and an exponent; no blank, '+', hex, inf
 * or nan (strtod accepts all of them). 0 otherwise, also for NULL. */
int hn_number_plain(const char *s, int minus, int real);

/* ---- text lines -------------------------------------------------------- */

/* Read one line of `f` without its newline into buf (NUL-terminated; cap
 * >= 1). Returns 1 with *len, 0 at end of file, HN_ERR_IO on a read error,
 * or HN_ERR_FORMAT for a line of cap or more characters (consumed up to its
 * newline, so reading can go on) or a NUL byte in the line. Messages carry
 * no file or line number: the caller adds them. */
int hn_line_read(FILE *f, char *buf, size_t cap, size_t *len);

/* ---- safe output files ------------------------------------------------- */

/* Writers create a temporary file next to `path` and rename it over `path`
 * only when complete, so an error or Ctrl-C never leaves a half-written
 * output. The temporary name, `<path>.<pid>-<token>.part`, is private to
 * the calling process (two processes writing one path never share it);
 * hn_part_path only fills it in (for a folder, or HDF5's H5F_ACC_EXCL). */
int hn_part_path(const char *path, char *buf, size_t cap);
/* Create the temporary file with O_CREAT|O_EXCL|O_NOFOLLOW (a planted file
 * or symlink is refused, never followed) and fill its name into buf.
 * Returns the open descriptor (the caller closes it) or a negative status. */
int hn_part_open(const char *path, char *buf, size_t cap);
/* hn_part_open as a stdio stream for writing and reading back ("w+b");
 * NULL with *status on error. */
FILE *hn_part_fopen(const char *path, char *buf, size_t cap, int *status);
int hn_part_commit(const char *path); /* rename the temporary file to path */
/* Seal the temporary file with a checksum (hn_file_seal), then rename it. */
int hn_part_commit_sealed(const char *path);
void hn_part_discard(const char *path);
/* Write `head` then `body` into the temporary file and rename it over `path`
 * (the cache tables: header, then table): 0, or a status with a message
 * naming `path` and the reason; nothing is left behind on failure. */
int hn_part_save(const char *path, const void *head, size_t head_bytes, const void *body,
                 uint64_t body_bytes);
/* Read or write exactly n bytes of fd, in pieces a system call takes: 0, or
 * -1 on an error or an end of file first (errno says which, 0 for the end). */
int hn_fd_read_full(int fd, void *buf, uint64_t n);
int hn_fd_write_full(int fd, const void *buf, uint64_t n);
/* CRC-32 (zlib's crc32) of n bytes, past 4 GB too. */
uint32_t hn_crc32(const void *data, uint64_t n);
/* 1 when `path` exists and is neither a regular file nor a folder (a device
 * such as /dev/stdout or /dev/full, a FIFO; symlinks followed): writers
 * write it in place instead of renaming a temporary file over it. */
int hn_path_is_special(const char *path);
/* Take an exclusive lock on `<path>.lock` (created if needed, never written,
 * never through a symlink) so that a second process building or extending
 * the same file waits for the first instead of repeating its work. With
 * wait = 0 a held lock fails at once with HN_ERR_BUSY; *waited (optional)
 * is set when the call had to wait. Returns a descriptor for hn_lock_release, or a negative
 * status with a message naming the lock file. */
int hn_lock_take(const char *path, int wait, int *waited);
void hn_lock_release(int fd); /* accepts a negative descriptor */
/* Release the lock and remove its file (a cache keeps no lock files): a
 * process waiting for it then locks a fresh file. Accepts fd < 0. */
void hn_lock_drop(const char *path, int fd);

/* ---- cache files ------------------------------------------------------- */

/* How a file of the cache folder is read and made. load: 0 when read into
 * ctx's memory, 1 when there is no such file, or a negative status with
 * hn_errmsg() for a damaged or foreign one (built again); make: build it
 * in memory, 0 or a status; keep: write it to path through hn_part_open
 * or hn_part_save (a temporary name, then a rename), 0 or a status. */
typedef struct hn_cache_ops {
    int (*load)(void *ctx, const char *path);
    int (*make)(void *ctx);
    int (*keep)(void *ctx, const char *path);
} hn_cache_ops;

/* Load path, else make and keep it once among processes and threads: the
 * maker holds path's lock (hn_lock_take) from the second look to the
 * rename, the others wait and then load its file. A killed maker's lock
 * goes with its process and its temporary file is removed by the next
 * maker; no file appears under path before it is whole, and no lock file
 * stays after (hn_lock_drop). A keep that fails
 * is logged, not returned (the table in memory is good). *made (may be
 * NULL) is 1 when this call made it. 0, or the status of make, or
 * HN_ERR_INTERRUPTED on a stop request while waiting. */
int hn_cache_fill(const char *path, const hn_cache_ops *ops, void *ctx, int *made);

HEURNET_API_END

#endif
