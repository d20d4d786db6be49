/* decision_rules.c -- choosing a node's guess from its evaluated candidates: GuesserGBR under
 * the exact rule (least q, ties to words of S, then the lowest index) and the paper rule (the
 * literal IEEE-double formula over the window of words that may be its maximum), the decisions
 * that never depend on the weights, and Norvig's metrics. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/popcnt_clones.h"
#include "tree_internal.h"

/* ---- the paper rule's rounding distance ------------------------------------------------------ */

/* Largest q(c) - min q for which c may still have the largest ExpNumElims when the formula is
 * evaluated in IEEE double with weights h_i = s (v_i + a_i)(1 + r_i), |a_i| <= err_abs,
 * |r_i| <= err_rel.  With p = h/sum h and p' = v/V over S:
 *  - |p - p'|_1 <= tau = 2 err_rel/(1 - err_rel) + 2 err_abs m/(V - err_abs m), and since
 *    ExpNumElims = m - sum_i p_i n_{jt_reply(c,i)}, the exact values under p and p' differ by at most
 *    tau m;
 *  - the literal evaluation (|S| and n_j-term sums, one division, one product, R additions, all
 *    of non-negative terms) has relative error below (2m + L + 3) u, u = 2^-53; gamma doubles it.
 * A candidate beats or ties the exact best b only if its exact value is within 2 (gamma + tau) m
 * of b's, that is q(c) <= q(b) + 2 (gamma + tau) m V.  q is an integer, so the floor of the bound
 * suffices; the factor and the +1 cover the rounding of this computation itself. */
static uint64_t paper_slack(int32_t m, int R, uint64_t V, double err_abs, double err_rel)
{
    if (V == 0)
        return UINT64_MAX;
    const double u = 0x1p-53;
    const double gamma = 2.0 * (2.0 * m + R + 3) * u;
    double tau = 2.0 * err_rel / (1.0 - err_rel);
    if (err_abs > 0) {
        const double d = (double)V - err_abs * m;
        tau += d > 0 ? 2.0 * err_abs * m / d : 2.0;
    }
    if (tau > 2.0)
        tau = 2.0;
    const double s = 2.0 * (gamma + tau) * (double)m * (double)V * 1.0001 + 1.0;
    return s >= 1.8e19 ? UINT64_MAX : (uint64_t)s;
}

/* States of one or two targets: the decision never depends on the weights. */
void jt_decide_tiny(const jt_tree *t, jt_node *nd)
{
    const jt_words *w = t->w;
    nd->fixed = 1;
    if (nd->m == 1 || t->rule != JT_RULE_PAPER || t->candidates != JT_CAND_ALL) {
        /* One target: guess it.  Two: every word of S splits them (q = V, the least possible),
         * so the exact rule and Norvig's (ties to list order) take the first. */
        nd->guess = nd->S[0];
        return;
    }
    /* Paper rule, S = {a, b}: a splitter's ExpNumElims is h_a/H + h_b/H whatever the order of
     * the two terms, a non-splitter's is 0, so GuesserGBR takes the first word that splits. */
    const int32_t a = nd->S[0], b = nd->S[1];
    for (int32_t c = 0; c <= a; c++) {
        if (jt_reply(w, c, a) != jt_reply(w, c, b)) {
            nd->guess = c;
            return;
        }
    }
}

/* Whether word c gives every target of S a reply of its own.  (Inlined into the popcnt clones of
 * its callers: PAPER replies are popcounts.) */
static inline __attribute__((always_inline)) int splits_alone(const jt_words *w, int32_t c,
                                                              const int32_t *S, int32_t m)
{
    uint64_t seen[(JT_MAX_R + 63) / 64] = {0};
    for (int32_t i = 0; i < m; i++) {
        const int r = jt_reply(w, c, S[i]);
        const uint64_t bit = (uint64_t)1 << (r & 63);
        if (seen[r >> 6] & bit)
            return 0;
        seen[r >> 6] |= bit;
    }
    return 1;
}

/* The first word of S (increasing indices) leaving every target alone, or -1. */
static inline __attribute__((always_inline)) int32_t first_alone_in_s(const jt_words *w,
                                                                      const jt_node *nd)
{
    for (int32_t k = 0; k < nd->m; k++)
        if (splits_alone(w, nd->S[k], nd->S, nd->m))
            return nd->S[k];
    return -1;
}

/* Exact rule, positive weights, |S| <= R: a word of S leaving every target alone reaches the
 * least possible q (= V) whatever the weights, and the earliest such word wins the tie-break. */
POPCNT_CLONES
int jt_exact_early_stop(const jt_words *w, jt_node *nd)
{
    const int32_t g = first_alone_in_s(w, nd);
    if (g < 0)
        return 0;
    nd->guess = g;
    nd->fixed = 1;
    return 1;
}

/* Paper rule, every word a candidate, positive weights, every h of S equal, |S| <= R: when some
 * word splits S perfectly the pick is the first word of the list that does (jt_paper_pick has the
 * argument), and if a word of S does, that first one is found by trying the words before it, one
 * reply per target each, without counting every candidate or making a window (most small nodes of
 * a paper-rule tree: the first such word is usually among the first hundred).  The decision holds
 * for h equal over S only, so the node is left dirty: an update decides it again, with a window
 * (while one runs, t->updating, this is not tried). */
POPCNT_CLONES
int jt_paper_early_stop(const jt_tree *t, jt_node *nd, int hones)
{
    const jt_words *w = t->w;
    const int32_t m = nd->m;
    for (int32_t k = 1; k < m && !hones; k++)
        if (t->h[nd->S[k]] != t->h[nd->S[0]])
            return 0;
    const int32_t last = first_alone_in_s(w, nd);
    if (last < 0)
        return 0;
    int32_t c = 0;
    if (w->mode == JT_MODE_PAPER) { /* replies are popcounts, at most L: bits of one word */
        uint32_t sm[JT_MAX_R];
        for (int32_t k = 0; k < m; k++)
            sm[k] = w->mask[nd->S[k]];
        for (; c < last; c++) {
            const uint32_t mc = w->mask[c];
            uint32_t seen = 0, twice = 0;
            for (int32_t k = 0; k < m; k++) {
                const uint32_t bit = (uint32_t)1 << jt_pc64(mc & sm[k]);
                twice |= seen & bit;
                seen |= bit;
            }
            if (!twice)
                break;
        }
    } else {
        while (c < last && !splits_alone(w, c, nd->S, m))
            c++;
    }
    nd->guess = c;
    nd->dirty = 1;
    return 1;
}

int jt_all_h_zero(const jt_tree *t, const jt_node *nd)
{
    for (int32_t k = 0; k < nd->m; k++)
        if (t->h[nd->S[k]] != 0.0)
            return 0;
    return 1;
}

void jt_gather_h(const jt_tree *t, const jt_node *nd, int hones, double *hs)
{
    for (int32_t k = 0; k < nd->m; k++)
        hs[k] = hones ? 1.0 : t->h[nd->S[k]];
}

/* The least q of ev's candidates and (first not NULL) the first candidate where it is, from
 * ev->q or, when the kernels gave it in 16 bits, ev->q16 (jt_q16_value: both orders agree). */
static uint64_t least_q(const jt_eval *ev, int32_t *first)
{
    const jt_kernels *K = jt_kernels_current();
    if (ev->q16)
        return jt_q16_value(ev, K->min_q16(ev->q16, ev->nc, first));
    return K->min_q(ev->q, ev->nc, first);
}

/* Exact rule: the least q, then a word of S, then the lowest index.  Candidates are all words,
 * or (cid, hard mode) the words of S. */
static int32_t exact_pick(const jt_node *nd, const jt_eval *ev)
{
    int32_t first;
    const uint64_t qmin = least_q(ev, &first);
    if (ev->cid)
        return ev->cid[first];
    for (int32_t k = 0; k < nd->m; k++)
        if ((ev->q16 ? jt_q16_value(ev, ev->q16[nd->S[k]]) : ev->q[nd->S[k]]) == qmin)
            return nd->S[k];
    return first;
}

/* Paper rule: the window of words that may be the literal maximum, selected into the scratch
 * (room for every candidate) and kept on the node at its size. */
static int paper_window(const jt_tree *t, jt_node *nd, const jt_eval *ev, uint64_t qmin,
                        uint64_t V, int32_t *sel)
{
    const uint64_t slack = paper_slack(nd->m, t->w->R, V, t->err_abs, t->err_rel);
    const int32_t *cid = ev->cid;
    const int32_t D = cid ? nd->m : t->w->D; /* candidates: the words of S (cid) or all */
    const uint64_t lim = qmin + slack < qmin ? UINT64_MAX : qmin + slack;
    const jt_kernels *K = jt_kernels_current();
    int32_t n;
    if (ev->q16) {
        n = K->select_le16(ev->q16, D, jt_q16_limit(ev, lim), sel);
    } else {
        n = K->select_le(ev->q, D, lim, sel);
    }
    free(nd->win);
    nd->win = malloc(sizeof(int32_t) * (size_t)n);
    if (!nd->win)
        return JT_ENOMEM;
    for (int32_t i = 0; i < n; i++)
        nd->win[i] = cid ? cid[sel[i]] : sel[i];
    nd->nwin = n;
    nd->unique = 0;
    /* updates meet the window again and again (jt_window_unique); a build only once */
    return t->updating ? jt_window_unique(t, nd) : JT_OK;
}

/* The replies of word c to the targets of S, packed `bits` to a reply (per = 64 / bits to a
 * 64-bit word) into key[0..words).  PAPER lists reply by the masks of S, sm, read once for the
 * whole window; other modes by reply codes. */
static inline __attribute__((always_inline)) void
pack_replies(const jt_words *w, const jt_node *nd, const uint32_t *sm, int32_t c, int bits,
             int per, uint64_t *key, int words)
{
    const uint32_t mc = w->mask[c];
    for (int i = 0; i < words; i++) {
        const int32_t k0 = i * per, k1 = k0 + per < nd->m ? k0 + per : nd->m;
        uint64_t x = 0;
        if (w->mode == JT_MODE_PAPER)
            for (int32_t k = k0; k < k1; k++)
                x |= (uint64_t)jt_pc64(mc & sm[k]) << (bits * (k - k0));
        else
            for (int32_t k = k0; k < k1; k++)
                x |= (uint64_t)jt_code(w, c, nd->S[k]) << (bits * (k - k0));
        key[i] = x;
    }
}

/* Paper rule: drop from nd's window every word that gives each target of S the same reply as an
 * earlier word of the window.  The literal ExpNumElims of the two is computed from the same
 * replies in the same order, so it is bit-identical whatever h is, and the pick takes the first
 * maximum: the later word never wins.  A window left with one word no longer depends on h, so
 * updates need not re-decide it while the weights of S stay (and may keep it, jt_memo_keep).
 * Each word's replies are packed into a key, compared whole (an open-addressed table of hashes
 * finds the earlier words with the same key).  Nearly all of this work is at small nodes (a
 * 5-letter paper solve: |S| <= 21, one-word keys, 166 window words of which 6% stay), so keys
 * are compared inline, not by a call.  Cloned for the popcnt instruction (popcnt_clones.h). */
POPCNT_CLONES
int jt_window_unique(const jt_tree *t, jt_node *nd)
{
    const jt_words *w = t->w;
    const int32_t nwin = nd->nwin;
    nd->unique = nwin < 2;
    if (nwin < 2)
        return JT_OK;
    int bits = 1;
    while ((1 << bits) < w->R)
        bits++;
    const int per = 64 / bits;
    const int words = (int)((nd->m + per - 1) / per);
    int32_t slots = 16;
    while (slots < 2 * nwin)
        slots *= 2;
    uint64_t *keys = malloc(sizeof(uint64_t) * (size_t)words * (size_t)nwin);
    int32_t *first = malloc(sizeof(int32_t) * (size_t)slots); /* the earlier word, in keys */
    uint32_t *sm = malloc(sizeof(uint32_t) * (size_t)nd->m);
    if (!keys || !first || !sm) {
        free(keys);
        free(first);
        free(sm);
        return JT_ENOMEM;
    }
    for (int32_t k = 0; k < nd->m; k++)
        sm[k] = w->mask[nd->S[k]];
    for (int32_t i = 0; i < slots; i++)
        first[i] = -1;
    int32_t kept = 0;
    for (int32_t i = 0; i < nwin; i++) {
        const int32_t c = nd->win[i];
        uint64_t *key = keys + (size_t)kept * words; /* the next free row */
        pack_replies(w, nd, sm, c, bits, per, key, words);
        uint64_t h = 0;
        for (int j = 0; j < words; j++)
            h = (h ^ key[j]) * UINT64_C(0x9e3779b97f4a7c15);
        for (int32_t slot = (int32_t)(h >> 40) & (slots - 1);; slot = (slot + 1) & (slots - 1)) {
            if (first[slot] < 0) { /* a new way of replying: c stays */
                first[slot] = kept;
                nd->win[kept++] = c; /* kept <= i: only words already read are overwritten */
                break;
            }
            const uint64_t *other = keys + (size_t)first[slot] * words;
            int j = 0;
            while (j < words && other[j] == key[j])
                j++;
            if (j == words)
                break; /* an earlier word replies the same to all of S */
        }
    }
    nd->nwin = kept;
    nd->unique = 1;
    free(keys);
    free(first);
    free(sm);
    return JT_OK;
}

/* The paper rule's pick when every target of S weighs the same: the first word of the window
 * with the largest sum of term[n_j] over j in order.  A block of words is summed side by side,
 * code by code, so the additions of different words do not wait on one another; each word's
 * sum still runs over j in order, bit-identical to summing it alone.  (Skipping words whose
 * class sizes an earlier word had, found by hashing them, cost more than summing them: 2-3% of
 * a uniform paper-rule tree on v3.) */
static int32_t pick_uniform(const jt_node *nd, const jt_scratch *s, int R)
{
    enum { B = 256 };
    const int32_t nwin = nd->nwin;
    int32_t best = -1;
    double be = 0.0;
    for (int32_t i0 = 0; i0 < nwin; i0 += B) {
        const int32_t n = nwin - i0 < B ? nwin - i0 : B;
        double e[B];
        for (int32_t i = 0; i < n; i++)
            e[i] = 0.0;
        for (int j = 0; j < R; j++) {
            const uint16_t *cnt = s->wcnt + (size_t)j * nwin + i0;
            for (int32_t i = 0; i < n; i++)
                e[i] += s->term[cnt[i]];
        }
        for (int32_t i = 0; i < n; i++) {
            if (best < 0 || e[i] > be) {
                best = nd->win[i0 + i];
                be = e[i];
            }
        }
    }
    return best;
}

/* The sum of h over S (hs[0..m), added in order, as the literal formula adds it) into *total;
 * whether every target of S has the same h. */
static int h_same(const double *hs, int32_t m, double *total)
{
    int same = 1;
    double x = 0.0;
    for (int32_t k = 0; k < m; k++) {
        same &= hs[k] == hs[0];
        x += hs[k];
    }
    *total = x;
    return same;
}

/* With every h of S equal to h: term[n] = (n h's added in order / total) (m - n), n = 0..m, a
 * class of n targets' term of the literal ExpNumElims (jt_paper_pick, window_ties). */
static void paper_terms(double h, double total, int32_t m, double *term)
{
    double acc = 0.0;
    for (int32_t n = 0; n <= m; n++) {
        term[n] = (acc / total) * (double)(m - n);
        acc += h;
    }
}

/* Paper rule: the first word of the window with the largest literal ExpNumElims, with h over S
 * in s->hs; perfect: the first word of the window that splits S perfectly (every reply class
 * holds at most one target), or -1 if none does or it is not known.  When every target of S weighs the same, a class of n targets sums to
 * ((h + h) + ...) + h, n terms added in order, whichever targets they are; so its term of the
 * sum over j is a function term[n] of n alone, computed once per node with the literal
 * operations, and a value is L+1 look-ups added in order of j: bit-identical to the literal
 * evaluation.  The window's class sizes then come from the vector kernel (pick_uniform). */
int32_t jt_paper_pick(const jt_tree *t, const jt_node *nd, const uint32_t *sm,
                          jt_scratch *s, int32_t perfect)
{
    if (nd->nwin == 1)
        return nd->win[0];
    const jt_kernels *K = jt_kernels_current();
    const int32_t m = nd->m, nwin = nd->nwin;
    const jt_words *w = t->w;
    const int R = w->R;
    const double *hs = s->hs;
    double total;
    const int same = h_same(hs, m, &total);
    if (same && perfect >= 0) {
        /* A perfect split's sum is term[1] added m times, with term[0] = 0.0 (adding it changes
         * nothing) between them: the same bits for every perfect word.  Any other word's exact
         * value, m - q/m with q = sum_j n_j^2 >= m + 2, is below a perfect word's m - 1 by at
         * least 2/m, far more than the literal sums' rounding (paper_slack's gamma, ~1e-13 at
         * |S| <= R, the most a perfect split can have): so the first perfect word is the pick,
         * with no need to count the window's classes (most small nodes of a paper-rule tree
         * have one). */
        return perfect;
    }
    if (same) {
        paper_terms(hs[0], total, m, s->term);
        jt_eval ev = jt_eval_of(w, m, sm, nd->S, nwin, nd->win, s->wmask, s->wcnt, NULL);
        for (int32_t i = 0; i < nwin; i++)
            s->wmask[i] = w->mask[nd->win[i]];
        if (w->mode == JT_MODE_ANAGRAM)
            jt_families_set(w, &ev, nd->S, m, s->fam_n, s->fam_v, s->in_s);
        if (w->mode == JT_MODE_GENERAL)
            jt_gather_s(&ev, nd->S, m, s->stok, s->sspell);
        jt_evaluate_range(&ev, 0, nwin);
        if (w->mode == JT_MODE_ANAGRAM)
            jt_families_clear(w, nd->S, m, s->fam_n, s->fam_v, s->in_s);
        return pick_uniform(nd, s, R);
    }
    enum { EB = 64 };
    int32_t best = -1;
    double be = 0.0;
    double eb[EB]; /* PAPER: the values of a block of the window */
    const int batch = w->mode == JT_MODE_PAPER;
    for (int32_t i = 0; i < nwin; i++) {
        if (batch && i % EB == 0)
            K->exp_num_elims(w->mask, nd->win + i, nwin - i < EB ? nwin - i : EB, sm, hs, m,
                             w->L, total, eb);
        const double e = batch ? eb[i % EB]
                               : jt_exp_num_elims_codes(w, nd->win[i], nd->S, hs, m, total);
        if (best < 0 || e > be) {
            best = nd->win[i];
            be = e;
        }
    }
    return best;
}

/* Paper rule: the guess of nd from its window (kept from an earlier decision) with today's h. */
int32_t jt_repick(const jt_tree *t, const jt_node *nd, jt_scratch *s)
{
    if (nd->nwin == 1) /* the pick does not depend on h */
        return nd->win[0];
    for (int32_t k = 0; k < nd->m; k++)
        s->sm[k] = t->w->mask[nd->S[k]];
    jt_gather_h(t, nd, jt_all_h_zero(t, nd), s->hs);
    return jt_paper_pick(t, nd, s->sm, s, -1);
}

/* Norvig's metrics, computed as his Python computes them (ties: first in list order). */
static double norvig_metric(int rule, const uint16_t *cnt, int32_t nc, int R, int32_t m,
                            double log2v)
{
    const double scale = 1.0 / (double)m;
    if (rule == JT_RULE_NORVIG_MAX) {
        int mx = 0;
        for (int j = 0; j < R; j++)
            mx = cnt[(size_t)j * nc] > mx ? cnt[(size_t)j * nc] : mx;
        return (double)mx;
    }
    double s = 0.0;
    for (int j = 0; j < R; j++) {
        const uint16_t n = cnt[(size_t)j * nc];
        if (rule == JT_RULE_NORVIG_EXPECTATION) {
            s += (scale * n) * n;
        } else if (n) {
            const double p = scale * n;
            s += p * (log(p) / log2v); /* minus the entropy */
        }
    }
    return s;
}

static int32_t norvig_pick(const jt_tree *t, const jt_eval *ev)
{
    volatile double two = 2.0; /* log(2) as Python computes it, not folded */
    const double log2v = log(two);
    int32_t best = -1;
    double bm = 0.0;
    for (int32_t c = 0; c < ev->nc; c++) {
        const double x = norvig_metric(t->rule, ev->cnt + c, ev->nc, t->w->R, ev->m, log2v);
        if (best < 0 || x < bm) {
            best = ev->cid ? ev->cid[c] : c;
            bm = x;
        }
    }
    return best;
}

/* The next arrangement of p[0..k) in increasing order (as C++'s next_permutation), or 0 after
 * the last: every distinct order of a multiset once, starting from the sorted one. */
static int next_order(int32_t *p, int k)
{
    int i = k - 2;
    while (i >= 0 && p[i] >= p[i + 1])
        i--;
    if (i < 0)
        return 0;
    int j = k - 1;
    while (p[j] <= p[i])
        j--;
    int32_t x = p[i];
    p[i] = p[j];
    p[j] = x;
    for (int a = i + 1, b = k - 1; a < b; a++, b--) {
        x = p[a];
        p[a] = p[b];
        p[b] = x;
    }
    return 1;
}

/* Work and sizes past which window_ties gives up (and the window is made). */
enum { TIES_MAX_M = 16, TIES_MAX_ORDERS = 2048 };

/* The multisets of class sizes completing p[0..k) (largest first, at most R classes, none above
 * `most`) to a sum of m and squares summing to sq (`left` and `sq` are what is still missing):
 * whether every order of each sums term[size] over its classes to *e, the first such sum (*seen
 * once set).  0 also when *budget orders have been tried. */
static int orders_agree(const double *term, int32_t left, int32_t most, int64_t sq, int32_t *p,
                        int k, int R, double *e, int *seen, int *budget)
{
    if (left == 0) {
        if (sq)
            return 1;
        int32_t o[JT_MAX_R];
        for (int i = 0; i < k; i++)
            o[k - 1 - i] = p[i]; /* increasing: next_order's first arrangement */
        do {
            if (--*budget < 0)
                return 0;
            double x = 0.0;
            for (int i = 0; i < k; i++)
                x += term[o[i]];
            if (*seen && x != *e)
                return 0;
            *e = x;
            *seen = 1;
        } while (next_order(o, k));
        return 1;
    }
    if (k == R)
        return 1; /* no room for another class: no such word */
    for (int32_t n = left < most ? left : most; n >= 1; n--) {
        if ((int64_t)n * n > sq)
            continue;
        p[k] = n;
        if (!orders_agree(term, left - n, n, sq - (int64_t)n * n, p, k + 1, R, e, seen, budget))
            return 0;
    }
    return 1;
}

/* Paper rule, outside updates: whether every word of the window would have the same literal
 * ExpNumElims, so that the first, the first candidate of least q, is the pick without the window
 * being made or its classes counted (jt_paper_pick).  That holds when every target of S has the
 * same h and the same v (vmin): q = vmin sum_j n_j^2, whose values, all of m's parity, are
 * 2 vmin apart, so a slack below that leaves the window the words of q = qmin alone; each value is
 * the sum over codes j in order of term[n_j] (term[0] = 0.0 adds nothing), a function of the
 * order of the word's non-empty class sizes; and every order of every multiset of class sizes
 * with sum m and squares qmin / vmin (at most R classes) sums to one double.  At 3 targets with no
 * perfect split, say, every window word has classes of 2 and 1, and a + b = b + a.  The
 * decision holds for those h only: the caller leaves the node dirty for updates. */
static int window_ties(const jt_tree *t, const jt_node *nd, const jt_job *job, uint64_t qmin,
                       const double *hs)
{
    const jt_eval *ev = &job->ev;
    const int32_t m = nd->m;
    const uint64_t vmin = ev->vmin;
    if (t->updating || m > TIES_MAX_M || !vmin || job->V != (uint64_t)m * vmin ||
        qmin % vmin)
        return 0;
    if (paper_slack(m, t->w->R, job->V, t->err_abs, t->err_rel) >= 2 * vmin)
        return 0;
    double total, term[TIES_MAX_M + 1];
    if (!h_same(hs, m, &total))
        return 0;
    paper_terms(hs[0], total, m, term);
    int32_t p[JT_MAX_R];
    double e = 0.0;
    int seen = 0, budget = TIES_MAX_ORDERS;
    return orders_agree(term, m, m, (int64_t)(qmin / vmin), p, 0, t->w->R, &e, &seen, &budget) &&
           seen;
}

/* Choose the guess of an evaluated node, in scratch s. */
int jt_choose(const jt_tree *t, jt_job *job, jt_scratch *s)
{
    jt_node *nd = job->node;
    const jt_eval *ev = &job->ev;
    if (t->rule > JT_RULE_EXACT) {
        nd->guess = norvig_pick(t, ev);
        return JT_OK;
    }
    if (t->rule == JT_RULE_EXACT) {
        nd->guess = exact_pick(nd, ev);
        return JT_OK;
    }
    int32_t first;
    const uint64_t qmin = least_q(ev, &first);
    jt_gather_h(t, nd, job->hones, s->hs);
    if (window_ties(t, nd, job, qmin, s->hs)) {
        nd->guess = ev->cid ? ev->cid[first] : first;
        nd->dirty = 1; /* no window: an update decides it again */
        return JT_OK;
    }
    const int st = paper_window(t, nd, ev, qmin, job->V, s->wsel);
    if (st)
        return st;
    /* With every weight of S positive, q(c) = V exactly when c splits S perfectly (any two
     * targets sharing a class add their weights again); the first such candidate is the first
     * perfect word of the window, which holds the candidates of q <= qmin in their order. */
    const int32_t perfect = ev->vmin && qmin == job->V ? (ev->cid ? ev->cid[first] : first) : -1;
    nd->guess = jt_paper_pick(t, nd, ev->sm, s, perfect);
    return JT_OK;
}
