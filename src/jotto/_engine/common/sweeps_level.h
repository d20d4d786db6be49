/* sweeps_level.h -- what the sweeps count with on this level: 64 targets a word (scalar) or
 * one candidate a byte of a register, 8 targets a chunk (vector: the register width, the table
 * look-ups, bytewise popcounts, nibble tables, widening), and the unrolling of loops over
 * letters.
 * Included by kernels_sweeps.h only, after the files before it there. */
#ifndef JOTTO_SWEEPS_LEVEL_H
#define JOTTO_SWEEPS_LEVEL_H

/* Candidates per block: the class sizes of a block stay in L1. */
#define BLOCK 256

/* ---- reply-class sizes -------------------------------------------------------------------------
 * n_j(c) = #{i in S : reply(c, i) = j} for candidates c in [c0, c1), written structure-of-arrays:
 * ev->cnt[j * ev->nc + c]. */

/* Where a block of candidates starting at b0 keeps its class sizes: in ev->cnt, or, when the
 * caller wants q only (ev->cnt NULL), in a block-local buffer that stays in L1. */
static inline uint16_t *block_dst(const jt_eval *ev, int32_t b0, uint16_t *local)
{
    return ev->cnt ? ev->cnt + b0 : local;
}

static inline size_t block_stride(const jt_eval *ev, size_t local_stride)
{
    return ev->cnt ? (size_t)ev->nc : local_stride;
}

/* Bit-planes needed for replies 0..L. */
static inline __attribute__((always_inline)) int planes_for(const int L)
{
    int np = 1;
    while ((1 << np) <= L)
        np++;
    return np;
}

/* The letters of a candidate, and (plus one) its reply classes, that the vector levels' arrays
 * of registers hold: the word length where it is a constant (JT_LEN), so that those arrays, a
 * few hundred bytes, stay in registers; sized for any length (JT_MAX_LEN letters of 128-byte
 * indices, 3 KiB), gcc kept them on the stack and stored every register of candidates'
 * indices there four times over. */
#define LMAX (JT_LEN ? JT_LEN : JT_MAX_LEN)

/* The chunk tables are built for at most this many targets at a time (16 KiB). */
#define SEG 4096

#if !JT_VECTOR
/* ---- scalar level: 64 targets per word, one candidate at a time ---- */
#define SLICE_T 64
typedef uint64_t slice_t;
/* Set target k's bit in entry e of its chunk's table (W entries a chunk). */
static inline void slice_set(void *tabs, int32_t k, int e, const int W)
{
    ((slice_t *)tabs)[(size_t)(k >> 6) * W + e] |= (slice_t)1 << (k & 63);
}
#else
/* ---- vector levels: one candidate per byte, 8 targets per chunk ---- */
#define SLICE_T 8
#if defined(__AVX512VBMI__) && defined(__AVX512BITALG__) && defined(__AVX512BW__)
#define VW 64
#elif defined(__AVX2__)
#define VW 32
#else
#define VW 16
#endif
typedef uint8_t vb __attribute__((vector_size(VW)));
/* 16-bit counters of half a register's candidates each */
typedef uint16_t vh __attribute__((vector_size(VW)));
typedef uint16_t vhu __attribute__((vector_size(VW), aligned(2), may_alias));
typedef vb slice_t;

static inline void slice_set(void *tabs, int32_t k, int e, const int W)
{
    ((uint8_t *)tabs)[(size_t)(k >> 3) * W + e] |= (uint8_t)(1u << (k & 7));
}

/* Per level: the TW-entry table of a chunk in registers (tab_load; TW = 32: letters, 64:
 * tokens), the letter or token codes of the candidates in the form the shuffle wants (idx_of),
 * the look-up (look), bytewise popcount, and 16-entry byte tables (nib_load, nib_look: indices
 * 0..15); on x86 also dot products of byte pairs (PAIR_DOT: zip_lo, zip_hi, dot_pairs, unzip). */
#if VW == 64
typedef __m512i slice_tab;
typedef vb slice_idx;
static inline __attribute__((always_inline)) slice_tab tab_load(const uint8_t *t, const int TW)
{
    return TW == 64 ? _mm512_loadu_si512(t)
                    : _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)t));
}
static inline __attribute__((always_inline)) slice_idx idx_of(vb letters, const int TW)
{
    (void)TW;
    return letters;
}
static inline __attribute__((always_inline)) vb look(slice_tab t, slice_idx i, const int TW)
{
    (void)TW;
    return (vb)_mm512_permutexvar_epi8((__m512i)i, t);
}
static inline __attribute__((always_inline)) vb pc8(vb x)
{
    return (vb)_mm512_popcnt_epi8((__m512i)x);
}
typedef __m512i nib_tab;
static inline __attribute__((always_inline)) nib_tab nib_load(const uint8_t *t)
{
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)t));
}
static inline __attribute__((always_inline)) vb nib_look(nib_tab t, vb x)
{
    return (vb)_mm512_shuffle_epi8(t, (__m512i)x);
}
static inline __attribute__((always_inline)) vh widen(vb x, int half)
{
    return (vh)_mm512_cvtepu8_epi16(half ? _mm512_extracti64x4_epi64((__m512i)x, 1)
                                         : _mm512_castsi512_si256((__m512i)x));
}
#define PAIR_DOT 1
static inline __attribute__((always_inline)) vb zip_lo(vb a, vb b)
{
    return (vb)_mm512_unpacklo_epi8((__m512i)a, (__m512i)b);
}
static inline __attribute__((always_inline)) vb zip_hi(vb a, vb b)
{
    return (vb)_mm512_unpackhi_epi8((__m512i)a, (__m512i)b);
}
static inline __attribute__((always_inline)) vh dot_pairs(vb u, vb s)
{
    return (vh)_mm512_maddubs_epi16((__m512i)u, (__m512i)s);
}
/* zip_lo's 16-bit results hold candidates 0-7, 16-23, 32-39, 48-55 (each 128-bit lane's low
 * half), zip_hi's the high halves: widen's halves take lanes 0, 1 of each (out[0]) and 2, 3. */
static inline __attribute__((always_inline)) void unzip(vh lo, vh hi, vh *out)
{
    const __m512i a = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
    const __m512i b = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
    out[0] = (vh)_mm512_permutex2var_epi64((__m512i)lo, a, (__m512i)hi);
    out[1] = (vh)_mm512_permutex2var_epi64((__m512i)lo, b, (__m512i)hi);
}
#elif defined(__ARM_NEON)
typedef uint8x16x4_t slice_tab;
typedef vb slice_idx;
static inline __attribute__((always_inline)) slice_tab tab_load(const uint8_t *t, const int TW)
{
    const uint8x16x4_t r = {{vld1q_u8(t), vld1q_u8(t + 16), vld1q_u8(t + (TW == 64 ? 32 : 0)),
                             vld1q_u8(t + (TW == 64 ? 48 : 16))}};
    return r;
}
static inline __attribute__((always_inline)) slice_idx idx_of(vb letters, const int TW)
{
    (void)TW;
    return letters;
}
static inline __attribute__((always_inline)) vb look(slice_tab t, slice_idx i, const int TW)
{
    if (TW == 64)
        return (vb)vqtbl4q_u8(t, (uint8x16_t)i);
    const uint8x16x2_t h = {{t.val[0], t.val[1]}};
    return (vb)vqtbl2q_u8(h, (uint8x16_t)i); /* codes >= 32 give 0 */
}
static inline __attribute__((always_inline)) vb pc8(vb x) { return (vb)vcntq_u8((uint8x16_t)x); }
typedef uint8x16_t nib_tab;
static inline __attribute__((always_inline)) nib_tab nib_load(const uint8_t *t)
{
    return vld1q_u8(t);
}
static inline __attribute__((always_inline)) vb nib_look(nib_tab t, vb x)
{
    return (vb)vqtbl1q_u8(t, (uint8x16_t)x);
}
static inline __attribute__((always_inline)) vh widen(vb x, int half)
{
    return (vh)(half ? vmovl_high_u8((uint8x16_t)x) : vmovl_u8(vget_low_u8((uint8x16_t)x)));
}
#else
/* pshufb looks up 16 entries and gives 0 where bit 7 of the index is set: letters 0-15 index
 * the low half with bit 7 clear, letters 16-31 carry bit 7; flipping it indexes the high half. */
#if VW == 32
typedef __m256i vreg;
#define SHUF(t, i) _mm256_shuffle_epi8((t), (i))
#define BCAST16(p) _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(p)))
static inline __attribute__((always_inline)) vh widen(vb x, int half)
{
    return (vh)_mm256_cvtepu8_epi16(half ? _mm256_extracti128_si256((__m256i)x, 1)
                                         : _mm256_castsi256_si128((__m256i)x));
}
#else
typedef __m128i vreg;
#define SHUF(t, i) _mm_shuffle_epi8((t), (i))
#define BCAST16(p) _mm_loadu_si128((const __m128i *)(p))
static inline __attribute__((always_inline)) vh widen(vb x, int half)
{
    return (vh)(half ? _mm_unpackhi_epi8((__m128i)x, _mm_setzero_si128())
                     : _mm_unpacklo_epi8((__m128i)x, _mm_setzero_si128()));
}
#endif
/* 64 entries: four look-ups of 16, the index of each with bit 7 set unless it is the index's
 * quarter. */
typedef struct { vreg q[4]; } slice_tab;
typedef struct { vb q[4]; } slice_idx;
static inline __attribute__((always_inline)) slice_tab tab_load(const uint8_t *t, const int TW)
{
    slice_tab r;
    for (int k = 0; k < 4; k++)
        r.q[k] = BCAST16(t + 16 * (k < TW / 16 ? k : 0));
    return r;
}
static inline __attribute__((always_inline)) slice_idx idx_of(vb letters, const int TW)
{
    slice_idx r;
    for (int k = 0; k < 4; k++)
        r.q[k] = TW == 64 ? (letters & 15) | ((vb)((letters >> 4) != (uint8_t)k) & 0x80)
                          : letters | ((vb)(letters > 15) & 0x80);
    return r;
}
/* The indices idx_of gives at TW = 32, loaded from jt_words.shuf (computed there once). */
#define IDX_ROWS 1
static inline __attribute__((always_inline)) slice_idx idx_load(const uint8_t *row)
{
    slice_idx r; /* look at TW = 32 reads q[0] alone: the rest is left unset (no stores where
                  * the indices are kept in memory, RELOAD_IDX) */
    memcpy(&r.q[0], row, sizeof(vb));
    return r;
}
static inline __attribute__((always_inline)) vb look(slice_tab t, slice_idx i, const int TW)
{
    if (TW == 64)
        return (vb)SHUF(t.q[0], (vreg)i.q[0]) | (vb)SHUF(t.q[1], (vreg)i.q[1]) |
               (vb)SHUF(t.q[2], (vreg)i.q[2]) | (vb)SHUF(t.q[3], (vreg)i.q[3]);
    return (vb)SHUF(t.q[0], (vreg)i.q[0]) | (vb)SHUF(t.q[1], (vreg)(i.q[0] ^ 0x80));
}
/* The indices at TW = 32 with the copy whose bit 7 look flips in q[1], for look_flipped: a loop
 * that keeps both in memory reads them as the shuffles' operands (sweeps_vector.h, IDX_PAIRS). */
static inline __attribute__((always_inline)) slice_idx idx_flipped(slice_idx i)
{
    i.q[1] = i.q[0] ^ 0x80;
    return i;
}
static inline __attribute__((always_inline)) vb look_flipped(slice_tab t, slice_idx i)
{
    return (vb)SHUF(t.q[0], (vreg)i.q[0]) | (vb)SHUF(t.q[1], (vreg)i.q[1]);
}
/* Byte pairs and their dot products (PAIR_DOT): zip_lo (zip_hi) interleaves the bytes of a and
 * b of the low (high) half of each 128-bit lane, dot_pairs sums u_0 s_0 + u_1 s_1 of each pair
 * (u unsigned, s signed, the sum saturating at 2^15 - 1: the callers keep it below), and unzip
 * puts the 16-bit results of zip_lo's and zip_hi's pairs in widen's halves. */
#define PAIR_DOT 1
#if VW == 32
static inline __attribute__((always_inline)) vb zip_lo(vb a, vb b)
{
    return (vb)_mm256_unpacklo_epi8((__m256i)a, (__m256i)b);
}
static inline __attribute__((always_inline)) vb zip_hi(vb a, vb b)
{
    return (vb)_mm256_unpackhi_epi8((__m256i)a, (__m256i)b);
}
static inline __attribute__((always_inline)) vh dot_pairs(vb u, vb s)
{
    return (vh)_mm256_maddubs_epi16((__m256i)u, (__m256i)s);
}
/* candidates 0-7 and 16-23 in lo, 8-15 and 24-31 in hi */
static inline __attribute__((always_inline)) void unzip(vh lo, vh hi, vh *out)
{
    out[0] = (vh)_mm256_permute2x128_si256((__m256i)lo, (__m256i)hi, 0x20);
    out[1] = (vh)_mm256_permute2x128_si256((__m256i)lo, (__m256i)hi, 0x31);
}
#else
static inline __attribute__((always_inline)) vb zip_lo(vb a, vb b)
{
    return (vb)_mm_unpacklo_epi8((__m128i)a, (__m128i)b);
}
static inline __attribute__((always_inline)) vb zip_hi(vb a, vb b)
{
    return (vb)_mm_unpackhi_epi8((__m128i)a, (__m128i)b);
}
static inline __attribute__((always_inline)) vh dot_pairs(vb u, vb s)
{
    return (vh)_mm_maddubs_epi16((__m128i)u, (__m128i)s);
}
static inline __attribute__((always_inline)) void unzip(vh lo, vh hi, vh *out)
{
    out[0] = lo; /* one 128-bit lane: already widen's halves */
    out[1] = hi;
}
#endif
typedef vreg nib_tab;
static inline __attribute__((always_inline)) nib_tab nib_load(const uint8_t *t)
{
    return BCAST16(t);
}
static inline __attribute__((always_inline)) vb nib_look(nib_tab t, vb x)
{
    return (vb)SHUF(t, (vreg)x);
}
static inline __attribute__((always_inline)) vb pc8(vb x)
{
    static const uint8_t bits[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    const nib_tab nib = nib_load(bits);
    return nib_look(nib, x & 15) + nib_look(nib, (x >> 4) & 15);
}
#endif
#endif

/* Loops over a length's letters or pairs, unrolled whole when the length is a constant (signs
 * and indices of the Mobius inversion fold; the counters stay in registers).  Not in
 * AddressSanitizer builds: at -Og the pragma is left to the RTL unroller, whose induction-variable
 * analysis recomputes reaching definitions over the whole function for every loop; over the
 * instrumented always-inline sweeps that made each level's kernels take 2.5 minutes to compile
 * instead of one.  Nor for any other length (JT_LEN 0: L not a constant), where the pragma
 * unrolled loops of a few iterations 64 times, with remainder loops, for nothing.  Unrolling
 * changes speed only, never what is computed. */
#if defined(__SANITIZE_ADDRESS__) || JT_LEN == 0
#define UNROLL
#else
#define UNROLL _Pragma("GCC unroll 64")
#endif

#endif
