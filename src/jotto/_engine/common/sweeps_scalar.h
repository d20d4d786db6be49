/* sweeps_scalar.h -- the scalar level's sweeps (base: 64 targets a word, one candidate at a
 * time): class sizes of letters, tokens and PLACE.
 * Included by kernels_sweeps.h only, after the files before it there. */
#ifndef JOTTO_SWEEPS_SCALAR_H
#define JOTTO_SWEEPS_SCALAR_H

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
#endif

#endif
