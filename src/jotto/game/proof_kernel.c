/* proof_kernel.c -- the certificate checker's work on one state, in C: the compiled twin of
 * _Game.verify in proof_check.py (docs/certificates.md), written apart from the search: it
 * includes nothing of src/jotto/_engine and is given only the word list's replies, the weights,
 * the letter masks and the tables of the definitions (N_k, the counting bound of n equal
 * targets, phi, psi, alone), all computed by proof_check.py.
 *
 * A state S (the increasing word indices of its targets) is checked against a claim b: for
 * every guess g that narrows S down (in the list's order), the classes of g are bounded by the
 * counting bound, then (if still short of b) by the records of the classes, then by the family
 * bound, then (classes of 3..CK_SMALL targets) by the member bound; the first guess left short
 * is reported with its classes' bounds.  The values are the same as the Python checker's, and
 * the report names the same guess (tests/game/test_certificates_compiled.py compares them).
 *
 * The records verified so far are an open-addressing table of 128-bit keys (sums of per-word
 * random keys) to their bounds, a key's bound only rising. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proof_kernel.h"

#define CK_BIG (INT64_MAX / 4)

static inline int popc(int64_t x) { return __builtin_popcountll((uint64_t)x); }

static inline int64_t cap(const ck_game *G, int k)
{
    return k < G->NK ? G->N[k] : CK_BIG;
}

/* ---- the table of verified bounds ---------------------------------------------------------- */

static int table_alloc(ck_game *G, int64_t size)
{
    G->t0 = calloc((size_t)size, sizeof *G->t0);
    G->t1 = calloc((size_t)size, sizeof *G->t1);
    G->tv = malloc((size_t)size * sizeof *G->tv);
    G->tr = malloc((size_t)size * sizeof *G->tr);
    if (!G->t0 || !G->t1 || !G->tv || !G->tr)
        return -1;
    for (int64_t i = 0; i < size; i++)
        G->tv[i] = -1;
    G->tmask = (uint64_t)size - 1;
    return 0;
}

static inline uint64_t table_slot(const ck_game *G, uint64_t a, uint64_t b)
{
    uint64_t s = a & G->tmask;
    while (G->tv[s] >= 0 && (G->t0[s] != a || G->t1[s] != b))
        s = (s + 1) & G->tmask;
    return s;
}

int64_t ck_get(const ck_game *G, uint64_t a, uint64_t b, int64_t *rec)
{
    uint64_t s = table_slot(G, a, b);
    if (rec)
        *rec = G->tr[s];
    return G->tv[s];
}

int ck_put(ck_game *G, uint64_t a, uint64_t b, int64_t v, int64_t rec)
{
    if (2 * (G->tn + 1) > (int64_t)G->tmask + 1) {
        uint64_t *o0 = G->t0, *o1 = G->t1;
        int64_t *ov = G->tv, *orec = G->tr, size = (int64_t)G->tmask + 1;
        if (table_alloc(G, 2 * size)) {
            free(G->t0), free(G->t1), free(G->tv), free(G->tr);
            G->t0 = o0, G->t1 = o1, G->tv = ov, G->tr = orec, G->tmask = (uint64_t)size - 1;
            return -1;
        }
        for (int64_t i = 0; i < size; i++)
            if (ov[i] >= 0) {
                uint64_t s = table_slot(G, o0[i], o1[i]);
                G->t0[s] = o0[i], G->t1[s] = o1[i], G->tv[s] = ov[i], G->tr[s] = orec[i];
            }
        free(o0), free(o1), free(ov), free(orec);
    }
    uint64_t s = table_slot(G, a, b);
    if (G->tv[s] < 0) {
        G->tn++;
        G->t0[s] = a, G->t1[s] = b;
    }
    if (v > G->tv[s])
        G->tv[s] = v, G->tr[s] = rec;
    return 0;
}

/* With G->track: the records whose bounds the classes of a guess took (how CK_RECORD at the
 * end of its check) are appended to G->used, the records this state's proof uses. */
static int use_records(ck_game *G, const int8_t *how, const int64_t *rec)
{
    if (!G->track)
        return 0;
    for (int r = 0; r < G->win; r++)
        if (how[r] == CK_RECORD) {
            if (G->nused == G->cap_used) {
                int64_t n = G->cap_used ? 2 * G->cap_used : 1024, *u;
                if (!(u = realloc(G->used, (size_t)n * sizeof *u)))
                    return -1;
                G->used = u, G->cap_used = n;
            }
            G->used[G->nused++] = rec[r];
        }
    return 0;
}

void ck_key(const ck_game *G, const int32_t *idx, int32_t m, uint64_t *a, uint64_t *b)
{
    uint64_t x = 0, y = 0;
    for (int32_t t = 0; t < m; t++)
        x += G->z0[idx[t]], y += G->z1[idx[t]];
    *a = x, *b = y;
}

static int cmp_i64(const void *x, const void *y)
{
    const int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

int64_t ck_used_unique(ck_game *G)
{
    if (G->nused > 1) {
        qsort(G->used, (size_t)G->nused, sizeof *G->used, cmp_i64);
        int64_t k = 1;
        for (int64_t i = 1; i < G->nused; i++)
            if (G->used[i] != G->used[k - 1])
                G->used[k++] = G->used[i];
        G->nused = k;
    }
    return G->nused;
}

/* ---- counting and member bounds ------------------------------------------------------------ */

/* sum_k (W - weight of the N_k heaviest) of targets of weights w[0..n) (w is reordered). */
static int64_t counting(const ck_game *G, int64_t *w, int32_t n)
{
    for (int32_t i = 1; i < n; i++) { /* heaviest first */
        int64_t x = w[i];
        int32_t j = i;
        for (; j > 0 && w[j - 1] < x; j--)
            w[j] = w[j - 1];
        w[j] = x;
    }
    int64_t out = 0;
    for (int32_t i = 0; i < n; i++)
        out += w[i] * G->depth[i + 1];
    return out;
}

/* The member bound of the targets c[0..n) (3 <= n <= CK_SMALL): the least over first guesses x
 * in c of W + the counting bounds of x's classes, and (not in hard mode) of a guess outside,
 * which finds nothing and whose at most B children find at most B N_k within k more. */
static int64_t member_bound(const ck_game *G, const int32_t *c, int32_t n)
{
    int64_t W = 0, w[CK_SMALL], cls[CK_SMALL];
    for (int32_t i = 0; i < n; i++)
        W += G->v[c[i]];
    int64_t best = CK_BIG;
    for (int32_t i = 0; i < n; i++) {
        const uint8_t *row = G->reply + (int64_t)c[i] * G->D;
        int64_t sum = 0;
        int32_t done = 0; /* bitmask of members placed in a class already */
        for (int32_t a = 0; a < n; a++) {
            if (a == i || (done >> a & 1))
                continue;
            int r = row[c[a]], k = 0;
            for (int32_t b = a; b < n; b++)
                if (b != i && row[c[b]] == r) {
                    cls[k++] = G->v[c[b]];
                    done |= 1 << b;
                }
            sum += counting(G, cls, k);
        }
        if (W + sum < best)
            best = W + sum;
    }
    if (!G->hard) {
        for (int32_t i = 0; i < n; i++)
            w[i] = G->v[c[i]];
        counting(G, w, n); /* sorts w, heaviest first */
        int64_t other = W;
        for (int k = 0; (int64_t)G->B * cap(G, k) < n; k++) {
            int64_t top = 0;
            for (int64_t i = 0; i < (int64_t)G->B * cap(G, k); i++)
                top += w[i];
            other += W - top;
        }
        if (other < best)
            best = other;
    }
    return best;
}

/* ---- family bounds (equal weights, unit) ----------------------------------------------------- */

static int64_t sizes_bound(const ck_game *G, int64_t n, const int *sizes, int ns, int64_t covered,
                           int first_finds)
{
    int64_t b = 0;
    for (int k = 0;; k++) {
        const int64_t *tab = (first_finds ? G->phi : G->psi) +
                             (int64_t)(k < G->K ? k : G->K - 1) * G->S;
        int64_t found = n - covered;
        for (int i = 0; i < ns; i++)
            found += tab[sizes[i]];
        int64_t c = cap(G, k) - ((first_finds || k == 0) ? 0 : 1);
        if (found > c)
            found = c;
        if (found >= n)
            return b;
        b += n - found;
    }
}

static int64_t apart(const ck_game *G, int64_t n, const int *sizes, int ns, int64_t covered)
{
    int64_t out = G->cb[n - covered];
    for (int i = 0; i < ns; i++)
        out += G->alone[sizes[i]];
    return out;
}

static int64_t family_bound(const ck_game *G, int64_t n, const int *sizes, int ns, int64_t covered)
{
    if (!ns)
        return G->cb[n];
    int64_t a = sizes_bound(G, n, sizes, ns, covered, 1), b = apart(G, n, sizes, ns, covered);
    return a > b ? a : b;
}

/* The member bound (unit weights) of the small class c[0..n) with its families' parts
 * (P[i], X[i]), i < np. */
static int64_t family_member_bound(const ck_game *G, const int32_t *c, int32_t n,
                                   const int64_t *P, const int64_t *X, int np)
{
    int sizes[CK_SMALL], sub[CK_MAX_LEN + 1][CK_SMALL], ns[CK_MAX_LEN + 1];
    int64_t covered = 0, subc[CK_MAX_LEN + 1];
    for (int i = 0; i < np; i++)
        covered += sizes[i] = popc(X[i]);
    int64_t best = sizes_bound(G, n, sizes, np, covered, 0);
    const int L = G->L;
    for (int32_t i = 0; i < n; i++) {
        int64_t a = G->masks[c[i]];
        int64_t cnt[CK_MAX_LEN + 1] = {0};
        for (int32_t j = 0; j < n; j++)
            if (G->masks[c[j]] != a)
                cnt[popc(a & G->masks[c[j]])]++;
        for (int q = 0; q <= L; q++)
            ns[q] = 0, subc[q] = 0;
        for (int f = 0; f < np; f++) {
            int q = popc(a & P[f]), moved = popc(a & X[f]);
            if (sizes[f] - moved >= 3 && ns[q] < CK_SMALL)
                sub[q][ns[q]++] = sizes[f] - moved, subc[q] += sizes[f] - moved;
            if (q + 1 < L && moved >= 3 && ns[q + 1] < CK_SMALL)
                sub[q + 1][ns[q + 1]++] = moved, subc[q + 1] += moved;
        }
        int64_t b = n;
        for (int q = 0; q < L; q++) {
            b += family_bound(G, cnt[q], sub[q], ns[q], subc[q]);
            if (b >= best)
                break;
        }
        if (b < best)
            best = b;
    }
    int64_t ap = apart(G, n, sizes, np, covered);
    return best > ap ? best : ap;
}

struct pentry {
    int64_t P;
    int32_t pos;
};

static int cmp_pentry(const void *x, const void *y)
{
    const struct pentry *a = x, *b = y;
    if (a->P != b->P)
        return a->P < b->P ? -1 : 1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

struct group {
    int64_t P;
    int32_t start, size;
};

static int cmp_group(const void *x, const void *y)
{
    const struct group *a = x, *b = y;
    if (a->size != b->size)
        return a->size > b->size ? -1 : 1;
    return (a->P > b->P) - (a->P < b->P);
}

/* Families of the state idx[0..m) packed disjointly into G->fP, G->fX: every target is in the
 * family of each of its L letter sets P less one letter; the sets of 3 or more are taken
 * largest first (then by P), each while 3 of its members are free. */
static int pack_families(ck_game *G, const int32_t *idx, int32_t m)
{
    const int L = G->L;
    struct pentry *e = G->pent;
    struct group *gr = G->groups;
    int32_t ne = 0, ng = 0;
    for (int32_t t = 0; t < m; t++)
        for (int l = 0; l < L; l++) {
            e[ne].P = G->masks[idx[t]] & ~G->letter_bits[(int64_t)idx[t] * L + l];
            e[ne].pos = t;
            ne++;
        }
    qsort(e, (size_t)ne, sizeof *e, cmp_pentry);
    for (int32_t i = 0; i < ne;) {
        int32_t j = i;
        while (j < ne && e[j].P == e[i].P)
            j++;
        if (j - i >= 3)
            gr[ng].P = e[i].P, gr[ng].start = i, gr[ng].size = j - i, ng++;
        i = j;
    }
    qsort(gr, (size_t)ng, sizeof *gr, cmp_group);
    memset(G->taken, 0, (size_t)m);
    int nf = 0;
    for (int32_t f = 0; f < ng; f++) {
        int free_n = 0;
        for (int32_t i = gr[f].start; i < gr[f].start + gr[f].size; i++)
            free_n += !G->taken[e[i].pos];
        if (free_n < 3)
            continue;
        int64_t x = 0;
        for (int32_t i = gr[f].start; i < gr[f].start + gr[f].size; i++)
            if (!G->taken[e[i].pos]) {
                G->taken[e[i].pos] = 1;
                x |= G->masks[idx[e[i].pos]];
            }
        G->fP[nf] = gr[f].P;
        G->fX[nf] = x & ~gr[f].P;
        nf++;
    }
    return nf;
}

/* ---- a state --------------------------------------------------------------------------------- */

int ck_verify(ck_game *G, const int32_t *idx, int32_t m, int64_t claim, int32_t only,
              ck_failure *out)
{
    const int32_t D = G->D, V = G->win, R = G->R;
    G->nused = 0;
    int64_t W = 0, wmin = INT64_MAX, wmax = INT64_MIN;
    for (int32_t t = 0; t < m; t++) {
        int64_t x = G->v[idx[t]];
        W += x;
        wmin = x < wmin ? x : wmin;
        wmax = x > wmax ? x : wmax;
    }
    if (m <= 2 && only < 0) {
        int64_t w[2];
        for (int32_t t = 0; t < m; t++)
            w[t] = G->v[idx[t]];
        out->total = counting(G, w, m);
        return out->total >= claim ? CK_OK : CK_SMALL_SHORT;
    }
    const int uniform = wmin == wmax;
    const int64_t u = wmin;
    int32_t *order = G->order;
    if (!uniform) { /* positions by weight, heaviest first (ties in any order) */
        for (int32_t t = 0; t < m; t++) {
            int32_t j = t;
            int64_t x = G->v[idx[t]];
            for (; j > 0 && G->v[idx[order[j - 1]]] < x; j--)
                order[j] = order[j - 1];
            order[j] = t;
        }
    }
    int nf = -1; /* families, packed when first needed */
    uint8_t *codes = G->codes;
    int64_t *cnt = G->cnt, *bound = out->bound, *rank = G->rank;
    int8_t *how = out->how;
    int32_t G_n = only >= 0 ? 1 : G->hard ? m : D, narrowing = 0;
    for (int32_t gi = 0; gi < G_n; gi++) {
        const int32_t g = only >= 0 ? only : G->hard ? idx[gi] : gi;
        const uint8_t *row = G->reply + (int64_t)g * D;
        for (int r = 0; r < R; r++)
            cnt[r] = 0;
        for (int32_t t = 0; t < m; t++)
            cnt[codes[t] = row[idx[t]]]++;
        if (only < 0 && !G->hard) {
            int64_t most = 0;
            for (int r = 0; r < V; r++)
                most = cnt[r] > most ? cnt[r] : most;
            if (most >= m)
                continue;
        }
        narrowing++;
        int64_t total = W;
        if (uniform) {
            for (int r = 0; r < V; r++)
                total += bound[r] = G->cb[cnt[r]] * u;
        } else {
            for (int r = 0; r < V; r++)
                bound[r] = 0, rank[r] = 0;
            for (int32_t i = 0; i < m; i++) {
                int32_t t = order[i];
                int r = codes[t];
                if (r < V)
                    bound[r] += G->v[idx[t]] * G->depth[++rank[r]];
            }
            for (int r = 0; r < V; r++)
                total += bound[r];
        }
        for (int r = 0; r < V; r++)
            how[r] = CK_COUNTING;
        if (total >= claim)
            continue;
        /* the records of the classes (of 3 or more targets: smaller ones have exact bounds) */
        uint64_t *k0 = G->k0, *k1 = G->k1;
        for (int r = 0; r < R; r++)
            k0[r] = k1[r] = 0;
        for (int32_t t = 0; t < m; t++)
            k0[codes[t]] += G->z0[idx[t]], k1[codes[t]] += G->z1[idx[t]];
        int64_t *rec = G->rec;
        for (int r = 0; r < V; r++)
            if (cnt[r] >= 3) {
                int64_t got = ck_get(G, k0[r], k1[r], &rec[r]);
                if (got > bound[r]) {
                    total += got - bound[r];
                    bound[r] = got, how[r] = CK_RECORD;
                }
            }
        if (total >= claim) {
            if (use_records(G, how, rec))
                return CK_NOMEM;
            continue;
        }
        /* the families' parts in the classes */
        int np = 0;
        if (G->families && uniform) {
            if (nf < 0)
                nf = pack_families(G, idx, m);
            const int64_t gm = G->masks[g];
            for (int f = 0; f < nf; f++) {
                int r = popc(gm & G->fP[f]);
                int64_t kept = G->fX[f] & ~gm, moved = G->fX[f] & gm;
                if (popc(kept) >= 3)
                    G->pc[np] = r, G->pP[np] = G->fP[f], G->pX[np] = kept, np++;
                if (r + 1 < G->L && popc(moved) >= 3)
                    G->pc[np] = r + 1, G->pP[np] = G->fP[f], G->pX[np] = moved, np++;
            }
            for (int r = 0; r < V && np; r++) {
                int *sizes = G->sizes, ns = 0;
                int64_t covered = 0;
                for (int i = 0; i < np; i++)
                    if (G->pc[i] == r)
                        covered += sizes[ns++] = popc(G->pX[i]);
                if (!ns)
                    continue;
                int64_t got = u * family_bound(G, cnt[r], sizes, ns, covered);
                if (got > bound[r]) {
                    total += got - bound[r];
                    bound[r] = got, how[r] = CK_FAMILY;
                }
            }
            if (total >= claim) {
                if (use_records(G, how, rec))
                    return CK_NOMEM;
                continue;
            }
        }
        /* the member bounds of small classes */
        for (int r = 0; r < V && total < claim; r++) {
            if (cnt[r] < 3 || cnt[r] > CK_SMALL)
                continue;
            int32_t c[CK_SMALL], n = 0;
            for (int32_t t = 0; t < m; t++)
                if (codes[t] == r)
                    c[n++] = idx[t];
            int64_t P[CK_SMALL], X[CK_SMALL]; /* disjoint parts of 3 or more of <= CK_SMALL */
            int nparts = 0;
            for (int i = 0; i < np; i++)
                if (G->pc[i] == r)
                    P[nparts] = G->pP[i], X[nparts] = G->pX[i], nparts++;
            int64_t got = nparts ? u * family_member_bound(G, c, n, P, X, nparts)
                                 : member_bound(G, c, n);
            if (got > bound[r]) {
                total += got - bound[r];
                bound[r] = got, how[r] = CK_MEMBER;
            }
        }
        if (use_records(G, how, rec))
            return CK_NOMEM;
        if (total < claim) {
            out->guess = g;
            out->total = total;
            for (int r = 0; r < V; r++)
                out->cnt[r] = cnt[r];
            return CK_SHORT;
        }
    }
    return narrowing ? CK_OK : CK_NO_GUESS;
}

/* ---- set-up ---------------------------------------------------------------------------------- */

int ck_init(ck_game *G)
{
    const int32_t D = G->D;
    G->tn = 0;
    G->used = NULL, G->nused = G->cap_used = 0;
    G->codes = malloc((size_t)D);
    G->taken = malloc((size_t)D);
    G->order = malloc((size_t)D * sizeof *G->order);
    G->pent = malloc((size_t)D * G->L * sizeof *G->pent);
    G->groups = malloc((size_t)D * G->L * sizeof *G->groups);
    G->fP = malloc((size_t)D * sizeof *G->fP);
    G->fX = malloc((size_t)D * sizeof *G->fX);
    G->pP = malloc((size_t)D * sizeof *G->pP);
    G->pX = malloc((size_t)D * sizeof *G->pX);
    G->pc = malloc((size_t)D * sizeof *G->pc);
    G->sizes = malloc((size_t)D * sizeof *G->sizes);
    if (G->R > CK_MAX_REPLIES || (G->families && G->L > CK_MAX_LEN) || !G->codes || !G->taken ||
        !G->order || !G->pent || !G->groups || !G->fP || !G->fX || !G->pP || !G->pX || !G->pc ||
        !G->sizes || table_alloc(G, 1 << 16)) {
        ck_free(G);
        return -1;
    }
    return 0;
}

void ck_free(ck_game *G)
{
    free(G->tr), free(G->used), free(G->t0), free(G->t1), free(G->tv), free(G->codes);
    free(G->taken), free(G->order);
    free(G->pent), free(G->groups), free(G->fP), free(G->fX), free(G->pP), free(G->pX);
    free(G->pc), free(G->sizes);
    G->fP = G->fX = G->pP = G->pX = NULL, G->pc = G->sizes = NULL;
    G->tr = G->used = NULL, G->cap_used = G->nused = 0;
    G->t0 = G->t1 = NULL, G->tv = NULL, G->codes = G->taken = NULL, G->order = NULL;
    G->pent = NULL, G->groups = NULL;
}
