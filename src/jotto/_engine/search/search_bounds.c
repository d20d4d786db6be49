/* search_bounds.c -- lower bounds of a best-response search beyond the counting bound
 * (search_internal.h): the member bound of a small class, which sees lopsided splits, and the
 * lookahead bound of a larger one, the best split it admits with every part at its counting
 * bound, or at its family bound where that applies (search_families.c; cached in the memo). */
#include "search_internal.h"

/* A lower bound on F of a small state T (n >= 3 targets: word indices ti, paper masks tm,
 * weights tv; weight W, heaviest vmax) from its first guess: a member x finds x and splits the
 * rest into classes whose counting bounds follow from the members' replies to x; any other word
 * (not a candidate in hard mode) finds nothing at the first guess, and its at most B children
 * find at most B N_k targets within k more guesses.  Stronger than the counting bound when no
 * member splits T evenly. */
static inline __attribute__((always_inline)) uint64_t
member_bound_body(const jt_bsearch *s, const int32_t *ti, const uint32_t *tm, const uint64_t *tv,
                  int n, uint64_t W, uint64_t vmax, const int gen)
{
    const int V = s->win;
    uint64_t best = INF;
    if (!s->hard) {
        best = W;
        for (int k = 0; k < s->ncap; k++) {
            const uint64_t top = (uint64_t)s->branch * s->capN[k] * vmax;
            if (top >= W)
                break;
            best += W - top;
        }
    }
    for (int x = 0; x < n; x++) {
        uint32_t cnt[MAXR];
        uint64_t cw[MAXR], mx[MAXR], mn[MAXR];
        for (int r = 0; r < s->R; r++) {
            cnt[r] = 0;
            cw[r] = mx[r] = 0;
            mn[r] = INF;
        }
        for (int y = 0; y < n; y++) {
            if (y == x)
                continue;
            const int r = gen == 0 ? pc(tm[x] & tm[y]) : reply_ix(s, gen, ti[x], ti[y]);
            cnt[r]++;
            cw[r] += tv[y];
            mx[r] = tv[y] > mx[r] ? tv[y] : mx[r];
            mn[r] = tv[y] < mn[r] ? tv[y] : mn[r];
        }
        uint64_t b = W;
        for (int r = 0; r < s->R && b < best; r = NONWIN_NEXT(V, r))
            b += count_bound(s, cnt[r], cw[r], mx[r], mn[r]);
        best = b < best ? b : best;
    }
    return best;
}

/* Raise the bounds of the small classes of word c flagged in `which` (bit r: class r) to their
 * member bounds; *gain gets by how much in all. */
static inline __attribute__((always_inline)) void
member_bounds_body(const jt_bsearch *s, level *lv, int32_t m, int32_t c, int uniform,
                   codeset which, int families, uint64_t *gain_out, const int gen)
{
    const int V = s->win, R = s->R;
    const uint32_t *n = lv->cnt + (size_t)c * R;
    const uint64_t *w = lv->cw + (size_t)c * R, *cmax = lv->cmax + (size_t)c * R;
    uint64_t *lbc = lv->lbc + (size_t)c * R;
    int32_t ti[MAXR][SMALL];
    uint32_t tm[MAXR][SMALL];
    uint64_t tv[MAXR][SMALL];
    int fill[MAXR];
    for (int r = 0; r < R; r++)
        fill[r] = 0;
    WORD_OF(s, gen, c);
    for (int32_t k = 0; k < m; k++) {
        const int r = REPLY_K(s, lv, gen, c, cm, ct, cs, k);
        if ((which >> r) & 1) {
            if (gen == 0)
                tm[r][fill[r]] = lv->sm[k];
            else
                ti[r][fill[r]] = lv->S[k];
            tv[r][fill[r]++] = lv->sv[k];
        }
    }
    uint64_t gain = 0;
    for (int r = 0; r < R; r = NONWIN_NEXT(V, r)) {
        if (!((which >> r) & 1))
            continue;
        const uint64_t vmax = uniform ? lv->sv[0] : cmax[r];
        uint64_t b;
        if (!families || !lv->fs->np[r])
            b = member_bound_body(s, ti[r], tm[r], tv[r], (int)n[r], w[r], vmax, gen);
        else if (uniform)
            b = bs_family_member_bound(s, lv->fs, r, tm[r], (int)n[r], w[r], vmax, vmax);
        else
            b = umax(member_bound_body(s, ti[r], tm[r], tv[r], (int)n[r], w[r], vmax, gen),
                     bs_family_member_bound(s, lv->fs, r, tm[r], (int)n[r], w[r], vmax,
                                            lv->cmin[(size_t)c * R + r]));
        if (b > lbc[r]) {
            gain += b - lbc[r];
            lbc[r] = b;
        }
    }
    *gain_out = gain;
}

POPCNT_CLONES
uint64_t bs_member_bounds(const jt_bsearch *s, level *lv, int32_t m, int32_t c, int uniform,
                          codeset which, int families)
{
    uint64_t gain;
    BY_GEN(s, member_bounds_body, s, lv, m, c, uniform, which, families, &gain);
    return gain;
}

/* The lookahead bound of a split state (paper words; `uniform`: equal weights) with every
 * class at its family bound (search_families.c): the least over the words that narrow S down.
 * A word's family bound is never below its counting bound, so the word of the least counting
 * bound goes first, and the words whose counting bound reaches the least found need no more. */
static uint64_t family_floor(const jt_bsearch *s, level *lv, int32_t m, uint64_t W, int uniform)
{
    const int32_t nf = bs_families(lv, m);
    int32_t first = -1;
    for (int32_t t = 0; t < lv->nc; t++) {
        const int32_t c = lv->cid[t];
        if (lv->prog[c] && (first < 0 || lv->lb[c] < lv->lb[first]))
            first = c;
    }
    if (!nf)
        return lv->lb[first];
    uint64_t best = INF, fb[MAXR];
    for (int32_t t = -1; t < lv->nc; t++) {
        const int32_t c = t < 0 ? first : lv->cid[t];
        if (lv->prog[c] && lv->lb[c] < best && (t < 0 || c != first))
            best = umin(best, W + bs_family_word_bounds(s, lv, nf, c, uniform, fb));
    }
    return best;
}

/* The lookahead bound of a state S (m >= 3 targets, positive weight W, Zobrist key): its
 * value is W + F over the classes of its first guess, and each class's F is at least its
 * counting bound, so
 *   F(S) >= L1(S) = W + min_g sum_{j != win} CB(S_j(g)),
 * g over the words that narrow S down (every word that could be a tree's first guess: one that
 * does not narrow S down only repeats S, so an optimal tree never plays it) -- the minimum
 * bs_search() takes as its floor before trying any word.  L1 sees how lopsided S's best splits
 * are, which the counting bound CB(S) of S's size alone cannot; with paper words and equal
 * weights each CB is the class's family bound instead (family_floor), which also sees the
 * classes' families.  Returns what the memo knows of S if it knows anything (a bound stored
 * by an earlier lookahead of S, which this one would only repeat, or by a search of S, which
 * split S too and is rarely weaker: skipping those splits took 13% fewer states to prove
 * 2690/421 at 3 letters, bench/bound_states.py), else L1(S), which it stores as a proven
 * bound; costs one split of S and never searches deeper.  Thread w's level depth must be free: the caller is at depth - 1 (or the state is
 * the root). */
uint64_t bs_lookahead_bound(jt_bsearch *s, worker *w, int32_t depth, const int32_t *S,
                            int32_t m, uint64_t key, uint64_t W)
{
    bs_quiescent(s, w);
    uint64_t known = 0;
    int32_t g;
    const int f = bs_memo_get(s, &s->memo[s->mode], key, m, S, &known, &g);
    if (f)
        return known;
    if (W == 0 || bs_out_of_budget(s, w))
        return known;
    w->nodes++;
    if (s->node_limit > 0)
        __atomic_fetch_add(&s->nodes, 1, __ATOMIC_RELAXED);
    level *lv = bs_enter_level(s, w, depth, S, m);
    if (!lv)
        return known;
    const int uniform = bs_split_state(s, w, depth, lv, m, W);
    uint64_t floor = INF;
    for (int32_t t = 0; t < lv->nc; t++)
        if (lv->prog[lv->cid[t]])
            floor = umin(floor, lv->lb[lv->cid[t]]);
    if (bs_families_apply(s, uniform) && floor > known && floor < INF)
        floor = family_floor(s, lv, m, W, uniform);
    bs_clear_members(lv, S, m);
    if (floor <= known)
        return known;
    bs_memo_store(s, w, key, m, S, floor, 0, -1);
    return floor;
}

/* The subset bound of a state S (m targets, Zobrist key) from the memo's bounds of S minus one
 * target: F(S) >= F(S \ {t}) + v_t for every member t, outside hard mode.  Why: take an optimal
 * tree for S and follow it with the targets of S \ {t} alone.  Every guess is any word of the
 * list whatever the state (not hard mode), so it is a tree for S \ {t}, and each remaining
 * target meets the same guesses and replies as before, so it is found at the same depth
 * (nodes whose guess no longer narrows its state down only cost the restricted tree more
 * than the optimum F(S \ {t}), never less).  So F(S \ {t}) <= F(S) - v_t d_t with d_t >= 1
 * the depth at which the tree finds t.  (In general F(A u B) >= F(A) + F(B) for disjoint A, B,
 * the same way.)  Hard mode breaks the argument: a guess must be a word still consistent, and
 * t itself may be the guess that splits the others; e.g. t splitting n targets that each reply
 * the same to one another (a code apart per target) gives F(S) = 1 + 2n at unit weights while
 * F(S \ {t}) = n(n + 1)/2 (each guess finds one target and tells the rest nothing), above
 * F(S) - 1 from n = 4 on.  A certificate's checker re-derives every record from the records of
 * the classes of every guess (src/jotto/game/proof_check.py), which this bound is not, so it
 * is off while a certificate is written.  Costs m lookups (fetched ahead), no split, yet it
 * does not pay: on the 3-letter proofs it saves 2-5% of the states for 10-20% more CPU (most
 * lookups miss), so it is opt-in (bench/bound_states.py).  Returns the greater of it and
 * `known` (what is known of S already); thread w counts the states it raised. */
uint64_t bs_subset_bound(const jt_bsearch *s, worker *w, const memo *mm, const int32_t *S,
                         int32_t m, uint64_t key, uint64_t known)
{
    if (!(s->bounds & JT_BS_SUBSETS) || s->hard || s->cert || m < 4)
        return known;
    for (int32_t t = 0; t < m; t++)
        bs_memo_prefetch(mm, key - s->z[S[t]]);
    uint64_t best = known;
    for (int32_t t = 0; t < m; t++) {
        uint64_t v;
        if (bs_memo_get_minus(mm, key - s->z[S[t]], m, S, t, &v))
            best = umax(best, v + s->v[S[t]]);
    }
    w->subset_raised += best > known;
    return best;
}
