/* search_cost.h -- best responses for objectives beyond the mean: the decision tree minimising
 *
 *     sum_i v_i c(depth_i)
 *
 * over every target i of positive weight v_i, where depth_i is the guess (1-based) on which the
 * tree finds i and c is a non-decreasing cost vector.  Expected guesses is c(d) = d; "found
 * within k guesses" is c(d) = [d > k]; a race's chance of losing is another such vector.
 *
 * Two ways to use it:
 *   - an exact branch and bound (search_cost.c, search_cost_memo.c, cost_bounds.c) with integer
 *     weights and costs, a memo of exact values and proven lower bounds per (state, depth), and
 *     passes limited by beta, time and nodes, each ending with a proven lower bound;
 *   - a fast heuristic decision for play (greedy_cost.c): one-step lookahead with a model of
 *     each class's cost, refined a level deeper for the best guesses while time remains.
 *
 * Words, replies and rules are the list's (jotto_engine.h: a jt_words list under any rule set,
 * its reply codes, hard mode or not, its branching); the win is the guess being the target.
 * Outside hard mode any word may be
 * guessed and targets of weight 0 are left out of the states (they cost nothing); in hard mode
 * only words still consistent may be, so states hold every consistent word, of weight 0 or not.
 * A guess must narrow the state down: a word outside it that leaves every target in one class
 * is never tried (it cannot shorten a game).  The counting bounds use the list's branching
 * (jt_words_branches): the most non-winning replies one guess can get.
 *
 * Costs.  c(d) = c[d-1] for d = 1..K, and c(d) = c[K-1] + tail (d - K) beyond: constant
 * (tail 0) or growing linearly.  A tree finds every target within D guesses, so only c(1..D)
 * matters (and c(D + 1), which bounds reach).  Exact sums: the caller guarantees
 * sum(v) * c(D + 1) < 2^63, so no value or bound reaches 2^64 - 1, which stands for infinity.
 */
#ifndef JOTTO_SEARCH_COST_H
#define JOTTO_SEARCH_COST_H

#include <stddef.h>
#include <stdint.h>

#include "common/jotto_engine.h"
#include "search/search_outcome.h"

#ifdef __cplusplus
extern "C" {
#endif

#define JT_CS_INF UINT64_MAX

/* A cost vector in exact integers (non-decreasing, tail >= 0). */
typedef struct {
    const uint64_t *c; /* c(1..K) */
    int32_t K;         /* >= 1 */
    uint64_t tail;
} jt_costs;

/* ---- the exact search --------------------------------------------------------------------- */

typedef struct jt_csearch jt_csearch;

/* A search over the list w (borrowed: it must outlive the search) with weights v (>= 0, D of
 * them) and costs (checked: non-decreasing, K >= 1; copied).  The memo takes at
 * most memo_bytes (then it stops growing; results without budgets do not change).  NULL on bad
 * input (*status JT_EINVAL) or lack of memory (JT_ENOMEM). */
jt_csearch *jt_cs_new(const jt_words *w, const int64_t *v, const jt_costs *costs,
                      size_t memo_bytes, int *status);
void jt_cs_free(jt_csearch *s);

typedef struct {
    uint64_t beta;      /* find the optimum if it is below beta, else prove it is >= beta */
    double seconds;     /* wall-clock budget (<= 0: none) */
    int64_t max_nodes;  /* node budget (<= 0: none) */
    int (*interrupted)(void *ctx); /* polled now and then; nonzero stops the pass (may be NULL) */
    void *ctx;
} jt_cs_pass;

/* One pass at state S after t guesses (as jt_cs_solve takes them), or at the root when S is
 * NULL: every target of positive weight (hard mode: every word), t = 0.  JT_EINVAL for a bad
 * state; JT_ENOMEM. */
int jt_cs_run(jt_csearch *s, const jt_cs_pass *p, const int32_t *S, int32_t m, int32_t t,
              jt_outcome *out);

/* The bound the search starts from at the root (no search): the counting bound. */
uint64_t jt_cs_root_bound(jt_csearch *s);

/* The exact value of state S (m >= 1 increasing word indices; outside hard mode of positive
 * weight) after t guesses (t + m <= D: every guess leaves fewer targets), and a first guess of
 * a best tree there: from the memo, or solved without budget.  JT_OK, JT_EINVAL, JT_ENOMEM. */
int jt_cs_solve(jt_csearch *s, const int32_t *S, int32_t m, int32_t t, uint64_t *value,
                int32_t *guess);

/* Memo statistics: states stored, bytes used. */
void jt_cs_memo_stats(const jt_csearch *s, int64_t *states, int64_t *bytes);

/* ---- the heuristic decision --------------------------------------------------------------- */

typedef struct {
    int32_t levels;     /* lookahead levels (>= 1): level 1 scores every guess by its classes'
                           modelled costs; each further level scores the best `width` guesses
                           of the level before by their classes' own best guesses */
    int32_t width;
    double seconds;     /* deadline of the levels beyond the first (<= 0: none) */
} jt_cg_params;

typedef struct {
    double score;       /* the chosen guess's score (modelled sum_i v_i c(depth_i)) */
    int complete;       /* every level finished before the deadline */
    int64_t pairs;      /* guess-target replies computed */
} jt_cg_info;

/* The guess for state S (m >= 1 increasing word indices, hard mode: every consistent word)
 * after t guesses, weights v (all D; a state whose words all weigh 0 is played as if they
 * weighed 1) and costs c(1..K) (double, non-decreasing) continued by tail.  Returns the word
 * index, or a negative status. */
int32_t jt_cg_decide(const jt_words *w, const int64_t *v,
                     const double *c, int32_t K, double tail, int32_t t, const int32_t *S,
                     int32_t m, const jt_cg_params *p, jt_cg_info *info);

#ifdef __cplusplus
}
#endif
#endif
