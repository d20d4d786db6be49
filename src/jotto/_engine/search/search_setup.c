/* search_setup.c -- making a best-response search (jotto_search.h) over a word list: its rules,
 * reply codes and branching as the list carries them, the weights and Zobrist keys, the tables
 * of the counting bound; and freeing it. */
#include <stdlib.h>

#include "common/engine_internal.h"
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

jt_bsearch *jt_bs_new(const jt_words *words, const int64_t *v, size_t memo_bytes, int *status)
{
    *status = JT_EINVAL;
    if (!words)
        return NULL;
    const int32_t D = words->D, L = words->L;
    for (int32_t i = 0; v && i < D; i++)
        if (v[i] < 0)
            return NULL;
    *status = JT_ENOMEM;
    jt_bsearch *s = calloc(1, sizeof(jt_bsearch));
    if (!s)
        return NULL;
    s->words = words;
    s->D = D;
    s->L = L;
    s->R = words->R;
    s->branch = words->branch;
    s->positional = words->spell != NULL;
    s->keep_all = words->keep_all;
    s->win = s->keep_all && !s->positional ? s->R - 1 : words->win; /* search_internal.h */
    s->hard = words->hard;
    s->gen = words->mode == JT_MODE_PAPER ? 0 : s->positional ? 2 : 1;
    s->bounds = JT_BS_DEFAULT_BOUNDS;
    s->mask = words->mask;
    s->tok = words->tok;
    s->spell = words->spell;
    s->memo_bytes = memo_bytes;
    s->v = malloc(sizeof(uint64_t) * (size_t)D);
    s->z = malloc(sizeof(uint64_t) * (size_t)D);
    s->pos = malloc(sizeof(int32_t) * (size_t)D);
    s->cb = malloc(sizeof(uint64_t) * ((size_t)D + 1));
    s->nthreads = 1;
    if (!s->v || !s->z || !s->pos ||
        !s->cb || !bs_workers(s, 1)) {
        jt_bs_free(s);
        return NULL;
    }
    uint64_t seed = 0x6a6f74746f000000ull;
    for (int32_t i = 0; i < D; i++) {
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
