/* search_tree.c -- the decision tree a best-response search's memo describes (jt_bs_tree_build,
 * and jt_bs_tree_build_state for a state inside the game):
 * states the memo lacks are solved again, targets of weight 0 follow the tree and then the
 * exact greedy rule with equal weights. */
#include <stdlib.h>

#include "search_internal.h"

/* The exact greedy rule with equal weights: least sum of squared class sizes, then a word of T,
 * then the lowest index (for states holding only targets of weight 0; in hard mode among T). */
static int32_t greedy_equal(const jt_bsearch *s, const int32_t *T, int32_t m)
{
    if (m == 1)
        return T[0];
    int32_t best = -1;
    uint64_t bq = INF;
    int bin = 0;
    for (int32_t i = 0; i < (s->hard ? m : s->D); i++) {
        const int32_t c = s->hard ? T[i] : i;
        uint32_t n[MAXR] = {0};
        int in = 0;
        for (int32_t k = 0; k < m; k++) {
            n[reply_ix(s, s->gen, c, T[k])]++;
            in |= T[k] == c;
        }
        uint64_t q = 0;
        for (int r = 0; r < s->R; r++)
            q += (uint64_t)n[r] * n[r];
        if (q < bq || (q == bq && in && !bin)) {
            bq = q;
            best = c;
            bin = in;
        }
    }
    return best;
}

static int tree_grow(jt_bsearch *s)
{
    if (s->tn < s->tcap)
        return 1;
    const int32_t ncap = s->tcap ? 2 * s->tcap : 256;
    int32_t *g = realloc(s->tg, sizeof(int32_t) * (size_t)ncap);
    if (g)
        s->tg = g;
    int32_t *d = realloc(s->td, sizeof(int32_t) * (size_t)ncap);
    if (d)
        s->td = d;
    int32_t *z = realloc(s->ts, sizeof(int32_t) * (size_t)ncap);
    if (z)
        s->ts = z;
    int32_t *c = realloc(s->tc, sizeof(int32_t) * (size_t)ncap * s->R);
    if (c)
        s->tc = c;
    if (!g || !d || !z || !c)
        return 0;
    s->tcap = ncap;
    return 1;
}

/* Node for the targets T (all weights) at depth; returns its index or a negative status. */
static int32_t tree_node(jt_bsearch *s, const int32_t *T, int32_t mt, int32_t depth,
                         int32_t root_guess, uint64_t *total)
{
    if (!tree_grow(s))
        return JT_ENOMEM;
    const int32_t node = s->tn++;
    int32_t *P = malloc(sizeof(int32_t) * (size_t)mt);
    if (!P)
        return JT_ENOMEM;
    int32_t mp = 0;
    uint64_t W = 0, key = 0;
    for (int32_t k = 0; k < mt; k++)
        if (s->v[T[k]] || s->hard) {
            P[mp++] = T[k];
            W += s->v[T[k]];
            key += s->z[T[k]];
        }
    int32_t g = -1;
    if (depth == 0 && root_guess >= 0)
        g = root_guess;
    else if (W == 0)
        g = greedy_equal(s, T, mt);
    else
        bs_search(s, &s->wk[0], 0, P, mp, key, W, INF, &g);
    free(P);
    if (s->error)
        return s->error;
    if (g < 0)
        return JT_EINVAL;
    s->tg[node] = g;
    s->td[node] = depth;
    s->ts[node] = mt;
    const int V = s->win, R = s->R;
    for (int r = 0; r < R; r++)
        s->tc[(size_t)node * R + r] = -1;
    int32_t n[MAXR] = {0};
    for (int32_t k = 0; k < mt; k++) {
        const int r = reply_ix(s, s->gen, g, T[k]);
        n[r]++;
        if (r == V)
            *total += s->v[T[k]] * (uint64_t)(depth + 1);
    }
    int32_t *C = malloc(sizeof(int32_t) * (size_t)mt);
    if (!C)
        return JT_ENOMEM;
    for (int r = 0; r < R; r = NONWIN_NEXT(V, r)) {
        if (!n[r])
            continue;
        if (n[r] == mt) {  /* the guess does not narrow T down: cannot happen */
            free(C);
            return JT_EINVAL;
        }
        int32_t mc = 0;
        for (int32_t k = 0; k < mt; k++)
            if (reply_ix(s, s->gen, g, T[k]) == r)
                C[mc++] = T[k];
        const int32_t child = tree_node(s, C, mc, depth + 1, -1, total);
        if (child < 0) {
            free(C);
            return child;
        }
        s->tc[(size_t)node * R + contract_code(s, r)] = child;
    }
    free(C);
    return node;
}

int32_t jt_bs_tree_build_state(jt_bsearch *s, int32_t top_k, const int32_t *T, int32_t mt,
                               int32_t root_guess, uint64_t *total)
{
    *total = 0;
    if (top_k < 0 || root_guess >= s->D || mt < 1)
        return JT_EINVAL;
    for (int32_t k = 0; k < mt; k++)
        if (T[k] < 0 || T[k] >= s->D || (k && T[k] <= T[k - 1]))
            return JT_EINVAL;
    bs_set_mode(s, top_k, top_k == s->top_k_memo ? s->full_below_memo : 0);
    s->deadline = 0;
    s->node_limit = 0;
    s->interrupted = NULL;
    s->by_size = 0;
    s->stop = 0;
    s->wk[0].stop = 0;
    s->error = 0;
    s->first_guesses = NULL;
    s->tn = 0;
    const int32_t r = tree_node(s, T, mt, 0, root_guess, total);
    return r < 0 ? r : s->tn;
}

int32_t jt_bs_tree_build(jt_bsearch *s, int32_t top_k, int32_t root_guess, uint64_t *total)
{
    *total = 0;
    int32_t *all = malloc(sizeof(int32_t) * (size_t)s->D);
    if (!all)
        return JT_ENOMEM;
    for (int32_t i = 0; i < s->D; i++)
        all[i] = i;
    const int32_t r = jt_bs_tree_build_state(s, top_k, all, s->D, root_guess, total);
    free(all);
    return r;
}

void jt_bs_tree_export(const jt_bsearch *s, int32_t *guess, int32_t *depth, int32_t *size,
                       int32_t *children)
{
    memcpy(guess, s->tg, sizeof(int32_t) * (size_t)s->tn);
    memcpy(depth, s->td, sizeof(int32_t) * (size_t)s->tn);
    memcpy(size, s->ts, sizeof(int32_t) * (size_t)s->tn);
    memcpy(children, s->tc, sizeof(int32_t) * (size_t)s->tn * s->R);
}
