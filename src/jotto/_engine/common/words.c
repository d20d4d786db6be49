/* words.c -- word lists as the core sees them, and the exact rule's integer weights. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

static int64_t binom(int n, int k)
{
    if (k < 0 || k > n)
        return 0;
    int64_t r = 1;
    for (int i = 0; i < k; i++)
        r = r * (n - i) / (i + 1);
    return r;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Masks must be distinct, each of L letters: the engine relies on both. */
static int masks_valid(const uint32_t *masks, int32_t D, int32_t L)
{
    uint32_t *sorted = malloc(sizeof(uint32_t) * D);
    if (!sorted)
        return 0;
    int ok = 1;
    for (int32_t i = 0; i < D && ok; i++) {
        ok = !(masks[i] >> 26) && __builtin_popcount(masks[i]) == L;
        sorted[i] = masks[i];
    }
    if (ok) {
        qsort(sorted, D, sizeof(uint32_t), cmp_u32);
        for (int32_t i = 1; i < D && ok; i++)
            ok = sorted[i] != sorted[i - 1];
    }
    free(sorted);
    return ok;
}

/* Renumber the subset ranks raw[D*nsub] to those some word has, in increasing order, into
 * jt_words.subrank: the subset tables (jt_eval.table, utable) then hold only subsets that occur,
 * 7640 instead of 17901 for TWL06's 5-letter words, and a big node's counts (15 KiB) stay in L1
 * while its candidates look them up.  The ranks are 16-bit (four to a 64-bit load in the table
 * kernels, sweeps_table.h): a list whose words have more than 2^16 distinct subsets (only
 * 6-letter lists can: TWL06's have 23,523) gets no tables, and the sweeps count its big nodes. */
static int compact_ranks(jt_words *w, const int32_t *raw)
{
    const size_t n = (size_t)w->D * (size_t)w->nsub;
    int32_t *id = malloc(sizeof(int32_t) * (size_t)w->table_size);
    if (!id)
        return 0;
    for (int32_t r = 0; r < w->table_size; r++)
        id[r] = 0;
    for (size_t i = 0; i < n; i++)
        id[raw[i]] = 1;
    int32_t next = 0;
    for (int32_t r = 0; r < w->table_size; r++)
        id[r] = id[r] ? next++ : -1;
    if (next <= 0x10000) {
        w->subrank = calloc(n + 4, sizeof(uint16_t)); /* + 4: the last word's 64-bit loads */
        for (size_t i = 0; w->subrank && i < n; i++)
            w->subrank[i] = (uint16_t)id[raw[i]];
    }
    w->table_size = next;
    free(id);
    return w->subrank || next > 0x10000;
}

/* Rank every proper non-empty subset of every word: a subset a_1 < ... < a_s of letters gets
 * base[s] + sum_j C(a_j, j) (the combinatorial number system), so subsets of one size of the
 * 26 letters get distinct consecutive ranks. */
static int build_subset_ranks(jt_words *w)
{
    const int L = w->L;
    int32_t base[JT_TABLE_MAXL + 1];
    base[1] = 0;
    for (int s = 2; s <= L; s++)
        base[s] = base[s - 1] + (int32_t)binom(26, s - 1);
    w->table_size = base[L];
    w->nsub = 0;
    for (int s = 1; s < L; s++) {
        w->nsub_of[s] = (int32_t)binom(L, s);
        w->nsub += w->nsub_of[s];
    }
    int32_t *raw = malloc(sizeof(int32_t) * (size_t)w->D * w->nsub);
    if (!raw)
        return 0;
    for (int32_t i = 0; i < w->D; i++) {
        uint8_t lt[JT_TABLE_MAXL];
        int k = 0;
        for (int b = 0; b < 26; b++)
            if ((w->mask[i] >> b) & 1)
                lt[k++] = (uint8_t)b;
        int32_t *out = raw + (size_t)i * w->nsub;
        int pos = 0;
        for (int s = 1; s < L; s++) {
            for (uint32_t sub = 1; sub < (1u << L); sub++) {
                if (__builtin_popcount(sub) != s)
                    continue;
                int64_t r = base[s];
                int j = 1;
                for (int b = 0; b < L; b++)
                    if ((sub >> b) & 1)
                        r += binom(lt[b], j++);
                out[pos++] = (int32_t)r;
            }
        }
    }
    const int ok = compact_ranks(w, raw);
    free(raw);
    return ok;
}

/* Every word's letters (or token indices, or spelling) by position, for the bit-sliced kernels
 * (engine_internal.h). */
static int build_letters(jt_words *w)
{
    w->lstride = w->D + JT_LETTER_PAD;
    w->letters = malloc((size_t)w->lstride * w->L);
    if (!w->letters)
        return 0;
    memset(w->letters, JT_NO_LETTER, (size_t)w->lstride * w->L);
    for (int32_t i = 0; i < w->D; i++) {
        int p = 0;
        if (w->slicing == JT_SLICE_PLACE) {
            for (; p < w->L; p++)
                w->letters[(size_t)p * w->lstride + i] = (uint8_t)((w->spell[i] >> (8 * p)) - 1);
            continue;
        }
        for (uint64_t x = w->slicing == JT_SLICE_TOKENS ? w->tok[i] : w->mask[i]; x; x &= x - 1)
            w->letters[(size_t)p++ * w->lstride + i] = (uint8_t)__builtin_ctzll(x);
        for (; w->slicing == JT_SLICE_TOKENS && p < w->L; p++)
            w->letters[(size_t)p * w->lstride + i] = w->pad;
    }
    if (w->mode == JT_MODE_GENERAL)
        return 1;
    const size_t n = (size_t)w->lstride * w->L;
    w->shuf = malloc(n);
    if (!w->shuf)
        return 0;
    for (size_t k = 0; k < n; k++)
        w->shuf[k] = w->letters[k] | (w->letters[k] > 15 ? 0x80 : 0);
    return 1;
}

/* Whether every word's tokens are the letters of its spelling (bit k: letter k+1), each once:
 * then letters in common are counted from the spellings alone (PLACE). */
static int tokens_spell_letters(const jt_words *w)
{
    for (int32_t i = 0; i < w->D; i++) {
        uint64_t letters = 0;
        for (int p = 0; p < w->L; p++)
            letters |= (uint64_t)1 << (((w->spell[i] >> (8 * p)) & 0xff) - 1);
        if (letters != w->tok[i] || jt_pc64(letters) != w->L)
            return 0;
    }
    return 1;
}

/* GENERAL mode: which bit-sliced counting fits the list (enum jt_slicing). */
static void choose_slicing(jt_words *w)
{
    uint64_t used = 0;
    for (int32_t i = 0; i < w->D; i++)
        used |= w->tok[i];
    if (w->spell)
        w->slicing = tokens_spell_letters(w) ? JT_SLICE_PLACE : JT_SLICE_PAIRS;
    else
        w->slicing = ~used ? JT_SLICE_TOKENS : JT_SLICE_PAIRS;
    w->pad = (uint8_t)(~used ? __builtin_ctzll(~used) : 0);
}

/* The root's class sizes over every reply code (R rows; the raw popcount classes 0..L in ANAGRAM
 * mode, which the tree builder corrects per tree): by subset tables where the words have them,
 * bit-sliced for lists small enough (|S| D pairs), else left to each build; none when counted
 * pair by pair. */
static int count_root(jt_words *w)
{
    const size_t D = (size_t)w->D;
    const int general = w->mode == JT_MODE_GENERAL;
    if ((!w->subrank && D > 8192) || (general && w->slicing == JT_SLICE_PAIRS))
        return 1;
    w->root_cnt = calloc(D * w->R, sizeof(uint16_t));
    uint16_t *table = w->subrank ? calloc((size_t)w->table_size, sizeof(uint16_t)) : NULL;
    uint8_t *in_s = w->subrank ? malloc(D) : NULL;
    int32_t *all = general ? malloc(sizeof(int32_t) * D) : NULL;
    uint64_t *stok = general ? malloc(sizeof(uint64_t) * 2 * D) : NULL;
    const int ok = w->root_cnt && (!w->subrank || (table && in_s)) && (!general || (all && stok));
    if (ok) {
        for (int32_t i = 0; general && i < w->D; i++)
            all[i] = i;
        jt_eval ev = jt_eval_of(w, w->D, w->mask, all, w->D, NULL, w->mask, w->root_cnt, NULL);
        if (w->subrank) {
            ev.method = JT_M_TABLE;
            for (size_t i = 0; i < D * (size_t)w->nsub; i++)
                table[w->subrank[i]]++;
            memset(in_s, 1, D);
            ev.table = table;
            ev.in_s = in_s;
        }
        if (general) {
            jt_gather_s(&ev, all, w->D, stok, stok + D);
            jt_kernels_current()->evaluate_codes(&ev, 0, w->D);
        } else {
            jt_kernels_current()->evaluate(&ev, 0, w->D);
        }
    }
    free(table);
    free(in_s);
    free(all);
    free(stok);
    return ok;
}

/* The shared part of both constructors: w->D, L, mode, keep_all, tok, spell are set. */
static jt_words *words_finish(jt_words *w)
{
    const int32_t D = w->D, L = w->L;
    w->R = w->spell ? (L + 1) * (L + 1) : w->keep_all ? L + 2 : L + 1;
    w->win = w->spell ? L + (L + 1) * L : L;
    w->branch = w->spell ? (L + 1) * (L + 2) / 2 - 2 : w->keep_all ? L + 1 : L;
    for (int p = 0; p < L && w->spell; p++)
        w->place |= (uint64_t)0x80 << (8 * p);
    w->mask = malloc(sizeof(uint32_t) * D);
    if (!w->mask)
        goto fail;
    for (int32_t i = 0; i < D; i++)
        w->mask[i] = (uint32_t)w->tok[i];
    if (w->mode == JT_MODE_ANAGRAM) { /* each mask's words in order: sort indices by mask */
        w->family = malloc(sizeof(int32_t) * D);
        w->fam_next = malloc(sizeof(int32_t) * D);
        uint64_t *key = malloc(sizeof(uint64_t) * D);
        if (!w->family || !w->fam_next || !key) {
            free(key);
            goto fail;
        }
        for (int32_t i = 0; i < D; i++)
            key[i] = (uint64_t)w->mask[i] << 32 | (uint32_t)i;
        qsort(key, D, sizeof(uint64_t), cmp_u64);
        for (int32_t k = 0, first = 0; k < D; k++) {
            if (k == 0 || key[k] >> 32 != key[k - 1] >> 32)
                first = (int32_t)(uint32_t)key[k];
            w->family[(uint32_t)key[k]] = first;
            const int last = k + 1 == D || key[k + 1] >> 32 != key[k] >> 32;
            w->fam_next[(uint32_t)key[k]] = last ? -1 : (int32_t)(uint32_t)key[k + 1];
        }
        free(key);
    }
    if ((w->mode != JT_MODE_GENERAL || w->slicing != JT_SLICE_PAIRS) && !build_letters(w))
        goto fail;
    if (w->mode == JT_MODE_PAPER && L >= 2 && L <= JT_TABLE_MAXL && !build_subset_ranks(w))
        goto fail;
    if (!count_root(w))
        goto fail;
    return w;
fail:
    jt_words_free(w);
    return NULL;
}

jt_words *jt_words_new(const uint32_t *masks, int32_t D, int32_t L)
{
    if (D < 1 || D > JT_MAX_WORDS || L < 1 || L > JT_MAX_LEN || !masks_valid(masks, D, L))
        return NULL;
    jt_words *w = calloc(1, sizeof(jt_words));
    if (!w)
        return NULL;
    w->D = D;
    w->L = L;
    w->mode = JT_MODE_PAPER;
    w->tok = malloc(sizeof(uint64_t) * D);
    if (!w->tok) {
        free(w);
        return NULL;
    }
    for (int32_t i = 0; i < D; i++)
        w->tok[i] = masks[i];
    return words_finish(w);
}

/* Whether some value occurs twice among the D keys (sorted in place). */
static int has_repeat(uint64_t *key, int32_t D)
{
    qsort(key, D, sizeof(uint64_t), cmp_u64);
    for (int32_t i = 1; i < D; i++)
        if (key[i] == key[i - 1])
            return 1;
    return 0;
}

/* A spelling of L letters 1..26 in the low L bytes, zero above. */
static int spelling_valid(uint64_t s, int32_t L)
{
    for (int p = 0; p < 8; p++) {
        const unsigned b = (unsigned)(s >> (8 * p)) & 0xff;
        if (p < L ? (b < 1 || b > 26) : b != 0)
            return 0;
    }
    return 1;
}

jt_words *jt_words_new_rules(const uint64_t *tokens, const uint64_t *spell, int32_t D, int32_t L,
                             int flags)
{
    const int positional = (flags & JT_POSITIONAL) != 0, keep_all = (flags & JT_KEEP_ALL) != 0;
    if (D < 1 || D > JT_MAX_WORDS || L < 1 || L > JT_MAX_LEN || !tokens ||
        (flags & ~(JT_KEEP_ALL | JT_POSITIONAL | JT_HARD)) || positional != (spell != NULL) ||
        (positional && L > JT_MAX_POS_LEN))
        return NULL;
    uint64_t *key = malloc(sizeof(uint64_t) * D);
    jt_words *w = calloc(1, sizeof(jt_words));
    if (!key || !w) {
        free(key);
        free(w);
        return NULL;
    }
    w->D = D;
    w->L = L;
    w->keep_all = keep_all;
    w->hard = (flags & JT_HARD) != 0;
    int ok = 1, narrow = 1; /* narrow: distinct-letter words, L letters of 26 each */
    int32_t nfull = 0;
    for (int32_t i = 0; i < D && ok; i++) {
        const int n = jt_pc64(tokens[i]);
        ok = n <= L && (!spell || spelling_valid(spell[i], L));
        narrow &= n == L && !(tokens[i] >> 26);
        if (n == L)
            key[nfull++] = tokens[i];
    }
    /* equal full token sets would make a reply of L letters ambiguous without keep-all */
    ok = ok && (keep_all || !has_repeat(key, nfull));
    if (ok && spell) {
        memcpy(key, spell, sizeof(uint64_t) * D);
        ok = !has_repeat(key, D);
    }
    free(key);
    w->tok = ok ? malloc(sizeof(uint64_t) * D) : NULL;
    w->spell = ok && spell ? malloc(sizeof(uint64_t) * D) : NULL;
    if (!w->tok || (spell && !w->spell)) {
        jt_words_free(w);
        return NULL;
    }
    memcpy(w->tok, tokens, sizeof(uint64_t) * D);
    if (spell)
        memcpy(w->spell, spell, sizeof(uint64_t) * D);
    w->mode = spell || !narrow ? JT_MODE_GENERAL : keep_all ? JT_MODE_ANAGRAM : JT_MODE_PAPER;
    if (w->mode == JT_MODE_GENERAL)
        choose_slicing(w);
    return words_finish(w);
}

int32_t jt_words_classes(const jt_words *w) { return w->R; }
int32_t jt_words_win(const jt_words *w) { return w->win; }
int32_t jt_words_branches(const jt_words *w) { return w->branch; }
int jt_words_flags(const jt_words *w)
{
    return (w->keep_all ? JT_KEEP_ALL : 0) | (w->spell ? JT_POSITIONAL : 0) | (w->hard ? JT_HARD : 0);
}

void jt_words_free(jt_words *w)
{
    if (!w)
        return;
    free(w->mask);
    free(w->tok);
    free(w->spell);
    free(w->family);
    free(w->fam_next);
    free(w->letters);
    free(w->shuf);
    free(w->subrank);
    free(w->root_cnt);
    free(w);
}

double jt_integer_weights(const double *h, int32_t D, int64_t *v)
{
    double hmax = 0.0;
    for (int32_t i = 0; i < D; i++) {
        if (!(h[i] >= 0) || !isfinite(h[i]))
            return -1.0;
        if (h[i] > hmax)
            hmax = h[i];
    }
    if (hmax == 0.0) {
        for (int32_t i = 0; i < D; i++)
            v[i] = 0;
        return 0.0;
    }
    int lg = 0; /* ceil(log2 D) */
    while (((int64_t)1 << lg) < D)
        lg++;
    const int B = 62 - 2 * lg;
    int e;
    frexp(hmax, &e); /* hmax < 2^e <= 2 hmax */
    double err = 0.0;
    for (int32_t i = 0; i < D; i++) {
        const double x = ldexp(h[i], B - e);
        const double r = nearbyint(x);
        v[i] = (int64_t)r;
        if (fabs(x - r) > err)
            err = fabs(x - r);
    }
    return err;
}
