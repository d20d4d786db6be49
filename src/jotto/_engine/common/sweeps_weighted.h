/* sweeps_weighted.h -- the vector levels' weighted sweeps: heavier targets' units summed per
 * class by nibble look-ups in the counting pass (small nodes) or a second sweep (big ones).
 * Included by kernels_sweeps.h only, after the files before it there. */
#ifndef JOTTO_SWEEPS_WEIGHTED_H
#define JOTTO_SWEEPS_WEIGHTED_H

#if SLICE_T == 8
/* Add the units of the planes' ANDs pl to wacc[1..L] (byte counters; class L's only if own is
 * NULL) from one digit's nibble tables of a chunk, in registers (lo, hi): two look-ups a class. */
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

/* add_units_tab with the chunk's tables at t (one digit) and the counters by value (counted). */
static inline __attribute__((always_inline)) counters
units_counted(const uint8_t *t, const vb *pl, counters u, const uint8_t *own, const int L)
{
    add_units_tab(nib_load(t), nib_load(t + 16), pl, u.v, own, L);
    return u;
}

/* Add the units of the planes' ANDs of chunk k to wacc[d][1..L] (byte counters; class L's only
 * if own is NULL), the tables of digit d < ND at nib + d * dbytes (32 bytes a chunk): two nibble
 * look-ups a class and digit.  Unrolled by the pragma, as add_counts: left to gcc's size
 * heuristics, the per-length units of every vector level kept both loops (planes picked by tzcnt
 * and bt, byte counters in memory), where 69d39b9's whole-file build unrolled them, and TWL06's
 * paper-mode weights ran 1.1x slower on v2. */
static inline __attribute__((always_inline)) void
add_units(const uint8_t *nib, size_t dbytes, int32_t k, const vb *pl, vb (*wacc)[LMAX + 1],
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
 * sweep.  n_j, X_j fit bytes; sum n_j^2 <= m^2 and sum n_j X_j <= m utot fit 16 bits (with
 * PAIR_DOT, m <= DOT_MAX: their products are summed two classes at a time, dot_bytes).  KEYS:
 * their 16-bit keys into ev->q16 instead (jt_q16_keys: sum_j n_j X_j times ev->qkey plus
 * sum_j n_j^2, exact in wrapping 16-bit lanes since it fits), two stores a register. */
static inline __attribute__((always_inline)) void
slice_q_weighted_n(const jt_eval *ev, int32_t c0, int32_t n, const uint8_t *tabs, int32_t nch,
                   const uint8_t *nib, int32_t nsch, uint32_t utot, uint64_t g, const int L,
                   const int KEYS, const int NCH)
{
    const uint64_t vmin = ev->vmin;
    const uint8_t *own_u = KEYS ? ev->own_u : NULL; /* (units <= 31 with keys) */
#ifndef PAIR_DOT
    const nib_tab sqt = nib_load(squares);
#endif
    slice_tab tk[2];
    nib_tab lo[2], hi[2];
    UNROLL for (int k = 0; k < NCH; k++) {
        tk[k] = tab_load(tabs + (size_t)k * 32, 32);
        lo[k] = k < nsch ? nib_load(nib + (size_t)k * 32) : (nib_tab){0};
        hi[k] = k < nsch ? nib_load(nib + (size_t)k * 32 + 16) : (nib_tab){0};
    }
    for (int32_t v0 = 0; v0 < n; v0 += VW) {
        const int nv = n - v0 < VW ? (int)(n - v0) : VW;
        slice_idx idx[LMAX];
        candidate_indices(ev, c0 + v0, nv, L, idx, 32);
        vb acc[LMAX + 1], wacc[LMAX + 1];
        for (int j = 1; j <= L; j++)
            acc[j] = wacc[j] = (vb){0};
        UNROLL for (int k = 0; k < NCH; k++) { /* tables in registers (count_known) */
            vb pl[5];
            tab_planes(tk[k], idx, pl, L);
            add_counts(pl, acc, ev->own_n, L);
            if (k < nsch)
                add_units_tab(lo[k], hi[k], pl, wacc, own_u, L);
        }
        if (!NCH) { /* chunks with heavier targets: counts and units (counters by value) */
            counters a, u;
            UNROLL for (int j = 1; j <= L; j++) {
                a.v[j] = acc[j];
                u.v[j] = wacc[j];
            }
            for (int32_t k = 0; k < nsch; k++) {
                vb pl[5];
                chunk_planes(tabs + (size_t)k * 32, idx, pl, L);
                a = counted(pl, a, ev->own_n, L);
                u = units_counted(nib + (size_t)k * 32, pl, u, own_u, L);
            }
            UNROLL for (int j = 1; j <= L; j++) {
                acc[j] = a.v[j];
                wacc[j] = u.v[j];
            }
        }
        if (!NCH)
            count_chunks(tabs, idx, nsch, nch, acc, ev->own_n, L); /* the rest: counts */
        acc[L] = own_class(ev->own_n, c0 + v0, acc[L]);
        wacc[L] = own_class(own_u, c0 + v0, wacc[L]);
        vb nj[LMAX + 1], xj[LMAX + 1];
        invert_bytes(nj, acc, (vb){0} + (uint8_t)ev->m, L);
        invert_bytes(xj, wacc, (vb){0} + (uint8_t)utot, L);
        vh key[2];
#ifdef PAIR_DOT
        /* m <= DOT_MAX (q_weighted; keys' m^3 < 2^16): n_j <= 127, and a pair's
         * n_j X_j + n_{j+1} X_{j+1} <= m utot <= 127 * 255 < 2^15, n_j^2 + n_{j+1}^2 <= m^2 */
        vh sqd[2], wxd[2];
        dot_bytes(nj, nj, sqd, L);
        dot_bytes(nj, xj, wxd, L);
#else
        vb sqb = (vb){0}; /* at most 15 targets: sum_j n_j^2 <= 225 in bytes (slice_q16_n) */
        if (ev->m <= 15)
            UNROLL for (int j = 0; j <= L; j++)
                sqb += nib_look(sqt, nj[j]);
#endif
        for (int h = 0; h < 2; h++) {
#ifdef PAIR_DOT
            const vh sq = sqd[h], wx = wxd[h];
#else
            vh sq = ev->m <= 15 ? widen(sqb, h) : (vh){0}, wx = (vh){0};
            for (int j = 0; j <= L; j++) {
                const vh a = widen(nj[j], h);
                if (ev->m > 15)
                    sq += a * a;
                wx += a * widen(xj[j], h);
            }
#endif
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
spill_digit(vh (*tot)[LMAX + 1], vb *wacc, const int L)
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
            int32_t nsch, vb *acc, const uint8_t *own, vh (*tot)[2][LMAX + 1], const int L,
            const int ND)
{
    vb wacc[MAX_DIGITS][LMAX + 1];
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
add_dots(uint64_t *out, int nh, const vh *a, const vh (*X)[LMAX + 1], const int L,
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
invert_units(vh (*X)[LMAX + 1], vh (*tot)[2][LMAX + 1], const uint32_t *usum, int h,
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
        slice_idx idx[LMAX];
        candidate_indices(ev, c0 + v0, nv, L, idx, 32);
        vb acc[LMAX + 1], nj[LMAX + 1];
        vh tot[MAX_DIGITS][2][LMAX + 1];
        for (int j = 1; j <= L; j++)
            acc[j] = (vb){0};
        unit_chunks(tabs, idx, nib, csum, nsch, acc, ev->own_n, tot, L, ND);
        count_chunks(tabs, idx, nsch, nch, acc, ev->own_n, L); /* the rest: counts */
        acc[L] = own_class(ev->own_n, c0 + v0, acc[L]);
        invert_bytes(nj, acc, (vb){0} + (uint8_t)ev->m, L);
        for (int h = 0; h < 2 && h * (VW / 2) < nv; h++) {
            const int lo = h * (VW / 2), nh = nv - lo < VW / 2 ? nv - lo : VW / 2;
            vh a[LMAX + 1], X[MAX_DIGITS][LMAX + 1], sq = (vh){0};
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
 * first): in bytes when the units are <= 31 and sum to <= 255 (and, with PAIR_DOT, m <= DOT_MAX:
 * bigger nodes are not small in trees, jt_t_shared), else digit by digit. */
static inline __attribute__((always_inline)) void
q_weighted(const jt_eval *ev, int32_t c0, int32_t n, const uint8_t *tabs, uint64_t g,
           uint64_t utot, int nd, const int L)
{
    _Alignas(64) uint8_t nib[MAX_DIGITS * 248 / 8 * 32];
    uint8_t csum[MAX_DIGITS * 248 / 8];
    uint32_t usum[MAX_DIGITS];
    const int32_t nch = (ev->m + 7) / 8, nsch = (ev->nspec + 7) / 8;
    if (nd == 1 && utot <= 255 && (!DOT_MAX || ev->m <= DOT_MAX)) {
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
        slice_idx idx[LMAX];
        candidate_indices(ev, c0 + v0, nv, L, idx, 32);
        vh tot[MAX_DIGITS][2][LMAX + 1];
        unit_chunks(tabs, idx, nib, csum, nsch, NULL, NULL, tot, L, ND);
        for (int h = 0; h < 2 && h * (VW / 2) < nv; h++) {
            const int lo = h * (VW / 2), nh = nv - lo < VW / 2 ? nv - lo : VW / 2;
            vh a[LMAX + 1], X[MAX_DIGITS][LMAX + 1];
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

#endif
