/* kernels_common.c -- the kernels' code that does not differ by instruction-set level, compiled
 * once for the baseline instruction set (kernels.h lays the kernel sources out): GENERAL mode's
 * pair-by-pair counts; the
 * tables that weighted small nodes' sweeps look up (units' digits, pair weights, ranks); and the
 * paper rule's ExpNumElims.  The functions whose loops compute
 * replies are cloned for the popcnt instruction (popcnt_clones.h), which gcc also gives the
 * bit-twiddling popcount of jt_pc64 and pc in that clone. */
#include <string.h>

#include "kernels.h"
#include "popcnt_clones.h"

/* ---- the tables of weighted small nodes (the sweeps' q_weighted, q_pairs, q_ranks) ---------- */

/* Nibble tables of digits d < nd of the units u_k = delta[k] / g of n targets in chunks of 8,
 * 32 bytes a chunk, digit d's at nib + 32 d nch (nch chunks): lo[x] (hi[x]) sums the digits of
 * the chunk's targets 0-3 (4-7) whose bits x holds, each entry from a smaller one (x without
 * its lowest bit) plus one digit; csum[d nch + k] gets chunk k's sum of digits d (at most 248),
 * usum[d] their sum over all.  delta is sorted (describe()), so a division is made once per
 * distinct excess. */
void jt_unit_tables(const uint64_t *delta, uint64_t g, int32_t n, int nd, uint8_t *nib,
                    uint8_t *csum, uint32_t *usum)
{
    const int32_t nch = (n + 7) / 8;
    uint64_t last = 0, u_last = 0;
    for (int d = 0; d < nd; d++)
        usum[d] = 0;
    for (int32_t h = 0; h < nch * 2; h++) { /* quarter h: targets 4h .. 4h+3 */
        uint64_t u[4];
        for (int b = 0; b < 4; b++) {
            const int32_t k = 4 * h + b;
            if (k < n && delta[k] != last) {
                last = delta[k];
                u_last = last / g;
            }
            u[b] = k < n ? u_last : 0;
        }
        for (int d = 0; d < nd; d++) {
            uint8_t *t = nib + ((size_t)d * nch * 2 + (size_t)h) * 16;
            t[0] = 0;
            for (int x = 1; x < 16; x++)
                t[x] = (uint8_t)(t[x & (x - 1)] + (u[__builtin_ctz((unsigned)x)] >> (5 * d) & 31));
            uint8_t *cs = csum + (size_t)d * nch + (h >> 1);
            *cs = (uint8_t)((h & 1 ? *cs : 0) + t[15]);
            usum[d] += t[15];
        }
    }
}

/* The byte tables of the ev->m <= M <= PAIR_MAX targets in the order of ev->spec_mask (the
 * nspec heavier first), laid out for M targets: tb[b][x] = the sum of v_i + v_i' over the pairs
 * whose bits x sets in byte b, plus their total weight V in byte 0's.  Pairs with a target past
 * ev->m (whose bits compare empty planes) weigh 0, so one layout serves several sizes of S.
 * Entries past a byte's pairs are not written. */
void jt_pair_tables(const jt_eval *ev, int M, uint64_t (*tb)[256])
{
    uint64_t v[PAIR_MAX], pw[8 * PAIR_BYTES], total = 0;
    for (int i = 0; i < ev->m; i++) {
        v[i] = ev->vmin + (i < ev->nspec ? ev->spec_delta[i] : 0);
        total += v[i];
    }
    int npair = 0;
    for (int k = 1; k < M; k++)
        for (int i = 0; i + k < M; i++)
            pw[npair++] = i + k < ev->m ? v[i] + v[i + k] : 0;
    for (int b = 0; 8 * b < npair; b++) {
        const int bits = npair - 8 * b < 8 ? npair - 8 * b : 8;
        tb[b][0] = b ? 0 : total;
        for (int x = 1; x < 1 << bits; x++)
            tb[b][x] = tb[b][x & (x - 1)] + pw[8 * b + __builtin_ctz((unsigned)x)];
    }
}

/* At most JT_RANK_MAX = 4 targets (fewer padded with empty planes, which reply alike among
 * themselves) the pair bits (one byte) take only the patterns of the partitions of 4, listed
 * here (sweeps_small.h's pair_bytes order: (0,1), (1,2), (2,3), (0,2), (1,3), (0,3)), so q takes at most 15
 * values; the kernels give the rank of a candidate's value among them (jt_q16_fits), a byte
 * look-up, where its value takes a table look-up and a 64-bit store, and the pick scans 16-bit
 * ranks 4x faster than 64-bit values. */
static const uint8_t partitions[JT_RANK_VALUES] = {0,  1,  2,  4,  5,  8,  11, 16,
                                                    22, 24, 32, 34, 44, 49, 63};
#define NPARTITIONS 15

/* The rank of each partition's value among them by its pair bits (rank[x], 64 entries), and
 * the values into ev->qval, ascending (equal values share a rank), the rest UINT64_MAX. */
void jt_rank_tables(const jt_eval *ev, uint8_t *rank)
{
    uint64_t tb[PAIR_BYTES][256];
    const int n = NPARTITIONS;
    const uint8_t *pat = partitions;
    jt_pair_tables(ev, JT_RANK_MAX, tb);
    int ord[JT_RANK_VALUES];
    for (int i = 0; i < n; i++) { /* insertion sort by value */
        int j = i;
        for (; j > 0 && tb[0][pat[ord[j - 1]]] > tb[0][pat[i]]; j--)
            ord[j] = ord[j - 1];
        ord[j] = i;
    }
    memset(rank, 0, 64);
    int r = -1;
    for (int i = 0; i < n; i++) {
        const uint64_t x = tb[0][pat[ord[i]]];
        if (r < 0 || ev->qval[r] != x)
            ev->qval[++r] = x;
        rank[pat[ord[i]]] = (uint8_t)r;
    }
    while (++r < JT_RANK_VALUES)
        ev->qval[r] = UINT64_MAX;
}

/* The step g of the heavier targets' excesses (their gcd: each is g times a unit), the sum of
 * their units (*utot), and how many base-32 digits the largest unit has, or 0 if more than
 * MAX_DIGITS.  The excesses are sorted: a gcd step and a division are made once per distinct
 * excess, and the last is the largest. */
int jt_unit_step(const jt_eval *ev, uint64_t *g, uint64_t *utot)
{
    uint64_t total;
    const uint64_t step = jt_excess_step(ev, &total);
    const uint64_t umax = ev->spec_delta[ev->nspec - 1] / step;
    if (umax >> (5 * MAX_DIGITS))
        return 0;
    *g = step;
    *utot = total;
    int nd = 1;
    while (umax >> (5 * nd))
        nd++;
    return nd;
}

/* GENERAL mode: reply codes counted pair by pair, from the targets' tokens (and spellings)
 * gathered by the caller (ev->stok, ev->sspell); each candidate counts the codes of all of S in four banks (so that
 * repeated codes do not wait on each other) as if it were no target itself, and its own reply,
 * counted there as the code its tokens give it, is then moved to the win (jt_code's identity
 * rule; popcount(tokens) may be below L).  Then q = vmin sum_j n_j^2 + the heavier targets'
 * excess times the size of their class. */
static inline __attribute__((always_inline)) void
codes_range(const jt_eval *ev, int32_t c0, int32_t c1, const uint64_t *tt, const uint64_t *st,
            const int positional)
{
    const jt_words *w = ev->w;
    const int R = w->R, L = w->L;
    const int32_t m = ev->m, nc = ev->nc;
    for (int32_t c = c0; c < c1; c++) {
        const int32_t g = ev->cid ? ev->cid[c] : c;
        const uint64_t tg = w->tok[g], sg = positional ? w->spell[g] : 0;
        uint32_t n[JT_MAX_R] = {0};
        if (ev->counted) {
            for (int j = 0; j < R; j++)
                n[j] = ev->cnt[(size_t)j * nc + c];
        } else {
            /* four banks only where S is big enough to pay for summing them */
            const int nb = m >= 64 ? 4 : 1;
            uint32_t bank[4][JT_MAX_R];
            for (int u = 0; u < nb; u++)
                memset(bank[u], 0, sizeof(uint32_t) * (size_t)R);
            int32_t self = 0, k = 0;
            if (nb == 4)
                for (; k + 4 <= m; k += 4)
                    for (int u = 0; u < 4; u++)
                        bank[u][jt_code_values(w, tg, sg, tt[k + u], positional ? st[k + u] : 0,
                                        positional)]++;
            for (; k < m; k++)
                bank[0][jt_code_values(w, tg, sg, tt[k], positional ? st[k] : 0, positional)]++;
            for (k = 0; k < m; k++)
                self += ev->sid[k] == g;
            for (int j = 0; j < R; j++)
                n[j] = nb == 4 ? bank[0][j] + bank[1][j] + bank[2][j] + bank[3][j] : bank[0][j];
            if (!positional && w->keep_all) { /* L letters in common: an anagram, L+1 */
                n[L + 1] = n[L];
                n[L] = 0;
            }
            if (self) { /* its own reply, counted as a pair of two words, is the win */
                const int own = jt_code_values(w, tg, sg, tg, sg, positional);
                n[!positional && w->keep_all && own == L ? L + 1 : own] -= (uint32_t)self;
                n[w->win] += (uint32_t)self;
            }
            for (int j = 0; ev->cnt && j < R; j++)
                ev->cnt[(size_t)j * nc + c] = (uint16_t)n[j];
        }
        if (ev->q)
            ev->q[c] = code_q(ev, g, n);
    }
}

POPCNT_CLONES
void jt_codes_pairs(const jt_eval *ev, int32_t c0, int32_t c1)
{
    if (ev->w->spell)
        codes_range(ev, c0, c1, ev->stok, ev->sspell, 1);
    else
        codes_range(ev, c0, c1, ev->stok, NULL, 0);
}

/* ExpNumElims of words[0..n) (masks in mask) over S, literally: per word, AnswerProbs sums h
 * left to right in dictionary order into each reply's class, then the sum over j in order.
 * Four words go side by side, each with its own sums in its own order, so that their additions
 * (chains through memory when one reply repeats) do not wait on one another. */
POPCNT_CLONES
void jt_exp_num_elims(const uint32_t *mask, const int32_t *words, int32_t n, const uint32_t *sm,
                      const double *hs, int32_t m, int32_t L, double total, double *e)
{
    enum { B = 4 };
    for (int32_t i0 = 0; i0 < n; i0 += B) {
        const int nb = n - i0 < B ? (int)(n - i0) : B;
        uint32_t cm[B];
        double acc[B][JT_MAX_LEN + 1];
        int32_t cnt[B][JT_MAX_LEN + 1];
        for (int b = 0; b < B; b++) {
            cm[b] = b < nb ? mask[words[i0 + b]] : 0; /* padding: every reply 0, unused */
            for (int j = 0; j <= L; j++) {
                acc[b][j] = 0.0;
                cnt[b][j] = 0;
            }
        }
        for (int32_t k = 0; k < m; k++) {
            const uint32_t t = sm[k];
            const double hk = hs[k];
            for (int b = 0; b < B; b++) {
                const uint32_t r = pc(cm[b] & t);
                acc[b][r] += hk;
                cnt[b][r]++;
            }
        }
        for (int b = 0; b < nb; b++) {
            double x = 0.0;
            for (int j = 0; j <= L; j++)
                x += (acc[b][j] / total) * (double)(m - cnt[b][j]);
            e[i0 + b] = x;
        }
    }
}
