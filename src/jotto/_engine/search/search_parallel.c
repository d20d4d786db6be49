/* search_parallel.c -- the threads of a best-response pass (search_internal.h).
 *
 * Every thread runs the whole search from the root, with levels of its own, and the threads
 * share what they learn instead of handing work to each other: the memo (exact values and
 * bounds, search_memo.c), which words of which states are being searched (the busy table), and
 * the best tree of a state any thread has completed (the upper table).  At a state of at least
 * SHARE_MIN targets every thread enters the first word (whose value is the bar the others must
 * beat), then puts off the words another thread is searching and takes the next ones, and comes
 * back to those it put off once it has tried the rest: by then the other thread has mostly
 * refuted them, and their classes' bounds in the memo refute them again at once, or it is still
 * searching them and this thread, entering their classes, takes the words there that nobody is
 * searching.  So the threads spread over the root's words and, when those run out, over the
 * deeper states of the hardest ones (as ABDADA spreads alpha-beta searchers over a
 * transposition table).  The first thread to finish the root ends the pass: its result is a
 * complete search, and the others stop.
 *
 * No thread ever waits for another: a descheduled thread holds back nothing but its own words,
 * which the others take up again when they come back to them, so on a busy machine the pass is
 * never slower than the fastest thread alone by more than the overhead of sharing.  Results do
 * not depend on timing: a value is exact only when one thread's search proved it (the tables
 * only order the words and tighten thresholds, and search.c checks every threshold it took from
 * another thread), and among the guesses of least value a state keeps the first in its fixed
 * order of words, whichever thread found which. */
#include <stdlib.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "search_internal.h"

#define BUSY_SLOTS 4096
#define UPPER_SLOTS 4096

/* ---- workers --------------------------------------------------------------------------------- */

int bs_workers(jt_bsearch *s, int n)
{
    if (n <= s->nwk)
        return 1;
    worker *wk = aligned_alloc(_Alignof(worker), sizeof(worker) * (size_t)n);
    if (!wk)
        return 0;
    if (s->nwk)
        memcpy(wk, s->wk, sizeof(worker) * (size_t)s->nwk);
    free(s->wk);
    s->wk = wk;
    for (int i = s->nwk; i < n; i++) {
        memset(&wk[i], 0, sizeof(worker));
        wk[i].id = i;
        wk[i].lv = calloc((size_t)s->D + 2, sizeof(level *));
        if (!wk[i].lv)
            return 0;
        s->nwk = i + 1;
    }
    return 1;
}

void bs_workers_free(jt_bsearch *s)
{
    for (int i = 0; i < s->nwk; i++) {
        for (int32_t d = 0; s->wk[i].lv && d < s->D + 2; d++)
            bs_level_free(s->wk[i].lv[d]);
        free(s->wk[i].lv);
        free(s->wk[i].first_of);
    }
    free(s->wk);
    s->wk = NULL;
    s->nwk = 0;
}

int bs_shared_tables(jt_bsearch *s)
{
    if (!s->busy)
        s->busy = calloc(BUSY_SLOTS, sizeof(uint64_t));
    if (!s->upper)
        s->upper = calloc(UPPER_SLOTS, sizeof *s->upper);
    return s->busy && s->upper;
}

/* ---- words being searched -------------------------------------------------------------------- */

/* The hash of word c tried at the state (key, m): never 0. */
static uint64_t busy_tag(uint64_t key, int32_t m, int32_t c)
{
    return mix(key ^ (uint64_t)m << 40 ^ (uint64_t)(c + 1) * 0x9E3779B97F4A7C15ull) | 1;
}

static uint64_t *busy_slot(const jt_bsearch *s, uint64_t tag)
{
    return &s->busy[(tag >> 20) & (BUSY_SLOTS - 1)];
}

/* Mark word c of the state as searched by this thread; whether it was marked (a slot another
 * pair holds is left alone: the pair is then searched unmarked). */
int bs_busy_claim(jt_bsearch *s, uint64_t key, int32_t m, int32_t c)
{
    const uint64_t tag = busy_tag(key, m, c);
    uint64_t free_ = 0;
    return CAS(busy_slot(s, tag), &free_, tag);
}

/* Whether another thread is searching word c of the state (the caller has not marked it). */
int bs_busy_elsewhere(const jt_bsearch *s, uint64_t key, int32_t m, int32_t c)
{
    const uint64_t tag = busy_tag(key, m, c);
    return LOAD(busy_slot(s, tag)) == tag;
}

void bs_busy_release(jt_bsearch *s, uint64_t key, int32_t m, int32_t c)
{
    STORE_REL(busy_slot(s, busy_tag(key, m, c)), 0);
}

/* ---- best trees found ------------------------------------------------------------------------ */

/* The hash of a state in a mode (top-K values are those of restricted trees): never 0. */
static uint64_t upper_tag(const jt_bsearch *s, uint64_t key, int32_t m)
{
    return mix(key ^ (uint64_t)m << 40 ^ (uint64_t)s->top_k << 20 ^ (uint64_t)s->full_below) |
           1;
}

/* The value of the best tree of the state a thread has completed (INF: none known).  A hint:
 * two states sharing a hash, or two threads writing a slot at once, may give a wrong one, which
 * search.c detects. */
uint64_t bs_upper_get(const jt_bsearch *s, uint64_t key, int32_t m)
{
    const uint64_t tag = upper_tag(s, key, m);
    uint64_t *slot = s->upper[(tag >> 20) & (UPPER_SLOTS - 1)];
    if (LOAD_ACQ(&slot[0]) != tag)
        return INF;
    const uint64_t v = LOAD(&slot[1]);
    SEQ_FENCE();
    return LOAD(&slot[0]) == tag ? v : INF;
}

void bs_upper_put(jt_bsearch *s, uint64_t key, int32_t m, uint64_t val)
{
    const uint64_t tag = upper_tag(s, key, m);
    uint64_t *slot = s->upper[(tag >> 20) & (UPPER_SLOTS - 1)];
    if (LOAD_ACQ(&slot[0]) != tag) {
        STORE(&slot[0], 0);
        STORE(&slot[1], val);
        STORE_REL(&slot[0], tag);
        return;
    }
    uint64_t v = LOAD(&slot[1]);
    while (val < v && !CAS(&slot[1], &v, val)) {
    }
}

/* ---- a pass on several threads --------------------------------------------------------------- */

/* Every thread searches the root (search.c, jt_bs_run, takes their results); the first to
 * finish it stops the others. */
void bs_run_threads(jt_bsearch *s, uint64_t beta, int threads)
{
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
    {
#ifdef _OPENMP
        worker *w = &s->wk[omp_get_thread_num()];
#else
        worker *w = &s->wk[0];
#endif
        int32_t g = -1;
        w->value = bs_search(s, w, 0, s->top, s->ntop, s->keytop, s->Wtop, beta, &g);
        w->guess = g;
        w->done = 1;
        STORE_REL(&w->seen, UINT64_MAX);
        int none = 0;
        if (!w->stop)
            CAS(&s->stop, &none, FINISHED);
    }
    (void)threads;
}
