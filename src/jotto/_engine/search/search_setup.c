/* search_setup.c -- making a best-response search (jotto_search.h): the words checked, their
 * weights and Zobrist keys, the tables of the counting bound; and freeing it. */
#include <stdlib.h>

#include "search_internal.h"

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void jt_bs_free(jt_bsearch *s)
{
    if (!s)
        return;
    int64_t records;
    jt_bs_cert_close(s, &records);  /* a certificate left open: its stream ends here */
    bs_workers_free(s);
    bs_memo_clear(s, &s->memo[0]);
    bs_memo_clear(s, &s->memo[1]);
    free(s->busy);
    free(s->upper);
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
    s->bounds = JT_BS_DEFAULT_BOUNDS;
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
    s->nthreads = 1;
    if (!s->mask || !s->tok || (s->positional && !s->spell) || !s->v || !s->z || !s->pos ||
        !s->cb || !bs_workers(s, 1)) {
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
    bs_family_tables(s);
    *status = JT_OK;
    return s;
}
