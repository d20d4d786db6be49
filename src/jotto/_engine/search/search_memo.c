/* search_memo.c -- the memo of a best-response search: exact values and proven lower bounds per
 * state, keyed by the state's Zobrist key with its members compared in full, in at most the
 * search's memory (then bounds give way to new states, exact values never do).
 *
 * The threads of a pass share it without waiting for each other.  A slot is read as a sequence
 * lock (its tag, search_internal.h: a reader copies the slot out and keeps the copy only if the
 * tag did not change meanwhile); a writer takes it by making its tag odd, and a writer that
 * finds it taken drops its write.  A dropped write, a slot skipped while another thread writes
 * it, an entry lost while the table moves to a larger one: each costs only a state searched
 * again, never a wrong value, so no thread ever waits for another (a thread descheduled while
 * holding a slot stalls nobody).  A table replaced by a larger one is kept until every thread
 * has entered a state since (another thread may still be reading it: epochs, bs_quiescent); the
 * members live in chunks that never move, each thread filling a chunk of its own. */
#include <stdlib.h>

#include "search_internal.h"

#define SEQ 0xFFFFull   /* the tag's sequence bits */
#define LOCKED 1ull
/* A memo starts with this many slots. */
#define FIRST_CAP 1024

static inline uint64_t key_bits(uint64_t key) { return key & ~SEQ; }

/* The first slot of a key's probe sequence: from the key's bits above the sequence. */
static inline uint64_t home(uint64_t key, uint64_t cap) { return (key >> 16) & (cap - 1); }

/* The tag of a slot written again: its sequence moved on, even, never 0. */
static inline uint64_t next_tag(uint64_t key, uint64_t old)
{
    uint64_t seq = (old & SEQ & ~LOCKED) + 2;
    return key_bits(key) | (seq > SEQ ? 2 : seq);
}

/* Take bytes of the search's memory limit; whether they were free. */
static int reserve(jt_bsearch *s, size_t bytes)
{
    size_t used = LOAD(&s->mem_used);
    do {
        if (used + bytes > s->memo_bytes || used + bytes < used)
            return 0;
    } while (!CAS(&s->mem_used, &used, used + bytes));
    return 1;
}

static void unreserve(jt_bsearch *s, size_t bytes)
{
    __atomic_fetch_sub(&s->mem_used, bytes, __ATOMIC_RELAXED);
}

size_t bs_memo_bytes_used(const jt_bsearch *s)
{
    return LOAD(&s->mem_used);
}

static size_t table_bytes(uint64_t cap)
{
    return sizeof(table) + cap * sizeof(entry);
}

static size_t chunk_bytes(const memo *mm)
{
    return ((size_t)1 << mm->chunk_bits) + 2;  /* + 2: a far member read at the end (below) */
}

static void free_tables(jt_bsearch *s, table *t)
{
    while (t) {
        table *next = t->next;
        unreserve(s, table_bytes(t->cap));
        free(t);
        t = next;
    }
}

void bs_memo_clear(jt_bsearch *s, memo *mm)
{
    if (mm->tab)
        mm->tab->next = mm->retired;
    free_tables(s, mm->tab ? mm->tab : mm->retired);
    for (uint32_t i = 0; mm->chunk && i < mm->nchunk; i++)
        if (mm->chunk[i]) {
            free(mm->chunk[i]);
            unreserve(s, chunk_bytes(mm));
        }
    if (mm->chunk)
        unreserve(s, sizeof(uint8_t *) * mm->chunk_cap);
    free(mm->chunk);
    const int k = mm == &s->memo[1];
    for (int i = 0; i < s->nwk; i++)
        s->wk[i].at[k] = s->wk[i].end[k] = 0;
    memset(mm, 0, sizeof *mm);
}

/* The pass has ended: no thread reads the retired tables any more. */
void bs_memo_retire_end(jt_bsearch *s)
{
    for (int i = 0; i < 2; i++) {
        free_tables(s, s->memo[i].retired);
        s->memo[i].retired = NULL;
    }
}

/* ---- members --------------------------------------------------------------------------------- */

/* A state's members are stored in the arena as bytes, each the step from the previous member
 * (from -1 for the first) if it is 1..254, else 255 and the member's index in two bytes: states
 * list their members in increasing order, mostly close together, so most members take one byte
 * instead of two, and the memo holds more states in the same memory.  The bytes of a slot being
 * rewritten may be read meanwhile (the reader then drops what it read), so they are read and
 * written as atomic bytes and a reader never reads past its chunk: a chunk has two bytes more
 * than its size, for a far member's index read at its end. */
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
            STORE(a++, (uint8_t)(S[k] - prev));
        } else {
            STORE(a++, (uint8_t)FAR);
            STORE(a++, (uint8_t)S[k]);
            STORE(a++, (uint8_t)(S[k] >> 8));
        }
    }
}

/* The members at offset off, and the end of their chunk. */
static inline const uint8_t *members_at(const memo *mm, uint32_t off, const uint8_t **end)
{
    const uint8_t *c = mm->chunk[off >> mm->chunk_bits];
    *end = c + ((size_t)1 << mm->chunk_bits);
    return c + (off & (((uint32_t)1 << mm->chunk_bits) - 1));
}

/* The next member of an encoded list (after prev; *a moves past it), or -1 past the end. */
static inline int32_t next_member(const uint8_t **a, const uint8_t *end, int32_t prev)
{
    const uint8_t *p = *a;
    if (p >= end)
        return -1;
    const uint8_t b = LOAD(p);
    if (b != FAR) {
        *a = p + 1;
        return prev + b;
    }
    *a = p + 3;
    return (int32_t)LOAD(p + 1) | (int32_t)LOAD(p + 2) << 8;
}

/* Bytes the m encoded members at off take (its slot taken: they do not change). */
static uint64_t stored_size(const memo *mm, uint32_t off, int32_t m)
{
    const uint8_t *end, *a = members_at(mm, off, &end), *p = a;
    for (int32_t k = 0, x = -1; k < m; k++)
        x = next_member(&p, end, x);
    return (uint64_t)(p - a);
}

/* Room for size bytes of members in thread w's chunk of the memo, taking a new chunk when it is
 * full; whether there was room (memory, or 32-bit offsets). */
static int arena_alloc(jt_bsearch *s, memo *mm, worker *w, uint64_t size, uint32_t *off)
{
    const int k = mm == &s->memo[1];
    if (w->end[k] - w->at[k] < size) {
        if (!reserve(s, chunk_bytes(mm)))
            return 0;
        uint32_t i = LOAD(&mm->nchunk);
        do {
            if (i >= mm->chunk_cap) {
                unreserve(s, chunk_bytes(mm));
                return 0;
            }
        } while (!CAS(&mm->nchunk, &i, i + 1));
        uint8_t *c = malloc(chunk_bytes(mm));
        if (!c) {
            unreserve(s, chunk_bytes(mm));
            return 0;  /* chunk i stays NULL: never referred to */
        }
        mm->chunk[i] = c;  /* published with the tags of the states stored in it */
        w->at[k] = (uint64_t)i << mm->chunk_bits;
        w->end[k] = (uint64_t)(i + 1) << mm->chunk_bits;
    }
    *off = (uint32_t)w->at[k];
    w->at[k] += size;
    return 1;
}

/* ---- finding a state ------------------------------------------------------------------------- */

/* Copy out the slot e if it holds the state: tag t1 (read), key bits kb, m members that `same`
 * accepts; 1 if it does (*val, *guess), 0 if not, -1 if the slot changed while being read. */
#define READ_SLOT(E, T1, KB, M, SAME, VAL, GUESS)                                             \
    ({                                                                                          \
        int rs_ = 0;                                                                            \
        if (!((T1) & LOCKED) && key_bits(T1) == (KB) && LOAD(&(E)->m) == (uint16_t)(M)) {       \
            const uint8_t *end_, *a_ = members_at(mm, LOAD(&(E)->off), &end_);                  \
            int32_t k_ = 0, x_ = -1;                                                            \
            while (k_ < (M) && (x_ = next_member(&a_, end_, x_)) >= 0 && (SAME))                \
                k_++;                                                                           \
            if (k_ == (M)) {                                                                    \
                *(VAL) = LOAD(&(E)->val);                                                       \
                *(GUESS) = LOAD(&(E)->guess);                                                   \
                rs_ = 1;                                                                        \
            }                                                                                   \
            SEQ_FENCE();                                            \
            if (LOAD(&(E)->tag) != (T1))                                                        \
                rs_ = -1;                                                                       \
        }                                                                                       \
        rs_;                                                                                    \
    })

/* Probe the table for the state (key, m members that `same` accepts, x_ each in turn): 0 if it
 * is not there, else 1 (a bound) or 2 (an exact value), with *val and *guess. */
#define FIND(MM, KEY, M, SAME, VAL, GUESS)                                                      \
    ({                                                                                          \
        int f_ = 0;                                                                             \
        const table *t_ = LOAD_ACQ(&(MM)->tab);                                                 \
        if (t_) {                                                                               \
            const uint64_t mask_ = t_->cap - 1, kb_ = key_bits(KEY);                            \
            uint64_t h_ = home(KEY, t_->cap);                                                   \
            for (uint64_t i_ = 0; i_ <= mask_;) {                                               \
                const entry *e_ = &t_->slot[h_];                                                \
                const uint64_t t1_ = LOAD_ACQ(&e_->tag);                                        \
                if (!t1_)                                                                       \
                    break;                                                                      \
                const int r_ = READ_SLOT(e_, t1_, kb_, M, SAME, VAL, GUESS);                    \
                if (r_ > 0) {                                                                   \
                    f_ = *(GUESS) == NOGUESS ? 1 : 2;                                           \
                    break;                                                                      \
                }                                                                               \
                if (r_ == 0) { /* else read the slot again */                                   \
                    i_++;                                                                       \
                    h_ = (h_ + 1) & mask_;                                                      \
                }                                                                               \
            }                                                                                   \
        }                                                                                       \
        f_;                                                                                     \
    })

int bs_memo_get(const jt_bsearch *s, const memo *mm, uint64_t key, int32_t m, const int32_t *S,
                uint64_t *val, int32_t *guess)
{
    (void)s;
    uint16_t g = NOGUESS;
    const int f = FIND(mm, key, m, x_ == S[k_], val, &g);
    *guess = f == 2 ? g : -1;
    if (!f)
        *val = 0;
    return f;
}

/* The entry of class j of word c over the state whose members are flagged in in_s: a stored
 * state of the class's size and key is the class if all its members are in S and give reply j
 * (then it is a subset of the same size).  Its value or bound in *val; 0 if not stored. */
static inline __attribute__((always_inline)) int
memo_get_class_body(const jt_bsearch *s, const memo *mm, uint64_t key, int32_t m, int32_t c,
                    int j, const uint8_t *in_s, uint64_t *val, const int gen)
{
    uint16_t g;
    return FIND(mm, key, m,
                x_ < s->D && in_s[x_] && reply_ix(s, gen, c, x_) == j, val, &g);
}

POPCNT_CLONES
int bs_memo_get_class(const jt_bsearch *s, const memo *mm, uint64_t key, int32_t m, int32_t c,
                      int j, const uint8_t *in_s, uint64_t *val)
{
    int f;
    if (s->gen == 0)
        f = memo_get_class_body(s, mm, key, m, c, j, in_s, val, 0);
    else if (s->gen == 1)
        f = memo_get_class_body(s, mm, key, m, c, j, in_s, val, 1);
    else
        f = memo_get_class_body(s, mm, key, m, c, j, in_s, val, 2);
    if (!f)
        *val = 0;
    return f;
}

/* The entry of S without its member S[skip] (m - 1 members; key: that state's key), as
 * bs_memo_get; its value or bound in *val, 0 if not stored. */
int bs_memo_get_minus(const memo *mm, uint64_t key, int32_t m, const int32_t *S, int32_t skip,
                      uint64_t *val)
{
    uint16_t g;
    const int f = FIND(mm, key, m - 1, x_ == S[k_ + (k_ >= skip)], val, &g);
    if (!f)
        *val = 0;
    return f;
}

void bs_memo_prefetch(const memo *mm, uint64_t key)
{
    const table *t = LOAD_ACQ(&mm->tab);
    if (t)
        __builtin_prefetch(&t->slot[home(key, t->cap)]);
}

/* ---- making room ----------------------------------------------------------------------------- */

/* Copy the entries of `from` of states of at most max_m members into `to` (not yet shared):
 * slots being written meanwhile are left out. */
static void copy_entries(const table *from, table *to, int32_t max_m)
{
    const uint64_t mask = to->cap - 1;
    for (uint64_t i = 0; i < from->cap; i++) {
        const entry *e = &from->slot[i];
        const uint64_t t1 = LOAD_ACQ(&e->tag);
        if (!t1 || (t1 & LOCKED))
            continue;
        entry x = {key_bits(t1) | 2, LOAD(&e->val), LOAD(&e->off), LOAD(&e->m), LOAD(&e->guess)};
        SEQ_FENCE();
        if (LOAD(&e->tag) != t1 || x.m > max_m)
            continue;
        uint64_t h = home(t1, to->cap);
        while (to->slot[h].tag)
            h = (h + 1) & mask;
        to->slot[h] = x;
        to->n++;
    }
}

/* The first table of a memo, with its arena's chunk list. */
static int memo_init(jt_bsearch *s, memo *mm)
{
    int bits = 16;  /* a chunk holds the largest state (3 bytes a member at most) */
    while (bits < 30 && ((size_t)1 << bits) < 3 * (size_t)s->D)
        bits++;
    while (bits < 30 && (s->memo_bytes >> bits) > 16384)  /* at most 16384 chunks */
        bits++;
    const uint64_t most = ((uint64_t)1 << 32) >> bits;
    const uint64_t cap = (s->memo_bytes >> bits) + 1;
    const uint32_t chunk_cap = (uint32_t)(cap < most ? cap : most);
    if (!reserve(s, sizeof(uint8_t *) * chunk_cap))
        return 0;
    mm->chunk = calloc(chunk_cap, sizeof(uint8_t *));
    if (!mm->chunk) {
        unreserve(s, sizeof(uint8_t *) * chunk_cap);
        return 0;
    }
    mm->chunk_cap = chunk_cap;
    mm->chunk_bits = bits;
    return 1;
}

/* Free the retired tables no thread can be reading: those retired before the epoch every
 * searching thread has seen. */
static void reclaim(jt_bsearch *s, memo *mm)
{
    uint64_t seen = UINT64_MAX;
    for (int i = 0; i < s->nthreads; i++)
        seen = umin(seen, LOAD_ACQ(&s->wk[i].seen));
    for (table **p = &mm->retired; *p;) {
        table *t = *p;
        if (t->epoch <= seen) {
            *p = t->next;
            t->next = NULL;
            free_tables(s, t);
        } else {
            p = &t->next;
        }
    }
}

/* Make a table of ncap slots holding the entries of the memo's of states of at most max_m
 * members and put it in place; the old one is freed, or retired while a pass runs on several
 * threads.  Returns 0 if memory ran out. */
static int replace_table(jt_bsearch *s, memo *mm, uint64_t ncap, int32_t max_m)
{
    if (!mm->chunk && !memo_init(s, mm))
        return 0;
    if (s->nthreads > 1)
        reclaim(s, mm);
    if (!reserve(s, table_bytes(ncap)))
        return 0;
    table *t = calloc(1, table_bytes(ncap));
    if (!t) {
        unreserve(s, table_bytes(ncap));
        return 0;
    }
    t->cap = ncap;
    table *old = mm->tab;
    if (old)
        copy_entries(old, t, max_m);
    STORE_REL(&mm->tab, t);
    if (old) {
        if (s->nthreads > 1) {
            old->epoch = __atomic_add_fetch(&s->epoch, 1, __ATOMIC_ACQ_REL);
            old->next = mm->retired;
            mm->retired = old;
            reclaim(s, mm);
        } else {
            old->next = NULL;
            free_tables(s, old);
        }
    }
    return 1;
}

/* Keep only the states of at most max_m members (between passes).  Returns 0 if memory ran
 * out. */
int bs_rehash(jt_bsearch *s, memo *mm, int32_t max_m)
{
    return mm->tab && replace_table(s, mm, mm->tab->cap, max_m);
}

/* The table t is 3/4 full: move to one twice as large, unless another thread is doing so. */
static void memo_grow(jt_bsearch *s, memo *mm, const table *t)
{
    int idle = 0;
    if (!CAS(&mm->growing, &idle, 1))
        return;
    if (LOAD_ACQ(&mm->tab) == t)
        replace_table(s, mm, t ? 2 * t->cap : FIRST_CAP, UINT16_MAX);
    STORE_REL(&mm->growing, 0);
}

/* The memo is full: overwrite a bound (never an exact value) among the first slots of the key's
 * probe sequence, the one of fewest members that still has room for S's (the cheapest state to
 * find again).  Slots stay occupied, so no other key's probe sequence is broken. */
static void memo_replace(memo *mm, table *t, uint64_t key, int32_t m, const int32_t *S,
                         uint64_t val, int exact, int32_t guess)
{
    entry *victim = NULL;
    uint64_t vtag = 0;
    int32_t vm = 0;
    const uint64_t need = encoded_size(S, m);
    uint64_t h = home(key, t->cap);
    for (int i = 0; i < 8; i++, h = (h + 1) & (t->cap - 1)) {
        entry *e = &t->slot[h];
        const uint64_t t1 = LOAD_ACQ(&e->tag);
        if (!t1)
            break;
        const int32_t em = LOAD(&e->m);
        if ((t1 & LOCKED) || LOAD(&e->guess) != NOGUESS || (victim && em >= vm))
            continue;
        const uint32_t off = LOAD(&e->off);
        SEQ_FENCE();
        if (LOAD(&e->tag) == t1 && stored_size(mm, off, em) >= need) {
            victim = e;
            vtag = t1;
            vm = em;
        }
    }
    if (!victim || !CAS(&victim->tag, &vtag, vtag | LOCKED))
        return;  /* none, or another thread is writing it */
    const uint8_t *end;
    encode_members((uint8_t *)members_at(mm, LOAD(&victim->off), &end), S, m);
    STORE(&victim->m, (uint16_t)m);
    STORE(&victim->val, val);
    STORE(&victim->guess, exact ? (uint16_t)guess : (uint16_t)NOGUESS);
    STORE_REL(&victim->tag, next_tag(key, vtag));
}

/* ---- storing --------------------------------------------------------------------------------- */

/* Record F(S) = val (exact) or F(S) >= val; once the memo is full, in place of another bound. */
void bs_memo_store(jt_bsearch *s, worker *w, uint64_t key, int32_t m, const int32_t *S,
                   uint64_t val, int exact, int32_t guess)
{
    if (s->cert && s->mode == 0)  /* a proven bound: into the certificate first */
        bs_cert_record(s, S, m, val);
    memo *mm = &s->memo[s->mode];
    const uint64_t kb = key_bits(key);
    uint32_t off = 0;
    int have_off = 0, grown = 0;
    table *t = LOAD_ACQ(&mm->tab);
    if (!t) {
        memo_grow(s, mm, NULL);
        if (!(t = LOAD_ACQ(&mm->tab)))
            return;
    }
    uint64_t h = home(key, t->cap);
    for (uint64_t i = 0; i < t->cap;) {
        entry *e = &t->slot[h];
        uint64_t t1 = LOAD_ACQ(&e->tag);
        if (!t1) {
            /* a new state: a larger table if this one is 3/4 full, then its members (in this
             * thread's chunk), then the slot; a bound in place of another if the memo is full */
            const uint64_t n = LOAD(&t->n);
            if (!grown && (n + 1) * 4 > t->cap * 3) {
                grown = 1;
                memo_grow(s, mm, t);
                table *nt = LOAD_ACQ(&mm->tab);
                if (nt != t) {
                    t = nt;
                    h = home(key, t->cap);
                    i = 0;
                    continue;
                }
            }
            if ((n + 1) * 10 > t->cap * 9 ||
                (!have_off && !arena_alloc(s, mm, w, encoded_size(S, m), &off))) {
                memo_replace(mm, t, key, m, S, val, exact, guess);
                return;
            }
            if (!have_off) {
                const uint8_t *end;
                encode_members((uint8_t *)members_at(mm, off, &end), S, m);
                have_off = 1;
            }
            if (!CAS(&e->tag, &t1, LOCKED))
                continue;  /* another thread took the slot: look at it again */
            STORE(&e->off, off);
            STORE(&e->m, (uint16_t)m);
            STORE(&e->val, val);
            STORE(&e->guess, exact ? (uint16_t)guess : (uint16_t)NOGUESS);
            STORE_REL(&e->tag, kb | 2);
            __atomic_fetch_add(&t->n, 1, __ATOMIC_RELAXED);
            return;
        }
        uint64_t v;
        uint16_t g;
        const int r = READ_SLOT(e, t1, kb, m, x_ == S[k_], &v, &g);
        if (r < 0)
            continue;
        if (r > 0) {
            /* the state is here: raise its bound, or make it exact (unless another thread is
             * writing the slot) */
            if (g != NOGUESS || (!exact && val <= v) || !CAS(&e->tag, &t1, t1 | LOCKED))
                return;
            STORE(&e->val, val);
            STORE(&e->guess, exact ? (uint16_t)guess : (uint16_t)NOGUESS);
            STORE_REL(&e->tag, next_tag(key, t1));
            return;
        }
        i++;
        h = (h + 1) & (t->cap - 1);
    }
}

void jt_bs_memo_stats(const jt_bsearch *s, int64_t *states, int64_t *bytes)
{
    int64_t n = 0;
    for (int i = 0; i < 2; i++) {
        const table *t = LOAD_ACQ(&s->memo[i].tab);
        if (t)
            n += (int64_t)LOAD(&t->n);
    }
    *states = n;
    *bytes = (int64_t)bs_memo_bytes_used(s);
}
