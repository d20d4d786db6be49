/* sweeps_table.h -- subset tables of big nodes (jt_eval.method JT_M_TABLE), compiled with the
 * sweeps once per instruction-set level and word length (kernels_sweeps.h includes it), so that
 * the inversion of each block of candidates runs in the level's vector lanes and the loops over
 * a word's subsets unroll for the length.
 *
 * For big S: E_s = sum over the candidate's s-letter subsets T of #{i in S : T within i}; then
 * n_j = sum_s (-1)^(s-j) C(s,j) E_s.  E_0 = |S| and E_L = [candidate in S] (no two words share a
 * letter set).  Wrapping 32-bit arithmetic is exact because every n_j lies in [0, |S|] (and every
 * class's units in [0, utot], utot < 2^32).  The cost per candidate does not depend on |S|.  Any
 * additive sum over the targets inverts alike: the heavier targets' units table (utable) gives
 * each class's units U_j, and q = vmin sum_j n_j^2 + ustep sum_j n_j U_j.
 *
 * A block of TABLE_BLOCK candidates is looked up one candidate at a time (a word's 2^L - 2 ranks
 * are 16-bit, read four to a 64-bit load: jt_words.subrank), each E_s of the block in a lane of
 * its own; the inversion (a Taylor shift: L(L+1)/2 subtractions), the class sizes' stores and q
 * are then vector operations over the block's lanes. */
#ifndef JOTTO_SWEEPS_TABLE_H
#define JOTTO_SWEEPS_TABLE_H

#define TABLE_BLOCK 8

/* What a table pass computes:
 *  T_COUNTS: class sizes, from the counts table;
 *  T_PACKED: class sizes and q, from the counts packed with the units (jt_eval.packed: each entry
 *            count + 2^16 units, exact after the inversion while both stay below 2^16);
 *  T_TWO:    class sizes and q, from the counts table and the units table;
 *  T_UNITS:  q, from the units table and the class sizes in cnt (the root's, counted already). */
enum { T_COUNTS, T_PACKED, T_TWO, T_UNITS };

static const uint8_t BINOM[JT_TABLE_MAXL + 1][JT_TABLE_MAXL + 1] = {
    {1}, {1, 1}, {1, 2, 1}, {1, 3, 3, 1}, {1, 4, 6, 4, 1}, {1, 5, 10, 10, 5, 1},
    {1, 6, 15, 20, 15, 6, 1}};

/* A heavier target's units (jt_unit_table): candidate word r's own, E_L of the units. */
static inline uint32_t own_units(const jt_eval *ev, int32_t r)
{
    return ev->in_s[r] ? (uint32_t)(((uint64_t)ev->wv[r] - ev->vmin) / ev->ustep) : 0;
}

/* A block's lanes as vectors (GCC's vector extensions: the level's registers, two or more
 * of them where they are narrower, scalar code on base levels). */
typedef uint32_t tv32 __attribute__((vector_size(4 * TABLE_BLOCK)));
typedef uint64_t tv64 __attribute__((vector_size(8 * TABLE_BLOCK)));
typedef uint16_t tv16 __attribute__((vector_size(2 * TABLE_BLOCK)));

/* E_1 .. E_{L-1} of word r from table t16 (counts) or t32 (units or packed), into lane l of e
 * (and of u, from t32, when both tables are read). */
static inline __attribute__((always_inline)) void
subset_sums(const uint16_t *subrank, int32_t r, const uint16_t *t16, const uint32_t *t32,
            tv32 *e, tv32 *u, int l, const int L)
{
    const int nsub = (1 << L) - 2; /* jt_words.nsub */
    const uint16_t *sr = subrank + (size_t)r * (size_t)nsub;
    uint64_t rw[((1 << JT_TABLE_MAXL) + 1) / 4];
    _Pragma("GCC unroll 16") for (int i = 0; i < (nsub + 3) / 4; i++)
        memcpy(&rw[i], sr + 4 * i, sizeof(uint64_t)); /* jt_words.subrank is padded for this */
    int k = 0;
    _Pragma("GCC unroll 8") for (int s = 1; s < L; s++) {
        uint32_t acc = 0, uacc = 0;
        const int ns = BINOM[L][s];
        _Pragma("GCC unroll 32") for (int i = 0; i < ns; i++, k++) {
            const uint32_t rank = (uint32_t)(rw[k >> 2] >> (16 * (k & 3))) & 0xffff;
            if (t16)
                acc += t16[rank];
            if (t32)
                uacc += t32[rank];
        }
        if (t16) {
            e[s][l] = acc;
            if (t32)
                u[s][l] = uacc;
        } else {
            e[s][l] = uacc;
        }
    }
}

/* lanes[0..L] as vectors, inverted into class sums (the Taylor shift of the binomial moments:
 * n_j = sum_s (-1)^(s-j) C(s,j) E_s, in L(L+1)/2 subtractions). */
static inline __attribute__((always_inline)) void invert_block(tv32 *v, const tv32 *lanes,
                                                               const int L)
{
    for (int s = 0; s <= L; s++)
        v[s] = lanes[s];
    _Pragma("GCC unroll 8") for (int i = 0; i < L; i++)
        _Pragma("GCC unroll 8") for (int s = L - 1; s >= i; s--)
            v[s] -= v[s + 1];
}

/* acc += a_l b_l in 64 bits, lane by lane (written with the operands' high halves masked, which
 * gcc makes one 32x32->64 multiply a lane: pmuludq, umull).  Vectors by pointer: a vector wider
 * than the level's registers passed or returned by value changes the ABI, which gcc warns of. */
static inline __attribute__((always_inline)) void add_product(tv64 *acc, const tv32 *a,
                                                              const tv32 *b)
{
    const tv64 lo = (tv64){0} + 0xffffffffu;
    *acc += (__builtin_convertvector(*a, tv64) & lo) * (__builtin_convertvector(*b, tv64) & lo);
}

/* Lanes [0, n) of *v to dst. */
static inline __attribute__((always_inline)) void store16(uint16_t *dst, const tv32 *v, int n)
{
    const tv16 h = __builtin_convertvector(*v, tv16);
    if (n == TABLE_BLOCK)
        memcpy(dst, &h, sizeof h);
    else
        for (int l = 0; l < n; l++)
            dst[l] = h[l];
}

/* A block's lanes as the look-ups leave them: e, the sums of MODE's first table (T_UNITS: the
 * units); u, T_TWO's units; x, T_UNITS's given class sizes. */
typedef struct {
    tv32 e[JT_TABLE_MAXL + 1], u[JT_TABLE_MAXL + 1], x[JT_TABLE_MAXL + 1];
} table_lanes;

/* The look-ups of the n candidates from c into b (lanes past n: zeros, never stored). */
static inline __attribute__((always_inline)) void
table_gather(const jt_eval *ev, int32_t c, int n, table_lanes *b, const int L, const int MODE)
{
    const uint16_t *t16 = MODE == T_COUNTS || MODE == T_TWO ? ev->table : NULL;
    const uint32_t *t32 = MODE == T_COUNTS ? NULL : ev->utable;
    const uint32_t m = (uint32_t)ev->m, utot = ev->utot;
    const uint16_t *subrank = ev->w->subrank;
    for (int l = 0; l < TABLE_BLOCK; l++) {
        b->e[0][l] = MODE == T_PACKED ? m | utot << 16 : MODE == T_UNITS ? utot : m;
        if (MODE == T_TWO)
            b->u[0][l] = utot;
    }
    for (int l = 0; l < n; l++) {
        const int32_t r = ev->cid ? ev->cid[c + l] : c + l;
        subset_sums(subrank, r, t16, t32, b->e, b->u, l, L);
        const uint32_t own = ev->in_s[r];
        b->e[L][l] = MODE == T_COUNTS || MODE == T_TWO ? own
                     : MODE == T_PACKED                ? own | own_units(ev, r) << 16
                                                       : own_units(ev, r);
        if (MODE == T_TWO)
            b->u[L][l] = own_units(ev, r);
        if (MODE == T_UNITS)
            for (int j = 0; j <= L; j++)
                b->x[j][l] = ev->cnt[(size_t)j * (size_t)ev->nc + (size_t)(c + l)];
    }
    for (int l = n; l < TABLE_BLOCK; l++)
        for (int s = 0; s <= L; s++)
            b->e[s][l] = b->u[s][l] = b->x[s][l] = 0;
}

/* The vector part of the n candidates from c whose look-ups b holds: class sizes into ev->cnt,
 * q into ev->q, as MODE says. */
static inline __attribute__((always_inline)) void
table_finish(const jt_eval *ev, int32_t c, int n, table_lanes *b, const int L, const int MODE)
{
    tv32 E[JT_TABLE_MAXL + 1], N[JT_TABLE_MAXL + 1], U[JT_TABLE_MAXL + 1];
    invert_block(E, b->e, L);
    if (MODE == T_TWO)
        invert_block(U, b->u, L);
    for (int j = 0; j <= L; j++) {
        if (MODE == T_PACKED) {
            N[j] = E[j] & 0xffff;
            U[j] = E[j] >> 16;
        } else if (MODE == T_UNITS) {
            N[j] = b->x[j];
            U[j] = E[j];
        } else {
            N[j] = E[j];
        }
        if (MODE != T_UNITS) /* the class sizes */
            store16(ev->cnt + (size_t)j * (size_t)ev->nc + (size_t)c, &N[j], n);
    }
    if (MODE == T_COUNTS)
        return;
    /* q = vmin sum_j n_j^2 + ustep sum_j n_j U_j: sum_j n_j^2 <= |S|^2 < 2^32; packed, also
     * sum_j n_j U_j <= |S| utot < 2^32 */
    tv32 sq = N[0] * N[0], x32 = N[0] * U[0];
    tv64 x64 = {0};
    add_product(&x64, &N[0], &U[0]);
    for (int j = 1; j <= L; j++) {
        sq += N[j] * N[j];
        if (MODE == T_PACKED)
            x32 += N[j] * U[j];
        else
            add_product(&x64, &N[j], &U[j]);
    }
    const tv64 q = ev->vmin * __builtin_convertvector(sq, tv64) +
                   ev->ustep * (MODE == T_PACKED ? __builtin_convertvector(x32, tv64) : x64);
    if (n == TABLE_BLOCK)
        memcpy(ev->q + c, &q, sizeof q);
    else
        for (int l = 0; l < n; l++)
            ev->q[c + l] = q[l];
}

/* Candidates [c0, c1) at a table node: what MODE says (above) into ev->cnt and ev->q.  Each
 * block's vector part runs after the next block's look-ups, from the other of two buffers: its
 * lanes, stored one by one, are then in the cache, not the store buffer, when the vector loads
 * read them (a load that spans several stores still waiting stalls). */
static inline __attribute__((always_inline)) void
table_range(const jt_eval *ev, int32_t c0, int32_t c1, const int L, const int MODE)
{
    table_lanes buf[2];
    int k = 0, pn = 0;
    for (int32_t c = c0; c < c1; c += TABLE_BLOCK, k ^= 1) {
        const int n = c1 - c < TABLE_BLOCK ? (int)(c1 - c) : TABLE_BLOCK;
        table_gather(ev, c, n, &buf[k], L, MODE);
        if (pn)
            table_finish(ev, c - TABLE_BLOCK, pn, &buf[k ^ 1], L, MODE);
        pn = n;
    }
    if (pn)
        table_finish(ev, c1 - pn, pn, &buf[k ^ 1], L, MODE);
}

/* The table pass of candidates [c0, c1) for what the node has: counts (when not counted already),
 * and q where a units table gives it (with a units table, a node counted already is weighed
 * here; without, q is weigh()'s).  A function of its own in the vector levels, inlined into the
 * sweeps' in the scalar ones: measured both ways (bench/compare_builds.py, 2026-11-29), inlined it
 * made v3's paper-mode tree 3% slower, and on its own base's 5-letter trees 6% slower. */
#if JT_VECTOR
#define TABLE_PASS_INLINE __attribute__((noinline))
#else
#define TABLE_PASS_INLINE inline __attribute__((always_inline))
#endif
static TABLE_PASS_INLINE void table_pass(const jt_eval *ev, int32_t c0, int32_t c1, const int L)
{
    if (L < 2 || L > JT_TABLE_MAXL) /* the caller's test: no tables for other lengths */
        __builtin_unreachable();
    const int units = ev->q && ev->cnt && ev->utable;
    if (ev->counted)
        table_range(ev, c0, c1, L, T_UNITS);
    else if (units && ev->packed)
        table_range(ev, c0, c1, L, T_PACKED);
    else if (units)
        table_range(ev, c0, c1, L, T_TWO);
    else
        table_range(ev, c0, c1, L, T_COUNTS);
}

#endif
