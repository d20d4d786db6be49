/* tree.c -- decision trees of Jotto guessers: building them.
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
 * Big nodes keep their class sizes to update q in place; small ones are evaluated again, unless
 * a node with the same S left the tree since the last change of a weight of S (the memo,
 * tree_update.c).  Windows met by updates keep one word per way of replying to S
 * (jt_window_unique): a window left with one word does not depend on h. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/popcnt_clones.h"
#include "tree_internal.h"

int32_t jt_t_shared = 128, jt_t_table = -1;
#define CHUNK 256 /* candidates per work item on big nodes */
#define T_TASK 24 /* nodes this small grow within their parent's task */

void jt_set_thresholds(int32_t shared, int32_t table)
{
    jt_t_shared = shared > 3 ? shared : 3;
    jt_t_table = table < 0 ? -1 : table > 3 ? table : 3;
}

/* Decide a small node whole, in one thread's scratch. */
int jt_decide_small(jt_tree *t, jt_node *nd, jt_scratch *s)
{
    jt_job job;
    job.node = nd;
    if (jt_describe(t, &job, s->sm, s->spec_mask, s->spec_delta, s->spec_id))
        return JT_OK;
    /* The greedy rules need q only, not the class sizes. */
    const int q_only = jt_updatable(t);
    job.ev.cnt = q_only ? NULL : s->cnt;
    job.ev.q = jt_updatable(t) ? s->q : NULL;
    job.ev.qval = s->qval;
    jt_q16_keys(&job.ev);
    job.ev.q16 = jt_q16_fits(&job.ev) ? s->q16 : NULL;
    const jt_words *w = t->w;
    if (w->mode == JT_MODE_ANAGRAM)
        jt_families_set(w, &job.ev, nd->S, nd->m, s->fam_n, s->fam_v, s->in_s);
    if (w->mode == JT_MODE_GENERAL)
        jt_gather_s(&job.ev, nd->S, nd->m, s->stok, s->sspell);
    jt_own_set(w, &job.ev, s->own);
    jt_evaluate_range(&job.ev, 0, job.ev.nc);
    jt_own_clear(w, &job.ev, s->own);
    if (w->mode == JT_MODE_ANAGRAM)
        jt_families_clear(w, nd->S, nd->m, s->fam_n, s->fam_v, s->in_s);
    return jt_choose(t, &job, s);
}

/* Big nodes, phase A: describe S in arrays the node allocates for itself (job->big), the table
 * method's too. */
static int big_prepare(jt_tree *t, jt_job *job)
{
    jt_node *nd = job->node;
    const jt_words *w = t->w;
    const size_t m = (size_t)nd->m, D = (size_t)w->D;
    uint32_t *sm = malloc(sizeof(uint32_t) * m);
    uint32_t *spec_mask = malloc(sizeof(uint32_t) * m);
    uint64_t *spec_delta = malloc(sizeof(uint64_t) * m);
    int32_t *spec_id = malloc(sizeof(int32_t) * m);
    jt_big_arrays *a = &job->big;
    a->sm = sm;
    a->spec_mask = spec_mask;
    a->spec_delta = spec_delta;
    a->spec_id = spec_id;
    if (!sm || !spec_mask || !spec_delta || !spec_id)
        return JT_ENOMEM;
    job->decided = jt_describe(t, job, sm, spec_mask, spec_delta, spec_id);
    if (job->decided)
        return JT_OK;
    jt_eval *ev = &job->ev;
    if (w->mode == JT_MODE_ANAGRAM) {
        int32_t *fam_n = calloc(D, sizeof(int32_t));
        uint64_t *fam_v = calloc(D, sizeof(uint64_t));
        uint8_t *in_s = calloc(D, 1);
        a->fam_n = fam_n;
        a->fam_v = fam_v;
        a->fam_in_s = in_s;
        if (!fam_n || !fam_v || !in_s)
            return JT_ENOMEM;
        jt_families_set(w, ev, nd->S, nd->m, fam_n, fam_v, in_s);
    }
    if (w->mode == JT_MODE_GENERAL) {
        uint64_t *stok = malloc(sizeof(uint64_t) * 2 * m);
        a->stok = stok;
        if (!stok)
            return JT_ENOMEM;
        jt_gather_s(ev, nd->S, nd->m, stok, stok + m);
    }
    nd->cnt = malloc(sizeof(uint16_t) * (size_t)ev->nc * w->R);
    /* hard mode (candidates the words of S) keeps no values: updates re-decide it whole */
    uint64_t *q = jt_updatable(t) ? malloc(sizeof(uint64_t) * (size_t)ev->nc) : NULL;
    if (ev->cid)
        a->q = q;
    else
        nd->q = q;
    if (!nd->cnt || (jt_updatable(t) && !q))
        return JT_ENOMEM;
    ev->cnt = nd->cnt;
    ev->q = q;
    const int root = nd->m == w->D && !ev->cid && w->root_cnt;
    if (root) { /* the root: its class sizes are known */
        /* (raw popcount classes in ANAGRAM mode, which evaluate_range corrects) */
        memcpy(nd->cnt, w->root_cnt, sizeof(uint16_t) * (size_t)ev->nc * w->R);
        ev->counted = 1;
    }
    if (ev->method == JT_M_SLICED && !ev->counted) {
        /* (own_n only: keys, and with them own_u, are for small nodes alone) */
        uint8_t *own = calloc(D + 64, 1);
        a->own_n = own;
        if (!own)
            return JT_ENOMEM;
        jt_own_set(w, ev, own);
    }
    if (ev->method == JT_M_TABLE) {
        uint8_t *in_s = calloc(D, 1);
        a->in_s = in_s;
        if (!in_s)
            return JT_ENOMEM;
        for (size_t k = 0; k < m; k++)
            in_s[nd->S[k]] = 1;
        ev->in_s = in_s;
        if (!root) {
            uint16_t *table = calloc((size_t)w->table_size, sizeof(uint16_t));
            a->table = table;
            if (!table)
                return JT_ENOMEM;
            for (size_t k = 0; k < m; k++) {
                const uint16_t *sr = w->subrank + (size_t)nd->S[k] * w->nsub;
                for (int32_t i = 0; i < w->nsub; i++)
                    table[sr[i]]++;
            }
            ev->table = table;
        }
        if (q && ev->nspec && w->mode == JT_MODE_PAPER)
            return jt_unit_table(w, ev, &a->utable);
    }
    if (ev->method == JT_M_SLICED && !ev->counted && w->mode != JT_MODE_GENERAL &&
        ev->nc > CHUNK) { /* the chunks of candidates share S's chunk tables */
        a->tabs = aligned_alloc(64, JT_TABS_BYTES);
        if (!a->tabs)
            return JT_ENOMEM;
        if (!jt_kernels_current()->letter_tables(ev, a->tabs))
            ev->tabs = a->tabs;
    }
    return JT_OK;
}

static void big_release(const jt_tree *t, jt_job *job)
{
    jt_big_arrays *a = &job->big;
    free(a->sm);
    free(a->spec_mask);
    free(a->spec_delta);
    free(a->spec_id);
    free(a->fam_n);
    free(a->fam_v);
    free(a->fam_in_s);
    free(a->stok);
    free(a->q);
    free(a->own_n);
    free(a->in_s);
    free(a->table);
    free(a->utable);
    free(a->tabs);
    memset(a, 0, sizeof *a);
    if (!jt_updatable(t)) { /* Norvig's trees are never updated */
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
    if (!st && !job.decided) {
        const jt_eval *ev = &job.ev;
        const int32_t nchunks = (ev->nc + CHUNK - 1) / CHUNK;
#pragma omp atomic write
        t->posted = 1;
#pragma omp taskloop grainsize(1)
        for (int32_t k = 0; k < nchunks; k++) {
            const int32_t c0 = k * CHUNK;
            jt_evaluate_range(ev, c0, c0 + CHUNK < ev->nc ? c0 + CHUNK : ev->nc);
        }
        st = jt_choose(t, &job, &t->scr[jt_thread_id()]);
    }
    big_release(t, &job);
    return st;
}

/* Take a small node's decision from the memo, which holds what deciding it gives, since it was
 * made for the same S and the same weights of S: its guess and whether it is fixed, or for the
 * paper rule its window, from which the guess is picked with today's h. */
static int reuse(const jt_tree *t, jt_node *nd, const jt_memo *kept)
{
    nd->guess = kept->guess;
    nd->fixed = kept->fixed;
    if (!kept->win)
        return JT_OK;
    free(nd->win);
    nd->win = malloc(sizeof(int32_t) * (size_t)kept->nwin);
    if (!nd->win)
        return JT_ENOMEM;
    memcpy(nd->win, kept->win, sizeof(int32_t) * (size_t)kept->nwin);
    nd->nwin = kept->nwin;
    nd->unique = 1;
    nd->guess = jt_repick(t, nd, &t->scr[jt_thread_id()]);
    return JT_OK;
}

/* Decide a node with m >= 3.  Scratch is per thread and used only between task scheduling
 * points, so tasks a thread runs while it waits never share it with the waiting one. */
static int decide(jt_tree *t, jt_node *nd)
{
    nd->stamp = t->updates;
    const jt_memo *kept = nd->m < jt_t_shared ? jt_memo_find(t, nd) : NULL;
    int st = JT_OK;
    if (kept)
        st = reuse(t, nd, kept);
    else if (nd->m >= jt_t_shared)
        st = decide_big(t, nd);
    else
        st = jt_decide_small(t, nd, &t->scr[jt_thread_id()]);
    const int64_t evaluated = nd->fixed || kept ? 0
                              : t->candidates == JT_CAND_ALL || nd->m > 3 ? t->w->D : nd->m;
#pragma omp atomic
    t->decided += 1;
#pragma omp atomic
    t->evaluated += evaluated;
    return st;
}

static void grow(jt_tree *t, jt_node *nd, int *err);

/* Split S by the reply to nd's guess; record the target guessed here; create the children,
 * deciding tiny ones at once and growing the others in tasks of their own.  (Cloned for popcnt:
 * the replies of every node's targets, PAPER's popcounts, took 6.5% of a uniform 5-letter tree
 * with the portable popcount and the node's fields read again in every pass of the loops.) */
POPCNT_CLONES
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
    uint8_t *restrict rep = t->scr[jt_thread_id()].rep; /* free before the first task below */
    const int32_t m = nd->m, *restrict Sn = nd->S;
    if (w->mode == JT_MODE_PAPER) { /* replies are popcounts: the guess's mask read once */
        const uint32_t mg = w->mask[nd->guess], *restrict mask = w->mask;
        for (int32_t k = 0; k < m; k++)
            rep[k] = (uint8_t)jt_pc64(mg & mask[Sn[k]]);
    } else {
        for (int32_t k = 0; k < m; k++)
            rep[k] = (uint8_t)jt_reply(w, nd->guess, Sn[k]);
    }
    for (int32_t k = 0; k < m; k++)
        sizes[rep[k]]++;
    nd->found = sizes[win] > 0;
    if (nd->found)
        t->counts[nd->guess] = nd->depth + 1;
    if (m == sizes[win])
        return JT_OK; /* a leaf */
    nd->child = (jt_node **)(nd + 1);
    memset(nd->child, 0, sizeof(jt_node *) * (size_t)R);
    int st = JT_OK;
    for (int j = 0; j < R && !st; j++)
        if (j != win && sizes[j] && !(S[j] = jt_state_new(t, sizes[j])))
            st = JT_ENOMEM;
    if (st) {
        for (int j = 0; j < R; j++)
            jt_state_free(t, S[j], sizes[j]);
        return st;
    }
    for (int32_t k = 0; k < m; k++)
        if (rep[k] != win)
            S[rep[k]][fill[rep[k]]++] = Sn[k];
    uint64_t key[JT_MAX_R]; /* in updates: the memo slots of the children it may know */
    for (int j = 0; t->memo && j < R; j++)
        key[j] = j != win && sizes[j] >= 3 && sizes[j] < jt_t_shared
                     ? jt_memo_prefetch(t, S[j], sizes[j])
                     : 0;
    for (int j = 0; j < R; j++) {
        if (j == win || !sizes[j])
            continue;
        jt_node *c = st ? NULL : jt_node_new(t, S[j], sizes[j], nd->depth + 1, nd);
        if (!c) {
            jt_state_free(t, S[j], sizes[j]);
            st = JT_ENOMEM;
            continue;
        }
        nd->child[j] = c;
        if (t->memo)
            c->key = key[j];
        if (c->m <= 2) {
            jt_decide_tiny(t, c);
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

/* Threads for work of about `pairs` (candidate, target) pairs: one below t_parallel, since on a
 * busy machine a second thread may wait milliseconds for a CPU while one thread finishes such
 * work in well under a millisecond; the parallel regions below run serially (`if` clause) then,
 * waking no other thread. */
static int64_t t_parallel = 1 << 22;

int jt_threads_for(int threads, int64_t pairs)
{
    return pairs < t_parallel ? 1 : jt_num_threads(threads);
}

void jt_set_parallel_threshold(int64_t pairs) { t_parallel = pairs < 0 ? 1 << 22 : pairs; }

/* An update's regrowth counts its pairs this many times over against t_parallel, going to
 * every thread from a sixteenth of the work a fresh tree needs: an update's other parts are
 * serial, so the regrowth is the only work its second thread can share.  `jotto solve`
 * (ENABLE 5 letters, 2 threads, 2026-11-29): 0.92x the wall time with 16, 0.93x with 4,
 * against 1; with a busy process on each core still faster than on one thread (2.32 s against
 * 2.84 s, medians of 7), and the 3-letter solve under load 0.88-1.03x one thread's time
 * (bench/test_threads_under_load.py).  Fresh trees keep the threshold itself (a 4-letter tree
 * under load went 1.50x one thread's time at a quarter of it). */
#define UPDATE_SHARE 16

/* How long jt_grow_all's other threads wait awake for a root's first tasks, at most (preparing
 * a root of 2833 words takes 50 us). */
#define AWAIT_US 200.0

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e6 * (double)ts.tv_sec + 1e-3 * (double)ts.tv_nsec;
}

/* Spin until t->posted, or AWAIT_US. */
static void await_tasks(const jt_tree *t)
{
    const double until = now_us() + AWAIT_US;
    int posted;
    do {
        for (int i = 0; i < 32; i++) {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#elif defined(__aarch64__)
            __asm__ __volatile__("yield");
#endif
        }
#pragma omp atomic read
        posted = t->posted;
    } while (!posted && now_us() < until);
}

/* Grow the given nodes (undecided, m >= 3) or, if decided, expand them: in parallel tasks.  One
 * node to grow (a tree's root) is grown by the first thread at once, its preparation being
 * serial, while the others wait awake for its first tasks (await_tasks, at most AWAIT_US): put
 * to sleep on the way, as OMP_WAIT_POLICY=passive does at once, the other CPU of a 2-core VM
 * joined the root's candidates 20-40 us late (they took 58-78 us on two threads, 82 us on one).
 * The wait is short enough not to matter to a busy machine. */
int jt_grow_all(jt_tree *t, jt_node **nodes, int32_t n, int decided, int threads)
{
    int64_t pairs = 0;
    for (int32_t i = 0; i < n; i++)
        pairs += (int64_t)nodes[i]->m * t->w->D;
    const int nt = jt_threads_for(threads, t->updating ? UPDATE_SHARE * pairs : pairs);
    if (jt_ensure_scratch(t, nt))
        return JT_ENOMEM;
    int err = JT_OK;
    if (n == 1 && !decided && nt > 1) {
        t->posted = 0;
#pragma omp parallel num_threads(nt)
        {
            if (jt_thread_id() == 0) {
                grow(t, nodes[0], &err);
#pragma omp atomic write
                t->posted = 1;
            } else {
                await_tasks(t);
            }
        }
        return err;
    }
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

/* Decide a root with state S (from jt_state_new, taking ownership of it) and, if expand,
 * everything below it. */
static int decide_root(jt_tree *t, int32_t *S, int32_t m, int expand_it, int threads)
{
    t->root = jt_node_new(t, S, m, 0, NULL);
    if (!t->root) {
        jt_state_free(t, S, m);
        return JT_ENOMEM;
    }
    if (m <= 2) {
        jt_decide_tiny(t, t->root);
        return expand_it ? jt_grow_all(t, &t->root, 1, 1, threads) : JT_OK;
    }
    if (expand_it)
        return jt_grow_all(t, &t->root, 1, 0, threads);
    return jt_ensure_scratch(t, 1) ? JT_ENOMEM : decide(t, t->root);
}

int jt_build_all(jt_tree *t, int threads)
{
    const int32_t D = t->w->D;
    int32_t *S = jt_state_new(t, D);
    if (!S)
        return JT_ENOMEM;
    for (int32_t i = 0; i < D; i++)
        S[i] = i;
    return decide_root(t, S, D, 1, threads);
}

jt_tree *jt_tree_build(const jt_words *w, const jt_weights *wt, int threads, int *status)
{
    jt_tree *t = jt_tree_new(w, wt, status);
    if (!t)
        return NULL;
    *status = jt_build_all(t, threads);
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
    jt_tree *t = jt_tree_new(w, wt, status);
    if (!t)
        return -1;
    int32_t *copy = jt_state_new(t, m);
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
