/* kernels.c -- the table of kernels of one instruction-set level (JT_KERNEL_SUFFIX: x86-64 base,
 * v2, v3, v4; aarch64 base, neon), which dispatch.c picks by the CPU: the choice of a length's
 * sweeps (kernels_length.c), the weight updates and the scans of q, which use the level's vector
 * instructions; the rest is compiled once (kernels_common.c).  kernels.h lays the kernel
 * sources out. */
#include <string.h>

#if defined(__SSE4_1__)
#include <immintrin.h>
#endif

#include "kernels.h"

JT_KERNEL_LENGTHS(JT_DECLARE_LENGTH)
JT_DECLARE_LENGTH(0)

/* The sweeps of the word list's length: compiled for it (JT_KERNEL_LENGTHS), or for any.  A build
 * may compile fewer lengths (CMake's JOTTO_KERNEL_LENGTHS defines JT_LENGTHS_CHOSEN and
 * JT_LEN_BUILT_<len> 1 or 0 for each): the others take the sweeps for any length. */
#define JT_WHEN_1(x) x
#define JT_WHEN_0(x)
#ifdef JT_LENGTHS_CHOSEN
#define JT_IF_BUILT(len, x) JT_CAT(JT_WHEN_, JT_CAT(JT_LEN_BUILT_, len))(x)
#else
#define JT_IF_BUILT(len, x) x
#endif
#define EVALUATE_CASE(len) \
    JT_IF_BUILT(len, case len: JT_LEN_FN(evaluate, JT_KERNEL_SUFFIX, len)(ev, c0, c1); break;)
#define TOKENS_CASE(len) \
    JT_IF_BUILT(len, case len: JT_LEN_FN(tokens, JT_KERNEL_SUFFIX, len)(ev, c0, c1); break;)
#define PLACE_CASE(len) \
    JT_IF_BUILT(len, case len: JT_LEN_FN(place, JT_KERNEL_SUFFIX, len)(ev, c0, c1); break;)

static void evaluate(const jt_eval *ev, int32_t c0, int32_t c1)
{
    switch (ev->w->L) {
        JT_KERNEL_LENGTHS(EVALUATE_CASE)
    default: JT_LEN_FN(evaluate, JT_KERNEL_SUFFIX, 0)(ev, c0, c1); break;
    }
}

static void evaluate_codes(const jt_eval *ev, int32_t c0, int32_t c1)
{
    if (ev->w->slicing == JT_SLICE_TOKENS) {
        switch (ev->w->L) {
            JT_KERNEL_LENGTHS(TOKENS_CASE)
        default: JT_LEN_FN(tokens, JT_KERNEL_SUFFIX, 0)(ev, c0, c1); break;
        }
    } else if (ev->w->slicing == JT_SLICE_PLACE) {
        switch (ev->w->L) {
            JT_KERNEL_LENGTHS(PLACE_CASE)
        default: JT_LEN_FN(place, JT_KERNEL_SUFFIX, 0)(ev, c0, c1); break;
        }
    } else {
        jt_codes_pairs(ev, c0, c1);
    }
}

static void add_weight(const jt_eval *ev, uint32_t target, uint64_t delta)
{
    const int32_t nc = ev->nc;
    const uint16_t *restrict cnt = ev->cnt;
    uint64_t *restrict q = ev->q;
    for (int32_t c = 0; c < nc; c++)
        q[c] += delta * cnt[(size_t)pc(ev->cm[c] & target) * nc + c];
}

/* For 64- and 16-bit values (q, q16): the least value and the first c holding it, and the c in
 * [c0, n) with q[c] <= lim appended to out[k..] in increasing order, returning the new count (a
 * store each and a count without branches).
 *
 * The least: blocks of B values are reduced to their minimum (a reduction that vectorises on
 * every level), keeping the first block whose minimum is below every earlier one; the first c
 * is then looked for in that block alone, not in a second pass over everything before it. */
#define DEFINE_SCANS(min_name, select_name, T, B)                                                \
    static T min_name(const T *q, int32_t n, int32_t *first)                                     \
    {                                                                                            \
        T best = (T)-1;                                                                          \
        int32_t at = 0, c = 0;                                                                   \
        for (; c + B <= n; c += B) {                                                             \
            T least = (T)-1;                                                                     \
            for (int u = 0; u < B; u++)                                                          \
                least = q[c + u] < least ? q[c + u] : least;                                     \
            if (least < best) {                                                                  \
                best = least;                                                                    \
                at = c;                                                                          \
            }                                                                                    \
        }                                                                                        \
        for (; c < n; c++) {                                                                     \
            if (q[c] < best) {                                                                   \
                best = q[c];                                                                     \
                at = c;                                                                          \
            }                                                                                    \
        }                                                                                        \
        while (first && at < n && q[at] != best)                                                 \
            at++;                                                                                \
        if (first)                                                                               \
            *first = at;                                                                         \
        return best;                                                                             \
    }                                                                                            \
    static inline int32_t select_name(const T *q, int32_t c0, int32_t n, T lim, int32_t *out,   \
                                      int32_t k)                                                 \
    {                                                                                            \
        for (int32_t c = c0; c < n; c++) {                                                       \
            out[k] = c;                                                                          \
            k += q[c] <= lim;                                                                    \
        }                                                                                        \
        return k;                                                                                \
    }
DEFINE_SCANS(min_q, select_from, uint64_t, 32)
DEFINE_SCANS(min_q16, select_from16, uint16_t, 64)

#if defined(__SSE4_1__)
/* Append c + i for each set bit i of the 16-bit mask hit to out[k..], returning the new count:
 * the positions of each nibble's bits come from a 16-entry table (bytes, lowest first), four at a
 * store, the next store overwriting what lies past the hits; four stores, hits or not (a fixed
 * count: no branch to mispredict). */
static inline int32_t store_hits(int32_t *out, int32_t k, unsigned hit, int32_t c)
{
    static const uint32_t at[16] = {0, 0, 1, 0x100, 2, 0x200, 0x201, 0x20100, 3, 0x300, 0x301,
                                    0x30100, 0x302, 0x30200, 0x30201, 0x3020100};
    for (int i = 0; i < 4; i++) {
        const unsigned h = (hit >> (4 * i)) & 15;
        const __m128i pos = _mm_cvtepu8_epi32(_mm_cvtsi32_si128((int)at[h]));
        _mm_storeu_si128((__m128i *)(out + k), _mm_add_epi32(pos, _mm_set1_epi32(c + 4 * i)));
        k += __builtin_popcount(h);
    }
    return k;
}
#endif

/* The c with q[c] <= lim (the paper rule's window, most of whose scan finds nothing), in 16- and
 * 64-bit values, a register of values at a time: AVX-512 compresses the indices of each half
 * register's hits into a store; SSE4.1 (SSE4.2 for 64 bits) and AVX2 take a mask of hits per 16
 * values (16-bit values on AVX2: per 32), skip it when empty and else store_hits.  Other levels:
 * one branchless store a value. */
#if defined(__AVX512BW__)
static int32_t select_le16(const uint16_t *q, int32_t n, uint16_t lim, int32_t *out)
{
    int32_t k = 0, c = 0;
    const __m512i l = _mm512_set1_epi16((short)lim), step = _mm512_set1_epi32(16);
    __m512i idx = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (; c + 32 <= n; c += 32) {
        const __mmask32 hit = _mm512_cmple_epu16_mask(_mm512_loadu_si512(q + c), l);
        if (hit) {
            _mm512_storeu_si512(out + k, _mm512_maskz_compress_epi32((__mmask16)hit, idx));
            k += __builtin_popcount(hit & 0xffffu);
            _mm512_storeu_si512(out + k, _mm512_maskz_compress_epi32((__mmask16)(hit >> 16),
                                                                     _mm512_add_epi32(idx, step)));
            k += __builtin_popcount(hit >> 16);
        }
        idx = _mm512_add_epi32(idx, _mm512_add_epi32(step, step));
    }
    return select_from16(q, c, n, lim, out, k);
}
#elif defined(__SSE4_1__)
/* The hits of the LE16_STEP 16-bit values at q, bit i for q[i] <= lim: q <= lim exactly when
 * min(q, lim) == q, and the 0/-1 words pack to bytes whose top bits movemask gathers. */
#if defined(__AVX2__)
#define LE16_STEP 32
/* The positions of a byte's set bits, lowest first, a byte each (zeros past them): byte_hits
 * stores the positions of eight values at once, where store_hits takes four a store. */
static const uint64_t bit_positions[256] = {
    0x0, 0x0, 0x1, 0x100, 0x2, 0x200, 0x201, 0x20100, 0x3, 0x300, 0x301, 0x30100, 0x302, 0x30200,
    0x30201, 0x3020100, 0x4, 0x400, 0x401, 0x40100, 0x402, 0x40200, 0x40201, 0x4020100, 0x403,
    0x40300, 0x40301, 0x4030100, 0x40302, 0x4030200, 0x4030201, 0x403020100, 0x5, 0x500, 0x501,
    0x50100, 0x502, 0x50200, 0x50201, 0x5020100, 0x503, 0x50300, 0x50301, 0x5030100, 0x50302,
    0x5030200, 0x5030201, 0x503020100, 0x504, 0x50400, 0x50401, 0x5040100, 0x50402, 0x5040200,
    0x5040201, 0x504020100, 0x50403, 0x5040300, 0x5040301, 0x504030100, 0x5040302, 0x504030200,
    0x504030201, 0x50403020100, 0x6, 0x600, 0x601, 0x60100, 0x602, 0x60200, 0x60201, 0x6020100,
    0x603, 0x60300, 0x60301, 0x6030100, 0x60302, 0x6030200, 0x6030201, 0x603020100, 0x604,
    0x60400, 0x60401, 0x6040100, 0x60402, 0x6040200, 0x6040201, 0x604020100, 0x60403, 0x6040300,
    0x6040301, 0x604030100, 0x6040302, 0x604030200, 0x604030201, 0x60403020100, 0x605, 0x60500,
    0x60501, 0x6050100, 0x60502, 0x6050200, 0x6050201, 0x605020100, 0x60503, 0x6050300, 0x6050301,
    0x605030100, 0x6050302, 0x605030200, 0x605030201, 0x60503020100, 0x60504, 0x6050400,
    0x6050401, 0x605040100, 0x6050402, 0x605040200, 0x605040201, 0x60504020100, 0x6050403,
    0x605040300, 0x605040301, 0x60504030100, 0x605040302, 0x60504030200, 0x60504030201,
    0x6050403020100, 0x7, 0x700, 0x701, 0x70100, 0x702, 0x70200, 0x70201, 0x7020100, 0x703,
    0x70300, 0x70301, 0x7030100, 0x70302, 0x7030200, 0x7030201, 0x703020100, 0x704, 0x70400,
    0x70401, 0x7040100, 0x70402, 0x7040200, 0x7040201, 0x704020100, 0x70403, 0x7040300, 0x7040301,
    0x704030100, 0x7040302, 0x704030200, 0x704030201, 0x70403020100, 0x705, 0x70500, 0x70501,
    0x7050100, 0x70502, 0x7050200, 0x7050201, 0x705020100, 0x70503, 0x7050300, 0x7050301,
    0x705030100, 0x7050302, 0x705030200, 0x705030201, 0x70503020100, 0x70504, 0x7050400,
    0x7050401, 0x705040100, 0x7050402, 0x705040200, 0x705040201, 0x70504020100, 0x7050403,
    0x705040300, 0x705040301, 0x70504030100, 0x705040302, 0x70504030200, 0x70504030201,
    0x7050403020100, 0x706, 0x70600, 0x70601, 0x7060100, 0x70602, 0x7060200, 0x7060201,
    0x706020100, 0x70603, 0x7060300, 0x7060301, 0x706030100, 0x7060302, 0x706030200, 0x706030201,
    0x70603020100, 0x70604, 0x7060400, 0x7060401, 0x706040100, 0x7060402, 0x706040200,
    0x706040201, 0x70604020100, 0x7060403, 0x706040300, 0x706040301, 0x70604030100, 0x706040302,
    0x70604030200, 0x70604030201, 0x7060403020100, 0x70605, 0x7060500, 0x7060501, 0x706050100,
    0x7060502, 0x706050200, 0x706050201, 0x70605020100, 0x7060503, 0x706050300, 0x706050301,
    0x70605030100, 0x706050302, 0x70605030200, 0x70605030201, 0x7060503020100, 0x7060504,
    0x706050400, 0x706050401, 0x70605040100, 0x706050402, 0x70605040200, 0x70605040201,
    0x7060504020100, 0x706050403, 0x70605040300, 0x70605040301, 0x7060504030100, 0x70605040302,
    0x7060504030200, 0x7060504030201, 0x706050403020100
};
/* Append c + i for each set bit i of the byte hit to out[k..], returning the new count (one
 * store of eight, the next overwriting what lies past the hits). */
static inline __attribute__((always_inline)) int32_t byte_hits(int32_t *out, int32_t k,
                                                               unsigned hit, int32_t c)
{
    const __m256i pos = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)&bit_positions[hit]));
    _mm256_storeu_si256((__m256i *)(out + k), _mm256_add_epi32(pos, _mm256_set1_epi32(c)));
    return k + __builtin_popcount(hit);
}
static inline __attribute__((always_inline)) unsigned le16_hits(const uint16_t *q, uint16_t lim)
{
    const __m256i l = _mm256_set1_epi16((short)lim);
    const __m256i a = _mm256_loadu_si256((const __m256i *)q);
    const __m256i b = _mm256_loadu_si256((const __m256i *)(q + 16));
    const __m256i ha = _mm256_cmpeq_epi16(_mm256_min_epu16(a, l), a);
    const __m256i hb = _mm256_cmpeq_epi16(_mm256_min_epu16(b, l), b);
    /* the pack interleaves the 128-bit lanes (a 0-7, b 0-7, a 8-15, b 8-15): put them in order */
    return (unsigned)_mm256_movemask_epi8(
        _mm256_permute4x64_epi64(_mm256_packs_epi16(ha, hb), 0xd8));
}
#else
#define LE16_STEP 16
static inline __attribute__((always_inline)) unsigned le16_hits(const uint16_t *q, uint16_t lim)
{
    const __m128i l = _mm_set1_epi16((short)lim);
    const __m128i a = _mm_loadu_si128((const __m128i *)q);
    const __m128i b = _mm_loadu_si128((const __m128i *)(q + 8));
    const __m128i ha = _mm_cmpeq_epi16(_mm_min_epu16(a, l), a);
    const __m128i hb = _mm_cmpeq_epi16(_mm_min_epu16(b, l), b);
    return (unsigned)_mm_movemask_epi8(_mm_packs_epi16(ha, hb));
}
#endif
static int32_t select_le16(const uint16_t *q, int32_t n, uint16_t lim, int32_t *out)
{
    int32_t k = 0, c = 0;
    for (; c + LE16_STEP <= n; c += LE16_STEP) {
        const unsigned hit = le16_hits(q + c, lim);
#if LE16_STEP == 32
        for (int b = 0; hit && b < 4; b++)
            k = byte_hits(out, k, (hit >> (8 * b)) & 0xffu, c + 8 * b);
#else
        for (int h = 0; hit && h < LE16_STEP / 16; h++)
            k = store_hits(out, k, (hit >> (16 * h)) & 0xffffu, c + 16 * h);
#endif
    }
    return select_from16(q, c, n, lim, out, k);
}
#else
static int32_t select_le16(const uint16_t *q, int32_t n, uint16_t lim, int32_t *out)
{
    return select_from16(q, 0, n, lim, out, 0);
}
#endif

static int32_t select_le(const uint64_t *q, int32_t n, uint64_t lim, int32_t *out)
{
    int32_t k = 0, c = 0;
#if defined(__AVX512F__)
    const __m512i step = _mm512_set1_epi32(16), l = _mm512_set1_epi64((long long)lim);
    __m512i idx = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (; c + 16 <= n; c += 16) {
        const __mmask8 lo = _mm512_cmple_epu64_mask(_mm512_loadu_si512(q + c), l);
        const __mmask8 hi = _mm512_cmple_epu64_mask(_mm512_loadu_si512(q + c + 8), l);
        const __mmask16 sel = (__mmask16)(lo | (unsigned)hi << 8);
        /* compress in a register, then store: a compressing store is microcoded on some CPUs */
        _mm512_storeu_si512(out + k, _mm512_maskz_compress_epi32(sel, idx));
        k += __builtin_popcount(sel);
        idx = _mm512_add_epi32(idx, step);
    }
#elif defined(__AVX2__) || defined(__SSE4_2__)
    /* 16 values at a time: a signed compare of the values with their top bit flipped is the
     * unsigned one; a mask of those above lim, and the positions of the others (store_hits) */
#if defined(__AVX2__)
    const __m256i sign = _mm256_set1_epi64x(INT64_MIN);
    const __m256i l = _mm256_xor_si256(_mm256_set1_epi64x((long long)lim), sign);
#else
    const __m128i sign = _mm_set1_epi64x(INT64_MIN);
    const __m128i l = _mm_xor_si128(_mm_set1_epi64x((long long)lim), sign);
#endif
    for (; c + 16 <= n; c += 16) {
        unsigned above = 0;
#if defined(__AVX2__)
        for (int i = 0; i < 4; i++) {
            const __m256i x = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(q + c) + i),
                                               sign);
            const __m256d gt = _mm256_castsi256_pd(_mm256_cmpgt_epi64(x, l));
            above |= (unsigned)_mm256_movemask_pd(gt) << (4 * i);
        }
#else
        for (int i = 0; i < 8; i++) {
            const __m128i x = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(q + c) + i), sign);
            above |= (unsigned)_mm_movemask_pd(_mm_castsi128_pd(_mm_cmpgt_epi64(x, l))) << (2 * i);
        }
#endif
        if (above != 0xffff)
            k = store_hits(out, k, ~above & 0xffff, c);
    }
#endif
    return select_from(q, c, n, lim, out, k);
}

/* The sizes of S above which subset tables count faster than this level's bit-sliced sweeps
 * (jt_kernels.table_above: uniform weights, heavier targets), where their costs per node crossed
 * on random states of TWL06's 5-letter words (bench/table_crossover.py; 2-core AMD EPYC Zen 3
 * VM, idle, 2026-11-29, after the tables' inversion went into vector lanes, sweeps_table.h):
 * v3 about 512 uniform (47 / 46 us a node there) and 256 with fictitious play's weights
 * (53 / 53), so 288, which also made fictitious play's and paper mode's 5-letter trees faster
 * in bench/compare_builds.py (uniform v3 stays at 512: lower, TWL06's 4-letter tree was 1.5x
 * slower in two runs on 2026-11-28, the sweeps' cost growing with L and the tables' with 2^L);
 * v2 192 and 256, as measured on 2026-11-28 (the crossings moved to about 256 and 192, but
 * either move made bench/compare_builds.py's cases 1-3% slower); base below 96 for both (so
 * every shared big node, jt_t_shared).
 * Levels not measured on this project's machines (v4, neon, aarch64 base) keep the earlier
 * rule, 512. */
#if defined(__AVX512VBMI__) || (defined(__ARM_NEON) && defined(__aarch64__))
#define TABLE_ABOVE {512, 512}
#elif defined(__AVX2__)
#define TABLE_ABOVE {512, 288}
#elif defined(__SSSE3__)
#define TABLE_ABOVE {192, 256}
#else
#define TABLE_ABOVE {96, 96}
#endif

static const jt_kernels KERNELS = {
    .name = JT_STR(JT_KERNEL_SUFFIX),
    .evaluate = evaluate,
    .evaluate_codes = evaluate_codes,
    .add_weight = add_weight,
    .min_q = min_q,
    .select_le = select_le,
    .min_q16 = min_q16,
    .select_le16 = select_le16,
    .exp_num_elims = jt_exp_num_elims,
    .q16_weighted = JT_VECTOR,
    .table_above = TABLE_ABOVE,
    .letter_tables = JT_CAT(jt_letter_tables_, JT_KERNEL_SUFFIX),
};

const jt_kernels *JT_CAT(jt_kernels_, JT_KERNEL_SUFFIX)(void) { return &KERNELS; }

