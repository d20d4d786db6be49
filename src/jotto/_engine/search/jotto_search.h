/* jotto_search.h -- the guesser's true best response: the decision tree that minimises the
 * expected number of guesses against a hider's integer weights, by depth-first branch and bound.
 *
 * The value of a state S (the targets still consistent, all of positive weight) is
 *   F(S) = W(S) + min_g sum_{j != win} F(S_j(g)),   F({i}) = v_i,
 * where W(S) is the weight of S, g ranges over the candidate guesses that narrow S down (every
 * word of the list, consistent or not; in hard mode only the members of S) and S_j(g) are the
 * targets giving reply j to g.  The win is identity: g itself is the only target giving the win
 * code, and it costs nothing further.  The expected number of guesses of the best tree is
 * F(all targets) / W(all targets).  In hard mode a state holds every word still consistent,
 * also those of weight 0 (they may be guessed), and F of a state of weight 0 is 0.
 *
 * Words, replies and rules are the list's (jotto_engine.h: a jt_words of jt_words_new_rules,
 * with its reply codes, its win code, its branching, and hard mode if JT_HARD): the search
 * numbers nothing of its own.
 *
 * Every number is an exact integer: the caller guarantees sum(v) * D < 2^63 (as jotto's integer
 * weights do), so no value or bound reaches 2^64 - 1, which stands for infinity.  Exact values
 * and trees never depend on timing or on the threads a pass runs on; what a pass proves before a
 * budget stops it does, when it runs on several threads. */
#ifndef JOTTO_SEARCH_H
#define JOTTO_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "common/jotto_engine.h"
#include "search/search_outcome.h"

#ifdef __cplusplus
extern "C" {
#endif

#define JT_BS_INF UINT64_MAX

typedef struct jt_bsearch jt_bsearch;

/* A search over the list words (borrowed: it must outlive the search; its rules say hard mode)
 * with weights v (D of them, >= 0, NULL: all 1; outside hard mode targets of weight 0 are left
 * out of the search and only placed in the tree).  The memo of exact values and proven lower
 * bounds per state lives as long as the search and takes at most memo_bytes (then it stops
 * growing).  Returns NULL on bad input (*status JT_EINVAL) or lack of memory (JT_ENOMEM). */
jt_bsearch *jt_bs_new(const jt_words *words, const int64_t *v, size_t memo_bytes, int *status);
/* Optional bounds of a search (jt_bs_set_bounds): they change how many states a proof takes,
 * never a value (benchmarks and tests switch them to compare; bench/bound_states.py). */
#define JT_BS_SUBSETS 1    /* F(S) >= F(S \ {t}) + v_t from the memo (not in hard mode, nor
                              while a certificate is written; search_bounds.c): off by
                              default, its 2-3% fewer states cost 10-15% more CPU */
#define JT_BS_WEIGHTED_FAMILIES 2 /* the family bound also for unequal weights (paper words,
                                     not hard mode, nor while a certificate is written;
                                     search_families.c) */
#define JT_BS_HARD_FAMILIES 4 /* the family bound also in hard mode (paper words, not while a
                                 certificate is written; search_families.c) */
#define JT_BS_ALL_BOUNDS 7
#define JT_BS_DEFAULT_BOUNDS (JT_BS_WEIGHTED_FAMILIES | JT_BS_HARD_FAMILIES)
void jt_bs_set_bounds(jt_bsearch *s, int32_t bounds);
/* States whose bound the subset bound raised, over the search's life. */
int64_t jt_bs_subset_raised(const jt_bsearch *s);

/* Reply codes of the search's list (jt_words_classes). */
int32_t jt_bs_classes(const jt_bsearch *s);
void jt_bs_free(jt_bsearch *s);

/* One pass of the search. */
typedef struct {
    int32_t top_k;      /* 0: every guess; K > 0: at every state only the first K guesses of
                           distinct splits in greedy order (an upper bound: restricted trees) */
    int32_t full_below; /* top-K passes: states of at most this many targets try every guess */
    uint64_t beta;      /* find the optimum if it is below beta, else prove it is >= beta */
    double seconds;     /* wall-clock budget of the pass (<= 0: none) */
    int64_t max_nodes;  /* node budget of the pass (<= 0: none) */
    int32_t by_size;    /* a word's classes share the gap to beta by size, not equally: proves
                           lower bounds with fewer states, finds optima with more */
    int (*interrupted)(void *ctx); /* polled now and then by the calling thread alone; nonzero
                                      stops the pass (may be NULL) */
    void *ctx;
    int32_t threads;    /* threads searching the pass together (<= 1: the calling thread alone;
                           OpenMP threads besides it, whose team it leads) */
    int32_t parallel_from; /* a pass over fewer targets (of positive weight) runs on one thread
                              (0: JT_BS_PARALLEL_FROM); below 16, the threads also share states
                              of as few targets (for tests on tiny lists) */
    /* Work units (a part of the search run apart, jotto.responses.work_units): a zeroed tail searches
     * every target of positive weight with any first guess. */
    const int32_t *targets; /* the state to search: ntargets increasing word indices, of any
                               weight (as at the top, only those of positive weight are searched
                               outside hard mode); NULL: every word */
    int32_t ntargets;
    const int32_t *first_guesses; /* not NULL: the state's first guess is one of these nfirst
                               words, and the value is that of the best tree starting with one
                               of them (JT_BS_INF if none narrows the state down); the state's
                               own memo entry is then neither read nor written, its classes'
                               are */
    int32_t nfirst;
} jt_bs_pass;

/* Below this many targets a pass does not pay for threads (2-letter lists: one thread). */
#define JT_BS_PARALLEL_FROM 128

int jt_bs_run(jt_bsearch *s, const jt_bs_pass *p, jt_outcome *out);

/* Free the memo of top-K passes (the next top-K pass starts afresh). */
void jt_bs_forget_top_k(jt_bsearch *s);

/* The lower bound the search starts from at the root: W + min_g sum_j (counting bound of S_j). */
uint64_t jt_bs_root_bound(jt_bsearch *s);

/* The lookahead bound of the state S (m >= 3 increasing indices of targets of positive weight):
 * W + min_g sum_j B(S_j), B the counting bound, or with paper words the family bound (where
 * it applies: search_families.c) if the memo knows nothing of S, else what the memo knows (see
 * search_bounds.c). */
uint64_t jt_bs_lookahead_bound(jt_bsearch *s, const int32_t *S, int32_t m);

/* Build the tree over all D targets that follows the memo of mode top_k (the mode of the last
 * pass with that top_k, and its full_below) with first guess root_guess (-1: the memo's); states the memo lacks are
 * solved again (exactly, no budget).  Targets of weight 0 follow the tree while positive targets
 * remain in their state, then the exact greedy rule with equal weights.  Returns the number of
 * nodes (negative status on failure) and the tree's total sum_i v_i guesses_i in *total. */
int32_t jt_bs_tree_build(jt_bsearch *s, int32_t top_k, int32_t root_guess, uint64_t *total);
/* The same for the state of the mt words T (increasing indices, of any weight): the tree that
 * finds each of them, first guess root_guess (-1: the memo's), its total F(T) in *total. */
int32_t jt_bs_tree_build_state(jt_bsearch *s, int32_t top_k, const int32_t *T, int32_t mt,
                               int32_t root_guess, uint64_t *total);
/* The tree last built, in jt_tree_export's layout (depth-first, children by increasing reply
 * code, jt_bs_classes of them per node). */
void jt_bs_tree_export(const jt_bsearch *s, int32_t *guess, int32_t *depth, int32_t *size,
                       int32_t *children);

/* Certificates (search_certificate.c, docs/certificates.md): from jt_bs_cert_open until
 * jt_bs_cert_close, every bound the full search proves and stores in its memo is appended to the
 * file at path as a record (the state's members and the bound), each after the records of the
 * states its proof relies on.  Open: JT_EINVAL if one is open or the file cannot be made.  Close:
 * *records gets the records written; JT_EINVAL if a write failed. */
int jt_bs_cert_open(jt_bsearch *s, const char *path);
int jt_bs_cert_close(jt_bsearch *s, int64_t *records);

/* Memo statistics: states stored, bytes used. */
void jt_bs_memo_stats(const jt_bsearch *s, int64_t *states, int64_t *bytes);

#ifdef __cplusplus
}
#endif
#endif
