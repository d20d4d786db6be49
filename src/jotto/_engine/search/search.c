/* search.c -- the guesser's true best response by depth-first branch and bound (jotto_search.h).
 *
 * bs_search(S, beta) returns F(S) exactly if F(S) < beta, else a proven lower bound >= beta.  At a
 * state it splits S by every candidate word that can differ from the others there (one pass over
 * S per word, class sizes in packed counters) and bounds each guess g from below by
 *   lb(g) = W(S) + sum_{j != win} B(S_j),
 * with B the best bound known for the class:
 *  - the counting bound (at most N_k = 1 + B + ... + B^(k-1) targets are found within k
 *    guesses, since a node has at most B non-winning replies: B = L for the paper's rules, L + 1
 *    with anagrams kept, (L+1)(L+2)/2 - 2 with positional replies; heaviest targets first),
 *    exact for classes of one or two targets (a member found first wins on itself: the win is
 *    identity under every rule set, and in hard mode it is a candidate);
 *  - the memo's proven bound or exact value for S_j (bounds cached per state);
 *  - for small classes the member bound (member_bound): it sees lopsided splits;
 *  - for larger classes, once the guess is tried, the lookahead bound (lookahead_bound): the
 *    best split the class admits, each part at its counting bound, cached in the memo;
 *  - opt-in, the subset bound F(S) >= F(S \ {t}) + v_t from the memo (bs_subset_bound);
 *  - with paper words, the family bound (search_families.c; unequal weights and hard mode as
 *    bs_families_apply says) in place of the counting bound in all three: words sharing all
 *    letters but one are told apart at most L at a time, which the counting bound cannot see.
 * Guesses are tried in the greedy order (least sum_i v_i n_{reply(g,i)}, then words of S, then
 * list order; a proof that refuted the weakest openers first, the root's words by decreasing
 * bound, took 5% more states to prove 2629/421 at 3 letters, by increasing bound 0.4% more),
 * guesses splitting S the same way are tried once, and a guess's classes are searched in rounds,
 * each asked to rise by its share of what the guess still needs to reach the best value found;
 * the guess is dropped as soon as its classes' values summed reach it.  Every
 * return value is a proven lower bound, also when a budget stops the pass, and the memo keeps
 * exact values and bounds per state (keyed by the state's Zobrist key, members compared in full;
 * one search has one rule set, so the key needs no more).
 *
 * Hard mode: the candidates of S are its members (every one narrows S down), the member bound
 * drops its term for other words, and states keep their words of weight 0 (candidates too).
 *
 * In top-K mode a state considers only the first K guesses of distinct splits in that order (but
 * one of at most full_below targets considers them all): its values are those of the best
 * restricted tree, upper bounds of the optimum.
 *
 * Several threads search a pass together (search_parallel.c): each runs this recursion from the
 * root over a memo they share, putting off the words of a state another thread is searching,
 * and a state's guesses of least value are ranked by the order above whichever thread found
 * them, so exact values and trees never depend on the threads; node counts and bounds a budget
 * stops at do.
 *
 * A pass may search a state inside the game (jt_bs_pass.targets) and force its first guess to be
 * one of given words (jt_bs_pass.first_guesses): the work units of a proof split over processes
 * (jotto.responses.work_units).  Its value is then the best such tree's, never stored as the state's own.
 * This file holds the recursion and its passes; search_internal.h lists the files holding the
 * rest. */
#include <stdlib.h>
#include <time.h>

#include "search_internal.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- the search ---------------------------------------------------------------------------- */

/* Whether thread w stops here: a stop it has seen, another thread's, or its budget's (the
 * calling thread alone polls `interrupted`).  The first reason any thread gives is the pass's. */
int bs_out_of_budget(jt_bsearch *s, worker *w)
{
    if (w->stop)
        return 1;
    int why = LOAD(&s->stop);
    if (!why) {
        if (s->node_limit > 0 && LOAD(&s->nodes) >= s->node_limit)
            why = JT_BS_NODES;
        else if (s->deadline > 0 && (w->nodes & 63) == 0 && now() > s->deadline)
            why = JT_BS_TIME;
        else if (w->id == 0 && s->interrupted && (w->nodes & 4095) == 0 &&
                 s->interrupted(s->ctx))
            why = JT_BS_INTERRUPTED;
        else
            return 0;
        int none = 0;
        if (!CAS(&s->stop, &none, why))
            why = none;
    }
    w->stop = why;
    return 1;
}

/* Stop the pass for an error (memory). */
void bs_fail(jt_bsearch *s, worker *w, int error)
{
    int none = 0;
    CAS(&s->error, &none, error);
    none = 0;
    CAS(&s->stop, &none, JT_BS_INTERRUPTED);
    w->stop = JT_BS_INTERRUPTED;
}

/* A state shared by threads: its key and size, whether words may be refuted against the best
 * tree of it another thread completed (bs_upper_get), and the least such value a word was
 * refuted against. */
typedef struct {
    uint64_t key;
    int32_t m;
    int use_upper;
    uint64_t upper_used;
} sharing;

/* Raise the bounds of word cd's classes to what the memo holds now (other threads may have
 * searched them since the state was split). */
static void refresh_word(const jt_bsearch *s, const memo *mm, level *lv, cand *cd)
{
    const uint32_t *n = lv->cnt + (size_t)cd->c * s->R;
    uint64_t *lbc = lv->lbc + (size_t)cd->c * s->R;
    const uint64_t *hz = lv->hz + (size_t)cd->c * s->R;
    for (int r = 0; r < s->R; r = NONWIN_NEXT(s->win, r)) {
        uint64_t v;
        if (n[r] >= 3 && bs_memo_get_class(s, mm, hz[r], (int32_t)n[r], cd->c, r, lv->in_s, &v) &&
            v > lbc[r]) {
            cd->lb += v - lbc[r];
            lbc[r] = v;
        }
    }
}

/* Try word cd at the state of lv (depth, m targets): raise its classes' bounds until their sum
 * reaches thr (the word is refuted: returns 0) or every class is exact with a sum below it (the
 * word's tree is complete: 1); *total gets the sum.  -1 if the pass stopped (*total: what is
 * proven of the word).  At a shared state (sh) each round first lowers thr to one more than the
 * best tree of the state another thread found. */
static int try_word(jt_bsearch *s, worker *w, int32_t depth, level *lv, int32_t m,
                    const cand *cd, uint64_t thr, int restricted, sharing *sh,
                    uint64_t *total_out)
{
    const int V = s->win, R = s->R;
    const int32_t c = cd->c;
    const uint32_t *n = lv->cnt + (size_t)c * R;
    const uint64_t *lbc = lv->lbc + (size_t)c * R, *cw = lv->cw + (size_t)c * R;
    const uint64_t *hz = lv->hz + (size_t)c * R;
    /* Members by class, and the classes to search, largest first. */
    int32_t off[MAXR], fill[MAXR], order[MAXR], no = 0;
    int32_t acc = 0;
    for (int r = 0; r < R; r++) {
        off[r] = fill[r] = acc;
        acc += (int32_t)n[r];
    }
    bs_list_classes(s, lv, m, c, fill);
    for (int r = 0; r < R; r = NONWIN_NEXT(V, r)) {
        if (n[r] < 3)
            continue;
        int p = no++;
        while (p > 0 && n[order[p - 1]] < n[r]) {
            order[p] = order[p - 1];
            p--;
        }
        order[p] = r;
    }
    uint64_t total = cd->lb, best = thr;
    uint64_t cur[MAXR];
    int pending = no;
    for (int i = 0; i < no; i++)
        cur[order[i]] = lbc[order[i]];
    /* First the subset bounds of the classes too large for member bounds (opt-in: memo
     * lookups), then their lookahead bounds (one split each): a word whose classes split badly
     * is refuted here, before any class is searched deeper than its siblings' bounds require.
     * (Small classes have their member bounds already; probing them too costs more than it
     * saves.) */
    for (int i = 0; i < no && total < best && !restricted; i++) {
        const int r = order[i];
        if (n[r] <= SMALL)
            continue;
        const uint64_t b = bs_subset_bound(s, w, &s->memo[s->mode], lv->cls + off[r],
                                           (int32_t)n[r], hz[r], cur[r]);
        total += b - cur[r];
        cur[r] = b;
    }
    for (int i = 0; i < no && total < best && !restricted; i++) {
        const int r = order[i];
        if (n[r] <= SMALL)
            continue;
        const uint64_t b = bs_lookahead_bound(s, w, depth + 1, lv->cls + off[r], (int32_t)n[r],
                                              hz[r], cw[r]);
        if (b > cur[r]) {
            total += b - cur[r];
            cur[r] = b;
        }
    }
    /* Raise the classes' bounds in rounds, each class by its share of what the word still
     * needs to reach best (equal shares, or shares by class size), so that no class is
     * solved exactly while raising the others' bounds would refute the word. */
    while (pending && total < best && !w->stop) {
        if (sh) {
            const uint64_t up = sh->use_upper ? bs_upper_get(s, sh->key, sh->m) : INF;
            best = up != INF && up + 1 < thr ? up + 1 : thr;
            if (total >= best)
                break;
        }
        const uint64_t need = best - total;
        uint64_t size_pending = 0;
        for (int i = 0; i < no; i++)
            if (order[i] >= 0)
                size_pending += n[order[i]];
        for (int i = 0; i < no && total < best; i++) {
            const int r = order[i];
            if (r < 0)
                continue;
            const uint64_t share =
                s->by_size ? (uint64_t)(((unsigned __int128)need * n[r] + size_pending - 1) /
                                        size_pending)
                           : (need + pending - 1) / pending;
            const uint64_t cb = cur[r] + share;
            int32_t g;
            uint64_t val = bs_search(s, w, depth + 1, lv->cls + off[r], (int32_t)n[r], hz[r],
                                     cw[r], cb, &g);
            if (w->stop)
                val = umax(val, cur[r]);
            else if (val < cb) {
                order[i] = -1;
                pending--;
            } else
                val = umax(val, cur[r]);
            total += val - cur[r];
            cur[r] = val;
            if (w->stop)
                break;
        }
    }
    *total_out = total;
    if (w->stop)
        return -1;
    if (!pending && total < best)
        return 1;
    if (sh && total < thr)  /* refuted only against another thread's tree */
        sh->upper_used = umin(sh->upper_used, best - 1);
    return 0;
}

/* The candidates of the top state that the pass's first guesses split it as: w->first_of[c] is
 * the first of them splitting S as candidate c does, or -1.  (Every thread makes the same map.) */
static void first_guess_map(const jt_bsearch *s, worker *w, const level *lv, int32_t m)
{
    for (int32_t t = 0; t < lv->nc; t++)
        w->first_of[lv->cid[t]] = -1;
    for (int32_t i = 0; i < s->nfirst; i++) {
        const int32_t c = bs_candidate_like(s, lv, m, s->first_guesses[i]);
        if (c >= 0 && w->first_of[c] < 0)
            w->first_of[c] = s->first_guesses[i];
    }
}

/* F(S) if below beta, else a proven bound >= beta (any proven bound once the pass stops).  S:
 * increasing indices of positive-weight targets, key its Zobrist key, W its weight.  *guess_out
 * gets the best first guess when the value is exact.  At depth 0 of a pass with first guesses
 * (forced) the value is that of the best tree starting with one of them: the only candidates are
 * the words splitting S as they do (first_guess_map), S's own memo entry (F(S), not this value)
 * is neither read nor written, nor is its best tree shared with other threads, and the guess
 * given is the first guess itself, not the candidate splitting S alike. */
uint64_t bs_search(jt_bsearch *s, worker *w, int32_t depth, const int32_t *S, int32_t m,
                   uint64_t key, uint64_t W, uint64_t beta, int32_t *guess_out)
{
    *guess_out = -1;
    const int forced = depth == 0 && s->first_guesses;
    if (m == 1 && !forced) {
        *guess_out = S[0];
        return W;
    }
    if (m == 2 && !forced) {
        const int first = s->v[S[1]] > s->v[S[0]];
        *guess_out = S[first];
        return 2 * W - s->v[S[first]];
    }
    if (W == 0)  /* hard mode: only words of weight 0 remain */
        return 0;
    if (bs_out_of_budget(s, w))
        return 0;
    w->nodes++;
    if (s->node_limit > 0)
        __atomic_fetch_add(&s->nodes, 1, __ATOMIC_RELAXED);
    bs_quiescent(s, w);
    const memo *mm = &s->memo[s->mode];
    uint64_t known = 0;
    {
        uint64_t v;
        int32_t g;
        const int f = forced ? 0 : bs_memo_get(s, mm, key, m, S, &v, &g);
        if (f == 2) {
            *guess_out = g;
            return v;
        }
        if (f) {
            known = v;
            if (known >= beta)
                return known;
        }
    }
    level *lv = bs_enter_level(s, w, depth, S, m);
    if (!lv)
        return known;
    const int V = s->win, R = s->R;
    const int uniform = bs_split_state(s, w, depth, lv, m, W);
    if (forced)
        first_guess_map(s, w, lv, m);

    /* The words to try, in greedy order, one per distinct split. */
    const int restricted = s->mode == 1 && m > s->full_below;
    uint64_t floor_all = INF, outside = INF;
    int32_t nl = 0;
    for (int32_t t = 0; t < lv->nc; t++) {
        const int32_t c = lv->cid[t];
        if (!lv->prog[c] || (forced && w->first_of[c] < 0))
            continue;
        floor_all = umin(floor_all, lv->lb[c]);
        if (!restricted && lv->lb[c] >= beta) {
            outside = umin(outside, lv->lb[c]);
            continue;
        }
        lv->list[nl++] = (cand){lv->q[c], lv->lb[c], c, !lv->in_s[c]};
    }
    if (umax(known, floor_all) >= beta) {
        const uint64_t res = umax(known, floor_all);
        if (!forced)
            bs_memo_store(s, w, key, m, S, res, 0, -1);
        bs_clear_members(lv, S, m);
        return res;
    }
    bs_sort_list(lv, nl);
    nl = bs_dedupe(s, lv, m, nl, restricted ? s->top_k : 0, uniform);
    /* Bounds of the classes the memo knows (their slots fetched ahead: the memo is large), and
     * member bounds of the small classes it does not. */
    for (int32_t i = 0; i < nl; i++) {
        const uint32_t *n = lv->cnt + (size_t)lv->list[i].c * R;
        const uint64_t *hz = lv->hz + (size_t)lv->list[i].c * R;
        for (int r = 0; r < R; r = NONWIN_NEXT(V, r))
            if (n[r] >= 3)
                bs_memo_prefetch(mm, hz[r]);
    }
    const int32_t nf = bs_families_apply(s, uniform) && !restricted ? bs_families(lv, m) : 0;
    int32_t kept = 0;
    for (int32_t i = 0; i < nl; i++) {
        cand *cd = &lv->list[i];
        const uint32_t *n = lv->cnt + (size_t)cd->c * R;
        uint64_t *lbc = lv->lbc + (size_t)cd->c * R;
        const uint64_t *hz = lv->hz + (size_t)cd->c * R;
        if (nf) {
            uint64_t fb[MAXR];
            bs_family_word_bounds(s, lv, nf, cd->c, uniform, fb);
            for (int r = 0; r < R; r = NONWIN_NEXT(V, r))
                if (fb[r] > lbc[r]) {
                    cd->lb += fb[r] - lbc[r];
                    lbc[r] = fb[r];
                }
        }
        codeset unknown_small = 0;
        for (int r = 0; r < R && cd->lb < beta; r = NONWIN_NEXT(V, r)) {
            if (n[r] < 3)
                continue;
            uint64_t v;
            const int f = bs_memo_get_class(s, mm, hz[r], (int32_t)n[r], cd->c, r, lv->in_s, &v);
            if (f && v > lbc[r]) {
                cd->lb += v - lbc[r];
                lbc[r] = v;
            }
            if (!f && n[r] <= SMALL)
                unknown_small |= (codeset)1 << r;
        }
        if (unknown_small && cd->lb < beta)
            cd->lb += bs_member_bounds(s, lv, m, cd->c, uniform, unknown_small, nf > 0);
        if (cd->lb >= beta)
            outside = umin(outside, cd->lb);
        else
            lv->list[kept++] = *cd;
    }
    nl = kept;

    /* The words in order; at a state shared with other threads, those another thread is
     * searching are put off until the others are tried (lv->defer), but for the first word
     * searched, which every thread enters (its value is the bar the others must beat: in a
     * state whose value is found, threads that spread over the later words at once would
     * search them against beta; 200 words of ENABLE's 3-letter list, exact, took 10-50% more
     * states that way, and 3-5% more than on one thread with it).  A word earlier in the
     * order than the best found so far may still win with the same value, so it is refuted
     * only above it: among the words of least value the first wins, whatever order they were
     * tried in.  Words may also be refuted against the best tree of the state another thread
     * completed (sharing): if this search does not find one as good, it is searched again
     * without them (that value was another state's, sharing its hash). */
    const int shared = s->nthreads > 1 && m >= s->share_min;
    sharing sh = {key, m, shared && !forced, INF};
    uint64_t best, failed;
    int32_t bestt;
    for (;;) {
        best = beta;
        failed = INF;
        bestt = -1;
        int32_t nd = 0, tried = 0;
        for (int32_t i = 0;; i++) {
            int32_t t;
            const int later = i >= nl;
            if (!later) {
                t = i;
            } else if (nd) {
                int32_t j = 0;
                while (j < nd - 1 && bs_busy_elsewhere(s, key, m, lv->list[lv->defer[j]].c))
                    j++;
                if (bs_busy_elsewhere(s, key, m, lv->list[lv->defer[j]].c))
                    j = 0;
                t = lv->defer[j];
                memmove(lv->defer + j, lv->defer + j + 1, sizeof(int32_t) * (size_t)(nd - j - 1));
                nd--;
            } else {
                break;
            }
            cand *cd = &lv->list[t];
            const uint64_t thr = bestt >= 0 && t < bestt ? best + 1 : best;
            const uint64_t up = sh.use_upper ? bs_upper_get(s, key, m) : INF;
            const uint64_t lim = up != INF && up + 1 < thr ? up + 1 : thr;
            if (later)
                refresh_word(s, mm, lv, cd);
            if (cd->lb >= lim) {
                failed = umin(failed, cd->lb);
                if (cd->lb < thr)
                    sh.upper_used = umin(sh.upper_used, up);
                continue;
            }
            if (shared && !later && tried && bs_busy_elsewhere(s, key, m, cd->c)) {
                lv->defer[nd++] = t;
                continue;
            }
            tried = 1;
            const int mine = shared && bs_busy_claim(s, key, m, cd->c);
            uint64_t total;
            const int r = try_word(s, w, depth, lv, m, cd, thr, restricted,
                                   shared ? &sh : NULL, &total);
            if (mine)
                bs_busy_release(s, key, m, cd->c);
            if (r < 0) {
                /* Every word's cost is bounded below by what is proven of it so far. */
                uint64_t res = umin(umin(failed, outside), total);
                if (bestt >= 0)
                    res = umin(res, best);
                for (int32_t u = i + 1; u < nl; u++)
                    res = umin(res, lv->list[u].lb);
                for (int32_t j = 0; j < nd; j++)
                    res = umin(res, lv->list[lv->defer[j]].lb);
                res = umax(res, known);
                if (!forced)
                    bs_memo_store(s, w, key, m, S, res, 0, -1);
                bs_clear_members(lv, S, m);
                return res;
            }
            if (r > 0) {
                best = total;
                bestt = t;
                if (shared && !forced)
                    bs_upper_put(s, key, m, total);
                if (depth == 0) {
                    w->root_best = total;
                    w->root_guess = forced ? w->first_of[cd->c] : cd->c;
                }
            } else {
                failed = umin(failed, total);
            }
        }
        if (sh.upper_used == INF || (bestt >= 0 && best <= sh.upper_used))
            break;
        sh.use_upper = 0;
        sh.upper_used = INF;
    }
    bs_clear_members(lv, S, m);
    if (bestt >= 0) {
        const int32_t c = lv->list[bestt].c;
        if (!forced)
            bs_memo_store(s, w, key, m, S, best, 1, c);
        *guess_out = forced ? w->first_of[c] : c;
        return best;
    }
    const uint64_t res = umax(known, umin(failed, outside));
    if (!forced)
        bs_memo_store(s, w, key, m, S, res, 0, -1);
    return res;
}

/* ---- passes -------------------------------------------------------------------------------- */

int32_t jt_bs_classes(const jt_bsearch *s)
{
    return s->R;
}

void jt_bs_set_bounds(jt_bsearch *s, int32_t bounds)
{
    s->bounds = bounds & JT_BS_ALL_BOUNDS;
}

int64_t jt_bs_subset_raised(const jt_bsearch *s)
{
    int64_t n = 0;
    for (int i = 0; i < s->nwk; i++)
        n += s->wk[i].subset_raised;
    return n;
}

/* Make the top-K memo hold the values of top_k and full_below.  What it holds of states of at
 * most min(full_below, the memo's) targets stays: those states try every guess in both modes
 * (and so do all the states below them), so their values and bounds are the full search's. */
void bs_set_mode(jt_bsearch *s, int32_t top_k, int32_t full_below)
{
    s->mode = top_k > 0;
    s->top_k = top_k;
    s->full_below = top_k > 0 ? full_below : 0;
    if (top_k > 0 && (s->top_k_memo != top_k || s->full_below_memo != full_below)) {
        memo *mm = &s->memo[1];
        const int32_t keep = full_below < s->full_below_memo ? full_below : s->full_below_memo;
        if (keep < 3 || !bs_rehash(s, mm, keep))
            bs_memo_clear(s, mm);
        s->top_k_memo = top_k;
        s->full_below_memo = full_below;
    }
}

void jt_bs_forget_top_k(jt_bsearch *s)
{
    bs_memo_clear(s, &s->memo[1]);
    s->top_k_memo = 0;
    s->full_below_memo = 0;
}

/* The state of the words T (nt increasing indices) as the search holds states: its targets of
 * positive weight (in hard mode all of them) into S, with their key and weight. */
static int state_of(const jt_bsearch *s, const int32_t *T, int32_t nt, int32_t *S, int32_t *m,
                    uint64_t *key, uint64_t *W)
{
    *m = 0;
    *key = *W = 0;
    for (int32_t k = 0; k < nt; k++) {
        if (T[k] < 0 || T[k] >= s->D || (k && T[k] <= T[k - 1]))
            return JT_EINVAL;
        if (s->v[T[k]] || s->hard) {
            S[(*m)++] = T[k];
            *key += s->z[T[k]];
            *W += s->v[T[k]];
        }
    }
    return JT_OK;
}

/* The state a pass searches (s->top...): its targets, or every target of positive weight; *sub
 * gets the array to free. */
static int pass_state(jt_bsearch *s, const jt_bs_pass *p, int32_t **sub)
{
    *sub = NULL;
    s->top = s->pos;
    s->ntop = s->npos;
    s->keytop = s->keypos;
    s->Wtop = s->Wpos;
    if (!p->targets)
        return JT_OK;
    if (p->ntargets < 0)
        return JT_EINVAL;
    *sub = malloc(sizeof(int32_t) * (size_t)(p->ntargets ? p->ntargets : 1));
    if (!*sub)
        return JT_ENOMEM;
    s->top = *sub;
    return state_of(s, p->targets, p->ntargets, *sub, &s->ntop, &s->keytop, &s->Wtop);
}

/* The threads a pass runs on: one below parallel_from targets or without OpenMP. */
static int pass_threads(const jt_bsearch *s, const jt_bs_pass *p)
{
#ifdef _OPENMP
    const int32_t from = p->parallel_from > 0 ? p->parallel_from : JT_BS_PARALLEL_FROM;
    if (p->threads <= 1 || s->ntop < from)
        return 1;
    return p->threads < MAX_THREADS ? p->threads : MAX_THREADS;
#else
    (void)s;
    (void)p;
    return 1;
#endif
}

int jt_bs_run(jt_bsearch *s, const jt_bs_pass *p, jt_bs_outcome *out)
{
    memset(out, 0, sizeof *out);
    out->best = INF;
    out->best_guess = -1;
    if (p->top_k < 0 || p->full_below < 0 || p->threads < 0 || p->parallel_from < 0 ||
        (p->first_guesses && p->nfirst < 1))
        return JT_EINVAL;
    for (int32_t i = 0; p->first_guesses && i < p->nfirst; i++)
        if (p->first_guesses[i] < 0 || p->first_guesses[i] >= s->D)
            return JT_EINVAL;
    int32_t *sub;
    int st = pass_state(s, p, &sub);
    const int threads = pass_threads(s, p);
    if (st == JT_OK && (!bs_workers(s, threads) || (threads > 1 && !bs_shared_tables(s))))
        st = JT_ENOMEM;
    for (int t = 0; st == JT_OK && p->first_guesses && t < threads; t++)
        if (!s->wk[t].first_of && !(s->wk[t].first_of = malloc(sizeof(int32_t) * (size_t)s->D)))
            st = JT_ENOMEM;
    if (st != JT_OK) {
        free(sub);
        return st;
    }
    s->first_guesses = p->first_guesses;
    s->nfirst = p->nfirst;
    bs_set_mode(s, p->top_k, p->full_below);
    s->nodes = 0;
    s->node_limit = p->max_nodes;
    s->deadline = p->seconds > 0 ? now() + p->seconds : 0;
    s->interrupted = p->interrupted;
    s->ctx = p->ctx;
    s->by_size = p->by_size;
    s->stop = 0;
    s->error = 0;
    for (int t = 0; t < threads; t++) {
        worker *w = &s->wk[t];
        w->nodes = 0;
        w->stop = 0;
        w->root_best = INF;
        w->root_guess = -1;
        w->done = 0;
        w->seen = UINT64_MAX;
    }
    if (!s->ntop) {
        s->wk[0].value = 0;
        s->wk[0].done = 1;
    } else if (threads == 1) {
        worker *w = &s->wk[0];
        w->value = bs_search(s, w, 0, s->top, s->ntop, s->keytop, s->Wtop, p->beta, &w->guess);
        w->done = 1;
    } else {
        s->nthreads = threads;
        s->share_min = p->parallel_from > 0 && p->parallel_from < SHARE_MIN ? p->parallel_from
                                                                             : SHARE_MIN;
        bs_run_threads(s, p->beta, threads);
        s->nthreads = 1;
        bs_memo_retire_end(s);
    }
    /* The pass's value: that of a thread that finished it, else the best bound any proved
     * before it stopped; its best root tree: the least any thread completed. */
    const worker *fin = NULL;
    uint64_t bound = 0;
    for (int t = 0; t < threads; t++) {
        const worker *w = &s->wk[t];
        if (!w->done)
            continue;
        if (!w->stop && !fin)
            fin = w;
        bound = umax(bound, w->value);
        if (w->root_guess >= 0 && w->root_best < out->best) {
            out->best = w->root_best;
            out->best_guess = w->root_guess;
        }
        s->wk[t].stop = 0;
    }
    out->exact = fin && fin->value < p->beta;
    out->value = out->exact ? fin->value : bound;
    out->stopped = fin ? JT_BS_DONE : s->stop;
    out->nodes = 0;
    for (int t = 0; t < threads; t++)
        out->nodes += s->wk[t].nodes;
    if (out->exact && s->ntop) {
        out->best = fin->value;
        out->best_guess = fin->guess;
    } else if (out->best_guess < 0) {
        out->best = INF;
    }
    free(sub);
    s->top = s->pos;
    s->first_guesses = NULL;
    s->deadline = 0;
    s->node_limit = 0;
    s->interrupted = NULL;
    s->stop = 0;
    return s->error ? s->error : JT_OK;
}

uint64_t jt_bs_root_bound(jt_bsearch *s)
{
    jt_bs_pass p = {0};
    jt_bs_outcome o;
    p.beta = 1;
    if (jt_bs_run(s, &p, &o) != JT_OK)
        return 0;
    return o.value;
}

uint64_t jt_bs_lookahead_bound(jt_bsearch *s, const int32_t *S, int32_t m)
{
    uint64_t key = 0, W = 0;
    for (int32_t k = 0; k < m; k++) {
        key += s->z[S[k]];
        W += s->v[S[k]];
    }
    s->wk[0].stop = 0;
    return bs_lookahead_bound(s, &s->wk[0], 0, S, m, key, W);
}
