/* search_internal.h -- what the files of the best-response search (jotto_search.h) share: the
 * search's state, the layouts of its memo and of its levels (the scratch of one depth), replies
 * inside the search, the counting bound, and the functions one file of the search gives another:
 *   search.c          the branch and bound and its passes;
 *   search_parallel.c the threads of a pass: their workers, which states and words are being
 *                     searched, the best trees found of the states they share;
 *   search_setup.c    making a search over a word list (jt_words) and freeing it;
 *   search_memo.c     the memo of exact values and proven bounds per state, shared by threads;
 *   search_split.c    the levels, and splitting a state by every word worth trying;
 *   search_bounds.c   the member, lookahead and subset bounds;
 *   search_families.c the family bound;
 *   search_tree.c     the tree a memo describes;
 *   search_certificate.c the record stream of a certificate: the bounds the memo stores. */
#ifndef JOTTO_SEARCH_INTERNAL_H
#define JOTTO_SEARCH_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "common/jotto_engine.h"
#include "common/popcnt_clones.h"
#include "common/jotto_reply.h"
#include "jotto_search.h"

/* Reply codes: (8 + 1)^2 with positional replies (L <= 8), else at most JT_MAX_LEN + 2. */
#define MAXR 81
#define INF JT_BS_INF

/* A set of reply codes (bit r: code r). */
typedef unsigned __int128 codeset;

/* Atomic access to what threads share (GCC/Clang builtins; plain loads and stores on x86-64). */
#define LOAD(p) __atomic_load_n(p, __ATOMIC_RELAXED)
#define LOAD_ACQ(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define STORE(p, x) __atomic_store_n(p, x, __ATOMIC_RELAXED)
#define STORE_REL(p, x) __atomic_store_n(p, x, __ATOMIC_RELEASE)
#define CAS(p, expected, x)                                                                     \
    __atomic_compare_exchange_n(p, expected, x, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)
/* A sequence lock's reader: its reads of the data before its second read of the sequence.
 * (ThreadSanitizer does not model fences; its builds, tests/c/tsan_search.c, check that every
 * access threads share is atomic, which they all are.) */
#ifdef __SANITIZE_THREAD__
#define SEQ_FENCE() ((void)0)
#else
#define SEQ_FENCE() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#endif

/* A memo slot (24 bytes: the memo is most of the search's memory).  The tag is 0 in an empty
 * slot, else the state's Zobrist key with its low 16 bits replaced by a sequence number that is
 * odd while a thread writes the slot: a reader copies the slot out and keeps the copy only if
 * the tag is the same afterwards (a sequence lock), a writer takes the slot by making the tag
 * odd, or leaves it alone if it is odd already (search_memo.c). */
typedef struct {
    uint64_t tag;
    uint64_t val;   /* exact value, or a proven lower bound */
    uint32_t off;   /* members (word indices) in the arena, encoded (see encode_members) */
    uint16_t m;     /* members */
    uint16_t guess; /* exact states: the first guess of the best tree; NOGUESS: a bound */
} entry;
#define NOGUESS 0xFFFFu

/* The slots of a memo; replaced by one twice as large as it fills. */
typedef struct table {
    uint64_t cap, n;     /* slots (a power of two), used */
    struct table *next;  /* the tables retired during a pass, which other threads may still be */
    uint64_t epoch;      /* reading: freed once every thread has seen this epoch (or the pass
                            has ended) */
    entry slot[];
} table;

/* Threads a pass may use. */
#define MAX_THREADS 256

typedef struct {
    table *tab;          /* NULL: empty */
    table *retired;
    int growing;         /* a thread is making the larger table */
    /* The arena: chunks of 2^chunk_bits bytes, never moved, each thread writing the members of
     * the states it stores into a chunk of its own (worker.at .. worker.end). */
    uint8_t **chunk;
    uint32_t nchunk, chunk_cap;
    int chunk_bits;
} memo;

typedef struct {
    uint64_t q, lb;
    int32_t c;
    int32_t out;  /* 1 if the word is not in S */
} cand;

/* The parts of a state's families in the classes of one word (search_families.c): class r
 * holds np[r] parts, part i the members of shared letters p[r][i] and own letters x[r][i],
 * covered[r] targets in all.  Paper words only, whose non-winning codes are 0..L-1. */
#define FAM_R (JT_MAX_LEN + 1)
#define FAM_PARTS 64
typedef struct {
    uint32_t p[FAM_R][FAM_PARTS], x[FAM_R][FAM_PARTS];
    int np[FAM_R], covered[FAM_R];
} fsplit;
/* Scratch of one depth of the recursion (every array sized for all D words). */
typedef struct {
    const int32_t *S;   /* the state's members (while the level is in use) */
    uint32_t *sm;       /* [D] masks of S (paper words) */
    uint64_t *lbits;    /* [27 * ceil(D/64)] paper words: per letter, the targets of S holding it,
                           a bit each, then a row of zeros (search_split.c, count_sizes_sliced) */
    uint64_t *st, *ssp; /* [D] tokens and spellings of S (other rules) */
    uint64_t *sv, *sz;  /* [D] weights and Zobrist keys of S */
    uint8_t *in_s;      /* [D] membership of S */
    uint8_t *prog;      /* [D] the word narrows S down */
    uint32_t *cnt;      /* [D*R] class sizes by word */
    uint64_t *cw;       /* [D*R] class weights */
    uint64_t *cmax;     /* [D*R] heaviest target of the class */
    uint64_t *cmin;     /* [D*R] lightest */
    uint64_t *lbc;      /* [D*R] class bounds */
    uint64_t *hz;       /* [D*R] class keys (listed words only) */
    uint64_t *lb, *q;   /* [D] */
    cand *list;         /* [D] */
    int32_t *cls;       /* [D] members of the classes being searched, class after class */
    int32_t *defer;     /* [D] words put off because another thread is searching them */
    uint64_t *dkey;     /* [2 * pow2 >= D] split keys of the words tried, for deduplication */
    int32_t *dval;
    int32_t dcap;
    int32_t *cid;       /* [D] one word per distinct letter set within S's letters */
    int32_t nc;
    uint64_t *pkey;     /* [dcap] those letter sets, hashed: stamp << 32 | letters */
    uint64_t *gtok, *gsp; /* [dcap] the same for token masks and spellings (other rules) */
    uint32_t *gstamp;   /* [dcap] gtok/gsp slot in use if equal to the level's stamp */
    uint32_t *dstamp;   /* [dcap] dkey/dval slot in use if equal to the level's stamp */
    uint32_t stamp;     /* bumped for every use of the two tables */
    unsigned __int128 *skey; /* [D] sort keys */
    cand *tmp;          /* [D] */
    /* the state's families (search_families.c) */
    uint32_t *fh_key;   /* [fh_cap] hash of sets of targets sharing L - 1 letters: the letters, */
    int32_t *fh_cnt, *fh_head; /* the set's size, the first link of its members */
    uint32_t *fh_stamp; /* slot in use if equal to fh_stamp_now */
    int32_t *fh_used;   /* [L*D] slots in use */
    int32_t fh_cap;
    uint32_t fh_stamp_now;
    int32_t *fl_member, *fl_next; /* [L*D] links: a member, the next link of its set */
    uint8_t *fam_taken; /* [D] member already in a family */
    uint32_t *fam_p, *fam_x; /* [D] a family's shared letters, its members' own letters */
    fsplit *fs;         /* the families' parts in the classes of the word tried */
} level;
/* phi_k(s) for families of at most PHI_S targets, k < PHI_K guesses (search_families.c). */
#define PHI_K 40
#define PHI_S 32

struct jt_bsearch {
    /* the word list and its rules, as jt_words carries them (copied for the inner loops) */
    const jt_words *words; /* borrowed: it outlives the search */
    int32_t D, L, R;
    int32_t win;        /* the win's code: the list's (jt_words_win), but R - 1 under keep-all
                           (see replies below) */
    int32_t branch;     /* non-winning replies a guess can get from different targets, at most
                           (jt_words_branches) */
    int gen;            /* 0: paper words (26-bit masks of L letters, the win is reply L); 1:
                           tokens; 2: tokens and spellings */
    int keep_all, positional, hard;
    int32_t bounds;     /* the optional bounds in use (JT_BS_SUBSETS...; jt_bs_set_bounds) */
    const uint32_t *mask; /* [D] the words' masks (gen 0: paper words) */
    const uint64_t *tok, *spell; /* [D] tokens, spellings (gen 2) */
    uint64_t *v;        /* [D] */
    uint64_t *z;        /* [D] Zobrist keys */
    int32_t *pos;       /* targets of positive weight, increasing */
    int32_t npos;
    uint64_t Wpos, keypos;
    uint64_t capN[64];  /* N_k = 1 + B + ... + B^(k-1) (B = branch), while below D */
    int ncap;
    uint64_t *cb;       /* [D+1] counting bound of n unit-weight targets */
    uint8_t phi[PHI_K][PHI_S + 1]; /* members of a family found within k guesses, at most, */
    uint8_t psi[PHI_K][PHI_S + 1]; /* and if the first guess finds none of them; */
    uint32_t alone[PHI_S + 1];     /* least total guesses of a family on its own */
    size_t memo_bytes, mem_used; /* the memo's limit, and what it takes (atomic) */
    memo memo[2];       /* [0] full search, [1] top-K search of top_k_memo, full_below_memo */
    int32_t top_k_memo, full_below_memo;
    struct worker *wk;  /* [nwk] one per thread a pass has used, made on first use */
    int nwk;
    /* the pass under way */
    int mode;           /* 0 full, 1 top-K */
    int32_t top_k;
    int32_t full_below; /* top-K mode: states of at most this many targets try every guess */
    int nthreads;       /* threads searching it (search_parallel.c) */
    uint64_t epoch;     /* atomic: tables of the memo replaced so far */
    int32_t share_min;  /* and the least targets of a state they share */
    double deadline;
    int64_t node_limit, nodes; /* nodes: states searched by all threads (atomic), counted
                                  while a node limit holds */
    int stop, error;    /* atomic: why the pass stops (enum jt_stop, or FINISHED), and the
                           error that stopped it */
    int by_size;        /* share a word's gap among its classes by their sizes */
    int (*interrupted)(void *);
    void *ctx;
    /* the state the pass searches (jt_bs_pass.targets; else every target of positive
     * weight), and the words its first guess may be (NULL: any; search.c) */
    const int32_t *top;
    int32_t ntop;
    uint64_t Wtop, keytop;
    const int32_t *first_guesses;
    int32_t nfirst;
    /* what threads searching the same states tell each other (search_parallel.c) */
    uint64_t *busy;     /* [BUSY_SLOTS] (state, word) pairs being searched, hashed; 0: none */
    uint64_t (*upper)[2]; /* [UPPER_SLOTS] a state's hash and the value of the best tree of it
                           that a thread has found */
    struct bs_cert *cert; /* the certificate's record stream, if open (search_certificate.c) */
    /* the tree last built */
    int32_t *tg, *td, *ts, *tc;
    int32_t tn, tcap;
};

/* A stop that is no budget's: another thread finished the pass. */
#define FINISHED 8

/* One thread of a pass: its levels (the scratch of each depth of its recursion), its count of
 * states, why it stopped, the best root tree it completed, its free bytes in each memo's arena.
 * Each on cache lines of its own: threads write theirs at every state. */
typedef struct __attribute__((aligned(128))) worker {
    level **lv;         /* [D + 2], made on first use */
    int id;             /* 0: the thread that called the pass (the only one polling
                           `interrupted`) */
    int stop;           /* the stop this thread has seen (0: none): from then on every value it
                           returns is a bound */
    int64_t nodes;
    uint64_t root_best;
    int32_t root_guess;
    uint64_t value;     /* its search's value at the root, its first guess, and whether the */
    int32_t guess;      /* search ended without seeing a stop */
    int done;
    uint64_t at[2], end[2]; /* free offsets in its chunk of memo[0], memo[1] */
    uint64_t seen;      /* atomic: the epoch when it last entered a state (UINT64_MAX: it is not
                           searching); it reads no memo table retired after that */
    int32_t *first_of;  /* [D] in a pass with first guesses: the first of them splitting the
                           top state as candidate c does, or -1 (search.c) */
    int64_t subset_raised; /* states whose bound the subset bound raised (search_bounds.c),
                              over the search's life */
} worker;

/* Thread w enters a state: it holds no memo table between two states. */
static inline void bs_quiescent(const jt_bsearch *s, worker *w)
{
    if (s->nthreads > 1)
        STORE_REL(&w->seen, LOAD_ACQ(&s->epoch));
}

/* ---- small helpers ------------------------------------------------------------------------- */

static inline int pc(uint32_t x) { return __builtin_popcount(x); }

static inline int pc64(uint64_t x) { return __builtin_popcountll(x); }

static inline uint64_t umin(uint64_t a, uint64_t b) { return a < b ? a : b; }

static inline uint64_t umax(uint64_t a, uint64_t b) { return a > b ? a : b; }

static inline uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

/* ---- replies ------------------------------------------------------------------------------- */

/* Reply codes are the word list's (jt_words_new_rules, the rules contract of rules.py), R of
 * them: paper words (gen 0) reply the popcount of their masks, L only to themselves; otherwise
 * the win is tested as identity, never counted.  One exception, for speed: under keep-all
 * without positional replies the search counts an anagram's L letters in common as the raw
 * popcount L and puts the win at R - 1 = L + 1 (the list's codes are the other way round), so
 * that the innermost loop (a popcount per word and target) needs no remapping, which cost 30%
 * of a proof's time on Eckler's lists; contract_code swaps them back for trees.  Loops over
 * the non-winning codes step with NONWIN_NEXT whatever the win's code.  Every function taking
 * `gen` is inlined with it constant, so each word kind gets its own loops and the paper's are
 * the same as before. */
#define HI1 0x8080808080808080ull

/* The code of a word (tokens ct, spelling cs) to a different target (tt, ts). */
static inline __attribute__((always_inline)) int code_of(const jt_bsearch *s, const int gen,
                                                         uint64_t ct, uint64_t cs, uint64_t tt,
                                                         uint64_t ts)
{
    const int a = pc64(ct & tt);
    if (gen < 2)
        return a;
    return a + (s->L + 1) * pc64(jt_same_letters(cs, ts, HI1 >> (64 - 8 * s->L)));
}

/* The code of word c to word t. */
static inline __attribute__((always_inline)) int reply_ix(const jt_bsearch *s, const int gen,
                                                          int32_t c, int32_t t)
{
    if (gen == 0)
        return pc(s->mask[c] & s->mask[t]);
    if (c == t)
        return s->win;
    return code_of(s, gen, s->tok[c], gen == 2 ? s->spell[c] : 0, s->tok[t],
                   gen == 2 ? s->spell[t] : 0);
}

/* The code of word c (mask cm, tokens ct, spelling cs) to member k of a level's state. */
#define REPLY_K(s, lv, gen, c, cm, ct, cs, k)                                                    \
    ((gen) == 0 ? pc((cm) & (lv)->sm[k])                                                       \
                : (lv)->S[k] == (c) ? (s)->win                                                 \
                                    : code_of(s, gen, ct, cs, (lv)->st[k],                     \
                                              (gen) == 2 ? (lv)->ssp[k] : 0))

/* A word's mask, tokens and spelling, for REPLY_K. */
#define WORD_OF(s, gen, c)                                                                      \
    const uint32_t cm = (gen) == 0 ? (s)->mask[c] : 0;                                          \
    const uint64_t ct = (gen) == 0 ? 0 : (s)->tok[c];                                           \
    const uint64_t cs = (gen) == 2 ? (s)->spell[c] : 0;                                         \
    (void)cm; (void)ct; (void)cs

/* Call body(..., L) with the word length L a constant where it is 3, 4 or 5 (paper words' loops
 * over letters and replies unroll), else as it is. */
#define BY_LENGTH(L, body, ...)                                                                 \
    do {                                                                                        \
        if ((L) == 3)                                                                           \
            body(__VA_ARGS__, 3);                                                               \
        else if ((L) == 4)                                                                      \
            body(__VA_ARGS__, 4);                                                               \
        else if ((L) == 5)                                                                      \
            body(__VA_ARGS__, 5);                                                               \
        else                                                                                    \
            body(__VA_ARGS__, (L));                                                             \
    } while (0)

/* Call body(..., gen) with gen constant. */
#define BY_GEN(s, body, ...)                                                                    \
    do {                                                                                        \
        if ((s)->gen == 0)                                                                      \
            body(__VA_ARGS__, 0);                                                               \
        else if ((s)->gen == 1)                                                                 \
            body(__VA_ARGS__, 1);                                                               \
        else                                                                                    \
            body(__VA_ARGS__, 2);                                                               \
    } while (0)

/* The non-winning code after r, the win being V: for (r = 0; r < R; r = NONWIN_NEXT(V, r)). */
#define NONWIN_NEXT(V, r) ((r) + 1 + ((r) + 1 == (V)))

/* The list's code (jt_words_new_rules) of a code inside the search (see replies above). */
static inline int contract_code(const jt_bsearch *s, int r)
{
    if (s->keep_all && !s->positional && r >= s->L)
        return r == s->L ? s->L + 1 : s->L;
    return r;
}

/* ---- the counting bound -------------------------------------------------------------------- */

/* A lower bound on F of n targets of total weight W, heaviest vmax, lightest vmin: at most N_k
 * of them are guessed within k guesses, so F >= sum_k (W - weight of the N_k heaviest), which is
 * at least sum_k (W - N_k vmax) and at least vmin CB(n) + (W - n vmin) (split every weight into
 * vmin and the rest, which counts at least once).  Exact for n <= 2. */
static inline uint64_t count_bound(const jt_bsearch *s, uint32_t n, uint64_t W, uint64_t vmax,
                            uint64_t vmin)
{
    if (n <= 1)
        return n ? W : 0;
    if (n == 2)
        return 2 * W - vmax;
    if (vmax == vmin)
        return vmin * s->cb[n];
    uint64_t b1 = 0;
    for (int k = 0; k < s->ncap && s->capN[k] < n; k++) {
        const uint64_t top = s->capN[k] * vmax;
        if (top >= W)
            break;
        b1 += W - top;
    }
    const uint64_t b2 = vmin * s->cb[n] + (W - (uint64_t)n * vmin);
    return umax(b1, b2);
}

/* Classes up to this size get the member bound. */
#define SMALL 12

/* ---- what the files give each other ---------------------------------------------------------- */

/* search.c */
int bs_out_of_budget(jt_bsearch *s, worker *w);
void bs_fail(jt_bsearch *s, worker *w, int error);
uint64_t bs_search(jt_bsearch *s, worker *w, int32_t depth, const int32_t *S, int32_t m,
                   uint64_t key, uint64_t W, uint64_t beta, int32_t *guess_out);
void bs_set_mode(jt_bsearch *s, int32_t top_k, int32_t full_below);

/* search_parallel.c */
/* States of fewer targets are not shared among threads (fewer if the pass's parallel_from is). */
#define SHARE_MIN 16
int bs_workers(jt_bsearch *s, int n);
void bs_workers_free(jt_bsearch *s);
int bs_shared_tables(jt_bsearch *s);
int bs_busy_claim(jt_bsearch *s, uint64_t key, int32_t m, int32_t c);
int bs_busy_elsewhere(const jt_bsearch *s, uint64_t key, int32_t m, int32_t c);
void bs_busy_release(jt_bsearch *s, uint64_t key, int32_t m, int32_t c);
uint64_t bs_upper_get(const jt_bsearch *s, uint64_t key, int32_t m);
void bs_upper_put(jt_bsearch *s, uint64_t key, int32_t m, uint64_t val);
void bs_run_threads(jt_bsearch *s, uint64_t beta, int threads);

/* search_memo.c */
size_t bs_memo_bytes_used(const jt_bsearch *s);
void bs_memo_clear(jt_bsearch *s, memo *mm);
void bs_memo_retire_end(jt_bsearch *s);
int bs_memo_get(const jt_bsearch *s, const memo *mm, uint64_t key, int32_t m, const int32_t *S,
                uint64_t *val, int32_t *guess);
int bs_memo_get_class(const jt_bsearch *s, const memo *mm, uint64_t key, int32_t m, int32_t c,
                      int j, const uint8_t *in_s, uint64_t *val);
int bs_memo_get_minus(const memo *mm, uint64_t key, int32_t m, const int32_t *S, int32_t skip,
                      uint64_t *val);
void bs_memo_prefetch(const memo *mm, uint64_t key);
int bs_rehash(jt_bsearch *s, memo *mm, int32_t max_m);
void bs_memo_store(jt_bsearch *s, worker *w, uint64_t key, int32_t m, const int32_t *S,
                   uint64_t val, int exact, int32_t guess);

/* search_certificate.c */
void bs_cert_record(jt_bsearch *s, const int32_t *S, int32_t m, uint64_t val);

/* search_split.c */
void bs_level_free(level *lv);
level *bs_enter_level(jt_bsearch *s, worker *w, int32_t depth, const int32_t *S, int32_t m);
void bs_clear_members(level *lv, const int32_t *S, int32_t m);
int bs_split_state(const jt_bsearch *s, const worker *w, int32_t depth, level *lv, int32_t m,
                   uint64_t W);
void bs_sort_list(level *lv, int32_t nl);
int32_t bs_dedupe(const jt_bsearch *s, level *lv, int32_t m, int32_t n, int32_t keep,
                  int uniform);
void bs_list_classes(const jt_bsearch *s, level *lv, int32_t m, int32_t c, int32_t *fill);
int32_t bs_candidate_like(const jt_bsearch *s, const level *lv, int32_t m, int32_t g);

/* search_families.c */
void bs_family_tables(jt_bsearch *s);
int32_t bs_families(level *lv, int32_t m);
int bs_families_apply(const jt_bsearch *s, int uniform);
uint64_t bs_family_word_bounds(const jt_bsearch *s, level *lv, int32_t nf, int32_t c,
                               int uniform, uint64_t *fb);
uint64_t bs_family_member_bound(const jt_bsearch *s, const fsplit *fs, int r,
                                const uint32_t *tm, int n, uint64_t W, uint64_t vmax,
                                uint64_t vmin);
/* search_bounds.c */
uint64_t bs_member_bounds(const jt_bsearch *s, level *lv, int32_t m, int32_t c, int uniform,
                          codeset which, int families);
uint64_t bs_lookahead_bound(jt_bsearch *s, worker *w, int32_t depth, const int32_t *S,
                            int32_t m, uint64_t key, uint64_t W);
uint64_t bs_subset_bound(const jt_bsearch *s, worker *w, const memo *mm, const int32_t *S,
                         int32_t m, uint64_t key, uint64_t known);

#endif
