/* search_outcome.h -- what one pass of either search found and why it ended: the mean's branch
 * and bound (jotto_search.h, jt_bs_run) and the cost search (search_cost.h, jt_cs_run) return
 * the same outcome, which _core's search.pxi turns into one Python tuple. */
#ifndef JOTTO_SEARCH_OUTCOME_H
#define JOTTO_SEARCH_OUTCOME_H

#include <stdint.h>

/* Why a pass ended. */
enum jt_stop {
    JT_STOP_DONE = 0,        /* the pass finished: its value is exact or a bound >= beta */
    JT_STOP_TIME = 1,        /* the deadline passed */
    JT_STOP_NODES = 2,       /* the node budget ran out */
    JT_STOP_INTERRUPTED = 3  /* the interrupt callback asked to stop */
};

typedef struct {
    uint64_t value;     /* the (restricted, if top_k) optimum if exact, else a proven lower bound */
    int exact;          /* value is the optimum (the pass finished below beta, or the root needed
                           no search) */
    int stopped;        /* enum jt_stop */
    uint64_t best;      /* the value of the best root tree this pass completed (UINT64_MAX, the
                           searches' JT_BS_INF and JT_CS_INF: none) */
    int32_t best_guess; /* its first guess (-1: none; one of the pass's first_guesses if given) */
    int64_t nodes;      /* states searched in this pass */
} jt_outcome;

#endif
