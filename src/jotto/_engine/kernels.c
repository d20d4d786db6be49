/* kernels.c -- the hot loops of the core.  CMake compiles this file once per x86-64 level with
 * JT_KERNEL_SUFFIX set (base, v2, v3, v4) and dispatch.c picks the best the CPU runs.  Every
 * variant computes bit-identical results: integers are exact, and the one floating-point kernel
 * (exp_num_elims) is sequential C compiled without contraction or fast-math. */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

#define JT_CAT2(a, b) a##b
#define JT_CAT(a, b) JT_CAT2(a, b)
#define JT_STR2(x) #x
#define JT_STR(x) JT_STR2(x)

/* ---- class sizes, three ways -------------------------------------------------------------- */
/* Each writes n_j (targets of S replying j to the candidate) to out[0..L].  The functions are
 * inlined into loops specialised for each word length, so L is a constant there. */

/* One pass over the targets; for small S. */
static inline __attribute__((always_inline)) void
counts_direct(uint32_t cm, const uint32_t *sm, int32_t m, uint16_t *out, const int L)
{
    if (L <= 7 && m <= 255) {
        uint64_t acc = 0; /* one byte per reply */
        for (int32_t k = 0; k < m; k++)
            acc += (uint64_t)1 << (8 * jt_popcount32(cm & sm[k]));
        for (int j = 0; j <= L; j++)
            out[j] = (uint16_t)((acc >> (8 * j)) & 0xff);
    } else {
        uint32_t h[JT_MAX_LEN + 1];
        for (int j = 0; j <= L; j++)
            h[j] = 0;
        for (int32_t k = 0; k < m; k++)
            h[jt_popcount32(cm & sm[k])]++;
        for (int j = 0; j <= L; j++)
            out[j] = (uint16_t)h[j];
    }
}

/* Bit-sliced: the targets holding each letter are bitsets; the reply of every target to the
 * candidate is the column sum of the bitsets of the candidate's letters, added with full adders
 * on 64 targets at a time (letters absent from S have empty bitsets).  Words of up to five
 * letters go through one five-input adder (missing inputs read an empty row), so nothing
 * branches on the candidate. */
static inline __attribute__((always_inline)) void
counts_bits(const jt_nodework *nw, const uint8_t *letters, uint16_t *out, const int L)
{
    const int nb = nw->nb;
    uint32_t n[JT_MAX_LEN + 1];
    for (int j = 0; j <= L; j++)
        n[j] = 0;
    if (L <= 5) {
        const uint64_t *x[5];
        for (int i = 0; i < 5; i++)
            x[i] = nw->bits + (size_t)(i < L ? letters[i] : 26) * nb;
        uint32_t n1 = 0, n2 = 0, n3 = 0, n4 = 0, n5 = 0;
        for (int b = 0; b < nb; b++) {
            uint64_t a = x[0][b], c = x[1][b], d = x[2][b], e = x[3][b], f = x[4][b];
            uint64_t ac = a ^ c, s1 = ac ^ d, c1 = (a & c) | (d & ac);
            uint64_t se = s1 ^ e, b0 = se ^ f, c2 = (s1 & e) | (f & se);
            uint64_t t = c1 ^ c2, u = c1 & c2;
            /* reply = b0 + 2t + 4u, with t = 0 whenever u = 1 */
            uint32_t p5 = jt_popcount64(u & b0), p3 = jt_popcount64(t & b0);
            n5 += p5;
            n4 += jt_popcount64(u) - p5;
            n3 += p3;
            n2 += jt_popcount64(t) - p3;
            n1 += jt_popcount64(b0) - p3 - p5;
        }
        const uint32_t all[6] = {0, n1, n2, n3, n4, n5};
        for (int v = 1; v <= L; v++)
            n[v] = all[v];
    } else {
        int planes = 0; /* ripple-carry into as many bit planes as L needs */
        while ((1 << planes) <= L)
            planes++;
        for (int b = 0; b < nb; b++) {
            uint64_t p[5] = {0, 0, 0, 0, 0};
            for (int i = 0; i < L; i++) {
                uint64_t carry = nw->bits[(size_t)letters[i] * nb + b];
                for (int q = 0; q < planes && carry; q++) {
                    uint64_t t = p[q] & carry;
                    p[q] ^= carry;
                    carry = t;
                }
            }
            for (int v = 1; v <= L; v++) {
                uint64_t sel = ~(uint64_t)0;
                for (int q = 0; q < planes; q++)
                    sel &= ((v >> q) & 1) ? p[q] : ~p[q];
                n[v] += jt_popcount64(sel);
            }
        }
    }
    /* Bits past m in the last block are zero in every bitset, so they land in reply 0; reply 0
     * is what is left over. */
    uint32_t rest = (uint32_t)nw->node->m;
    for (int v = 1; v <= L; v++)
        rest -= n[v];
    out[0] = (uint16_t)rest;
    for (int v = 1; v <= L; v++)
        out[v] = (uint16_t)n[v];
}

/* Inclusion-exclusion: E_s = sum over the candidate's s-letter subsets T of #{i in S : T in i};
 * then n_j = sum_s (-1)^(s-j) C(s,j) E_s.  E_0 = |S|, E_L = [candidate in S] (no two words share a
 * letter set).  Wrapping unsigned arithmetic is exact because every n_j lies in [0, |S|].  Inlined
 * with a constant L, the sums unroll and the coefficients fold. */
static inline __attribute__((always_inline)) void
counts_table(const jt_nodework *nw, int32_t r, uint16_t *out, const int L)
{
    const jt_words *w = nw->w;
    const int32_t *sr = w->subrank + (size_t)r * w->nsub;
    uint64_t E[JT_TABLE_MAXL + 1];
    E[0] = (uint64_t)nw->node->m;
    E[L] = nw->in_s[r];
    int32_t t = 0;
    for (int s = 1; s < L; s++) {
        uint64_t acc = 0;
        int32_t nsz = 1; /* C(L, s) */
        for (int i = 0; i < s; i++)
            nsz = nsz * (L - i) / (i + 1);
        for (int32_t k = 0; k < nsz; k++)
            acc += nw->table[sr[t++]];
        E[s] = acc;
    }
    for (int j = 0; j <= L; j++) {
        uint64_t nj = 0;
        int64_t c = 1; /* (-1)^(s-j) C(s, j) */
        for (int s = j; s <= L; s++) {
            nj += (uint64_t)c * E[s];
            c = -c * (s + 1) / (s + 1 - j);
        }
        out[j] = (uint16_t)nj;
    }
}

/* q = sum_i v_i n_{reply(c,i)} = vmin * sum_j n_j^2 + the excess of the heavier targets. */
static inline __attribute__((always_inline)) uint64_t
weigh(const jt_nodework *nw, uint32_t cm, const uint16_t *out, const int L)
{
    uint64_t squares = 0;
    for (int j = 0; j <= L; j++)
        squares += (uint64_t)out[j] * out[j];
    uint64_t q = nw->vmin * squares;
    for (int32_t k = 0; k < nw->nspec; k++)
        q += nw->spec_delta[k] * out[jt_popcount32(cm & nw->spec_mask[k])];
    return q;
}

static inline __attribute__((always_inline)) void
evaluate_len(const jt_nodework *nw, int32_t c0, int32_t c1, const int L)
{
    const jt_words *w = nw->w;
    jt_node *nd = nw->node;
    for (int32_t c = c0; c < c1; c++) {
        const int32_t r = nd->rep[c];
        const uint32_t cm = w->mask[r];
        uint16_t *out = nd->cnt + (size_t)c * (L + 1);
        if (L <= JT_TABLE_MAXL && nw->method == JT_M_TABLE)
            counts_table(nw, r, out, L <= JT_TABLE_MAXL ? L : 2);
        else if (nw->method == JT_M_BITS)
            counts_bits(nw, w->letters + (size_t)r * L, out, L);
        else
            counts_direct(cm, nw->sm, nd->m, out, L);
        nd->q[c] = weigh(nw, cm, out, L);
    }
}

/* ---- the kernels --------------------------------------------------------------------------- */

static void prepare(jt_nodework *nw)
{
    const jt_words *w = nw->w;
    const jt_node *nd = nw->node;
    if (nw->method == JT_M_BITS) {
        for (int32_t k = 0; k < nd->m; k++) {
            const uint8_t *lt = w->letters + (size_t)nd->S[k] * w->L;
            uint64_t bit = (uint64_t)1 << (k & 63);
            for (int i = 0; i < w->L; i++)
                nw->bits[(size_t)lt[i] * nw->nb + (k >> 6)] |= bit;
        }
    } else if (nw->method == JT_M_TABLE) {
        for (int32_t k = 0; k < nd->m; k++) {
            const int32_t *sr = w->subrank + (size_t)nd->S[k] * w->nsub;
            for (int32_t t = 0; t < w->nsub; t++)
                nw->table[sr[t]]++;
        }
    }
}

static void evaluate(const jt_nodework *nw, int32_t c0, int32_t c1)
{
    switch (nw->w->L) {
    case 2: evaluate_len(nw, c0, c1, 2); break;
    case 3: evaluate_len(nw, c0, c1, 3); break;
    case 4: evaluate_len(nw, c0, c1, 4); break;
    case 5: evaluate_len(nw, c0, c1, 5); break;
    case 6: evaluate_len(nw, c0, c1, 6); break;
    default: evaluate_len(nw, c0, c1, nw->w->L); break;
    }
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
        int r = jt_popcount32(cm & sm[k]);
        acc[r] += hs[k];
        n[r]++;
    }
    double e = 0.0; /* ExpNumElims: sum over j in order */
    for (int j = 0; j <= L; j++)
        e += (acc[j] / total) * (double)(m - n[j]);
    return e;
}

/* Slots hold gen << 26 | key (keys are letter masks), so a new call needs no clearing until the
 * 6-bit generation wraps; a table of 2n 32-bit slots stays in L1 for n up to 4096.  Whether a
 * candidate opens a new group is data, not control flow (the outcome is unpredictable); only a
 * collision, rare at this load, takes a branch.  A candidate with no letter in `vary` falls into
 * the group of key 0, dropped at the end (one reply class: no information). */
static int32_t group(const uint32_t *mask, const int32_t *rep, int32_t n, uint32_t vary,
                     const int32_t *S, int32_t m, int32_t *out_rep, int32_t *out_smem,
                     jt_hash *ht)
{
    int lg = 4;
    while ((1 << lg) < 2 * n && (1 << lg) < ht->size)
        lg++;
    const uint32_t hm = (1u << lg) - 1;
    if (++ht->gen == 64) {
        memset(ht->slot, 0, sizeof(uint32_t) * ht->size);
        ht->gen = 1;
    }
    const uint32_t live = ht->gen << 26;
    uint32_t *slot = ht->slot;
    int32_t *vals = ht->vals;
    int32_t g = 0, zero = -1;
    for (int32_t i = 0; i < n; i++) {
        const uint32_t p = mask[rep[i]] & vary, want = live | p;
        uint32_t h = (uint32_t)((p * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - lg));
        uint32_t s = slot[h];
        if (__builtin_expect((s & ~((1u << 26) - 1)) == live && s != want, 0)) {
            do {
                h = (h + 1) & hm;
                s = slot[h];
            } while ((s & ~((1u << 26) - 1)) == live && s != want);
        }
        const int fresh = s != want;
        slot[h] = want;
        vals[h] = fresh ? g : vals[h];
        zero = (fresh && p == 0) ? g : zero;
        out_rep[g] = rep[i];
        g += fresh;
    }
    for (int32_t j = 0; j < g; j++)
        out_smem[j] = -1;
    /* Distinct words of S differ within `vary`, so each group holds at most one of them. */
    for (int32_t k = 0; k < m; k++) {
        const uint32_t p = mask[S[k]] & vary, want = live | p;
        uint32_t h = (uint32_t)((p * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - lg));
        while (slot[h] != want)
            h = (h + 1) & hm;
        out_smem[vals[h]] = S[k];
    }
    if (zero >= 0) {
        memmove(out_rep + zero, out_rep + zero + 1, sizeof(int32_t) * (g - zero - 1));
        memmove(out_smem + zero, out_smem + zero + 1, sizeof(int32_t) * (g - zero - 1));
        g--;
    }
    return g;
}

static const jt_kernels KERNELS = {
    .name = JT_STR(JT_KERNEL_SUFFIX),
    .prepare = prepare,
    .evaluate = evaluate,
    .exp_num_elims = exp_num_elims,
    .group = group,
};

const jt_kernels *JT_CAT(jt_kernels_, JT_KERNEL_SUFFIX)(void) { return &KERNELS; }
