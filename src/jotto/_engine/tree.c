/* tree.c -- decision trees of Jotto guessers: building, deciding, updating.
 *
 * CompNumGuesses (Algorithm 6 of Ganzfried 2011) plays GuesserGBR against each target separately.
 * GuesserGBR's choice depends only on the hider strategy and the state S (the targets still
 * consistent), so all targets share one decision tree; the guesses a target needs are the depth
 * at which it is guessed.  The tree is built level by level.  Big nodes split their candidates
 * over the threads; small nodes are decided whole, one per thread.  No result depends on the
 * number of threads: every value is computed by one thread in a fixed order.
 *
 * Values.  For every candidate c a node computes n_j (targets of S replying j) and
 * q(c) = sum_{i in S} v_i n_{reply(c,i)} in exact integers.  Maximising ExpNumElims is minimising
 * q, since ExpNumElims = |S| - q/V with V = sum_{i in S} v_i.
 *  - exact rule: the least (q, not in S, index).
 *  - paper rule: the paper's float formula with weights h is within (gamma + tau) |S| of the exact
 *    value of q, where gamma bounds its rounding and tau the distance of h/sum(h) from v/V (see
 *    paper_slack).  Only candidates with q <= min q + 2 (gamma + tau) |S| V can be the literal
 *    maximum (the window); the formula is evaluated literally for those, the first maximum wins.
 * Updating a weight v_b changes q(c) by delta n_{reply(c,b)} at the nodes whose S holds b, so an
 * update re-decides only those nodes (and, for the paper rule, the nodes whose window holds more
 * than one candidate, since h changes everywhere), and rebuilds the subtrees whose guess changed.
 * Big nodes keep their class sizes to update q in place; small ones are evaluated again. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/* Nodes of at least t_shared targets split their candidates over threads and keep them; above
 * t_table targets they count with subset tables (whose cost does not grow with |S|).  Tests move
 * both (jt_set_thresholds) to reach every path on small word lists. */
static int32_t t_shared = 128, t_table = 512;
#define CHUNK 256 /* candidates per work item on big nodes */
#define T_TASK 24 /* nodes this small grow within their parent's task */

void jt_set_thresholds(int32_t shared, int32_t table)
{
    t_shared = shared > 3 ? shared : 3;
    t_table = table > 3 ? table : 3;
}

typedef struct jt_node {
    int32_t *S;         /* targets consistent here, increasing */
    int32_t m;
    int32_t depth;      /* guesses made before this node */
    int32_t guess;
    int32_t pending;    /* during an update: the guess re-decided here, else -1 */
    uint8_t fixed;      /* the decision holds for all positive weights: never re-decided */
    uint8_t dirty;      /* the weight of some word of S changed since the last decision */
    struct jt_node *parent;
    struct jt_node **child; /* [R] or NULL for leaves */
    uint16_t *cnt;      /* big nodes of updatable rules: class sizes of every word ... */
    uint64_t *q;        /* ... and its q, kept for updates */
    int32_t *win;       /* paper rule: words within rounding distance of the best, increasing */
    int32_t nwin;
} jt_node;

struct jt_tree {
    const jt_words *w;
    int rule, candidates;
    int64_t *v;         /* [D] */
    double *h;          /* [D], paper rule only */
    double err_abs, err_rel;
    jt_node *root;
    int32_t *counts;    /* [D] guesses needed per target */
    int32_t nnodes;
    int64_t decided, evaluated;
    struct jt_scratch *scr; /* per-thread scratch of the build or update under way */
    int nscr;
};

/* Per-thread scratch (every array sized for all D words): small nodes are evaluated in it, and
 * every node chooses its guess in it. */
typedef struct jt_scratch {
    uint32_t *sm;        /* masks of S */
    uint32_t *spec_mask; /* targets heavier than the lightest ... */
    uint64_t *spec_delta;/* ... and by how much */
    int32_t *spec_id;    /* ... and which words they are */
    int32_t *fam_n;      /* ANAGRAM mode: members of S per anagram family (zero between uses) */
    uint64_t *fam_v;     /* ... their weight */
    uint8_t *in_s;       /* ... membership of S */
    uint64_t *stok;      /* GENERAL mode: tokens ... */
    uint64_t *sspell;    /* ... and spellings of S */
    uint16_t *cnt;       /* class sizes of the candidates */
    uint64_t *q;
    double *hs;          /* paper rule: h over S */
    double *term;        /* paper rule: [m+1] terms of ExpNumElims by class size */
    uint32_t *wmask;     /* paper rule: masks of the window's words (+16) */
    uint16_t *wcnt;      /* paper rule: their class sizes */
} jt_scratch;

/* What deciding one node needs besides its evaluation. */
typedef struct {
    jt_node *node;
    jt_eval ev;
    uint64_t V;         /* sum of the (effective) weights over S */
    int hones;          /* paper rule, all h of S zero: every target weighs 1.0 */
    void *own[10];      /* arrays a big node allocated for itself */
} jt_job;

/* ---- small helpers --------------------------------------------------------------------------- */

static inline int popcount(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (int)((x * 0x01010101u) >> 24);
}

/* The reply code of guess a to target b (jt_code; the popcount itself for PAPER lists). */
static inline int reply(const jt_words *w, int32_t a, int32_t b)
{
    return w->mode == JT_MODE_PAPER ? popcount(w->mask[a] & w->mask[b]) : jt_code(w, a, b);
}

/* Threads to use: the count asked for (<= 0: OpenMP's default), never more than the CPUs,
 * since every thread gets scratch memory the size of the word list. */
static int num_threads(int threads)
{
#ifdef _OPENMP
    const int n = threads > 0 ? threads : omp_get_max_threads();
    const int procs = omp_get_num_procs();
    return n < procs ? n : procs > 0 ? procs : 1;
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

static int updatable(const jt_tree *t) { return t->rule <= JT_RULE_EXACT; }

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
#pragma omp atomic
    t->nnodes += 1;
    return nd;
}

static void node_free(jt_tree *t, jt_node *nd)
{
    free(nd->S);
    free(nd->cnt);
    free(nd->q);
    free(nd->win);
    free(nd->child);
    free(nd);
    t->nnodes--;
}

/* Free the subtrees below nd (not nd itself). */
static void free_children(jt_tree *t, jt_node *nd)
{
    if (!nd->child)
        return;
    const int R = t->w->R;
    for (int j = 0; j < R; j++) {
        jt_node *c = nd->child[j];
        if (c) {
            free_children(t, c);
            node_free(t, c);
        }
    }
    free(nd->child);
    nd->child = NULL;
}

/* ---- the paper rule's rounding distance ------------------------------------------------------ */

/* Largest q(c) - min q for which c may still have the largest ExpNumElims when the formula is
 * evaluated in IEEE double with weights h_i = s (v_i + a_i)(1 + r_i), |a_i| <= err_abs,
 * |r_i| <= err_rel.  With p = h/sum h and p' = v/V over S:
 *  - |p - p'|_1 <= tau = 2 err_rel/(1 - err_rel) + 2 err_abs m/(V - err_abs m), and since
 *    ExpNumElims = m - sum_i p_i n_{reply(c,i)}, the exact values under p and p' differ by at most
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

/* ---- deciding one node ----------------------------------------------------------------------- */

/* States of one or two targets: the decision never depends on the weights. */
static void decide_tiny(const jt_tree *t, jt_node *nd)
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
        if (reply(w, c, a) != reply(w, c, b)) {
            nd->guess = c;
            return;
        }
    }
}

/* Exact rule, positive weights, |S| <= R: a word of S leaving every target alone reaches the
 * least possible q (= V) whatever the weights, and the earliest such word wins the tie-break. */
static int exact_early_stop(const jt_words *w, jt_node *nd)
{
    for (int32_t k = 0; k < nd->m; k++) {
        uint64_t seen[(JT_MAX_R + 63) / 64] = {0};
        int alone = 1;
        for (int32_t i = 0; i < nd->m && alone; i++) {
            const int r = reply(w, nd->S[k], nd->S[i]);
            const uint64_t bit = (uint64_t)1 << (r & 63);
            alone = !(seen[r >> 6] & bit);
            seen[r >> 6] |= bit;
        }
        if (alone) {
            nd->guess = nd->S[k];
            nd->fixed = 1;
            return 1;
        }
    }
    return 0;
}


static int all_h_zero(const jt_tree *t, const jt_node *nd)
{
    for (int32_t k = 0; k < nd->m; k++)
        if (t->h[nd->S[k]] != 0.0)
            return 0;
    return 1;
}

/* Sort the heavier targets by their excess (heapsort of the two arrays together), so that the
 * kernels weigh each excess once; the order within a group does not matter. */
static inline void swap3(uint32_t *mask, uint64_t *delta, int32_t *id, int32_t a, int32_t b)
{
    const uint64_t d = delta[a];
    const uint32_t x = mask[a];
    const int32_t i = id[a];
    delta[a] = delta[b];
    mask[a] = mask[b];
    id[a] = id[b];
    delta[b] = d;
    mask[b] = x;
    id[b] = i;
}

static void sort_by_delta(uint32_t *mask, uint64_t *delta, int32_t *id, int32_t n)
{
    for (int32_t end = n, start = n / 2; end > 1;) {
        if (start > 0) {
            start--;
        } else {
            end--;
            swap3(mask, delta, id, 0, end);
        }
        for (int32_t root = start;;) { /* sift down */
            int32_t child = 2 * root + 1;
            if (child >= end)
                break;
            if (child + 1 < end && delta[child + 1] > delta[child])
                child++;
            if (delta[root] >= delta[child])
                break;
            swap3(mask, delta, id, root, child);
            root = child;
        }
    }
}

/* Fill job->ev's description of S (masks, weights, candidates) into the arrays given; returns 1
 * if the node was decided on the spot. */
static int describe(const jt_tree *t, jt_job *job, uint32_t *sm, uint32_t *spec_mask,
                    uint64_t *spec_delta, int32_t *spec_id)
{
    const jt_words *w = t->w;
    jt_node *nd = job->node;
    jt_eval *ev = &job->ev;
    const int32_t m = nd->m;
    memset(ev, 0, sizeof *ev);
    ev->w = w;
    ev->m = m;
    ev->sm = sm;
    ev->sid = nd->S;
    uint64_t vmin = UINT64_MAX, V = 0;
    for (int32_t k = 0; k < m; k++) {
        sm[k] = w->mask[nd->S[k]];
        const uint64_t vi = (uint64_t)t->v[nd->S[k]];
        V += vi;
        vmin = vi < vmin ? vi : vmin;
    }
    job->hones = t->rule == JT_RULE_PAPER && all_h_zero(t, nd);
    if ((V == 0 && (t->rule == JT_RULE_EXACT || job->hones)) || t->rule > JT_RULE_EXACT) {
        /* No weight on S: its targets are equally likely.  Norvig's guessers count targets. */
        vmin = 1;
        V = (uint64_t)m;
    }
    job->V = V;
    ev->vmin = vmin;
    ev->spec_mask = spec_mask;
    ev->spec_delta = spec_delta;
    ev->spec_id = spec_id;
    if (V != (uint64_t)m * vmin) {
        for (int32_t k = 0; k < m; k++) {
            const uint64_t d = (uint64_t)t->v[nd->S[k]] - vmin;
            if (d) {
                spec_mask[ev->nspec] = sm[k];
                spec_id[ev->nspec] = nd->S[k];
                spec_delta[ev->nspec++] = d;
            }
        }
        sort_by_delta(spec_mask, spec_delta, spec_id, ev->nspec);
    }
    ev->wv = ev->nspec ? t->v : NULL; /* the weights the anagram fix-up takes */
    if (t->rule == JT_RULE_EXACT && vmin > 0 && m <= w->R && exact_early_stop(w, nd))
        return 1;
    const int consistent = t->candidates == JT_CAND_CONSISTENT ||
                           (t->candidates == JT_CAND_NORVIG && m <= 3);
    ev->nc = consistent ? m : w->D;
    ev->cid = consistent ? nd->S : NULL;
    ev->cm = consistent ? sm : w->mask;
    ev->method = !consistent && w->subrank && m > t_table ? JT_M_TABLE : JT_M_SLICED;
    return 0;
}

/* ---- evaluating candidates, in every mode of the word list ------------------------------------ */

/* ANAGRAM mode: the members of S of every anagram family and their weight (wv, or vmin each),
 * in arrays that are zero between uses (families_clear), for fix_anagrams. */
static void families_set(const jt_words *w, jt_eval *ev, const int32_t *S, int32_t m,
                         int32_t *fam_n, uint64_t *fam_v, uint8_t *in_s)
{
    for (int32_t k = 0; k < m; k++) {
        const int32_t f = w->family[S[k]];
        fam_n[f]++;
        fam_v[f] += ev->wv ? (uint64_t)ev->wv[S[k]] : ev->vmin;
        in_s[S[k]] = 1;
    }
    ev->fam_n = fam_n;
    ev->fam_v = fam_v;
    ev->in_s = in_s;
}

static void families_clear(const jt_words *w, const int32_t *S, int32_t m, int32_t *fam_n,
                           uint64_t *fam_v, uint8_t *in_s)
{
    for (int32_t k = 0; k < m; k++) {
        fam_n[w->family[S[k]]] = 0;
        fam_v[w->family[S[k]]] = 0;
        in_s[S[k]] = 0;
    }
}

/* ANAGRAM mode: the kernels counted popcount classes, in which the nF members of S sharing the
 * candidate's letters (its family F, weighing VF) all reply L.  By the rules only the candidate
 * itself (if in S, s = 1, weighing vg) replies L, the win; the other nF - s reply L+1.  So
 * n_L = s, n_{L+1} = nF - s, and q, which counted VF nF for them, gets
 * vg + (VF - vg)(nF - s) instead: exact in wrapping uint64 arithmetic, like q itself. */
static void fix_anagrams(const jt_eval *ev, int32_t c0, int32_t c1)
{
    const jt_words *w = ev->w;
    const int L = w->L;
    const size_t nc = (size_t)ev->nc;
    for (int32_t c = c0; c < c1; c++) {
        const int32_t g = ev->cid ? ev->cid[c] : c, f = w->family[g];
        const uint32_t nF = (uint32_t)ev->fam_n[f], s = ev->in_s[g];
        if (ev->cnt) {
            ev->cnt[(L + 1) * nc + c] = (uint16_t)(nF - s);
            ev->cnt[L * nc + c] = (uint16_t)s;
        }
        if (ev->q && nF) {
            const uint64_t VF = ev->fam_v[f];
            const uint64_t vg = s ? (ev->wv ? (uint64_t)ev->wv[g] : ev->vmin) : 0;
            ev->q[c] = ev->q[c] - VF * nF + (VF - vg) * (nF - s) + vg;
        }
    }
}

/* Class sizes by reply code (and q if ev->q) of candidates [c0, c1), whatever the list's mode;
 * in ANAGRAM mode the caller has set the families of S (families_set). */
static void evaluate_range(const jt_eval *ev, int32_t c0, int32_t c1)
{
    const jt_kernels *K = jt_kernels_current();
    if (ev->w->mode == JT_MODE_GENERAL) {
        K->evaluate_codes(ev, c0, c1);
        return;
    }
    K->evaluate(ev, c0, c1);
    if (ev->w->mode == JT_MODE_ANAGRAM)
        fix_anagrams(ev, c0, c1);
}

/* The paper's ExpNumElims of candidate c over S, literally, by reply codes (every mode but
 * PAPER, whose kernels do it on masks): AnswerProbs summed in dictionary order, then the sum over
 * codes in increasing order (codes no target gives add 0). */
static double exp_num_elims_codes(const jt_words *w, int32_t c, const int32_t *S,
                                  const double *hs, int32_t m, double total)
{
    double acc[JT_MAX_R];
    int32_t n[JT_MAX_R];
    for (int j = 0; j < w->R; j++) {
        acc[j] = 0.0;
        n[j] = 0;
    }
    for (int32_t k = 0; k < m; k++) {
        const int r = reply(w, c, S[k]);
        acc[r] += hs[k];
        n[r]++;
    }
    double e = 0.0;
    for (int j = 0; j < w->R; j++)
        e += (acc[j] / total) * (double)(m - n[j]);
    return e;
}

static void gather_h(const jt_tree *t, const jt_node *nd, int hones, double *hs)
{
    for (int32_t k = 0; k < nd->m; k++)
        hs[k] = hones ? 1.0 : t->h[nd->S[k]];
}

/* Exact rule: the least q, then a word of S, then the lowest index.  Candidates are all words,
 * or (cid, hard mode) the words of S. */
static int32_t exact_pick(const jt_node *nd, const uint64_t *q, int32_t D, const int32_t *cid)
{
    int32_t first;
    const uint64_t qmin = jt_kernels_current()->min_q(q, D, &first);
    if (cid)
        return cid[first];
    for (int32_t k = 0; k < nd->m; k++)
        if (q[nd->S[k]] == qmin)
            return nd->S[k];
    return first;
}

/* Paper rule: the window of words that may be the literal maximum. */
static int paper_window(const jt_tree *t, jt_node *nd, const uint64_t *q, uint64_t qmin,
                        uint64_t V, const int32_t *cid)
{
    const uint64_t slack = paper_slack(nd->m, t->w->R, V, t->err_abs, t->err_rel);
    const int32_t D = cid ? nd->m : t->w->D; /* candidates: the words of S (cid) or all */
    const uint64_t lim = qmin + slack < qmin ? UINT64_MAX : qmin + slack;
    free(nd->win);
    nd->win = malloc(sizeof(int32_t) * ((size_t)D + 16));
    if (!nd->win)
        return JT_ENOMEM;
    nd->nwin = jt_kernels_current()->select_le(q, D, lim, nd->win);
    for (int32_t i = 0; cid && i < nd->nwin; i++)
        nd->win[i] = cid[nd->win[i]];
    int32_t *fit = realloc(nd->win, sizeof(int32_t) * (size_t)nd->nwin);
    nd->win = fit ? fit : nd->win;
    return JT_OK;
}

/* Paper rule: the first word of the window with the largest literal ExpNumElims, with h over S
 * in s->hs.  When every target of S weighs the same, a class of n targets sums to
 * ((h + h) + ...) + h, n terms added in order, whichever targets they are; so its term of the
 * sum over j is a function term[n] of n alone, computed once per node with the literal
 * operations, and a value is L+1 look-ups added in order of j: bit-identical to the literal
 * evaluation.  The window's class sizes then come from the vector kernel, and words whose class
 * sizes were already seen (the same value, at a higher index) are skipped. */
static int32_t paper_pick(const jt_tree *t, const jt_node *nd, const uint32_t *sm,
                          jt_scratch *s)
{
    if (nd->nwin == 1)
        return nd->win[0];
    const jt_kernels *K = jt_kernels_current();
    const int32_t m = nd->m, nwin = nd->nwin;
    const jt_words *w = t->w;
    const int R = w->R;
    const double *hs = s->hs;
    int same = 1;
    for (int32_t k = 1; k < m && same; k++)
        same = hs[k] == hs[0];
    double total = 0.0;
    for (int32_t k = 0; k < m; k++)
        total += hs[k];
    int bits = 1;
    while (((int32_t)1 << bits) <= m)
        bits++;
    const int pack = R * bits <= 64;
    if (same) {
        double acc = 0.0;
        for (int32_t n = 0; n <= m; n++) {
            s->term[n] = (acc / total) * (double)(m - n);
            acc += hs[0];
        }
        jt_eval ev = jt_eval_of(w, m, sm, nd->S, nwin, nd->win, s->wmask, s->wcnt, NULL);
        for (int32_t i = 0; i < nwin; i++)
            s->wmask[i] = w->mask[nd->win[i]];
        if (w->mode == JT_MODE_ANAGRAM)
            families_set(w, &ev, nd->S, m, s->fam_n, s->fam_v, s->in_s);
        if (w->mode == JT_MODE_GENERAL)
            jt_gather_s(&ev, nd->S, m, s->stok, s->sspell);
        evaluate_range(&ev, 0, nwin);
        if (w->mode == JT_MODE_ANAGRAM)
            families_clear(w, nd->S, m, s->fam_n, s->fam_v, s->in_s);
    }
    /* class sizes seen, packed into a key (never 0: they sum to m >= 1), in an open-addressed
     * table that stops growing when three quarters full */
    enum { SEEN = 128 };
    uint64_t seen[SEEN] = {0};
    int nseen = 0;
    int32_t best = -1;
    double be = 0.0;
    for (int32_t i = 0; i < nwin; i++) {
        const int32_t c = nd->win[i];
        double e = 0.0;
        if (same) {
            uint64_t key = 0;
            for (int j = 0; j < R; j++)
                key = key << bits | s->wcnt[(size_t)j * nwin + i];
            if (pack) {
                unsigned slot = (unsigned)((key * 0x9e3779b97f4a7c15u) >> 57);
                while (seen[slot] && seen[slot] != key)
                    slot = (slot + 1) % SEEN;
                if (seen[slot])
                    continue; /* the same value at a higher index: never strictly better */
                if (nseen < SEEN * 3 / 4) {
                    seen[slot] = key;
                    nseen++;
                }
            }
            for (int j = 0; j < R; j++)
                e += s->term[s->wcnt[(size_t)j * nwin + i]];
        } else if (w->mode == JT_MODE_PAPER) {
            e = K->exp_num_elims(w->mask[c], sm, hs, m, w->L, total);
        } else {
            e = exp_num_elims_codes(w, c, nd->S, hs, m, total);
        }
        if (best < 0 || e > be) {
            best = c;
            be = e;
        }
    }
    return best;
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

/* Choose the guess of an evaluated node, in scratch s. */
static int choose(const jt_tree *t, jt_job *job, jt_scratch *s)
{
    jt_node *nd = job->node;
    const jt_eval *ev = &job->ev;
    if (t->rule > JT_RULE_EXACT) {
        nd->guess = norvig_pick(t, ev);
        return JT_OK;
    }
    if (t->rule == JT_RULE_EXACT) {
        nd->guess = exact_pick(nd, ev->q, ev->nc, ev->cid);
        return JT_OK;
    }
    const uint64_t qmin = jt_kernels_current()->min_q(ev->q, ev->nc, NULL);
    const int st = paper_window(t, nd, ev->q, qmin, job->V, ev->cid);
    if (st)
        return st;
    gather_h(t, nd, job->hones, s->hs);
    nd->guess = paper_pick(t, nd, ev->sm, s);
    return JT_OK;
}

static void scratch_free(jt_scratch *scr, int n)
{
    for (int i = 0; scr && i < n; i++) {
        free(scr[i].sm);
        free(scr[i].spec_mask);
        free(scr[i].spec_delta);
        free(scr[i].spec_id);
        free(scr[i].fam_n);
        free(scr[i].fam_v);
        free(scr[i].in_s);
        free(scr[i].stok);
        free(scr[i].sspell);
        free(scr[i].cnt);
        free(scr[i].q);
        free(scr[i].hs);
        free(scr[i].term);
        free(scr[i].wmask);
        free(scr[i].wcnt);
    }
    free(scr);
}

static jt_scratch *scratch_new(int n, const jt_words *w)
{
    jt_scratch *scr = calloc((size_t)n, sizeof(jt_scratch));
    if (!scr)
        return NULL;
    const size_t D = (size_t)w->D;
    for (int i = 0; i < n; i++) {
        scr[i].sm = malloc(sizeof(uint32_t) * D);
        scr[i].spec_mask = malloc(sizeof(uint32_t) * D);
        scr[i].spec_delta = malloc(sizeof(uint64_t) * D);
        scr[i].spec_id = malloc(sizeof(int32_t) * D);
        scr[i].fam_n = calloc(D, sizeof(int32_t));
        scr[i].fam_v = calloc(D, sizeof(uint64_t));
        scr[i].in_s = calloc(D, 1);
        scr[i].stok = malloc(sizeof(uint64_t) * D);
        scr[i].sspell = malloc(sizeof(uint64_t) * D);
        scr[i].cnt = malloc(sizeof(uint16_t) * D * w->R);
        scr[i].q = malloc(sizeof(uint64_t) * D);
        scr[i].hs = malloc(sizeof(double) * D);
        scr[i].term = malloc(sizeof(double) * (D + 1));
        scr[i].wmask = malloc(sizeof(uint32_t) * (D + 16));
        scr[i].wcnt = malloc(sizeof(uint16_t) * D * w->R);
        if (!scr[i].sm || !scr[i].spec_mask || !scr[i].spec_delta || !scr[i].spec_id ||
            !scr[i].fam_n || !scr[i].fam_v || !scr[i].in_s || !scr[i].stok || !scr[i].sspell ||
            !scr[i].cnt || !scr[i].q ||
            !scr[i].hs || !scr[i].term || !scr[i].wmask || !scr[i].wcnt) {
            scratch_free(scr, n);
            return NULL;
        }
    }
    return scr;
}

/* Decide a small node whole, in one thread's scratch. */
static int decide_small(jt_tree *t, jt_node *nd, jt_scratch *s)
{
    jt_job job;
    job.node = nd;
    if (describe(t, &job, s->sm, s->spec_mask, s->spec_delta, s->spec_id))
        return JT_OK;
    /* The greedy rules need q only, not the class sizes. */
    const int q_only = updatable(t);
    job.ev.cnt = q_only ? NULL : s->cnt;
    job.ev.q = updatable(t) ? s->q : NULL;
    const jt_words *w = t->w;
    if (w->mode == JT_MODE_ANAGRAM)
        families_set(w, &job.ev, nd->S, nd->m, s->fam_n, s->fam_v, s->in_s);
    if (w->mode == JT_MODE_GENERAL)
        jt_gather_s(&job.ev, nd->S, nd->m, s->stok, s->sspell);
    evaluate_range(&job.ev, 0, job.ev.nc);
    if (w->mode == JT_MODE_ANAGRAM)
        families_clear(w, nd->S, nd->m, s->fam_n, s->fam_v, s->in_s);
    return choose(t, &job, s);
}

/* Big nodes, phase A: describe S in arrays of the node's own (the table method's too). */
static int big_prepare(jt_tree *t, jt_job *job)
{
    jt_node *nd = job->node;
    const jt_words *w = t->w;
    const size_t m = (size_t)nd->m, D = (size_t)w->D;
    uint32_t *sm = malloc(sizeof(uint32_t) * m);
    uint32_t *spec_mask = malloc(sizeof(uint32_t) * m);
    uint64_t *spec_delta = malloc(sizeof(uint64_t) * m);
    int32_t *spec_id = malloc(sizeof(int32_t) * m);
    job->own[0] = sm;
    job->own[1] = spec_mask;
    job->own[2] = spec_delta;
    job->own[3] = spec_id;
    if (!sm || !spec_mask || !spec_delta || !spec_id)
        return JT_ENOMEM;
    if (describe(t, job, sm, spec_mask, spec_delta, spec_id))
        return JT_OK;
    jt_eval *ev = &job->ev;
    if (w->mode == JT_MODE_ANAGRAM) {
        int32_t *fam_n = calloc(D, sizeof(int32_t));
        uint64_t *fam_v = calloc(D, sizeof(uint64_t));
        uint8_t *in_s = calloc(D, 1);
        job->own[6] = fam_n;
        job->own[7] = fam_v;
        job->own[8] = in_s;
        if (!fam_n || !fam_v || !in_s)
            return JT_ENOMEM;
        families_set(w, ev, nd->S, nd->m, fam_n, fam_v, in_s);
    }
    if (w->mode == JT_MODE_GENERAL) {
        uint64_t *stok = malloc(sizeof(uint64_t) * 2 * m);
        job->own[6] = stok;
        if (!stok)
            return JT_ENOMEM;
        jt_gather_s(ev, nd->S, nd->m, stok, stok + m);
    }
    nd->cnt = malloc(sizeof(uint16_t) * (size_t)ev->nc * w->R);
    /* hard mode (candidates the words of S) keeps no values: updates re-decide it whole */
    uint64_t *q = updatable(t) ? malloc(sizeof(uint64_t) * (size_t)ev->nc) : NULL;
    if (ev->cid)
        job->own[9] = q;
    else
        nd->q = q;
    if (!nd->cnt || (updatable(t) && !q))
        return JT_ENOMEM;
    ev->cnt = nd->cnt;
    ev->q = q;
    if (nd->m == w->D && !ev->cid && w->root_cnt) { /* the root: its class sizes are known */
        /* (raw popcount classes in ANAGRAM mode, which evaluate_range corrects) */
        memcpy(nd->cnt, w->root_cnt, sizeof(uint16_t) * (size_t)ev->nc * (w->L + 1));
        ev->counted = 1;
    } else if (ev->method == JT_M_TABLE) {
        uint16_t *table = calloc((size_t)w->table_size, sizeof(uint16_t));
        uint8_t *in_s = calloc(D, 1);
        job->own[4] = table;
        job->own[5] = in_s;
        if (!table || !in_s)
            return JT_ENOMEM;
        for (size_t k = 0; k < m; k++) {
            const int32_t *sr = w->subrank + (size_t)nd->S[k] * w->nsub;
            for (int32_t i = 0; i < w->nsub; i++)
                table[sr[i]]++;
            in_s[nd->S[k]] = 1;
        }
        ev->table = table;
        ev->in_s = in_s;
    }
    return JT_OK;
}

static void big_release(const jt_tree *t, jt_job *job)
{
    for (int i = 0; i < 10; i++) {
        free(job->own[i]);
        job->own[i] = NULL;
    }
    if (!updatable(t)) { /* Norvig's trees are never updated */
        free(job->node->cnt);
        job->node->cnt = NULL;
    }
}

/* Decide a big node: its candidates are evaluated in tasks, chunk by chunk. */
static int decide_big(jt_tree *t, jt_node *nd)
{
    jt_job job;
    memset(&job, 0, sizeof job);
    job.node = nd;
    int st = big_prepare(t, &job);
    if (!st && !nd->fixed) {
        const jt_eval *ev = &job.ev;
        const int32_t nchunks = (ev->nc + CHUNK - 1) / CHUNK;
#pragma omp taskloop grainsize(1)
        for (int32_t k = 0; k < nchunks; k++) {
            const int32_t c0 = k * CHUNK;
            evaluate_range(ev, c0, c0 + CHUNK < ev->nc ? c0 + CHUNK : ev->nc);
        }
        st = choose(t, &job, &t->scr[thread_id()]);
    }
    big_release(t, &job);
    return st;
}

/* Decide a node with m >= 3.  Scratch is per thread and used only between task scheduling
 * points, so tasks a thread runs while it waits never share it with the waiting one. */
static int decide(jt_tree *t, jt_node *nd)
{
    const int st = nd->m >= t_shared ? decide_big(t, nd)
                                     : decide_small(t, nd, &t->scr[thread_id()]);
    const int64_t evaluated =
        nd->fixed ? 0 : t->candidates == JT_CAND_ALL || nd->m > 3 ? t->w->D : nd->m;
#pragma omp atomic
    t->decided += 1;
#pragma omp atomic
    t->evaluated += evaluated;
    return st;
}

static void grow(jt_tree *t, jt_node *nd, int *err);

/* Split S by the reply to nd's guess; record the target guessed here; create the children,
 * deciding tiny ones at once and growing the others in tasks of their own. */
static int expand(jt_tree *t, jt_node *nd, int *err)
{
    const jt_words *w = t->w;
    const int R = w->R, win = w->win;
    int32_t sizes[JT_MAX_R], fill[JT_MAX_R];
    int32_t *S[JT_MAX_R];
    for (int j = 0; j < R; j++) {
        sizes[j] = fill[j] = 0;
        S[j] = NULL;
    }
    for (int32_t k = 0; k < nd->m; k++)
        sizes[reply(w, nd->guess, nd->S[k])]++;
    if (sizes[win])
        t->counts[nd->guess] = nd->depth + 1;
    if (nd->m == sizes[win])
        return JT_OK; /* a leaf */
    nd->child = calloc((size_t)R, sizeof(jt_node *));
    int st = nd->child ? JT_OK : JT_ENOMEM;
    for (int j = 0; j < R && !st; j++)
        if (j != win && sizes[j] && !(S[j] = malloc(sizeof(int32_t) * sizes[j])))
            st = JT_ENOMEM;
    if (st) {
        for (int j = 0; j < R; j++)
            free(S[j]);
        return st;
    }
    for (int32_t k = 0; k < nd->m; k++) {
        const int r = reply(w, nd->guess, nd->S[k]);
        if (r != win)
            S[r][fill[r]++] = nd->S[k];
    }
    for (int j = 0; j < R; j++) {
        if (j == win || !sizes[j])
            continue;
        jt_node *c = st ? NULL : node_new(t, S[j], sizes[j], nd->depth + 1, nd);
        if (!c) {
            free(S[j]);
            st = JT_ENOMEM;
            continue;
        }
        nd->child[j] = c;
        if (c->m <= 2) {
            decide_tiny(t, c);
            st = expand(t, c, err);
        } else if (c->m < T_TASK) {
            grow(t, c, err); /* too small to be worth a task of its own */
        } else {
#pragma omp task firstprivate(c)
            grow(t, c, err);
        }
    }
    return st;
}

/* Decide nd (m >= 3) and everything below it; the first error lands in *err. */
static void grow(jt_tree *t, jt_node *nd, int *err)
{
    int st;
#pragma omp atomic read
    st = *err;
    if (st)
        return;
    st = decide(t, nd);
    if (!st)
        st = expand(t, nd, err);
    if (st) {
#pragma omp atomic write
        *err = st;
    }
}

/* Per-thread scratch for nt threads, kept on the tree between calls. */
static int ensure_scratch(jt_tree *t, int nt)
{
    if (t->scr && t->nscr >= nt)
        return JT_OK;
    scratch_free(t->scr, t->nscr);
    t->scr = scratch_new(nt, t->w);
    t->nscr = t->scr ? nt : 0;
    return t->scr ? JT_OK : JT_ENOMEM;
}

/* Threads for work of about `pairs` (candidate, target) pairs: one below t_parallel, since on a
 * busy machine a second thread may wait milliseconds for a CPU while one thread finishes such
 * work in well under a millisecond; the parallel regions below run serially (`if` clause) then,
 * waking no other thread. */
static int64_t t_parallel = 1 << 22;

static int threads_for(int threads, int64_t pairs)
{
    return pairs < t_parallel ? 1 : num_threads(threads);
}

void jt_set_parallel_threshold(int64_t pairs) { t_parallel = pairs < 0 ? 1 << 22 : pairs; }

/* Grow the given nodes (undecided, m >= 3) or, if decided, expand them: in parallel tasks. */
static int grow_all(jt_tree *t, jt_node **nodes, int32_t n, int decided, int threads)
{
    int64_t pairs = 0;
    for (int32_t i = 0; i < n; i++)
        pairs += (int64_t)nodes[i]->m * t->w->D;
    const int nt = threads_for(threads, pairs);
    if (ensure_scratch(t, nt))
        return JT_ENOMEM;
    int err = JT_OK;
#pragma omp parallel num_threads(nt) if (nt > 1)
#pragma omp single
    for (int32_t i = 0; i < n; i++) {
        jt_node *x = nodes[i];
#pragma omp task firstprivate(x)
        {
            if (decided) {
                const int st = expand(t, x, &err);
                if (st) {
#pragma omp atomic write
                    err = st;
                }
            } else {
                grow(t, x, &err);
            }
        }
    }
    return err;
}

/* ---- trees ------------------------------------------------------------------------------------ */

static int check_weights(const jt_words *w, const jt_weights *wt)
{
    if (wt->rule < JT_RULE_PAPER || wt->rule > JT_RULE_NORVIG_ENTROPY)
        return JT_EINVAL;
    if (wt->candidates < JT_CAND_ALL || wt->candidates > JT_CAND_NORVIG)
        return JT_EINVAL;
    if (wt->rule <= JT_RULE_EXACT && wt->candidates == JT_CAND_NORVIG)
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

static void set_weights(jt_tree *t, const int64_t *v, const double *h)
{
    const int32_t D = t->w->D;
    for (int32_t i = 0; i < D; i++)
        t->v[i] = v ? v[i] : 1;
    if (t->h)
        for (int32_t i = 0; i < D; i++)
            t->h[i] = h ? h[i] : 1.0 / (double)D;
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
    t->h = t->rule == JT_RULE_PAPER ? malloc(sizeof(double) * D) : NULL;
    if (!t->v || !t->counts || (t->rule == JT_RULE_PAPER && !t->h)) {
        jt_tree_free(t);
        return NULL;
    }
    set_weights(t, wt->v, wt->h);
    *status = JT_OK;
    return t;
}

static void drop_root(jt_tree *t)
{
    if (t->root) {
        free_children(t, t->root);
        node_free(t, t->root);
        t->root = NULL;
    }
}

void jt_tree_free(jt_tree *t)
{
    if (!t)
        return;
    drop_root(t);
    scratch_free(t->scr, t->nscr);
    free(t->v);
    free(t->h);
    free(t->counts);
    free(t);
}

/* Decide a root with state S (taking ownership of S) and, if expand, everything below it. */
static int decide_root(jt_tree *t, int32_t *S, int32_t m, int expand_it, int threads)
{
    t->root = node_new(t, S, m, 0, NULL);
    if (!t->root) {
        free(S);
        return JT_ENOMEM;
    }
    if (m <= 2) {
        decide_tiny(t, t->root);
        return expand_it ? grow_all(t, &t->root, 1, 1, threads) : JT_OK;
    }
    if (expand_it)
        return grow_all(t, &t->root, 1, 0, threads);
    return ensure_scratch(t, 1) ? JT_ENOMEM : decide(t, t->root);
}

static int build_all(jt_tree *t, int threads)
{
    const int32_t D = t->w->D;
    int32_t *S = malloc(sizeof(int32_t) * D);
    if (!S)
        return JT_ENOMEM;
    for (int32_t i = 0; i < D; i++)
        S[i] = i;
    return decide_root(t, S, D, 1, threads);
}

jt_tree *jt_tree_build(const jt_words *w, const jt_weights *wt, int threads, int *status)
{
    jt_tree *t = tree_new(w, wt, status);
    if (!t)
        return NULL;
    *status = build_all(t, threads);
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
    const int32_t g = *status ? -1 : t->root->guess;
    jt_tree_free(t);
    return g;
}

int jt_class_sizes(const jt_words *w, const int32_t *S, int32_t m, const int32_t *cand,
                   int32_t nc, uint16_t *out)
{
    if (m < 1 || nc < 1)
        return JT_EINVAL;
    for (int32_t k = 0; k < m; k++)
        if (S[k] < 0 || S[k] >= w->D)
            return JT_EINVAL;
    for (int32_t c = 0; cand && c < nc; c++)
        if (cand[c] < 0 || cand[c] >= w->D)
            return JT_EINVAL;
    const int anagram = w->mode == JT_MODE_ANAGRAM;
    const size_t D = (size_t)w->D;
    uint32_t *sm = malloc(sizeof(uint32_t) * (size_t)m);
    uint32_t *cm = cand ? malloc(sizeof(uint32_t) * (size_t)nc + 64) : NULL;
    int32_t *fam_n = anagram ? calloc(D, sizeof(int32_t)) : NULL;
    uint64_t *fam_v = anagram ? calloc(D, sizeof(uint64_t)) : NULL;
    uint8_t *in_s = anagram ? calloc(D, 1) : NULL;
    uint64_t *stok = w->mode == JT_MODE_GENERAL ? malloc(sizeof(uint64_t) * 2 * (size_t)m) : NULL;
    int st = sm && (!cand || cm) && (!anagram || (fam_n && fam_v && in_s)) &&
             (w->mode != JT_MODE_GENERAL || stok) ? JT_OK : JT_ENOMEM;
    if (!st) {
        for (int32_t k = 0; k < m; k++)
            sm[k] = w->mask[S[k]];
        for (int32_t c = 0; cand && c < nc; c++)
            cm[c] = w->mask[cand[c]];
        jt_eval ev = jt_eval_of(w, m, sm, S, nc, cand, cand ? cm : w->mask, out, NULL);
        if (anagram)
            families_set(w, &ev, S, m, fam_n, fam_v, in_s);
        if (stok)
            jt_gather_s(&ev, S, m, stok, stok + m);
        evaluate_range(&ev, 0, nc);
    }
    free(stok);
    free(sm);
    free(cm);
    free(fam_n);
    free(fam_v);
    free(in_s);
    return st;
}

/* ---- incremental updates ---------------------------------------------------------------------- */

/* The nodes of the tree in breadth-first order. */
static jt_node **all_nodes(const jt_tree *t, int32_t *n)
{
    jt_node **out = malloc(sizeof(jt_node *) * (size_t)(t->nnodes ? t->nnodes : 1));
    if (!out)
        return NULL;
    int32_t head = 0, tail = 0;
    out[tail++] = t->root;
    while (head < tail) {
        const jt_node *x = out[head++];
        if (x->child)
            for (int j = 0; j < t->w->R; j++)
                if (x->child[j])
                    out[tail++] = x->child[j];
    }
    *n = tail;
    return out;
}

/* Re-decide node x after a weight change: from its kept values if it has them, else whole. */
static int redecide(jt_tree *t, jt_node *x, jt_scratch *s, int32_t *guess)
{
    const jt_words *w = t->w;
    if (!x->dirty) { /* paper rule, weights of S unchanged: h moved, the window did not */
        for (int32_t k = 0; k < x->m; k++)
            s->sm[k] = w->mask[x->S[k]];
        gather_h(t, x, all_h_zero(t, x), s->hs);
        *guess = paper_pick(t, x, s->sm, s);
        return JT_OK;
    }
    x->dirty = 0;
    if (!x->q) {
        const int32_t old = x->guess;
        const int st = decide_small(t, x, s);
        *guess = x->guess;
        x->guess = old;
        return st;
    }
    jt_job job;
    job.node = x;
    if (describe(t, &job, s->sm, s->spec_mask, s->spec_delta, s->spec_id)) /* never: big nodes
                                                                              are > R */
        return JT_EINVAL;
    job.ev.cnt = x->cnt;
    job.ev.q = x->q;
    const int32_t old = x->guess;
    const int st = choose(t, &job, s);
    *guess = x->guess;
    x->guess = old;
    return st;
}

int jt_tree_update(jt_tree *t, const int64_t *v, const double *h, int threads)
{
    const jt_words *w = t->w;
    const int32_t D = w->D;
    if (!updatable(t))
        return JT_EINVAL;
    const jt_weights wt = {t->rule, t->candidates, v, h, t->err_abs, t->err_rel};
    int err = check_weights(w, &wt);
    if (err)
        return err;
    t->decided = t->evaluated = 0;

    int32_t changed = 0, zeros_changed = 0;
    for (int32_t i = 0; i < D; i++) {
        const int64_t vi = v ? v[i] : 1;
        changed += vi != t->v[i];
        zeros_changed |= (vi == 0) != (t->v[i] == 0);
    }
    if (zeros_changed || changed > D / 8) {
        /* The zero-weight conventions assume fixed zeros, and many changes touch every node
         * anyway: build afresh. */
        set_weights(t, v, h);
        drop_root(t);
        memset(t->counts, 0, sizeof(int32_t) * D);
        return build_all(t, threads);
    }

    /* q(c) += delta_b n_{reply(c, b)} on the path of every changed word b. */
    const jt_kernels *K = jt_kernels_current();
    for (int32_t b = 0; b < D; b++) {
        const int64_t vb = v ? v[b] : 1;
        if (vb == t->v[b])
            continue;
        const uint64_t delta = (uint64_t)vb - (uint64_t)t->v[b]; /* wraps; sums stay exact */
        for (jt_node *nd = t->root; nd;) {
            if (!nd->fixed) {
                if (nd->q && w->mode == JT_MODE_PAPER) {
                    const jt_eval ev =
                        jt_eval_of(w, nd->m, NULL, NULL, D, NULL, w->mask, nd->cnt, nd->q);
                    K->add_weight(&ev, w->mask[b], delta);
                } else if (nd->q) { /* by reply codes */
                    for (int32_t c = 0; c < D; c++)
                        nd->q[c] += delta * nd->cnt[(size_t)reply(w, c, b) * D + c];
                }
                nd->dirty = 1;
            }
            const int r = reply(w, nd->guess, b);
            nd = r != w->win && nd->child ? nd->child[r] : NULL;
        }
    }
    set_weights(t, v, h);

    /* Re-decide the dirty nodes and, for the paper rule, every node with a real choice left. */
    int32_t n = 0;
    jt_node **nodes = all_nodes(t, &n);
    int32_t *redo = malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    int32_t *newguess = malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    err = nodes && redo && newguess ? JT_OK : JT_ENOMEM;
    int32_t nredo = 0;
    int64_t pairs = 0;
    for (int32_t i = 0; i < n && !err; i++) {
        const jt_node *x = nodes[i];
        if (!x->fixed && (x->dirty || (t->rule == JT_RULE_PAPER && x->nwin > 1))) {
            redo[nredo++] = i;
            pairs += (int64_t)(x->q ? 1 : x->m) * D; /* kept values: a pass over q */
        }
    }
    const int nt = threads_for(threads, pairs);
    err = err ? err : ensure_scratch(t, nt);
    jt_scratch *scr = t->scr;
    if (!err) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) if (nt > 1)
        for (int32_t k = 0; k < nredo; k++) {
            const int st = redecide(t, nodes[redo[k]], &scr[thread_id()], &newguess[k]);
            if (st) {
#pragma omp atomic write
                err = st;
            }
        }
    }
    t->decided += nredo;

    /* Rebuild below the highest nodes whose guess changed: walking breadth-first (parents
     * first), skip nodes under one already being rebuilt, since they leave the tree. */
    int32_t nrebuild = 0;
    if (!err) {
        for (int32_t k = 0; k < nredo; k++)
            nodes[redo[k]]->pending = newguess[k];
        for (int32_t i = 0; i < n; i++) {
            jt_node *x = nodes[i];
            const int32_t g = x->pending;
            x->pending = -1;
            if (x->parent && x->parent->pending == -2) {
                x->pending = -2; /* gone with its ancestor; its descendants see it */
                continue;
            }
            if (g >= 0 && g != x->guess) {
                x->pending = -2;
                x->guess = g;
                nodes[nrebuild++] = x; /* nodes[0..i) are no longer needed */
            }
        }
        for (int32_t k = 0; k < nrebuild; k++) {
            jt_node *x = nodes[k];
            x->pending = -1;
            free_children(t, x);
            for (int32_t i = 0; i < x->m; i++)
                t->counts[x->S[i]] = 0;
        }
        err = grow_all(t, nodes, nrebuild, 1, threads);
    }
    free(nodes);
    free(redo);
    free(newguess);
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

static void export_node(const jt_tree *t, const jt_node *x, int32_t *next, int32_t *guess,
                        int32_t *depth, int32_t *size, int32_t *children)
{
    const int R = t->w->R;
    const int32_t id = (*next)++;
    guess[id] = x->guess;
    depth[id] = x->depth;
    size[id] = x->m;
    for (int j = 0; j < R; j++)
        children[(size_t)id * R + j] = -1;
    if (!x->child)
        return;
    for (int j = 0; j < R; j++) {
        if (x->child[j]) {
            children[(size_t)id * R + j] = *next;
            export_node(t, x->child[j], next, guess, depth, size, children);
        }
    }
}

void jt_tree_export(const jt_tree *t, int32_t *guess, int32_t *depth, int32_t *size,
                    int32_t *children)
{
    int32_t next = 0;
    export_node(t, t->root, &next, guess, depth, size, children);
}
