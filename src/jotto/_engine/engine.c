/* engine.c -- decision trees of Jotto guessers: building, deciding, updating.
 *
 * CompNumGuesses (Algorithm 6 of Ganzfried 2011) plays GuesserGBR against each target separately.
 * GuesserGBR's choice depends only on the hider strategy and the state S (the targets still
 * consistent), so all targets share one decision tree; the guesses a target needs are the depth
 * at which it is guessed.  The tree is built level by level; each level's nodes are prepared,
 * their candidates evaluated and their guesses chosen in parallel, and no result depends on the
 * number of threads (every value is computed by one thread in a fixed order).
 *
 * Candidates.  Letters present in every word of S only shift the reply; letters absent from S
 * add nothing.  Words with the same letters among those that vary over S therefore split S the
 * same way and give the same value under every rule, so small nodes evaluate one word per such
 * group (its lowest index, the first in dictionary order).
 *
 * Values.  For every candidate c the node stores n_j (targets of S replying j) and
 * q(c) = sum_{i in S} v_i n_{reply(c,i)} in exact integers.  Maximising ExpNumElims is minimising
 * q, since ExpNumElims = |S| - q/V with V = sum_{i in S} v_i.
 *  - exact rule: the least (q, not in S, index).
 *  - paper rule: the paper's float formula with weights h is within (gamma + tau) |S| of the exact
 *    value of q, where gamma bounds its rounding and tau the distance of h/sum(h) from v/V (see
 *    paper_slack).  Only candidates with q <= min q + 2 (gamma + tau) |S| V can be the literal
 *    maximum; the formula is evaluated literally for those, and the first maximum wins.
 * Updating a weight v_b changes q(c) by delta * n_{reply(c,b)} at the nodes whose S holds b, so an
 * update re-decides only those nodes (and, for the paper rule, the nodes whose window holds more
 * than one candidate, since h changes everywhere), rebuilding the subtrees whose guess changed. */
#include <math.h>
#ifdef JT_TRACE
#include <stdio.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#define T_DIRECT 12   /* count reply classes directly up to this |S| */
#define T_TABLE 160   /* subset tables above this |S| */
#define T_GROUP 96    /* group candidates when |S| is at most this */
#define CHUNK 256     /* candidates per work item on large nodes */

struct jt_tree {
    const jt_words *w;
    int rule, candidates;
    int64_t *v;        /* [D] */
    double *h;         /* [D], paper rule only */
    double err_abs, err_rel;
    jt_node *root;
    int32_t *counts;   /* [D] guesses needed per target */
    int32_t *ident;    /* [D] 0..D-1 */
    int32_t nnodes;
    int64_t decided, evaluated;
};

/* Per-thread scratch for grouping and literal evaluation. */
typedef struct {
    jt_hash ht;
    double *hs;
} jt_scratch;

typedef struct {
    jt_node *node;
    jt_nodework nw;
    uint64_t V;        /* sum of the (effective) weights over S */
    int hones;         /* paper rule, all h of S zero: every target weighs 1.0 */
} jt_job;

/* ---- small helpers --------------------------------------------------------------------------- */

static int64_t binom(int n, int k)
{
    if (k < 0 || k > n)
        return 0;
    int64_t r = 1;
    for (int i = 0; i < k; i++)
        r = r * (n - i) / (i + 1);
    return r;
}

static inline int reply(const jt_words *w, int32_t a, int32_t b)
{
    return jt_popcount32(w->mask[a] & w->mask[b]);
}

static int num_threads(int threads)
{
#ifdef _OPENMP
    return threads > 0 ? threads : omp_get_max_threads();
#else
    (void)threads;
    return 1;
#endif
}

static int thread_id(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

/* ---- word lists ------------------------------------------------------------------------------ */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

jt_words *jt_words_new(const uint32_t *masks, int32_t D, int32_t L)
{
    if (D < 1 || D > JT_MAX_WORDS || L < 1 || L > JT_MAX_LEN)
        return NULL;
    uint32_t *sorted = malloc(sizeof(uint32_t) * D);
    if (!sorted)
        return NULL;
    for (int32_t i = 0; i < D; i++) {
        if (masks[i] >> 26 || jt_popcount32(masks[i]) != L) {
            free(sorted);
            return NULL;
        }
        sorted[i] = masks[i];
    }
    qsort(sorted, D, sizeof(uint32_t), cmp_u32);
    for (int32_t i = 1; i < D; i++) {
        if (sorted[i] == sorted[i - 1]) {
            free(sorted);
            return NULL;
        }
    }
    free(sorted);

    jt_words *w = calloc(1, sizeof(jt_words));
    if (!w)
        return NULL;
    w->D = D;
    w->L = L;
    w->mask = malloc(sizeof(uint32_t) * D);
    w->letters = malloc((size_t)D * L);
    if (!w->mask || !w->letters)
        goto fail;
    memcpy(w->mask, masks, sizeof(uint32_t) * D);
    for (int32_t i = 0; i < D; i++) {
        int k = 0;
        for (int b = 0; b < 26; b++)
            if ((masks[i] >> b) & 1)
                w->letters[(size_t)i * L + k++] = (uint8_t)b;
    }
    if (L >= 2 && L <= JT_TABLE_MAXL) {
        /* Rank of a subset a_1 < ... < a_s: base[s] + sum_j C(a_j, j) (combinatorial numbers). */
        int32_t base[JT_TABLE_MAXL + 1];
        base[1] = 0;
        for (int s = 2; s <= L; s++)
            base[s] = base[s - 1] + (int32_t)binom(26, s - 1);
        w->table_size = base[L];
        w->nsub = 0;
        for (int s = 1; s < L; s++) {
            w->sub_start[s] = w->nsub;
            w->nsub += (int32_t)binom(L, s);
        }
        w->sub_start[L] = w->nsub;
        w->subrank = malloc(sizeof(int32_t) * (size_t)D * w->nsub);
        if (!w->subrank)
            goto fail;
        for (int32_t i = 0; i < D; i++) {
            int32_t *out = w->subrank + (size_t)i * w->nsub;
            const uint8_t *lt = w->letters + (size_t)i * L;
            int pos = 0;
            for (int s = 1; s < L; s++) {
                for (uint32_t sub = 1; sub < (1u << L); sub++) {
                    if (jt_popcount32(sub) != s)
                        continue;
                    int64_t r = base[s];
                    int j = 1;
                    for (int b = 0; b < L; b++)
                        if ((sub >> b) & 1)
                            r += binom(lt[b], j++);
                    out[pos++] = (int32_t)r;
                }
            }
        }
        for (int s = 0; s <= L; s++)
            for (int j = 0; j <= s; j++)
                w->incl[s][j] = (((s - j) & 1) ? -1 : 1) * binom(s, j);
    }
    return w;
fail:
    jt_words_free(w);
    return NULL;
}

void jt_words_free(jt_words *w)
{
    if (!w)
        return;
    free(w->mask);
    free(w->letters);
    free(w->subrank);
    free(w);
}

double jt_integer_weights(const double *h, int32_t D, int64_t *v)
{
    double hmax = 0.0;
    for (int32_t i = 0; i < D; i++) {
        if (!(h[i] >= 0) || !isfinite(h[i]))
            return -1.0;
        if (h[i] > hmax)
            hmax = h[i];
    }
    if (hmax == 0.0) {
        for (int32_t i = 0; i < D; i++)
            v[i] = 0;
        return 0.0;
    }
    int lg = 0; /* ceil(log2 D) */
    while (((int64_t)1 << lg) < D)
        lg++;
    int B = 62 - 2 * lg, e;
    frexp(hmax, &e); /* hmax < 2^e <= 2 hmax */
    double err = 0.0;
    for (int32_t i = 0; i < D; i++) {
        double x = ldexp(h[i], B - e);
        double r = nearbyint(x);
        v[i] = (int64_t)r;
        if (fabs(x - r) > err)
            err = fabs(x - r);
    }
    return err;
}

/* ---- nodes ----------------------------------------------------------------------------------- */

static jt_node *node_new(jt_tree *t, int32_t *S, int32_t m, int32_t depth, jt_node *parent)
{
    jt_node *nd = calloc(1, sizeof(jt_node));
    if (!nd)
        return NULL;
    nd->S = S;
    nd->m = m;
    nd->depth = depth;
    nd->parent = parent;
    nd->guess = -1;
    nd->pending = -1;
    t->nnodes++;
    return nd;
}

static void node_drop_candidates(jt_node *nd)
{
    free(nd->rep);
    free(nd->smem);
    free(nd->cnt);
    free(nd->q);
    free(nd->win);
    nd->rep = nd->smem = nd->win = NULL;
    nd->cnt = NULL;
    nd->q = NULL;
    nd->nc = nd->nwin = 0;
}

/* Free the subtrees below nd (not nd itself). */
static void free_children(jt_tree *t, jt_node *nd)
{
    if (!nd->child)
        return;
    const int L = t->w->L;
    size_t cap = 64, top = 0;
    jt_node **stack = malloc(sizeof(jt_node *) * cap);
    for (int j = 0; j <= L; j++)
        if (nd->child[j]) {
            if (top == cap)
                stack = realloc(stack, sizeof(jt_node *) * (cap *= 2));
            stack[top++] = nd->child[j];
        }
    free(nd->child);
    nd->child = NULL;
    while (top) {
        jt_node *x = stack[--top];
        if (x->child) {
            for (int j = 0; j <= L; j++)
                if (x->child[j]) {
                    if (top == cap)
                        stack = realloc(stack, sizeof(jt_node *) * (cap *= 2));
                    stack[top++] = x->child[j];
                }
            free(x->child);
        }
        node_drop_candidates(x);
        free(x->S);
        free(x);
        t->nnodes--;
    }
    free(stack);
}

/* ---- the paper rule's rounding distance ------------------------------------------------------ */

/* Largest q(c) - min q for which c may still have the largest ExpNumElims when the formula is
 * evaluated in IEEE double with weights h_i = s (v_i + a_i)(1 + r_i), |a_i| <= err_abs,
 * |r_i| <= err_rel.  With p = h/sum h and p' = v/V over S:
 *  - |p - p'|_1 <= tau = 2 err_rel/(1 - err_rel) + 2 err_abs m/(V - err_abs m), and since
 *    ExpNumElims = m - sum_i p_i n_{reply(c,i)}, the exact values under p and p' differ by at most
 *    tau m;
 *  - the literal evaluation (|S| and n_j-term sums, one division, one product, L+1 additions, all
 *    of non-negative terms) has relative error below (2m + L + 3) u, u = 2^-53; gamma doubles it.
 * A candidate beats or ties the exact best b only if its exact value is within 2 (gamma + tau) m
 * of b's, that is q(c) <= q(b) + 2 (gamma + tau) m V. */
static uint64_t paper_slack(int32_t m, int L, uint64_t V, double err_abs, double err_rel)
{
    if (V == 0)
        return UINT64_MAX;
    const double u = 0x1p-53;
    double gamma = 2.0 * (2.0 * m + L + 4) * u;
    double tau = 2.0 * err_rel / (1.0 - err_rel);
    if (err_abs > 0) {
        double d = (double)V - err_abs * m;
        tau += d > 0 ? 2.0 * err_abs * m / d : 2.0;
    }
    if (tau > 2.0)
        tau = 2.0;
    double s = 2.0 * (gamma + tau) * (double)m * (double)V * 1.0001 + 2.0;
    return s >= 1.8e19 ? UINT64_MAX : (uint64_t)s;
}

/* ---- deciding one node ----------------------------------------------------------------------- */

/* States of one or two targets: the decision never depends on the weights. */
static void decide_tiny(jt_tree *t, jt_node *nd)
{
    const jt_words *w = t->w;
    nd->fixed = 1;
    if (nd->m == 1 || t->rule != JT_RULE_PAPER) {
        /* one target: guess it.  Two: every word of S splits them (q = V, the least possible),
         * so the exact rule and Norvig's (ties to list order) take the first. */
        nd->guess = nd->S[0];
        return;
    }
    /* Paper rule, S = {a, b}: a splitter's ExpNumElims is h_a/H + h_b/H whatever the order of
     * the two terms, a non-splitter's is 0, so GuesserGBR takes the first word that splits. */
    const int32_t a = nd->S[0], b = nd->S[1];
    for (int32_t c = 0; c <= a; c++) {
        if (reply(w, c, a) != reply(w, c, b)) {
            nd->guess = c;
            return;
        }
    }
}

/* Phase A: gather S, weights and candidates; allocate the node's arrays. */
static int prepare_job(jt_tree *t, jt_job *job, jt_scratch *scr)
{
    const jt_words *w = t->w;
    const jt_kernels *K = jt_kernels_current();
    jt_node *nd = job->node;
    jt_nodework *nw = &job->nw;
    const int L = w->L;
    const int32_t m = nd->m;
    memset(nw, 0, sizeof *nw);
    nw->w = w;
    nw->node = nd;
    nw->sm = malloc(sizeof(uint32_t) * m);
    if (!nw->sm)
        return JT_ENOMEM;
    nw->and_ = ~(uint32_t)0;
    uint64_t vmin = UINT64_MAX, V = 0;
    for (int32_t k = 0; k < m; k++) {
        uint32_t x = w->mask[nd->S[k]];
        nw->sm[k] = x;
        nw->or_ |= x;
        nw->and_ &= x;
        uint64_t vi = (uint64_t)t->v[nd->S[k]];
        V += vi;
        if (vi < vmin)
            vmin = vi;
    }
    job->hones = 0;
    if (t->rule == JT_RULE_PAPER) {
        int allzero = 1;
        for (int32_t k = 0; k < m && allzero; k++)
            allzero = t->h[nd->S[k]] == 0.0;
        job->hones = allzero;
    }
    if (V == 0 && (t->rule == JT_RULE_EXACT || job->hones)) {
        /* No weight on S: the targets of S are equally likely. */
        vmin = 1;
        V = (uint64_t)m;
    } else if (t->rule > JT_RULE_EXACT) {
        vmin = 1; /* Norvig's guessers count targets */
        V = (uint64_t)m;
    }
    job->V = V;
    nw->vmin = vmin;
    nw->nspec = 0;
    if (V != (uint64_t)m * vmin) {
        nw->spec_mask = malloc(sizeof(uint32_t) * m);
        nw->spec_delta = malloc(sizeof(uint64_t) * m);
        if (!nw->spec_mask || !nw->spec_delta)
            return JT_ENOMEM;
        for (int32_t k = 0; k < m; k++) {
            uint64_t d = (uint64_t)t->v[nd->S[k]] - vmin;
            if (d) {
                nw->spec_mask[nw->nspec] = nw->sm[k];
                nw->spec_delta[nw->nspec++] = d;
            }
        }
    }

    /* Exact rule, positive weights: a word of S leaving every target alone reaches the least
     * possible q (= V) whatever the weights, and the earliest such word wins the tie-break. */
    if (t->rule == JT_RULE_EXACT && vmin > 0 && m <= L + 1) {
        for (int32_t k = 0; k < m; k++) {
            uint32_t seen = 0;
            int alone = 1;
            for (int32_t i = 0; i < m && alone; i++) {
                uint32_t bit = 1u << jt_popcount32(nw->sm[k] & nw->sm[i]);
                alone = !(seen & bit);
                seen |= bit;
            }
            if (alone) {
                nd->guess = nd->S[k];
                nd->fixed = 1;
                return JT_OK;
            }
        }
    }

    /* Candidates. */
    int consistent = t->candidates == JT_CAND_CONSISTENT ||
                     (t->candidates == JT_CAND_NORVIG && m <= 3);
    if (consistent) {
        nd->nc = m;
        nd->rep = malloc(sizeof(int32_t) * m);
        nd->smem = malloc(sizeof(int32_t) * m);
        if (!nd->rep || !nd->smem)
            return JT_ENOMEM;
        memcpy(nd->rep, nd->S, sizeof(int32_t) * m);
        memcpy(nd->smem, nd->S, sizeof(int32_t) * m);
    } else if (m <= T_GROUP) {
        const jt_node *p = nd->parent;
        const int32_t *prep = t->ident;
        int32_t pn = w->D;
        if (p && p->rep && p->nc > 0 && !(t->candidates == JT_CAND_NORVIG && p->m <= 3)) {
            prep = p->rep;
            pn = p->nc;
        }
        nd->rep = malloc(sizeof(int32_t) * pn);
        nd->smem = malloc(sizeof(int32_t) * pn);
        if (!nd->rep || !nd->smem)
            return JT_ENOMEM;
        nd->nc = K->group(w->mask, prep, pn, nw->or_ & ~nw->and_, nd->S, m, nd->rep, nd->smem,
                          &scr->ht);
    } else {
        nd->nc = w->D;
        nd->rep = malloc(sizeof(int32_t) * w->D);
        nd->smem = malloc(sizeof(int32_t) * w->D);
        if (!nd->rep || !nd->smem)
            return JT_ENOMEM;
        memcpy(nd->rep, t->ident, sizeof(int32_t) * w->D);
        for (int32_t c = 0; c < w->D; c++)
            nd->smem[c] = -1;
        for (int32_t k = 0; k < m; k++)
            nd->smem[nd->S[k]] = nd->S[k];
    }
    nd->cnt = malloc(sizeof(uint16_t) * (size_t)nd->nc * (L + 1));
    nd->q = malloc(sizeof(uint64_t) * (size_t)(nd->nc ? nd->nc : 1));
    if (!nd->cnt || !nd->q)
        return JT_ENOMEM;

#ifdef JT_TRACE
    fprintf(stderr, "node m=%d nc=%d parentnc=%d\n", m, nd->nc, nd->parent ? nd->parent->nc : -1);
#endif
    /* How to count. */
    if (m <= T_DIRECT) {
        nw->method = JT_M_DIRECT;
    } else if (w->subrank && m > T_TABLE) {
        nw->method = JT_M_TABLE;
        nw->table = calloc((size_t)w->table_size, sizeof(uint16_t));
        nw->in_s = calloc((size_t)w->D, 1);
        if (!nw->table || !nw->in_s)
            return JT_ENOMEM;
        for (int32_t k = 0; k < m; k++)
            nw->in_s[nd->S[k]] = 1;
    } else {
        nw->method = JT_M_BITS;
        nw->nb = (m + 63) / 64;
        nw->bits = calloc((size_t)27 * nw->nb, sizeof(uint64_t));
        if (!nw->bits)
            return JT_ENOMEM;
    }
    K->prepare(nw);
    return JT_OK;
}

static void release_job(jt_job *job)
{
    jt_nodework *nw = &job->nw;
    free(nw->sm);
    free(nw->bits);
    free(nw->table);
    free(nw->in_s);
    free(nw->spec_mask);
    free(nw->spec_delta);
    memset(nw, 0, sizeof *nw);
}

/* Gather h over S (1.0 each when S carries no float weight). */
static void gather_h(const jt_tree *t, const jt_node *nd, int hones, double *hs)
{
    for (int32_t k = 0; k < nd->m; k++)
        hs[k] = hones ? 1.0 : t->h[nd->S[k]];
}

static uint64_t node_weight(const jt_tree *t, const jt_node *nd)
{
    uint64_t V = 0;
    for (int32_t k = 0; k < nd->m; k++)
        V += (uint64_t)t->v[nd->S[k]];
    return V;
}

/* Paper rule: the window of candidates that may be the literal maximum. */
static int paper_window(const jt_tree *t, jt_node *nd, uint64_t V)
{
    uint64_t qmin = UINT64_MAX;
    for (int32_t c = 0; c < nd->nc; c++)
        if (nd->q[c] < qmin)
            qmin = nd->q[c];
    uint64_t slack = paper_slack(nd->m, t->w->L, V, t->err_abs, t->err_rel);
    uint64_t lim = qmin + slack < qmin ? UINT64_MAX : qmin + slack;
    free(nd->win);
    nd->win = malloc(sizeof(int32_t) * (size_t)(nd->nc ? nd->nc : 1));
    if (!nd->win)
        return JT_ENOMEM;
    nd->nwin = 0;
    for (int32_t c = 0; c < nd->nc; c++)
        if (nd->q[c] <= lim)
            nd->win[nd->nwin++] = c;
    return JT_OK;
}

/* Paper rule: the first candidate of the window with the largest literal ExpNumElims. */
static int32_t paper_choose(const jt_tree *t, const jt_node *nd, const uint32_t *sm,
                            const double *hs)
{
    if (nd->nwin == 1)
        return nd->rep[nd->win[0]];
    const jt_kernels *K = jt_kernels_current();
    double total = 0.0;
    for (int32_t k = 0; k < nd->m; k++)
        total += hs[k];
    int32_t best = -1;
    double be = 0.0;
    for (int32_t i = 0; i < nd->nwin; i++) {
        int32_t r = nd->rep[nd->win[i]];
        double e = K->exp_num_elims(t->w->mask[r], sm, hs, nd->m, t->w->L, total);
        if (best < 0 || e > be) {
            best = r;
            be = e;
        }
    }
    return best;
}

static int32_t exact_choose(const jt_node *nd)
{
    int32_t best = -1, bidx = 0;
    uint64_t bq = 0;
    int bout = 1;
    for (int32_t c = 0; c < nd->nc; c++) {
        uint64_t q = nd->q[c];
        int out = nd->smem[c] < 0;
        int32_t idx = out ? nd->rep[c] : nd->smem[c];
        if (best < 0 || q < bq || (q == bq && (out < bout || (out == bout && idx < bidx)))) {
            best = c;
            bq = q;
            bout = out;
            bidx = idx;
        }
    }
    return bidx;
}

/* Norvig's metrics, computed as his Python computes them (ties: first in list order). */
static double norvig_metric(int rule, const uint16_t *n, int L, int32_t m, double log2v)
{
    double scale = 1.0 / (double)m;
    if (rule == JT_RULE_NORVIG_MAX) {
        int mx = 0;
        for (int j = 0; j <= L; j++)
            if (n[j] > mx)
                mx = n[j];
        return (double)mx;
    }
    double s = 0.0;
    for (int j = 0; j <= L; j++) {
        if (rule == JT_RULE_NORVIG_EXPECTATION) {
            s += (scale * n[j]) * n[j];
        } else if (n[j]) {
            double p = scale * n[j];
            s += p * (log(p) / log2v); /* - entropy */
        }
    }
    return s;
}

static int32_t norvig_choose(const jt_tree *t, const jt_node *nd)
{
    const int L = t->w->L;
    volatile double two = 2.0;
    const double log2v = log(two);
    int32_t best = -1;
    double bm = 0.0;
    for (int32_t c = 0; c < nd->nc; c++) {
        double x = norvig_metric(t->rule, nd->cnt + (size_t)c * (L + 1), L, nd->m, log2v);
        if (best < 0 || x < bm) {
            best = nd->rep[c];
            bm = x;
        }
    }
    return best;
}

/* Phase C for one node. */
static int choose_job(jt_tree *t, jt_job *job, jt_scratch *scr)
{
    jt_node *nd = job->node;
    if (nd->fixed)
        return JT_OK;
    if (t->rule == JT_RULE_EXACT) {
        nd->guess = exact_choose(nd);
    } else if (t->rule == JT_RULE_PAPER) {
        int st = paper_window(t, nd, job->V);
        if (st)
            return st;
        gather_h(t, nd, job->hones, scr->hs);
        nd->guess = paper_choose(t, nd, job->nw.sm, scr->hs);
    } else {
        nd->guess = norvig_choose(t, nd);
        node_drop_candidates(nd); /* Norvig's trees are never updated */
    }
    return JT_OK;
}

static int scratch_init(jt_scratch *scr, int n, const jt_words *w)
{
    int32_t size = 16;
    while (size < 2 * w->D)
        size *= 2;
    for (int i = 0; i < n; i++) {
        scr[i].ht.size = size;
        scr[i].ht.gen = 0;
        scr[i].ht.slot = calloc((size_t)size, sizeof(uint32_t));
        scr[i].ht.vals = malloc(sizeof(int32_t) * size);
        scr[i].hs = malloc(sizeof(double) * w->D);
        if (!scr[i].ht.slot || !scr[i].ht.vals || !scr[i].hs)
            return JT_ENOMEM;
    }
    return JT_OK;
}

static void scratch_free(jt_scratch *scr, int n)
{
    for (int i = 0; i < n; i++) {
        free(scr[i].ht.slot);
        free(scr[i].ht.vals);
        free(scr[i].hs);
    }
}

/* Decide nodes (each with m >= 3) in parallel: phases A (prepare), B (evaluate), C (choose). */
static int decide_nodes(jt_tree *t, jt_node **nodes, int32_t n, int threads)
{
    if (n == 0)
        return JT_OK;
    const int nt = num_threads(threads);
    jt_job *jobs = calloc((size_t)n, sizeof(jt_job));
    jt_scratch *scr = calloc((size_t)nt, sizeof(jt_scratch));
    int32_t *item_job = NULL, *item_c0 = NULL;
    int err = JT_OK;
    if (!jobs || !scr || scratch_init(scr, nt, t->w)) {
        err = JT_ENOMEM;
        goto done;
    }
    for (int32_t i = 0; i < n; i++)
        jobs[i].node = nodes[i];

#pragma omp parallel for schedule(dynamic, 1) num_threads(nt)
    for (int32_t i = 0; i < n; i++) {
        int st = prepare_job(t, &jobs[i], &scr[thread_id()]);
        if (st) {
#pragma omp atomic write
            err = st;
        }
    }
    if (err)
        goto done;

    /* Work items: large nodes are cut into chunks of candidates. */
    int64_t nitems = 0;
    for (int32_t i = 0; i < n; i++) {
        const jt_node *nd = jobs[i].node;
        if (!nd->fixed)
            nitems += nd->m > 64 ? (nd->nc + CHUNK - 1) / CHUNK : 1;
    }
    item_job = malloc(sizeof(int32_t) * (size_t)(nitems + 1));
    item_c0 = malloc(sizeof(int32_t) * (size_t)(nitems + 1));
    if (!item_job || !item_c0) {
        err = JT_ENOMEM;
        goto done;
    }
    int64_t it = 0;
    for (int32_t i = 0; i < n; i++) {
        const jt_node *nd = jobs[i].node;
        if (nd->fixed)
            continue;
        int32_t step = nd->m > 64 ? CHUNK : (nd->nc ? nd->nc : 1);
        for (int32_t c = 0; c < nd->nc || (c == 0 && nd->nc == 0); c += step) {
            item_job[it] = i;
            item_c0[it++] = c;
        }
    }
    nitems = it;
    const jt_kernels *K = jt_kernels_current();
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt)
    for (int64_t k = 0; k < nitems; k++) {
        jt_job *job = &jobs[item_job[k]];
        int32_t c0 = item_c0[k];
        int32_t step = job->node->m > 64 ? CHUNK : job->node->nc;
        int32_t c1 = c0 + step < job->node->nc ? c0 + step : job->node->nc;
        K->evaluate(&job->nw, c0, c1);
    }

#pragma omp parallel for schedule(dynamic, 1) num_threads(nt)
    for (int32_t i = 0; i < n; i++) {
        int st = choose_job(t, &jobs[i], &scr[thread_id()]);
        if (st) {
#pragma omp atomic write
            err = st;
        }
    }
    for (int32_t i = 0; i < n; i++) {
        t->decided++;
        t->evaluated += jobs[i].node->fixed ? 0 : jobs[i].node->nc;
    }
done:
    if (jobs)
        for (int32_t i = 0; i < n; i++)
            release_job(&jobs[i]);
    free(jobs);
    if (scr)
        scratch_free(scr, nt);
    free(scr);
    free(item_job);
    free(item_c0);
    return err;
}

/* Split S by the reply to the guess; record the target guessed here; create the children,
 * deciding the tiny ones at once and appending the others to *next. */
static int make_children(jt_tree *t, jt_node *nd, jt_node ***next, int32_t *nnext,
                         int32_t *capnext)
{
    const jt_words *w = t->w;
    const int L = w->L;
    int32_t sizes[JT_MAX_LEN + 1] = {0};
    for (int32_t k = 0; k < nd->m; k++)
        sizes[reply(w, nd->guess, nd->S[k])]++;
    if (sizes[L])
        t->counts[nd->guess] = nd->depth + 1;
    if (nd->m == sizes[L])
        return JT_OK; /* a leaf */
    nd->child = calloc((size_t)L + 1, sizeof(jt_node *));
    if (!nd->child)
        return JT_ENOMEM;
    for (int j = 0; j < L; j++) {
        if (!sizes[j])
            continue;
        int32_t *S = malloc(sizeof(int32_t) * sizes[j]);
        if (!S)
            return JT_ENOMEM;
        int32_t m = 0;
        for (int32_t k = 0; k < nd->m; k++)
            if (reply(w, nd->guess, nd->S[k]) == j)
                S[m++] = nd->S[k];
        jt_node *c = node_new(t, S, m, nd->depth + 1, nd);
        if (!c) {
            free(S);
            return JT_ENOMEM;
        }
        nd->child[j] = c;
        if (m <= 2) {
            decide_tiny(t, c);
            int st = make_children(t, c, next, nnext, capnext);
            if (st)
                return st;
        } else {
            if (*nnext == *capnext) {
                int32_t cap = *capnext ? 2 * *capnext : 64;
                jt_node **grown = realloc(*next, sizeof(jt_node *) * cap);
                if (!grown)
                    return JT_ENOMEM;
                *next = grown;
                *capnext = cap;
            }
            (*next)[(*nnext)++] = c;
        }
    }
    return JT_OK;
}

/* Decide the given undecided nodes (m >= 3) and everything below them. */
static int build_from(jt_tree *t, jt_node **roots, int32_t n, int threads)
{
    jt_node **level = malloc(sizeof(jt_node *) * (size_t)(n ? n : 1));
    if (!level)
        return JT_ENOMEM;
    memcpy(level, roots, sizeof(jt_node *) * (size_t)n);
    int err = JT_OK;
    while (n > 0 && !err) {
        err = decide_nodes(t, level, n, threads);
        jt_node **next = NULL;
        int32_t nnext = 0, capnext = 0;
        for (int32_t i = 0; i < n && !err; i++)
            err = make_children(t, level[i], &next, &nnext, &capnext);
        free(level);
        level = next;
        n = nnext;
    }
    free(level);
    return err;
}

/* ---- trees ------------------------------------------------------------------------------------ */

static int check_weights(const jt_words *w, const jt_weights *wt)
{
    if (wt->rule < JT_RULE_PAPER || wt->rule > JT_RULE_NORVIG_ENTROPY)
        return JT_EINVAL;
    if (wt->candidates < JT_CAND_ALL || wt->candidates > JT_CAND_NORVIG)
        return JT_EINVAL;
    if (wt->rule <= JT_RULE_EXACT && wt->candidates != JT_CAND_ALL)
        return JT_EINVAL;
    if (!(wt->err_abs >= 0) || !(wt->err_rel >= 0) || !(wt->err_rel < 0.5))
        return JT_EINVAL;
    if (wt->v) {
        uint64_t total = 0;
        for (int32_t i = 0; i < w->D; i++) {
            if (wt->v[i] < 0)
                return JT_EINVAL;
            total += (uint64_t)wt->v[i];
            if (total > (UINT64_C(1) << 63) / (uint64_t)w->D)
                return JT_EINVAL;
        }
    }
    if (wt->h)
        for (int32_t i = 0; i < w->D; i++)
            if (!(wt->h[i] >= 0) || !isfinite(wt->h[i]))
                return JT_EINVAL;
    return JT_OK;
}

static jt_tree *tree_new(const jt_words *w, const jt_weights *wt, int *status)
{
    *status = check_weights(w, wt);
    if (*status)
        return NULL;
    *status = JT_ENOMEM;
    jt_tree *t = calloc(1, sizeof(jt_tree));
    if (!t)
        return NULL;
    const int32_t D = w->D;
    t->w = w;
    t->rule = wt->rule;
    t->candidates = wt->candidates;
    t->err_abs = wt->err_abs;
    t->err_rel = wt->err_rel;
    t->v = malloc(sizeof(int64_t) * D);
    t->counts = calloc((size_t)D, sizeof(int32_t));
    t->ident = malloc(sizeof(int32_t) * D);
    if (!t->v || !t->counts || !t->ident)
        goto fail;
    for (int32_t i = 0; i < D; i++) {
        t->v[i] = wt->v ? wt->v[i] : 1;
        t->ident[i] = i;
    }
    if (t->rule == JT_RULE_PAPER) {
        t->h = malloc(sizeof(double) * D);
        if (!t->h)
            goto fail;
        for (int32_t i = 0; i < D; i++)
            t->h[i] = wt->h ? wt->h[i] : 1.0 / (double)D;
    }
    *status = JT_OK;
    return t;
fail:
    jt_tree_free(t);
    return NULL;
}

void jt_tree_free(jt_tree *t)
{
    if (!t)
        return;
    if (t->root) {
        free_children(t, t->root);
        node_drop_candidates(t->root);
        free(t->root->S);
        free(t->root);
    }
    free(t->v);
    free(t->h);
    free(t->counts);
    free(t->ident);
    free(t);
}

/* Decide a root with state S (taking ownership of S) and, if expand, everything below it. */
static int decide_root(jt_tree *t, int32_t *S, int32_t m, int expand, int threads)
{
    t->root = node_new(t, S, m, 0, NULL);
    if (!t->root) {
        free(S);
        return JT_ENOMEM;
    }
    if (m <= 2) {
        decide_tiny(t, t->root);
        if (!expand)
            return JT_OK;
        jt_node **next = NULL;
        int32_t nnext = 0, cap = 0;
        int st = make_children(t, t->root, &next, &nnext, &cap);
        free(next);
        return st;
    }
    if (!expand)
        return decide_nodes(t, &t->root, 1, threads);
    return build_from(t, &t->root, 1, threads);
}

jt_tree *jt_tree_build(const jt_words *w, const jt_weights *wt, int threads, int *status)
{
    jt_tree *t = tree_new(w, wt, status);
    if (!t)
        return NULL;
    int32_t *S = malloc(sizeof(int32_t) * w->D);
    if (!S) {
        *status = JT_ENOMEM;
        jt_tree_free(t);
        return NULL;
    }
    memcpy(S, t->ident, sizeof(int32_t) * w->D);
    *status = decide_root(t, S, w->D, 1, threads);
    if (*status) {
        jt_tree_free(t);
        return NULL;
    }
    return t;
}

int32_t jt_decide(const jt_words *w, const jt_weights *wt, const int32_t *S, int32_t m,
                  int *status)
{
    if (m < 1 || m > w->D) {
        *status = JT_EINVAL;
        return -1;
    }
    for (int32_t k = 0; k < m; k++) {
        if (S[k] < 0 || S[k] >= w->D || (k && S[k] <= S[k - 1])) {
            *status = JT_EINVAL;
            return -1;
        }
    }
    jt_tree *t = tree_new(w, wt, status);
    if (!t)
        return -1;
    int32_t *copy = malloc(sizeof(int32_t) * m);
    if (!copy) {
        *status = JT_ENOMEM;
        jt_tree_free(t);
        return -1;
    }
    memcpy(copy, S, sizeof(int32_t) * m);
    *status = decide_root(t, copy, m, 0, 1);
    int32_t g = *status ? -1 : t->root->guess;
    jt_tree_free(t);
    return g;
}

/* ---- incremental updates ---------------------------------------------------------------------- */

/* Collect the nodes of the tree in breadth-first order. */
static jt_node **all_nodes(const jt_tree *t, int32_t *n)
{
    jt_node **out = malloc(sizeof(jt_node *) * (size_t)(t->nnodes ? t->nnodes : 1));
    if (!out)
        return NULL;
    int32_t head = 0, tail = 0;
    out[tail++] = t->root;
    while (head < tail) {
        jt_node *x = out[head++];
        if (x->child)
            for (int j = 0; j <= t->w->L; j++)
                if (x->child[j])
                    out[tail++] = x->child[j];
    }
    *n = tail;
    return out;
}

int jt_tree_update(jt_tree *t, const int64_t *v, const double *h, int threads)
{
    const jt_words *w = t->w;
    const int32_t D = w->D;
    const int L = w->L;
    if (t->rule > JT_RULE_EXACT)
        return JT_EINVAL;
    jt_weights wt = {t->rule, t->candidates, v, h, t->err_abs, t->err_rel};
    int st = check_weights(w, &wt);
    if (st)
        return st;
    t->decided = t->evaluated = 0;

    int zeros_changed = 0;
    for (int32_t i = 0; i < D && !zeros_changed; i++)
        zeros_changed = (v[i] == 0) != (t->v[i] == 0);
    if (t->rule == JT_RULE_PAPER)
        for (int32_t i = 0; i < D; i++)
            t->h[i] = h ? h[i] : 1.0 / (double)D;
    if (zeros_changed) {
        /* The zero-weight conventions and the exact early stop assume fixed zeros: rebuild. */
        memcpy(t->v, v, sizeof(int64_t) * D);
        free_children(t, t->root);
        node_drop_candidates(t->root);
        int32_t *S = t->root->S;
        free(t->root);
        t->nnodes = 0;
        t->root = NULL;
        return decide_root(t, S, D, 1, threads);
    }

    /* q(c) += delta_b * n_{reply(c, b)} on the path of every changed word b. */
    for (int32_t b = 0; b < D; b++) {
        if (v[b] == t->v[b])
            continue;
        uint64_t delta = (uint64_t)v[b] - (uint64_t)t->v[b]; /* wraps; sums stay exact */
        jt_node *nd = t->root;
        while (nd) {
            if (!nd->fixed && nd->q) {
                const uint32_t bm = w->mask[b];
                for (int32_t c = 0; c < nd->nc; c++) {
                    int r = jt_popcount32(w->mask[nd->rep[c]] & bm);
                    nd->q[c] += delta * nd->cnt[(size_t)c * (L + 1) + r];
                }
                nd->dirty = 1;
            }
            int r = reply(w, nd->guess, b);
            nd = (r < L && nd->child) ? nd->child[r] : NULL;
        }
    }
    memcpy(t->v, v, sizeof(int64_t) * D);

    /* Re-decide: dirty nodes, and for the paper rule every node with a real choice to make. */
    int32_t n = 0;
    jt_node **nodes = all_nodes(t, &n);
    if (!nodes)
        return JT_ENOMEM;
    int32_t *redo = malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    int32_t *newguess = malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    if (!redo || !newguess) {
        free(nodes);
        free(redo);
        free(newguess);
        return JT_ENOMEM;
    }
    int32_t nredo = 0;
    for (int32_t i = 0; i < n; i++) {
        jt_node *x = nodes[i];
        if (x->fixed || !x->q)
            continue;
        if (x->dirty || (t->rule == JT_RULE_PAPER && x->nwin > 1))
            redo[nredo++] = i;
    }
    const int nt = num_threads(threads);
    jt_scratch *scr = calloc((size_t)nt, sizeof(jt_scratch));
    int err = (!scr || scratch_init(scr, nt, w)) ? JT_ENOMEM : JT_OK;
    if (!err) {
#pragma omp parallel for schedule(dynamic, 4) num_threads(nt)
        for (int32_t k = 0; k < nredo; k++) {
            jt_node *x = nodes[redo[k]];
            jt_scratch *s = &scr[thread_id()];
            if (t->rule == JT_RULE_EXACT) {
                newguess[k] = exact_choose(x);
            } else {
                uint32_t *sm = malloc(sizeof(uint32_t) * x->m);
                int hones = 1;
                for (int32_t i = 0; i < x->m && hones; i++)
                    hones = t->h[x->S[i]] == 0.0;
                uint64_t V = node_weight(t, x);
                if (V == 0 && hones)
                    V = (uint64_t)x->m;
                int e2 = sm ? (x->dirty ? paper_window(t, x, V) : JT_OK) : JT_ENOMEM;
                if (e2) {
#pragma omp atomic write
                    err = e2;
                } else {
                    for (int32_t i = 0; i < x->m; i++)
                        sm[i] = w->mask[x->S[i]];
                    gather_h(t, x, hones, s->hs);
                    newguess[k] = paper_choose(t, x, sm, s->hs);
                }
                free(sm);
            }
            x->dirty = 0;
        }
    }
    if (scr)
        scratch_free(scr, nt);
    free(scr);
    t->decided += nredo;

    /* Rebuild below the highest nodes whose guess changed, walking down from the root and never
     * entering a subtree that is being rebuilt. */
    jt_node **next = NULL;
    int32_t nnext = 0, capnext = 0;
    if (!err) {
        for (int32_t k = 0; k < nredo; k++)
            nodes[redo[k]]->pending = newguess[k];
        size_t cap = 64, top = 0;
        jt_node **stack = malloc(sizeof(jt_node *) * cap);
        if (!stack)
            err = JT_ENOMEM;
        else
            stack[top++] = t->root;
        while (top && !err) {
            jt_node *x = stack[--top];
            int32_t g = x->pending;
            x->pending = -1;
            if (g >= 0 && g != x->guess) {
                free_children(t, x);
                x->guess = g;
                err = make_children(t, x, &next, &nnext, &capnext);
                continue;
            }
            if (!x->child)
                continue;
            for (int j = L; j >= 0; j--) {
                if (!x->child[j])
                    continue;
                if (top == cap) {
                    jt_node **grown = realloc(stack, sizeof(jt_node *) * (cap *= 2));
                    if (!grown) {
                        err = JT_ENOMEM;
                        break;
                    }
                    stack = grown;
                }
                stack[top++] = x->child[j];
            }
        }
        free(stack);
    }
    free(nodes);
    free(redo);
    free(newguess);
    if (!err)
        err = build_from(t, next, nnext, threads);
    free(next);
    return err;
}

/* ---- reading a tree ---------------------------------------------------------------------------- */

void jt_tree_guess_counts(const jt_tree *t, int32_t *out)
{
    memcpy(out, t->counts, sizeof(int32_t) * t->w->D);
}

int32_t jt_tree_node_count(const jt_tree *t) { return t->nnodes; }

void jt_tree_stats(const jt_tree *t, int64_t *decided, int64_t *evaluated)
{
    *decided = t->decided;
    *evaluated = t->evaluated;
}

void jt_tree_export(const jt_tree *t, int32_t *guess, int32_t *depth, int32_t *size,
                    int32_t *children)
{
    const int L = t->w->L;
    /* Depth-first, children by increasing reply: number nodes on the way down. */
    size_t cap = 64, top = 0;
    jt_node **stack = malloc(sizeof(jt_node *) * cap);
    int32_t *slot = malloc(sizeof(int32_t) * cap); /* where to write this node's number */
    int32_t next = 0;
    stack[top] = t->root;
    slot[top++] = -1;
    while (top) {
        jt_node *x = stack[--top];
        int32_t where = slot[top];
        int32_t id = next++;
        if (where >= 0)
            children[where] = id;
        guess[id] = x->guess;
        depth[id] = x->depth;
        size[id] = x->m;
        for (int j = 0; j <= L; j++)
            children[(size_t)id * (L + 1) + j] = -1;
        if (!x->child)
            continue;
        for (int j = L; j >= 0; j--) {
            if (!x->child[j])
                continue;
            if (top == cap) {
                cap *= 2;
                stack = realloc(stack, sizeof(jt_node *) * cap);
                slot = realloc(slot, sizeof(int32_t) * cap);
            }
            stack[top] = x->child[j];
            slot[top++] = id * (L + 1) + j;
        }
    }
    free(stack);
    free(slot);
}
