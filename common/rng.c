/* Seeded random numbers on GSL's mt19937, with a state that checkpoints can
 * save and restore bit for bit. */
#include "common/hn.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

struct hn_rng {
    gsl_rng *g;
};

uint64_t hn_seed_mix(uint64_t seed, uint64_t stream)
{
    uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (stream + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

hn_rng *hn_rng_new(uint64_t seed)
{
    hn_rng *r = malloc(sizeof *r);
    if (!r)
        return NULL;
    r->g = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r->g) {
        free(r);
        return NULL;
    }
    /* mt19937 takes an unsigned long seed; fold 64 bits so nearby seeds differ. */
    gsl_rng_set(r->g, (unsigned long)(hn_seed_mix(seed, 0) & 0xffffffffUL));
    return r;
}

void hn_rng_free(hn_rng *r)
{
    if (!r)
        return;
    gsl_rng_free(r->g);
    free(r);
}

uint64_t hn_rng_u64(hn_rng *r)
{
    uint64_t hi = gsl_rng_get(r->g) & 0xffffffffUL;
    uint64_t lo = gsl_rng_get(r->g) & 0xffffffffUL;
    return (hi << 32) | lo;
}

uint32_t hn_rng_below(hn_rng *r, uint32_t n)
{
    return (uint32_t)gsl_rng_uniform_int(r->g, n);
}

double hn_rng_uniform(hn_rng *r)
{
    return gsl_rng_uniform(r->g);
}
double hn_rng_gauss(hn_rng *r, double sigma)
{
    return gsl_ran_gaussian(r->g, sigma);
}
size_t hn_rng_state_size(const hn_rng *r)
{
    return gsl_rng_size(r->g);
}
void hn_rng_state_get(const hn_rng *r, void *buf)
{
    memcpy(buf, gsl_rng_state(r->g), gsl_rng_size(r->g));
}
void hn_rng_state_set(hn_rng *r, const void *buf)
{
    memcpy(gsl_rng_state(r->g), buf, gsl_rng_size(r->g));
}

/* GSL's mt19937 state (gsl/rng/mt.c): 624 words and the next word's index.
 * An index outside 0..624 makes gsl_rng_get read outside the array. */
enum { MT_N = 624 };
struct mt_state {
    unsigned long mt[MT_N];
    int mti;
};

int hn_rng_state_check(const void *buf, size_t len)
{
    if (len != gsl_rng_mt19937->size || len != sizeof(struct mt_state))
        return hn_fail(HN_ERR_FORMAT, "random-number state has %zu bytes, expected %zu", len,
                       gsl_rng_mt19937->size);
    struct mt_state s;
    memcpy(&s, buf, sizeof s);
    if (s.mti < 0 || s.mti > MT_N)
        return hn_fail(HN_ERR_FORMAT, "random-number state: position %d is outside 0..%d", s.mti,
                       MT_N);
    unsigned long any = 0;
    for (int i = 0; i < MT_N; i++) {
        if (s.mt[i] > 0xffffffffUL)
            return hn_fail(HN_ERR_FORMAT, "random-number state: word %d exceeds 32 bits", i);
        any |= s.mt[i];
    }
    if (!any)
        return hn_fail(HN_ERR_FORMAT, "random-number state is all zero");
    return HN_OK;
}
