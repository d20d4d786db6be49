/* jotto_search.h -- the guesser's true best response: the decision tree that minimises the
 * expected number of guesses against a hider's integer weights, by depth-first branch and bound.
 *
 * The value of a state S (the targets still consistent, all of positive weight) is
 *   F(S) = W(S) + min_g sum_{j < L} F(S_j(g)),   F({i}) = v_i,
 * where W(S) is the weight of S, g ranges over every word of the list (consistent or not) that
 * narrows S down, and S_j(g) are the targets giving reply j to g (reply L wins: no further cost).
 * The expected number of guesses of the best tree is F(all targets) / W(all targets).
 *
 * Every number is an exact integer: the caller guarantees sum(v) * D < 2^63 (as jotto's integer
 * weights do), so no value or bound reaches 2^64 - 1, which stands for infinity.  Results never depend on timing unless a budget stops a pass. */
#ifndef JOTTO_SEARCH_H
#define JOTTO_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define JT_BS_INF UINT64_MAX

typedef struct jt_bsearch jt_bsearch;

/* Why a pass ended. */
enum jt_bs_stop {
    JT_BS_DONE = 0,        /* the pass finished: its value is exact or a bound >= beta */
    JT_BS_TIME = 1,        /* the deadline passed */
    JT_BS_NODES = 2,       /* the node budget ran out */
    JT_BS_INTERRUPTED = 3  /* the interrupt callback asked to stop */
};

/* A search over D distinct masks of L letters (checked) with weights v (>= 0; targets of weight 0 are left
 * out of the search and only placed in the tree).  The memo of exact values and proven lower
 * bounds per state lives as long as the search and takes at most memo_bytes (then it stops
 * growing).  Returns NULL on bad input (*status JT_EINVAL) or lack of memory (JT_ENOMEM). */
jt_bsearch *jt_bs_new(const uint32_t *masks, int32_t D, int32_t L, const int64_t *v,
                      size_t memo_bytes, int *status);
void jt_bs_free(jt_bsearch *s);

/* One pass of the search. */
typedef struct {
    int32_t top_k;      /* 0: every guess; K > 0: at every state only the first K guesses of
                           distinct splits in greedy order (an upper bound: restricted trees) */
    uint64_t beta;      /* find the optimum if it is below beta, else prove it is >= beta */
    double seconds;     /* wall-clock budget of the pass (<= 0: none) */
    int64_t max_nodes;  /* node budget of the pass (<= 0: none) */
    int32_t by_size;    /* a word's classes share the gap to beta by size, not equally: proves
                           lower bounds with fewer states, finds optima with more */
    int (*interrupted)(void *ctx); /* polled now and then; nonzero stops the pass (may be NULL) */
    void *ctx;
} jt_bs_pass;

typedef struct {
    uint64_t value;     /* the (restricted, if top_k) optimum if exact, else a proven lower bound */
    int exact;          /* value is the optimum (it was below beta and the pass finished) */
    int stopped;        /* enum jt_bs_stop */
    uint64_t best;      /* the value of the best root tree this pass completed (JT_BS_INF: none) */
    int32_t best_guess; /* its first guess (-1: none) */
    int64_t nodes;      /* states searched in this pass */
} jt_bs_outcome;

int jt_bs_run(jt_bsearch *s, const jt_bs_pass *p, jt_bs_outcome *out);

/* Free the memo of top-K passes (the next top-K pass starts afresh). */
void jt_bs_forget_top_k(jt_bsearch *s);

/* The lower bound the search starts from at the root: W + min_g sum_j (counting bound of S_j). */
uint64_t jt_bs_root_bound(jt_bsearch *s);

/* Build the tree over all D targets that follows the memo of mode top_k (the mode of the last
 * pass with that top_k) with first guess root_guess (-1: the memo's); states the memo lacks are
 * solved again (exactly, no budget).  Targets of weight 0 follow the tree while positive targets
 * remain in their state, then the exact greedy rule with equal weights.  Returns the number of
 * nodes (negative status on failure) and the tree's total sum_i v_i guesses_i in *total. */
int32_t jt_bs_tree_build(jt_bsearch *s, int32_t top_k, int32_t root_guess, uint64_t *total);
/* The tree last built, in jt_tree_export's layout (depth-first, children by increasing reply). */
void jt_bs_tree_export(const jt_bsearch *s, int32_t *guess, int32_t *depth, int32_t *size,
                       int32_t *children);

/* Memo statistics: states stored, bytes used. */
void jt_bs_memo_stats(const jt_bsearch *s, int64_t *states, int64_t *bytes);

#ifdef __cplusplus
}
#endif
#endif
