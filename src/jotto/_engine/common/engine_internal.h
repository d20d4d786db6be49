/* engine_internal.h -- data shared by the orchestration (tree.c and its neighbours) and the hot
 * kernels (laid out in kernels.h: compiled per instruction-set level, chosen at run time by
 * dispatch.c). */
#ifndef JOTTO_ENGINE_INTERNAL_H
#define JOTTO_ENGINE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "jotto_engine.h"
#include "jotto_reply.h"

/* Words up to this length get subset-count tables (2^L - 2 subsets per word). */
#define JT_TABLE_MAXL 6
/* Rows of jt_words.letters run this far past the last word (vector loads of 64 lanes). */
#define JT_LETTER_PAD 64
/* The letter code of padding: no word has it, so it is in no target. */
#define JT_NO_LETTER 31

/* How the kernels count a list's replies.
 *  - PAPER: distinct 26-bit masks of L letters, reply = popcount of the AND (today's lists, and
 *    every rule set whose words fit them: paper, norvig, hard); the bit-sliced kernels and subset
 *    tables as they are.
 *  - ANAGRAM: keep-all lists of distinct-letter words (eckler): the kernels count the popcount
 *    replies of the 26-bit masks ("raw": an anagram family's members all land in class L), and
 *    fix_anagrams (node_eval.c) moves the family's other members to class L+1, exactly, weights too.
 *  - GENERAL: every other list (repeated-letter tokens, positional): jt_code per pair. */
enum jt_mode { JT_MODE_PAPER = 0, JT_MODE_ANAGRAM = 1, JT_MODE_GENERAL = 2 };

/* How the GENERAL kernels count (kernels.c, evaluate_codes):
 *  - TOKENS: no positional reply and some token index no word holds (jt_words.pad): bit-sliced
 *    like PAPER over 64-entry token tables, then each candidate's own reply moved to the win and,
 *    under keep-all, class L to L+1 (perl: multiset counting, 62 tokens at 5 letters).
 *  - PLACE: positional replies on distinct-letter words: bit-sliced sums of the letters in
 *    common out of place and of the letters in place, counted together (positional).
 *  - PAIRS: anything else (64 tokens in use, positional with repeated letters): code per pair. */
enum jt_slicing { JT_SLICE_PAIRS = 0, JT_SLICE_TOKENS = 1, JT_SLICE_PLACE = 2 };

struct jt_words {
    int32_t D, L;
    int32_t R;          /* reply codes: L+1, L+2 (keep-all), (L+1)^2 (positional) */
    int32_t win;        /* the win's code */
    int32_t branch;     /* non-winning replies a guess can get, at most (jt_words_branches) */
    int mode;           /* enum jt_mode */
    int keep_all;       /* JT_KEEP_ALL given */
    int hard;           /* JT_HARD given */
    int slicing;        /* GENERAL mode: enum jt_slicing */
    uint8_t pad;        /* TOKENS: a token index no word holds (its table entries stay 0) */
    uint32_t *mask;     /* [D] the 26-bit masks (PAPER, ANAGRAM), else the tokens' low 32 bits */
    uint64_t *tok;      /* [D] token sets */
    uint64_t *spell;    /* [D] spellings (positional) or NULL */
    uint64_t place;     /* 0x80 in each of the low L bytes: the bytes spell compares */
    int32_t *family;    /* [D] ANAGRAM: the first word with the same mask */
    int32_t *fam_next;  /* [D] ANAGRAM: the next word with the same mask, or -1 */
    /* The letters of every word, by position: letters[p * lstride + i] is the p-th smallest
     * letter (0..25) of word i; each row is padded with JT_NO_LETTER to lstride = D + 64.
     * TOKENS: the p-th smallest token index (0..63), pad past the word's tokens; PLACE: the
     * letter at position p of the spelling. */
    uint8_t *letters;
    int32_t lstride;
    /* PAPER and ANAGRAM modes: the letters again, bit 7 set on those above 15 (the indices the
     * SSSE3/AVX2 kernels' two 16-entry shuffles of a 32-entry table take: idx_of), which they
     * load instead of computing them for every register of candidates at every node; else NULL */
    uint8_t *shuf;
    /* Subset tables (2 <= L <= JT_TABLE_MAXL): the rank of every proper non-empty subset of
     * every word, by size: the nsub_of[s] subsets of size s follow those of size s-1. */
    int32_t nsub;
    int32_t nsub_of[JT_TABLE_MAXL + 1];
    uint16_t *subrank;  /* [D*nsub + 4] or NULL (no tables: words.c, compact_ranks) */
    int32_t table_size; /* number of distinct ranks */
    /* Class sizes of every word over all words ([R*D], structure-of-arrays, raw popcount
     * classes 0..L in ANAGRAM mode), the root's of every tree whatever the weights; NULL when
     * too costly to make up front, and in GENERAL mode counted pair by pair (JT_SLICE_PAIRS). */
    uint16_t *root_cnt;
};

static inline int jt_pc64(uint64_t x)
{
#if defined(__POPCNT__) || defined(__aarch64__)
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555u);
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return (int)((x * 0x0101010101010101u) >> 56);
#endif
}

/* Letters in common of tokens tg and tt, plus (L+1) times letters in place of spellings sg and st
 * when ``positional``: a guess's code to a different target, before the keep-all anagram code. */
static inline __attribute__((always_inline)) int jt_code_values(const jt_words *w, uint64_t tg,
                                                                uint64_t sg, uint64_t tt,
                                                                uint64_t st, const int positional)
{
    const int a = jt_pc64(tg & tt);
    return positional ? a + (w->L + 1) * jt_pc64(jt_same_letters(sg, st, w->place)) : a;
}

/* The reply code of guess g to target t (jotto_engine.h, jt_words_new_rules): the one definition
 * the GENERAL kernels, tree building and updates share. */
static inline int jt_code(const jt_words *w, int32_t g, int32_t t)
{
    if (g == t)
        return w->win;
    if (w->spell)
        return jt_code_values(w, w->tok[g], w->spell[g], w->tok[t], w->spell[t], 1);
    const int a = jt_code_values(w, w->tok[g], 0, w->tok[t], 0, 0);
    return a == w->L && w->keep_all ? w->L + 1 : a;
}

/* Bit-sliced counting (kernels_sweeps.h), or subset tables (for big S, cost independent of |S|). */
enum jt_method { JT_M_SLICED = 0, JT_M_TABLE = 1 };

/* One node's candidates while they are evaluated. */
typedef struct {
    const jt_words *w;
    int method;
    int32_t m;
    const uint32_t *sm;        /* masks of S */
    const int32_t *sid;        /* word indices of S (GENERAL mode) */
    const uint64_t *stok;      /* GENERAL mode: tokens of S ... */
    const uint64_t *sspell;    /* ... and spellings (positional), gathered (jt_gather_s) */
    int32_t nc;                /* candidates */
    const int32_t *cid;        /* their word indices (NULL: candidate c is word c) */
    const uint32_t *cm;        /* their masks: cm[c] is the mask of word cid[c] (or c) */
    uint16_t *cnt;             /* [R*nc] out: cnt[j*nc + c] = n_j(c), or NULL (q only) */
    uint64_t *q;               /* [nc] out, or NULL (counts only) */
    /* [nc + 64] out instead of q when not NULL (jt_q16_fits): q(c) = vmin q16[c], or at a
     * weighted node (nspec > 0) qval[q16[c]], or with keys (qkey > 0) as jt_q16_value says */
    uint16_t *q16;
    /* Weighted nodes of more than JT_RANK_MAX targets with q16: the key multiplier (jt_q16_keys),
     * else 0 */
    uint32_t qkey;
    /* [JT_RANK_VALUES] out with q16 at weighted nodes: the values q takes, ascending, the rest
     * UINT64_MAX */
    uint64_t *qval;
    uint64_t vmin;             /* smallest weight over S */
    int32_t nspec;             /* targets of S weighing more than vmin */
    /* [m] when nspec > 0: the masks of S, the nspec heavier targets first (by excess), then the
     * others, so that a node's chunk tables can hold its heavier targets in the first chunks */
    const uint32_t *spec_mask;
    const uint64_t *spec_delta;
    const int32_t *spec_id;    /* their word indices (GENERAL mode) */
    int counted;               /* cnt already holds the class sizes: compute q only */
    const uint16_t *table;     /* JT_M_TABLE: [table_size] subset counts over S */
    /* JT_M_TABLE with heavier targets (jt_unit_table), or NULL: [table_size] subset sums of
     * their units u_i = excess / ustep (wrapping uint32: their total utot is below 2^32); ustep
     * and utot are also set with keys (jt_q16_keys) */
    const uint32_t *utable;
    uint64_t ustep;
    uint32_t utot;
    /* utable packed with the counts (jt_unit_table): each entry table[T] + 2^16 utable[T], so
     * that one look-up per subset gives both (m and utot below 2^16) */
    int packed;
    const uint8_t *in_s;       /* JT_M_TABLE, ANAGRAM mode: [D] membership of S */
    const int32_t *fam_n;      /* ANAGRAM mode: [D] members of S per family (jt_words.family) */
    const uint64_t *fam_v;     /* ... and their weight */
    const int64_t *wv;         /* each target's weight (NULL: each weighs vmin), for ANAGRAM
                                * mode's fix-up and a units table's candidate in S */
    /* PAPER mode, candidate c word c (jt_own_set): [D + 64] the size of each candidate's class L,
     * 1 if it is a target of S and else 0 (its own reply is the only L: no two words share a
     * letter set), and with keys its units there (own_u: excess / ustep of a heavier target, else
     * 0), which the vector kernels read instead of counting class L; NULL: counted. */
    const uint8_t *own_n, *own_u;
    /* Not NULL: the chunk tables of S's letters (jt_kernels.letter_tables, at most
     * JT_TABS_BYTES), built once for a big node whose candidates are counted chunk by chunk
     * (tree.c, decide_big), which would otherwise build them again for each chunk. */
    const void *tabs;
} jt_eval;

/* Bytes of the chunk tables of one segment of targets (kernels_sweeps.h, TABS_BUF). */
#define JT_TABS_BYTES 16384

/* The step of the heavier targets' excesses ev->spec_delta[0..nspec) (sorted, nspec > 0): their
 * gcd, each excess a multiple u_i of it; and the sum of those units into *units (below 2^63,
 * as the excesses' sum is).  One gcd step and one division per distinct excess. */
static inline uint64_t jt_excess_step(const jt_eval *ev, uint64_t *units)
{
    uint64_t step = 0;
    for (int32_t k = 0; k < ev->nspec; k++) {
        if (k && ev->spec_delta[k] == ev->spec_delta[k - 1])
            continue;
        uint64_t a = ev->spec_delta[k], b = step;
        while (b) {
            const uint64_t r = a % b;
            a = b;
            b = r;
        }
        step = a;
    }
    uint64_t total = 0, u = 0;
    for (int32_t k = 0; k < ev->nspec; k++) {
        if (!k || ev->spec_delta[k] != ev->spec_delta[k - 1])
            u = ev->spec_delta[k] / step;
        total += u;
    }
    *units = total;
    return step;
}

/* An evaluation of candidates cm (word indices cid, or NULL: candidate c is word c) over the
 * targets sm, writing class sizes to cnt and, if q is not NULL, q; uniform weights, bit-sliced
 * counting.  Callers set the rest (weights, table method) when they need them. */
static inline jt_eval jt_eval_of(const jt_words *w, int32_t m, const uint32_t *sm,
                                 const int32_t *sid, int32_t nc, const int32_t *cid,
                                 const uint32_t *cm, uint16_t *cnt, uint64_t *q)
{
    jt_eval ev = {0};
    ev.w = w;
    ev.m = m;
    ev.sm = sm;
    ev.sid = sid;
    ev.nc = nc;
    ev.cid = cid;
    ev.cm = cm;
    ev.cnt = cnt;
    ev.q = q;
    ev.vmin = 1;
    return ev;
}

/* Weighted nodes of at most JT_RANK_MAX targets give q as the rank of its value (jt_eval.qval),
 * which takes at most JT_RANK_VALUES values (the partitions of 4 targets are 15). */
#define JT_RANK_MAX 4
#define JT_RANK_VALUES 16

/* GENERAL mode: the tokens and spellings of the m targets S into stok, sspell (m each), for
 * ev's kernels. */
static inline void jt_gather_s(jt_eval *ev, const int32_t *S, int32_t m, uint64_t *stok,
                               uint64_t *sspell)
{
    const jt_words *w = ev->w;
    for (int32_t k = 0; k < m; k++) {
        stok[k] = w->tok[S[k]];
        sspell[k] = w->spell ? w->spell[S[k]] : 0;
    }
    ev->stok = stok;
    ev->sspell = sspell;
}

/* The kernels one instruction-set level provides (x86-64 base/v2/v3/v4, aarch64 base/neon). */
typedef struct {
    const char *name;
    /* Class sizes, and q(c) = sum_{i in S} v_i n_{reply(c,i)}(c) if ev->q, for c in [c0, c1)
     * (ANAGRAM mode: of the raw popcount classes 0..L, which fix_anagrams corrects). */
    void (*evaluate)(const jt_eval *ev, int32_t c0, int32_t c1);
    /* The same by reply codes (jt_code), for GENERAL mode: ev->sid (and spec_id) name S. */
    void (*evaluate_codes)(const jt_eval *ev, int32_t c0, int32_t c1);
    /* q(c) += delta n_{reply(c, target)}(c) for every candidate (a weight changed by delta;
     * PAPER mode). */
    void (*add_weight)(const jt_eval *ev, uint32_t target, uint64_t delta);
    /* The least q, and (if first is not NULL) the first c where it is. */
    uint64_t (*min_q)(const uint64_t *q, int32_t n, int32_t *first);
    /* Writes the c with q[c] <= lim to out, increasing; returns how many.  out has room for
     * n + 16 entries (vector stores may write past the last). */
    int32_t (*select_le)(const uint64_t *q, int32_t n, uint64_t lim, int32_t *out);
    /* The same two for 16-bit values (jt_eval.q16). */
    uint16_t (*min_q16)(const uint16_t *q, int32_t n, int32_t *first);
    int32_t (*select_le16)(const uint16_t *q, int32_t n, uint16_t lim, int32_t *out);
    /* The paper's ExpNumElims over S (masks sm, h in hs, summing to total) of words[0..n)
     * (masks in mask), evaluated literally in IEEE double, into e[0..n). */
    void (*exp_num_elims)(const uint32_t *mask, const int32_t *words, int32_t n,
                          const uint32_t *sm, const double *hs, int32_t m, int32_t L,
                          double total, double *e);
    /* Whether evaluate gives q in 16 bits at weighted nodes (jt_q16_fits: ranks, keys): the
     * vector levels; the scalar one counts such nodes faster than it finds their pair bits. */
    int q16_weighted;
    /* The measured cost rule of the counting method (jt_describe): PAPER-mode nodes of more
     * than table_above[0] targets (uniform weights over S), or table_above[1] (some heavier),
     * count with subset tables, whose cost hardly grows with |S|, smaller ones bit-sliced,
     * whose cost grows with it at this level's width (kernels.c has the measurements). */
    int32_t table_above[2];
    /* The chunk tables of ev's targets' letters, as the sweeps of PAPER and ANAGRAM lists
     * build them, into buf (JT_TABS_BYTES, 64-byte aligned); 0, or -1 when S takes more than
     * one segment of them (they are then built as the sweeps go). */
    int (*letter_tables)(const jt_eval *ev, void *buf);
} jt_kernels;

const jt_kernels *jt_kernels_base(void);
const jt_kernels *jt_kernels_v2(void);
const jt_kernels *jt_kernels_v3(void);
const jt_kernels *jt_kernels_v4(void);
const jt_kernels *jt_kernels_neon(void);

/* The variant in use (dispatch.c). */
const jt_kernels *jt_kernels_current(void);

/* Keys for the 16-bit q of a weighted node of m > JT_RANK_MAX targets.  Its heavier targets
 * weigh vmin + g u_i (g their excesses' step, units u_i <= 31 summing to utot <= 255: the
 * kernels' one-pass case), so q = vmin A + g B with A = sum_j n_j^2 in [m, m^2] and
 * B = sum_j n_j X_j <= m utot (X_j: the units in class j).  When vmin (m^2 - m) < g, a
 * difference in B outweighs any in A: q orders and ties exactly as the key B K + A, K = m^2 + 1,
 * which fits 16 bits when m utot K + m^2 does.  Fictitious play's weights 1 + D c (c: times
 * chosen) give such nodes up to about 16 targets.  Sets ev->qkey = K, ev->ustep = g and
 * ev->utot, or ev->qkey = 0 where keys do not fit; call before jt_q16_fits. */
static inline void jt_q16_keys(jt_eval *ev)
{
    ev->qkey = 0;
    const uint64_t m = (uint64_t)ev->m;
    if (!ev->nspec || m <= JT_RANK_MAX || m > 248 || !ev->vmin)
        return;
    uint64_t utot;
    const uint64_t g = jt_excess_step(ev, &utot);
    const uint64_t K = m * m + 1;
    if (ev->spec_delta[ev->nspec - 1] / g > 31 || utot > 255 || ev->vmin > (g - 1) / (m * m - m) ||
        m * utot * K + m * m > UINT16_MAX)
        return;
    ev->qkey = (uint32_t)K;
    ev->ustep = g;
    ev->utot = (uint32_t)utot;
}

/* Whether the kernels can give q of ev in 16 bits (ev->q16), which costs a store per
 * half-register instead of one per candidate and is scanned 4x faster: q only (no class sizes),
 * bit-sliced letter counts, and either uniform positive weights over S with |S| <= 248, q as
 * vmin times sum_j n_j^2 (every n_j fits a byte counter, the sum 16 bits; the pick divides by
 * vmin, so zero weights, possible under the paper rule, keep q), or any weights with
 * |S| <= JT_RANK_MAX and q as the rank of its value (ev->qval, which the caller provides), or
 * weights that admit keys (jt_q16_keys), where the kernels do that. */
static inline int jt_q16_fits(const jt_eval *ev)
{
    return ev->w->mode == JT_MODE_PAPER && ev->q && !ev->cnt && !ev->counted &&
           ev->method == JT_M_SLICED &&
           (ev->nspec ? (ev->qkey || (ev->m <= JT_RANK_MAX && ev->qval)) &&
                            jt_kernels_current()->q16_weighted
                      : ev->vmin && ev->m <= 248);
}

/* q of a candidate whose 16-bit value (ev->q16) is x. */
static inline uint64_t jt_q16_value(const jt_eval *ev, uint16_t x)
{
    if (ev->nspec && ev->qkey)
        return ev->vmin * (x % ev->qkey) + ev->ustep * (x / ev->qkey);
    return ev->nspec ? ev->qval[x] : ev->vmin * x;
}

/* The largest 16-bit value (ev->q16) whose q is at most lim (at least qmin's when lim >= qmin). */
static inline uint16_t jt_q16_limit(const jt_eval *ev, uint64_t lim)
{
    if (ev->nspec && ev->qkey) {
        /* keys order as q: the last key (B, A), A in [m, m^2], with q <= lim has B = lim / g
         * if some A >= m is left for it, else B one less (then A >= (g / vmin) > m^2 - m >= m) */
        const uint64_t K = ev->qkey;
        uint64_t b = lim / ev->ustep, a = (lim - b * ev->ustep) / ev->vmin;
        if (b > UINT16_MAX / K)
            return UINT16_MAX;
        if (a < (uint64_t)ev->m) {
            if (!b)
                return 0; /* no key: every A is at least m */
            b--;
            a = (lim - b * ev->ustep) / ev->vmin;
        }
        const uint64_t x = b * K + (a < K ? a : K - 1);
        return x < UINT16_MAX ? (uint16_t)x : UINT16_MAX;
    }
    if (ev->nspec) {
        uint16_t r = 0;
        while (r + 1 < JT_RANK_VALUES && ev->qval[r + 1] <= lim)
            r++;
        return r;
    }
    const uint64_t x = lim / ev->vmin; /* vmin q16 <= lim exactly when q16 <= floor(lim / vmin) */
    return x < UINT16_MAX ? (uint16_t)x : UINT16_MAX;
}

#endif
