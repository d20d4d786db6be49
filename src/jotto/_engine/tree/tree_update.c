/* tree_update.c -- updating a built tree after a change of weights (fictitious play adds weight
 * to a few targets per iteration): q is corrected in place on the paths of the changed targets,
 * the dirty nodes are re-decided, and only the subtrees whose guess changed are replaced: by the
 * subtree the new guess had there before, brought up to date, if the node kept it
 * (tree_alternates.c), else grown again.
 *
 * Growing them again mostly meets states the tree held before (fictitious play's guesses go back
 * and forth), so the small nodes of the subtrees dropped keep their decisions in a memo keyed by
 * S, valid while no weight of S changes (jt_tree.changed); a node grown with such an S takes its
 * decision from there instead of evaluating every candidate again. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tree_internal.h"

/* Room in the update's lists for every node of the tree. */
static int ensure_lists(jt_tree *t)
{
    if (t->ucap >= t->nnodes && t->unodes)
        return JT_OK;
    const int32_t cap = t->nnodes + t->nnodes / 2 + 16;
    free(t->unodes);
    free(t->uredo);
    free(t->uguess);
    t->unodes = malloc(sizeof(jt_node *) * (size_t)cap);
    t->uredo = malloc(sizeof(int32_t) * (size_t)cap);
    t->uguess = malloc(sizeof(int32_t) * (size_t)cap);
    t->ucap = t->unodes && t->uredo && t->uguess ? cap : 0;
    return t->ucap ? JT_OK : JT_ENOMEM;
}

/* The nodes of the tree in breadth-first order, in t->unodes. */
static jt_node **all_nodes(jt_tree *t, int32_t *n)
{
    if (ensure_lists(t))
        return NULL;
    jt_node **out = t->unodes;
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

/* Re-decide node x after a weight change: from its kept values if it has them, else whole.  The
 * new guess goes to *guess; x keeps its old one. */
int jt_redecide(jt_tree *t, jt_node *x, jt_scratch *s, int32_t *guess)
{
    if (!x->dirty) { /* paper rule, weights of S unchanged: h moved, the window did not */
        const int st = x->unique ? JT_OK : jt_window_unique(t, x);
        *guess = jt_repick(t, x, s);
        return st;
    }
    x->dirty = 0;
    if (!x->q) {
        const int32_t old = x->guess;
        const int st = jt_decide_small(t, x, s);
        *guess = x->guess;
        x->guess = old;
        return st;
    }
    jt_job job;
    job.node = x;
    if (jt_describe(t, &job, s->sm, NULL, NULL, NULL)) /* never: big nodes are > R */
        return JT_EINVAL;
    job.ev.cnt = x->cnt;
    job.ev.q = x->q;
    const int32_t old = x->guess;
    const int st = jt_choose(t, &job, s);
    *guess = x->guess;
    x->guess = old;
    return st;
}

int jt_tree_update(jt_tree *t, const int64_t *v, const double *h, int threads)
{
    const jt_words *w = t->w;
    const int32_t D = w->D;
    if (!jt_updatable(t))
        return JT_EINVAL;
    const jt_weights wt = {t->rule, t->candidates, v, h, t->err_abs, t->err_rel};
    int err = jt_check_weights(w, &wt);
    if (err)
        return err;
    t->decided = t->evaluated = 0;
    err = jt_memo_init(t);
    if (err)
        return err;
    const int64_t u = ++t->updates;

    int32_t changed = 0, zeros_changed = 0;
    for (int32_t i = 0; i < D; i++) {
        const int64_t vi = v ? v[i] : 1;
        changed += vi != t->v[i];
        zeros_changed |= (vi == 0) != (t->v[i] == 0);
    }
    if (zeros_changed || changed > D / 8) {
        /* The zero-weight conventions assume fixed zeros, and many changes touch every node
         * anyway: build afresh. */
        jt_set_weights(t, v, h);
        jt_memo_clear(t);
        jt_log_clear(t);
        jt_drop_root(t);
        memset(t->counts, 0, sizeof(int32_t) * D);
        return jt_build_all(t, threads);
    }

    /* q(c) += delta_b n_{jt_reply(c, b)} on the path of every changed word b.  The nodes made
     * dirty are listed as met, each after its ancestors (which hold b too, and are dirty unless
     * fixed, and then so is everything below them). */
    err = ensure_lists(t);
    if (err)
        return err;
    jt_node **path = t->unodes;
    int32_t npath = 0;
    for (int32_t b = 0; b < D; b++) {
        const int64_t vb = v ? v[b] : 1;
        if (vb == t->v[b])
            continue;
        const uint64_t delta = (uint64_t)vb - (uint64_t)t->v[b]; /* wraps; sums stay exact */
        t->changed[b] = u;
        err = jt_log_change(t, b, delta);
        if (err)
            return err;
        for (jt_node *nd = t->root; nd;) {
            if (!nd->fixed) {
                if (nd->q)
                    jt_add_to_q(t, nd, b, delta);
                if (!nd->dirty)
                    path[npath++] = nd;
                nd->dirty = 1;
            }
            const int r = jt_reply(w, nd->guess, b);
            nd = r != w->win && nd->child ? nd->child[r] : NULL;
        }
    }
    jt_set_weights(t, v, h);
    t->updating = 1;

    /* Re-decide the dirty nodes and, for the paper rule, every node with a real choice left
     * (found walking the whole tree). */
    int32_t n = npath;
    jt_node **nodes = t->rule == JT_RULE_PAPER ? all_nodes(t, &n) : path;
    int32_t *redo = t->uredo, *newguess = t->uguess;
    err = nodes ? JT_OK : JT_ENOMEM;
    int32_t nredo = 0;
    int64_t pairs = 0;
    for (int32_t i = 0; i < n && !err; i++) {
        const jt_node *x = nodes[i];
        if (!x->fixed && (x->dirty || (t->rule == JT_RULE_PAPER && x->nwin > 1))) {
            redo[nredo++] = i;
            pairs += (int64_t)(x->q ? 1 : x->m) * D; /* kept values: a pass over q */
        }
    }
    const int nt = jt_threads_for(threads, pairs);
    err = err ? err : jt_ensure_scratch(t, nt);
    jt_scratch *scr = t->scr;
    if (!err) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) if (nt > 1)
        for (int32_t k = 0; k < nredo; k++) {
            const int st = jt_redecide(t, nodes[redo[k]], &scr[jt_thread_id()], &newguess[k]);
            if (st) {
#pragma omp atomic write
                err = st;
            }
        }
    }
    t->decided += nredo;

    /* Switch the highest nodes whose guess changed to their new guess (tree_alternates.c:
     * their subtrees, frozen at this update, are kept as alternates, and a guess that comes back
     * takes its own): walking the nodes parents first, skip nodes under one already switching,
     * since they leave the tree with it. */
    int32_t nswitch = 0;
    if (!err) {
        for (int32_t k = 0; k < nredo; k++)
            nodes[redo[k]]->pending = newguess[k];
        int32_t *to = t->uredo; /* (read above; from here the new guesses of nodes[0..nswitch)) */
        for (int32_t i = 0; i < n; i++) {
            jt_node *x = nodes[i];
            const int32_t g = x->pending;
            x->pending = -1;
            if (g == x->guess)
                x->stamp = u; /* re-decided for these weights: the guess stands */
            if (x->parent && x->parent->pending == -2) {
                x->pending = -2; /* gone with its ancestor; its descendants see it */
                continue;
            }
            if (g >= 0 && g != x->guess) {
                x->pending = -2;
                x->stamp = u;
                to[nswitch] = g;
                nodes[nswitch++] = x; /* nodes[0..i) are no longer needed */
            }
        }
        t->ngrow = 0;
        for (int32_t k = 0; k < nswitch; k++)
            nodes[k]->pending = -1;
        for (int32_t k = 0; k < nswitch && !err; k++)
            err = jt_switch_guess(t, nodes[k], to[k], u);
        if (!err)
            err = jt_grow_all(t, t->ugrow, t->ngrow, 1, threads);
    }
    t->updating = 0;
    return err;
}
