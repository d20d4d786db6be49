/* engine_internal.h -- data shared by the orchestration (engine.c) and the hot kernels
 * (kernels.c, compiled once per x86-64 level and chosen at run time by dispatch.c). */
#ifndef JOTTO_ENGINE_INTERNAL_H
#define JOTTO_ENGINE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "jotto_engine.h"

/* Words up to this length get subset-count tables (2^L - 2 subsets per word). */
#define JT_TABLE_MAXL 6
/* Rows of jt_words.letters run this far past the last word (vector loads of 64 lanes). */
#define JT_LETTER_PAD 64
/* The letter code of padding: no word has it, so it is in no target. */
#define JT_NO_LETTER 31

struct jt_words {
    int32_t D, L;
    uint32_t *mask;     /* [D] */
    /* The letters of every word, by position: letters[p * lstride + i] is the p-th smallest
     * letter (0..25) of word i; each row is padded with JT_NO_LETTER to lstride = D + 64. */
    uint8_t *letters;
    int32_t lstride;
    /* Subset tables (2 <= L <= JT_TABLE_MAXL): the rank of every proper non-empty subset of
     * every word, by size: the nsub_of[s] subsets of size s follow those of size s-1. */
    int32_t nsub;
    int32_t nsub_of[JT_TABLE_MAXL + 1];
    int32_t *subrank;   /* [D*nsub] or NULL */
    int32_t table_size; /* number of distinct ranks */
    /* n_j = sum_s incl[s][j] E_s (inclusion-exclusion from subset sums E_s) */
    int64_t incl[JT_TABLE_MAXL + 1][JT_TABLE_MAXL + 1];
    /* Class sizes of every word over all words ([(L+1)*D], structure-of-arrays), the root's of
     * every tree whatever the weights; NULL when too costly to make up front. */
    uint16_t *root_cnt;
};

/* Bit-sliced counting (kernels.c), or subset tables (for big S, cost independent of |S|). */
enum jt_method { JT_M_SLICED = 0, JT_M_TABLE = 1 };

/* One node's candidates while they are evaluated. */
typedef struct {
    const jt_words *w;
    int method;
    int32_t m;
    const uint32_t *sm;        /* masks of S */
    int32_t nc;                /* candidates */
    const int32_t *cid;        /* their word indices (NULL: candidate c is word c) */
    const uint32_t *cm;        /* their masks: cm[c] is the mask of word cid[c] (or c) */
    uint16_t *cnt;             /* [(L+1)*nc] out: cnt[j*nc + c] = n_j(c), or NULL (q only) */
    uint64_t *q;               /* [nc] out, or NULL (counts only) */
    uint64_t vmin;             /* smallest weight over S */
    int32_t nspec;             /* targets of S weighing more than vmin */
    const uint32_t *spec_mask;
    const uint64_t *spec_delta;
    int counted;               /* cnt already holds the class sizes: compute q only */
    const uint16_t *table;     /* JT_M_TABLE: [table_size] subset counts over S */
    const uint8_t *in_s;       /* JT_M_TABLE: [D] membership */
} jt_eval;

/* An evaluation of candidates cm (word indices cid, or NULL: candidate c is word c) over the
 * targets sm, writing class sizes to cnt and, if q is not NULL, q; uniform weights, bit-sliced
 * counting.  Callers set the rest (weights, table method) when they need them. */
static inline jt_eval jt_eval_of(const jt_words *w, int32_t m, const uint32_t *sm, int32_t nc,
                                 const int32_t *cid, const uint32_t *cm, uint16_t *cnt,
                                 uint64_t *q)
{
    jt_eval ev = {0};
    ev.w = w;
    ev.m = m;
    ev.sm = sm;
    ev.nc = nc;
    ev.cid = cid;
    ev.cm = cm;
    ev.cnt = cnt;
    ev.q = q;
    ev.vmin = 1;
    return ev;
}

/* The kernels one instruction-set level provides (x86-64 base/v2/v3/v4, aarch64 base/neon). */
typedef struct {
    const char *name;
    /* Class sizes, and q(c) = sum_{i in S} v_i n_{reply(c,i)}(c) if ev->q, for c in [c0, c1). */
    void (*evaluate)(const jt_eval *ev, int32_t c0, int32_t c1);
    /* q(c) += delta n_{reply(c, target)}(c) for every candidate (a weight changed by delta). */
    void (*add_weight)(const jt_eval *ev, uint32_t target, uint64_t delta);
    /* The least q, and (if first is not NULL) the first c where it is. */
    uint64_t (*min_q)(const uint64_t *q, int32_t n, int32_t *first);
    /* Writes the c with q[c] <= lim to out, increasing; returns how many.  out has room for
     * n + 16 entries (vector stores may write past the last). */
    int32_t (*select_le)(const uint64_t *q, int32_t n, uint64_t lim, int32_t *out);
    /* The paper's ExpNumElims for mask cm over S, evaluated literally in IEEE double. */
    double (*exp_num_elims)(uint32_t cm, const uint32_t *sm, const double *hs, int32_t m,
                            int32_t L, double total);
} jt_kernels;

const jt_kernels *jt_kernels_base(void);
const jt_kernels *jt_kernels_v2(void);
const jt_kernels *jt_kernels_v3(void);
const jt_kernels *jt_kernels_v4(void);
const jt_kernels *jt_kernels_neon(void);

/* The variant in use (dispatch.c). */
const jt_kernels *jt_kernels_current(void);

#endif
