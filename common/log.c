/* Logging through a caller-installed sink, the stop flag set by signals, and
 * small process facts (time, memory, version). */
#include "common/hn.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static hn_log_fn log_fn;
static void *log_user;

void hn_log_set(hn_log_fn fn, void *user)
{
    log_fn = fn;
    log_user = user;
}

void hn_log(int level, const char *fmt, ...)
{
    if (!log_fn)
        return;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    log_fn(level, buf, log_user);
}

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
    stop_flag = 1;
    signal(sig, SIG_DFL); /* a second Ctrl-C kills at once */
}

void hn_stop_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int hn_stop_requested(void)
{
    return stop_flag != 0;
}
void hn_stop_set(int value)
{
    stop_flag = value;
}

double hn_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

long hn_peak_rss_kb(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return -1;
    return ru.ru_maxrss;
}

const char *hn_version(void)
{
    return HN_VERSION_STRING;
}
const char *hn_revision(void)
{
    return HN_GIT_REV;
}
