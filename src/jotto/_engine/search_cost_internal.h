/* search_cost_internal.h -- what the files of the cost search (search_cost.h) share:
 *   search_cost.c       the branch and bound, its passes, solving a state;
 *   search_cost_memo.c  the memo of exact values and proven bounds per (state, depth);
 *   cost_bounds.c       the cost vector and the bounds that hold for any non-decreasing one;
 *   greedy_cost.c       the heuristic decision for play.
 * Replies are the engine's (jt_code, engine_internal.h). */
#ifndef JOTTO_SEARCH_COST_INTERNAL_H
#define JOTTO_SEARCH_COST_INTERNAL_H

#include <stdint.h>

#include "engine_internal.h"
#include "search_cost.h"

#define CS_INF JT_CS_INF
/* States of at most this many targets get the member bound. */
#define CS_SMALL 12

/* One reply class of a guess over a state: targets, their weight, heaviest and lightest, and
 * (for the exact search) the class's two 64-bit Zobrist keys, sums of its members' keys. */
typedef struct {
    uint32_t n;
    uint64_t W, vmax, vmin;
    uint64_t k1, k2;
} cs_class;

/* The classes of guess g over the m targets S (weights sv[k] of S[k]; keys z1, z2 by word when
 * `keys`): cls[r] for every code r listed in touched[0..*nt), which the caller resets when done
 * (cls[r].n = 0 for each); the win's class is left out, and *own is the weight of g if it is a
 * member (found at once), else 0.  cls[] must start all empty. */
static inline __attribute__((always_inline)) int32_t
cs_split(const jt_words *w, int32_t g, const int32_t *S, const uint64_t *sv, int32_t m,
         const uint64_t *z1, const uint64_t *z2, const int keys, cs_class *cls, uint8_t *touched,
         uint64_t *own)
{
    int32_t nt = 0;
    *own = 0;
    for (int32_t k = 0; k < m; k++) {
        if (S[k] == g) {
            *own = sv[k];
            continue;
        }
        const int r = jt_code(w, g, S[k]);
        cs_class *c = cls + r;
        const uint64_t x = sv[k];
        if (!c->n) {
            touched[nt++] = (uint8_t)r;
            c->W = 0;
            c->vmax = 0;
            c->vmin = CS_INF;
            if (keys)
                c->k1 = c->k2 = 0;
        }
        c->n++;
        c->W += x;
        c->vmax = x > c->vmax ? x : c->vmax;
        c->vmin = x < c->vmin ? x : c->vmin;
        if (keys) {
            c->k1 += z1[S[k]];
            c->k2 += z2[S[k]];
        }
    }
    return nt;
}

/* ---- costs (cost_bounds.c) ------------------------------------------------------------------ */

/* A cost vector in exact integers, tabulated for depths 0..n-1, n > max(D + 1, K) (c(0) = 0 is
 * never asked). */
typedef struct {
    uint64_t *tab;
    int32_t n;
    int32_t K;
    uint64_t cK, tail;
} cs_costs;

static inline uint64_t cs_cost(const cs_costs *c, int64_t d)
{
    if (d < c->n)
        return c->tab[d];
    return c->cK + c->tail * (uint64_t)(d - c->K);
}

/* Tabulate costs for depths up to max(D + 1, K); 0, or JT_EINVAL (decreasing, K < 1) or JT_ENOMEM. */
int cs_costs_init(cs_costs *out, const jt_costs *in, int32_t D);

/* Targets found within k guesses of a subtree whose root may find one (`first`) or not: at
 * most N_k = 1 + B + ... + B^(k-1), or B N_(k-1) when the root's guess is outside the state.
 * cap(d) is how many are found at depth d at most: B^(d-1) (0 at d = 1 without `first`). */
uint64_t cs_slots(int32_t B, int first, int32_t d);

/* The counting bound of n targets of weight W (heaviest vmax, lightest vmin) found after t
 * guesses, for any non-decreasing c: exact for n <= 2; else the larger of the layer-cake bound
 * W c(t+1) + sum_k (c(t+k+1) - c(t+k)) (W - N_k vmax)+ (the weight not yet found after k more
 * guesses is at least W less the N_k heaviest) and vmin U(n) + (W - n vmin) c(t+1) (every
 * weight split into vmin, counted at the uniform bound U, and an excess that costs c(t+1) at
 * least). */
uint64_t cs_class_bound(const cs_costs *c, int32_t B, uint32_t n, uint64_t W, uint64_t vmax,
                        uint64_t vmin, int32_t t);

/* The counting bound with the weights known: w[0..n) sorted heaviest first, assigned to the
 * depths in order, cap(d) of them at depth t + d (rearrangement: the heaviest at the cheapest
 * depths is the least any tree can do). */
uint64_t cs_sorted_bound(const cs_costs *c, int32_t B, const uint64_t *w, uint32_t n,
                         int32_t t, int first);

/* The member bound of a small state (3 <= m <= CS_SMALL targets S, weights sv, total W) after
 * t guesses: the first guess is a member x, found at t+1, the others in the classes of their
 * replies to x, each at its counting bound; or (outside hard mode) a word outside S, which
 * finds nothing at t+1 (the sorted bound without `first`). */
uint64_t cs_member_bound(const jt_words *w, const cs_costs *c, int32_t B, int hard,
                         const int32_t *S, const uint64_t *sv, int32_t m, int32_t t);

/* ---- the memo (search_cost_memo.c) ------------------------------------------------------- */

/* A state after some guesses, identified by its two 64-bit Zobrist keys (sums of its members'
 * random keys: two different states share both with probability 2^-128) and its canonical
 * depth (search_cost.c); its exact value or a proven lower bound there. */
typedef struct {
    uint64_t k1, k2;
    uint64_t val;
    int32_t guess; /* exact: the first guess of a best tree; -1: val is a lower bound */
    int32_t d1;    /* canonical depth + 1; 0: an empty slot */
} cs_entry;

typedef struct {
    cs_entry *tab;
    uint64_t cap, n; /* slots (a power of two), used */
    size_t max_bytes;
} cs_memo;

void cs_memo_init(cs_memo *mm, size_t max_bytes);
void cs_memo_free(cs_memo *mm);
const cs_entry *cs_memo_find(const cs_memo *mm, uint64_t k1, uint64_t k2, int32_t dc);
/* Keep an exact value (guess >= 0) or a lower bound (guess -1; kept if it raises the one
 * known).  Once the memo would outgrow max_bytes (or memory runs out), new states are not
 * kept. */
void cs_memo_store(cs_memo *mm, uint64_t k1, uint64_t k2, int32_t dc, uint64_t val,
                  int32_t guess);

#endif
