/* Progress on stderr: redrawn in place with rate and ETA on a terminal, a
 * plain line every few seconds when stderr is a file or pipe (logs stay
 * readable). */
#include "common/hn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct hn_progress {
    char label[64];
    uint64_t total, done;
    double start, last_draw;
    int tty, quiet, drawn;
    char extra[256];
};

hn_progress *hn_progress_new(const char *label, uint64_t total, int quiet)
{
    hn_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    snprintf(p->label, sizeof p->label, "%s", label ? label : "");
    p->total = total;
    p->quiet = quiet;
    p->tty = isatty(STDERR_FILENO);
    p->start = hn_now();
    p->last_draw = p->start;
    return p;
}

static void fmt_eta(double s, char *buf, size_t cap)
{
    if (s < 0 || s > 1e7) {
        snprintf(buf, cap, "?");
        return;
    }
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, cap, "%ldh%02ldm", t / 3600, (t / 60) % 60);
    else
        snprintf(buf, cap, "%ldm%02lds", t / 60, t % 60);
}

static void draw(hn_progress *p, int final)
{
    double el = hn_now() - p->start;
    double rate = el > 0 ? (double)p->done / el : 0.0;
    char eta[32] = "";
    if (p->total && rate > 0 && !final)
        fmt_eta((double)(p->total - p->done) / rate, eta, sizeof eta);
    char line[512];
    int n;
    if (p->total)
        n = snprintf(line, sizeof line, "%s %llu/%llu (%.1f%%) %.1f/s", p->label,
                     (unsigned long long)p->done, (unsigned long long)p->total,
                     100.0 * (double)p->done / (double)p->total, rate);
    else
        n = snprintf(line, sizeof line, "%s %llu %.1f/s", p->label, (unsigned long long)p->done,
                     rate);
    if (n < 0)
        return;
    if (eta[0])
        snprintf(line + strlen(line), sizeof line - strlen(line), " eta %s", eta);
    if (final)
        snprintf(line + strlen(line), sizeof line - strlen(line), " in %.1fs", el);
    if (p->extra[0])
        snprintf(line + strlen(line), sizeof line - strlen(line), " %s", p->extra);
    if (p->tty)
        fprintf(stderr, "\r\033[K%s%s", line, final ? "\n" : "");
    else
        fprintf(stderr, "%s\n", line);
    p->drawn = 1;
}

void hn_progress_update(hn_progress *p, uint64_t done, const char *extra)
{
    if (!p || p->quiet)
        return;
    p->done = done;
    if (extra)
        snprintf(p->extra, sizeof p->extra, "%s", extra);
    double now = hn_now();
    double every = p->tty ? 0.2 : 5.0;
    if (now - p->last_draw >= every) {
        p->last_draw = now;
        draw(p, 0);
    }
}

void hn_progress_finish(hn_progress *p)
{
    if (!p)
        return;
    if (!p->quiet)
        draw(p, 1);
    free(p);
}
