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
 *  - with paper words and equal weights, the family bound (search_families.c) in place of the
 *    counting bound in all three: words sharing all letters but one are told apart at most L
 *    at a time, which the counting bound cannot see.
 * Guesses are tried in the greedy order (least sum_i v_i n_{reply(g,i)}, then words of S, then
 * list order), guesses splitting S the same way are tried once, and a guess's classes are
 * searched in rounds, each asked to rise by its share of what the guess still needs to reach the
 * best value found; the guess is dropped as soon as its classes' values summed reach it.  Every
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
 * The search is sequential, so its values, trees and node counts never depend on threads.  This
 * file holds the recursion and its passes; search_internal.h lists the files holding the rest. */
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

int bs_out_of_budget(jt_bsearch *s)
{
    if (s->stop)
        return 1;
    if (s->node_limit > 0 && s->nodes >= s->node_limit) {
        s->stop = JT_BS_NODES;
        return 1;
    }
    if (s->deadline > 0 && (s->nodes & 63) == 0 && now() > s->deadline) {
        s->stop = JT_BS_TIME;
        return 1;
    }
    if (s->interrupted && (s->nodes & 4095) == 0 && s->interrupted(s->ctx)) {
        s->stop = JT_BS_INTERRUPTED;
        return 1;
    }
    return 0;
}

/* The candidates of the top state that the pass's first guesses split it as: s->first_of[c]
 * is the first of them splitting S as candidate c does, or -1. */
static void first_guess_map(jt_bsearch *s, const level *lv, int32_t m)
{
    for (int32_t t = 0; t < lv->nc; t++)
        s->first_of[lv->cid[t]] = -1;
    for (int32_t i = 0; i < s->nfirst; i++) {
        const int32_t c = bs_candidate_like(s, lv, m, s->first_guesses[i]);
        if (c >= 0 && s->first_of[c] < 0)
            s->first_of[c] = s->first_guesses[i];
    }
}

/* F(S) if below beta, else a proven bound >= beta (any proven bound once the pass stops).  S:
 * increasing indices of positive-weight targets, key its Zobrist key, W its weight.  *guess_out
 * gets the best first guess when the value is exact.  At depth 0 of a pass with first guesses
 * (jt_bs_pass.first_guesses) the value is that of the best tree starting with one of them: the
 * only candidates are the words splitting S as they do (first_guess_map), and S's own memo
 * entry (F(S), not this value) is neither read nor written. */
uint64_t bs_search(jt_bsearch *s, int32_t depth, const int32_t *S, int32_t m, uint64_t key,
                   uint64_t W, uint64_t beta, int32_t *guess_out)
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
    if (bs_out_of_budget(s))
        return 0;
    s->nodes++;
    const memo *mm = &s->memo[s->mode];
    const entry *e = forced ? NULL : bs_memo_find(mm, key, m, S);
    uint64_t known = 0;
    if (e) {
        if (e->guess != NOGUESS) {
            *guess_out = e->guess;
            return e->val;
        }
        known = e->val;
        if (known >= beta)
            return known;
    }
    level *lv = bs_enter_level(s, depth, S, m);
    if (!lv)
        return known;
    const int V = s->win, R = s->R;
    const int uniform = bs_split_state(s, depth, lv, m, W);
    if (forced)
        first_guess_map(s, lv, m);

    /* The words to try, in greedy order, one per distinct split. */
    const int restricted = s->mode == 1 && m > s->full_below;
    uint64_t floor_all = INF, outside = INF;
    int32_t nl = 0;
    for (int32_t t = 0; t < lv->nc; t++) {
        const int32_t c = lv->cid[t];
        if (!lv->prog[c] || (forced && s->first_of[c] < 0))
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
            bs_memo_store(s, key, m, S, res, 0, -1);
        bs_clear_members(lv, S, m);
        return res;
    }
    bs_sort_list(lv, nl);
    nl = bs_dedupe(s, lv, m, nl, restricted ? s->top_k : 0, uniform);
    /* Bounds of the classes the memo knows (their slots fetched ahead: the memo is large), and
     * member bounds of the small classes it does not. */
    if (mm->cap)
        for (int32_t i = 0; i < nl; i++) {
            const uint32_t *n = lv->cnt + (size_t)lv->list[i].c * R;
            const uint64_t *hz = lv->hz + (size_t)lv->list[i].c * R;
            for (int r = 0; r < V; r++)
                if (n[r] >= 3)
                    __builtin_prefetch(&mm->tab[hz[r] & (mm->cap - 1)]);
        }
    const int32_t nf = s->gen == 0 && !s->hard && uniform && !restricted ? bs_families(lv, m)
                                                                          : 0;
    int32_t kept = 0;
    for (int32_t i = 0; i < nl; i++) {
        cand *cd = &lv->list[i];
        const uint32_t *n = lv->cnt + (size_t)cd->c * R;
        uint64_t *lbc = lv->lbc + (size_t)cd->c * R;
        const uint64_t *hz = lv->hz + (size_t)cd->c * R;
        if (nf) {
            uint64_t fb[MAXR];
            bs_family_word_bounds(s, lv, nf, cd->c, fb);
            for (int r = 0; r < V; r++)
                if (fb[r] > lbc[r]) {
                    cd->lb += fb[r] - lbc[r];
                    lbc[r] = fb[r];
                }
        }
        codeset unknown_small = 0;
        for (int r = 0; r < V && cd->lb < beta; r++) {
            if (n[r] < 3)
                continue;
            const entry *ce = bs_memo_find_class(s, mm, hz[r], (int32_t)n[r], cd->c, r, lv->in_s);
            if (ce && ce->val > lbc[r]) {
                cd->lb += ce->val - lbc[r];
                lbc[r] = ce->val;
            }
            if (!ce && n[r] <= SMALL)
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

    uint64_t best = beta, failed = INF;
    int32_t bestc = -1;
    for (int32_t t = 0; t < nl; t++) {
        const cand *cd = &lv->list[t];
        if (cd->lb >= best) {
            failed = umin(failed, cd->lb);
            continue;
        }
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
        for (int r = 0; r < V; r++) {
            if (n[r] < 3)
                continue;
            int p = no++;
            while (p > 0 && n[order[p - 1]] < n[r]) {
                order[p] = order[p - 1];
                p--;
            }
            order[p] = r;
        }
        uint64_t total = cd->lb;
        uint64_t cur[MAXR];
        int pending = no;
        for (int i = 0; i < no; i++)
            cur[order[i]] = lbc[order[i]];
        /* First the lookahead bounds of the classes too large for member bounds (one split
         * each): a word whose classes split badly is refuted here, before any class is searched
         * deeper than its siblings' bounds require.  (Small classes have their member bounds
         * already; probing them too costs more than it saves.) */
        for (int i = 0; i < no && total < best && !restricted; i++) {
            const int r = order[i];
            if (n[r] <= SMALL)
                continue;
            const uint64_t b = bs_lookahead_bound(s, depth + 1, lv->cls + off[r], (int32_t)n[r],
                                               hz[r], cw[r]);
            if (b > cur[r]) {
                total += b - cur[r];
                cur[r] = b;
            }
        }
        /* Raise the classes' bounds in rounds, each class by its share of what the word still
         * needs to reach best (equal shares, or shares by class size), so that no class is
         * solved exactly while raising the others' bounds would refute the word. */
        while (pending && total < best && !s->stop) {
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
                uint64_t val = bs_search(s, depth + 1, lv->cls + off[r], (int32_t)n[r], hz[r],
                                      cw[r], cb, &g);
                if (s->stop)
                    val = umax(val, cur[r]);
                else if (val < cb) {
                    order[i] = -1;
                    pending--;
                } else
                    val = umax(val, cur[r]);
                total += val - cur[r];
                cur[r] = val;
                if (s->stop)
                    break;
            }
        }
        const int complete = !pending && total < best;
        if (s->stop) {
            /* Every word's cost is bounded below by what is proven of it so far. */
            uint64_t res = umin(umin(failed, outside), total);
            if (bestc >= 0)
                res = umin(res, best);
            for (int32_t u = t + 1; u < nl; u++)
                res = umin(res, lv->list[u].lb);
            res = umax(res, known);
            if (!forced)
                bs_memo_store(s, key, m, S, res, 0, -1);
            bs_clear_members(lv, S, m);
            return res;
        }
        if (complete) {
            best = total;
            bestc = c;
            if (depth == 0) {
                s->root_best = total;
                s->root_guess = c;
            }
        } else {
            failed = umin(failed, total);
        }
    }
    bs_clear_members(lv, S, m);
    if (bestc >= 0) {
        if (!forced)
            bs_memo_store(s, key, m, S, best, 1, bestc);
        *guess_out = bestc;
        return best;
    }
    const uint64_t res = umax(known, umin(failed, outside));
    if (!forced)
        bs_memo_store(s, key, m, S, res, 0, -1);
    return res;
}

/* ---- passes -------------------------------------------------------------------------------- */

int32_t jt_bs_classes(const jt_bsearch *s)
{
    return s->R;
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
        if (keep < 3 || !mm->cap || !bs_rehash(mm, mm->cap, keep))
            bs_memo_clear(mm);
        s->top_k_memo = top_k;
        s->full_below_memo = full_below;
    }
}

void jt_bs_forget_top_k(jt_bsearch *s)
{
    bs_memo_clear(&s->memo[1]);
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

int jt_bs_run(jt_bsearch *s, const jt_bs_pass *p, jt_bs_outcome *out)
{
    memset(out, 0, sizeof *out);
    out->best = INF;
    out->best_guess = -1;
    if (p->top_k < 0 || p->full_below < 0 || (p->targets && p->ntargets < 0) ||
        (p->first_guesses && p->nfirst < 1))
        return JT_EINVAL;
    for (int32_t i = 0; p->first_guesses && i < p->nfirst; i++)
        if (p->first_guesses[i] < 0 || p->first_guesses[i] >= s->D)
            return JT_EINVAL;
    const int32_t *S = s->pos;
    int32_t m = s->npos;
    uint64_t key = s->keypos, W = s->Wpos;
    int32_t *sub = NULL;
    if (p->targets) {
        sub = malloc(sizeof(int32_t) * (size_t)(p->ntargets ? p->ntargets : 1));
        if (!sub)
            return JT_ENOMEM;
        const int st = state_of(s, p->targets, p->ntargets, sub, &m, &key, &W);
        if (st != JT_OK) {
            free(sub);
            return st;
        }
        S = sub;
    }
    if (p->first_guesses) {
        s->first_of = malloc(sizeof(int32_t) * (size_t)s->D);
        if (!s->first_of) {
            free(sub);
            return JT_ENOMEM;
        }
    }
    bs_set_mode(s, p->top_k, p->full_below);
    s->nodes = 0;
    s->node_limit = p->max_nodes;
    s->deadline = p->seconds > 0 ? now() + p->seconds : 0;
    s->interrupted = p->interrupted;
    s->ctx = p->ctx;
    s->by_size = p->by_size;
    s->stop = 0;
    s->error = 0;
    s->root_best = INF;
    s->root_guess = -1;
    s->first_guesses = p->first_guesses;
    s->nfirst = p->nfirst;
    int32_t g = -1;
    const uint64_t val = m ? bs_search(s, 0, S, m, key, W, p->beta, &g) : 0;
    out->value = val;
    out->stopped = s->stop;
    out->exact = !s->stop && val < p->beta;
    out->nodes = s->nodes;
    if (out->exact && m) {
        out->best = val;
        out->best_guess = g;
    } else if (s->root_guess >= 0) {
        out->best = s->root_best;
        out->best_guess = s->root_guess;
    }
    if (s->first_guesses && out->best_guess >= 0)  /* the given word, not the one alike */
        out->best_guess = s->first_of[out->best_guess];
    free(sub);
    free(s->first_of);
    s->first_of = NULL;
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
    return bs_lookahead_bound(s, 0, S, m, key, W);
}
