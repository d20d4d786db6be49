/* proof_kernel.h -- the certificate checker's compiled twin (proof_kernel.c); its one caller is
 * _proof_kernel.pyx.  Nothing here comes from the search (src/jotto/_engine). */
#ifndef JOTTO_PROOF_KERNEL_H
#define JOTTO_PROOF_KERNEL_H

#include <stdint.h>

#define CK_SMALL 12        /* classes of at most this many targets get the member bound */
#define CK_MAX_REPLIES 256 /* replies are bytes */
#define CK_MAX_LEN 26      /* family bounds: words of distinct letters */

/* ck_verify's answers */
enum { CK_OK = 0, CK_SHORT = 1, CK_NO_GUESS = 2, CK_SMALL_SHORT = 3, CK_NOMEM = 4 };
/* where a class's bound came from (proof_check._KINDS) */
enum { CK_COUNTING = 0, CK_RECORD = 1, CK_FAMILY = 2, CK_MEMBER = 3 };

typedef struct {
    /* given (proof_check._Game's arrays; the caller keeps them alive) */
    int32_t D, L, R, win, B, hard, families;
    const uint8_t *reply;        /* D x D: reply[g * D + t], the win R - 1 */
    const int64_t *v;            /* the weights */
    const int64_t *masks;        /* letter masks */
    const int64_t *letter_bits;  /* D x L: each letter's bit */
    const uint64_t *z0, *z1;     /* the words' random keys */
    const int64_t *N;            /* N_k, k < NK (then unbounded) */
    int32_t NK;
    const int64_t *cb;           /* the counting bound of n equal unit targets, n <= D */
    const int64_t *depth;        /* depth[r], r <= D */
    const int64_t *phi, *psi;    /* K x S (the last rows finding everything) */
    const int64_t *alone;        /* S */
    int32_t K, S;
    /* owned: the table of verified bounds and scratch */
    uint64_t *t0, *t1;
    int64_t *tv, *tr, tn;        /* keys, bounds, the records they came from; entries */
    int track;                   /* collect the records each check uses in used[0..nused) */
    int64_t *used, nused, cap_used;
    uint64_t tmask;
    uint8_t *codes, *taken;
    int32_t *order;
    struct pentry *pent;
    struct group *groups;
    int64_t *fP, *fX, *pP, *pX;
    int *pc, *sizes;
    int64_t cnt[CK_MAX_REPLIES], rank[CK_MAX_REPLIES];
    uint64_t k0[CK_MAX_REPLIES], k1[CK_MAX_REPLIES];
    int64_t rec[CK_MAX_REPLIES];
} ck_game;

/* A failing guess: its word, W + its classes' bounds, and per reply the class's size, bound
 * and kind (CK_SMALL_SHORT: total is the small state's value). */
typedef struct {
    int32_t guess;
    int64_t total;
    int64_t cnt[CK_MAX_REPLIES], bound[CK_MAX_REPLIES];
    int8_t how[CK_MAX_REPLIES];
} ck_failure;

int ck_init(ck_game *G);
void ck_free(ck_game *G);
void ck_key(const ck_game *G, const int32_t *idx, int32_t m, uint64_t *a, uint64_t *b);
int64_t ck_get(const ck_game *G, uint64_t a, uint64_t b, int64_t *rec);
int ck_put(ck_game *G, uint64_t a, uint64_t b, int64_t v, int64_t rec);
int64_t ck_used_unique(ck_game *G); /* sorts used[] and drops repeats: the count left */
int ck_verify(ck_game *G, const int32_t *idx, int32_t m, int64_t claim, int32_t only,
              ck_failure *out);

#endif
