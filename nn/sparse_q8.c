/* The int8 x uint8 -> int32 kernels of the quantized layers, one per
 * instruction set, chosen at run time: each SIMD kernel carries its own
 * target attribute, so the library runs on any x86-64 whatever the build's
 * -march, and a CPU without the instructions never reaches them. */
#include <string.h>

#include "nn/sparse_private.h"

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define NN_X86 1
#include <immintrin.h>
#endif

/* The reference: what every kernel must compute, bit for bit. */
static void q8_scalar(const struct nn_qlayer *q, const uint8_t *u, int n, int32_t *z)
{
    int groups = q->in4 / 4;
    for (int r = 0; r < n; r++) {
        const uint8_t *ur = u + (size_t)r * q->in4;
        int32_t *zr = z + (size_t)r * q->out16;
        for (int ob = 0; ob < q->out16 / 16; ob++) {
            int32_t s[16] = {0};
            const int8_t *wb = q->w + (size_t)ob * groups * 64;
            for (int g = 0; g < groups; g++)
                for (int lane = 0; lane < 16; lane++)
                    for (int k = 0; k < 4; k++)
                        s[lane] += (int32_t)ur[g * 4 + k] * wb[g * 64 + lane * 4 + k];
            memcpy(zr + ob * 16, s, sizeof s);
        }
    }
}

#ifdef NN_X86

static inline int32_t load_u32(const uint8_t *p)
{
    int32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* acc += u8 x s8 dot products of 4. As inline assembly because GCC 12
 * copies every accumulator once per intrinsic call in the loop below
 * (twice the instructions of the vpdpbusd themselves). */
__attribute__((target("avx512f,avx512bw,avx512vnni"))) static inline __m512i
dpbusd(__m512i acc, __m512i x, __m512i w)
{
    __asm__("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(x), "v"(w));
    return acc;
}

/* R rows x B blocks of 16 outputs at once: R*B independent accumulator
 * chains hide vpdpbusd's latency, and each weight load serves R rows. */
#define VNNI_TILE(R, B)                                                                            \
    __attribute__((target("avx512f,avx512bw,avx512vnni"))) static void vnni_##R##x##B(             \
        const struct nn_qlayer *q, const uint8_t *u, int32_t *z, int ob)                           \
    {                                                                                              \
        int groups = q->in4 / 4;                                                                   \
        __m512i acc[R][B];                                                                         \
        for (int r = 0; r < R; r++)                                                                \
            for (int b = 0; b < B; b++)                                                            \
                acc[r][b] = _mm512_setzero_si512();                                                \
        const int8_t *w = q->w + (size_t)ob * groups * 64;                                         \
        for (int g = 0; g < groups; g++) {                                                         \
            __m512i wv[B];                                                                         \
            for (int b = 0; b < B; b++)                                                            \
                wv[b] = _mm512_loadu_si512(w + ((size_t)b * groups + g) * 64);                     \
            for (int r = 0; r < R; r++) {                                                          \
                __m512i x = _mm512_set1_epi32(load_u32(u + (size_t)r * q->in4 + g * 4));           \
                for (int b = 0; b < B; b++)                                                        \
                    acc[r][b] = dpbusd(acc[r][b], x, wv[b]);                                       \
            }                                                                                      \
        }                                                                                          \
        for (int r = 0; r < R; r++)                                                                \
            for (int b = 0; b < B; b++)                                                            \
                _mm512_storeu_si512(z + (size_t)r * q->out16 + (ob + b) * 16, acc[r][b]);          \
    }
VNNI_TILE(4, 2)
VNNI_TILE(4, 1)
VNNI_TILE(3, 4)
VNNI_TILE(3, 2)
VNNI_TILE(3, 1)
VNNI_TILE(2, 4)
VNNI_TILE(2, 2)
VNNI_TILE(2, 1)
VNNI_TILE(1, 8)
VNNI_TILE(1, 4)
VNNI_TILE(1, 2)
VNNI_TILE(1, 1)

static void q8_vnni(const struct nn_qlayer *q, const uint8_t *u, int n, int32_t *z)
{
    int blocks = q->out16 / 16, r = 0;
    for (; r + 4 <= n; r += 4) {
        const uint8_t *ur = u + (size_t)r * q->in4;
        int32_t *zr = z + (size_t)r * q->out16;
        int ob = 0;
        for (; ob + 2 <= blocks; ob += 2)
            vnni_4x2(q, ur, zr, ob);
        for (; ob < blocks; ob++)
            vnni_4x1(q, ur, zr, ob);
    }
    if (n - r == 3) { /* the usual 3 new children of an expansion, one row each */
        const uint8_t *ur = u + (size_t)r * q->in4;
        int32_t *zr = z + (size_t)r * q->out16;
        int ob = 0;
        for (; ob + 4 <= blocks; ob += 4)
            vnni_3x4(q, ur, zr, ob);
        for (; ob + 2 <= blocks; ob += 2)
            vnni_3x2(q, ur, zr, ob);
        for (; ob < blocks; ob++)
            vnni_3x1(q, ur, zr, ob);
        r += 3;
    }
    for (; r + 2 <= n; r += 2) { /* a board and its mirror */
        const uint8_t *ur = u + (size_t)r * q->in4;
        int32_t *zr = z + (size_t)r * q->out16;
        int ob = 0;
        for (; ob + 4 <= blocks; ob += 4)
            vnni_2x4(q, ur, zr, ob);
        for (; ob + 2 <= blocks; ob += 2) /* narrow layers: 4 chains, not 2 */
            vnni_2x2(q, ur, zr, ob);
        for (; ob < blocks; ob++)
            vnni_2x1(q, ur, zr, ob);
    }
    for (; r < n; r++) {
        const uint8_t *ur = u + (size_t)r * q->in4;
        int32_t *zr = z + (size_t)r * q->out16;
        int ob = 0;
        for (; ob + 8 <= blocks; ob += 8)
            vnni_1x8(q, ur, zr, ob);
        for (; ob + 4 <= blocks; ob += 4)
            vnni_1x4(q, ur, zr, ob);
        for (; ob + 2 <= blocks; ob += 2)
            vnni_1x2(q, ur, zr, ob);
        for (; ob < blocks; ob++)
            vnni_1x1(q, ur, zr, ob);
    }
}

/* AVX2 has no vpdpbusd: vpmaddubsw sums pairs of u8*s8 into int16 (exact:
 * |2 * 127 * 127| < 2^15) and vpmaddwd with ones sums those pairs into
 * int32. One block of 16 outputs is two 256-bit halves. */
#define AVX2_TILE(R)                                                                               \
    __attribute__((target("avx2"))) static void avx2_##R(const struct nn_qlayer *q,                \
                                                         const uint8_t *u, int32_t *z, int ob)     \
    {                                                                                              \
        int groups = q->in4 / 4;                                                                   \
        const __m256i ones = _mm256_set1_epi16(1);                                                 \
        __m256i acc[R][2];                                                                         \
        for (int r = 0; r < R; r++)                                                                \
            acc[r][0] = acc[r][1] = _mm256_setzero_si256();                                        \
        const int8_t *w = q->w + (size_t)ob * groups * 64;                                         \
        for (int g = 0; g < groups; g++) {                                                         \
            __m256i w0 = _mm256_loadu_si256((const __m256i *)(w + (size_t)g * 64));                \
            __m256i w1 = _mm256_loadu_si256((const __m256i *)(w + (size_t)g * 64 + 32));           \
            for (int r = 0; r < R; r++) {                                                          \
                __m256i x = _mm256_set1_epi32(load_u32(u + (size_t)r * q->in4 + g * 4));           \
                __m256i p0 = _mm256_madd_epi16(_mm256_maddubs_epi16(x, w0), ones);                 \
                __m256i p1 = _mm256_madd_epi16(_mm256_maddubs_epi16(x, w1), ones);                 \
                acc[r][0] = _mm256_add_epi32(acc[r][0], p0);                                       \
                acc[r][1] = _mm256_add_epi32(acc[r][1], p1);                                       \
            }                                                                                      \
        }                                                                                          \
        for (int r = 0; r < R; r++) {                                                              \
            int32_t *zr = z + (size_t)r * q->out16 + ob * 16;                                      \
            _mm256_storeu_si256((__m256i *)zr, acc[r][0]);                                         \
            _mm256_storeu_si256((__m256i *)(zr + 8), acc[r][1]);                                   \
        }                                                                                          \
    }
AVX2_TILE(4)
AVX2_TILE(3)
AVX2_TILE(2)
AVX2_TILE(1)

/* Block by block of 16 outputs, every row of the batch before the next
 * block: a block's weights (in4 * 16 bytes, 16 KB for 1,000 inputs) then
 * come from L1 for all rows after the first, and a layer too large for L2
 * (the 24-puzzle network's 1000x500) is read from memory once per call
 * instead of once per row. */
static void q8_avx2(const struct nn_qlayer *q, const uint8_t *u, int n, int32_t *z)
{
    int blocks = q->out16 / 16;
    for (int ob = 0; ob < blocks; ob++) {
        int r = 0;
        for (; r + 4 <= n; r += 4)
            avx2_4(q, u + (size_t)r * q->in4, z + (size_t)r * q->out16, ob);
        const uint8_t *ur = u + (size_t)r * q->in4;
        int32_t *zr = z + (size_t)r * q->out16;
        if (n - r == 3)
            avx2_3(q, ur, zr, ob);
        else if (n - r == 2)
            avx2_2(q, ur, zr, ob);
        else if (n - r == 1)
            avx2_1(q, ur, zr, ob);
    }
}

#endif /* NN_X86 */

int nn_simd_supported(enum nn_simd s)
{
    switch (s) {
    case NN_SIMD_SCALAR:
        return 1;
#ifdef NN_X86
    case NN_SIMD_AVX2:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2");
    case NN_SIMD_VNNI:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vnni");
#endif
    default:
        return 0;
    }
}

enum nn_simd nn_simd_best(void)
{
    if (nn_simd_supported(NN_SIMD_VNNI))
        return NN_SIMD_VNNI;
    return nn_simd_supported(NN_SIMD_AVX2) ? NN_SIMD_AVX2 : NN_SIMD_SCALAR;
}

static const char *const SIMD_NAMES[] = {"scalar", "avx2", "avx512vnni"};

const char *nn_simd_name(enum nn_simd s)
{
    return s >= NN_SIMD_SCALAR && s <= NN_SIMD_VNNI ? SIMD_NAMES[s] : "?";
}

int nn_simd_parse(const char *name, enum nn_simd *s)
{
    for (int i = 0; i <= NN_SIMD_VNNI; i++)
        if (!strcmp(name, SIMD_NAMES[i])) {
            *s = (enum nn_simd)i;
            return HN_OK;
        }
    return hn_fail(HN_ERR_ARG, "unknown SIMD kernel '%s' (scalar, avx2, avx512vnni)", name);
}

nn_q8_kernel *nn_q8_kernel_get(enum nn_simd s)
{
#ifdef NN_X86
    if (s == NN_SIMD_VNNI)
        return q8_vnni;
    if (s == NN_SIMD_AVX2)
        return q8_avx2;
#endif
    (void)s;
    return q8_scalar;
}
