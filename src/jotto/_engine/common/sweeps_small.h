/* sweeps_small.h -- the vector levels' q of small nodes in one pass: pair bits (at most 8
 * targets, any weights), ranks (at most 4), and 16-bit sums of squares (uniform, at most 248).
 * Included by kernels_sweeps.h only, after the files before it there. */
#ifndef JOTTO_SWEEPS_SMALL_H
#define JOTTO_SWEEPS_SMALL_H

#if SLICE_T == 8
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
    slice_idx idx[LMAX];
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

#ifdef PAIR_DOT
/* sum_j a_j b_j over j = 0..L, a_j and b_j bytes, in 16-bit lanes of widen's halves (out[0],
 * out[1]): one dot_pairs for two classes, where widening both to 16 bits and multiplying took
 * six operations a class.  Exact (wrapping) while a_j <= 127 (signed in dot_pairs) and every
 * pair's a_j b_j + a_{j+1} b_{j+1} < 2^15 (unsaturated). */
static inline __attribute__((always_inline)) void dot_bytes(const vb *a, const vb *b, vh *out,
                                                            const int L)
{
    vh lo = (vh){0}, hi = (vh){0};
    UNROLL for (int j = 0; j <= L; j += 2) {
        const vb a1 = j < L ? a[j + 1] : (vb){0}, b1 = j < L ? b[j + 1] : (vb){0};
        lo += dot_pairs(zip_lo(b[j], b1), zip_lo(a[j], a1));
        hi += dot_pairs(zip_hi(b[j], b1), zip_hi(a[j], a1));
    }
    unzip(lo, hi, out);
}
/* The most targets whose class sizes dot_bytes takes (signed bytes). */
#define DOT_MAX 127
#else
#define DOT_MAX 0
#endif

/* Add the counts of the planes' ANDs of chunks [k0, k1) of tabs to acc[1..L] (byte counters),
 * class L's only if own is NULL (own_class). */
static inline __attribute__((always_inline)) void
count_chunks(const uint8_t *tabs, const slice_idx *idx, int32_t k0, int32_t k1, vb *acc,
             const uint8_t *own, const int L)
{
    counters a;
    UNROLL for (int j = 1; j <= L; j++)
        a.v[j] = acc[j];
    for (int32_t k = k0; k < k1; k++) {
        vb pl[5];
        chunk_planes(tabs + (size_t)k * 32, idx, pl, L);
        a = counted(pl, a, own, L);
    }
    UNROLL for (int j = 1; j <= L; j++)
        acc[j] = a.v[j];
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
        count_chunks(tabs, idx, 0, nch, acc, own, L);
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
 * (<= 225) stays in bytes, else (at most DOT_MAX targets) they are summed by dot_bytes, or
 * squared and summed in 16-bit lanes.  Two stores per
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
        slice_idx idx[LMAX];
        candidate_indices(ev, c0 + v0, nv, L, idx, 32);
        vb acc[LMAX + 1], nj[LMAX + 1];
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
#ifdef PAIR_DOT
        } else if (mseg <= DOT_MAX) { /* (n_j^2 + n_{j+1}^2 <= mseg^2 < 2^15) */
            dot_bytes(nj, nj, sq, L);
#endif
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
#endif

#endif
