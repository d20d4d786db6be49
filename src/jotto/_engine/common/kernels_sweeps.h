/* kernels_sweeps.h -- the bit-sliced sweeps of one instruction-set level: included by
 * kernels_length.c, which CMake compiles once per level (JT_KERNEL_SUFFIX: x86-64 base, v2, v3,
 * v4; aarch64 base, neon) and word length (JT_LEN), so that each level compiles only its own
 * vector code and the two cores compile a level's lengths side by side.  What does not differ by
 * level is in kernels_common.c (compiled once); the per-level table of kernels, the scans of q
 * and the choice of a length's sweeps are in kernels.c (kernels.h lays the files out).
 *
 * Class sizes are counted bit-sliced.  The targets of S go in chunks of T (8 in the vector
 * levels, 64 in the scalar one); for each chunk and letter a T-bit mask says which of the chunk's
 * targets hold the letter.  A candidate's reply to every target of a chunk is the column sum of
 * the masks of its L letters: a ripple of half adders turns them into bit-planes p_0, p_1, ...
 * (the reply's binary digits, one bit per target).  For every reply j >= 1, P_j = popcount of
 * the AND of the planes of j's 1-bits counts the targets whose reply has all of j's bits, and
 * n_j = sum over k >= j with k's bits a superset of j's of (-1)^(|k|-|j|) P_k (Mobius
 * inversion over bit subsets), n_0 = |S| - sum n_j.  The vector levels put one candidate in each
 * byte of a register (16, 32 or 64 at a time), look the letter masks up with a byte shuffle
 * (pshufb, vpermb, tbl) and count bits per byte; the scalar level puts 64 targets in a word.
 * Paper words (no two share a letter set) reply L only to themselves: with every word a
 * candidate, the vector levels take P_L (and its weight) from S's membership (jt_eval.own_n)
 * instead of counting it, a popcount less a chunk. */
#ifndef JOTTO_KERNELS_SWEEPS_H
#define JOTTO_KERNELS_SWEEPS_H

#include <string.h>

#if defined(__SSSE3__) || defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif
#if defined(__ARM_NEON) && !defined(JT_SCALAR)
#include <arm_neon.h>
#endif

#include "kernels.h"

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
 * 0..15). */
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
    slice_idx r;
    memcpy(&r.q[0], row, sizeof(vb));
    r.q[1] = r.q[2] = r.q[3] = r.q[0];
    return r;
}
static inline __attribute__((always_inline)) vb look(slice_tab t, slice_idx i, const int TW)
{
    if (TW == 64)
        return (vb)SHUF(t.q[0], (vreg)i.q[0]) | (vb)SHUF(t.q[1], (vreg)i.q[1]) |
               (vb)SHUF(t.q[2], (vreg)i.q[2]) | (vb)SHUF(t.q[3], (vreg)i.q[3]);
    return (vb)SHUF(t.q[0], (vreg)i.q[0]) | (vb)SHUF(t.q[1], (vreg)(i.q[0] ^ 0x80));
}
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

/* Add one letter mask x into the bit-planes p[0..np) (a ripple of half adders; with L constant
 * the planes known to be zero fold away). */
static inline __attribute__((always_inline)) void
ripple(slice_t *p, slice_t x, int i, const int np)
{
    /* x is input i (0-based): plane b can be non-zero from input 2^b - 1 on */
    slice_t carry = x;
    for (int b = 0; b < np && (1 << b) <= i + 1; b++) { /* (unrolled with its caller's loop) */
        if ((1 << b) == i + 1) { /* the plane's first possible bit */
            p[b] = carry;
            break;
        }
        const slice_t t = p[b] & carry;
        p[b] ^= carry;
        carry = t;
    }
}

/* The AND of the planes of j's 1-bits: targets whose reply has all of j's bits. */
static inline __attribute__((always_inline)) slice_t
with_bits(const slice_t *p, int j, const int np)
{
    slice_t r = p[__builtin_ctz((unsigned)j)];
    UNROLL for (int b = __builtin_ctz((unsigned)j) + 1; b < np; b++)
        if ((j >> b) & 1)
            r &= p[b];
    return r;
}

/* n_j from the P_k of one candidate (wrapping arithmetic is exact: every n_j is in [0, m]). */
static inline __attribute__((always_inline)) void
mobius(uint16_t *n, const uint32_t *P, int32_t m, const int L)
{
    uint32_t rest = (uint32_t)m;
    for (int j = L; j >= 1; j--) {
        uint32_t x = 0;
        for (int k = j; k <= L; k++)
            if ((k & j) == j)
                x += (__builtin_popcount((unsigned)(k ^ j)) & 1) ? -P[k] : P[k];
        n[j] = (uint16_t)x;
        rest -= x;
    }
    n[0] = (uint16_t)rest;
}

/* Bytes of a chunk's table of W entries, and the targets a segment takes in the tables' buffer
 * (SEG at W = 32). */
#define TAB_BYTES(W) ((size_t)(W) * (SLICE_T / 8))
#define TABS_BUF (SEG / SLICE_T * TAB_BYTES(32))
_Static_assert(TABS_BUF == JT_TABS_BYTES, "JT_TABS_BYTES is the tables' buffer");
static inline __attribute__((always_inline)) int32_t seg_of(const int W)
{
    return (int32_t)(TABS_BUF / TAB_BYTES(W)) * SLICE_T;
}

/* The chunk tables of targets [s0, s1): of the letters of masks sm (TW = 32) or the tokens st
 * (TW = 64). */
static inline void slice_tables(const uint32_t *sm, const uint64_t *st, int32_t s0, int32_t s1,
                                void *tabs, const int TW)
{
    const int32_t nch = (s1 - s0 + SLICE_T - 1) / SLICE_T;
    memset(tabs, 0, (size_t)nch * TAB_BYTES(TW));
    for (int32_t k = s0; k < s1; k++)
        for (uint64_t x = TW == 64 ? st[k] : sm[k]; x; x &= x - 1)
            slice_set(tabs, k - s0, __builtin_ctzll(x), TW);
}

/* ---- PLACE: positional replies on distinct-letter words ---------------------------------------
 * A target shares a candidate's letter either at the candidate's position of it (in place, b)
 * or elsewhere (out of place, a' = a - b).  Per chunk and position p a table of 64 entries:
 * entry l says which targets hold letter l but not at p, entry 32 + l which hold it at p; a
 * candidate's L look-ups of each kind add up (column_sum) to the planes of a' and of b.  Classes are the
 * pairs (a', b) with a' + b <= L, the reply code a' + b + (L+1) b; P_{j,k} = popcount of the AND
 * of a''s planes of j's bits and b's of k's counts the targets with a' >= j and b >= k bitwise
 * (j + k <= L, else none), and the class sizes follow by Mobius inversion in both. */

#define PAIRS ((JT_MAX_POS_LEN + 1) * (JT_MAX_POS_LEN + 1)) /* pair (j, k) at j * (L+1) + k */

/* The chunk tables (64 L entries a chunk) of the targets [s0, s1) of spellings sp. */
static inline void place_tables(const uint64_t *sp, int32_t s0, int32_t s1, void *tabs,
                                const int L)
{
    const int32_t nch = (s1 - s0 + SLICE_T - 1) / SLICE_T;
    memset(tabs, 0, (size_t)nch * TAB_BYTES(64 * L));
    for (int32_t k = s0; k < s1; k++)
        for (int p = 0; p < L; p++) {
            const int l = (int)((sp[k] >> (8 * p)) & 0xff) - 1;
            for (int r = 0; r < L; r++)
                slice_set(tabs, k - s0, 64 * r + (r == p ? 32 : 0) + l, 64 * L);
        }
}

/* Targets whose a' has j's bits and whose b has k's ((j, k) != (0, 0)). */
static inline __attribute__((always_inline)) slice_t
pair_bits(const slice_t *pa, const slice_t *pb, int j, int k, const int np)
{
    if (!j)
        return with_bits(pb, k, np);
    if (!k)
        return with_bits(pa, j, np);
    return with_bits(pa, j, np) & with_bits(pb, k, np);
}

/* A full adder of three masks of one weight: their sum (same weight) and carry (the next); one
 * vpternlog each with AVX-512. */
static inline __attribute__((always_inline)) slice_t xor3(slice_t a, slice_t b, slice_t c)
{
    return a ^ b ^ c;
}

static inline __attribute__((always_inline)) slice_t maj3(slice_t a, slice_t b, slice_t c)
{
#if SLICE_T == 8 && VW == 64
    return (slice_t)_mm512_ternarylogic_epi64((__m512i)a, (__m512i)b, (__m512i)c, 0xe8);
#else
    return (a & b) | (c & (a ^ b));
#endif
}

/* The column sum of the L masks x[0..L) as bit-planes p[0..np): a carry-save tree (three masks
 * of one weight become their sum and a carry of the next weight, two a half adder's), 12 logic
 * operations at 5 letters (6 with vpternlog) where a ripple of half adders takes 14.  No sum
 * reaches 2^np, so the carries out of the top plane are zero and dropped. */
static inline __attribute__((always_inline)) void
column_sum(slice_t *p, const slice_t *x, const int L, const int np)
{
    slice_t w[4][JT_MAX_POS_LEN + 1]; /* the masks of each weight still to add */
    int cnt[4] = {0};
    UNROLL for (int i = 0; i < L; i++)
        w[0][i] = x[i];
    cnt[0] = L;
    UNROLL for (int b = 0; b < np && b < 4; b++) {
        UNROLL for (int r = 0; r < JT_MAX_POS_LEN; r++) {
            if (cnt[b] < 2)
                break;
            const int n = cnt[b];
            const slice_t u = w[b][n - 1], v = w[b][n - 2];
            const slice_t y = n >= 3 ? w[b][n - 3] : (slice_t){0};
            if (b + 1 < np && b + 1 < 4)
                w[b + 1][cnt[b + 1]++] = n >= 3 ? maj3(u, v, y) : u & v;
            w[b][n - (n >= 3 ? 3 : 2)] = n >= 3 ? xor3(u, v, y) : u ^ v;
            cnt[b] = n - (n >= 3 ? 2 : 1);
        }
        p[b] = cnt[b] ? w[b][0] : (slice_t){0};
    }
}

/* Whether P_{j,k} is counted: every (j, k) != (0, 0) with j + k <= L but (1, L-1), which is
 * zero (with L-1 letters in place the one letter left could only be at the one position left,
 * in place): 19 pairs at 5 letters. */
static inline __attribute__((always_inline)) int place_counted(int j, int k, const int L)
{
    return (j || k) && j + k <= L && !(j == 1 && k == L - 1);
}

/* The class sizes n[A * (L+1) + B] (A + B <= L) of mseg targets from their P (same indices) by
 * Mobius inversion in both coordinates, for T a scalar or a vector of 8- or 16-bit lanes
 * (wrapping arithmetic is exact: every class size is in [0, mseg]).  The inversion is done one
 * bit of one coordinate at a time (x[j] -= x[j | bit] for j without the bit): 38 subtractions
 * at 5 letters instead of the 85 terms of the sums written out.  Only P_{j,k} with
 * place_counted(j, k) is read (the others are zero: beyond the triangle j + k <= L no target,
 * and P_{1,L-1}), and P_{0,0} is every target, mseg. */
#define DEFINE_MOBIUS2(name, T, S)                                                               \
    static inline __attribute__((always_inline)) void name(T *n, const T *P, int32_t mseg,      \
                                                           const int L)                         \
    {                                                                                            \
        const int L1 = L + 1;                                                                    \
        UNROLL for (int j = 0; j <= L; j++)                                                      \
            UNROLL for (int k = 0; j + k <= L; k++)                                              \
                n[j * L1 + k] = place_counted(j, k, L) ? P[j * L1 + k] : (T){0};                 \
        n[0] = (T){0} + (S)mseg;                                                                 \
        UNROLL for (int bit = 1; bit <= L; bit <<= 1)                                            \
            UNROLL for (int j = 0; j <= L; j++)                                                  \
                UNROLL for (int k = 0; (j | bit) + k <= L; k++)                                  \
                    if (!(j & bit))                                                              \
                        n[j * L1 + k] -= n[(j | bit) * L1 + k];                                  \
        UNROLL for (int bit = 1; bit <= L; bit <<= 1)                                            \
            UNROLL for (int j = 0; j <= L; j++)                                                  \
                UNROLL for (int k = 0; j + (k | bit) <= L; k++)                                  \
                    if (!(k & bit))                                                              \
                        n[j * L1 + k] -= n[j * L1 + (k | bit)];                                  \
    }

/* The pair of reply code r's class (its index in n), or -1 for codes no reply has (b > a). */
static inline __attribute__((always_inline)) int place_pair(int r, const int L)
{
    const int a = r % (L + 1), b = r / (L + 1);
    return b <= a ? (a - b) * (L + 1) + b : -1;
}

#if SLICE_T == 64
/* The L letter codes (or token indices) of candidate c, one at a time for the scalar level. */
static inline __attribute__((always_inline)) void
word_letters(const jt_eval *ev, int32_t c, const int L, uint8_t *lt)
{
    const int32_t word = ev->cid ? ev->cid[c] : c;
    for (int p = 0; p < L; p++)
        lt[p] = ev->w->letters[(size_t)p * ev->w->lstride + word];
}

/* P[idx[i]] = the bits of x[idx[i]] for i < n, when each x[idx[i]] holds at most F = 16 (or 8)
 * targets, in its low F bits: 64 / F of them side by side in one word go through a popcount's
 * steps to F-bit fields together (6 operations a word, or 8 with F = 16, for 4 or 8 counts,
 * where a popcount without the instruction takes 12 a count). */
static inline __attribute__((always_inline)) void
side_by_side(const uint64_t *x, const int *idx, int n, uint32_t *P, const int F)
{
    UNROLL for (int g = 0; g < n; g += 64 / F) {
        uint64_t v = 0;
        UNROLL for (int f = 0; f < 64 / F; f++)
            if (g + f < n)
                v |= x[idx[g + f]] << (F * f);
        v -= (v >> 1) & 0x5555555555555555u;
        v = (v & 0x3333333333333333u) + ((v >> 2) & 0x3333333333333333u);
        v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fu;
        if (F == 16)
            v += v >> 8; /* the low byte of each field: its count (<= 16) */
        UNROLL for (int f = 0; f < 64 / F; f++)
            if (g + f < n)
                P[idx[g + f]] = (uint32_t)(v >> (F * f)) & 0xff;
    }
}

/* Class sizes of candidates [c0, c0 + n) over the nch chunks of tabs (mseg targets) into dst.
 * One chunk of at most 16 targets (most of a tree's nodes): the counts of the planes' ANDs are
 * taken side by side. */
static inline __attribute__((always_inline)) void
slice_sweep(const jt_eval *ev, int32_t c0, int32_t n, const void *tabs, int32_t nch,
            int32_t mseg, uint16_t *dst, size_t stride, int first, const int L, const int TW)
{
    static const int classes[JT_MAX_LEN] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13,
                                            14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26};
    const int np = planes_for(L);
    const slice_t *T = tabs;
    for (int32_t c = 0; c < n; c++) {
        uint8_t lt[JT_MAX_LEN];
        word_letters(ev, c0 + c, L, lt);
        uint32_t P[JT_MAX_LEN + 1]; /* P[1..L] (zeroed by L stores where needed: "= {0}" was a
                                     * rep stos of the whole array, 20% of the time) */
        if (nch == 1 && mseg <= 16) {
            slice_t pl[5], x[JT_MAX_LEN + 1];
            for (int p = 0; p < L; p++)
                ripple(pl, T[lt[p]], p, np);
            for (int j = 1; j <= L; j++)
                x[j] = with_bits(pl, j, np);
            if (mseg <= 8)
                side_by_side(x, classes, L, P, 8);
            else
                side_by_side(x, classes, L, P, 16);
        } else {
            for (int j = 1; j <= L; j++)
                P[j] = 0;
            for (int32_t k = 0; k < nch; k++) {
                const slice_t *row = T + (size_t)k * TW;
                slice_t pl[5];
                for (int p = 0; p < L; p++)
                    ripple(pl, row[lt[p]], p, np);
                for (int j = 1; j <= L; j++)
                    P[j] += (uint32_t)jt_pc64(with_bits(pl, j, np));
            }
        }
        uint16_t sizes[JT_MAX_LEN + 1];
        mobius(sizes, P, mseg, L);
        for (int j = 0; j <= L; j++) {
            uint16_t *o = dst + (size_t)j * stride + c;
            *o = (uint16_t)(first ? sizes[j] : *o + sizes[j]);
        }
    }
}

DEFINE_MOBIUS2(mobius2, uint32_t, uint32_t)

/* Bit counts of 64-bit words summed over chunks, for the place sweep.  Without a popcount
 * instruction a word's bits are counted in 4-bit fields (two steps of the usual tree), three
 * chunks' fields are added before they are folded into 8-bit fields, and those are summed only
 * at the end: a little over half a popcount a word.  With one, popcount each word. */
#if defined(__POPCNT__) || defined(__aarch64__)
typedef struct { uint32_t n; } bitsum;
static inline __attribute__((always_inline)) void bitsum_add(bitsum *s, uint64_t x, int32_t k)
{
    (void)k;
    s->n += (uint32_t)jt_pc64(x);
}
static inline __attribute__((always_inline)) uint32_t bitsum_total(const bitsum *s)
{
    return s->n;
}
#else
/* f4: 4-bit fields of up to 3 chunks (<= 12); f8: 8-bit fields of earlier chunks (<= 255 for
 * up to 31 chunks), n: the rest */
typedef struct { uint64_t f4, f8; uint32_t n; } bitsum;
#define M4 0x0f0f0f0f0f0f0f0fu
static inline __attribute__((always_inline)) uint32_t fold8(uint64_t f8)
{
    const uint64_t f16 = (f8 & 0x00ff00ff00ff00ffu) + ((f8 >> 8) & 0x00ff00ff00ff00ffu);
    return (uint32_t)((f16 * 0x0001000100010001u) >> 48);
}
static inline __attribute__((always_inline)) void bitsum_add(bitsum *s, uint64_t x, int32_t k)
{
    x = x - ((x >> 1) & 0x5555555555555555u);
    s->f4 += (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    if (k % 3 == 2) { /* three chunks in: fold the 4-bit fields */
        s->f8 += (s->f4 & M4) + ((s->f4 >> 4) & M4);
        s->f4 = 0;
    }
    if (k % 30 == 29) { /* thirty chunks in: fold the 8-bit fields (<= 240) */
        s->n += fold8(s->f8);
        s->f8 = 0;
    }
}
static inline __attribute__((always_inline)) uint32_t bitsum_total(const bitsum *s)
{
    return s->n + fold8(s->f8 + (s->f4 & M4) + ((s->f4 >> 4) & M4));
}
#undef M4
#endif

/* The planes pa of a' and pb of b of one candidate (letters lt) over the chunk whose table is
 * row (place_tables). */
static inline __attribute__((always_inline)) void
place_planes(const slice_t *row, const uint8_t *lt, const int L, const int np, slice_t *pa,
             slice_t *pb)
{
    slice_t xa[JT_MAX_POS_LEN] = {0}, xb[JT_MAX_POS_LEN] = {0};
    UNROLL for (int p = 0; p < L; p++) {
        xa[p] = row[64 * p + lt[p]];
        xb[p] = row[64 * p + 32 + lt[p]];
    }
    column_sum(pa, xa, L, np);
    column_sum(pb, xb, L, np);
}

/* P[i] = the bits of x[i] for every counted pair i (place_counted), when the planes hold at
 * most 16 targets (side_by_side). */
static inline __attribute__((always_inline)) void
place_counts16(const uint64_t *x, uint32_t *P, const int L)
{
    const int L1 = L + 1;
    int idx[PAIRS] = {0}, n = 0; /* the counted pairs, in order */
    UNROLL for (int i = 1; i < L1 * L1; i++)
        if (place_counted(i / L1, i % L1, L))
            idx[n++] = i;
    side_by_side(x, idx, n, P, 16);
}

/* PLACE: class sizes by reply code of candidates [c0, c0 + n) over the nch chunks of tabs
 * (place_tables, mseg targets) into dst, or, with q not NULL (uniform weights, one segment),
 * q = vmin sum n^2 there. */
static inline __attribute__((always_inline)) void
place_sweep(const jt_eval *ev, int32_t c0, int32_t n, const void *tabs, int32_t nch,
            int32_t mseg, uint16_t *dst, size_t stride, int first, const int L, uint64_t *q)
{
    const int np = planes_for(L), W = 64 * L, L1 = L + 1;
    const slice_t *T = tabs;
    for (int32_t c = 0; c < n; c++) {
        uint8_t lt[JT_MAX_POS_LEN];
        word_letters(ev, c0 + c, L, lt);
        uint32_t P[PAIRS]; /* of the counted pairs */
        UNROLL for (int i = 0; i < L1 * L1; i++)
            P[i] = 0; /* (stores the branches below make again fold away) */
        if (nch == 1 && mseg <= 16) { /* 16 targets: four planes counted at once */
            slice_t pa[4], pb[4], x[PAIRS];
            x[0] = 0;
            place_planes(T, lt, L, np, pa, pb);
            UNROLL for (int j = 0; j <= L; j++)
                UNROLL for (int kk = 0; j + kk <= L; kk++)
                    if (place_counted(j, kk, L))
                        x[j * L1 + kk] = pair_bits(pa, pb, j, kk, np);
            place_counts16(x, P, L);
        } else if (nch == 1) { /* one chunk: a popcount a pair, skipping the rare top planes' */
            slice_t pa[4], pb[4];
            place_planes(T, lt, L, np, pa, pb);
            const int top = 1 << (np - 1), rare = (pa[np - 1] | pb[np - 1]) != 0;
            UNROLL for (int j = 0; j <= L; j++)
                UNROLL for (int kk = 0; j + kk <= L; kk++)
                    if (place_counted(j, kk, L))
                        P[j * L1 + kk] = rare || !((j | kk) & top)
                                             ? (uint32_t)jt_pc64(pair_bits(pa, pb, j, kk, np))
                                             : 0;
        } else {
            bitsum bs[PAIRS];
            UNROLL for (int i = 0; i < L1 * L1; i++)
                memset(&bs[i], 0, sizeof bs[i]);
            for (int32_t k = 0; k < nch; k++) {
                slice_t pa[4], pb[4];
                place_planes(T + (size_t)k * W, lt, L, np, pa, pb);
                UNROLL for (int j = 0; j <= L; j++)
                    UNROLL for (int kk = 0; j + kk <= L; kk++)
                        if (place_counted(j, kk, L))
                            bitsum_add(&bs[j * L1 + kk], pair_bits(pa, pb, j, kk, np), k);
            }
            UNROLL for (int i = 1; i < L1 * L1; i++)
                P[i] = bitsum_total(&bs[i]);
        }
        uint32_t sizes[PAIRS];
        mobius2(sizes, P, mseg, L);
        if (q) {
            uint64_t sq = 0;
            UNROLL for (int A = 0; A <= L; A++)
                UNROLL for (int B = 0; A + B <= L; B++)
                    sq += (uint64_t)sizes[A * (L + 1) + B] * sizes[A * (L + 1) + B];
            q[c] = ev->vmin * sq;
            continue;
        }
        for (int r = 0; r < (L + 1) * (L + 1); r++) {
            const int pi = place_pair(r, L);
            const uint32_t x = pi < 0 ? 0 : sizes[pi];
            uint16_t *o = dst + (size_t)r * stride + c;
            *o = (uint16_t)(first ? x : *o + x);
        }
    }
}
#else
/* The letter codes of candidates [c, c + n) at position p into out[0..width): straight from
 * jt_words.letters when candidate c is word c, else gathered; lanes past n get JT_NO_LETTER. */
static inline __attribute__((always_inline)) void
candidate_letters(const jt_eval *ev, int p, int32_t c, int32_t n, int width, uint8_t *out)
{
    const jt_words *w = ev->w;
    const uint8_t *row = w->letters + (size_t)p * w->lstride;
    if (!ev->cid) {
        memcpy(out, row + c, (size_t)width); /* rows are padded by JT_LETTER_PAD >= width */
        return;
    }
    for (int i = 0; i < n; i++)
        out[i] = row[ev->cid[c + i]];
    for (int i = n; i < width; i++)
        out[i] = JT_NO_LETTER;
}

/* The shuffle indices of the L letters (or tokens) of candidates c .. c+n-1. */
static inline __attribute__((always_inline)) void
candidate_indices(const jt_eval *ev, int32_t c, int32_t n, const int L, slice_idx *idx,
                  const int TW)
{
#ifdef IDX_ROWS
    if (TW == 32 && !ev->cid && ev->w->shuf) { /* computed once for the word list */
        for (int p = 0; p < L; p++)
            idx[p] = idx_load(ev->w->shuf + (size_t)p * ev->w->lstride + c);
        return;
    }
#endif
    for (int p = 0; p < L; p++) {
        vb lt;
        candidate_letters(ev, p, c, n, VW, (uint8_t *)&lt);
        idx[p] = idx_of(lt, TW);
    }
}

/* Class L of candidates c .. c+VW-1 from own (jt_eval.own_n, own_u) when it is not NULL, else
 * x as counted. */
static inline __attribute__((always_inline)) vb own_class(const uint8_t *own, int32_t c, vb x)
{
    if (!own)
        return x;
    memcpy(&x, own + c, sizeof x);
    return x;
}

/* The 16-bit totals of slice_sweep_q's candidates (2 L registers) stay in memory, not in
 * registers, across its loop over chunks, whose letter indices, tables, planes and byte
 * counters want every register: at v2 (SSE, 16 registers of 16 candidates) gcc kept the totals
 * in registers in the per-length units and spilled the planes and counters inside the loop,
 * 11 stores a chunk (ENABLE 5 perl 1.1x and TWL06 4 letters up to 1.15x slower than the
 * whole-file build of 69d39b9, which kept them in memory).  An empty asm that may read and
 * write them says so; v3 and v4 (wider vectors, fewer totals per candidate, or 32 registers)
 * were not slower and are left to gcc. */
#if VW == 16 && !defined(__ARM_NEON)
#define KEEP_IN_MEMORY(x) __asm__ volatile("" : : "r"(&(x)) : "memory")
#else
#define KEEP_IN_MEMORY(x) ((void)0)
#endif

/* Add the counts of one chunk's planes' ANDs pl to acc[1..L] (byte counters), class L's only if
 * own is NULL (own_class). */
static inline __attribute__((always_inline)) void add_counts(const vb *pl, vb *acc,
                                                             const uint8_t *own, const int L)
{
    UNROLL for (int j = 1; j <= L; j++)
        if (j < L || !own)
            acc[j] += pc8(with_bits(pl, j, planes_for(L)));
}

/* Adds (first: writes) the 16-bit lanes x to o[0 .. nh), nh <= VW / 2. */
static inline __attribute__((always_inline)) void add_lanes(uint16_t *o, vh x, int nh, int first)
{
    if (nh == VW / 2 && first) {
        *(vhu *)o = x;
    } else if (nh == VW / 2) {
        *(vhu *)o += x;
    } else {
        uint16_t lanes[VW / 2];
        memcpy(lanes, &x, sizeof lanes);
        for (int i = 0; i < nh; i++)
            o[i] = (uint16_t)(first ? lanes[i] : o[i] + lanes[i]);
    }
}

/* The same; with q not NULL (uniform weights, mseg <= 255, one segment) it writes
 * q = vmin sum_j n_j^2 there instead of the class sizes (n_j^2 and their sum fit 16 bits),
 * corrected by sel (not NULL: TOKENS, self_classes) for candidates whose own reply is the win. */
static inline __attribute__((always_inline)) void
slice_sweep_q(const jt_eval *ev, int32_t c0, int32_t n, const void *tabs, int32_t nch,
              int32_t mseg, uint16_t *dst, size_t stride, int first, const int L, uint64_t *q,
              const uint8_t *sel, const uint8_t *own, const int TW)
{
    const int np = planes_for(L);
    const uint8_t *T = tabs;
    for (int32_t v0 = 0; v0 < n; v0 += VW) {
        const int nv = n - v0 < VW ? (int)(n - v0) : VW;
        slice_idx idx[JT_MAX_LEN];
        candidate_indices(ev, c0 + v0, nv, L, idx, TW);
        vh tot[2][JT_MAX_LEN + 1];
        UNROLL for (int j = 1; j <= L; j++)
            tot[0][j] = tot[1][j] = (vh){0};
        /* byte counters take 31 chunks (31 * 8 = 248 < 256) before they are widened */
        for (int32_t k0 = 0; k0 < nch; k0 += 31) {
            const int32_t k1 = nch - k0 < 31 ? nch : k0 + 31;
            KEEP_IN_MEMORY(tot);
            vb acc[JT_MAX_LEN + 1];
            UNROLL for (int j = 1; j <= L; j++)
                acc[j] = (vb){0};
            for (int32_t k = k0; k < k1; k++) {
                const slice_tab t = tab_load(T + (size_t)k * TW, TW);
                vb pl[5];
                UNROLL for (int p = 0; p < L; p++)
                    ripple(pl, look(t, idx[p], TW), p, np);
                add_counts(pl, acc, own, L);
            }
            UNROLL for (int j = 1; j <= L; j++) {
                tot[0][j] += widen(acc[j], 0);
                tot[1][j] += widen(acc[j], 1);
            }
        }
        if (own && first) { /* (later segments count none: their sums still add up) */
            const vb o = own_class(own, c0 + v0, (vb){0});
            tot[0][L] = widen(o, 0);
            tot[1][L] = widen(o, 1);
        }
        /* Mobius inversion lane-wise, in wrapping 16-bit arithmetic (exact: n_j in [0, m]),
         * for each half of the candidates */
        for (int h = 0; h < 2; h++) {
            vh nj[JT_MAX_LEN + 1];
            vh rest = (vh){0} + (uint16_t)mseg;
            for (int j = L; j >= 1; j--) {
                vh x = (vh){0};
                for (int k = j; k <= L; k++)
                    if ((k & j) == j)
                        x = (__builtin_popcount((unsigned)(k ^ j)) & 1) ? x - tot[h][k]
                                                                         : x + tot[h][k];
                nj[j] = x;
                rest -= x;
            }
            nj[0] = rest;
            const int lo = h * (VW / 2);
            const int nh = nv - lo < VW / 2 ? nv - lo : VW / 2;
            if (q) {
                vh sq = (vh){0};
                for (int j = 0; j <= L; j++)
                    sq += nj[j] * nj[j];
                if (sel) { /* the own reply moves from class s to an empty one: 2 - 2 n_s */
                    vb sb;
                    memcpy(&sb, sel + v0, sizeof sb);
                    const vh s = widen(sb, h);
                    for (int j = 0; j <= L; j++)
                        sq += (vh)(s == (uint16_t)j) & ((uint16_t)2 - nj[j] - nj[j]);
                }
                uint16_t lanes[VW / 2];
                memcpy(lanes, &sq, sizeof lanes);
                const uint64_t vmin = ev->vmin;
                for (int i = 0; i < nh; i++)
                    q[v0 + lo + i] = vmin == 1 ? lanes[i] : vmin * lanes[i];
                continue;
            }
            for (int j = 0; j <= L && nh > 0; j++)
                add_lanes(dst + (size_t)j * stride + v0 + lo, nj[j], nh, first);
        }
    }
}

static inline __attribute__((always_inline)) void
slice_sweep(const jt_eval *ev, int32_t c0, int32_t n, const void *tabs, int32_t nch,
            int32_t mseg, uint16_t *dst, size_t stride, int first, const int L, const int TW)
{
    slice_sweep_q(ev, c0, n, tabs, nch, mseg, dst, stride, first, L, NULL, NULL, NULL, TW);
}

DEFINE_MOBIUS2(mobius2, vh, uint16_t)
DEFINE_MOBIUS2(mobius2_bytes, vb, uint8_t)

/* The squares of 0..15, for byte look-ups (nib_look) of class sizes below 16. */
static const uint8_t squares[16] = {0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225};

/* q = vmin sum n^2 of nv candidates from their class sizes nb (each at most 15, so the squares
 * come from a 16-entry byte table and their sum fits a byte). */
static inline __attribute__((always_inline)) void
place_q_bytes(const jt_eval *ev, const vb *nb, int nv, const int L, uint64_t *q)
{
    const nib_tab sqt = nib_load(squares);
    vb sq = (vb){0};
    UNROLL for (int A = 0; A <= L; A++)
        UNROLL for (int B = 0; A + B <= L; B++)
            if (!(A == 1 && B == L - 1)) /* no reply (place_counted) */
                sq += nib_look(sqt, nb[A * (L + 1) + B]);
    uint8_t lanes[VW];
    memcpy(lanes, &sq, sizeof lanes);
    for (int i = 0; i < nv; i++)
        q[i] = ev->vmin * lanes[i];
}

/* PLACE: class sizes by reply code of candidates [c0, c0 + n) over the nch chunks of tabs
 * (place_tables, mseg targets) into dst, or, with q not NULL (uniform weights, mseg <= 255, one
 * segment), q = vmin sum n^2 there.  Not inlined: counts_sliced's two calls (q, class sizes)
 * share one copy, which the compiler specialises for the length every call of a translation unit
 * passes (kernels_length.c); q is only looked at once per register of candidates. */
static __attribute__((noinline)) void
place_sweep(const jt_eval *ev, int32_t c0, int32_t n, const void *tabs, int32_t nch,
            int32_t mseg, uint16_t *dst, size_t stride, int first, const int L, uint64_t *q)
{
    const int np = planes_for(L), W = 64 * L, L1 = L + 1;
    const uint8_t *T = tabs;
    for (int32_t v0 = 0; v0 < n; v0 += VW) {
        const int nv = n - v0 < VW ? (int)(n - v0) : VW;
        slice_idx idx[JT_MAX_POS_LEN];
        candidate_indices(ev, c0 + v0, nv, L, idx, 32);
        vh tot[2][PAIRS]; /* past one round of byte counters (zeroed here only then: a
                           * register group's every store counts on small nodes) */
        if (nch > 31)
            UNROLL for (int i = 0; i < L1 * L1; i++)
                tot[0][i] = tot[1][i] = (vh){0};
        vb acc[PAIRS];
        UNROLL for (int i = 0; i < L1 * L1; i++)
            acc[i] = (vb){0}; /* (as each round does: compilers cannot tell there is one) */
        for (int32_t k0 = 0; k0 < nch; k0 += 31) { /* 31 chunks fit byte counters */
            const int32_t k1 = nch - k0 < 31 ? nch : k0 + 31;
            UNROLL for (int i = 0; i < L1 * L1; i++)
                acc[i] = (vb){0};
            for (int32_t k = k0; k < k1; k++) {
                vb xa[JT_MAX_POS_LEN] = {0}, xb[JT_MAX_POS_LEN] = {0}, pa[4], pb[4];
                UNROLL for (int p = 0; p < L; p++) {
                    const uint8_t *t = T + (size_t)k * W + 64 * p;
                    xa[p] = look(tab_load(t, 32), idx[p], 32);
                    xb[p] = look(tab_load(t + 32, 32), idx[p], 32);
                }
                column_sum(pa, xa, L, np);
                column_sum(pb, xb, L, np);
                UNROLL for (int j = 0; j <= L; j++)
                    UNROLL for (int kk = 0; j + kk <= L; kk++)
                        if (place_counted(j, kk, L))
                            acc[j * L1 + kk] += pc8(pair_bits(pa, pb, j, kk, np));
            }
            if (nch <= 31) /* one group: class sizes fit bytes, inverted there below */
                break;
            UNROLL for (int i = 1; i < L1 * L1; i++) {
                tot[0][i] += widen(acc[i], 0);
                tot[1][i] += widen(acc[i], 1);
            }
        }
        vb nb[PAIRS];
        if (nch <= 31)
            mobius2_bytes(nb, acc, mseg, L);
        if (q && mseg <= 15) { /* class sizes <= 15, their squares' sum <= 225: all in bytes */
            place_q_bytes(ev, nb, nv, L, q + v0);
            continue;
        }
        for (int h = 0; h < 2; h++) {
            vh nn[PAIRS];
            if (nch <= 31) {
                UNROLL for (int i = 0; i < L1 * L1; i++)
                    nn[i] = widen(nb[i], h);
            } else {
                mobius2(nn, tot[h], mseg, L);
            }
            const int lo = h * (VW / 2);
            const int nh = nv - lo < VW / 2 ? nv - lo : VW / 2;
            if (q) {
                vh sq = (vh){0};
                UNROLL for (int A = 0; A <= L; A++)
                    UNROLL for (int B = 0; A + B <= L; B++)
                        sq += nn[A * L1 + B] * nn[A * L1 + B];
                uint16_t lanes[VW / 2];
                memcpy(lanes, &sq, sizeof lanes);
                for (int i = 0; i < nh; i++)
                    q[v0 + lo + i] = ev->vmin * lanes[i];
                continue;
            }
            if (nh <= 0)
                continue;
            UNROLL for (int r = 0; r < L1 * L1; r++) {
                const int pi = place_pair(r, L);
                add_lanes(dst + (size_t)r * stride + v0 + lo, pi < 0 ? (vh){0} : nn[pi], nh, first);
            }
        }
    }
}

/* The planes of the candidates' replies (idx) to the targets of one chunk (table tab, loaded;
 * or t in memory). */
static inline __attribute__((always_inline)) void
tab_planes(slice_tab tab, const slice_idx *idx, vb *pl, const int L)
{
    for (int p = 0; p < L; p++)
        ripple(pl, look(tab, idx[p], 32), p, planes_for(L));
}

static inline __attribute__((always_inline)) void
chunk_planes(const uint8_t *t, const slice_idx *idx, vb *pl, const int L)
{
    tab_planes(tab_load(t, 32), idx, pl, L);
}

/* ---- q at nodes of at most 8 targets, any weights ---------------------------------------------
 * q(c) = sum_i v_i n_{reply(c, i)} adds each target's weight once for every target of S replying
 * as it does, itself included: q = V + the sum of v_i + v_i' over the pairs i < i' of S that
 * reply alike.  That is linear in the pair bits [reply(c, i) = reply(c, i')], and with S in one
 * chunk the pairs (i, i + k) of a candidate are the bits below M - k of
 * E_k = ~OR_b (p_b ^ (p_b >> k)) over its reply planes.  The M(M-1)/2 pair bits go into bytes in
 * order of k, and q is one look-up a byte in a table of 256 sums (the first adds V): one at up
 * to 4 targets, four at 8, where counting the class sizes and weighing them took a hundred or
 * more vector operations a register, several hundred with paper mode's wide weights. */
/* Bytes shifted right (left) by s bits, as 16-bit lanes and a mask: one shift instruction even
 * where s is not folded to a constant (unoptimised builds would shift byte by byte). */
static inline __attribute__((always_inline)) vb shr8(vb x, int s)
{
    return (vb)((vh)x >> s) & (uint8_t)(0xffu >> s);
}

static inline __attribute__((always_inline)) vb shl8(vb x, int s)
{
    return (vb)((vh)x << s) & (uint8_t)(0xffu << s);
}

/* The pair bits of targets 0..M-1 from their reply planes pl[0..np), packed into by[]: pairs
 * (i, i + k) for k = 1, 2, ... in turn, M - k bits each, a byte holding eight. */
static inline __attribute__((always_inline)) void
pair_bytes(const vb *pl, vb *by, const int M, const int np)
{
    UNROLL for (int b = 0; b < PAIR_BYTES; b++)
        by[b] = (vb){0};
    int off = 0;
    UNROLL for (int k = 1; k < M; k++) {
        vb d = (vb){0};
        UNROLL for (int b = 0; b < np; b++)
            d |= pl[b] ^ shr8(pl[b], k);
        const vb below = (vb){0} + (uint8_t)((1u << (M - k)) - 1); /* i + k < M */
        const vb e = ~d & below;
        by[off >> 3] |= shl8(e, off & 7);
        if ((off & 7) + M - k > 8)
            by[(off >> 3) + 1] |= shr8(e, 8 - (off & 7));
        off += M - k;
    }
}

/* The pair bytes (pair_bytes) of the nv candidates from c, one register, over the one chunk of
 * M targets in tabs. */
static inline __attribute__((always_inline)) void
register_pairs(const jt_eval *ev, int32_t c, int nv, const void *tabs, vb *by, const int L,
               const int M)
{
    slice_idx idx[JT_MAX_LEN];
    candidate_indices(ev, c, nv, L, idx, 32);
    vb pl[5];
    chunk_planes(tabs, idx, pl, L);
    pair_bytes(pl, by, M, planes_for(L));
}

/* q of candidates [c0, c0 + n) at a node of M <= PAIR_MAX targets, from the chunk table tabs
 * and the pair tables tb (jt_pair_tables): the pair bytes of a register of candidates, then a
 * look-up a byte for each candidate. */
static inline __attribute__((always_inline)) void
slice_q_pairs(const jt_eval *ev, int32_t c0, int32_t n, const void *tabs,
              const uint64_t (*tb)[256], const int L, const int M)
{
    const int nb = (M * (M - 1) / 2 + 7) / 8;
    for (int32_t v0 = 0; v0 < n; v0 += VW) {
        const int nv = n - v0 < VW ? (int)(n - v0) : VW;
        vb by[PAIR_BYTES];
        register_pairs(ev, c0 + v0, nv, tabs, by, L, M);
        uint8_t x[PAIR_BYTES][VW];
        memcpy(x, by, sizeof x);
        uint64_t *q = ev->q + c0 + v0;
        for (int i = 0; i < nv; i++) {
            uint64_t s = tb[0][x[0][i]];
            UNROLL for (int b = 1; b < nb; b++)
                s += tb[b][x[b][i]];
            q[i] = s;
        }
    }
}

/* Class sizes (or any additive sums over targets) n_0..n_L in bytes (16-bit lanes) from the
 * counts P_1..P_L of the planes' ANDs by Mobius inversion, n_0 = total - the rest: exact in
 * wrapping byte (16-bit) arithmetic while every n_j is below 256 (65536). */
#define DEFINE_INVERT(name, T)                                                                   \
    static inline __attribute__((always_inline)) void name(T *n, const T *P, T total,           \
                                                           const int L)                         \
    {                                                                                            \
        for (int j = L; j >= 1; j--) {                                                           \
            T x = (T){0};                                                                        \
            for (int k = j; k <= L; k++)                                                         \
                if ((k & j) == j)                                                                \
                    x = (__builtin_popcount((unsigned)(k ^ j)) & 1) ? x - P[k] : x + P[k];       \
            n[j] = x;                                                                            \
            total -= x;                                                                          \
        }                                                                                        \
        n[0] = total;                                                                            \
    }
DEFINE_INVERT(invert_bytes, vb)
DEFINE_INVERT(invert16, vh)

/* Add the counts of the planes' ANDs of chunks [k0, k1) of tabs to acc[1..L] (byte counters),
 * class L's only if own is NULL (own_class). */
static inline __attribute__((always_inline)) void
count_chunks(const uint8_t *tabs, const slice_idx *idx, int32_t k0, int32_t k1, vb *acc,
             const uint8_t *own, const int L)
{
    for (int32_t k = k0; k < k1; k++) {
        vb pl[5];
        chunk_planes(tabs + (size_t)k * 32, idx, pl, L);
        add_counts(pl, acc, own, L);
    }
}

/* Bytewise popcount of bytes below 16 (a chunk of at most 4 targets): one look-up, where the
 * level has no popcount of its own. */
static inline __attribute__((always_inline)) vb pc8_low(vb x)
{
#if VW == 64 || defined(__ARM_NEON)
    return pc8(x);
#else
    static const uint8_t bits[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    return nib_look(nib_load(bits), x);
#endif
}

/* add_counts for NCH chunks whose tables are in registers (tk), or (NCH = 0) the nch chunks of
 * tabs: at most two chunks (most of a tree's nodes, 16 targets) stay in registers for the whole
 * sweep instead of being loaded again for every register of candidates, and the loop over them
 * unrolls; LOW: one chunk of at most 4 targets, counted by pc8_low. */
static inline __attribute__((always_inline)) void
count_known(const slice_tab *tk, const uint8_t *tabs, int32_t nch, const slice_idx *idx,
            vb *acc, const uint8_t *own, const int L, const int NCH, const int LOW)
{
    if (!NCH) {
        for (int32_t k = 0; k < nch; k++) {
            vb pl[5];
            chunk_planes(tabs + (size_t)k * 32, idx, pl, L);
            add_counts(pl, acc, own, L);
        }
        return;
    }
    UNROLL for (int k = 0; k < NCH; k++) {
        vb pl[5];
        tab_planes(tk[k], idx, pl, L);
        if (!LOW) {
            add_counts(pl, acc, own, L);
            continue;
        }
        UNROLL for (int j = 1; j <= L; j++)
            if (j < L || !own)
                acc[j] += pc8_low(with_bits(pl, j, planes_for(L)));
    }
}

/* The 16-bit values of a register of candidates, lanes [0, VW / 2) in x[0] and the rest in x[1],
 * into q16[0 .. nv). */
static inline __attribute__((always_inline)) void store_q16(uint16_t *q16, const vh *x, int nv)
{
    if (nv == VW) { /* (written out: compilers make add_lanes a memcpy of 2 nh bytes here) */
        *(vhu *)q16 = x[0];
        *(vhu *)(q16 + VW / 2) = x[1];
    } else {
        uint16_t lanes[VW];
        memcpy(lanes, x, sizeof lanes);
        for (int i = 0; i < nv; i++)
            q16[i] = lanes[i];
    }
}

/* The ranks (jt_rank_tables) of candidates [c0, c0 + n) into ev->q16, M <= JT_RANK_MAX: the pair
 * bits of a register of candidates looked up in the 64-entry rank table. */
static inline __attribute__((always_inline)) void
slice_q_ranks(const jt_eval *ev, int32_t c0, int32_t n, const void *tabs, const uint8_t *rank,
              const int L, const int M)
{
    const slice_tab rt = tab_load(rank, 64);
    for (int32_t v0 = 0; v0 < n; v0 += VW) {
        const int nv = n - v0 < VW ? (int)(n - v0) : VW;
        vb by[PAIR_BYTES];
        register_pairs(ev, c0 + v0, nv, tabs, by, L, M);
        const vb r = look(rt, idx_of(by[0], 64), 64);
        const vh x[2] = {widen(r, 0), widen(r, 1)};
        store_q16(ev->q16 + c0 + v0, x, nv);
    }
}

/* sum_j n_j^2 of candidates [c0, c0 + n) into ev->q16 (jt_q16_fits), over the nch <= 31 chunks
 * of tabs (mseg <= 248 targets): the counts stay in byte counters and the class sizes in bytes
 * (each <= 248); at most 15 targets, their squares come from a 16-entry byte table and their sum
 * (<= 225) stays in bytes, else they are squared and summed in 16-bit lanes.  Two stores per
 * register of candidates.  NCH (1, 2; 0: nch at run time) and LOW as count_known. */
static inline __attribute__((always_inline)) void
slice_q16_n(const jt_eval *ev, int32_t c0, int32_t n, const uint8_t *tabs, int32_t nch,
            int32_t mseg, const int L, const int NCH, const int LOW)
{
    uint16_t *q16 = ev->q16 + c0;
    const uint8_t *own = ev->own_n;
    slice_tab tk[2];
    UNROLL for (int k = 0; k < NCH; k++)
        tk[k] = tab_load(tabs + (size_t)k * 32, 32);
    const nib_tab sqt = nib_load(squares);
    const vb total = (vb){0} + (uint8_t)mseg;
    for (int32_t v0 = 0; v0 < n; v0 += VW) {
        const int nv = n - v0 < VW ? (int)(n - v0) : VW;
        slice_idx idx[JT_MAX_LEN];
        candidate_indices(ev, c0 + v0, nv, L, idx, 32);
        vb acc[JT_MAX_LEN + 1], nj[JT_MAX_LEN + 1];
        for (int j = 1; j <= L; j++)
            acc[j] = (vb){0};
        count_known(tk, tabs, nch, idx, acc, own, L, NCH, LOW);
        acc[L] = own_class(own, c0 + v0, acc[L]);
        invert_bytes(nj, acc, total, L);
        vh sq[2];
        if (LOW || mseg <= 15) {
            vb sqb = (vb){0};
            for (int j = 0; j <= L; j++)
                sqb += nib_look(sqt, nj[j]);
            sq[0] = widen(sqb, 0);
            sq[1] = widen(sqb, 1);
        } else {
            for (int h = 0; h < 2; h++) {
                sq[h] = (vh){0};
                for (int j = 0; j <= L; j++) {
                    const vh a = widen(nj[j], h);
                    sq[h] += a * a;
                }
            }
        }
        store_q16(q16 + v0, sq, nv);
    }
}

static inline __attribute__((always_inline)) void
slice_q16(const jt_eval *ev, int32_t c0, int32_t n, const uint8_t *tabs, int32_t nch,
          int32_t mseg, const int L)
{
    if (mseg <= 4)
        slice_q16_n(ev, c0, n, tabs, nch, mseg, L, 1, 1);
    else if (nch == 1)
        slice_q16_n(ev, c0, n, tabs, nch, mseg, L, 1, 0);
    else if (nch == 2)
        slice_q16_n(ev, c0, n, tabs, nch, mseg, L, 2, 0);
    else
        slice_q16_n(ev, c0, n, tabs, nch, mseg, L, 0, 0);
}

/* Add the units of the planes' ANDs of chunk k to wacc[d][1..L] (byte counters; class L's only
 * if own is NULL), the tables of digit d < ND at nib + d * dbytes (32 bytes a chunk): two nibble
 * look-ups a class and digit.  Unrolled by the pragma, as add_counts: left to gcc's size
 * heuristics, the per-length units of every vector level kept both loops (planes picked by tzcnt
 * and bt, byte counters in memory), where 69d39b9's whole-file build unrolled them, and TWL06's
 * paper-mode weights ran 1.1x slower on v2. */
/* The same for one digit whose chunk's tables are in registers (lo, hi). */
static inline __attribute__((always_inline)) void
add_units_tab(nib_tab lo, nib_tab hi, const vb *pl, vb *wacc, const uint8_t *own, const int L)
{
    UNROLL for (int j = 1; j <= L; j++) {
        if (j == L && own)
            continue;
        const vb x = with_bits(pl, j, planes_for(L));
        wacc[j] += nib_look(lo, x & 15) + nib_look(hi, (x >> 4) & 15);
    }
}

static inline __attribute__((always_inline)) void
add_units(const uint8_t *nib, size_t dbytes, int32_t k, const vb *pl, vb (*wacc)[JT_MAX_LEN + 1],
          const uint8_t *own, const int L, const int ND)
{
    UNROLL for (int d = 0; d < ND; d++) {
        const uint8_t *t = nib + d * dbytes + (size_t)k * 32;
        add_units_tab(nib_load(t), nib_load(t + 16), pl, wacc[d], own, L);
    }
}

/* q of candidates [c0, c0 + n) in one pass, for |S| <= 248 whose heavier targets weigh
 * vmin + g u_i with units u_i summing to utot <= 255: q = vmin sum_j n_j^2 + g sum_j n_j X_j,
 * X_j the units in class j (a sum over a set of targets is additive, so the Mobius inversion
 * applies to it too).  tabs holds the chunk tables of all of S with the heavier targets first
 * (ev->spec_mask), so that only the first nsch chunks also add their units, looked up in the
 * nibble tables nib from the same planes: the heavier targets cost a few look-ups, not a second
 * sweep.  n_j, X_j fit bytes; sum n_j^2 <= m^2 and sum n_j X_j <= m utot fit 16 bits.  KEYS:
 * their 16-bit keys into ev->q16 instead (jt_q16_keys: sum_j n_j X_j times ev->qkey plus
 * sum_j n_j^2, exact in wrapping 16-bit lanes since it fits), two stores a register. */
static inline __attribute__((always_inline)) void
slice_q_weighted_n(const jt_eval *ev, int32_t c0, int32_t n, const uint8_t *tabs, int32_t nch,
                   const uint8_t *nib, int32_t nsch, uint32_t utot, uint64_t g, const int L,
                   const int KEYS, const int NCH)
{
    const uint64_t vmin = ev->vmin;
    const uint8_t *own_u = KEYS ? ev->own_u : NULL; /* (units <= 31 with keys) */
    const nib_tab sqt = nib_load(squares);
    slice_tab tk[2];
    nib_tab lo[2], hi[2];
    UNROLL for (int k = 0; k < NCH; k++) {
        tk[k] = tab_load(tabs + (size_t)k * 32, 32);
        lo[k] = k < nsch ? nib_load(nib + (size_t)k * 32) : (nib_tab){0};
        hi[k] = k < nsch ? nib_load(nib + (size_t)k * 32 + 16) : (nib_tab){0};
    }
    for (int32_t v0 = 0; v0 < n; v0 += VW) {
        const int nv = n - v0 < VW ? (int)(n - v0) : VW;
        slice_idx idx[JT_MAX_LEN];
        candidate_indices(ev, c0 + v0, nv, L, idx, 32);
        vb acc[JT_MAX_LEN + 1], wacc[JT_MAX_LEN + 1];
        for (int j = 1; j <= L; j++)
            acc[j] = wacc[j] = (vb){0};
        UNROLL for (int k = 0; k < NCH; k++) { /* tables in registers (count_known) */
            vb pl[5];
            tab_planes(tk[k], idx, pl, L);
            add_counts(pl, acc, ev->own_n, L);
            if (k < nsch)
                add_units_tab(lo[k], hi[k], pl, wacc, own_u, L);
        }
        for (int32_t k = 0; !NCH && k < nsch; k++) { /* chunks with heavier targets: counts
                                                       * and units */
            vb pl[5];
            chunk_planes(tabs + (size_t)k * 32, idx, pl, L);
            add_counts(pl, acc, ev->own_n, L);
            add_units(nib, 0, k, pl, &wacc, own_u, L, 1);
        }
        if (!NCH)
            count_chunks(tabs, idx, nsch, nch, acc, ev->own_n, L); /* the rest: counts */
        acc[L] = own_class(ev->own_n, c0 + v0, acc[L]);
        wacc[L] = own_class(own_u, c0 + v0, wacc[L]);
        vb nj[JT_MAX_LEN + 1], xj[JT_MAX_LEN + 1];
        invert_bytes(nj, acc, (vb){0} + (uint8_t)ev->m, L);
        invert_bytes(xj, wacc, (vb){0} + (uint8_t)utot, L);
        vb sqb = (vb){0}; /* at most 15 targets: sum_j n_j^2 <= 225 in bytes (slice_q16_n) */
        if (ev->m <= 15)
            UNROLL for (int j = 0; j <= L; j++)
                sqb += nib_look(sqt, nj[j]);
        vh key[2];
        for (int h = 0; h < 2; h++) {
            vh sq = ev->m <= 15 ? widen(sqb, h) : (vh){0}, wx = (vh){0};
            for (int j = 0; j <= L; j++) {
                const vh a = widen(nj[j], h);
                if (ev->m > 15)
                    sq += a * a;
                wx += a * widen(xj[j], h);
            }
            if (KEYS) {
                key[h] = wx * (uint16_t)ev->qkey + sq;
                continue;
            }
            uint16_t A[VW / 2], B[VW / 2];
            memcpy(A, &sq, sizeof A);
            memcpy(B, &wx, sizeof B);
            const int lo = h * (VW / 2);
            uint64_t *q = ev->q + c0 + v0 + lo;
            if (vmin + g <= 0xffff && nv - lo >= VW / 2) {
                /* q < 2^32: 32-bit products, over a whole half (a loop that vectorises) */
                for (int i = 0; i < VW / 2; i++)
                    q[i] = (uint32_t)vmin * A[i] + (uint32_t)g * B[i];
            } else {
                for (int i = 0; i < nv - lo && i < VW / 2; i++)
                    q[i] = vmin * A[i] + g * B[i];
            }
        }
        if (KEYS)
            store_q16(ev->q16 + c0 + v0, key, nv);
    }
}

/* slice_q_weighted_n with the chunks' tables in registers at nodes of one or two chunks. */
static inline __attribute__((always_inline)) void
slice_q_weighted(const jt_eval *ev, int32_t c0, int32_t n, const uint8_t *tabs, int32_t nch,
                 const uint8_t *nib, int32_t nsch, uint32_t utot, uint64_t g, const int L,
                 const int KEYS)
{
    if (nch == 1)
        slice_q_weighted_n(ev, c0, n, tabs, nch, nib, nsch, utot, g, L, KEYS, 1);
    else if (nch == 2)
        slice_q_weighted_n(ev, c0, n, tabs, nch, nib, nsch, utot, g, L, KEYS, 2);
    else
        slice_q_weighted_n(ev, c0, n, tabs, nch, nib, nsch, utot, g, L, KEYS, 0);
}

/* Widen the byte counters wacc[1..L] of one digit into its 16-bit tot[h][1..L] (h: each half of
 * the candidates), and clear them. */
static inline __attribute__((always_inline)) void
spill_digit(vh (*tot)[JT_MAX_LEN + 1], vb *wacc, const int L)
{
    for (int j = 1; j <= L; j++) {
        tot[0][j] += widen(wacc[j], 0);
        tot[1][j] += widen(wacc[j], 1);
        wacc[j] = (vb){0};
    }
}

/* Over the nsch chunks of heavier targets of tabs, the units of the planes' ANDs of each digit
 * d < ND into tot[d][h][1..L] (spill_digit; inverted like counts later), from the digit tables
 * nib and chunk sums csum (jt_unit_tables); with acc not NULL also their counts into acc[1..L]
 * (byte counters; class L's only if own is NULL).  A chunk adds at most its sum of digits d
 * (<= 248) to digit d's byte counters: they are widened before one could pass 255. */
static inline __attribute__((always_inline)) void
unit_chunks(const uint8_t *tabs, const slice_idx *idx, const uint8_t *nib, const uint8_t *csum,
            int32_t nsch, vb *acc, const uint8_t *own, vh (*tot)[2][JT_MAX_LEN + 1], const int L,
            const int ND)
{
    vb wacc[MAX_DIGITS][JT_MAX_LEN + 1];
    for (int d = 0; d < ND; d++)
        for (int j = 1; j <= L; j++) {
            wacc[d][j] = (vb){0};
            tot[d][0][j] = tot[d][1][j] = (vh){0};
        }
    uint32_t run[MAX_DIGITS] = {0}; /* the most a digit's byte counter holds since widened */
    for (int32_t k = 0; k < nsch; k++) {
        for (int d = 0; d < ND; d++) {
            if (run[d] + csum[d * nsch + k] > 255) {
                spill_digit(tot[d], wacc[d], L);
                run[d] = 0;
            }
            run[d] += csum[d * nsch + k];
        }
        vb pl[5];
        chunk_planes(tabs + (size_t)k * 32, idx, pl, L);
        if (acc)
            add_counts(pl, acc, own, L);
        add_units(nib, (size_t)nsch * 32, k, pl, wacc, NULL, L, ND);
    }
    for (int d = 0; d < ND; d++)
        spill_digit(tot[d], wacc[d], L);
}

/* 32-bit lanes for the products of class sizes and units: VW / 4 of them a vector, from VW / 4
 * 16-bit lanes (a quarter of the candidates). */
typedef uint16_t vq __attribute__((vector_size(VW / 2)));
typedef uint32_t vw __attribute__((vector_size(VW)));

/* Lanes [r VW / 4, (r + 1) VW / 4) of the 16-bit lanes x (r = 0, 1) as 32-bit lanes. */
static inline __attribute__((always_inline)) vw quarter(vh x, int r)
{
    vq y;
    memcpy(&y, (const char *)&x + r * (VW / 2), sizeof y);
    return __builtin_convertvector(y, vw);
}

/* out[i] += sum_d 32^d sum_j a_j X_j^(d) for lanes i < nh of one half of the candidates (a[j],
 * X[d][j]): each digit's sum in 32-bit lanes, exact while sum_j a_j X_j^(d) < 2^32 (the callers
 * bound it), the digits combined in 64 bits. */
static inline __attribute__((always_inline)) void
add_dots(uint64_t *out, int nh, const vh *a, const vh (*X)[JT_MAX_LEN + 1], const int L,
         const int ND)
{
    for (int part = 0; part < 2 && part * (VW / 4) < nh; part++) {
        vw S[MAX_DIGITS];
        for (int d = 0; d < ND; d++)
            S[d] = (vw){0};
        for (int j = 0; j <= L; j++) {
            const vw A = quarter(a[j], part);
            for (int d = 0; d < ND; d++)
                S[d] += A * quarter(X[d][j], part);
        }
        uint32_t lanes[MAX_DIGITS][VW / 4];
        memcpy(lanes, S, (size_t)ND * sizeof(vw));
        uint64_t *o = out + part * (VW / 4);
        for (int i = 0; i < VW / 4 && part * (VW / 4) + i < nh; i++) {
            uint64_t x = 0;
            for (int d = 0; d < ND; d++)
                x += (uint64_t)lanes[d][i] << (5 * d);
            o[i] += x;
        }
    }
}

/* The units X_j^(d) of one half h of the candidates from their counts tot[d][h] (unit_chunks),
 * digit d's units summing to usum[d] <= 65535: exact in 16-bit lanes. */
static inline __attribute__((always_inline)) void
invert_units(vh (*X)[JT_MAX_LEN + 1], vh (*tot)[2][JT_MAX_LEN + 1], const uint32_t *usum, int h,
             const int L, const int ND)
{
    for (int d = 0; d < ND; d++)
        invert16(X[d], tot[d][h], (vh){0} + (uint16_t)usum[d], L);
}

/* q of candidates [c0, c0 + n) in one pass, for |S| <= 248 whose heavier targets' units have ND
 * base-32 digits (or, ND = 1, sum above 255): as slice_q_weighted, each digit's units in a class
 * counted in 16-bit lanes (X_j^(d) <= usum[d] <= 31 * 248 = 7688), q = vmin sum_j n_j^2
 * (<= 248^2, 16 bits) + g sum_d 32^d sum_j n_j X_j^(d) (each digit's sum <= 248 * 7688 < 2^21:
 * add_dots). */
static inline __attribute__((always_inline)) void
slice_q_digits(const jt_eval *ev, int32_t c0, int32_t n, const uint8_t *tabs, int32_t nch,
               const uint8_t *nib, const uint8_t *csum, int32_t nsch, const uint32_t *usum,
               uint64_t g, const int L, const int ND)
{
    for (int32_t v0 = 0; v0 < n; v0 += VW) {
        const int nv = n - v0 < VW ? (int)(n - v0) : VW;
        slice_idx idx[JT_MAX_LEN];
        candidate_indices(ev, c0 + v0, nv, L, idx, 32);
        vb acc[JT_MAX_LEN + 1], nj[JT_MAX_LEN + 1];
        vh tot[MAX_DIGITS][2][JT_MAX_LEN + 1];
        for (int j = 1; j <= L; j++)
            acc[j] = (vb){0};
        unit_chunks(tabs, idx, nib, csum, nsch, acc, ev->own_n, tot, L, ND);
        count_chunks(tabs, idx, nsch, nch, acc, ev->own_n, L); /* the rest: counts */
        acc[L] = own_class(ev->own_n, c0 + v0, acc[L]);
        invert_bytes(nj, acc, (vb){0} + (uint8_t)ev->m, L);
        for (int h = 0; h < 2 && h * (VW / 2) < nv; h++) {
            const int lo = h * (VW / 2), nh = nv - lo < VW / 2 ? nv - lo : VW / 2;
            vh a[JT_MAX_LEN + 1], X[MAX_DIGITS][JT_MAX_LEN + 1], sq = (vh){0};
            for (int j = 0; j <= L; j++) {
                a[j] = widen(nj[j], h);
                sq += a[j] * a[j];
            }
            invert_units(X, tot, usum, h, L, ND);
            uint64_t T[VW / 2] = {0};
            add_dots(T, nh, a, X, L, ND);
            uint16_t A[VW / 2];
            memcpy(A, &sq, sizeof A);
            uint64_t *q = ev->q + c0 + v0 + lo;
            for (int i = 0; i < nh; i++)
                q[i] = ev->vmin * A[i] + g * T[i];
        }
    }
}

/* Small S (m <= 248), q only, heavier targets whose units have nd <= MAX_DIGITS digits (step g,
 * sum utot): q of candidates [c0, c0 + n) in one pass over tabs (all of S, the heavier targets
 * first): in bytes when the units are <= 31 and sum to <= 255, else digit by digit. */
static inline __attribute__((always_inline)) void
q_weighted(const jt_eval *ev, int32_t c0, int32_t n, const uint8_t *tabs, uint64_t g,
           uint64_t utot, int nd, const int L)
{
    _Alignas(64) uint8_t nib[MAX_DIGITS * 248 / 8 * 32];
    uint8_t csum[MAX_DIGITS * 248 / 8];
    uint32_t usum[MAX_DIGITS];
    const int32_t nch = (ev->m + 7) / 8, nsch = (ev->nspec + 7) / 8;
    if (nd == 1 && utot <= 255) {
        jt_unit_tables(ev->spec_delta, g, ev->nspec, 1, nib, csum, usum);
        slice_q_weighted(ev, c0, n, tabs, nch, nib, nsch, (uint32_t)utot, g, L, 0);
        return;
    }
    jt_unit_tables(ev->spec_delta, g, ev->nspec, nd, nib, csum, usum);
    switch (nd) {
    case 1: slice_q_digits(ev, c0, n, tabs, nch, nib, csum, nsch, usum, g, L, 1); break;
    case 2: slice_q_digits(ev, c0, n, tabs, nch, nib, csum, nsch, usum, g, L, 2); break;
    case 3: slice_q_digits(ev, c0, n, tabs, nch, nib, csum, nsch, usum, g, L, 3); break;
    default: slice_q_digits(ev, c0, n, tabs, nch, nib, csum, nsch, usum, g, L, MAX_DIGITS); break;
    }
}

/* The keys (jt_q16_keys) of q of candidates [c0, c0 + n) into ev->q16, in one pass over tabs
 * (all of S, the heavier targets first). */
static inline __attribute__((always_inline)) void
q_keys(const jt_eval *ev, int32_t c0, int32_t n, const uint8_t *tabs, const int L)
{
    _Alignas(64) uint8_t nib[248 / 8 * 32];
    uint8_t csum[248 / 8];
    uint32_t usum[1];
    jt_unit_tables(ev->spec_delta, ev->ustep, ev->nspec, 1, nib, csum, usum);
    slice_q_weighted(ev, c0, n, tabs, (ev->m + 7) / 8, nib, (ev->nspec + 7) / 8, ev->utot,
                     ev->ustep, L, 1);
}

/* What the heavier targets of one piece (nsch chunks: tables tabs, digit tables nib, csum, usum)
 * add in units to q of candidates [c0, c0 + n): T[c] += sum_d 32^d sum_j n_j X_j^(d), n_j the
 * class sizes cnt[j * stride + c]; X_j^(d) <= usum[d] <= 65535 (16-bit lanes) and
 * sum_j n_j X_j^(d) <= |S| usum[d] < 2^32 (add_dots). */
static inline __attribute__((always_inline)) void
spec_sweep(const jt_eval *ev, int32_t c0, int32_t n, const uint8_t *tabs, const uint8_t *nib,
           const uint8_t *csum, int32_t nsch, const uint32_t *usum, const uint16_t *cnt,
           size_t stride, uint64_t *T, const int L, const int ND)
{
    for (int32_t v0 = 0; v0 < n; v0 += VW) {
        const int nv = n - v0 < VW ? (int)(n - v0) : VW;
        slice_idx idx[JT_MAX_LEN];
        candidate_indices(ev, c0 + v0, nv, L, idx, 32);
        vh tot[MAX_DIGITS][2][JT_MAX_LEN + 1];
        unit_chunks(tabs, idx, nib, csum, nsch, NULL, NULL, tot, L, ND);
        for (int h = 0; h < 2 && h * (VW / 2) < nv; h++) {
            const int lo = h * (VW / 2), nh = nv - lo < VW / 2 ? nv - lo : VW / 2;
            vh a[JT_MAX_LEN + 1], X[MAX_DIGITS][JT_MAX_LEN + 1];
            for (int j = 0; j <= L; j++) {
                const uint16_t *row = cnt + (size_t)j * stride + v0 + lo;
                if (nh == VW / 2) {
                    a[j] = *(const vhu *)row;
                } else {
                    a[j] = (vh){0};
                    memcpy(&a[j], row, (size_t)nh * sizeof *row);
                }
            }
            invert_units(X, tot, usum, h, L, ND);
            add_dots(T + v0 + lo, nh, a, X, L, ND);
        }
    }
}

/* Heavier targets per piece of weigh_units: each digit's units in a piece sum to at most
 * 31 * 2048 = 63488 (16-bit lanes). */
#define PIECE 2048

/* What the heavier targets add to q(c) (weigh): g sum_i u_i n_{reply(c, i)}, their units u_i of
 * nd <= MAX_DIGITS base-32 digits (jt_unit_step) counted by spec_sweep over all of them, a piece at
 * a time, whatever their excesses (the sum, in 64 bits, wraps only where q may). */
static inline __attribute__((always_inline)) void
weigh_units(const jt_eval *ev, const uint16_t *restrict cnt, size_t stride, int32_t c0, int32_t c1,
            uint64_t g, const int L, const int ND)
{
    _Alignas(64) uint8_t tabs[TABS_BUF], nib[MAX_DIGITS * PIECE / 8 * 32];
    uint8_t csum[MAX_DIGITS * PIECE / 8];
    uint64_t T[BLOCK];
    for (int32_t b0 = c0; b0 < c1; b0 += BLOCK) {
        const int32_t n = c1 - b0 < BLOCK ? c1 - b0 : BLOCK;
        memset(T, 0, sizeof T);
        for (int32_t s0 = 0; s0 < ev->nspec; s0 += PIECE) {
            const int32_t s1 = ev->nspec - s0 < PIECE ? ev->nspec : s0 + PIECE;
            uint32_t usum[MAX_DIGITS];
            slice_tables(ev->spec_mask, NULL, s0, s1, tabs, 32);
            jt_unit_tables(ev->spec_delta + s0, g, s1 - s0, ND, nib, csum, usum);
            spec_sweep(ev, b0, n, tabs, nib, csum, (s1 - s0 + 7) / 8, usum, cnt + (b0 - c0),
                       stride, T, L, ND);
        }
        for (int32_t c = 0; c < n; c++)
            ev->q[b0 + c] += g * T[c];
    }
}
#endif

/* q(c) = sum_{i in S} v_i n_{reply(c,i)}(c) = vmin sum_j n_j^2 + what the targets heavier than
 * vmin add, from the class sizes cnt of candidates c0.. (cnt[j * stride + c - c0]).  On the
 * vector levels their excesses are multiples g u_i of one step (their gcd) with units below
 * 2^20 (as fictitious play's are: exact mode's u_i <= 31, paper mode's wider), and weigh_units
 * counts all of them in one sweep, digit by digit when wide.  Otherwise they come
 * grouped by their excess d (describe() sorts them): a group adds d sum_j n_j G_j, with G_j the
 * group's targets in class j, counted bit-sliced like n_j.  Every sum is exact
 * (sum_j n_j G_j <= |S|^2 < 2^32; q wraps only where the caller's bound says it cannot).
 * Not inlined: its two callers (counts_sliced's blocks, evaluate_len) share one copy of its
 * sweeps, which the compiler specialises for the length all of a translation unit's calls pass
 * (kernels_length.c). */
static __attribute__((noinline)) void
weigh(const jt_eval *ev, const uint16_t *restrict cnt, size_t stride, int32_t c0, int32_t c1,
      const int L)
{
    if (ev->q16) { /* uniform weights, |S| <= 248: sum_j n_j^2 alone, in 16 bits */
        for (int32_t c = c0; c < c1; c++) {
            uint32_t sq = 0;
            for (int j = 0; j <= L; j++) {
                const uint32_t nj = cnt[(size_t)j * stride + (c - c0)];
                sq += nj * nj;
            }
            ev->q16[c] = (uint16_t)sq;
        }
        return;
    }
    uint64_t *restrict q = ev->q;
    const uint64_t vmin = ev->vmin;
    for (int32_t c = c0; c < c1; c++) {
        uint32_t sq = 0; /* <= |S|^2 < 2^32 */
        for (int j = 0; j <= L; j++) {
            const uint32_t n = cnt[(size_t)j * stride + (c - c0)];
            sq += n * n;
        }
        q[c] = vmin == 1 ? sq : vmin * (uint64_t)sq;
    }
    if (!ev->nspec)
        return;
#if SLICE_T == 8
    uint64_t g, utot;
    switch (jt_unit_step(ev, &g, &utot)) {
    case 1: weigh_units(ev, cnt, stride, c0, c1, g, L, 1); return;
    case 2: weigh_units(ev, cnt, stride, c0, c1, g, L, 2); return;
    case 3: weigh_units(ev, cnt, stride, c0, c1, g, L, 3); return;
    case MAX_DIGITS: weigh_units(ev, cnt, stride, c0, c1, g, L, MAX_DIGITS); return;
    default: break; /* units of more than MAX_DIGITS digits */
    }
#endif
    _Alignas(64) uint8_t tabs[TABS_BUF];
    uint16_t G[(JT_MAX_LEN + 1) * BLOCK];
    for (int32_t b0 = c0; b0 < c1; b0 += BLOCK) {
        const int32_t n = c1 - b0 < BLOCK ? c1 - b0 : BLOCK;
        for (int32_t g0 = 0, g1; g0 < ev->nspec; g0 = g1) {
            const uint64_t d = ev->spec_delta[g0];
            for (g1 = g0 + 1; g1 < ev->nspec && ev->spec_delta[g1] == d;)
                g1++;
            if (SLICE_T == 64 && g1 - g0 < 16) {
                /* scalar level, small group: a sweep costs a whole chunk of 64 targets per
                 * candidate; add each target's d n_{reply(c, i)} instead */
                for (int32_t k = g0; k < g1; k++)
                    for (int32_t c = 0; c < n; c++)
                        q[b0 + c] += d * cnt[(size_t)pc(ev->cm[b0 + c] & ev->spec_mask[k]) * stride +
                                             (b0 - c0) + c];
                continue;
            }
            for (int32_t s0 = g0; s0 < g1; s0 += SEG) {
                const int32_t s1 = g1 - s0 < SEG ? g1 : s0 + SEG;
                slice_tables(ev->spec_mask, NULL, s0, s1, tabs, 32);
                slice_sweep(ev, b0, n, tabs, (s1 - s0 + SLICE_T - 1) / SLICE_T, s1 - s0, G, BLOCK,
                            s0 == g0, L, 32);
            }
            for (int32_t c = 0; c < n; c++) {
                uint32_t x = 0;
                for (int j = 0; j <= L; j++)
                    x += (uint32_t)cnt[(size_t)j * stride + (b0 - c0) + c] * G[j * BLOCK + c];
                q[b0 + c] += d * x;
            }
        }
    }
}

/* ---- reply codes (GENERAL mode) from class sizes ---------------------------------------------- */

/* q of candidates [c0, c1) from their class sizes by reply code, cnt[j * stride + c - c0]
 * (uniform weights: a sum of squares that vectorises, inlined where the stride is a constant:
 * compiled once for all levels, or called with any stride, it made TOKENS lists up to 1.2x
 * slower on v2 and v4). */
static inline __attribute__((always_inline)) void
codes_q(const jt_eval *ev, const uint16_t *cnt, size_t stride, int32_t c0, int32_t c1)
{
    if (!ev->nspec) {
        uint64_t *restrict q = ev->q + c0;
        for (int32_t c = 0; c < c1 - c0; c++)
            q[c] = 0;
        for (int j = 0; j < ev->w->R; j++)
            for (int32_t c = 0; c < c1 - c0; c++)
                q[c] += (uint32_t)cnt[(size_t)j * stride + c] * cnt[(size_t)j * stride + c];
        for (int32_t c = 0; c < c1 - c0 && ev->vmin != 1; c++)
            q[c] *= ev->vmin;
        return;
    }
    for (int32_t c = c0; c < c1; c++) {
        uint32_t n[JT_MAX_R];
        for (int j = 0; j < ev->w->R; j++)
            n[j] = cnt[(size_t)j * stride + (c - c0)];
        ev->q[c] = code_q(ev, ev->cid ? ev->cid[c] : c, n);
    }
}

/* TOKENS: the raw class (popcount of its tokens) in which the bit-sliced count puts candidate
 * c's reply to itself, when c is in S and that class is not already the win's (not L without
 * keep-all, where class L holds c alone), else 0xff: sel[c - c0] for c in [c0, c1), and 0xff
 * for 64 bytes more (vector loads). */
static void self_classes(const jt_eval *ev, int32_t c0, int32_t c1, uint8_t *sel)
{
    const jt_words *w = ev->w;
    memset(sel, 0xff, (size_t)(c1 - c0) + 64);
#define OWN(g) (jt_pc64(w->tok[g]) == w->L && !w->keep_all ? 0xff : jt_pc64(w->tok[g]))
    if (!ev->cid) { /* candidate c is word c */
        for (int32_t k = 0; k < ev->m; k++) {
            const int32_t g = ev->sid[k];
            if (g >= c0 && g < c1)
                sel[g - c0] = (uint8_t)OWN(g);
        }
        return;
    }
    uint64_t in_s[(JT_MAX_WORDS + 63) / 64];
    memset(in_s, 0, sizeof(uint64_t) * (size_t)((w->D + 63) / 64));
    for (int32_t k = 0; k < ev->m; k++)
        in_s[ev->sid[k] >> 6] |= (uint64_t)1 << (ev->sid[k] & 63);
    for (int32_t c = c0; c < c1; c++) {
        const int32_t g = ev->cid[c];
        if ((in_s[g >> 6] >> (g & 63)) & 1)
            sel[c - c0] = (uint8_t)OWN(g);
    }
#undef OWN
}

/* TOKENS: raw popcount classes 0..L of n candidates (dst[j * stride + c]) to reply codes: under
 * keep-all, L letters in common is L+1 (an anagram); a candidate's own reply (sel) is the win. */
static void tokens_fix(const jt_words *w, uint16_t *dst, size_t stride, int32_t n,
                       const uint8_t *sel)
{
    const int L = w->L;
    if (w->keep_all) {
        memcpy(dst + (L + 1) * stride, dst + L * stride, sizeof(uint16_t) * (size_t)n);
        memset(dst + L * stride, 0, sizeof(uint16_t) * (size_t)n);
    }
    for (int32_t c = 0; c < n; c++) {
        if (sel[c] != 0xff) {
            dst[(w->keep_all && sel[c] == L ? L + 1 : sel[c]) * stride + c]--;
            dst[L * stride + c]++;
        }
    }
}

/* What counts_sliced counts: letters of 26-bit masks (PAPER, ANAGRAM), tokens (TOKENS), letters
 * out of and in place (PLACE). */
enum { K_LETTERS, K_TOKENS, K_PLACE };

/* The chunk tables of the targets [s0, s1) of S for kind K. */
static inline __attribute__((always_inline)) void
kind_tables(const jt_eval *ev, int32_t s0, int32_t s1, void *tabs, const int K, const int L)
{
    if (K == K_PLACE)
        place_tables(ev->sspell, s0, s1, tabs, L);
    else
        slice_tables(ev->sm, ev->stok, s0, s1, tabs, K == K_TOKENS ? 64 : 32);
}

/* Class sizes of candidates [c0, c1) into dst, over one segment of tables, for kind K; or q
 * there (q not NULL: vector levels, uniform weights, mseg <= 255). */
static inline __attribute__((always_inline)) void
kind_sweep(const jt_eval *ev, int32_t c0, int32_t n, const void *tabs, int32_t mseg,
           uint16_t *dst, size_t stride, int first, const int L, uint64_t *q, const uint8_t *sel,
           const int K)
{
    const int32_t nch = (mseg + SLICE_T - 1) / SLICE_T;
#if SLICE_T == 8
    if (K != K_PLACE) {
        slice_sweep_q(ev, c0, n, tabs, nch, mseg, dst, stride, first, L, q, sel,
                      K == K_LETTERS ? ev->own_n : NULL, K == K_TOKENS ? 64 : 32);
        return;
    }
#else
    (void)sel;
    if (K != K_PLACE) {
        slice_sweep(ev, c0, n, tabs, nch, mseg, dst, stride, first, L, K == K_TOKENS ? 64 : 32);
        return;
    }
#endif
    place_sweep(ev, c0, n, tabs, nch, mseg, dst, stride, first, L, q);
}

#if SLICE_T == 8
/* q of candidates [c0, c0 + n) at a weighted node of m <= PAIR_MAX targets (jt_pair_tables), the
 * chunk table built in tabs: laid out for 5 targets (two bytes of pairs) or 8 (four), two
 * sizes only, since each is compiled for every word length and level. */
static inline __attribute__((always_inline)) void
q_pairs(const jt_eval *ev, int32_t c0, int32_t n, void *tabs, const int L)
{
    uint64_t tb[PAIR_BYTES][256];
    const int small = ev->m <= 5;
    slice_tables(ev->spec_mask, NULL, 0, ev->m, tabs, 32);
    jt_pair_tables(ev, small ? 5 : PAIR_MAX, tb);
    if (small)
        slice_q_pairs(ev, c0, n, tabs, (const uint64_t(*)[256])tb, L, 5);
    else
        slice_q_pairs(ev, c0, n, tabs, (const uint64_t(*)[256])tb, L, PAIR_MAX);
}

/* The ranks of q (jt_rank_tables) of candidates [c0, c0 + n) at a weighted node of
 * m <= JT_RANK_MAX targets into ev->q16, the chunk table built in tabs. */
static inline __attribute__((always_inline)) void
q_ranks(const jt_eval *ev, int32_t c0, int32_t n, void *tabs, const int L)
{
    _Alignas(64) uint8_t rank[64];
    slice_tables(ev->spec_mask, NULL, 0, ev->m, tabs, 32);
    jt_rank_tables(ev, rank);
    slice_q_ranks(ev, c0, n, tabs, rank, L, JT_RANK_MAX);
}
#endif

/* Class sizes of candidates [c0, c1) by bit-slicing: per block of candidates (all at once when
 * they go to ev->cnt, BLOCK at a time when only q is wanted), the targets a segment at a time.
 * When only q is wanted and S is small, the vector levels compute q in registers, in one pass.
 * K: what is counted; TOKENS counts are then fixed to reply codes by sel (self_classes). */
static inline __attribute__((always_inline)) void
counts_sliced(const jt_eval *ev, int32_t c0, int32_t c1, const int L, const int K,
              const uint8_t *sel)
{
    _Alignas(64) uint8_t tabs[TABS_BUF];
    uint16_t local[JT_MAX_R * BLOCK];
    const int32_t m = ev->m;
    const int32_t seg = seg_of(K == K_PLACE ? 64 * L : K == K_TOKENS ? 64 : 32);
    const int32_t step = ev->cnt ? c1 - c0 : BLOCK;
    int32_t built = -1; /* the segment whose tables are in tabs */
    /* q only, straight from the registers (the scalar level: PLACE, whose class sizes are many) */
    if (!ev->cnt && !ev->nspec && (SLICE_T == 8 ? m <= 255 : K == K_PLACE && m <= seg)) {
        kind_tables(ev, 0, m, tabs, K, L);
#if SLICE_T == 8
        if (K == K_LETTERS && ev->q16) {
            slice_q16(ev, c0, c1 - c0, tabs, (m + 7) / 8, m, L);
            return;
        }
#endif
        kind_sweep(ev, c0, c1 - c0, tabs, m, NULL, 0, 1, L, ev->q + c0, sel, K);
        return;
    }
#if SLICE_T == 8
    if (K == K_LETTERS && !ev->cnt && ev->nspec && m <= 248) { /* q only, weighted */
        if (ev->q16 && ev->qkey) { /* keys (jt_q16_keys) */
            slice_tables(ev->spec_mask, NULL, 0, m, tabs, 32); /* S, heavier targets first */
            q_keys(ev, c0, c1 - c0, tabs, L);
            return;
        }
        if (ev->q16) { /* ranks (jt_q16_fits) */
            q_ranks(ev, c0, c1 - c0, tabs, L);
            return;
        }
        uint64_t g, utot;
        const int nd = jt_unit_step(ev, &g, &utot);
        /* pairs (q_pairs) where counting with the units costs more: at up to 5 targets, and
         * at up to 8 when the units are wide (more than one digit or summing past a byte) */
        if (m <= PAIR_MAX && (m <= 5 || nd != 1 || utot > 255)) {
            q_pairs(ev, c0, c1 - c0, tabs, L);
            return;
        }
        if (nd) { /* one pass over S with the units */
            slice_tables(ev->spec_mask, NULL, 0, m, tabs, 32); /* S, heavier targets first */
            q_weighted(ev, c0, c1 - c0, tabs, g, utot, nd, L);
            return;
        }
    }
#endif
    const void *tb = tabs;
    for (int32_t b0 = c0; b0 < c1; b0 += step) {
        const int32_t n = c1 - b0 < step ? c1 - b0 : step;
        uint16_t *dst = block_dst(ev, b0, local);
        const size_t stride = block_stride(ev, BLOCK);
        for (int32_t s0 = 0; s0 < m; s0 += seg) {
            const int32_t s1 = m - s0 < seg ? m : s0 + seg;
            if (built != s0 && K == K_LETTERS && ev->tabs && s0 == 0) { /* built for the node */
                tb = ev->tabs;
                built = s0;
            } else if (built != s0) {
                kind_tables(ev, s0, s1, tabs, K, L);
                tb = tabs;
                built = s0;
            }
            kind_sweep(ev, b0, n, tb, s1 - s0, dst, stride, s0 == 0, L, NULL, sel, K);
        }
        if (K == K_TOKENS)
            tokens_fix(ev->w, dst, stride, n, sel + (b0 - c0));
        if (!ev->cnt && K != K_LETTERS)
            codes_q(ev, local, BLOCK, b0, b0 + n);
        else if (!ev->cnt)
            weigh(ev, local, BLOCK, b0, b0 + n, L);
    }
}

/* jt_kernels.letter_tables: what counts_sliced builds for the first segment of S's letters. */
static inline int letter_tables(const jt_eval *ev, void *buf)
{
    if (ev->m > seg_of(32))
        return -1;
    slice_tables(ev->sm, NULL, 0, ev->m, buf, 32);
    return 0;
}

static inline __attribute__((always_inline)) void
evaluate_len(const jt_eval *ev, int32_t c0, int32_t c1, const int L)
{
    const int table = !ev->counted && ev->method == JT_M_TABLE && L <= JT_TABLE_MAXL;
    if (ev->counted)
        ; /* class sizes given: weigh only */
    else if (table)
        jt_counts_table(ev, c0, c1);
    else
        counts_sliced(ev, c0, c1, L, K_LETTERS, NULL);
    if (ev->q && ev->cnt && ev->utable && table)
        ; /* jt_counts_table gave q too */
    else if (ev->q && ev->cnt && ev->utable)
        jt_weigh_table(ev, ev->cnt + c0, (size_t)ev->nc, c0, c1);
    else if (ev->q && ev->cnt)
        weigh(ev, ev->cnt + c0, (size_t)ev->nc, c0, c1, L);
}

/* TOKENS mode: the reply codes' class sizes bit-sliced over the tokens, and q from them. */
static inline __attribute__((always_inline)) void
tokens_len(const jt_eval *ev, int32_t c0, int32_t c1, const int L)
{
    if (!ev->counted) {
        uint8_t sel[JT_MAX_WORDS + 64];
        self_classes(ev, c0, c1, sel);
        counts_sliced(ev, c0, c1, L, K_TOKENS, sel);
    }
    if (ev->q && ev->cnt)
        codes_q(ev, ev->cnt + c0, (size_t)ev->nc, c0, c1);
}

/* PLACE mode: the same over letters out of and in place (a candidate's own reply, in place at
 * every position, is the win's class already). */
static inline __attribute__((always_inline)) void
place_len(const jt_eval *ev, int32_t c0, int32_t c1, const int L)
{
    if (!ev->counted)
        counts_sliced(ev, c0, c1, L <= JT_MAX_POS_LEN ? L : 1, K_PLACE, NULL);
    if (ev->q && ev->cnt)
        codes_q(ev, ev->cnt + c0, (size_t)ev->nc, c0, c1);
}

#endif
