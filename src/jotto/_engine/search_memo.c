/* search_memo.c -- the memo of a best-response search: exact values and proven lower bounds per
 * state, keyed by the state's Zobrist key with its members compared in full, in at most the
 * search's memory (then bounds give way to new states, exact values never do). */
#include <stdlib.h>

#include "search_internal.h"

size_t bs_memo_bytes_used(const jt_bsearch *s)
{
    size_t b = 0;
    for (int i = 0; i < 2; i++)
        b += s->memo[i].cap * sizeof(entry) + s->memo[i].acap;
    return b;
}

void bs_memo_clear(memo *mm)
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

entry *bs_memo_find(const memo *mm, uint64_t key, int32_t m, const int32_t *S)
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
const entry *bs_memo_find_class(const jt_bsearch *s, const memo *mm, uint64_t key, int32_t m,
                                int32_t c, int j, const uint8_t *in_s)
{
    const entry *e;
    BY_GEN(s, memo_find_class_body, s, mm, key, m, c, j, in_s, &e);
    return e;
}

/* Move the memo's entries of states of at most max_m members into a new table of ncap slots
 * (their members stay where they are in the arena).  Returns 0 if memory ran out. */
int bs_rehash(memo *mm, uint64_t ncap, int32_t max_m)
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
    if (bs_memo_bytes_used(s) + ncap * sizeof(entry) > s->memo_bytes)
        return 0;
    return bs_rehash(mm, ncap, UINT16_MAX);
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
void bs_memo_store(jt_bsearch *s, uint64_t key, int32_t m, const int32_t *S, uint64_t val,
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
        const size_t used = bs_memo_bytes_used(s);
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

void jt_bs_memo_stats(const jt_bsearch *s, int64_t *states, int64_t *bytes)
{
    *states = (int64_t)(s->memo[0].n + s->memo[1].n);
    *bytes = (int64_t)bs_memo_bytes_used(s);
}
