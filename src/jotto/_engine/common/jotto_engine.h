/* jotto_engine.h -- the public C interface of jotto's core.
 *
 * Words are 26-bit letter masks (bit k = letter 'a'+k); a reply is the popcount of the AND of two
 * masks (the paper's NumCommLetts).  Other rule sets (jotto.game.rules) give each word up to 64
 * tokens (letters, and k-th occurrences of letters) and, for positional replies, its spelling; a
 * reply is then a code 0..R-1 (see jt_words_new_rules), and the win is the guess being the target.
 * A decision tree answers, for a hider strategy, the greedy best response GuesserGBR (or one of
 * Norvig's partition guessers) at every state the guesser can reach; CompNumGuesses is read off
 * it as the depth at which each target is guessed.
 *
 * Weights.  Decisions are screened in exact integer arithmetic on weights v (uint64 sums never
 * overflow because the caller guarantees sum(v) * D < 2^63).  The paper rule then evaluates the
 * paper's floating-point formula literally, with the float weights h, for every candidate whose
 * exact value is within the proven rounding distance of the best; see paper_slack in
 * tree/decision_rules.c for the bound.
 */
#ifndef JOTTO_ENGINE_H
#define JOTTO_ENGINE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define JT_MAX_LEN 26
#define JT_MAX_WORDS 65535
/* Longest word with positional replies (one byte of the spelling per letter), and the most
 * reply codes any rule set has: (8 + 1)^2. */
#define JT_MAX_POS_LEN 8
#define JT_MAX_R 81

/* Rule flags of jt_words_new_rules: a list carries its rules, and every entry point that takes
 * it (trees, decisions, the searches) reads them from it. */
enum jt_word_flags {
    JT_KEEP_ALL = 1,   /* anagrams are all kept: L letters in common with another word is code L+1 */
    JT_POSITIONAL = 2, /* replies also count letters in place: code a + (L+1) b */
    JT_HARD = 4        /* hard mode: every guess is a word still consistent (trees and decisions
                          take the consistent candidates whatever jt_weights asks) */
};

/* How a node chooses its guess. */
enum jt_rule {
    JT_RULE_PAPER = 0,             /* GuesserGBR, the paper's IEEE-double arithmetic taken literally */
    JT_RULE_EXACT = 1,             /* GuesserGBR compared exactly; ties to words of S, then low index */
    JT_RULE_NORVIG_MAX = 2,        /* Norvig: minimise the largest branch */
    JT_RULE_NORVIG_EXPECTATION = 3,/* Norvig: minimise the expected branch size (his float formula) */
    JT_RULE_NORVIG_ENTROPY = 4     /* Norvig: maximise the entropy of the partition (his float formula) */
};

/* Which words a node may guess. */
enum jt_candidates {
    JT_CAND_ALL = 0,        /* every word of the list (GuesserGBR, Algorithm 1) */
    JT_CAND_CONSISTENT = 1, /* only the words still consistent */
    JT_CAND_NORVIG = 2      /* every word while more than 3 targets remain, else the consistent ones */
};

enum jt_status {
    JT_OK = 0,
    JT_ENOMEM = -1,
    JT_EINVAL = -2
};

typedef struct jt_words jt_words;
typedef struct jt_tree jt_tree;

/* The hider strategy a tree answers.  v: integer weights (NULL: all 1).  h: the float weights the
 * paper rule evaluates literally (NULL: every word 1.0/D, the paper's s_0).  For the paper rule the
 * caller states how far h may be from a common multiple of v:  h_i = s * (v_i + a_i) * (1 + r_i)
 * for some s > 0 with |a_i| <= err_abs and |r_i| <= err_rel. */
typedef struct {
    int rule;            /* enum jt_rule */
    int candidates;      /* enum jt_candidates */
    const int64_t *v;
    const double *h;
    double err_abs;
    double err_rel;
} jt_weights;

/* The exact rule's integer weights for float weights h (finite, >= 0): v_i = round(h_i 2^k) (ties
 * to even) with k the power of two that brings the largest h_i into [2^(B-1), 2^B),
 * B = 62 - ceil(2 log2 D), so that sum(v) * D < 2^63.  Decisions on v are exact; v equals h up to
 * a common factor whenever every h_i * 2^k is an integer.  Returns max |h_i 2^k - v_i| (<= 1/2),
 * or -1 if some h_i is negative, NaN or infinite. */
double jt_integer_weights(const double *h, int32_t D, int64_t *v);

/* Word lists. masks[i] must be distinct, each with exactly L bits set, L in 1..26, D in 1..65535. */
jt_words *jt_words_new(const uint32_t *masks, int32_t D, int32_t L);
/* Word lists under any rule set (jotto.game.rules.Rules.tokens/.spellings).  tokens[i]: the word's
 * token set, at most L bits; for two different words g, t the letters in common are
 * a = popcount(tokens[g] & tokens[t]).  spell (JT_POSITIONAL only, L <= 8): byte p of spell[i] is
 * letter p of word i as 1..26, so letters in place b = the zero bytes of spell[g] ^ spell[t] among
 * the low L.  The reply code of guess g to target t != g is a + (L+1) b under JT_POSITIONAL, else
 * a, or L+1 when a == L under JT_KEEP_ALL (an anagram that does not win).  The reply to t == g is
 * the win code, L + (L+1) L under JT_POSITIONAL, else L, whatever popcount(tokens[g]).
 * Rejected (NULL): two words with equal full token sets (L bits) unless JT_KEEP_ALL, equal
 * spellings, a spelling that is not L letters.  Distinct-letter words without those flags give
 * exactly jt_words_new's list. */
jt_words *jt_words_new_rules(const uint64_t *tokens, const uint64_t *spell, int32_t D, int32_t L,
                             int flags);
/* The number R of reply codes (children per tree node) and the win code of a list; its
 * branching: the most non-winning replies one guess can get from different targets (codes
 * 0..L-1, and the anagram's L+1 under JT_KEEP_ALL; under JT_POSITIONAL every (a, b),
 * 0 <= b <= a <= L, but the win (L, L) and (L, L-1), since all letters shared and all but one in
 * place puts the last one in place too), which the counting bounds use; its JT_* rule flags. */
int32_t jt_words_classes(const jt_words *w);
int32_t jt_words_win(const jt_words *w);
int32_t jt_words_branches(const jt_words *w);
int jt_words_flags(const jt_words *w);
void jt_words_free(jt_words *w);

/* Build the decision tree of a strategy over every target (threads <= 0: OpenMP's default). */
jt_tree *jt_tree_build(const jt_words *w, const jt_weights *wt, int threads, int *status);
/* Change the weights of a built tree (same rule, candidates and error bounds) and bring it to
 * exactly the tree jt_tree_build would give, re-deciding only nodes the change can affect. */
int jt_tree_update(jt_tree *t, const int64_t *v, const double *h, int threads);
void jt_tree_free(jt_tree *t);

/* Guesses needed for each target (CompNumGuesses), written to out[D]. */
void jt_tree_guess_counts(const jt_tree *t, int32_t *out);
/* Nodes in depth-first order (children by increasing reply code); node 0 is the root. */
int32_t jt_tree_node_count(const jt_tree *t);
/* guess[n], depth[n] (root 0), size[n] (|S|), children[n*R+j] (-1: no such reply; R =
 * jt_words_classes). */
void jt_tree_export(const jt_tree *t, int32_t *guess, int32_t *depth, int32_t *size,
                    int32_t *children);
/* Statistics of the last build or update: nodes decided, candidate evaluations. */
void jt_tree_stats(const jt_tree *t, int64_t *decided, int64_t *evaluated);

/* One decision: the word guessed at state S (indices, strictly increasing, m >= 1). */
int32_t jt_decide(const jt_words *w, const jt_weights *wt, const int32_t *S, int32_t m,
                  int *status);

/* Class sizes: out[j*nc + c] = #{i in S : reply(candidate c, i) = j}, j < R, for the m targets S
 * (word indices) and the nc candidates cand (word indices; NULL: every word, nc = D). */
int jt_class_sizes(const jt_words *w, const int32_t *S, int32_t m, const int32_t *cand,
                   int32_t nc, uint16_t *out);

/* Size thresholds of the evaluation methods (|S| for shared big nodes, |S| for subset tables,
 * negative: each kernel variant's measured rule, the default); for tests, which reach every
 * path on small word lists.  Not to be changed during a build. */
void jt_set_thresholds(int32_t shared, int32_t table);
/* Work (candidate-target pairs) below which builds and updates run on one thread whatever the
 * thread count (negative: the default, 2^22); for tests, which reach the parallel paths on small
 * word lists with 0. */
void jt_set_parallel_threshold(int64_t pairs);
/* The room a tree keeps for the subtrees of guesses its nodes made before (node records beyond
 * the tree's own at its first update; negative: the default, eight times those and 1024), and
 * the weight changes after which such a subtree is grown again rather than brought up to date
 * (negative: the default, 16 + D/64); for tests, which reach the paths that drop them.  Set
 * before a tree's first update. */
void jt_set_alternates(int64_t room, int64_t stale);

/* Build facts. */
int jt_openmp_enabled(void);
int jt_max_threads(void);
const char *jt_isa_name(void);
/* Force a kernel variant by name ("base", "v2", "v3", "v4" on x86-64, "base", "neon" on aarch64);
 * 0 on success, -1 if unavailable.  The environment variable JOTTO_KERNEL does the same at the
 * first use of the core. */
int jt_isa_select(const char *name);
/* Names of the variants this CPU can run, comma separated, best last. */
const char *jt_isa_available(void);

#ifdef __cplusplus
}
#endif
#endif
