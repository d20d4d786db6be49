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

/* The sweeps in pieces, each using what the ones before it define. */
#include "sweeps_level.h"
#include "sweeps_planes.h"
#include "sweeps_scalar.h"
#include "sweeps_vector.h"
#include "sweeps_small.h"
#include "sweeps_weighted.h"
#include "sweeps_table.h"

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
    /* a table node's tables give its class sizes, and q where it has a units table */
    const int table = ev->method == JT_M_TABLE && L >= 2 && L <= JT_TABLE_MAXL;
    const int units = table && ev->q && ev->cnt && ev->utable;
    if (table && (!ev->counted || units))
        table_pass(ev, c0, c1, L);
    else if (!ev->counted)
        counts_sliced(ev, c0, c1, L, K_LETTERS, NULL);
    if (ev->q && ev->cnt && !units)
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
