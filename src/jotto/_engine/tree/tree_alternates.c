/* tree_alternates.c -- what an update does where a node's guess changes: the subtree of the old
 * guess is kept beside the node (an alternate), and a guess that comes back takes its subtree
 * from there instead of growing it again.
 *
 * Fictitious play's guesses go back and forth.  In `jotto solve` (ENABLE, 5 letters, exact mode,
 * 3,906 iterations) the root's guess changes 781 times, 664 of them back to a guess it had made
 * before, most often within ten iterations; each of those grew the whole tree again (825 nodes
 * decided, from the memo where it could), about two thirds of the run's time.  A subtree kept
 * since update f is what a fresh build gives for the weights of f at every node none of whose
 * targets' weights changed since; only the nodes holding a target changed since f are decided
 * again, each big node's values corrected by the changes since f (the log below) as an update
 * corrects them, and subtrees whose guess changed go through the same switch.
 *
 * A subtree is frozen at update f when its node's guess changes in update f (or, nested, when an
 * alternate frozen at f is refreshed): its big nodes' q then holds every weight change up to f,
 * and every node's decision is right for the weights of f except at nodes holding a target
 * changed in f itself, whose new decision the update discarded (a node below one being rebuilt
 * is not rebuilt).  So, taking it back at update u:
 *  - a node holding no target whose weight changed in f..u keeps its whole subtree;
 *  - any other node adds the changes after f to its q and is decided again (the memo's exactness
 *    argument, tree.c's opening comment).
 * Only the exact rule keeps alternates: the paper rule's picks also depend on h, which changes
 * everywhere at every iteration, so a kept subtree must pick again at every node with a window
 * of more than one word; done here, one node after another, that cost as much as growing the
 * subtree again from the memo's windows on two threads (`jotto solve --mode paper`, ENABLE:
 * 12.9-13.9 s without alternates, 14.1-14.5 s with them, 2026-11-29).
 *
 * Memory: at most ALT_MAX alternates per node (the node's oldest goes when one more comes), and
 * the tree's oldest alternates go while its node records (its own and its alternates') are more
 * than t->alt_cap, eight times the tree's nodes at its first update; an alternate that goes, or
 * comes back after more than alt_stale() changes, leaves its decisions to the memo as a dropped
 * subtree does.  (For ENABLE's 5-letter solve the kept subtrees raised the peak memory from 63
 * to 81 MB.) */
#include <stdlib.h>
#include <string.h>

#include "tree_internal.h"

#define ALT_MAX 4

/* Test settings (jt_set_alternates; negative: the defaults below). */
static int64_t alt_room = -1, alt_stale_at = -1;

void jt_set_alternates(int64_t room, int64_t stale)
{
    alt_room = room;
    alt_stale_at = stale;
}

int64_t jt_alt_cap(int32_t nodes)
{
    return alt_room >= 0 ? nodes + alt_room : 8 * (int64_t)nodes + 1024;
}

/* An alternate beyond this many weight changes since it was frozen is grown again instead: each
 * change costs a pass over the candidates at every big node holding it, and a fresh subtree
 * takes its small nodes from the memo. */
static int64_t alt_stale(const jt_tree *t)
{
    return alt_stale_at >= 0 ? alt_stale_at : 16 + t->w->D / 64;
}

typedef struct jt_alt {
    struct jt_alt *next;   /* the node's next older alternate */
    struct jt_alt *older, *newer; /* the tree's alternates in the order they were kept */
    jt_node *owner;
    int64_t frozen;        /* the update its subtree was frozen at (above) */
    int32_t guess;
    jt_node *child[];      /* [R] the children under that guess */
} jt_alt;

/* The weight changes of every update since the tree was built (or last built afresh), in order:
 * update u's changes follow those of u - 1. */
typedef struct jt_changes {
    int64_t *u;
    int32_t *b;
    uint64_t *delta;
    int64_t n, cap;
} jt_changes;

int jt_log_change(jt_tree *t, int32_t b, uint64_t delta)
{
    if (t->rule != JT_RULE_EXACT)
        return JT_OK;
    jt_changes *l = t->log;
    if (!l && !(l = t->log = calloc(1, sizeof(jt_changes))))
        return JT_ENOMEM;
    if (l->n == l->cap) {
        const int64_t cap = l->cap ? 2 * l->cap : 1024;
        int64_t *u = realloc(l->u, sizeof(int64_t) * (size_t)cap);
        if (u)
            l->u = u;
        int32_t *bb = realloc(l->b, sizeof(int32_t) * (size_t)cap);
        if (bb)
            l->b = bb;
        uint64_t *d = realloc(l->delta, sizeof(uint64_t) * (size_t)cap);
        if (d)
            l->delta = d;
        if (!u || !bb || !d)
            return JT_ENOMEM;
        l->cap = cap;
    }
    l->u[l->n] = t->updates;
    l->b[l->n] = b;
    l->delta[l->n] = delta;
    l->n++;
    return JT_OK;
}

void jt_log_clear(jt_tree *t)
{
    if (!t->log)
        return;
    free(t->log->u);
    free(t->log->b);
    free(t->log->delta);
    free(t->log);
    t->log = NULL;
}

/* The first change of the log made in update f or later. */
static int64_t log_from(const jt_changes *l, int64_t f)
{
    int64_t lo = 0, hi = l ? l->n : 0;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (l->u[mid] < f)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int holds(const jt_node *nd, int32_t b)
{
    int32_t lo = 0, hi = nd->m;
    while (lo < hi) {
        const int32_t mid = lo + (hi - lo) / 2;
        if (nd->S[mid] < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < nd->m && nd->S[lo] == b;
}

/* q(c) += delta n_{reply(c, b)} for the target b of nd (an update's correction of kept values). */
void jt_add_to_q(const jt_tree *t, jt_node *nd, int32_t b, uint64_t delta)
{
    const jt_words *w = t->w;
    const int32_t D = w->D;
    if (w->mode == JT_MODE_PAPER) {
        const jt_eval ev = jt_eval_of(w, nd->m, NULL, NULL, D, NULL, w->mask, nd->cnt, nd->q);
        jt_kernels_current()->add_weight(&ev, w->mask[b], delta);
    } else { /* by reply codes */
        for (int32_t c = 0; c < D; c++)
            nd->q[c] += delta * nd->cnt[(size_t)jt_reply(w, c, b) * D + c];
    }
}

/* Whether a target of nd changed weight in update f or later (changes from log entry k on). */
static int touched(const jt_tree *t, const jt_node *nd, int64_t k)
{
    const jt_changes *l = t->log;
    const int64_t n = l ? l->n - k : 0;
    if (n <= 0)
        return 0;
    if (n * 16 < nd->m) {
        for (int64_t i = k; i < l->n; i++)
            if (holds(nd, l->b[i]))
                return 1;
        return 0;
    }
    const int64_t f = l->u[k];
    for (int32_t i = 0; i < nd->m; i++)
        if (t->changed[nd->S[i]] >= f)
            return 1;
    return 0;
}

/* Counts of the targets found in an unchanged subtree. */
static void settle(jt_tree *t, const jt_node *nd)
{
    if (nd->found)
        t->counts[nd->guess] = nd->depth + 1;
    if (!nd->child)
        return;
    for (int j = 0; j < t->w->R; j++) /* (as in jt_free_children) */
        if (nd->child[j])
            __builtin_prefetch(nd->child[j]);
    for (int j = 0; j < t->w->R; j++)
        if (nd->child[j])
            settle(t, nd->child[j]);
}

/* Take a off its node's list and the tree's. */
static void unlink_alt(jt_tree *t, jt_alt *a)
{
    for (jt_alt **p = &a->owner->alt; *p; p = &(*p)->next) {
        if (*p == a) {
            *p = a->next;
            break;
        }
    }
    if (a->older)
        a->older->newer = a->newer;
    else
        t->alt_oldest = a->newer;
    if (a->newer)
        a->newer->older = a->older;
    else
        t->alt_newest = a->older;
}

/* Free an alternate taken off the lists, and its subtree (to the memo if keep). */
static void drop_alt(jt_tree *t, jt_alt *a, int keep)
{
    jt_node parent; /* jt_free_children frees the children of a node: lend them one */
    memset(&parent, 0, sizeof parent);
    parent.child = a->child;
    jt_free_children(t, &parent, keep);
    free(a);
}

static void free_alt(jt_tree *t, jt_alt *a, int keep)
{
    unlink_alt(t, a);
    drop_alt(t, a, keep);
}

void jt_free_alts(jt_tree *t, jt_node *nd, int keep)
{
    while (nd->alt)
        free_alt(t, nd->alt, keep);
}

void jt_release_alts(jt_node *nd)
{
    for (jt_alt *a = nd->alt, *next; a; a = next) {
        next = a->next;
        free(a);
    }
    nd->alt = NULL;
}

/* Keep x's children, frozen at f, as the alternate of its guess (or drop them to the memo),
 * dropping the tree's oldest alternates while its node records are more than t->alt_cap. */
static int stash(jt_tree *t, jt_node *x, int64_t f)
{
    if (!x->child)
        return JT_OK;
    const int R = t->w->R;
    jt_alt *a = t->rule == JT_RULE_EXACT
                    ? malloc(sizeof(jt_alt) + sizeof(jt_node *) * (size_t)R)
                    : NULL;
    if (!a) { /* (out of memory too: the subtree is only dropped sooner) */
        jt_free_children(t, x, 1);
        return JT_OK;
    }
    a->owner = x;
    a->frozen = f;
    a->guess = x->guess;
    memcpy(a->child, x->child, sizeof(jt_node *) * (size_t)R);
    x->child = NULL;
    int kept = 0;
    for (jt_alt *p = x->alt; p; p = p->next)
        kept++;
    a->next = x->alt;
    x->alt = a;
    a->newer = NULL;
    a->older = t->alt_newest;
    if (a->older)
        a->older->newer = a;
    else
        t->alt_oldest = a;
    t->alt_newest = a;
    if (kept >= ALT_MAX) { /* the node's oldest */
        jt_alt *p = a;
        while (p->next)
            p = p->next;
        free_alt(t, p, 1);
    }
    while (t->nnodes > t->alt_cap && t->alt_oldest != a)
        free_alt(t, t->alt_oldest, 1);
    return JT_OK;
}

/* Take the alternate of guess g off x's list and the tree's, if there is one. */
static jt_alt *take_alt(jt_tree *t, jt_node *x, int32_t g)
{
    for (jt_alt *a = x->alt; a; a = a->next) {
        if (a->guess == g) {
            unlink_alt(t, a);
            return a;
        }
    }
    return NULL;
}

static int push_grow(jt_tree *t, jt_node *x)
{
    if (t->ngrow == t->growcap) {
        const int32_t cap = t->growcap ? 2 * t->growcap : 64;
        jt_node **g = realloc(t->ugrow, sizeof(jt_node *) * (size_t)cap);
        if (!g)
            return JT_ENOMEM;
        t->ugrow = g;
        t->growcap = cap;
    }
    t->ugrow[t->ngrow++] = x;
    return JT_OK;
}

/* Bring a subtree frozen at f up to the current weights (above); the log's changes made in f or
 * later start at entry k. */
static int refresh(jt_tree *t, jt_node *nd, int64_t f, int64_t k)
{
    if (!touched(t, nd, k)) {
        settle(t, nd);
        return JT_OK;
    }
    if (!nd->fixed) {
        const jt_changes *l = t->log;
        if (nd->q)
            for (int64_t i = k; i < l->n; i++)
                if (l->u[i] > f && holds(nd, l->b[i]))
                    jt_add_to_q(t, nd, l->b[i], l->delta[i]);
        int32_t g;
        nd->dirty = 1;
        const int st = jt_redecide(t, nd, &t->scr[0], &g);
        t->decided++;
        nd->stamp = t->updates;
        if (st)
            return st;
        if (g != nd->guess)
            return jt_switch_guess(t, nd, g, f);
    }
    if (nd->found)
        t->counts[nd->guess] = nd->depth + 1;
    int st = JT_OK;
    for (int j = 0; nd->child && j < t->w->R && !st; j++)
        if (nd->child[j])
            st = refresh(t, nd->child[j], f, k);
    return st;
}

/* x's guess becomes g (decided for the current weights) while its children are frozen at f: keep
 * them as an alternate, and take g's subtree from its alternate if it has a fresh enough one,
 * else list x to be expanded (t->ugrow). */
int jt_switch_guess(jt_tree *t, jt_node *x, int32_t g, int64_t f)
{
    for (int32_t i = 0; i < x->m; i++)
        t->counts[x->S[i]] = 0;
    int st = stash(t, x, f);
    if (st)
        return st;
    x->guess = g;
    jt_alt *a = take_alt(t, x, g);
    if (a && t->log && t->log->n - log_from(t->log, a->frozen + 1) > alt_stale(t)) {
        drop_alt(t, a, 1);
        a = NULL;
    }
    if (!a)
        return push_grow(t, x);
    const int R = t->w->R;
    x->child = (jt_node **)(x + 1);
    memcpy(x->child, a->child, sizeof(jt_node *) * (size_t)R);
    const int64_t frozen = a->frozen;
    free(a);
    x->found = holds(x, g);
    if (x->found)
        t->counts[g] = x->depth + 1;
    const int64_t k = log_from(t->log, frozen);
    for (int j = 0; j < R && !st; j++)
        if (x->child[j])
            st = refresh(t, x->child[j], frozen, k);
    return st;
}
