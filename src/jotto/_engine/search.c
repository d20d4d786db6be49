/* search.c -- the guesser's true best response by depth-first branch and bound (jotto_search.h).
 *
 * search(S, beta) returns F(S) exactly if F(S) < beta, else a proven lower bound >= beta.  At a
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
 *    best split the class admits, each part at its counting bound, cached in the memo.
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
 * The search is sequential, so its values, trees and node counts never depend on threads. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jotto_engine.h"
#include "jotto_reply.h"
#include "jotto_search.h"

/* Reply codes: (8 + 1)^2 with positional replies (L <= 8), else at most JT_MAX_LEN + 2. */
#define MAXR 81
#define INF JT_BS_INF

/* A set of reply codes (bit r: code r). */
typedef unsigned __int128 codeset;

/* A memo slot (24 bytes: the memo is most of the search's memory). */
typedef struct {
    uint64_t key;   /* Zobrist key of the state */
    uint64_t val;   /* exact value, or a proven lower bound */
    uint32_t off;   /* members (word indices) in the arena, encoded (see encode_members) */
    uint16_t m;     /* members; 0 marks an empty slot */
    uint16_t guess; /* exact states: the first guess of the best tree; NOGUESS: a bound */
} entry;
#define NOGUESS 0xFFFFu

typedef struct {
    entry *tab;
    uint64_t cap, n;  /* slots (a power of two), used */
    uint8_t *arena;
    uint64_t alen, acap; /* bytes */
} memo;

typedef struct {
    uint64_t q, lb;
    int32_t c;
    int32_t out;  /* 1 if the word is not in S */
} cand;

/* Scratch of one depth of the recursion (every array sized for all D words). */
typedef struct {
    const int32_t *S;   /* the state's members (while the level is in use) */
    uint32_t *sm;       /* [D] masks of S (paper words) */
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
} level;

struct jt_bsearch {
    int32_t D, L, R;
    int32_t win;        /* the win's code inside the search: R - 1 (see reply codes below) */
    int32_t branch;     /* non-winning replies a guess can get from different targets, at most */
    int gen;            /* 0: paper words (26-bit masks of L letters, the win is reply L); 1:
                           tokens; 2: tokens and spellings */
    int keep_all, positional, hard;
    uint32_t *mask;     /* [D] paper words (gen 0) */
    uint64_t *tok, *spell; /* [D] tokens, spellings (gen 2) */
    uint64_t *v;        /* [D] */
    uint64_t *z;        /* [D] Zobrist keys */
    int32_t *pos;       /* targets of positive weight, increasing */
    int32_t npos;
    uint64_t Wpos, keypos;
    uint64_t capN[64];  /* N_k = 1 + B + ... + B^(k-1) (B = branch), while below D */
    int ncap;
    uint64_t *cb;       /* [D+1] counting bound of n unit-weight targets */
    size_t memo_bytes;
    memo memo[2];       /* [0] full search, [1] top-K search of top_k_memo, full_below_memo */
    int32_t top_k_memo, full_below_memo;
    level **lv;         /* [D+2], made on first use */
    /* the pass under way */
    int mode;           /* 0 full, 1 top-K */
    int32_t top_k;
    int32_t full_below; /* top-K mode: states of at most this many targets try every guess */
    double deadline;
    int64_t node_limit, nodes;
    int stop, error;
    int by_size;        /* share a word's gap among its classes by their sizes */
    int (*interrupted)(void *);
    void *ctx;
    uint64_t root_best;
    int32_t root_guess;
    /* the tree last built */
    int32_t *tg, *td, *ts, *tc;
    int32_t tn, tcap;
};

/* ---- small helpers ------------------------------------------------------------------------- */

/* The functions that compute replies in loops (the split of a state by every word, class
 * weights and keys, member bounds, memo look-ups of classes) are cloned for CPUs with the popcnt
 * instruction: the build targets plain x86-64, where __builtin_popcount is a library call that
 * took a sixth of a best response's time.  The loader picks the clone once (an ifunc); always
 * inlined helpers are compiled into each clone.  ifuncs need glibc (musl has none), hence the
 * __GLIBC__ test (features.h defines it, through the headers above). */
#if defined(__x86_64__) && defined(__ELF__) && defined(__GLIBC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#endif
#endif
#ifndef POPCNT_CLONES
#define POPCNT_CLONES
#endif

static inline int pc(uint32_t x) { return __builtin_popcount(x); }

static inline int pc64(uint64_t x) { return __builtin_popcountll(x); }

static inline uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? INF : a + b; }

static inline uint64_t umin(uint64_t a, uint64_t b) { return a < b ? a : b; }

static inline uint64_t umax(uint64_t a, uint64_t b) { return a > b ? a : b; }

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- replies ------------------------------------------------------------------------------- */

/* Reply codes inside the search are the contract's (rules.py) with one change that puts the win
 * last, code R - 1, so that the non-winning codes are 0..R-2 under every rule set: under
 * keep-all without positional replies an anagram gets L and the win L + 1 (the contract's L + 1
 * and L; contract_code swaps them back for trees).  Paper words (gen 0) reply the popcount of
 * their masks, L only to themselves; otherwise the win is tested as identity, never counted.
 * Every function taking `gen` is inlined with it constant, so each word kind gets its own loops
 * and the paper's are the same as before. */
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

/* The contract's code (rules.py) of a code inside the search. */
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
static uint64_t count_bound(const jt_bsearch *s, uint32_t n, uint64_t W, uint64_t vmax,
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

/* ---- the memo ------------------------------------------------------------------------------ */

static size_t memo_bytes_used(const jt_bsearch *s)
{
    size_t b = 0;
    for (int i = 0; i < 2; i++)
        b += s->memo[i].cap * sizeof(entry) + s->memo[i].acap;
    return b;
}

static void memo_clear(memo *mm)
{
    free(mm->tab);
    free(mm->arena);
    memset(mm, 0, sizeof *mm);
}

/* A state's members are stored in the arena as bytes, each the step from the previous member
 * (from -1 for the first) if it is 1..254, else 255 and the member's index in two bytes: states
 * list their members in increasing order, mostly close together, so most members take one byte
 * instead of two, and the memo holds more states in the same memory. */
#define FAR 255

/* Bytes the members S[0..m) take encoded. */
static uint64_t encoded_size(const int32_t *S, int32_t m)
{
    uint64_t n = 0;
    int32_t prev = -1;
    for (int32_t k = 0; k < m; prev = S[k++])
        n += S[k] > prev && S[k] - prev < FAR ? 1 : 3;
    return n;
}

static void encode_members(uint8_t *a, const int32_t *S, int32_t m)
{
    int32_t prev = -1;
    for (int32_t k = 0; k < m; prev = S[k++]) {
        if (S[k] > prev && S[k] - prev < FAR) {
            *a++ = (uint8_t)(S[k] - prev);
        } else {
            *a++ = FAR;
            *a++ = (uint8_t)S[k];
            *a++ = (uint8_t)(S[k] >> 8);
        }
    }
}

/* The next member of an encoded list (after prev; *a moves past it). */
static inline int32_t next_member(const uint8_t **a, int32_t prev)
{
    const uint8_t *p = *a;
    if (p[0] != FAR) {
        *a = p + 1;
        return prev + p[0];
    }
    *a = p + 3;
    return (int32_t)p[1] | (int32_t)p[2] << 8;
}

/* Bytes the m encoded members at a take. */
static uint64_t stored_size(const uint8_t *a, int32_t m)
{
    const uint8_t *p = a;
    for (int32_t k = 0, x = -1; k < m; k++)
        x = next_member(&p, x);
    return (uint64_t)(p - a);
}

static entry *slot_of(const memo *mm, uint64_t key, int32_t m, const int32_t *S)
{
    if (!mm->cap)
        return NULL;
    for (uint64_t h = key & (mm->cap - 1);; h = (h + 1) & (mm->cap - 1)) {
        entry *e = &mm->tab[h];
        if (!e->m)
            return e;
        if (e->key == key && e->m == m) {
            const uint8_t *a = mm->arena + e->off;
            int32_t k = 0, x = -1;
            while (k < m && (x = next_member(&a, x)) == S[k])
                k++;
            if (k == m)
                return e;
        }
    }
}

static entry *memo_find(const memo *mm, uint64_t key, int32_t m, const int32_t *S)
{
    entry *e = slot_of(mm, key, m, S);
    return e && e->m ? e : NULL;
}

/* The entry of class j of word c over the state whose members are flagged in in_s: a stored
 * state of the class's size and key is the class if all its members are in S and give reply j
 * (then it is a subset of the same size). */
static inline __attribute__((always_inline)) const entry *
memo_find_class_body(const jt_bsearch *s, const memo *mm, uint64_t key, int32_t m, int32_t c,
                     int j, const uint8_t *in_s, const entry **out, const int gen)
{
    *out = NULL;
    if (!mm->cap)
        return NULL;
    for (uint64_t h = key & (mm->cap - 1);; h = (h + 1) & (mm->cap - 1)) {
        const entry *e = &mm->tab[h];
        if (!e->m)
            return NULL;
        if (e->key == key && e->m == m) {
            const uint8_t *a = mm->arena + e->off;
            int32_t k = 0, x = -1;
            while (k < m && (x = next_member(&a, x), in_s[x]) && reply_ix(s, gen, c, x) == j)
                k++;
            if (k == m)
                return *out = e;
        }
    }
}

POPCNT_CLONES
static const entry *memo_find_class(const jt_bsearch *s, const memo *mm, uint64_t key,
                                    int32_t m, int32_t c, int j, const uint8_t *in_s)
{
    const entry *e;
    BY_GEN(s, memo_find_class_body, s, mm, key, m, c, j, in_s, &e);
    return e;
}

/* Move the memo's entries of states of at most max_m members into a new table of ncap slots
 * (their members stay where they are in the arena).  Returns 0 if memory ran out. */
static int rehash(memo *mm, uint64_t ncap, int32_t max_m)
{
    entry *tab = calloc(ncap, sizeof(entry));
    if (!tab)
        return 0;
    mm->n = 0;
    for (uint64_t i = 0; i < mm->cap; i++) {
        const entry *e = &mm->tab[i];
        if (!e->m || e->m > max_m)
            continue;
        uint64_t h = e->key & (ncap - 1);
        while (tab[h].m)
            h = (h + 1) & (ncap - 1);
        tab[h] = *e;
        mm->n++;
    }
    free(mm->tab);
    mm->tab = tab;
    mm->cap = ncap;
    return 1;
}

static int memo_grow(jt_bsearch *s, memo *mm)
{
    const uint64_t ncap = mm->cap ? 2 * mm->cap : 1024;
    if (memo_bytes_used(s) + ncap * sizeof(entry) > s->memo_bytes)
        return 0;
    return rehash(mm, ncap, UINT16_MAX);
}

/* The memo is full: overwrite a bound (never an exact value) among the first slots of the key's
 * probe sequence, the one of fewest members that still has room for S's (the cheapest state to
 * find again).  Slots stay occupied, so no other key's probe sequence is broken. */
static void memo_replace(memo *mm, uint64_t key, int32_t m, const int32_t *S, uint64_t val,
                         int exact, int32_t guess)
{
    entry *victim = NULL;
    const uint64_t need = encoded_size(S, m);
    uint64_t h = key & (mm->cap - 1);
    for (int i = 0; i < 8; i++, h = (h + 1) & (mm->cap - 1)) {
        entry *e = &mm->tab[h];
        if (!e->m)
            break;
        if (e->guess == NOGUESS && (!victim || e->m < victim->m) &&
            stored_size(mm->arena + e->off, e->m) >= need)
            victim = e;
    }
    if (!victim)
        return;
    encode_members(mm->arena + victim->off, S, m);
    victim->key = key;
    victim->m = (uint16_t)m;
    victim->val = val;
    victim->guess = exact ? (uint16_t)guess : NOGUESS;
}

/* Record F(S) = val (exact) or F(S) >= val; once the memo is full, in place of another bound. */
static void memo_store(jt_bsearch *s, uint64_t key, int32_t m, const int32_t *S, uint64_t val,
                       int exact, int32_t guess)
{
    memo *mm = &s->memo[s->mode];
    entry *e = slot_of(mm, key, m, S);
    if (e && e->m) {
        if (e->guess != NOGUESS)
            return;
        if (exact || val > e->val) {
            e->val = val;
            e->guess = exact ? (uint16_t)guess : NOGUESS;
        }
        return;
    }
    if ((mm->n + 1) * 4 > mm->cap * 3) {
        if (!memo_grow(s, mm) && (mm->n + 1) * 10 > mm->cap * 9) {
            if (mm->cap)
                memo_replace(mm, key, m, S, val, exact, guess);
            return;
        }
        e = slot_of(mm, key, m, S);
    }
    const uint64_t size = encoded_size(S, m);
    if (mm->alen + size > UINT32_MAX) {
        memo_replace(mm, key, m, S, val, exact, guess);
        return;
    }
    if (mm->alen + size > mm->acap) {
        /* Double the arena, or take what the memory cap leaves. */
        const size_t used = memo_bytes_used(s);
        const uint64_t room = used < s->memo_bytes ? s->memo_bytes - used : 0;
        uint64_t grow = mm->acap ? mm->acap : 131072;
        grow = grow < room ? grow : room;
        uint8_t *a = grow >= size ? realloc(mm->arena, mm->acap + grow) : NULL;
        if (!a) {
            memo_replace(mm, key, m, S, val, exact, guess);
            return;
        }
        mm->arena = a;
        mm->acap += grow;
    }
    encode_members(mm->arena + mm->alen, S, m);
    e->key = key;
    e->m = (uint16_t)m;
    e->off = (uint32_t)mm->alen;
    e->val = val;
    e->guess = exact ? (uint16_t)guess : NOGUESS;
    mm->alen += size;
    mm->n++;
}

/* ---- levels -------------------------------------------------------------------------------- */

static void level_free(level *lv)
{
    if (!lv)
        return;
    free(lv->sm);
    free(lv->st);
    free(lv->ssp);
    free(lv->sv);
    free(lv->sz);
    free(lv->in_s);
    free(lv->prog);
    free(lv->cnt);
    free(lv->cw);
    free(lv->cmax);
    free(lv->cmin);
    free(lv->lbc);
    free(lv->hz);
    free(lv->lb);
    free(lv->q);
    free(lv->list);
    free(lv->cls);
    free(lv->dkey);
    free(lv->dval);
    free(lv->cid);
    free(lv->pkey);
    free(lv->gtok);
    free(lv->gsp);
    free(lv->gstamp);
    free(lv->dstamp);
    free(lv->skey);
    free(lv->tmp);
    free(lv);
}

static level *get_level(jt_bsearch *s, int32_t depth)
{
    if (s->lv[depth])
        return s->lv[depth];
    const size_t D = (size_t)s->D, DR = D * (size_t)s->R;
    level *lv = calloc(1, sizeof(level));
    if (!lv)
        return NULL;
    int32_t dcap = 16;
    while (dcap < 2 * s->D)
        dcap *= 2;
    lv->dcap = dcap;
    lv->sm = malloc(D * sizeof(uint32_t));
    lv->st = malloc(D * sizeof(uint64_t));
    lv->ssp = malloc(D * sizeof(uint64_t));
    lv->sv = malloc(D * sizeof(uint64_t));
    lv->sz = malloc(D * sizeof(uint64_t));
    lv->in_s = calloc(D, 1);
    lv->prog = malloc(D);
    lv->cnt = malloc(DR * sizeof(uint32_t));
    lv->cw = malloc(DR * sizeof(uint64_t));
    lv->cmax = malloc(DR * sizeof(uint64_t));
    lv->cmin = malloc(DR * sizeof(uint64_t));
    lv->lbc = malloc(DR * sizeof(uint64_t));
    lv->hz = malloc(DR * sizeof(uint64_t));
    lv->lb = malloc(D * sizeof(uint64_t));
    lv->q = malloc(D * sizeof(uint64_t));
    lv->list = malloc(D * sizeof(cand));
    lv->cls = malloc(D * sizeof(int32_t));
    lv->dkey = malloc((size_t)dcap * sizeof(uint64_t));
    lv->dval = malloc((size_t)dcap * sizeof(int32_t));
    lv->cid = malloc(D * sizeof(int32_t));
    lv->pkey = calloc((size_t)dcap, sizeof(uint64_t));
    lv->gtok = malloc((size_t)dcap * sizeof(uint64_t));
    lv->gsp = malloc((size_t)dcap * sizeof(uint64_t));
    lv->gstamp = calloc((size_t)dcap, sizeof(uint32_t));
    lv->dstamp = calloc((size_t)dcap, sizeof(uint32_t));
    lv->skey = malloc(D * sizeof(unsigned __int128));
    lv->tmp = malloc(D * sizeof(cand));
    if (!lv->sm || !lv->sv || !lv->sz || !lv->in_s || !lv->prog || !lv->cnt || !lv->cw ||
        !lv->cmax || !lv->cmin || !lv->lbc || !lv->hz || !lv->lb || !lv->q || !lv->list ||
        !lv->cls || !lv->dkey || !lv->dval || !lv->cid || !lv->pkey || !lv->st || !lv->ssp ||
        !lv->gtok || !lv->gsp || !lv->gstamp ||
        !lv->dstamp || !lv->skey || !lv->tmp) {
        level_free(lv);
        return NULL;
    }
    s->lv[depth] = lv;
    return lv;
}

/* ---- splitting a state by every word ------------------------------------------------------- */

/* Class sizes of every word over the m targets of S, counted in a 64-bit word of R packed
 * fields of b bits (flushed before a field can overflow) when R <= 16. */
static inline __attribute__((always_inline)) void
count_sizes_body(const jt_bsearch *s, level *lv, int32_t m, const int gen)
{
    const int R = s->R;
    if (R <= 16) {
        const int b = 64 / R;
        const uint64_t F = ((uint64_t)1 << b) - 1;
        uint64_t one[MAXR];
        for (int r = 0; r < R; r++)
            one[r] = (uint64_t)1 << (b * r);
        const int32_t step = (int32_t)(F < 65535 ? F : 65535);
        for (int32_t t = 0; t < lv->nc; t++) {
            const int32_t c = lv->cid[t];
            WORD_OF(s, gen, c);
            uint32_t *n = lv->cnt + (size_t)c * R;
            for (int r = 0; r < R; r++)
                n[r] = 0;
            for (int32_t k0 = 0; k0 < m; k0 += step) {
                const int32_t k1 = m - k0 < step ? m : k0 + step;
                uint64_t acc = 0;
                for (int32_t k = k0; k < k1; k++)
                    acc += one[REPLY_K(s, lv, gen, c, cm, ct, cs, k)];
                for (int r = 0; r < R; r++)
                    n[r] += (uint32_t)((acc >> (b * r)) & F);
            }
        }
    } else {
        for (int32_t t = 0; t < lv->nc; t++) {
            const int32_t c = lv->cid[t];
            WORD_OF(s, gen, c);
            uint32_t *n = lv->cnt + (size_t)c * R;
            for (int r = 0; r < R; r++)
                n[r] = 0;
            for (int32_t k = 0; k < m; k++)
                n[REPLY_K(s, lv, gen, c, cm, ct, cs, k)]++;
        }
    }
}

POPCNT_CLONES
static void count_sizes(const jt_bsearch *s, level *lv, int32_t m)
{
    BY_GEN(s, count_sizes_body, s, lv, m);
}

/* Class weights, heaviest and lightest targets of every word (non-uniform weights). */
static inline __attribute__((always_inline)) void class_weights_body(const jt_bsearch *s,
                                                                    level *lv, int32_t m,
                                                                    const int gen)
{
    const int R = s->R;
    for (int32_t t = 0; t < lv->nc; t++) {
        const int32_t c = lv->cid[t];
        WORD_OF(s, gen, c);
        uint64_t *w = lv->cw + (size_t)c * R, *mx = lv->cmax + (size_t)c * R;
        uint64_t *mn = lv->cmin + (size_t)c * R;
        for (int r = 0; r < R; r++) {
            w[r] = 0;
            mx[r] = 0;
            mn[r] = INF;
        }
        for (int32_t k = 0; k < m; k++) {
            const int r = REPLY_K(s, lv, gen, c, cm, ct, cs, k);
            const uint64_t x = lv->sv[k];
            w[r] += x;
            mx[r] = x > mx[r] ? x : mx[r];
            mn[r] = x < mn[r] ? x : mn[r];
        }
    }
}

POPCNT_CLONES
static void class_weights(const jt_bsearch *s, level *lv, int32_t m)
{
    BY_GEN(s, class_weights_body, s, lv, m);
}

/* The words worth splitting S by: a word's replies from S depend only on its letters within
 * U, the union of S's letters, so of the words with the same letters within U only the first
 * (lowest index) is kept; words sharing no letter with U do not narrow S down.  A state inside
 * another (a reply class) needs only the words its parent kept, base[0..nbase), increasing:
 * words alike within the parent's letters are alike within its own, and each kept word is the
 * first of its kind. */
static void distinct_words_paper(const jt_bsearch *s, level *lv, int32_t m,
                                 const int32_t *base, int32_t nbase)
{
    uint32_t U = 0;
    for (int32_t k = 0; k < m; k++)
        U |= lv->sm[k];
    const uint32_t mask = (uint32_t)lv->dcap - 1;
    const uint64_t stamp = (uint64_t)++lv->stamp << 32;
    lv->nc = 0;
    for (int32_t t = 0; t < nbase; t++) {
        const int32_t c = base ? base[t] : t;
        const uint32_t p = s->mask[c] & U;
        if (!p)
            continue;
        uint32_t h = (uint32_t)((p * 0x9E3779B97F4A7C15ull) >> 40) & mask;
        while ((lv->pkey[h] >> 32 << 32) == stamp && (uint32_t)lv->pkey[h] != p)
            h = (h + 1) & mask;
        if ((lv->pkey[h] >> 32 << 32) == stamp)
            continue;
        lv->pkey[h] = stamp | p;
        lv->cid[lv->nc++] = c;
    }
}

/* The same for tokens and spellings.  A non-member's replies from S depend on its tokens within
 * U and, with positional replies, on its letters at the positions where some target of S has
 * the same letter; members are always kept (a member wins on itself, so no other word splits S
 * as it does).  Words kept by the parent as alike within its state are non-members there, so
 * they are alike within the class too. */
static void distinct_words_general(const jt_bsearch *s, level *lv, int32_t m,
                                   const int32_t *base, int32_t nbase)
{
    uint64_t U = 0;
    uint32_t at[8] = {0};  /* letters (bit l-1 for letter l) at each position among S */
    for (int32_t k = 0; k < m; k++) {
        U |= lv->st[k];
        if (s->positional)
            for (int p = 0; p < s->L; p++)
                at[p] |= 1u << (((lv->ssp[k] >> (8 * p)) & 0xFF) - 1);
    }
    const uint32_t mask = (uint32_t)lv->dcap - 1;
    const uint32_t stamp = ++lv->stamp;
    lv->nc = 0;
    for (int32_t t = 0; t < nbase; t++) {
        const int32_t c = base ? base[t] : t;
        if (lv->in_s[c]) {
            lv->cid[lv->nc++] = c;
            continue;
        }
        const uint64_t p = s->tok[c] & U;
        uint64_t sp = 0;
        if (s->positional)
            for (int q = 0; q < s->L; q++) {
                const uint64_t l = (s->spell[c] >> (8 * q)) & 0xFF;
                if ((at[q] >> (l - 1)) & 1)
                    sp |= l << (8 * q);
            }
        if (!p && !sp)
            continue;
        uint32_t h = (uint32_t)(((p ^ mix(sp)) * 0x9E3779B97F4A7C15ull) >> 40) & mask;
        while (lv->gstamp[h] == stamp && (lv->gtok[h] != p || lv->gsp[h] != sp))
            h = (h + 1) & mask;
        if (lv->gstamp[h] == stamp)
            continue;
        lv->gstamp[h] = stamp;
        lv->gtok[h] = p;
        lv->gsp[h] = sp;
        lv->cid[lv->nc++] = c;
    }
}

/* The candidate guesses of S: in hard mode its members, else the words of distinct splits. */
static void distinct_words(const jt_bsearch *s, level *lv, int32_t m, const int32_t *base,
                           int32_t nbase)
{
    if (s->hard) {
        memcpy(lv->cid, lv->S, sizeof(int32_t) * (size_t)m);
        lv->nc = m;
    } else if (s->gen == 0) {
        distinct_words_paper(s, lv, m, base, nbase);
    } else {
        distinct_words_general(s, lv, m, base, nbase);
    }
}

/* Split S (in lv) by the distinct words: class sizes (and weights), whether the word narrows S
 * down, the greedy metric q and the bound lb of every word. */
static void split_all(const jt_bsearch *s, level *lv, int32_t m, uint64_t W, int uniform,
                      const int32_t *base, int32_t nbase)
{
    const int R = s->R, V = s->win;  /* the win; codes 0..V-1 do not win */
    distinct_words(s, lv, m, base, nbase);
    count_sizes(s, lv, m);
    if (!uniform)
        class_weights(s, lv, m);
    const uint64_t u = lv->sv[0];
    for (int32_t t = 0; t < lv->nc; t++) {
        const int32_t c = lv->cid[t];
        const uint32_t *n = lv->cnt + (size_t)c * R;
        const uint64_t *w = lv->cw + (size_t)c * R;
        int progress = n[V] > 0;
        uint64_t lb = W, q = 0;
        if (uniform) {
            uint64_t b = 0, sq = 0;
            for (int r = 0; r < V; r++) {
                progress |= n[r] > 0 && n[r] < (uint32_t)m;
                b += s->cb[n[r]];
                sq += (uint64_t)n[r] * n[r];
            }
            lb += u * b;
            q = u * (sq + (uint64_t)n[V] * n[V]);
        } else {
            for (int r = 0; r < V; r++) {
                progress |= n[r] > 0 && n[r] < (uint32_t)m;
                lb += count_bound(s, n[r], w[r], lv->cmax[(size_t)c * R + r],
                                  lv->cmin[(size_t)c * R + r]);
                q += (uint64_t)n[r] * w[r];
            }
            q += (uint64_t)n[V] * w[V];
        }
        lv->prog[c] = (uint8_t)progress;
        lv->lb[c] = lb;
        lv->q[c] = q;
    }
}

/* Classes up to this size get the member bound. */
#define SMALL 12

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
        for (int r = 0; r <= V; r++) {
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
        for (int r = 0; r < V && b < best; r++)
            b += count_bound(s, cnt[r], cw[r], mx[r], mn[r]);
        best = b < best ? b : best;
    }
    return best;
}

/* Class weights (uniform weights) and counting bounds of word c, for the words tried. */
static void class_bounds(const jt_bsearch *s, level *lv, int32_t c, int uniform)
{
    const int V = s->win, R = s->R;
    const uint32_t *n = lv->cnt + (size_t)c * R;
    uint64_t *w = lv->cw + (size_t)c * R, *lbc = lv->lbc + (size_t)c * R;
    const uint64_t *cmax = lv->cmax + (size_t)c * R, *cmin = lv->cmin + (size_t)c * R;
    const uint64_t u = lv->sv[0];
    for (int r = 0; r < R; r++) {
        if (uniform)
            w[r] = u * n[r];
        if (r < V)
            lbc[r] = uniform ? u * s->cb[n[r]] : count_bound(s, n[r], w[r], cmax[r], cmin[r]);
    }
}

/* Raise the bounds of the small classes of word c flagged in `which` (bit r: class r) to their
 * member bounds; *gain gets by how much in all. */
static inline __attribute__((always_inline)) void
member_bounds_body(const jt_bsearch *s, level *lv, int32_t m, int32_t c, int uniform,
                   codeset which, uint64_t *gain_out, const int gen)
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
    for (int r = 0; r < V; r++) {
        if (!((which >> r) & 1))
            continue;
        const uint64_t b = member_bound_body(s, ti[r], tm[r], tv[r], (int)n[r], w[r],
                                             uniform ? lv->sv[0] : cmax[r], gen);
        if (b > lbc[r]) {
            gain += b - lbc[r];
            lbc[r] = b;
        }
    }
    *gain_out = gain;
}

POPCNT_CLONES
static uint64_t member_bounds(const jt_bsearch *s, level *lv, int32_t m, int32_t c, int uniform,
                              codeset which)
{
    uint64_t gain;
    BY_GEN(s, member_bounds_body, s, lv, m, c, uniform, which, &gain);
    return gain;
}

/* Zobrist keys of the classes of word c. */
static inline __attribute__((always_inline)) void class_keys_body(const jt_bsearch *s, level *lv,
                                                                 int32_t m, int32_t c,
                                                                 const int gen)
{
    const int R = s->R;
    WORD_OF(s, gen, c);
    uint64_t *h = lv->hz + (size_t)c * R;
    for (int r = 0; r < R; r++)
        h[r] = 0;
    for (int32_t k = 0; k < m; k++)
        h[REPLY_K(s, lv, gen, c, cm, ct, cs, k)] += lv->sz[k];
}

POPCNT_CLONES
static void class_keys(const jt_bsearch *s, level *lv, int32_t m, int32_t c)
{
    BY_GEN(s, class_keys_body, s, lv, m, c);
}

/* A key of the split of S by word c: the same for words splitting S into the same classes (the
 * winning class marked apart). */
static uint64_t split_key(const jt_bsearch *s, const level *lv, int32_t c)
{
    const int V = s->win, R = s->R;
    const uint64_t *h = lv->hz + (size_t)c * R;
    const uint32_t *n = lv->cnt + (size_t)c * R;
    uint64_t key = n[V] ? mix(h[V] ^ 0x5bd1e995u) : 0;
    for (int r = 0; r < V; r++)
        if (n[r])
            key += mix(h[r]);
    return key;
}

/* Whether words a and b split S into the same classes. */
static inline __attribute__((always_inline)) int same_split_body(const jt_bsearch *s,
                                                                const level *lv, int32_t m,
                                                                int32_t a, int32_t b,
                                                                const int gen)
{
    int8_t fwd[MAXR], bwd[MAXR];
    memset(fwd, -1, sizeof fwd);
    memset(bwd, -1, sizeof bwd);
    const uint32_t ma = gen == 0 ? s->mask[a] : 0, mb = gen == 0 ? s->mask[b] : 0;
    const uint64_t ta = gen == 0 ? 0 : s->tok[a], tb = gen == 0 ? 0 : s->tok[b];
    const uint64_t pa = gen == 2 ? s->spell[a] : 0, pb = gen == 2 ? s->spell[b] : 0;
    const int V = s->win;
    for (int32_t k = 0; k < m; k++) {
        const int ra = REPLY_K(s, lv, gen, a, ma, ta, pa, k);
        const int rb = REPLY_K(s, lv, gen, b, mb, tb, pb, k);
        if ((ra == V) != (rb == V))
            return 0;
        if (fwd[ra] < 0 && bwd[rb] < 0) {
            fwd[ra] = (int8_t)rb;
            bwd[rb] = (int8_t)ra;
        } else if (fwd[ra] != rb || bwd[rb] != ra) {
            return 0;
        }
    }
    return 1;
}

POPCNT_CLONES
static int same_split(const jt_bsearch *s, const level *lv, int32_t m, int32_t a, int32_t b)
{
    if (s->gen == 0)
        return same_split_body(s, lv, m, a, b, 0);
    if (s->gen == 1)
        return same_split_body(s, lv, m, a, b, 1);
    return same_split_body(s, lv, m, a, b, 2);
}

/* Sort keys ascending (quicksort, median of three, insertion sort for short runs). */
static void sort_keys(unsigned __int128 *a, int32_t n)
{
    while (n > 16) {
        unsigned __int128 x = a[0], y = a[n / 2], z = a[n - 1];
        const unsigned __int128 piv = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        int32_t i = 0, j = n - 1;
        while (i <= j) {
            while (a[i] < piv)
                i++;
            while (a[j] > piv)
                j--;
            if (i <= j) {
                const unsigned __int128 t = a[i];
                a[i++] = a[j];
                a[j--] = t;
            }
        }
        if (j + 1 < n - i) {
            sort_keys(a, j + 1);
            a += i;
            n -= i;
        } else {
            sort_keys(a + i, n - i);
            n = j + 1;
        }
    }
    for (int32_t i = 1; i < n; i++) {
        const unsigned __int128 t = a[i];
        int32_t j = i;
        for (; j > 0 && a[j - 1] > t; j--)
            a[j] = a[j - 1];
        a[j] = t;
    }
}

/* Sort the list in greedy order: least q, then words of S, then the lowest index (the list is
 * in increasing index order), by one 128-bit key per word: q, then out and the position. */
static void sort_list(level *lv, int32_t nl)
{
    for (int32_t i = 0; i < nl; i++)
        lv->skey[i] = (unsigned __int128)lv->list[i].q << 64 |
                      (uint64_t)lv->list[i].out << 23 | (uint64_t)i;
    sort_keys(lv->skey, nl);
    for (int32_t i = 0; i < nl; i++)
        lv->tmp[i] = lv->list[(uint64_t)lv->skey[i] & 0x7fffff];
    memcpy(lv->list, lv->tmp, sizeof(cand) * (size_t)nl);
}

/* Keep the first word of every distinct split in list[0..n) (order kept); returns how many
 * remain, at most keep (0: all).  The class keys and bounds of the words it looks at are made
 * here: with keep > 0 the words after the last kept one never need them. */
static int32_t dedupe(const jt_bsearch *s, level *lv, int32_t m, int32_t n, int32_t keep,
                      int uniform)
{
    const uint64_t mask = (uint64_t)lv->dcap - 1;
    const uint32_t stamp = ++lv->stamp;
    int32_t out = 0;
    for (int32_t i = 0; i < n && (!keep || out < keep); i++) {
        const int32_t c = lv->list[i].c;
        class_keys(s, lv, m, c);
        class_bounds(s, lv, c, uniform);
        const uint64_t key = split_key(s, lv, c);
        uint64_t h = key & mask;
        int dup = 0;
        for (; lv->dstamp[h] == stamp; h = (h + 1) & mask)
            if (lv->dkey[h] == key && same_split(s, lv, m, lv->dval[h], c)) {
                dup = 1;
                break;
            }
        if (dup)
            continue;
        lv->dstamp[h] = stamp;
        lv->dkey[h] = key;
        lv->dval[h] = c;
        lv->list[out++] = lv->list[i];
    }
    return out;
}

/* ---- the search ---------------------------------------------------------------------------- */

static int out_of_budget(jt_bsearch *s)
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

/* The members of S class after class into lv->cls, class r from fill[r] on. */
static inline __attribute__((always_inline)) void list_classes_body(const jt_bsearch *s,
                                                                   level *lv, int32_t m,
                                                                   int32_t c, int32_t *fill,
                                                                   const int gen)
{
    WORD_OF(s, gen, c);
    for (int32_t k = 0; k < m; k++)
        lv->cls[fill[REPLY_K(s, lv, gen, c, cm, ct, cs, k)]++] = lv->S[k];
}

POPCNT_CLONES
static void list_classes(const jt_bsearch *s, level *lv, int32_t m, int32_t c, int32_t *fill)
{
    BY_GEN(s, list_classes_body, s, lv, m, c, fill);
}

static void clear_members(level *lv, const int32_t *S, int32_t m)
{
    for (int32_t k = 0; k < m; k++)
        lv->in_s[S[k]] = 0;
}

/* The level of depth holding S (its members' masks or tokens, weights, keys, membership), or
 * NULL if memory ran out (then the pass stops). */
static level *enter_level(jt_bsearch *s, int32_t depth, const int32_t *S, int32_t m)
{
    level *lv = get_level(s, depth);
    if (!lv) {
        s->error = JT_ENOMEM;
        s->stop = JT_BS_INTERRUPTED;
        return NULL;
    }
    lv->S = S;
    for (int32_t k = 0; k < m; k++) {
        if (s->gen == 0) {
            lv->sm[k] = s->mask[S[k]];
        } else {
            lv->st[k] = s->tok[S[k]];
            lv->ssp[k] = s->gen == 2 ? s->spell[S[k]] : 0;
        }
        lv->sv[k] = s->v[S[k]];
        lv->sz[k] = s->z[S[k]];
        lv->in_s[S[k]] = 1;
    }
    return lv;
}

/* Split the state of level depth (m targets, weight W) by the words worth trying there: those
 * the parent state kept, or all at the top (split_all).  Returns whether its weights are equal. */
static int split_state(const jt_bsearch *s, int32_t depth, level *lv, int32_t m, uint64_t W)
{
    int uniform = 1;
    for (int32_t k = 1; k < m && uniform; k++)
        uniform = lv->sv[k] == lv->sv[0];
    const level *up = depth > 0 ? s->lv[depth - 1] : NULL;
    split_all(s, lv, m, W, uniform, up ? up->cid : NULL, up ? up->nc : s->D);
    return uniform;
}

/* The lookahead bound of a state S (m >= 3 targets, positive weight W, Zobrist key): its
 * value is W + F over the classes of its first guess, and each class's F is at least its
 * counting bound, so
 *   F(S) >= L1(S) = W + min_g sum_{j != win} CB(S_j(g)),
 * g over the words that narrow S down (every word that could be a tree's first guess: one that
 * does not narrow S down only repeats S, so an optimal tree never plays it) -- the minimum
 * search() takes as its floor before trying any word.  L1 sees how lopsided S's best splits
 * are, which the counting bound CB(S) of S's size alone cannot.  Returns max(L1(S), what the
 * memo knows of S) and stores it as a proven bound (or returns the exact value the memo has);
 * costs one split of S and never searches deeper.  Level depth must be free: the caller is at
 * depth - 1 (or the state is the root). */
static uint64_t lookahead_bound(jt_bsearch *s, int32_t depth, const int32_t *S, int32_t m,
                                uint64_t key, uint64_t W)
{
    const entry *e = memo_find(&s->memo[s->mode], key, m, S);
    if (e && e->guess != NOGUESS)
        return e->val;
    const uint64_t known = e ? e->val : 0;
    if (W == 0 || out_of_budget(s))
        return known;
    s->nodes++;
    level *lv = enter_level(s, depth, S, m);
    if (!lv)
        return known;
    split_state(s, depth, lv, m, W);
    uint64_t floor = INF;
    for (int32_t t = 0; t < lv->nc; t++)
        if (lv->prog[lv->cid[t]])
            floor = umin(floor, lv->lb[lv->cid[t]]);
    clear_members(lv, S, m);
    if (floor <= known)
        return known;
    memo_store(s, key, m, S, floor, 0, -1);
    return floor;
}

/* F(S) if below beta, else a proven bound >= beta (any proven bound once the pass stops).  S:
 * increasing indices of positive-weight targets, key its Zobrist key, W its weight.  *guess_out
 * gets the best first guess when the value is exact. */
static uint64_t search(jt_bsearch *s, int32_t depth, const int32_t *S, int32_t m, uint64_t key,
                       uint64_t W, uint64_t beta, int32_t *guess_out)
{
    *guess_out = -1;
    if (m == 1) {
        *guess_out = S[0];
        return W;
    }
    if (m == 2) {
        const int first = s->v[S[1]] > s->v[S[0]];
        *guess_out = S[first];
        return 2 * W - s->v[S[first]];
    }
    if (W == 0)  /* hard mode: only words of weight 0 remain */
        return 0;
    if (out_of_budget(s))
        return 0;
    s->nodes++;
    const memo *mm = &s->memo[s->mode];
    const entry *e = memo_find(mm, key, m, S);
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
    level *lv = enter_level(s, depth, S, m);
    if (!lv)
        return known;
    const int V = s->win, R = s->R;
    const int uniform = split_state(s, depth, lv, m, W);

    /* The words to try, in greedy order, one per distinct split. */
    const int restricted = s->mode == 1 && m > s->full_below;
    uint64_t floor_all = INF, outside = INF;
    int32_t nl = 0;
    for (int32_t t = 0; t < lv->nc; t++) {
        const int32_t c = lv->cid[t];
        if (!lv->prog[c])
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
        memo_store(s, key, m, S, res, 0, -1);
        clear_members(lv, S, m);
        return res;
    }
    sort_list(lv, nl);
    nl = dedupe(s, lv, m, nl, restricted ? s->top_k : 0, uniform);
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
    int32_t kept = 0;
    for (int32_t i = 0; i < nl; i++) {
        cand *cd = &lv->list[i];
        const uint32_t *n = lv->cnt + (size_t)cd->c * R;
        uint64_t *lbc = lv->lbc + (size_t)cd->c * R;
        const uint64_t *hz = lv->hz + (size_t)cd->c * R;
        codeset unknown_small = 0;
        for (int r = 0; r < V && cd->lb < beta; r++) {
            if (n[r] < 3)
                continue;
            const entry *ce = memo_find_class(s, mm, hz[r], (int32_t)n[r], cd->c, r, lv->in_s);
            if (ce && ce->val > lbc[r]) {
                cd->lb += ce->val - lbc[r];
                lbc[r] = ce->val;
            }
            if (!ce && n[r] <= SMALL)
                unknown_small |= (codeset)1 << r;
        }
        if (unknown_small && cd->lb < beta)
            cd->lb += member_bounds(s, lv, m, cd->c, uniform, unknown_small);
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
        list_classes(s, lv, m, c, fill);
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
            const uint64_t b = lookahead_bound(s, depth + 1, lv->cls + off[r], (int32_t)n[r],
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
                uint64_t val = search(s, depth + 1, lv->cls + off[r], (int32_t)n[r], hz[r],
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
            memo_store(s, key, m, S, res, 0, -1);
            clear_members(lv, S, m);
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
    clear_members(lv, S, m);
    if (bestc >= 0) {
        memo_store(s, key, m, S, best, 1, bestc);
        *guess_out = bestc;
        return best;
    }
    const uint64_t res = umax(known, umin(failed, outside));
    memo_store(s, key, m, S, res, 0, -1);
    return res;
}

/* ---- the public interface ------------------------------------------------------------------ */

void jt_bs_free(jt_bsearch *s)
{
    if (!s)
        return;
    for (int32_t d = 0; s->lv && d < s->D + 2; d++)
        level_free(s->lv[d]);
    free(s->lv);
    memo_clear(&s->memo[0]);
    memo_clear(&s->memo[1]);
    free(s->mask);
    free(s->tok);
    free(s->spell);
    free(s->v);
    free(s->z);
    free(s->pos);
    free(s->cb);
    free(s->tg);
    free(s->td);
    free(s->ts);
    free(s->tc);
    free(s);
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Whether a sorted copy of x[0..D) has two equal values holding L tokens (>= L: any). */
static int has_equal(const uint64_t *x, int32_t D, int L, int *bad)
{
    uint64_t *sorted = malloc(sizeof(uint64_t) * (size_t)D);
    if (!sorted) {
        *bad = JT_ENOMEM;
        return 1;
    }
    memcpy(sorted, x, sizeof(uint64_t) * (size_t)D);
    qsort(sorted, (size_t)D, sizeof(uint64_t), cmp_u64);
    int eq = 0;
    for (int32_t i = 1; i < D && !eq; i++)
        eq = sorted[i] == sorted[i - 1] && (L < 0 || pc64(sorted[i]) == L);
    free(sorted);
    return eq;
}

/* Check the words: at most L tokens each; spellings of L letters 1..26 when positional; no two
 * words the same word.  Two words of equal full token sets reply L to each other, which is the
 * win unless anagrams are kept (then it is the anagram's reply) or replies are positional (then
 * the spellings tell them apart).  Returns JT_OK or JT_EINVAL (JT_ENOMEM). */
static int words_ok(const uint64_t *tok, const uint64_t *spell, int32_t D, int32_t L, int flags)
{
    const int positional = (flags & JT_BS_POSITIONAL) != 0;
    if (positional != (spell != NULL) || (positional && L > 8))
        return JT_EINVAL;
    for (int32_t i = 0; i < D; i++) {
        if (pc64(tok[i]) > L)
            return JT_EINVAL;
        for (int p = 0; positional && p < 8; p++) {
            const uint64_t l = (spell[i] >> (8 * p)) & 0xFF;
            if (p < L ? l < 1 || l > 26 : l != 0)
                return JT_EINVAL;
        }
    }
    int bad = JT_EINVAL;
    if (positional ? has_equal(spell, D, -1, &bad)
                   : !(flags & JT_BS_KEEP_ALL) && has_equal(tok, D, L, &bad))
        return bad;
    return JT_OK;
}

/* The most non-winning replies one guess can get: codes 0..L-1, and the anagram's L under
 * keep-all; with positional replies every (a, b), 0 <= b <= a <= L, but the win (L, L) and
 * (L, L-1) (all letters shared and all but one in place puts the last one in place too). */
static int32_t branching(int32_t L, int flags)
{
    if (flags & JT_BS_POSITIONAL)
        return (L + 1) * (L + 2) / 2 - 2;
    return flags & JT_BS_KEEP_ALL ? L + 1 : L;
}

jt_bsearch *jt_bs_new(const uint64_t *tokens, const uint64_t *spell, int32_t D, int32_t L,
                      int32_t flags, const int64_t *v, size_t memo_bytes, int *status)
{
    *status = JT_EINVAL;
    if (D < 1 || D > JT_MAX_WORDS || L < 1 || L > JT_MAX_LEN || !tokens ||
        (flags & ~(JT_BS_KEEP_ALL | JT_BS_POSITIONAL | JT_BS_HARD)))
        return NULL;
    for (int32_t i = 0; v && i < D; i++)
        if (v[i] < 0)
            return NULL;
    const int ok = words_ok(tokens, spell, D, L, flags);
    if (ok != JT_OK) {
        *status = ok;
        return NULL;
    }
    *status = JT_ENOMEM;
    jt_bsearch *s = calloc(1, sizeof(jt_bsearch));
    if (!s)
        return NULL;
    s->D = D;
    s->L = L;
    s->keep_all = (flags & JT_BS_KEEP_ALL) != 0;
    s->positional = (flags & JT_BS_POSITIONAL) != 0;
    s->hard = (flags & JT_BS_HARD) != 0;
    s->R = s->positional ? (L + 1) * (L + 1) : s->keep_all ? L + 2 : L + 1;
    s->win = s->R - 1;
    s->branch = branching(L, flags);
    /* Paper words: L letters each in 26 bits, no two alike (checked above unless keep-all). */
    int paper = !s->positional && !s->keep_all;
    for (int32_t i = 0; i < D && paper; i++)
        paper = !(tokens[i] >> 26) && pc64(tokens[i]) == L;
    s->gen = paper ? 0 : s->positional ? 2 : 1;
    s->memo_bytes = memo_bytes;
    s->mask = malloc(sizeof(uint32_t) * (size_t)D);
    s->tok = malloc(sizeof(uint64_t) * (size_t)D);
    s->spell = s->positional ? malloc(sizeof(uint64_t) * (size_t)D) : NULL;
    s->v = malloc(sizeof(uint64_t) * (size_t)D);
    s->z = malloc(sizeof(uint64_t) * (size_t)D);
    s->pos = malloc(sizeof(int32_t) * (size_t)D);
    s->cb = malloc(sizeof(uint64_t) * ((size_t)D + 1));
    s->lv = calloc((size_t)D + 2, sizeof(level *));
    if (!s->mask || !s->tok || (s->positional && !s->spell) || !s->v || !s->z || !s->pos ||
        !s->cb || !s->lv) {
        jt_bs_free(s);
        return NULL;
    }
    uint64_t seed = 0x6a6f74746f000000ull;
    for (int32_t i = 0; i < D; i++) {
        s->mask[i] = (uint32_t)tokens[i];
        s->tok[i] = tokens[i];
        if (s->positional)
            s->spell[i] = spell[i];
        s->v[i] = v ? (uint64_t)v[i] : 1;
        s->z[i] = splitmix(&seed);
        /* Hard mode keeps words of weight 0 in the states: they may be guessed. */
        if (s->v[i] || s->hard) {
            s->pos[s->npos++] = i;
            s->Wpos += s->v[i];
            s->keypos += s->z[i];
        }
    }
    uint64_t N = 0;
    s->ncap = 0;
    while (N < (uint64_t)D && s->ncap < 64) {
        s->capN[s->ncap++] = N;
        N = N * (uint64_t)s->branch + 1;
    }
    for (int32_t n = 0; n <= D; n++) {
        uint64_t b = 0;
        for (int k = 0; k < s->ncap && s->capN[k] < (uint64_t)n; k++)
            b += (uint64_t)n - s->capN[k];
        s->cb[n] = b;
    }
    *status = JT_OK;
    return s;
}

int32_t jt_bs_classes(const jt_bsearch *s)
{
    return s->R;
}

/* Make the top-K memo hold the values of top_k and full_below.  What it holds of states of at
 * most min(full_below, the memo's) targets stays: those states try every guess in both modes
 * (and so do all the states below them), so their values and bounds are the full search's. */
static void set_mode(jt_bsearch *s, int32_t top_k, int32_t full_below)
{
    s->mode = top_k > 0;
    s->top_k = top_k;
    s->full_below = top_k > 0 ? full_below : 0;
    if (top_k > 0 && (s->top_k_memo != top_k || s->full_below_memo != full_below)) {
        memo *mm = &s->memo[1];
        const int32_t keep = full_below < s->full_below_memo ? full_below : s->full_below_memo;
        if (keep < 3 || !mm->cap || !rehash(mm, mm->cap, keep))
            memo_clear(mm);
        s->top_k_memo = top_k;
        s->full_below_memo = full_below;
    }
}

void jt_bs_forget_top_k(jt_bsearch *s)
{
    memo_clear(&s->memo[1]);
    s->top_k_memo = 0;
    s->full_below_memo = 0;
}

int jt_bs_run(jt_bsearch *s, const jt_bs_pass *p, jt_bs_outcome *out)
{
    memset(out, 0, sizeof *out);
    out->best = INF;
    out->best_guess = -1;
    if (p->top_k < 0 || p->full_below < 0)
        return JT_EINVAL;
    set_mode(s, p->top_k, p->full_below);
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
    int32_t g = -1;
    const uint64_t val = s->npos ? search(s, 0, s->pos, s->npos, s->keypos, s->Wpos, p->beta, &g)
                                 : 0;
    out->value = val;
    out->stopped = s->stop;
    out->exact = !s->stop && val < p->beta;
    out->nodes = s->nodes;
    if (out->exact && s->npos) {
        out->best = val;
        out->best_guess = g;
    } else if (s->root_guess >= 0) {
        out->best = s->root_best;
        out->best_guess = s->root_guess;
    }
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

void jt_bs_memo_stats(const jt_bsearch *s, int64_t *states, int64_t *bytes)
{
    *states = (int64_t)(s->memo[0].n + s->memo[1].n);
    *bytes = (int64_t)memo_bytes_used(s);
}

/* ---- trees --------------------------------------------------------------------------------- */

/* The exact greedy rule with equal weights: least sum of squared class sizes, then a word of T,
 * then the lowest index (for states holding only targets of weight 0; in hard mode among T). */
static int32_t greedy_equal(const jt_bsearch *s, const int32_t *T, int32_t m)
{
    if (m == 1)
        return T[0];
    int32_t best = -1;
    uint64_t bq = INF;
    int bin = 0;
    for (int32_t i = 0; i < (s->hard ? m : s->D); i++) {
        const int32_t c = s->hard ? T[i] : i;
        uint32_t n[MAXR] = {0};
        int in = 0;
        for (int32_t k = 0; k < m; k++) {
            n[reply_ix(s, s->gen, c, T[k])]++;
            in |= T[k] == c;
        }
        uint64_t q = 0;
        for (int r = 0; r < s->R; r++)
            q += (uint64_t)n[r] * n[r];
        if (q < bq || (q == bq && in && !bin)) {
            bq = q;
            best = c;
            bin = in;
        }
    }
    return best;
}

static int tree_grow(jt_bsearch *s)
{
    if (s->tn < s->tcap)
        return 1;
    const int32_t ncap = s->tcap ? 2 * s->tcap : 256;
    int32_t *g = realloc(s->tg, sizeof(int32_t) * (size_t)ncap);
    if (g)
        s->tg = g;
    int32_t *d = realloc(s->td, sizeof(int32_t) * (size_t)ncap);
    if (d)
        s->td = d;
    int32_t *z = realloc(s->ts, sizeof(int32_t) * (size_t)ncap);
    if (z)
        s->ts = z;
    int32_t *c = realloc(s->tc, sizeof(int32_t) * (size_t)ncap * s->R);
    if (c)
        s->tc = c;
    if (!g || !d || !z || !c)
        return 0;
    s->tcap = ncap;
    return 1;
}

/* Node for the targets T (all weights) at depth; returns its index or a negative status. */
static int32_t tree_node(jt_bsearch *s, const int32_t *T, int32_t mt, int32_t depth,
                         int32_t root_guess, uint64_t *total)
{
    if (!tree_grow(s))
        return JT_ENOMEM;
    const int32_t node = s->tn++;
    int32_t *P = malloc(sizeof(int32_t) * (size_t)mt);
    if (!P)
        return JT_ENOMEM;
    int32_t mp = 0;
    uint64_t W = 0, key = 0;
    for (int32_t k = 0; k < mt; k++)
        if (s->v[T[k]] || s->hard) {
            P[mp++] = T[k];
            W += s->v[T[k]];
            key += s->z[T[k]];
        }
    int32_t g = -1;
    if (depth == 0 && root_guess >= 0)
        g = root_guess;
    else if (W == 0)
        g = greedy_equal(s, T, mt);
    else
        search(s, 0, P, mp, key, W, INF, &g);
    free(P);
    if (s->error)
        return s->error;
    if (g < 0)
        return JT_EINVAL;
    s->tg[node] = g;
    s->td[node] = depth;
    s->ts[node] = mt;
    const int V = s->win, R = s->R;
    for (int r = 0; r < R; r++)
        s->tc[(size_t)node * R + r] = -1;
    int32_t n[MAXR] = {0};
    for (int32_t k = 0; k < mt; k++) {
        const int r = reply_ix(s, s->gen, g, T[k]);
        n[r]++;
        if (r == V)
            *total += s->v[T[k]] * (uint64_t)(depth + 1);
    }
    int32_t *C = malloc(sizeof(int32_t) * (size_t)mt);
    if (!C)
        return JT_ENOMEM;
    for (int r = 0; r < V; r++) {
        if (!n[r])
            continue;
        if (n[r] == mt) {  /* the guess does not narrow T down: cannot happen */
            free(C);
            return JT_EINVAL;
        }
        int32_t mc = 0;
        for (int32_t k = 0; k < mt; k++)
            if (reply_ix(s, s->gen, g, T[k]) == r)
                C[mc++] = T[k];
        const int32_t child = tree_node(s, C, mc, depth + 1, -1, total);
        if (child < 0) {
            free(C);
            return child;
        }
        s->tc[(size_t)node * R + contract_code(s, r)] = child;
    }
    free(C);
    return node;
}

int32_t jt_bs_tree_build(jt_bsearch *s, int32_t top_k, int32_t root_guess, uint64_t *total)
{
    *total = 0;
    if (top_k < 0 || root_guess >= s->D)
        return JT_EINVAL;
    set_mode(s, top_k, top_k == s->top_k_memo ? s->full_below_memo : 0);
    s->deadline = 0;
    s->node_limit = 0;
    s->interrupted = NULL;
    s->by_size = 0;
    s->stop = 0;
    s->error = 0;
    s->tn = 0;
    int32_t *all = malloc(sizeof(int32_t) * (size_t)s->D);
    if (!all)
        return JT_ENOMEM;
    for (int32_t i = 0; i < s->D; i++)
        all[i] = i;
    const int32_t r = tree_node(s, all, s->D, 0, root_guess, total);
    free(all);
    return r < 0 ? r : s->tn;
}

void jt_bs_tree_export(const jt_bsearch *s, int32_t *guess, int32_t *depth, int32_t *size,
                       int32_t *children)
{
    memcpy(guess, s->tg, sizeof(int32_t) * (size_t)s->tn);
    memcpy(depth, s->td, sizeof(int32_t) * (size_t)s->tn);
    memcpy(size, s->ts, sizeof(int32_t) * (size_t)s->tn);
    memcpy(children, s->tc, sizeof(int32_t) * (size_t)s->tn * s->R);
}
