/* A tiny test harness: CHECK records a failure with file:line and goes on,
 * so one run reports every broken assertion; CHECK_DONE() returns the exit code. */
#ifndef HN_TEST_CHECK_H
#define HN_TEST_CHECK_H

#include <math.h>
#include <stdio.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        check_count++;                                                                             \
        if (!(cond)) {                                                                             \
            check_failures++;                                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                          \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                       \
    do {                                                                                           \
        check_count++;                                                                             \
        if (!(cond)) {                                                                             \
            check_failures++;                                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);               \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
        }                                                                                          \
    } while (0)

/* |a - b| <= tol * max(1, |a|, |b|) */
#define CHECK_CLOSE(a, b, tol)                                                                     \
    do {                                                                                           \
        double ca_ = (double)(a), cb_ = (double)(b);                                               \
        double cs_ = fmax(1.0, fmax(fabs(ca_), fabs(cb_)));                                        \
        CHECK_MSG(fabs(ca_ - cb_) <= (tol)*cs_, "%.9g vs %.9g (tol %g)", ca_, cb_, (double)(tol)); \
    } while (0)

#define CHECK_DONE()                                                                               \
    (fprintf(stderr, "%d checks, %d failed\n", check_count, check_failures), check_failures ? 1 : 0)

#endif
