/* search_split.c -- the levels of a best-response search (the scratch of one depth of the
 * recursion) and splitting a state by every word worth trying: class sizes, weights, keys and
 * bounds per word, the words in greedy order, one per distinct split. */
#include <stdlib.h>

#include "search_internal.h"

void bs_level_free(level *lv)
{
    if (!lv)
        return;
    free(lv->sm);
    free(lv->lbits);
    free(lv->st);
    free(lv->ssp);
    free(lv->sv);
    free(lv->sz);
    free(lv->in_s);
    free(lv->prog);
    free(lv->cnt);
    free(lv->cw);
    free(lv->cmax);
    free(lv->cmin);
    free(lv->lbc);
    free(lv->hz);
    free(lv->lb);
    free(lv->q);
    free(lv->list);
    free(lv->cls);
    free(lv->defer);
    free(lv->dkey);
    free(lv->dval);
    free(lv->cid);
    free(lv->pkey);
    free(lv->gtok);
    free(lv->gsp);
    free(lv->gstamp);
    free(lv->dstamp);
    free(lv->skey);
    free(lv->tmp);
    free(lv->fh_key);
    free(lv->fh_cnt);
    free(lv->fh_head);
    free(lv->fh_stamp);
    free(lv->fh_used);
    free(lv->fl_member);
    free(lv->fl_next);
    free(lv->fam_taken);
    free(lv->fam_p);
    free(lv->fam_x);
    free(lv->fs);
    free(lv);
}

static level *get_level(const jt_bsearch *s, worker *w, int32_t depth)
{
    if (w->lv[depth])
        return w->lv[depth];
    const size_t D = (size_t)s->D, DR = D * (size_t)s->R;
    level *lv = calloc(1, sizeof(level));
    if (!lv)
        return NULL;
    int32_t dcap = 16;
    while (dcap < 2 * s->D)
        dcap *= 2;
    lv->dcap = dcap;
    lv->sm = malloc(D * sizeof(uint32_t));
    lv->lbits = malloc(27 * ((D + 63) / 64) * sizeof(uint64_t));
    lv->st = malloc(D * sizeof(uint64_t));
    lv->ssp = malloc(D * sizeof(uint64_t));
    lv->sv = malloc(D * sizeof(uint64_t));
    lv->sz = malloc(D * sizeof(uint64_t));
    lv->in_s = calloc(D, 1);
    lv->prog = malloc(D);
    lv->cnt = malloc(DR * sizeof(uint32_t));
    lv->cw = malloc(DR * sizeof(uint64_t));
    lv->cmax = malloc(DR * sizeof(uint64_t));
    lv->cmin = malloc(DR * sizeof(uint64_t));
    lv->lbc = malloc(DR * sizeof(uint64_t));
    lv->hz = malloc(DR * sizeof(uint64_t));
    lv->lb = malloc(D * sizeof(uint64_t));
    lv->q = malloc(D * sizeof(uint64_t));
    lv->list = malloc(D * sizeof(cand));
    lv->cls = malloc(D * sizeof(int32_t));
    lv->defer = malloc(D * sizeof(int32_t));
    lv->dkey = malloc((size_t)dcap * sizeof(uint64_t));
    lv->dval = malloc((size_t)dcap * sizeof(int32_t));
    lv->cid = malloc(D * sizeof(int32_t));
    lv->pkey = calloc((size_t)dcap, sizeof(uint64_t));
    lv->gtok = malloc((size_t)dcap * sizeof(uint64_t));
    lv->gsp = malloc((size_t)dcap * sizeof(uint64_t));
    lv->gstamp = calloc((size_t)dcap, sizeof(uint32_t));
    lv->dstamp = calloc((size_t)dcap, sizeof(uint32_t));
    lv->skey = malloc(D * sizeof(unsigned __int128));
    lv->tmp = malloc(D * sizeof(cand));
    const size_t LD = D * (size_t)s->L;
    int32_t fcap = 16;
    while ((size_t)fcap < 2 * LD)
        fcap *= 2;
    lv->fh_cap = fcap;
    lv->fh_key = malloc((size_t)fcap * sizeof(uint32_t));
    lv->fh_cnt = malloc((size_t)fcap * sizeof(int32_t));
    lv->fh_head = malloc((size_t)fcap * sizeof(int32_t));
    lv->fh_stamp = calloc((size_t)fcap, sizeof(uint32_t));
    lv->fh_used = malloc(LD * sizeof(int32_t));
    lv->fl_member = malloc(LD * sizeof(int32_t));
    lv->fl_next = malloc(LD * sizeof(int32_t));
    lv->fam_taken = malloc(D);
    lv->fam_p = malloc(D * sizeof(uint32_t));
    lv->fam_x = malloc(D * sizeof(uint32_t));
    lv->fs = malloc(sizeof(fsplit));
    if (!lv->sm || !lv->lbits || !lv->sv || !lv->sz || !lv->in_s || !lv->prog || !lv->cnt || !lv->cw ||
        !lv->cmax || !lv->cmin || !lv->lbc || !lv->hz || !lv->lb || !lv->q || !lv->list ||
        !lv->cls || !lv->defer || !lv->dkey || !lv->dval || !lv->cid || !lv->pkey || !lv->st || !lv->ssp ||
        !lv->gtok || !lv->gsp || !lv->gstamp ||
        !lv->dstamp || !lv->skey || !lv->tmp || !lv->fh_key || !lv->fh_cnt ||
        !lv->fh_head || !lv->fh_stamp || !lv->fh_used || !lv->fl_member || !lv->fl_next ||
        !lv->fam_taken || !lv->fam_p || !lv->fam_x || !lv->fs) {
        bs_level_free(lv);
        return NULL;
    }
    w->lv[depth] = lv;
    return lv;
}

/* ---- splitting a state by every word ------------------------------------------------------- */

/* Class sizes of every word over the m targets of S, counted in a 64-bit word of R packed
 * fields of b bits (flushed before a field can overflow) when R <= 16. */
static inline __attribute__((always_inline)) void
count_sizes_body(const jt_bsearch *s, level *lv, int32_t m, const int gen)
{
    const int R = s->R;
    const int packed = R <= 16;
    const int b = packed ? 64 / R : 0;
    const uint64_t F = packed ? ((uint64_t)1 << b) - 1 : 0;
    uint64_t one[MAXR];
    for (int r = 0; packed && r < R; r++)
        one[r] = (uint64_t)1 << (b * r);
    const int32_t step = (int32_t)(F < 65535 ? F : 65535);
    for (int32_t t = 0; t < lv->nc; t++) {
        const int32_t c = lv->cid[t];
        WORD_OF(s, gen, c);
        uint32_t *n = lv->cnt + (size_t)c * R;
        for (int r = 0; r < R; r++)
            n[r] = 0;
        if (!packed) {
            for (int32_t k = 0; k < m; k++)
                n[REPLY_K(s, lv, gen, c, cm, ct, cs, k)]++;
            continue;
        }
        for (int32_t k0 = 0; k0 < m; k0 += step) {
            const int32_t k1 = m - k0 < step ? m : k0 + step;
            /* two sums, so that consecutive targets do not wait on each other's add */
            uint64_t acc = 0, acc2 = 0;
            int32_t k = k0;
            for (; k + 1 < k1; k += 2) {
                acc += one[REPLY_K(s, lv, gen, c, cm, ct, cs, k)];
                acc2 += one[REPLY_K(s, lv, gen, c, cm, ct, cs, k + 1)];
            }
            if (k < k1)
                acc += one[REPLY_K(s, lv, gen, c, cm, ct, cs, k)];
            acc += acc2;
            for (int r = 0; r < R; r++)
                n[r] += (uint32_t)((acc >> (b * r)) & F);
        }
    }
}

/* Paper words (of at most 7 letters): class sizes bit-sliced.  A paper word's reply from
 * target t is the number of its letters t holds, so with B_l the set of S's targets holding
 * letter l (lv->lbits, 64 targets a word; a 27th row of zeros stands for a letter no target
 * holds), word c's class of reply r is the set of targets in exactly r of the B_l of c's
 * letters: its letters' sets are summed bit by bit into three planes (a reply is at most
 * L <= 7), and class r is the targets whose planes spell r; class 0 is what the others
 * leave.  About 30 operations per 64 targets at 3 letters where the count target by target
 * takes four per target (docs/certified-strength.md has the passes' CPU), and as little in
 * states of a few targets.  With unequal weights (`weighted`) each class's weight, heaviest
 * and lightest target are taken from its targets' bits too, one class at a time.  L is a
 * constant where BY_LENGTH makes it one, so the loops unroll. */
static inline __attribute__((always_inline)) void
count_sizes_sliced(const jt_bsearch *s, level *lv, int32_t m, const int weighted, const int L)
{
    const int R = s->R;
    const int32_t nb = (m + 63) / 64;
    uint64_t *lb = lv->lbits;
    memset(lb, 0, sizeof(uint64_t) * 27 * (size_t)nb);
    for (int32_t k = 0; k < m; k++)
        for (uint32_t u = lv->sm[k]; u; u &= u - 1)
            lb[(size_t)__builtin_ctz(u) * (size_t)nb + (size_t)(k >> 6)] |= (uint64_t)1 << (k & 63);
    const uint64_t *zero = lb + 26 * (size_t)nb;
    for (int32_t t = 0; t < lv->nc; t++) {
        const int32_t c = lv->cid[t];
        const uint64_t *B[7];
        uint32_t u = s->mask[c];
        for (int l = 0; l < L; l++) {
            B[l] = u ? lb + (size_t)__builtin_ctz(u) * (size_t)nb : zero;
            u &= u - 1;
        }
        uint32_t n8[8] = {0};
        uint64_t w8[8] = {0}, mx8[8] = {0}, mn8[8];
        for (int r = 0; r < 8; r++)
            mn8[r] = INF;
        for (int32_t i = 0; i < nb; i++) {
            uint64_t p0 = 0, p1 = 0, p2 = 0;
            for (int l = 0; l < L; l++) {
                const uint64_t x = B[l][i], c0 = p0 & x, c1 = p1 & c0;
                p0 ^= x;
                p1 ^= c0;
                p2 |= c1;
            }
            for (int r = weighted ? 0 : 1; r <= L; r++) {
                uint64_t in = (r & 1 ? p0 : ~p0) & (r & 2 ? p1 : ~p1) & (r & 4 ? p2 : ~p2);
                if (r == 0 && i == nb - 1 && (m & 63))
                    in &= ((uint64_t)1 << (m & 63)) - 1; /* the last word's targets only */
                if (r > 0)
                    n8[r] += (uint32_t)pc64(in);
                /* a class's weight and extremes one class at a time, in registers */
                for (; weighted && in; in &= in - 1) {
                    const uint64_t x = lv->sv[(size_t)i * 64 + (size_t)__builtin_ctzll(in)];
                    w8[r] += x;
                    mx8[r] = x > mx8[r] ? x : mx8[r];
                    mn8[r] = x < mn8[r] ? x : mn8[r];
                }
            }
        }
        uint32_t *n = lv->cnt + (size_t)c * R;
        uint32_t rest = (uint32_t)m;
        for (int r = 1; r < R; r++) {
            n[r] = r <= L ? n8[r] : 0;
            rest -= n[r];
        }
        n[0] = rest;
        if (weighted) {
            uint64_t *w = lv->cw + (size_t)c * R, *mx = lv->cmax + (size_t)c * R;
            uint64_t *mn = lv->cmin + (size_t)c * R;
            for (int r = 0; r < R; r++) {
                w[r] = r <= L ? w8[r] : 0;
                mx[r] = r <= L ? mx8[r] : 0;
                mn[r] = r <= L ? mn8[r] : INF;
            }
        }
    }
}

/* Class sizes of every distinct word (lv->cid) into lv->cnt, and with unequal weights
 * (`weighted`) where the count is bit-sliced their weights and extremes too; returns whether it
 * made those. */
POPCNT_CLONES
static int count_sizes(const jt_bsearch *s, level *lv, int32_t m, int weighted)
{
    if (s->gen != 0 || s->L > 7) {
        BY_GEN(s, count_sizes_body, s, lv, m);
        return 0;
    }
    if (weighted)
        BY_LENGTH(s->L, count_sizes_sliced, s, lv, m, 1);
    else
        BY_LENGTH(s->L, count_sizes_sliced, s, lv, m, 0);
    return weighted;
}

/* Class weights, heaviest and lightest targets of every word (non-uniform weights). */
static inline __attribute__((always_inline)) void class_weights_body(const jt_bsearch *s,
                                                                    level *lv, int32_t m,
                                                                    const int gen)
{
    const int R = s->R;
    for (int32_t t = 0; t < lv->nc; t++) {
        const int32_t c = lv->cid[t];
        WORD_OF(s, gen, c);
        uint64_t *w = lv->cw + (size_t)c * R, *mx = lv->cmax + (size_t)c * R;
        uint64_t *mn = lv->cmin + (size_t)c * R;
        for (int r = 0; r < R; r++) {
            w[r] = 0;
            mx[r] = 0;
            mn[r] = INF;
        }
        for (int32_t k = 0; k < m; k++) {
            const int r = REPLY_K(s, lv, gen, c, cm, ct, cs, k);
            const uint64_t x = lv->sv[k];
            w[r] += x;
            mx[r] = x > mx[r] ? x : mx[r];
            mn[r] = x < mn[r] ? x : mn[r];
        }
    }
}

POPCNT_CLONES
static void class_weights(const jt_bsearch *s, level *lv, int32_t m)
{
    BY_GEN(s, class_weights_body, s, lv, m);
}

/* The words worth splitting S by: a word's replies from S depend only on its letters within
 * U, the union of S's letters, so of the words with the same letters within U only the first
 * (lowest index) is kept; words sharing no letter with U do not narrow S down.  A state inside
 * another (a reply class) needs only the words its parent kept, base[0..nbase), increasing:
 * words alike within the parent's letters are alike within its own, and each kept word is the
 * first of its kind. */
static void distinct_words_paper(const jt_bsearch *s, level *lv, int32_t m,
                                 const int32_t *base, int32_t nbase)
{
    uint32_t U = 0;
    for (int32_t k = 0; k < m; k++)
        U |= lv->sm[k];
    const uint32_t mask = (uint32_t)lv->dcap - 1;
    const uint64_t stamp = (uint64_t)++lv->stamp << 32;
    lv->nc = 0;
    for (int32_t t = 0; t < nbase; t++) {
        const int32_t c = base ? base[t] : t;
        const uint32_t p = s->mask[c] & U;
        if (!p)
            continue;
        uint32_t h = (uint32_t)((p * 0x9E3779B97F4A7C15ull) >> 40) & mask;
        while ((lv->pkey[h] >> 32 << 32) == stamp && (uint32_t)lv->pkey[h] != p)
            h = (h + 1) & mask;
        if ((lv->pkey[h] >> 32 << 32) == stamp)
            continue;
        lv->pkey[h] = stamp | p;
        lv->cid[lv->nc++] = c;
    }
}

/* The same for tokens and spellings.  A non-member's replies from S depend on its tokens within
 * U and, with positional replies, on its letters at the positions where some target of S has
 * the same letter; members are always kept (a member wins on itself, so no other word splits S
 * as it does).  Words kept by the parent as alike within its state are non-members there, so
 * they are alike within the class too. */
static void distinct_words_general(const jt_bsearch *s, level *lv, int32_t m,
                                   const int32_t *base, int32_t nbase)
{
    uint64_t U = 0;
    uint32_t at[8] = {0};  /* letters (bit l-1 for letter l) at each position among S */
    for (int32_t k = 0; k < m; k++) {
        U |= lv->st[k];
        if (s->positional)
            for (int p = 0; p < s->L; p++)
                at[p] |= 1u << (((lv->ssp[k] >> (8 * p)) & 0xFF) - 1);
    }
    const uint32_t mask = (uint32_t)lv->dcap - 1;
    const uint32_t stamp = ++lv->stamp;
    lv->nc = 0;
    for (int32_t t = 0; t < nbase; t++) {
        const int32_t c = base ? base[t] : t;
        if (lv->in_s[c]) {
            lv->cid[lv->nc++] = c;
            continue;
        }
        const uint64_t p = s->tok[c] & U;
        uint64_t sp = 0;
        if (s->positional)
            for (int q = 0; q < s->L; q++) {
                const uint64_t l = (s->spell[c] >> (8 * q)) & 0xFF;
                if ((at[q] >> (l - 1)) & 1)
                    sp |= l << (8 * q);
            }
        if (!p && !sp)
            continue;
        uint32_t h = (uint32_t)(((p ^ mix(sp)) * 0x9E3779B97F4A7C15ull) >> 40) & mask;
        while (lv->gstamp[h] == stamp && (lv->gtok[h] != p || lv->gsp[h] != sp))
            h = (h + 1) & mask;
        if (lv->gstamp[h] == stamp)
            continue;
        lv->gstamp[h] = stamp;
        lv->gtok[h] = p;
        lv->gsp[h] = sp;
        lv->cid[lv->nc++] = c;
    }
}

/* The candidate guesses of S: in hard mode its members, else the words of distinct splits. */
static void distinct_words(const jt_bsearch *s, level *lv, int32_t m, const int32_t *base,
                           int32_t nbase)
{
    if (s->hard) {
        memcpy(lv->cid, lv->S, sizeof(int32_t) * (size_t)m);
        lv->nc = m;
    } else if (s->gen == 0) {
        distinct_words_paper(s, lv, m, base, nbase);
    } else {
        distinct_words_general(s, lv, m, base, nbase);
    }
}

/* lb, q and progress of every distinct word with equal weights, R codes and the win V (each a
 * constant where the caller makes it one, so the loop over codes unrolls).  A class narrows S
 * down if it holds from 1 to m - 1 targets: n - 1 < m - 1 unsigned, without a branch. */
static inline __attribute__((always_inline)) void
uniform_summaries(const jt_bsearch *s, level *lv, int32_t m, uint64_t W, const int R, const int V)
{
    const uint64_t u = lv->sv[0];
    for (int32_t t = 0; t < lv->nc; t++) {
        const int32_t c = lv->cid[t];
        const uint32_t *n = lv->cnt + (size_t)c * R;
        int progress = n[V] > 0;
        uint64_t b = 0, sq = 0;
        for (int r = 0; r < R; r = NONWIN_NEXT(V, r)) {
            progress |= n[r] - 1 < (uint32_t)m - 1;
            b += s->cb[n[r]];
            sq += (uint64_t)n[r] * n[r];
        }
        lv->prog[c] = (uint8_t)progress;
        lv->lb[c] = W + u * b;
        lv->q[c] = u * (sq + (uint64_t)n[V] * n[V]);
    }
}

/* uniform_summaries for paper words of L letters: replies 0..L, the win L. */
static inline __attribute__((always_inline)) void
paper_summaries(const jt_bsearch *s, level *lv, int32_t m, uint64_t W, const int L)
{
    uniform_summaries(s, lv, m, W, L + 1, L);
}

/* Split S (in lv) by the distinct words: class sizes (and weights), whether the word narrows S
 * down, the greedy metric q and the bound lb of every word. */
static void split_all(const jt_bsearch *s, level *lv, int32_t m, uint64_t W, int uniform,
                      const int32_t *base, int32_t nbase)
{
    const int R = s->R, V = s->win;  /* the win; the other codes of 0..R-1 do not win */
    distinct_words(s, lv, m, base, nbase);
    if (!count_sizes(s, lv, m, !uniform) && !uniform)
        class_weights(s, lv, m);
    if (uniform) {
        if (s->gen == 0 && R == s->L + 1 && V == s->L)
            BY_LENGTH(s->L, paper_summaries, s, lv, m, W); /* codes 0..L, the win L */
        else
            uniform_summaries(s, lv, m, W, R, V);
        return;
    }
    for (int32_t t = 0; t < lv->nc; t++) {
        const int32_t c = lv->cid[t];
        const uint32_t *n = lv->cnt + (size_t)c * R;
        const uint64_t *w = lv->cw + (size_t)c * R;
        int progress = n[V] > 0;
        uint64_t lb = W, q = 0;
        for (int r = 0; r < R; r = NONWIN_NEXT(V, r)) {
            progress |= n[r] - 1 < (uint32_t)m - 1;
            lb += count_bound(s, n[r], w[r], lv->cmax[(size_t)c * R + r],
                              lv->cmin[(size_t)c * R + r]);
            q += (uint64_t)n[r] * w[r];
        }
        q += (uint64_t)n[V] * w[V];
        lv->prog[c] = (uint8_t)progress;
        lv->lb[c] = lb;
        lv->q[c] = q;
    }
}

static inline __attribute__((always_inline)) void class_keys_body(const jt_bsearch *s, level *lv,
                                                                 int32_t m, int32_t c,
                                                                 const int gen)
{
    const int R = s->R;
    WORD_OF(s, gen, c);
    uint64_t *h = lv->hz + (size_t)c * R;
    for (int r = 0; r < R; r++)
        h[r] = 0;
    for (int32_t k = 0; k < m; k++)
        h[REPLY_K(s, lv, gen, c, cm, ct, cs, k)] += lv->sz[k];
}

POPCNT_CLONES
static void class_keys(const jt_bsearch *s, level *lv, int32_t m, int32_t c)
{
    BY_GEN(s, class_keys_body, s, lv, m, c);
}

/* A key of the split of S by word c: the same for words splitting S into the same classes (the
 * winning class marked apart). */
static uint64_t split_key(const jt_bsearch *s, const level *lv, int32_t c)
{
    const int V = s->win, R = s->R;
    const uint64_t *h = lv->hz + (size_t)c * R;
    const uint32_t *n = lv->cnt + (size_t)c * R;
    uint64_t key = n[V] ? mix(h[V] ^ 0x5bd1e995u) : 0;
    for (int r = 0; r < R; r = NONWIN_NEXT(V, r))
        if (n[r])
            key += mix(h[r]);
    return key;
}

/* Whether words a and b split S into the same classes. */
static inline __attribute__((always_inline)) int same_split_body(const jt_bsearch *s,
                                                                const level *lv, int32_t m,
                                                                int32_t a, int32_t b,
                                                                const int gen)
{
    int8_t fwd[MAXR], bwd[MAXR];
    memset(fwd, -1, sizeof fwd);
    memset(bwd, -1, sizeof bwd);
    const uint32_t ma = gen == 0 ? s->mask[a] : 0, mb = gen == 0 ? s->mask[b] : 0;
    const uint64_t ta = gen == 0 ? 0 : s->tok[a], tb = gen == 0 ? 0 : s->tok[b];
    const uint64_t pa = gen == 2 ? s->spell[a] : 0, pb = gen == 2 ? s->spell[b] : 0;
    const int V = s->win;
    for (int32_t k = 0; k < m; k++) {
        const int ra = REPLY_K(s, lv, gen, a, ma, ta, pa, k);
        const int rb = REPLY_K(s, lv, gen, b, mb, tb, pb, k);
        if ((ra == V) != (rb == V))
            return 0;
        if (fwd[ra] < 0 && bwd[rb] < 0) {
            fwd[ra] = (int8_t)rb;
            bwd[rb] = (int8_t)ra;
        } else if (fwd[ra] != rb || bwd[rb] != ra) {
            return 0;
        }
    }
    return 1;
}

POPCNT_CLONES
static int same_split(const jt_bsearch *s, const level *lv, int32_t m, int32_t a, int32_t b)
{
    if (s->gen == 0)
        return same_split_body(s, lv, m, a, b, 0);
    if (s->gen == 1)
        return same_split_body(s, lv, m, a, b, 1);
    return same_split_body(s, lv, m, a, b, 2);
}

/* Sort keys ascending (quicksort, median of three, insertion sort for short runs). */
static void sort_keys(unsigned __int128 *a, int32_t n)
{
    while (n > 16) {
        unsigned __int128 x = a[0], y = a[n / 2], z = a[n - 1];
        const unsigned __int128 piv = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        int32_t i = 0, j = n - 1;
        while (i <= j) {
            while (a[i] < piv)
                i++;
            while (a[j] > piv)
                j--;
            if (i <= j) {
                const unsigned __int128 t = a[i];
                a[i++] = a[j];
                a[j--] = t;
            }
        }
        if (j + 1 < n - i) {
            sort_keys(a, j + 1);
            a += i;
            n -= i;
        } else {
            sort_keys(a + i, n - i);
            n = j + 1;
        }
    }
    for (int32_t i = 1; i < n; i++) {
        const unsigned __int128 t = a[i];
        int32_t j = i;
        for (; j > 0 && a[j - 1] > t; j--)
            a[j] = a[j - 1];
        a[j] = t;
    }
}

/* Sort the list in greedy order: least q, then words of S, then the lowest index (the list is
 * in increasing index order), by one 128-bit key per word: q, then out and the position. */
void bs_sort_list(level *lv, int32_t nl)
{
    for (int32_t i = 0; i < nl; i++)
        lv->skey[i] = (unsigned __int128)lv->list[i].q << 64 |
                      (uint64_t)lv->list[i].out << 23 | (uint64_t)i;
    sort_keys(lv->skey, nl);
    for (int32_t i = 0; i < nl; i++)
        lv->tmp[i] = lv->list[(uint64_t)lv->skey[i] & 0x7fffff];
    memcpy(lv->list, lv->tmp, sizeof(cand) * (size_t)nl);
}

/* Class weights (uniform weights) and counting bounds of word c, for the words tried. */
static void class_bounds(const jt_bsearch *s, level *lv, int32_t c, int uniform)
{
    const int V = s->win, R = s->R;
    const uint32_t *n = lv->cnt + (size_t)c * R;
    uint64_t *w = lv->cw + (size_t)c * R, *lbc = lv->lbc + (size_t)c * R;
    const uint64_t *cmax = lv->cmax + (size_t)c * R, *cmin = lv->cmin + (size_t)c * R;
    const uint64_t u = lv->sv[0];
    for (int r = 0; r < R; r++) {
        if (uniform)
            w[r] = u * n[r];
        if (r != V)
            lbc[r] = uniform ? u * s->cb[n[r]] : count_bound(s, n[r], w[r], cmax[r], cmin[r]);
    }
}

/* Keep the first word of every distinct split in list[0..n) (order kept); returns how many
 * remain, at most keep (0: all).  The class keys and bounds of the words it looks at are made
 * here: with keep > 0 the words after the last kept one never need them. */
int32_t bs_dedupe(const jt_bsearch *s, level *lv, int32_t m, int32_t n, int32_t keep, int uniform)
{
    const uint64_t mask = (uint64_t)lv->dcap - 1;
    const uint32_t stamp = ++lv->stamp;
    int32_t out = 0;
    for (int32_t i = 0; i < n && (!keep || out < keep); i++) {
        const int32_t c = lv->list[i].c;
        class_keys(s, lv, m, c);
        class_bounds(s, lv, c, uniform);
        const uint64_t key = split_key(s, lv, c);
        uint64_t h = key & mask;
        int dup = 0;
        for (; lv->dstamp[h] == stamp; h = (h + 1) & mask)
            if (lv->dkey[h] == key && same_split(s, lv, m, lv->dval[h], c)) {
                dup = 1;
                break;
            }
        if (dup)
            continue;
        lv->dstamp[h] = stamp;
        lv->dkey[h] = key;
        lv->dval[h] = c;
        lv->list[out++] = lv->list[i];
    }
    return out;
}

/* The members of S class after class into lv->cls, class r from fill[r] on. */
static inline __attribute__((always_inline)) void list_classes_body(const jt_bsearch *s,
                                                                   level *lv, int32_t m,
                                                                   int32_t c, int32_t *fill,
                                                                   const int gen)
{
    WORD_OF(s, gen, c);
    for (int32_t k = 0; k < m; k++)
        lv->cls[fill[REPLY_K(s, lv, gen, c, cm, ct, cs, k)]++] = lv->S[k];
}

POPCNT_CLONES
void bs_list_classes(const jt_bsearch *s, level *lv, int32_t m, int32_t c, int32_t *fill)
{
    BY_GEN(s, list_classes_body, s, lv, m, c, fill);
}

/* The candidate of the level (one of lv->cid, split already) that splits S as word g does, or
 * -1 if none does (g does not narrow S down; in hard mode, g is not in S).  Paper words: the
 * candidate with g's letters within S's letters (distinct_words kept one of each). */
int32_t bs_candidate_like(const jt_bsearch *s, const level *lv, int32_t m, int32_t g)
{
    for (int32_t t = 0; t < lv->nc; t++)
        if (lv->cid[t] == g)
            return lv->prog[g] ? g : -1;
    if (s->hard)
        return -1;
    uint32_t U = 0;
    for (int32_t k = 0; s->gen == 0 && k < m; k++)
        U |= lv->sm[k];
    for (int32_t t = 0; t < lv->nc; t++) {
        const int32_t c = lv->cid[t];
        if (s->gen == 0 ? (s->mask[c] & U) == (s->mask[g] & U) : same_split(s, lv, m, c, g))
            return lv->prog[c] ? c : -1;
    }
    return -1;
}

void bs_clear_members(level *lv, const int32_t *S, int32_t m)
{
    for (int32_t k = 0; k < m; k++)
        lv->in_s[S[k]] = 0;
}

/* Thread w's level of depth holding S (its members' masks or tokens, weights, keys,
 * membership), or NULL if memory ran out (then the pass stops). */
level *bs_enter_level(jt_bsearch *s, worker *w, int32_t depth, const int32_t *S, int32_t m)
{
    level *lv = get_level(s, w, depth);
    if (!lv) {
        bs_fail(s, w, JT_ENOMEM);
        return NULL;
    }
    lv->S = S;
    for (int32_t k = 0; k < m; k++) {
        if (s->gen == 0) {
            lv->sm[k] = s->mask[S[k]];
        } else {
            lv->st[k] = s->tok[S[k]];
            lv->ssp[k] = s->gen == 2 ? s->spell[S[k]] : 0;
        }
        lv->sv[k] = s->v[S[k]];
        lv->sz[k] = s->z[S[k]];
        lv->in_s[S[k]] = 1;
    }
    return lv;
}

/* Split the state of thread w's level depth (m targets, weight W) by the words worth trying
 * there: those the parent state kept, or all at the top (split_all).  Returns whether its
 * weights are equal. */
int bs_split_state(const jt_bsearch *s, const worker *w, int32_t depth, level *lv, int32_t m,
                   uint64_t W)
{
    int uniform = 1;
    for (int32_t k = 1; k < m && uniform; k++)
        uniform = lv->sv[k] == lv->sv[0];
    const level *up = depth > 0 ? w->lv[depth - 1] : NULL;
    split_all(s, lv, m, W, uniform, up ? up->cid : NULL, up ? up->nc : s->D);
    return uniform;
}
