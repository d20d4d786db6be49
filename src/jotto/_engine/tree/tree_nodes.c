/* tree_nodes.c -- a decision tree's memory: its nodes, the per-thread scratch its builds and
 * updates work in, its weights (checked before anything is allocated), its life cycle, and reading
 * it out (guess counts per target, the nodes in preorder). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tree_internal.h"

jt_node *jt_node_new(jt_tree *t, int32_t *S, int32_t m, int32_t depth, jt_node *parent)
{
    jt_node *nd = jt_node_take(t);
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

void jt_node_free(jt_tree *t, jt_node *nd)
{
    jt_state_free(t, nd->S, nd->m);
    free(nd->cnt);
    free(nd->q);
    free(nd->win);
    jt_node_give(t, nd);
    t->nnodes--;
}

/* Free the subtrees below nd (not nd itself), their alternates with them; if keep, their
 * decisions go to the memo first. */
void jt_free_children(jt_tree *t, jt_node *nd, int keep)
{
    if (!nd->child)
        return;
    const int R = t->w->R;
    /* The records are cold: fetch them side by side, then what keeping their decisions reads
     * (each state's first targets, and the memo slot it goes to). */
    for (int j = 0; j < R; j++)
        if (nd->child[j])
            __builtin_prefetch(nd->child[j]);
    for (int j = 0; keep && t->memo && j < R; j++) {
        const jt_node *c = nd->child[j];
        if (c && c->S && c->key) {
            __builtin_prefetch(c->S);
            __builtin_prefetch(&t->memo[c->key & (uint64_t)t->memo_mask], 1);
        }
    }
    for (int j = 0; j < R; j++) {
        jt_node *c = nd->child[j];
        if (c) {
            jt_free_children(t, c, keep);
            if (c->alt)
                jt_free_alts(t, c, keep);
            if (keep)
                jt_memo_keep(t, c);
            jt_node_free(t, c);
        }
    }
    nd->child = NULL;
}

void jt_scratch_free(jt_scratch *scr, int n)
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
        free(scr[i].q16);
        free(scr[i].hs);
        free(scr[i].term);
        free(scr[i].wsel);
        free(scr[i].wmask);
        free(scr[i].wcnt);
        free(scr[i].rep);
        free(scr[i].own);
    }
    free(scr);
}

static jt_scratch *jt_scratch_new(int n, const jt_words *w)
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
        scr[i].q16 = malloc(sizeof(uint16_t) * (D + 64));
        scr[i].hs = malloc(sizeof(double) * D);
        scr[i].term = malloc(sizeof(double) * (D + 1));
        scr[i].wsel = malloc(sizeof(int32_t) * (D + 16));
        scr[i].wmask = malloc(sizeof(uint32_t) * (D + 16));
        scr[i].wcnt = malloc(sizeof(uint16_t) * D * w->R);
        scr[i].rep = malloc(D);
        scr[i].own = calloc(2 * (D + 64), 1);
        if (!scr[i].sm || !scr[i].spec_mask || !scr[i].spec_delta || !scr[i].spec_id ||
            !scr[i].fam_n || !scr[i].fam_v || !scr[i].in_s || !scr[i].stok || !scr[i].sspell ||
            !scr[i].cnt || !scr[i].q || !scr[i].q16 ||
            !scr[i].hs || !scr[i].term || !scr[i].wsel || !scr[i].wmask || !scr[i].wcnt ||
            !scr[i].rep || !scr[i].own) {
            jt_scratch_free(scr, n);
            return NULL;
        }
    }
    return scr;
}

/* Per-thread scratch for nt threads, kept on the tree between calls. */
int jt_ensure_scratch(jt_tree *t, int nt)
{
    if (jt_pools_ensure(t, nt))
        return JT_ENOMEM;
    if (t->scr && t->nscr >= nt)
        return JT_OK;
    jt_scratch_free(t->scr, t->nscr);
    t->scr = jt_scratch_new(nt, t->w);
    t->nscr = t->scr ? nt : 0;
    return t->scr ? JT_OK : JT_ENOMEM;
}

int jt_check_weights(const jt_words *w, const jt_weights *wt)
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
        /* every weight at most lim (a negative one is above it as unsigned), so that their sum,
         * at most D lim, cannot wrap; then the sum at most lim: one pass without branches, which
         * every update of a tree makes */
        const uint64_t lim = (UINT64_C(1) << 63) / (uint64_t)w->D;
        uint64_t total = 0;
        int over = 0;
        for (int32_t i = 0; i < w->D; i++) {
            over |= (uint64_t)wt->v[i] > lim;
            total += (uint64_t)wt->v[i];
        }
        if (over || total > lim)
            return JT_EINVAL;
    }
    if (wt->h)
        for (int32_t i = 0; i < w->D; i++)
            if (!(wt->h[i] >= 0) || !isfinite(wt->h[i]))
                return JT_EINVAL;
    return JT_OK;
}

void jt_set_weights(jt_tree *t, const int64_t *v, const double *h)
{
    const int32_t D = t->w->D;
    for (int32_t i = 0; i < D; i++)
        t->v[i] = v ? v[i] : 1;
    if (t->h)
        for (int32_t i = 0; i < D; i++)
            t->h[i] = h ? h[i] : 1.0 / (double)D;
}

jt_tree *jt_tree_new(const jt_words *w, const jt_weights *wt, int *status)
{
    *status = jt_check_weights(w, wt);
    if (*status)
        return NULL;
    *status = JT_ENOMEM;
    jt_tree *t = calloc(1, sizeof(jt_tree));
    if (!t)
        return NULL;
    const int32_t D = w->D;
    t->w = w;
    t->rule = wt->rule;
    t->candidates = w->hard ? JT_CAND_CONSISTENT : wt->candidates; /* the list's rules rule */
    t->err_abs = wt->err_abs;
    t->err_rel = wt->err_rel;
    t->v = malloc(sizeof(int64_t) * D);
    t->counts = calloc((size_t)D, sizeof(int32_t));
    t->h = t->rule == JT_RULE_PAPER ? malloc(sizeof(double) * D) : NULL;
    t->node_bytes = sizeof(jt_node) + sizeof(jt_node *) * (size_t)w->R;
    if (!t->v || !t->counts || (t->rule == JT_RULE_PAPER && !t->h) || jt_pools_ensure(t, 1)) {
        jt_tree_free(t);
        return NULL;
    }
    jt_set_weights(t, wt->v, wt->h);
    *status = JT_OK;
    return t;
}

void jt_drop_root(jt_tree *t)
{
    if (t->root) {
        jt_free_children(t, t->root, 0);
        jt_free_alts(t, t->root, 0);
        jt_node_free(t, t->root);
        t->root = NULL;
    }
}

/* ---- decisions kept across updates ----------------------------------------------------------- */

/* A hash of the state S (increasing word indices): a sum of one mixed term per member, which
 * do not wait on one another (a chain of multiplies through every member took several cycles
 * a member); never 0, which marks a node's key as not yet computed. */
static uint64_t state_key(const int32_t *S, int32_t m)
{
    uint64_t h = (uint64_t)m * UINT64_C(0xff51afd7ed558ccd);
    for (int32_t k = 0; k < m; k++) {
        const uint64_t x = ((uint64_t)(uint32_t)S[k] << 20 | (uint32_t)k) *
                           UINT64_C(0x9e3779b97f4a7c15);
        h += x ^ x >> 31;
    }
    return h | 1;
}

/* nd's key, computed once. */
static uint64_t node_key(jt_node *nd)
{
    if (!nd->key)
        nd->key = state_key(nd->S, nd->m);
    return nd->key;
}

/* Whether a decision made for the weights of update `stamp` still holds: no weight of S changed
 * in a later update.  (Fixed decisions hold for all positive weights, and a change to or from a
 * zero weight rebuilds the tree and clears the memo.) */
int jt_still_valid(const jt_tree *t, const int32_t *S, int32_t m, int64_t stamp)
{
    for (int32_t k = 0; k < m; k++)
        if (t->changed[S[k]] > stamp)
            return 0;
    return 1;
}

/* The change stamps and the memo, allocated at a tree's first update (builds that are never
 * updated pay nothing): 32 slots per node of the tree (fictitious play meets some 100 states
 * per node in a few thousand iterations; fewer slots lose most of them to collisions), at
 * least 1024, at most 2^17 (some 20 MB when full). */
int jt_memo_init(jt_tree *t)
{
    if (t->memo)
        return JT_OK;
    int32_t slots = 1024;
    while (slots < 32 * t->nnodes && slots < (1 << 17))
        slots *= 2;
    t->changed = calloc((size_t)t->w->D, sizeof(int64_t));
    t->memo = calloc((size_t)slots, sizeof(jt_memo));
    if (!t->changed || !t->memo) {
        free(t->changed);
        free(t->memo);
        t->changed = NULL;
        t->memo = NULL;
        return JT_ENOMEM;
    }
    t->memo_mask = slots - 1;
    t->alt_cap = jt_alt_cap(t->nnodes);
    return JT_OK;
}

/* Forget every kept decision (before a rebuild from scratch, and when the tree is freed). */
void jt_memo_clear(jt_tree *t)
{
    for (int32_t i = 0; t->memo && i <= t->memo_mask; i++) {
        jt_state_free(t, t->memo[i].S, t->memo[i].m);
        free(t->memo[i].win);
        t->memo[i].S = NULL;
        t->memo[i].win = NULL;
    }
}

/* Keep the decision of nd, which is leaving the tree, if it was made for the current weights of
 * S (or is fixed) and nd is small enough to be looked up (decide() looks up no shared node):
 * its guess, or for the paper rule its window made unique.  Takes nd's S and window; a slot
 * holding another state is overwritten. */
void jt_memo_keep(jt_tree *t, jt_node *nd)
{
    const int paper = t->rule == JT_RULE_PAPER && !nd->fixed;
    if (!t->memo || nd->m < 3 || nd->m >= jt_t_shared || nd->guess < 0 ||
        (!nd->fixed && !jt_still_valid(t, nd->S, nd->m, nd->stamp)) ||
        (paper && (!nd->win || (!nd->unique && jt_window_unique(t, nd)))))
        return;
    const uint64_t key = node_key(nd);
    jt_memo *e = &t->memo[key & (uint64_t)t->memo_mask];
    jt_state_free(t, e->S, e->m);
    free(e->win);
    e->S = nd->S;
    e->m = nd->m;
    e->guess = nd->guess;
    e->key = key;
    e->stamp = nd->stamp;
    e->fixed = nd->fixed;
    e->win = paper ? nd->win : NULL;
    e->nwin = paper ? nd->nwin : 0;
    nd->S = NULL;
    if (paper)
        nd->win = NULL;
}

/* The key of the state S of m words (for its node's jt_node.key), its memo slot fetched for
 * jt_memo_find (the memo is big and its slots cold: a node's look-up waited for its slot). */
uint64_t jt_memo_prefetch(const jt_tree *t, const int32_t *S, int32_t m)
{
    const uint64_t key = state_key(S, m);
    __builtin_prefetch(&t->memo[key & (uint64_t)t->memo_mask]);
    return key;
}

/* The kept decision for nd's S, if there is one and it still holds, else NULL. */
const jt_memo *jt_memo_find(const jt_tree *t, jt_node *nd)
{
    if (!t->memo)
        return NULL;
    const uint64_t key = node_key(nd);
    const jt_memo *e = &t->memo[key & (uint64_t)t->memo_mask];
    if (!e->S || e->key != key || e->m != nd->m ||
        memcmp(e->S, nd->S, sizeof(int32_t) * (size_t)nd->m) != 0 ||
        (!e->fixed && !jt_still_valid(t, nd->S, nd->m, e->stamp)))
        return NULL;
    return e;
}

/* What a node in use holds outside the pools (its class sizes, values and window, a state of
 * more words than the pools hold), at the tree's end: its record and a pooled state go with the
 * pools. */
static void release_node(jt_tree *t, jt_node *nd)
{
    if (nd->m > JT_POOL_MAX)
        jt_state_free(t, nd->S, nd->m);
    if (nd->alt)
        jt_release_alts(nd);
    if (nd->cnt || nd->q || nd->win) { /* (few nodes: calls freeing NULL took most of the time) */
        free(nd->cnt);
        free(nd->q);
        free(nd->win);
    }
}

void jt_tree_free(jt_tree *t)
{
    if (!t)
        return;
    jt_pools_each_node(t, release_node);
    t->root = NULL;
    jt_memo_clear(t);
    jt_log_clear(t);
    free(t->memo);
    free(t->changed);
    free(t->unodes);
    free(t->ugrow);
    free(t->uredo);
    free(t->uguess);
    jt_scratch_free(t->scr, t->nscr);
    jt_pools_free(t);
    free(t->v);
    free(t->h);
    free(t->counts);
    free(t);
}

/* ---- reading a tree ---------------------------------------------------------------------------- */

void jt_tree_guess_counts(const jt_tree *t, int32_t *out)
{
    memcpy(out, t->counts, sizeof(int32_t) * t->w->D);
}

static int32_t count_nodes(const jt_tree *t, const jt_node *x)
{
    int32_t n = 1;
    if (x->child)
        for (int j = 0; j < t->w->R; j++)
            if (x->child[j])
                n += count_nodes(t, x->child[j]);
    return n;
}

/* The nodes of the tree (t->nnodes also counts those kept in alternates). */
int32_t jt_tree_node_count(const jt_tree *t) { return t->root ? count_nodes(t, t->root) : 0; }

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
