/* tsan_search.c -- the best-response search on several threads under ThreadSanitizer
 * (tests/responses/test_proof_threads.py builds and runs it).
 *
 * The pass's OpenMP team (search_parallel.c, bs_run_threads) is replaced here by POSIX threads:
 * libgomp is not instrumented, so TSan would not see its fork and join and would report every
 * read of what the calling thread set up; with pthreads it sees all synchronisation, and so
 * checks the search's own: the memo's sequence locks and chunks, the busy and upper tables, the
 * stop flags, the workers, the certificate's record stream.  Everything else is the core's
 * code, compiled unchanged.
 *
 * On random word lists (paper words over a few letters, equal or random weights) it runs passes
 * on 2 and 3 threads (TSan judges the order of accesses, not their timing: more threads on CI's
 * 2 cores would only take turns) -- exact ones, beta-limited and node-limited ones, top-K ones,
 * with memos small enough to fill (bounds then overwritten in place while other threads read
 * them) -- and checks exact values and trees against one thread's.  Exits 0 if all agree (TSan aborts on a race). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define bs_run_threads bs_run_threads_openmp
#include "search/search_parallel.c"
#undef bs_run_threads
#include "common/engine_internal.h"

typedef struct {
    jt_bsearch *s;
    uint64_t beta;
    int id;
} job;

static void *work(void *arg)
{
    const job *j = arg;
    jt_bsearch *s = j->s;
    worker *w = &s->wk[j->id];
    int32_t g = -1;
    w->value = bs_search(s, w, 0, s->pos, s->npos, s->keypos, s->Wpos, j->beta, &g);
    w->guess = g;
    w->done = 1;
    STORE_REL(&w->seen, UINT64_MAX);
    int none = 0;
    if (!w->stop)
        CAS(&s->stop, &none, FINISHED);
    return NULL;
}

/* bs_run_threads on POSIX threads: the calling thread is worker 0. */
void bs_run_threads(jt_bsearch *s, uint64_t beta, int threads)
{
    pthread_t t[MAX_THREADS];
    job jobs[MAX_THREADS];
    for (int i = 0; i < threads; i++)
        jobs[i] = (job){s, beta, i};
    for (int i = 1; i < threads; i++)
        if (pthread_create(&t[i], NULL, work, &jobs[i])) {
            fprintf(stderr, "pthread_create failed\n");
            exit(2);
        }
    work(&jobs[0]);
    for (int i = 1; i < threads; i++)
        pthread_join(t[i], NULL);
}

static uint64_t state = 0x9e3779b97f4a7c15u;
static uint32_t rnd(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (uint32_t)(state >> 11);
}

static int failures = 0;
#define CHECK(cond, ...)                                                                         \
    do {                                                                                         \
        if (!(cond) && failures++ < 10) {                                                        \
            fprintf(stderr, "FAIL line %d: ", __LINE__);                                         \
            fprintf(stderr, __VA_ARGS__);                                                        \
            fputc('\n', stderr);                                                                 \
        }                                                                                        \
    } while (0)

/* D distinct masks of L letters among the first A. */
static void make_words(uint64_t *tok, int32_t D, int L, int A)
{
    for (int32_t n = 0; n < D;) {
        uint64_t x = 0;
        while (__builtin_popcountll(x) < L)
            x |= 1ull << (rnd() % (uint32_t)A);
        int dup = 0;
        for (int32_t i = 0; i < n && !dup; i++)
            dup = tok[i] == x;
        if (!dup)
            tok[n++] = x;
    }
}

static jt_outcome pass(jt_bsearch *s, int threads, int32_t top_k, uint64_t beta,
                          int64_t nodes, int by_size)
{
    jt_bs_pass p = {0};
    jt_outcome o;
    p.top_k = top_k;
    p.full_below = top_k ? 6 : 0;
    p.beta = beta;
    p.max_nodes = nodes;
    p.by_size = by_size;
    p.threads = threads;
    p.parallel_from = 1;
    const int r = jt_bs_run(s, &p, &o);
    CHECK(r == JT_OK, "pass status %d", r);
    return o;
}

/* The tree of the memo of mode top_k: its total, and its guesses into g (n nodes). */
static int32_t tree(jt_bsearch *s, int32_t top_k, int32_t *g, uint64_t *total)
{
    const int32_t n = jt_bs_tree_build(s, top_k, -1, total);
    CHECK(n > 0, "tree status %d", n);
    if (n <= 0)
        return 0;
    int32_t *d = malloc(sizeof(int32_t) * (size_t)n), *z = malloc(sizeof(int32_t) * (size_t)n);
    int32_t *c = malloc(sizeof(int32_t) * (size_t)n * (size_t)jt_bs_classes(s));
    jt_bs_tree_export(s, g, d, z, c);
    free(d);
    free(z);
    free(c);
    return n;
}

/* The paper words tok as the engine's list holds them: the fields the search reads (the list's
 * own constructor, common/words.c, would bring the kernels into this build). */
static jt_words *paper_words(jt_words *w, const uint64_t *tok, uint32_t *mask, int32_t D, int L)
{
    memset(w, 0, sizeof(*w));
    w->D = D;
    w->L = L;
    w->R = L + 1;
    w->win = L;
    w->branch = L;
    w->mode = JT_MODE_PAPER;
    for (int32_t i = 0; i < D; i++)
        mask[i] = (uint32_t)tok[i];
    w->mask = mask;
    w->tok = (uint64_t *)tok;
    return w;
}

int main(void)
{
    enum { D = 48, CASES = 6 };
    uint64_t tok[D];
    int64_t v[D];
    static int32_t g1[65536], g2[65536];
    for (int k = 0; k < CASES; k++) {
        const int L = 2 + k % 2, A = L == 2 ? 13 : 9;
        make_words(tok, D, L, A);
        for (int32_t i = 0; i < D; i++)
            v[i] = k % 3 == 2 ? (int64_t)(rnd() % 9) : 1;
        int status;
        uint32_t mask[D];
        jt_words list, *words = paper_words(&list, tok, mask, D, L);
        jt_bsearch *one = jt_bs_new(words, v, (size_t)1 << 26, &status);
        CHECK(one, "new %d", status);
        if (!one)
            continue;
        const jt_outcome a = pass(one, 1, 0, JT_BS_INF, 0, 0);
        uint64_t ta;
        const int32_t na = tree(one, 0, g1, &ta);
        const jt_outcome ak = pass(one, 1, 2, JT_BS_INF, 0, 0);
        for (int threads = 2; threads <= 3; threads++) {
            /* a small memo (full: bounds overwritten while other threads read them), then a
             * large one that grows while the threads search.  512 KiB: the 2-letter cases'
             * searches need about 1.2 MB, so they fill it and overwrite bounds throughout; at
             * 256 KiB they re-searched evicted states so often that one pass took 96 s of the
             * test's 100 under TSan */
            const size_t memory = threads == 3 ? (size_t)1 << 19 : (size_t)1 << 26;
            jt_bsearch *s = jt_bs_new(words, v, memory, &status);
            /* the threads append to a certificate's record stream (search_certificate.c) */
            CHECK(jt_bs_cert_open(s, "/dev/null") == JT_OK, "certificate stream");
            const jt_outcome b = pass(s, threads, 0, a.value - 10, 0, 1);
            CHECK(!b.exact && b.value >= a.value - 10 && b.value <= a.value,
                  "beta pass: %llu vs %llu", (unsigned long long)b.value,
                  (unsigned long long)a.value);
            const jt_outcome c = pass(s, threads, 0, JT_BS_INF, 500, 0);
            CHECK(c.value <= a.value, "node-limited pass");
            const jt_outcome e = pass(s, threads, 0, JT_BS_INF, 0, 0);
            CHECK(e.exact && e.value == a.value, "exact %llu vs %llu",
                  (unsigned long long)e.value, (unsigned long long)a.value);
            uint64_t te;
            const int32_t ne = tree(s, 0, g2, &te);
            CHECK(ne == na && te == ta && !memcmp(g1, g2, sizeof(int32_t) * (size_t)na),
                  "trees differ (case %d, %d threads)", k, threads);
            const jt_outcome f = pass(s, threads, 2, JT_BS_INF, 0, 0);
            CHECK(f.exact && f.value == ak.value, "top-2 %llu vs %llu",
                  (unsigned long long)f.value, (unsigned long long)ak.value);
            int64_t states, bytes;
            jt_bs_memo_stats(s, &states, &bytes);
            CHECK((size_t)bytes <= memory, "memo %lld bytes > %zu", (long long)bytes, memory);
            int64_t records;
            CHECK(jt_bs_cert_close(s, &records) == JT_OK && records > 0, "%lld records",
                  (long long)records);
            jt_bs_free(s);
        }
        jt_bs_free(one);
        printf("case %d: L %d, optimum %llu\n", k, L, (unsigned long long)a.value);
        fflush(stdout);
    }
    printf("%d failures\n", failures);
    return failures != 0;
}
