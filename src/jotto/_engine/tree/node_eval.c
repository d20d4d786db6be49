/* node_eval.c -- evaluating a node's candidates: describing its state S (masks, the uniform
 * part of the weights and the heavier targets by their excess, the candidates) and counting the
 * class sizes and q of candidates with the kernels, in every mode of the word list (the anagram
 * correction of keep-all lists, reply codes in GENERAL mode). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tree_internal.h"

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

/* The distinct excesses of a node, when there are few (fictitious play's are D times the times
 * a word was chosen): a small open-addressed table of them, each with its count, then (sorted)
 * the first place of its group among the heavier targets. */
#define FEW 64
typedef struct {
    uint64_t key[FEW];
    int32_t at[FEW];     /* a key's count, then its group's next free place */
    int8_t slot[2 * FEW]; /* index into key, -1 empty */
    int n;
} excesses;

static inline int excess_slot(const excesses *x, uint64_t d)
{
    int s = (int)((d * UINT64_C(0x9e3779b97f4a7c15)) >> 57); /* 2 FEW = 128 slots */
    while (x->slot[s] >= 0 && x->key[x->slot[s]] != d)
        s = (s + 1) & (2 * FEW - 1);
    return s;
}

/* Count the excesses of the targets of S; 0 if there are more than FEW distinct ones. */
static int count_excesses(const jt_tree *t, const jt_node *nd, uint64_t vmin, excesses *x)
{
    memset(x->slot, -1, sizeof x->slot);
    x->n = 0;
    for (int32_t k = 0; k < nd->m; k++) {
        const uint64_t d = (uint64_t)t->v[nd->S[k]] - vmin;
        if (!d)
            continue;
        const int s = excess_slot(x, d);
        if (x->slot[s] < 0) {
            if (x->n == FEW)
                return 0;
            x->slot[s] = (int8_t)x->n;
            x->key[x->n] = d;
            x->at[x->n++] = 0;
        }
        x->at[x->slot[s]]++;
    }
    return 1;
}

/* Sort the keys (carrying counts; insertion sort of at most FEW), point the slots at their new
 * places and turn the counts into each group's first place. */
static void place_groups(excesses *x)
{
    for (int i = 1; i < x->n; i++)
        for (int j = i; j > 0 && x->key[j - 1] > x->key[j]; j--) {
            const uint64_t k = x->key[j];
            const int32_t c = x->at[j];
            x->key[j] = x->key[j - 1];
            x->at[j] = x->at[j - 1];
            x->key[j - 1] = k;
            x->at[j - 1] = c;
        }
    int32_t first = 0;
    for (int i = 0; i < x->n; i++) {
        x->slot[excess_slot(x, x->key[i])] = (int8_t)i;
        const int32_t c = x->at[i];
        x->at[i] = first;
        first += c;
    }
}

/* Fill the heavier targets of S, by increasing excess, into the front of spec_mask (spec_delta,
 * spec_id alike), and the targets weighing vmin into its end, backwards. */
static int32_t split_by_excess(const jt_tree *t, const jt_node *nd, uint64_t vmin,
                               const uint32_t *sm, uint32_t *spec_mask, uint64_t *spec_delta,
                               int32_t *spec_id)
{
    excesses x;
    const int few = count_excesses(t, nd, vmin, &x);
    if (few)
        place_groups(&x);
    int32_t nspec = 0, rest = nd->m;
    for (int32_t k = 0; k < nd->m; k++) {
        const uint64_t d = (uint64_t)t->v[nd->S[k]] - vmin;
        if (!d) {
            spec_mask[--rest] = sm[k];
            continue;
        }
        const int32_t at = few ? x.at[x.slot[excess_slot(&x, d)]]++ : nspec;
        spec_mask[at] = sm[k];
        spec_id[at] = nd->S[k];
        spec_delta[at] = d;
        nspec++;
    }
    if (!few)
        sort_by_delta(spec_mask, spec_delta, spec_id, nspec);
    return nspec;
}

/* Fill job->ev's description of S (masks, weights, candidates) into the arrays given; returns 1
 * if the node was decided on the spot.  With spec_mask NULL the heavier targets are not split
 * out: choosing from values already counted needs only the masks, V and vmin. */
int jt_describe(const jt_tree *t, jt_job *job, uint32_t *sm, uint32_t *spec_mask,
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
    job->hones = t->rule == JT_RULE_PAPER && jt_all_h_zero(t, nd);
    if ((V == 0 && (t->rule == JT_RULE_EXACT || job->hones)) || t->rule > JT_RULE_EXACT) {
        /* No weight on S: its targets are equally likely.  Norvig's guessers count targets. */
        vmin = 1;
        V = (uint64_t)m;
    }
    job->V = V;
    ev->vmin = vmin;
    /* the early stops first: they need no split of the heavier targets */
    if (t->rule == JT_RULE_EXACT && vmin > 0 && m <= w->R && jt_exact_early_stop(w, nd))
        return 1;
    const int consistent = t->candidates == JT_CAND_CONSISTENT ||
                           (t->candidates == JT_CAND_NORVIG && m <= 3);
    if (t->rule == JT_RULE_PAPER && !consistent && !t->updating && vmin > 0 && m <= w->R &&
        jt_paper_early_stop(t, nd, job->hones))
        return 1;
    ev->spec_mask = spec_mask;
    ev->spec_delta = spec_delta;
    ev->spec_id = spec_id;
    if (spec_mask && V != (uint64_t)m * vmin)
        ev->nspec = split_by_excess(t, nd, vmin, sm, spec_mask, spec_delta, spec_id);
    ev->wv = ev->nspec ? t->v : NULL; /* for the anagram fix-up and the units tables */
    ev->nc = consistent ? m : w->D;
    ev->cid = consistent ? nd->S : NULL;
    ev->cm = consistent ? sm : w->mask;
    /* subset tables only for shared big nodes, which make them (tree.c, big_prepare) */
    const int weighted = V != (uint64_t)m * vmin;
    const int32_t above = jt_t_table >= 0 ? jt_t_table
                                          : jt_kernels_current()->table_above[weighted];
    ev->method = !consistent && w->subrank && m >= jt_t_shared && m > above ? JT_M_TABLE
                                                                            : JT_M_SLICED;
    return 0;
}

/* PAPER mode with every word a candidate (candidate c is word c): mark S's targets in own (own_n)
 * and, with keys (jt_q16_keys), the heavier targets' units in own + D + 64 (own_u), for the
 * vector kernels to take class L from (jt_eval.own_n); own is zero outside them, and
 * jt_own_clear makes it zero again. */
void jt_own_set(const jt_words *w, jt_eval *ev, uint8_t *own)
{
    if (w->mode != JT_MODE_PAPER || ev->cid)
        return;
    for (int32_t k = 0; k < ev->m; k++)
        own[ev->sid[k]] = 1;
    ev->own_n = own;
    if (!ev->qkey)
        return;
    uint8_t *own_u = own + w->D + 64;
    uint64_t u = 0;
    for (int32_t k = 0; k < ev->nspec; k++) {
        if (!k || ev->spec_delta[k] != ev->spec_delta[k - 1])
            u = ev->spec_delta[k] / ev->ustep; /* <= 31 with keys */
        own_u[ev->spec_id[k]] = (uint8_t)u;
    }
    ev->own_u = own_u;
}

void jt_own_clear(const jt_words *w, const jt_eval *ev, uint8_t *own)
{
    if (!ev->own_n)
        return;
    for (int32_t k = 0; k < ev->m; k++)
        own[ev->sid[k]] = 0;
    for (int32_t k = 0; ev->own_u && k < ev->nspec; k++)
        own[w->D + 64 + ev->spec_id[k]] = 0;
}

/* The heavier targets' units table of a subset-table node (jt_eval.utable): their excesses are
 * multiples u_i g of one step g (their gcd), and utable[T] sums u_i over the heavier targets
 * holding the letter subset T.  The kernels then get each reply class's units by the same
 * inclusion-exclusion as its size, a cost per candidate independent of |S|, instead of sweeping
 * every heavier target for every candidate.  Left out (JT_OK, utable NULL) when the units
 * total 2^32 or more. */
int jt_unit_table(const jt_words *w, jt_eval *ev, uint32_t **out)
{
    uint64_t total, u = 0;
    const uint64_t g = jt_excess_step(ev, &total);
    if (total >> 32)
        return JT_OK;
    uint32_t *tab = calloc((size_t)w->table_size, sizeof(uint32_t));
    *out = tab;
    if (!tab)
        return JT_ENOMEM;
    for (int32_t k = 0; k < ev->nspec; k++) {
        if (!k || ev->spec_delta[k] != ev->spec_delta[k - 1])
            u = ev->spec_delta[k] / g;
        const uint16_t *sr = w->subrank + (size_t)ev->spec_id[k] * w->nsub;
        for (int32_t i = 0; i < w->nsub; i++)
            tab[sr[i]] += (uint32_t)u;
    }
    ev->utable = tab;
    ev->ustep = g;
    ev->utot = (uint32_t)total;
    if (ev->table && ev->m < 0x10000 && total < 0x10000) { /* packed: jt_eval.packed */
        for (int32_t i = 0; i < w->table_size; i++)
            tab[i] = ev->table[i] | tab[i] << 16;
        ev->packed = 1;
    }
    return JT_OK;
}

/* ---- evaluating candidates, in every mode of the word list ------------------------------------ */

/* ANAGRAM mode: the members of S of every anagram family and their weight (wv, or vmin each),
 * in arrays that are zero between uses (families_clear), for fix_anagrams. */
void jt_families_set(const jt_words *w, jt_eval *ev, const int32_t *S, int32_t m,
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

void jt_families_clear(const jt_words *w, const int32_t *S, int32_t m, int32_t *fam_n,
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
static inline void fix_candidate(const jt_eval *ev, int32_t c, int32_t g)
{
    const jt_words *w = ev->w;
    const int L = w->L;
    const size_t nc = (size_t)ev->nc;
    const int32_t f = w->family[g];
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

/* The fix-up above for candidates [c0, c1).  A candidate whose family has no member in S
 * (nearly all of them at a small node) has n_L = n_{L+1} = 0 and its q unchanged, so when S is
 * small beside the range (|S| at most 1/FAMILY_WALK_SHARE of it: the walk costs a few steps per
 * target, the scan one step per candidate) only the families of S are walked (each from the
 * member of S first in the list, jt_words.fam_next), and the two rows are cleared for the rest.
 * Hard mode's candidates (cid) are the words of S: scanned. */
enum { FAMILY_WALK_SHARE = 4 };
static void fix_anagrams(const jt_eval *ev, int32_t c0, int32_t c1)
{
    const jt_words *w = ev->w;
    if (ev->cid || (int64_t)ev->m * FAMILY_WALK_SHARE > (int64_t)(c1 - c0)) {
        for (int32_t c = c0; c < c1; c++)
            fix_candidate(ev, c, ev->cid ? ev->cid[c] : c);
        return;
    }
    if (ev->cnt) {
        const size_t nc = (size_t)ev->nc, L = (size_t)w->L;
        memset(ev->cnt + L * nc + c0, 0, sizeof(uint16_t) * (size_t)(c1 - c0));
        memset(ev->cnt + (L + 1) * nc + c0, 0, sizeof(uint16_t) * (size_t)(c1 - c0));
    }
    for (int32_t k = 0; k < ev->m; k++) {
        const int32_t t = ev->sid[k];
        int32_t g = w->family[t];
        while (g != t && !ev->in_s[g]) /* an earlier member of S walks this family */
            g = w->fam_next[g];
        if (g != t)
            continue;
        for (g = w->family[t]; g >= 0 && g < c1; g = w->fam_next[g])
            if (g >= c0)
                fix_candidate(ev, g, g);
    }
}

/* Class sizes by reply code (and q if ev->q) of candidates [c0, c1), whatever the list's mode;
 * in ANAGRAM mode the caller has set the families of S (families_set). */
void jt_evaluate_range(const jt_eval *ev, int32_t c0, int32_t c1)
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
double jt_exp_num_elims_codes(const jt_words *w, int32_t c, const int32_t *S,
                                  const double *hs, int32_t m, double total)
{
    double acc[JT_MAX_R];
    int32_t n[JT_MAX_R];
    for (int j = 0; j < w->R; j++) {
        acc[j] = 0.0;
        n[j] = 0;
    }
    for (int32_t k = 0; k < m; k++) {
        const int r = jt_reply(w, c, S[k]);
        acc[r] += hs[k];
        n[r]++;
    }
    double e = 0.0;
    for (int j = 0; j < w->R; j++)
        e += (acc[j] / total) * (double)(m - n[j]);
    return e;
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
            jt_families_set(w, &ev, S, m, fam_n, fam_v, in_s);
        if (stok)
            jt_gather_s(&ev, S, m, stok, stok + m);
        jt_evaluate_range(&ev, 0, nc);
    }
    free(stok);
    free(sm);
    free(cm);
    free(fam_n);
    free(fam_v);
    free(in_s);
    return st;
}
