/* check_kernels.c -- a standalone test of the C engine, without Python, for any architecture
 * (tests/house/test_cross_aarch64.py builds it for aarch64 and runs it under qemu-user; on the build
 * machine's own CPU the Python tests check the same kernels through _core, against the
 * pure-Python reference).  On random word lists it checks, for every kernel variant
 * the build has and the CPU runs:
 *  - class sizes of random candidates over random targets (up to 9000, so several rounds of byte
 *    counters and several segments of chunk tables) against a pair-by-pair count;
 *  - q(c) = sum_i v_i n_{reply(c,i)} with random weights (a uniform part, excesses of a few
 *    values or multiples of one step, small or wide), with and without class sizes, against the
 *    direct sum;
 *  - the scans of q (least value, the paper rule's window) against plain loops;
 *  - the exact rule's guess counts against a naive recursive GuesserGBR;
 *  - whole trees of every rule (paper, exact, Norvig's three; guess counts and every node)
 *    identical to those of the first variant (base, itself checked by the above).
 * Prints one line per variant and exits 0 if everything agrees, 1 otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree/tree_internal.h"

static uint64_t state = 0x9e3779b97f4a7c15u;
static uint32_t rnd(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (uint32_t)(state >> 11);
}
static uint32_t below(uint32_t n) { return n ? rnd() % n : 0; }

static int failures = 0;
#define CHECK(cond, ...)                                                                         \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            if (failures++ < 10) {                                                               \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                             \
                fprintf(stderr, __VA_ARGS__);                                                    \
                fputc('\n', stderr);                                                             \
            }                                                                                    \
        }                                                                                        \
    } while (0)

static int reply(uint32_t a, uint32_t b) { return __builtin_popcount(a & b); }

static int keyed = 0; /* weighted evaluations whose q came as 16-bit keys */
static int owned = 0; /* evaluations that took class L from S's membership */

/* D distinct masks of L letters among the first A letters (D must not exceed C(A, L)). */
static int32_t make_masks(uint32_t *masks, int32_t D, int L, int A)
{
    int32_t n = 0;
    for (int tries = 0; n < D && tries < 100000; tries++) {
        uint32_t x = 0;
        while (__builtin_popcount(x) < L)
            x |= 1u << below((uint32_t)A);
        int dup = 0;
        for (int32_t i = 0; i < n && !dup; i++)
            dup = masks[i] == x;
        if (!dup)
            masks[n++] = x;
    }
    return n;
}

/* with_weights: 0 class sizes only, 1 random weights, 2 weights like fictitious play's at a
 * small node (1 + a big step times a few units), for which q comes as 16-bit keys. */
static void check_counts(const jt_words *w, int with_weights)
{
    const int L = w->L;
    const int32_t D = w->D;
    const int32_t sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 40, 250, 300, 4100, 9000};
    const int32_t small[] = {5, 6, 8, 9, 12, 16};
    const int32_t m = with_weights == 2 ? small[below(sizeof small / sizeof small[0])]
                                        : sizes[below(sizeof sizes / sizeof sizes[0])];
    const int32_t nc = below(2) ? D : 1 + (int32_t)below((uint32_t)(2 * D + 70));
    int32_t *S = malloc(sizeof(int32_t) * m);
    uint32_t *sm = malloc(sizeof(uint32_t) * m);
    int32_t *cid = malloc(sizeof(int32_t) * nc);
    uint32_t *cm = malloc(sizeof(uint32_t) * nc);
    uint16_t *cnt = malloc(sizeof(uint16_t) * nc * (L + 1));
    uint64_t *q = malloc(sizeof(uint64_t) * nc);
    uint64_t *v = malloc(sizeof(uint64_t) * m);
    uint32_t *spec_mask = malloc(sizeof(uint32_t) * m);
    uint64_t *spec_delta = malloc(sizeof(uint64_t) * m);
    int32_t *spec_id = malloc(sizeof(int32_t) * m);
    const int all = nc == D;
    /* class L from S's membership (jt_own_set, as the tree asks of paper words with every word a
     * candidate) needs S to be a set: then its targets are distinct */
    const int own = all && 2 * m <= D && below(2);
    for (int32_t k = 0; k < m; k++) {
        int dup;
        do {
            S[k] = (int32_t)below((uint32_t)D);
            dup = 0;
            for (int32_t i = 0; own && i < k; i++)
                dup |= S[i] == S[k];
        } while (dup);
        sm[k] = w->mask[S[k]];
    }
    for (int32_t c = 0; c < nc; c++) {
        cid[c] = all ? c : (int32_t)below((uint32_t)D);
        cm[c] = w->mask[cid[c]];
    }
    jt_eval ev = jt_eval_of(w, m, sm, S, nc, all ? NULL : cid, cm, cnt, with_weights ? q : NULL);
    if (with_weights) {
        /* a uniform part and a few excess values, sorted by excess as describe() does */
        const uint64_t vmin = with_weights == 2 ? 1 : 1 + below(3);
        uint64_t levels[4] = {0, 1 + below(5), 1 + below(1000), (uint64_t)1 << 30};
        const uint32_t kind = with_weights == 2 ? 3 : below(3);
        if (kind) { /* multiples of one step, as in fictitious play: units <= 31 (exact mode) or
                     * of 1 to 4 base-32 digits (paper mode) */
            const uint64_t step = kind == 3 ? (uint64_t)m * m + below(3000) : 1 + below(3000);
            const uint32_t top = kind == 1 ? 31 : kind == 3 ? 2 : (1u << (5 * (1 + below(4)))) - 1;
            for (int i = 1; i < 4; i++)
                levels[i] = step * (1 + below(top));
        }
        for (int i = 2; i < 4; i++) /* ascending, as describe() orders the excesses */
            for (int j = i; j > 1 && levels[j - 1] > levels[j]; j--) {
                const uint64_t x = levels[j];
                levels[j] = levels[j - 1];
                levels[j - 1] = x;
            }
        for (int32_t k = 0; k < m; k++)
            v[k] = vmin + levels[below(4)];
        ev.vmin = vmin;
        ev.spec_mask = spec_mask;
        ev.spec_delta = spec_delta;
        ev.spec_id = spec_id;
        for (int level = 1; level < 4; level++) {
            int again = 0; /* each excess once, its targets together */
            for (int before = 1; before < level; before++)
                again |= levels[before] == levels[level];
            for (int32_t k = 0; k < m && !again; k++)
                if (v[k] - vmin == levels[level]) {
                    spec_mask[ev.nspec] = sm[k];
                    spec_id[ev.nspec] = S[k];
                    spec_delta[ev.nspec++] = levels[level];
                }
        }
        for (int32_t k = 0, rest = ev.nspec; k < m; k++) /* then the others, as describe() does */
            if (v[k] == vmin)
                spec_mask[rest++] = sm[k];
    }
    /* q without class sizes, as small nodes ask */
    const int q_only = with_weights == 2 || (with_weights && below(2));
    if (q_only)
        ev.cnt = NULL;
    /* at weighted nodes, small nodes ask the kernels that give them for q in 16 bits: ranks
     * (q16, qval) up to JT_RANK_MAX targets, keys (jt_q16_keys) where they fit */
    uint16_t *q16 = malloc(sizeof(uint16_t) * (nc + 64));
    uint64_t qval[JT_RANK_VALUES];
    ev.qval = qval;
    if (q_only && ev.nspec && (with_weights == 2 || below(2)))
        jt_q16_keys(&ev);
    const int in16 = q_only && ev.nspec && (ev.qkey || (m <= JT_RANK_MAX && below(2))) &&
                     jt_kernels_current()->q16_weighted;
    /* uniform weights, q only, at most 255 targets: sum_j n_j^2 in 16 bits, as small nodes ask */
    const int uniform16 = !with_weights && m <= 255 && below(2);
    if (uniform16) {
        ev.cnt = NULL;
        ev.q = q;
        ev.vmin = 1;
    }
    if (in16 || uniform16)
        ev.q16 = q16;
    keyed += in16 && ev.qkey;
    uint8_t *own_buf = calloc(2 * ((size_t)D + 64), 1);
    if (own)
        jt_own_set(w, &ev, own_buf);
    owned += ev.own_n != NULL;
    jt_kernels_current()->evaluate(&ev, 0, nc);
    jt_own_clear(w, &ev, own_buf);
    for (size_t i = 0; i < 2 * ((size_t)D + 64); i++)
        CHECK(!own_buf[i], "jt_own_clear left byte %zu set", i);
    free(own_buf);
    for (int32_t c = 0; c < nc && in16; c++)
        q[c] = jt_q16_value(&ev, q16[c]);
    for (int32_t c = 0; c < nc; c++) {
        int32_t n[JT_MAX_LEN + 1] = {0};
        for (int32_t k = 0; k < m; k++)
            n[reply(cm[c], sm[k])]++;
        for (int j = 0; j <= L && !q_only && !uniform16; j++)
            CHECK(cnt[(size_t)j * nc + c] == n[j], "L=%d m=%d c=%d j=%d: %d, not %d", L, m, c, j,
                  cnt[(size_t)j * nc + c], n[j]);
        uint32_t squares = 0;
        for (int j = 0; j <= L; j++)
            squares += (uint32_t)(n[j] * n[j]);
        CHECK(!uniform16 || q16[c] == squares, "L=%d m=%d c=%d: q16 %u, not %u", L, m, c, q16[c],
              squares);
        if (with_weights) {
            uint64_t want = 0;
            for (int32_t k = 0; k < m; k++)
                want += v[k] * (uint64_t)n[reply(cm[c], sm[k])];
            CHECK(q[c] == want, "L=%d m=%d c=%d: q %llu, not %llu", L, m, c,
                  (unsigned long long)q[c], (unsigned long long)want);
        }
    }
    free(S), free(sm), free(cid), free(cm), free(cnt), free(q), free(q16), free(v), free(spec_mask),
        free(spec_delta), free(spec_id);
}

/* Class sizes with class L from S's membership (jt_own_set) where S spans several segments of
 * chunk tables (more than 4096 targets: only the first segment takes it, the sums still add up):
 * a list of 9000 words, S of 4100 to 9000 of them, candidates every word. */
static void check_own_segments(const char *name)
{
    const int L = 6 + (int)below(2);
    const int32_t D = 9000, m = 4100 + (int32_t)below(4901);
    uint32_t *masks = malloc(sizeof(uint32_t) * D);
    const int32_t made = make_masks(masks, D, L, 26);
    jt_words *w = made == D ? jt_words_new(masks, D, L) : NULL;
    CHECK(w != NULL, "%s: no list of %d words", name, D);
    int32_t *S = malloc(sizeof(int32_t) * D), *order = malloc(sizeof(int32_t) * D);
    uint32_t *sm = malloc(sizeof(uint32_t) * m);
    uint16_t *cnt = malloc(sizeof(uint16_t) * D * (L + 1));
    uint8_t *own_buf = calloc(2 * ((size_t)D + 64), 1);
    for (int32_t i = 0; i < D; i++)
        order[i] = i;
    for (int32_t i = 0; i < m; i++) { /* m distinct words, in increasing order */
        const int32_t j = i + (int32_t)below((uint32_t)(D - i)), x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    int32_t n = 0;
    uint8_t *in = calloc(D, 1);
    for (int32_t i = 0; i < m; i++)
        in[order[i]] = 1;
    for (int32_t i = 0; i < D; i++)
        if (in[i])
            S[n++] = i;
    for (int32_t k = 0; w && k < m; k++)
        sm[k] = w->mask[S[k]];
    if (w) {
        jt_eval ev = jt_eval_of(w, m, sm, S, D, NULL, w->mask, cnt, NULL);
        jt_own_set(w, &ev, own_buf);
        CHECK(ev.own_n != NULL, "%s: jt_own_set took no paper words", name);
        jt_kernels_current()->evaluate(&ev, 0, D);
        jt_own_clear(w, &ev, own_buf);
        for (int32_t c = 0; c < D; c += 1 + (int32_t)below(40)) {
            int32_t want[JT_MAX_LEN + 1] = {0};
            for (int32_t k = 0; k < m; k++)
                want[reply(w->mask[c], sm[k])]++;
            for (int j = 0; j <= L; j++)
                CHECK(cnt[(size_t)j * D + c] == want[j], "%s: own, L=%d m=%d c=%d j=%d: %d, not %d",
                      name, L, m, c, j, cnt[(size_t)j * D + c], want[j]);
        }
        jt_words_free(w);
    }
    free(masks), free(S), free(order), free(sm), free(cnt), free(own_buf), free(in);
}

/* GuesserGBR, exact rule, literally: the least (Q, not in S, index), then the same below. */
static void naive_exact(const jt_words *w, const int64_t *v, const int32_t *S, int32_t m,
                        int depth, int32_t *counts)
{
    const int L = w->L;
    int32_t guess = S[0];
    if (m > 1) {
        int zero = 1;
        for (int32_t k = 0; k < m; k++)
            zero &= v[S[k]] == 0;
        uint64_t best = UINT64_MAX;
        int best_out = 2;
        for (int32_t c = 0; c < w->D; c++) {
            int32_t n[JT_MAX_LEN + 1] = {0};
            for (int32_t k = 0; k < m; k++)
                n[reply(w->mask[c], w->mask[S[k]])]++;
            uint64_t Q = 0;
            int out = 1;
            for (int32_t k = 0; k < m; k++) {
                Q += (uint64_t)(zero ? 1 : v[S[k]]) * n[reply(w->mask[c], w->mask[S[k]])];
                out &= S[k] != c;
            }
            if (Q < best || (Q == best && out < best_out)) {
                best = Q;
                best_out = out;
                guess = c;
            }
        }
    }
    int32_t *sub = malloc(sizeof(int32_t) * m);
    for (int j = 0; j <= L; j++) {
        int32_t n = 0;
        for (int32_t k = 0; k < m; k++)
            if (reply(w->mask[guess], w->mask[S[k]]) == j)
                sub[n++] = S[k];
        if (j == L && n)
            counts[guess] = depth + 1;
        else if (n)
            naive_exact(w, v, sub, n, depth + 1, counts);
    }
    free(sub);
}


/* The scans of q (the exact rule's least value, the paper rule's window) against plain loops,
 * on n values with few distinct ones (so that the least repeats and windows are dense or sparse
 * by the limit), for n past several registers with a partial one at the end. */
static void check_scans(const char *name)
{
    const jt_kernels *K = jt_kernels_current();
    enum { N = 700 };
    uint16_t q16[N + 64];
    uint64_t q[N];
    int32_t got[N + 16];
    for (int round = 0; round < 40; round++) {
        const int32_t n = 1 + (int32_t)below(N);
        const uint32_t spread = 1 + below(round % 2 ? 4 : 60000);
        for (int32_t c = 0; c < n; c++) {
            q16[c] = (uint16_t)(below(spread) + (round % 3 ? 0 : 65535 - spread));
            q[c] = q16[c] * (uint64_t)(round % 5 ? 1 : 0x100000001u);
        }
        const uint16_t lim16 = (uint16_t)(below(3) ? q16[below((uint32_t)n)] : below(65536));
        const uint64_t lim = q[below((uint32_t)n)];
        int32_t want16 = 0, want = 0, first16 = -1, first = -1;
        uint16_t least16 = UINT16_MAX;
        uint64_t least = UINT64_MAX;
        for (int32_t c = 0; c < n; c++) {
            least16 = q16[c] < least16 ? q16[c] : least16;
            least = q[c] < least ? q[c] : least;
        }
        for (int32_t c = 0; c < n; c++) {
            first16 = first16 < 0 && q16[c] == least16 ? c : first16;
            first = first < 0 && q[c] == least ? c : first;
        }
        int32_t at16 = -1, at = -1;
        CHECK(K->min_q16(q16, n, &at16) == least16 && at16 == first16, "%s: min_q16", name);
        CHECK(K->min_q(q, n, &at) == least && at == first, "%s: min_q", name);
        const int32_t k16 = K->select_le16(q16, n, lim16, got);
        for (int32_t c = 0; c < n; c++)
            if (q16[c] <= lim16)
                CHECK(want16 < k16 && got[want16++] == c, "%s: select_le16 at %d", name, (int)c);
        CHECK(k16 == want16, "%s: select_le16 found %d, not %d", name, (int)k16, (int)want16);
        const int32_t k = K->select_le(q, n, lim, got);
        for (int32_t c = 0; c < n; c++)
            if (q[c] <= lim)
                CHECK(want < k && got[want++] == c, "%s: select_le at %d", name, (int)c);
        CHECK(k == want, "%s: select_le found %d, not %d", name, (int)k, (int)want);
    }
}
/* The limit of a window of keys (jt_q16_limit) against every key: key <= limit exactly when
 * its q is at most the window's q limit, at random m, vmin, step g and limits. */
static void check_key_limits(const char *name)
{
    for (int round = 0; round < 60; round++) {
        jt_eval ev;
        memset(&ev, 0, sizeof ev);
        ev.m = 5 + (int32_t)below(12);
        const uint64_t m = (uint64_t)ev.m, K = m * m + 1;
        ev.nspec = 1;
        ev.vmin = 1 + below(4);
        ev.ustep = ev.vmin * (m * m - m) + 1 + below(round % 2 ? 3 : 3000);
        ev.qkey = (uint32_t)K;
        const uint64_t bmax = (UINT16_MAX - m * m) / K;
        const uint64_t lim = below(3) ? below((uint32_t)(ev.ustep * (bmax + 2)))
                                      : ev.vmin * (m + below((uint32_t)(m * m))) +
                                            ev.ustep * below((uint32_t)bmax + 1);
        const uint16_t x = jt_q16_limit(&ev, lim);
        for (uint64_t b = 0; b <= bmax; b++)
            for (uint64_t a = m; a <= m * m; a++) {
                const uint64_t key = b * K + a;
                CHECK((key <= x) == (ev.vmin * a + ev.ustep * b <= lim),
                      "%s: key limit m=%d vmin=%llu g=%llu lim=%llu: key %llu vs limit %u", name,
                      ev.m, (unsigned long long)ev.vmin, (unsigned long long)ev.ustep,
                      (unsigned long long)lim, (unsigned long long)key, x);
                CHECK(jt_q16_value(&ev, (uint16_t)key) == ev.vmin * a + ev.ustep * b,
                      "%s: key value", name);
            }
    }
}

/* Every rule's tree under the current variant, flattened: guess counts then the export. */
static int32_t *tree_of(const jt_words *w, int rule, const int64_t *v, const double *h,
                        int32_t *len)
{
    const int cand = rule <= JT_RULE_EXACT ? JT_CAND_ALL : (int)below(2) + 1;
    const jt_weights wt = {rule, cand, rule <= JT_RULE_EXACT ? v : NULL,
                           rule == JT_RULE_PAPER ? h : NULL, 0.0, 0.0};
    int status = 0;
    jt_tree *t = jt_tree_build(w, &wt, 2, &status);
    CHECK(t && status == JT_OK, "rule %d: build failed (%d)", rule, status);
    if (!t)
        return NULL;
    const int32_t n = jt_tree_node_count(t), D = w->D, L = w->L;
    *len = D + n * (3 + L + 1);
    int32_t *out = malloc(sizeof(int32_t) * (size_t)*len);
    jt_tree_guess_counts(t, out);
    jt_tree_export(t, out + D, out + D + n, out + D + 2 * n, out + D + 3 * n);
    jt_tree_free(t);
    return out;
}

static uint64_t fnv(const int32_t *x, int32_t n)
{
    uint64_t h = 1469598103934665603u;
    for (int32_t i = 0; i < n; i++)
        h = (h ^ (uint32_t)x[i]) * 1099511628211u;
    return h;
}

int main(int argc, char **argv)
{
    const int trials = argc > 1 ? atoi(argv[1]) : 60;
    char names[64];
    strncpy(names, jt_isa_available(), sizeof names - 1);
    names[sizeof names - 1] = 0;
    char *saveptr = NULL;
    uint64_t *first = calloc((size_t)trials * 5, sizeof(uint64_t)); /* tree hashes, 1st variant */
    int nvariant = 0;
    const uint64_t seed = state;
    for (char *name = strtok_r(names, ",", &saveptr); name; name = strtok_r(NULL, ",", &saveptr)) {
        if (jt_isa_select(name) != 0) {
            fprintf(stderr, "FAIL: variant %s listed but not selectable\n", name);
            return 1;
        }
        state = seed; /* every variant sees the same lists */
        const int before = failures;
        check_scans(name);
        check_key_limits(name);
        check_own_segments(name);
        for (int trial = 0; trial < trials; trial++) {
            const int lengths[] = {1, 2, 3, 4, 5, 5, 5, 6, 7, 8, 12, 20};
            const int L = lengths[below(sizeof lengths / sizeof lengths[0])];
            const int A = L + 1 + (int)below((uint32_t)(26 - L < 6 ? 26 - L : 6));
            uint32_t masks[300];
            const int32_t D = make_masks(masks, 2 + (int32_t)below(120), L, A);
            jt_words *w = jt_words_new(masks, D, L);
            CHECK(w != NULL, "jt_words_new failed");
            if (!w)
                continue;
            check_counts(w, 0);
            check_counts(w, 1);
            check_counts(w, 2);
            if (D > 0 && D <= 60) {
                int64_t v[300];
                double h[300];
                const int fp = below(3) == 0; /* fictitious play's 1 + D c, c: times chosen */
                for (int32_t i = 0; i < D; i++) {
                    v[i] = fp            ? 1 + (int64_t)D * (below(2) ? 0 : 1 + below(3))
                           : below(3) ? (int64_t)below(4)
                                      : (int64_t)below(1u << 20);
                    h[i] = (double)v[i];
                }
                int32_t *S = malloc(sizeof(int32_t) * D), *want = calloc(D, sizeof(int32_t));
                for (int32_t i = 0; i < D; i++)
                    S[i] = i;
                naive_exact(w, v, S, D, 0, want);
                for (int rule = JT_RULE_PAPER; rule <= JT_RULE_NORVIG_ENTROPY; rule++) {
                    int32_t len = 0;
                    int32_t *got = tree_of(w, rule, v, h, &len);
                    if (!got)
                        continue;
                    if (rule == JT_RULE_EXACT)
                        CHECK(memcmp(got, want, sizeof(int32_t) * D) == 0,
                              "%s: exact-rule guess counts differ from the naive GuesserGBR",
                              name);
                    const uint64_t hash = fnv(got, len);
                    if (nvariant == 0)
                        first[trial * 5 + rule] = hash;
                    else
                        CHECK(first[trial * 5 + rule] == hash,
                              "%s: the rule %d tree differs from the first variant's", name,
                              rule);
                    free(got);
                }
                free(S);
                free(want);
            }
            jt_words_free(w);
        }
        CHECK(keyed > 0 || !jt_kernels_current()->q16_weighted,
              "%s: no weighted evaluation gave its q as 16-bit keys", name);
        CHECK(owned > 0, "%s: no evaluation took class L from S's membership", name);
        keyed = owned = 0;
        printf("%s: %s\n", name, failures == before ? "ok" : "FAILED");
        nvariant++;
    }
    free(first);
    return failures ? 1 : 0;
}
