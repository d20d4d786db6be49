/* sweeps_vector.h -- the vector levels' sweeps of class sizes (letters, tokens, PLACE) and q
 * of uniform nodes of at most 255 targets.
 * Included by kernels_sweeps.h only, after the files before it there. */
#ifndef JOTTO_SWEEPS_VECTOR_H
#define JOTTO_SWEEPS_VECTOR_H

#if SLICE_T == 8
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

/* The shuffle indices of the L letters (or tokens) of candidates c .. c+n-1.  Where the level
 * loads letter indices as rows (IDX_ROWS), the candidates' letters gathered by cid are converted
 * into rows of their own first, so that both ways end in the same L loads: merging the two ways'
 * indices as registers, gcc kept them on the stack and the loop read them back from there. */
static inline __attribute__((always_inline)) void
candidate_indices(const jt_eval *ev, int32_t c, int32_t n, const int L, slice_idx *idx,
                  const int TW)
{
#ifdef IDX_ROWS
    if (TW == 32) {
        const uint8_t *rows = ev->w->shuf + c; /* computed once for the word list */
        size_t stride = ev->w->lstride;
        _Alignas(64) uint8_t own[LMAX][VW];
        if (ev->cid || !ev->w->shuf) { /* (not unrolled: it made the units compile 1.3x longer) */
            for (int p = 0; p < L; p++) {
                vb lt;
                candidate_letters(ev, p, c, n, VW, (uint8_t *)&lt);
                const slice_idx x = idx_of(lt, TW);
                memcpy(own[p], &x.q[0], VW);
            }
            rows = &own[0][0];
            stride = VW;
        }
        UNROLL for (int p = 0; p < L; p++)
            idx[p] = idx_load(rows + (size_t)p * stride);
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

/* Where a chunk's table comes from memory (chunk_planes: nodes of more than two chunks, whose
 * loop over them is not unrolled), AVX2 reads the candidates' letter indices from memory too,
 * their slice_idx array in L1, at every chunk: a byte shuffle takes its index from memory at
 * no cost, and the registers the L indices held (with their copies whose bit 7 look flips,
 * hoisted out of the loop: 2 L registers) keep the byte counters instead.  Held in registers,
 * they made gcc spill and reload the counters of weighted nodes at every chunk, a third of the
 * loop's instructions.  An empty asm that may read and write the array (and nothing else: a
 * clobber of all memory kept the byte counters on the stack too) says so; SSE keeps its
 * measured layout (KEEP_IN_MEMORY), AVX-512 and NEON have 32 registers.  slice_sweep_q's
 * loop reloads its indices too on AVX2 (RELOADS), where its counters go by value (counters):
 * with both in registers gcc spilled, and ENABLE 5 eckler (keep-all anagrams, whose small
 * nodes it counts) took 1.08-1.17x as long (bench/compare_builds.py, v3 and v2, two runs). */
#if VW == 32 && !defined(__ARM_NEON)
#define RELOAD_IDX(p) __asm__ volatile("" : "+m"(*(slice_idx(*)[LMAX])(p)))
#define RELOADS 1
#else
#define RELOAD_IDX(p) ((void)0)
#define RELOADS 0
#endif

/* SSE's slice_sweep_q over letters (TW = 32) keeps each letter's index and its copy whose bit 7
 * look flips in memory (idx_flipped), computed once per register of candidates, and its
 * shuffles read the 2 L of them as memory operands at every chunk, the counters in registers.
 * Left to gcc (with the indices of a register of candidates sized by the word length, LMAX),
 * it kept one index in a register and spilled the reply planes around it, 9 loads and stores
 * more a chunk: ENABLE 5 eckler (keep-all anagrams, whose small nodes this loop counts) took
 * 1.06-1.11x as long as at 898215f, where an array sized for any length had kept all of them
 * in memory. */
#if VW == 16 && !defined(__ARM_NEON)
#define IDX_PAIRS 1
#define KEEP_PAIRS(p, TW)                                                                        \
    do {                                                                                         \
        if ((TW) == 32)                                                                          \
            __asm__ volatile("" : "+m"(*(slice_idx(*)[LMAX])(p)));                               \
    } while (0)
#else
#define IDX_PAIRS 0
#define KEEP_PAIRS(p, TW) ((void)0)
#endif

/* look, from idx_flipped's pair where IDX_PAIRS keeps it. */
static inline __attribute__((always_inline)) vb pairs_look(slice_tab t, slice_idx i, const int TW)
{
#if IDX_PAIRS
    if (TW == 32)
        return look_flipped(t, i);
#endif
    return look(t, i, TW);
}

/* Add the counts of one chunk's planes' ANDs pl to acc[1..L] (byte counters), class L's only if
 * own is NULL (own_class). */
static inline __attribute__((always_inline)) void add_counts(const vb *pl, vb *acc,
                                                             const uint8_t *own, const int L)
{
    UNROLL for (int j = 1; j <= L; j++)
        if (j < L || !own)
            acc[j] += pc8(with_bits(pl, j, planes_for(L)));
}

/* Byte counters carried by value through a loop over chunks whose count is known at run time
 * only: passed by pointer into such a loop, gcc kept the counters of a whole array in memory
 * (an address taken in a loop it does not unroll), a load and a store of each counter at every
 * chunk; a structure passed and returned by value stays in registers. */
typedef struct {
    vb v[LMAX + 1];
} counters;

static inline __attribute__((always_inline)) counters counted(const vb *pl, counters a,
                                                              const uint8_t *own, const int L)
{
    UNROLL for (int j = 1; j <= L; j++)
        if (j < L || !own)
            a.v[j] += pc8(with_bits(pl, j, planes_for(L)));
    return a;
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
        slice_idx idx[LMAX];
        candidate_indices(ev, c0 + v0, nv, L, idx, TW);
#if IDX_PAIRS
        if (TW == 32)
            UNROLL for (int p = 0; p < L; p++)
                idx[p] = idx_flipped(idx[p]);
#endif
        vh tot[2][LMAX + 1];
        UNROLL for (int j = 1; j <= L; j++)
            tot[0][j] = tot[1][j] = (vh){0};
        /* byte counters take 31 chunks (31 * 8 = 248 < 256) before they are widened */
        for (int32_t k0 = 0; k0 < nch; k0 += 31) {
            const int32_t k1 = nch - k0 < 31 ? nch : k0 + 31;
            KEEP_IN_MEMORY(tot);
            counters acc;
            UNROLL for (int j = 1; j <= L; j++)
                acc.v[j] = (vb){0};
            for (int32_t k = k0; k < k1; k++) {
                const slice_tab t = tab_load(T + (size_t)k * TW, TW);
                vb pl[5];
                RELOAD_IDX(idx);
                KEEP_PAIRS(idx, TW);
                UNROLL for (int p = 0; p < L; p++)
                    ripple(pl, pairs_look(t, idx[p], TW), p, np);
#if RELOADS
                acc = counted(pl, acc, own, L);
#else /* SSE: its counters as at 898215f, its letter indices in memory (IDX_PAIRS) */
                add_counts(pl, acc.v, own, L);
#endif
            }
            UNROLL for (int j = 1; j <= L; j++) {
                tot[0][j] += widen(acc.v[j], 0);
                tot[1][j] += widen(acc.v[j], 1);
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
            vh nj[LMAX + 1];
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
    RELOAD_IDX(idx);
    tab_planes(tab_load(t, 32), idx, pl, L);
}
#endif

#endif
