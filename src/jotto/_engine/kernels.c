/* kernels.c -- the hot loops of the core.  CMake compiles this file once per x86-64 level with
 * JT_KERNEL_SUFFIX set (base, v2, v3, v4) and dispatch.c picks the best the CPU runs.  The loops
 * are plain C over structure-of-arrays data so that the compiler vectorises them for each level
 * (on x86-64-v4 the reply popcount becomes VPOPCNTD over 16 candidates at a time).  Every variant
 * computes bit-identical results: integer work is exact, and the one floating-point kernel
 * (exp_num_elims) is sequential C compiled without contraction or fast-math. */
#include <string.h>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "engine_internal.h"

#define JT_CAT2(a, b) a##b
#define JT_CAT(a, b) JT_CAT2(a, b)
#define JT_STR2(x) #x
#define JT_STR(x) JT_STR2(x)

/* Candidates per block: the packed counters of a block stay in L1. */
#define BLOCK 256

/* popcount that vectorises where the level has a vector popcount, and is one instruction where
 * it has POPCNT; the bit-twiddling form only for the base level (no POPCNT, no libgcc call). */
static inline __attribute__((always_inline)) uint32_t pc(uint32_t x)
{
#if defined(__POPCNT__)
    return (uint32_t)__builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
#endif
}

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

/* q of a block from block-local class sizes (uniform weights only: ev->nspec == 0). */
static inline __attribute__((always_inline)) void
weigh_local(const jt_eval *ev, const uint16_t *restrict local, size_t stride, int32_t b0,
            int32_t n, const int L)
{
    uint64_t *restrict q = ev->q + b0;
    for (int32_t c = 0; c < n; c++) {
        uint32_t sq = 0;
        for (int j = 0; j <= L; j++) {
            const uint32_t x = local[(size_t)j * stride + c];
            sq += x * x;
        }
        q[c] = ev->vmin * (uint64_t)sq;
    }
}

/* Packed counters: one 32-bit word per candidate holds L+1 fields of b = 32/(L+1) bits; a target
 * with reply r adds 1 << (b r).  Every 2^b - 1 targets the fields are flushed into the uint16
 * counts, so no field overflows.  Inlined with a constant L, the shifts and masks fold. */
static inline __attribute__((always_inline)) void
unpack(uint16_t *dst, size_t stride, const uint32_t *P, int32_t n, int first, const int L)
{
    const int b = 32 / (L + 1);
    const uint32_t F = (1u << b) - 1;
    for (int j = 0; j <= L; j++) {
        uint16_t *restrict o = dst + (size_t)j * stride;
        const int sh = b * j;
        if (first)
            for (int32_t c = 0; c < n; c++)
                o[c] = (uint16_t)((P[c] >> sh) & F);
        else
            for (int32_t c = 0; c < n; c++)
                o[c] = (uint16_t)(o[c] + ((P[c] >> sh) & F));
    }
}

#if defined(__AVX512F__) && defined(__AVX512VPOPCNTDQ__) && defined(__AVX512DQ__)
/* 1 << (b r) for each reply r (lanes past L unused), b = 32/(L+1): what a reply adds to a
 * packed counter. */
static inline __attribute__((always_inline)) __m512i reply_bits(const int L)
{
    uint32_t lut[16] = {0};
    for (int r = 0; r <= L; r++)
        lut[r] = 1u << (32 / (L + 1) * r);
    return _mm512_loadu_si512(lut);
}

/* Add each candidate's reply to target t to its packed counter: AND, VPOPCNTD, VPERMD, ADD. */
static inline __attribute__((always_inline)) __m512i
count_reply(__m512i acc, __m512i candidates, __m512i t, __m512i bits)
{
    return _mm512_add_epi32(
        acc, _mm512_permutexvar_epi32(_mm512_popcnt_epi32(_mm512_and_si512(candidates, t)), bits));
}

/* The same into ev->cnt for 64 candidates at a time, their counters in four registers.
 * Returns how many it did. */
static inline __attribute__((always_inline)) int32_t
counts_packed_avx512(const jt_eval *ev, int32_t c0, int32_t c1, const int L)
{
    const int32_t F = (int32_t)((1u << (32 / (L + 1))) - 1);
    const __m512i one = reply_bits(L);
    int32_t b0 = c0;
    for (; b0 + 64 <= c1; b0 += 64) {
        const uint32_t *cb = ev->cm + b0;
        const __m512i x0 = _mm512_loadu_si512(cb), x1 = _mm512_loadu_si512(cb + 16);
        const __m512i x2 = _mm512_loadu_si512(cb + 32), x3 = _mm512_loadu_si512(cb + 48);
        for (int32_t k0 = 0; k0 < ev->m; k0 += F) {
            const int32_t k1 = ev->m - k0 < F ? ev->m : k0 + F;
            __m512i p0 = _mm512_setzero_si512(), p1 = p0, p2 = p0, p3 = p0;
            for (int32_t k = k0; k < k1; k++) {
                const __m512i t = _mm512_set1_epi32((int)ev->sm[k]);
                p0 = count_reply(p0, x0, t, one);
                p1 = count_reply(p1, x1, t, one);
                p2 = count_reply(p2, x2, t, one);
                p3 = count_reply(p3, x3, t, one);
            }
            uint32_t P[64];
            _mm512_storeu_si512(P, p0);
            _mm512_storeu_si512(P + 16, p1);
            _mm512_storeu_si512(P + 32, p2);
            _mm512_storeu_si512(P + 48, p3);
            unpack(ev->cnt + b0, (size_t)ev->nc, P, 64, k0 == 0, L);
        }
    }
    return b0 - c0;
}

/* q only (uniform weights over S, no class sizes wanted): 32 candidates at a time with their
 * class sizes in registers too, so nothing but q goes to memory.  Returns how many it did. */
static inline __attribute__((always_inline)) int32_t
q_packed_avx512(const jt_eval *ev, int32_t c0, int32_t c1, const int L)
{
    const int b = 32 / (L + 1);
    const int32_t F = (int32_t)((1u << b) - 1);
    const __m512i one = reply_bits(L), field = _mm512_set1_epi32(F);
    const __m512i vmin = _mm512_set1_epi64((long long)ev->vmin);
    int32_t b0 = c0;
    for (; b0 + 32 <= c1; b0 += 32) {
        const __m512i x0 = _mm512_loadu_si512(ev->cm + b0);
        const __m512i x1 = _mm512_loadu_si512(ev->cm + b0 + 16);
        __m512i n0[JT_PACKED_MAXL + 1], n1[JT_PACKED_MAXL + 1];
        for (int j = 0; j <= L; j++)
            n0[j] = n1[j] = _mm512_setzero_si512();
        for (int32_t k0 = 0; k0 < ev->m; k0 += F) {
            const int32_t k1 = ev->m - k0 < F ? ev->m : k0 + F;
            __m512i p0 = _mm512_setzero_si512(), p1 = p0;
            for (int32_t k = k0; k < k1; k++) {
                const __m512i t = _mm512_set1_epi32((int)ev->sm[k]);
                p0 = count_reply(p0, x0, t, one);
                p1 = count_reply(p1, x1, t, one);
            }
            for (int j = 0; j <= L; j++) {
                n0[j] = _mm512_add_epi32(n0[j], _mm512_and_si512(_mm512_srli_epi32(p0, b * j), field));
                n1[j] = _mm512_add_epi32(n1[j], _mm512_and_si512(_mm512_srli_epi32(p1, b * j), field));
            }
        }
        __m512i s0 = _mm512_setzero_si512(), s1 = s0;
        for (int j = 0; j <= L; j++) {
            s0 = _mm512_add_epi32(s0, _mm512_mullo_epi32(n0[j], n0[j]));
            s1 = _mm512_add_epi32(s1, _mm512_mullo_epi32(n1[j], n1[j]));
        }
        uint64_t *q = ev->q + b0;
        const __m512i s[2] = {s0, s1};
        for (int h = 0; h < 2; h++) {
            const __m512i lo = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(s[h]));
            const __m512i hi = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(s[h], 1));
            _mm512_storeu_si512(q + 16 * h, _mm512_mullo_epi64(lo, vmin));
            _mm512_storeu_si512(q + 16 * h + 8, _mm512_mullo_epi64(hi, vmin));
        }
    }
    return b0 - c0;
}
#endif

static inline __attribute__((always_inline)) void
counts_packed(const jt_eval *ev, int32_t c0, int32_t c1, const int L)
{
    const int b = 32 / (L + 1);
    const int32_t F = (int32_t)((1u << b) - 1);
    const int32_t m = ev->m;
    const uint32_t *restrict sm = ev->sm;
#if defined(__AVX512F__) && defined(__AVX512VPOPCNTDQ__) && defined(__AVX512DQ__)
    c0 += ev->cnt ? counts_packed_avx512(ev, c0, c1, L) : q_packed_avx512(ev, c0, c1, L);
#endif
    uint32_t P[BLOCK];
    uint16_t local[(JT_PACKED_MAXL + 1) * BLOCK];
    for (int32_t b0 = c0; b0 < c1; b0 += BLOCK) {
        const int32_t n = c1 - b0 < BLOCK ? c1 - b0 : BLOCK;
        const uint32_t *restrict cb = ev->cm + b0;
        for (int32_t k0 = 0; k0 < m; k0 += F) {
            const int32_t k1 = m - k0 < F ? m : k0 + F;
            for (int32_t c = 0; c < n; c++)
                P[c] = 0;
            for (int32_t k = k0; k < k1; k++) {
                const uint32_t t = sm[k];
                for (int32_t c = 0; c < n; c++)
                    P[c] += 1u << (b * pc(cb[c] & t));
            }
            unpack(block_dst(ev, b0, local), block_stride(ev, BLOCK), P, n, k0 == 0, L);
        }
        if (!ev->cnt)
            weigh_local(ev, local, BLOCK, b0, n, L);
    }
}

/* Lengths too long for packed fields: one histogram per candidate. */
static void counts_histogram(const jt_eval *ev, int32_t c0, int32_t c1)
{
    const int L = ev->w->L;
    for (int32_t c = c0; c < c1; c++) {
        uint32_t h[JT_MAX_LEN + 1];
        for (int j = 0; j <= L; j++)
            h[j] = 0;
        for (int32_t k = 0; k < ev->m; k++)
            h[pc(ev->cm[c] & ev->sm[k])]++;
        for (int j = 0; j <= L; j++)
            ev->cnt[(size_t)j * ev->nc + c] = (uint16_t)h[j];
    }
}

/* Subset tables, for big S: E_s = sum over the candidate's s-letter subsets T of
 * #{i in S : T within i}; then n_j = sum_s (-1)^(s-j) C(s,j) E_s.  E_0 = |S| and E_L = [candidate
 * in S] (no two words share a letter set).  Wrapping unsigned arithmetic is exact because every
 * n_j lies in [0, |S|].  The cost per candidate does not depend on |S|. */
static inline __attribute__((always_inline)) void
counts_table(const jt_eval *ev, int32_t c0, int32_t c1, const int L)
{
    const jt_words *w = ev->w;
    for (int32_t c = c0; c < c1; c++) {
        const int32_t r = ev->cid ? ev->cid[c] : c;
        const int32_t *sr = w->subrank + (size_t)r * w->nsub;
        uint64_t E[JT_TABLE_MAXL + 1];
        E[0] = (uint64_t)ev->m;
        E[L] = ev->in_s[r];
        int32_t t = 0;
        for (int s = 1; s < L; s++) {
            uint64_t acc = 0;
            const int32_t nsz = w->nsub_of[s];
            for (int32_t k = 0; k < nsz; k++)
                acc += ev->table[sr[t++]];
            E[s] = acc;
        }
        for (int j = 0; j <= L; j++) {
            uint64_t nj = 0;
            for (int s = j; s <= L; s++)
                nj += (uint64_t)w->incl[s][j] * E[s];
            ev->cnt[(size_t)j * ev->nc + c] = (uint16_t)nj;
        }
    }
}

#if defined(__AVX512F__) && defined(__AVX512VPOPCNTDQ__) && defined(__AVX512DQ__) && \
    defined(__AVX512BW__)
/* weigh() for 16 candidates at a time: their class sizes stay in registers while every heavier
 * target adds d n_{reply(c,i)}, the class size picked per lane by compare-and-blend.  Returns
 * how many candidates it did. */
static inline __attribute__((always_inline)) int32_t
weigh_avx512(const jt_eval *ev, int32_t c0, int32_t c1, const int L)
{
    const size_t nc = (size_t)ev->nc;
    const __m512i vmin = _mm512_set1_epi64((long long)ev->vmin);
    int32_t c = c0;
    for (; c + 16 <= c1; c += 16) {
        __m512i n[JT_PACKED_MAXL + 1];
        __m512i sq = _mm512_setzero_si512();
        for (int j = 0; j <= L; j++) {
            n[j] = _mm512_cvtepu16_epi32(
                _mm256_loadu_si256((const __m256i *)(ev->cnt + (size_t)j * nc + c)));
            sq = _mm512_add_epi32(sq, _mm512_mullo_epi32(n[j], n[j]));
        }
        __m512i qlo = _mm512_mullo_epi64(_mm512_cvtepu32_epi64(_mm512_castsi512_si256(sq)), vmin);
        __m512i qhi = _mm512_mullo_epi64(_mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(sq, 1)),
                                         vmin);
        const __m512i x = _mm512_loadu_si512(ev->cm + c);
        for (int32_t k = 0; k < ev->nspec; k++) {
            const __m512i r = _mm512_popcnt_epi32(
                _mm512_and_si512(x, _mm512_set1_epi32((int)ev->spec_mask[k])));
            __m512i sel = n[0];
            for (int j = 1; j <= L; j++)
                sel = _mm512_mask_mov_epi32(sel, _mm512_cmpeq_epi32_mask(r, _mm512_set1_epi32(j)),
                                            n[j]);
            const __m512i d = _mm512_set1_epi64((long long)ev->spec_delta[k]);
            qlo = _mm512_add_epi64(
                qlo, _mm512_mullo_epi64(_mm512_cvtepu32_epi64(_mm512_castsi512_si256(sel)), d));
            qhi = _mm512_add_epi64(
                qhi, _mm512_mullo_epi64(_mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(sel, 1)),
                                        d));
        }
        _mm512_storeu_si512(ev->q + c, qlo);
        _mm512_storeu_si512(ev->q + c + 8, qhi);
    }
    return c - c0;
}
#endif

/* q(c) = sum_{i in S} v_i n_{reply(c,i)}(c) = vmin sum_j n_j^2 + the excess of heavier targets. */
static inline __attribute__((always_inline)) void
weigh(const jt_eval *ev, int32_t c0, int32_t c1, const int L)
{
#if defined(__AVX512F__) && defined(__AVX512VPOPCNTDQ__) && defined(__AVX512DQ__) && \
    defined(__AVX512BW__)
    if (L <= JT_PACKED_MAXL)
        c0 += weigh_avx512(ev, c0, c1, L <= JT_PACKED_MAXL ? L : 1);
#endif
    const int32_t nc = ev->nc;
    const uint16_t *restrict cnt = ev->cnt;
    uint64_t *restrict q = ev->q;
    const uint64_t vmin = ev->vmin;
    for (int32_t c = c0; c < c1; c++) {
        uint32_t sq = 0; /* <= |S|^2 < 2^32 */
        for (int j = 0; j <= L; j++) {
            const uint32_t n = cnt[(size_t)j * nc + c];
            sq += n * n;
        }
        q[c] = vmin * (uint64_t)sq;
    }
    for (int32_t k = 0; k < ev->nspec; k++) {
        const uint32_t t = ev->spec_mask[k];
        const uint64_t d = ev->spec_delta[k];
        for (int32_t c = c0; c < c1; c++)
            q[c] += d * cnt[(size_t)pc(ev->cm[c] & t) * nc + c];
    }
}

static inline __attribute__((always_inline)) void
evaluate_len(const jt_eval *ev, int32_t c0, int32_t c1, const int L)
{
    if (ev->counted)
        ; /* class sizes given: weigh only */
    else if (ev->method == JT_M_TABLE && L <= JT_TABLE_MAXL)
        counts_table(ev, c0, c1, L <= JT_TABLE_MAXL ? L : 2);
    else if (L <= JT_PACKED_MAXL)
        counts_packed(ev, c0, c1, L <= JT_PACKED_MAXL ? L : 1);
    else
        counts_histogram(ev, c0, c1);
    if (ev->q && ev->cnt)
        weigh(ev, c0, c1, L);
}

/* ---- the kernels ------------------------------------------------------------------------------ */

static void evaluate(const jt_eval *ev, int32_t c0, int32_t c1)
{
    switch (ev->w->L) {
    case 2: evaluate_len(ev, c0, c1, 2); break;
    case 3: evaluate_len(ev, c0, c1, 3); break;
    case 4: evaluate_len(ev, c0, c1, 4); break;
    case 5: evaluate_len(ev, c0, c1, 5); break;
    case 6: evaluate_len(ev, c0, c1, 6); break;
    case 7: evaluate_len(ev, c0, c1, 7); break;
    default: evaluate_len(ev, c0, c1, ev->w->L); break;
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

static uint64_t min_q(const uint64_t *q, int32_t n, int32_t *first)
{
    uint64_t best = UINT64_MAX;
    int32_t at = 0, c = 0;
#if defined(__AVX512F__)
    /* Each lane keeps its least value and where it first saw it; the first index among the
     * lanes holding the least value is the first overall. */
    if (n >= 32) {
        /* four independent lanes of minima, so the loop is not one long dependency chain */
        __m512i lmin[4], lidx[4], idx[4];
        const __m512i step = _mm512_set1_epi64(32);
        for (int u = 0; u < 4; u++) {
            lmin[u] = _mm512_set1_epi64(-1);
            lidx[u] = _mm512_setzero_si512();
            idx[u] = _mm512_add_epi64(_mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7),
                                      _mm512_set1_epi64(8 * u));
        }
        for (; c + 32 <= n; c += 32) {
            for (int u = 0; u < 4; u++) {
                const __m512i x = _mm512_loadu_si512(q + c + 8 * u);
                const __mmask8 lt = _mm512_cmplt_epu64_mask(x, lmin[u]);
                lmin[u] = _mm512_mask_mov_epi64(lmin[u], lt, x);
                lidx[u] = _mm512_mask_mov_epi64(lidx[u], lt, idx[u]);
                idx[u] = _mm512_add_epi64(idx[u], step);
            }
        }
        for (int u = 1; u < 4; u++) { /* merge: the least value, then the first index */
            const __mmask8 lt = _mm512_cmplt_epu64_mask(lmin[u], lmin[0]);
            const __mmask8 eq = _mm512_cmpeq_epu64_mask(lmin[u], lmin[0]) &
                                _mm512_cmplt_epu64_mask(lidx[u], lidx[0]);
            lmin[0] = _mm512_mask_mov_epi64(lmin[0], lt, lmin[u]);
            lidx[0] = _mm512_mask_mov_epi64(lidx[0], lt | eq, lidx[u]);
        }
        best = _mm512_reduce_min_epu64(lmin[0]);
        const __mmask8 at_best =
            _mm512_cmpeq_epu64_mask(lmin[0], _mm512_set1_epi64((long long)best));
        const __m512i cand =
            _mm512_mask_mov_epi64(_mm512_set1_epi64(INT64_MAX), at_best, lidx[0]);
        at = (int32_t)_mm512_reduce_min_epi64(cand);
    }
#endif
    for (; c < n; c++) {
        if (q[c] < best) {
            best = q[c];
            at = c;
        }
    }
    if (first)
        *first = at;
    return best;
}

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
#endif
    for (; c < n; c++) {
        out[k] = c;
        k += q[c] <= lim;
    }
    return k;
}

static double exp_num_elims(uint32_t cm, const uint32_t *sm, const double *hs, int32_t m,
                            int32_t L, double total)
{
    double acc[JT_MAX_LEN + 1];
    int32_t n[JT_MAX_LEN + 1];
    for (int j = 0; j <= L; j++) {
        acc[j] = 0.0;
        n[j] = 0;
    }
    for (int32_t k = 0; k < m; k++) { /* AnswerProbs: sums left to right in dictionary order */
        const uint32_t r = pc(cm & sm[k]);
        acc[r] += hs[k];
        n[r]++;
    }
    double e = 0.0; /* ExpNumElims: the sum over j in order */
    for (int j = 0; j <= L; j++)
        e += (acc[j] / total) * (double)(m - n[j]);
    return e;
}

static const jt_kernels KERNELS = {
    .name = JT_STR(JT_KERNEL_SUFFIX),
    .evaluate = evaluate,
    .add_weight = add_weight,
    .min_q = min_q,
    .select_le = select_le,
    .exp_num_elims = exp_num_elims,
};

const jt_kernels *JT_CAT(jt_kernels_, JT_KERNEL_SUFFIX)(void) { return &KERNELS; }
