/* kernels.h -- what the sources of the kernels (the jt_kernels table, engine_internal.h) share,
 * and how they are laid out.  CMake compiles:
 *  - kernels_common.c once, for the baseline instruction set: what does not differ by level
 *    (GENERAL mode's pair-by-pair counts, the tables of weighted small nodes, the paper rule's
 *    ExpNumElims), its loops over replies cloned for the popcnt instruction (popcnt_clones.h);
 *  - kernels_length.c once per instruction-set level (JT_KERNEL_SUFFIX: x86-64 base, v2, v3, v4;
 *    aarch64 base, neon) and word length (JT_LEN: each of JT_KERNEL_LENGTHS, and 0 for any
 *    other): the bit-sliced sweeps of kernels_sweeps.h, specialised for that length, which is
 *    nearly all of the compile time; many small translation units, so both cores compile.
 *    kernels_sweeps.h includes its pieces in order: sweeps_level.h (the level's registers and
 *    look-ups), sweeps_planes.h (adders, Mobius inversion, chunk tables), sweeps_scalar.h (base),
 *    sweeps_vector.h (class sizes), sweeps_small.h and sweeps_weighted.h (q of small and weighted
 *    nodes in one pass), sweeps_table.h (the subset tables of big nodes); it keeps the weighing,
 *    reply codes and the choice of a sweep or table;
 *  - kernels.c once per level: its table, the choice of a length's sweeps, the weight updates
 *    and the scans of q.
 * dispatch.c picks the best level the CPU runs.  Every variant computes bit-identical results:
 * integer work is exact, and the one floating-point kernel (jt_exp_num_elims) is sequential C
 * compiled without contraction or fast-math. */
#ifndef JOTTO_KERNELS_H
#define JOTTO_KERNELS_H

#include "engine_internal.h"

#define JT_CAT2(a, b) a##b
#define JT_CAT(a, b) JT_CAT2(a, b)
#define JT_STR2(x) #x
#define JT_STR(x) JT_STR2(x)

/* The word lengths whose sweeps are compiled with the length a constant (loops over letters
 * unrolled); other lengths share sweeps compiled for any length (JT_LEN 0).  Not 2: a 2-letter
 * list has about a hundred words, its tree takes a few hundredths of a millisecond with either
 * sweeps, and its units cost every build 45 s of CPU (docs/performance-build.md); only the
 * scalar level's sweeps for any length keep a 2-letter copy (kernels_length.c).
 * CMakeLists.txt and tests/house/test_cross_aarch64.py read this line. */
#define JT_KERNEL_LENGTHS(X) X(3) X(4) X(5) X(6) X(7)

/* The sweeps of level `level` for word length `len` (kernels_length.c): class sizes and q of
 * candidates [c0, c1) of PAPER and ANAGRAM lists (evaluate), and of GENERAL lists sliced by tokens
 * or by letters in and out of place (tokens, place). */
#define JT_LEN_FN(kind, level, len) JT_CAT(JT_CAT(JT_CAT(jt_, kind), JT_CAT(_, level)), JT_CAT(_, len))
#define JT_DECLARE_LENGTH(len)                                                                   \
    void JT_LEN_FN(evaluate, JT_KERNEL_SUFFIX, len)(const jt_eval *ev, int32_t c0, int32_t c1);  \
    void JT_LEN_FN(tokens, JT_KERNEL_SUFFIX, len)(const jt_eval *ev, int32_t c0, int32_t c1);    \
    void JT_LEN_FN(place, JT_KERNEL_SUFFIX, len)(const jt_eval *ev, int32_t c0, int32_t c1);

/* jt_kernels.letter_tables of level `level` (kernels_length.c, in its unit for any length). */
int JT_CAT(jt_letter_tables_, JT_KERNEL_SUFFIX)(const jt_eval *ev, void *buf);

/* Whether this level's sweeps are the vector ones (one candidate a byte of a register, 8 targets
 * a chunk) or the scalar ones (64 targets a word, one candidate at a time: base, and any level
 * without byte shuffles). */
#if !defined(JT_SCALAR) && (defined(__SSSE3__) || (defined(__ARM_NEON) && defined(__aarch64__)))
#define JT_VECTOR 1
#else
#define JT_VECTOR 0
#endif

/* popcount that vectorises where the level has a vector popcount, and is one instruction where
 * it has POPCNT; the bit-twiddling form only for levels without (no libgcc call; gcc makes it
 * the instruction in a popcnt clone). */
static inline __attribute__((always_inline)) uint32_t pc(uint32_t x)
{
#if defined(__POPCNT__) || defined(__aarch64__)
    return (uint32_t)__builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
#endif
}

/* Units of any width are taken as their base-32 digits: u = sum_d 32^d u^(d), each digit <= 31
 * as the nibble tables want, so the units in a class are X_j = sum_d 32^d X_j^(d) with X_j^(d)
 * the digits d in it, each looked up like units <= 31.  At most MAX_DIGITS digits (units below
 * 2^20). */
#define MAX_DIGITS 4

/* Weighted nodes of at most PAIR_MAX targets take q from the pair bits of their targets
 * (kernels_sweeps.h), PAIR_BYTES bytes of them. */
#define PAIR_MAX 8
#define PAIR_BYTES ((PAIR_MAX * (PAIR_MAX - 1) / 2 + 7) / 8)

/* ---- kernels_common.c: compiled once ---- */

/* The heavier targets' units and their digits' nibble tables (kernels_common.c has the details). */
int jt_unit_step(const jt_eval *ev, uint64_t *g, uint64_t *utot);
void jt_unit_tables(const uint64_t *delta, uint64_t g, int32_t n, int nd, uint8_t *nib,
                    uint8_t *csum, uint32_t *usum);
/* The byte tables of pair bits' weights, and the ranks of q at nodes of <= JT_RANK_MAX targets. */
void jt_pair_tables(const jt_eval *ev, int M, uint64_t (*tb)[256]);
void jt_rank_tables(const jt_eval *ev, uint8_t *rank);
/* GENERAL mode: the pair-by-pair counts (JT_SLICE_PAIRS). */
void jt_codes_pairs(const jt_eval *ev, int32_t c0, int32_t c1);
/* The paper's ExpNumElims (jt_kernels.exp_num_elims). */
void jt_exp_num_elims(const uint32_t *mask, const int32_t *words, int32_t n, const uint32_t *sm,
                      const double *hs, int32_t m, int32_t L, double total, double *e);

/* GENERAL mode: q of candidate word g from its class sizes by reply code n[0..R): vmin sum_j
 * n_j^2 plus each heavier target's excess times the size of its class (wrapping uint64, as
 * everywhere). */
static inline uint64_t code_q(const jt_eval *ev, int32_t g, const uint32_t *n)
{
    const jt_words *w = ev->w;
    uint64_t sq = 0;
    for (int j = 0; j < w->R; j++)
        sq += (uint64_t)n[j] * n[j];
    uint64_t q = ev->vmin * sq;
    for (int32_t k = 0; k < ev->nspec; k++)
        q += ev->spec_delta[k] * n[jt_code(w, g, ev->spec_id[k])];
    return q;
}

#endif
