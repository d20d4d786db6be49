/* search_cost_memo.c -- the memo of a cost search (search_cost_internal.h): open addressing
 * with linear probing over (state keys, canonical depth), doubling while it is half full and
 * within its byte limit, then keeping only what it holds (a full memo changes the work, never
 * a result). */
#include <stdlib.h>

#include "search_cost_internal.h"

#define FIRST_SLOTS 1024

static uint64_t slot_of(uint64_t k1, int32_t dc, uint64_t cap)
{
    uint64_t x = k1 ^ ((uint64_t)(uint32_t)dc * 0x9E3779B97F4A7C15ull);
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return x & (cap - 1);
}

void cs_memo_init(cs_memo *mm, size_t max_bytes)
{
    mm->tab = NULL;
    mm->cap = mm->n = 0;
    mm->max_bytes = max_bytes;
}

void cs_memo_free(cs_memo *mm)
{
    free(mm->tab);
    cs_memo_init(mm, mm->max_bytes);
}

static cs_entry *find_slot(const cs_memo *mm, uint64_t k1, uint64_t k2, int32_t dc)
{
    if (!mm->cap)
        return NULL;
    for (uint64_t i = slot_of(k1, dc, mm->cap);; i = (i + 1) & (mm->cap - 1)) {
        cs_entry *e = mm->tab + i;
        if (!e->d1 || (e->k1 == k1 && e->k2 == k2 && e->d1 == dc + 1))
            return e;
    }
}

const cs_entry *cs_memo_find(const cs_memo *mm, uint64_t k1, uint64_t k2, int32_t dc)
{
    const cs_entry *e = find_slot(mm, k1, k2, dc);
    return e && e->d1 ? e : NULL;
}

/* Double the table (or make the first one); 0 if the byte limit or memory forbids it. */
static int grow(cs_memo *mm)
{
    const uint64_t cap = mm->cap ? 2 * mm->cap : FIRST_SLOTS;
    if (cap * sizeof(cs_entry) > mm->max_bytes)
        return 0;
    cs_entry *tab = calloc(cap, sizeof(cs_entry));
    if (!tab)
        return 0;
    cs_memo old = *mm;
    mm->tab = tab;
    mm->cap = cap;
    for (uint64_t i = 0; i < old.cap; i++)
        if (old.tab[i].d1)
            *find_slot(mm, old.tab[i].k1, old.tab[i].k2, old.tab[i].d1 - 1) = old.tab[i];
    free(old.tab);
    return 1;
}

void cs_memo_store(cs_memo *mm, uint64_t k1, uint64_t k2, int32_t dc, uint64_t val,
                  int32_t guess)
{
    cs_entry *e = find_slot(mm, k1, k2, dc);
    if (e && e->d1) {
        if (e->guess >= 0)
            return; /* exact already */
        if (guess >= 0 || val > e->val) {
            e->val = val;
            e->guess = guess;
        }
        return;
    }
    if (2 * (mm->n + 1) > mm->cap) {
        if (!grow(mm) && (!mm->cap || 10 * (mm->n + 1) > 9 * mm->cap))
            return; /* full: the state is not kept */
        e = find_slot(mm, k1, k2, dc);
    }
    e->k1 = k1;
    e->k2 = k2;
    e->val = val;
    e->guess = guess;
    e->d1 = dc + 1;
    mm->n++;
}
