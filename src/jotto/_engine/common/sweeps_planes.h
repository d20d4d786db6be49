/* sweeps_planes.h -- adders into reply bit-planes, their Mobius inversion, and the chunk tables
 * of letters, tokens and positions (PLACE), for both kinds of level.
 * Included by kernels_sweeps.h only, after the files before it there. */
#ifndef JOTTO_SWEEPS_PLANES_H
#define JOTTO_SWEEPS_PLANES_H

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

#endif
