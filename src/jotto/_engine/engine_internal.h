/* engine_internal.h -- data shared by the orchestration (engine.c) and the hot kernels
 * (kernels.c, compiled once per x86-64 level and chosen at run time by dispatch.c). */
#ifndef JOTTO_ENGINE_INTERNAL_H
#define JOTTO_ENGINE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "jotto_engine.h"

/* Words up to this length get subset-count tables (2^L - 2 subsets per word). */
#define JT_TABLE_MAXL 6

struct jt_words {
    int32_t D, L;
    uint32_t *mask;     /* [D] */
    uint8_t *letters;   /* [D*L], increasing letter numbers of each word */
    /* Subset tables (L <= JT_TABLE_MAXL): the rank of every proper non-empty subset of every
     * word, grouped by size: subsets of size s are subrank[i*nsub + sub_start[s] ...]. */
    int32_t nsub;
    int32_t sub_start[JT_TABLE_MAXL + 2];
    int32_t *subrank;   /* [D*nsub] or NULL */
    int32_t table_size; /* number of distinct ranks */
    /* n_j = sum_s incl[s][j] * E_s (inclusion-exclusion from subset sums E_s) */
    int64_t incl[JT_TABLE_MAXL + 1][JT_TABLE_MAXL + 1];
};

/* One state S of the guesser and its decision. */
typedef struct jt_node {
    int32_t *S;         /* targets consistent here, increasing */
    int32_t m;
    int32_t depth;      /* guesses made before this node */
    int32_t guess;
    int32_t pending;    /* during an update: the guess re-decided here, else -1 */
    uint8_t fixed;      /* decision does not depend on (positive) weights: no candidate data */
    uint8_t dirty;      /* weights of some word of S changed since the last decision */
    struct jt_node *parent;
    struct jt_node **child; /* [L+1] or NULL for leaves */
    /* Candidates: groups of words that split S identically (same letters within the letters that
     * vary over S); rep is the lowest index of the group, smem its member in S or -1. */
    int32_t nc;
    int32_t *rep;
    int32_t *smem;
    uint16_t *cnt;      /* [nc*(L+1)]: targets of S giving each reply */
    uint64_t *q;        /* [nc]: sum over i in S of v_i * n_{reply(c, i)} */
    int32_t *win;       /* paper rule: positions of candidates within rounding distance of the best */
    int32_t nwin;
} jt_node;

enum jt_method { JT_M_DIRECT = 0, JT_M_BITS = 1, JT_M_TABLE = 2 };

/* Scratch describing S while its candidates are evaluated. */
typedef struct {
    const jt_words *w;
    jt_node *node;
    int method;
    uint32_t *sm;       /* masks of S */
    uint32_t or_, and_; /* union and intersection of the masks of S */
    int nb;             /* 64-target blocks */
    uint64_t *bits;     /* JT_M_BITS: [27*nb], targets having each letter, then an empty row */
    uint16_t *table;    /* JT_M_TABLE: [table_size] subset counts over S */
    uint8_t *in_s;      /* JT_M_TABLE: [D] membership */
    uint64_t vmin;      /* smallest weight over S */
    int32_t nspec;      /* targets of S weighing more than vmin */
    uint32_t *spec_mask;
    uint64_t *spec_delta;
} jt_nodework;

/* An open-addressing table reused across calls (see group() in kernels.c). */
typedef struct {
    uint32_t *slot;
    int32_t *vals;
    uint32_t gen;
    int32_t size; /* a power of two */
} jt_hash;

/* The kernels one x86-64 level provides. */
typedef struct {
    const char *name;
    /* Prepare bits / table for nw->method. */
    void (*prepare)(jt_nodework *nw);
    /* Class sizes and q of candidates [c0, c1) of nw->node. */
    void (*evaluate)(const jt_nodework *nw, int32_t c0, int32_t c1);
    /* The paper's ExpNumElims for mask cm over S, evaluated literally in IEEE double. */
    double (*exp_num_elims)(uint32_t cm, const uint32_t *sm, const double *hs, int32_t m,
                            int32_t L, double total);
    /* Group the candidates rep[0..n) (increasing) by their letters within `vary`, dropping those
     * with none; writes each group's lowest index (increasing) and its member of S (or -1) and
     * returns the number of groups.  ht: scratch of at least 2n slots. */
    int32_t (*group)(const uint32_t *mask, const int32_t *rep, int32_t n, uint32_t vary,
                     const int32_t *S, int32_t m, int32_t *out_rep, int32_t *out_smem,
                     jt_hash *ht);
} jt_kernels;

const jt_kernels *jt_kernels_base(void);
const jt_kernels *jt_kernels_v2(void);
const jt_kernels *jt_kernels_v3(void);
const jt_kernels *jt_kernels_v4(void);

/* The variant in use (dispatch.c). */
const jt_kernels *jt_kernels_current(void);

static inline int jt_popcount32(uint32_t x) { return __builtin_popcount(x); }
static inline int jt_popcount64(uint64_t x) { return __builtin_popcountll(x); }

#endif
