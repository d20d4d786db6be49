/* search_cost.c -- the exact cost search (search_cost.h): depth-first branch and bound over
 * decision trees for  F(S, t) = min_g [ v_g c(t+1) [g in S] + sum_{j != win} F(S_j(g), t+1) ],
 * F({i}, t) = v_i c(t+1),  the least sum_i v_i c(depth_i) of the targets S after t guesses.
 *
 * Depth.  The value depends on the guesses already made only through c shifted by t.  Beyond
 * A = K - 1 every c(t + d) = c(K) + tail (t + d - K) is affine in t, so F(S, t) = F(S, A) +
 * W(S) tail (t - A) with the same best trees: the memo keys a state by min(t, A) (the mean,
 * c(d) = d, keys every state at depth 0, as the mean's own search does).  When c is constant
 * over the depths a state can still need (c(t+1) = c(t+m): a tree finds its m targets within
 * m guesses), every tree is optimal and F = W c(t+1) without search.
 *
 * A node (S, t, beta) finds F if it is below beta, else proves F >= beta: the memo's exact
 * value or bound, the counting bounds (cost_bounds.c), then every guess that narrows S down,
 * one per distinct split (a word outside S splitting S like a word seen before adds nothing),
 * tried in order of their lower bounds; a guess's classes are searched heaviest first, each
 * against what the others' bounds leave of the limit, and it fails as soon as its sum reaches
 * the best so far (or beta).  Exact integer arithmetic throughout. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search_cost_internal.h"

/* A guess worth trying at a node: its lower bound, a tie-break (sum_j n_j W_j: smaller splits
 * more evenly), whether it is a member of the state. */
typedef struct {
    uint64_t lb, q;
    int32_t g;
    int32_t member;
} cs_cand;

/* A class of the guess being searched: its members in the level's buffer from `start`. */
typedef struct {
    int32_t start, n;
    uint64_t W, k1, k2, lb;
    int exact; /* lb is the class's exact value */
} cs_part;

/* Scratch of one depth of the recursion. */
typedef struct {
    uint64_t *sv;       /* [D] weights of the state's members, by position */
    uint64_t *sorted;   /* [D] the same, heaviest first */
    cs_cand *cand;      /* [D] */
    int32_t *members;   /* [D] the classes of the guess being searched, class after class */
    uint64_t *h1, *h2;  /* [hcap] split keys of the guesses listed, for deduplication */
    uint32_t *hstamp;   /* [hcap] slot in use if equal to stamp */
    uint32_t hcap, stamp;
    cs_class cls[JT_MAX_R];
    uint8_t touched[JT_MAX_R];
    cs_part part[JT_MAX_R];
} cs_level;

struct jt_csearch {
    const jt_words *w;
    int32_t D, B, hard;
    uint64_t *v, *z1, *z2; /* [D] weights, Zobrist keys */
    cs_costs cost;
    int32_t A;             /* states are keyed at depth min(t, A) */
    int32_t *root;         /* the root's targets */
    int32_t nroot;
    uint64_t Wroot, rk1, rk2;
    cs_memo memo;
    cs_level **lv;         /* [D + 2], made on first use */
    /* the pass under way */
    double deadline, next_poll;
    int64_t node_limit, nodes;
    int stop;              /* enum jt_stop, once a budget ran out */
    int error;             /* JT_ENOMEM if scratch could not be made */
    int (*interrupted)(void *);
    void *ctx;
};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

static inline uint64_t umin(uint64_t a, uint64_t b) { return a < b ? a : b; }

static inline uint64_t umax(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* ---- making and freeing --------------------------------------------------------------------- */

static void level_free(cs_level *lv)
{
    if (!lv)
        return;
    free(lv->sv);
    free(lv->sorted);
    free(lv->cand);
    free(lv->members);
    free(lv->h1);
    free(lv->h2);
    free(lv->hstamp);
    free(lv);
}

static cs_level *level_new(int32_t D)
{
    cs_level *lv = calloc(1, sizeof(cs_level));
    if (!lv)
        return NULL;
    lv->hcap = 16;
    while (lv->hcap < 2u * (uint32_t)D)
        lv->hcap *= 2;
    lv->sv = malloc(sizeof(uint64_t) * (size_t)D);
    lv->sorted = malloc(sizeof(uint64_t) * (size_t)D);
    lv->cand = malloc(sizeof(cs_cand) * (size_t)D);
    lv->members = malloc(sizeof(int32_t) * (size_t)D);
    lv->h1 = malloc(sizeof(uint64_t) * lv->hcap);
    lv->h2 = malloc(sizeof(uint64_t) * lv->hcap);
    lv->hstamp = calloc(lv->hcap, sizeof(uint32_t));
    if (!lv->sv || !lv->sorted || !lv->cand || !lv->members || !lv->h1 || !lv->h2 ||
        !lv->hstamp) {
        level_free(lv);
        return NULL;
    }
    return lv;
}

void jt_cs_free(jt_csearch *s)
{
    if (!s)
        return;
    for (int32_t d = 0; s->lv && d < s->D + 2; d++)
        level_free(s->lv[d]);
    free(s->lv);
    cs_memo_free(&s->memo);
    free(s->cost.tab);
    free(s->v);
    free(s->z1);
    free(s->z2);
    free(s->root);
    free(s);
}

jt_csearch *jt_cs_new(const jt_words *w, const int64_t *v, const jt_costs *costs,
                      size_t memo_bytes, int *status)
{
    *status = JT_EINVAL;
    if (!w || !v)
        return NULL;
    const int32_t D = w->D;
    for (int32_t i = 0; i < D; i++)
        if (v[i] < 0)
            return NULL;
    jt_csearch *s = calloc(1, sizeof(jt_csearch));
    if (!s) {
        *status = JT_ENOMEM;
        return NULL;
    }
    s->w = w;
    s->D = D;
    s->B = w->branch;
    s->hard = w->hard;
    cs_memo_init(&s->memo, memo_bytes);
    const int ok = cs_costs_init(&s->cost, costs, D);
    if (ok != JT_OK) {
        *status = ok;
        jt_cs_free(s);
        return NULL;
    }
    *status = JT_ENOMEM;
    s->A = costs->K - 1;
    s->v = malloc(sizeof(uint64_t) * (size_t)D);
    s->z1 = malloc(sizeof(uint64_t) * (size_t)D);
    s->z2 = malloc(sizeof(uint64_t) * (size_t)D);
    s->root = malloc(sizeof(int32_t) * (size_t)D);
    s->lv = calloc((size_t)D + 2, sizeof(cs_level *));
    if (!s->v || !s->z1 || !s->z2 || !s->root || !s->lv) {
        jt_cs_free(s);
        return NULL;
    }
    uint64_t seed = 0x636f737473656172ull;
    for (int32_t i = 0; i < D; i++) {
        s->v[i] = (uint64_t)v[i];
        s->z1[i] = splitmix(&seed);
        s->z2[i] = splitmix(&seed);
        if (s->v[i] || s->hard) {
            s->root[s->nroot++] = i;
            s->Wroot += s->v[i];
            s->rk1 += s->z1[i];
            s->rk2 += s->z2[i];
        }
    }
    *status = JT_OK;
    return s;
}

void jt_cs_memo_stats(const jt_csearch *s, int64_t *states, int64_t *bytes)
{
    *states = (int64_t)s->memo.n;
    *bytes = (int64_t)(s->memo.cap * sizeof(cs_entry));
}

/* ---- budgets --------------------------------------------------------------------------------- */

/* Whether the pass must stop (and why, in s->stop): polled at every node. */
static int out_of_budget(jt_csearch *s)
{
    if (s->stop)
        return 1;
    if (s->node_limit > 0 && s->nodes >= s->node_limit) {
        s->stop = JT_STOP_NODES;
        return 1;
    }
    if (s->deadline > 0 || s->interrupted) {
        const double t = now_seconds();
        if (s->deadline > 0 && t >= s->deadline) {
            s->stop = JT_STOP_TIME;
            return 1;
        }
        if (s->interrupted && t >= s->next_poll) {
            s->next_poll = t + 0.05;
            if (s->interrupted(s->ctx)) {
                s->stop = JT_STOP_INTERRUPTED;
                return 1;
            }
        }
    }
    return 0;
}

/* ---- the search ------------------------------------------------------------------------------- */

static int cmp_desc(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x < y) - (x > y);
}

static int cmp_cand(const void *a, const void *b)
{
    const cs_cand *x = a, *y = b;
    if (x->lb != y->lb)
        return x->lb < y->lb ? -1 : 1;
    if (x->q != y->q)
        return x->q < y->q ? -1 : 1;
    if (x->member != y->member)
        return x->member ? -1 : 1;
    return (x->g > y->g) - (x->g < y->g);
}

static uint64_t search(jt_csearch *s, int32_t depth, const int32_t *S, int32_t m, int32_t t,
                       uint64_t k1, uint64_t k2, uint64_t W, uint64_t beta, int32_t *guess,
                       uint64_t *best_tree, int *exact);

/* The value of a state found without a node of its own: trivial states (0, 1 or 2 targets, or
 * weight 0), constant costs over its depths, or an exact value in the memo; else 0 with *lb a
 * bound the memo proves (0 if none) and *guess -1. */
static int settled(const jt_csearch *s, const int32_t *S, int32_t m, int32_t t, uint64_t k1,
                   uint64_t k2, uint64_t W, uint64_t *val, uint64_t *lb, int32_t *guess)
{
    const cs_costs *c = &s->cost;
    *guess = -1;
    *lb = 0;
    if (m == 0 || W == 0 || cs_cost(c, t + 1) == cs_cost(c, (int64_t)t + m)) {
        *val = W * cs_cost(c, t + 1);
        *guess = m ? S[0] : -1;
        return 1;
    }
    if (m <= 2) {
        const int first = m == 1 || s->v[S[0]] >= s->v[S[1]] ? 0 : 1;
        *guess = S[first];
        *val = s->v[S[first]] * cs_cost(c, t + 1) +
               (m == 2 ? s->v[S[1 - first]] * cs_cost(c, t + 2) : 0);
        return 1;
    }
    const int32_t dc = t < s->A ? t : s->A;
    const uint64_t shift = W * s->cost.tail * (uint64_t)(t - dc);
    const cs_entry *e = cs_memo_find(&s->memo, k1, k2, dc);
    if (!e)
        return 0;
    if (e->guess >= 0) {
        *val = e->val + shift;
        *guess = e->guess;
        return 1;
    }
    *lb = e->val + shift;
    return 0;
}

static void store(jt_csearch *s, int32_t t, uint64_t k1, uint64_t k2, uint64_t W, uint64_t val,
                  int32_t guess)
{
    const int32_t dc = t < s->A ? t : s->A;
    const uint64_t shift = W * s->cost.tail * (uint64_t)(t - dc);
    cs_memo_store(&s->memo, k1, k2, dc, val > shift ? val - shift : 0, guess);
}

/* List the guesses of the node (S, t) that narrow it down, one per distinct split, with their
 * lower bounds; sorted.  Returns how many. */
static int32_t list_guesses(jt_csearch *s, cs_level *lv, const int32_t *S, int32_t m, int32_t t)
{
    const jt_words *w = s->w;
    const cs_costs *c = &s->cost;
    const int32_t nc = s->hard ? m : s->D;
    int32_t n = 0, next = 0;
    lv->stamp++;
    for (int32_t i = 0; i < nc; i++) {
        const int32_t g = s->hard ? S[i] : i;
        uint64_t own;
        const int32_t nt = cs_split(w, g, S, lv->sv, m, s->z1, s->z2, 1, lv->cls, lv->touched,
                                    &own);
        /* a member is found at once; anything else must split the state */
        while (next < m && S[next] < g)
            next++;
        const int member = next < m && S[next] == g;
        uint64_t lb = own * cs_cost(c, t + 1), q = 0, h1 = 0, h2 = 0;
        for (int32_t j = 0; j < nt; j++) {
            cs_class *k = lv->cls + lv->touched[j];
            lb += cs_class_bound(c, s->B, k->n, k->W, k->vmax, k->vmin, t + 1);
            q += (uint64_t)k->n * k->W;
            h1 += mix(k->k1);
            h2 += mix(k->k2 ^ 0x5bd1e995u);
            k->n = 0;
        }
        if (!member && nt < 2)
            continue;
        if (!member) { /* words outside S with the same split are one guess */
            uint32_t x = (uint32_t)h1 & (lv->hcap - 1);
            int seen = 0;
            for (; lv->hstamp[x] == lv->stamp; x = (x + 1) & (lv->hcap - 1))
                if (lv->h1[x] == h1 && lv->h2[x] == h2) {
                    seen = 1;
                    break;
                }
            if (seen)
                continue;
            lv->hstamp[x] = lv->stamp;
            lv->h1[x] = h1;
            lv->h2[x] = h2;
        }
        lv->cand[n++] = (cs_cand){lb, q, g, member};
    }
    qsort(lv->cand, (size_t)n, sizeof(cs_cand), cmp_cand);
    return n;
}

static int cmp_part(const void *a, const void *b)
{
    const cs_part *x = a, *y = b;
    if (x->W != y->W)
        return x->W > y->W ? -1 : 1;
    return (x->start > y->start) - (x->start < y->start);
}

/* Search guess g at node (S, t) below `limit`: 1 with its exact value in *got if that is below
 * limit, else 0 with a proven lower bound in *got (>= limit unless the pass was stopped). */
static int try_guess(jt_csearch *s, int32_t depth, cs_level *lv, const int32_t *S, int32_t m,
                     int32_t t, int32_t g, uint64_t limit, uint64_t *got)
{
    const jt_words *w = s->w;
    const cs_costs *c = &s->cost;
    uint64_t own;
    const int32_t nt = cs_split(w, g, S, lv->sv, m, s->z1, s->z2, 1, lv->cls, lv->touched, &own);
    int32_t off = 0;
    for (int32_t j = 0; j < nt; j++) {
        cs_class *k = lv->cls + lv->touched[j];
        lv->part[j] = (cs_part){off, 0, k->W, k->k1, k->k2, 0, 0};
        off += (int32_t)k->n;
        k->n = (uint32_t)j; /* for placing the members: the class's part */
    }
    for (int32_t k = 0; k < m; k++) {
        if (S[k] == g)
            continue;
        cs_part *p = lv->part + lv->cls[jt_code(w, g, S[k])].n;
        lv->members[p->start + p->n++] = S[k];
    }
    uint64_t acc = own * cs_cost(c, t + 1), rest = 0;
    for (int32_t j = 0; j < nt; j++) {
        cs_part *p = lv->part + j;
        const cs_class *k = lv->cls + lv->touched[j];
        uint64_t val, mlb;
        int32_t gg;
        if (settled(s, lv->members + p->start, p->n, t + 1, p->k1, p->k2, p->W, &val, &mlb,
                    &gg)) {
            p->lb = val;
            p->exact = 1;
        } else {
            p->lb = umax(mlb, cs_class_bound(c, s->B, (uint32_t)p->n, p->W, k->vmax, k->vmin,
                                             t + 1));
        }
        rest += p->lb;
    }
    for (int32_t j = 0; j < nt; j++)
        lv->cls[lv->touched[j]].n = 0;
    if (acc + rest >= limit) {
        *got = acc + rest;
        return 0;
    }
    qsort(lv->part, (size_t)nt, sizeof(cs_part), cmp_part);
    for (int32_t j = 0; j < nt; j++) {
        cs_part *p = lv->part + j;
        rest -= p->lb;
        uint64_t val = p->lb;
        if (!p->exact) {
            int ex;
            val = search(s, depth + 1, lv->members + p->start, p->n, t + 1, p->k1, p->k2, p->W,
                         limit - acc - rest, NULL, NULL, &ex);
            if (!ex) {
                *got = acc + val + rest;
                return 0;
            }
        }
        acc += val;
        if (acc + rest >= limit) {
            *got = acc + rest;
            return 0;
        }
    }
    *got = acc;
    return 1;
}

/* F(S, t) if it is below beta (*exact 1, *guess its best first guess), else a proven lower
 * bound (>= beta unless the pass stopped).  *best_tree (if not NULL): the value of the best
 * tree completed here, and then *guess its first guess whether exact or not. */
static uint64_t search(jt_csearch *s, int32_t depth, const int32_t *S, int32_t m, int32_t t,
                       uint64_t k1, uint64_t k2, uint64_t W, uint64_t beta, int32_t *guess,
                       uint64_t *best_tree, int *exact)
{
    uint64_t val, lb;
    int32_t g;
    *exact = 0;
    if (best_tree)
        *best_tree = CS_INF;
    if (guess)
        *guess = -1;
    if (settled(s, S, m, t, k1, k2, W, &val, &lb, &g)) {
        *exact = 1;
        if (guess)
            *guess = g;
        if (best_tree)
            *best_tree = val;
        return val;
    }
    cs_level *lv = s->lv[depth];
    if (!lv && !(lv = s->lv[depth] = level_new(s->D))) {
        s->error = JT_ENOMEM;
        s->stop = JT_STOP_INTERRUPTED;
        return lb;
    }
    for (int32_t k = 0; k < m; k++)
        lv->sv[k] = lv->sorted[k] = s->v[S[k]];
    qsort(lv->sorted, (size_t)m, sizeof(uint64_t), cmp_desc);
    lb = umax(lb, cs_sorted_bound(&s->cost, s->B, lv->sorted, (uint32_t)m, t, 1));
    if (m <= CS_SMALL)
        lb = umax(lb, cs_member_bound(s->w, &s->cost, s->B, s->hard, S, lv->sv, m, t));
    if (lb >= beta || out_of_budget(s))
        return lb;
    s->nodes++;
    const int32_t nc = list_guesses(s, lv, S, m, t);
    uint64_t best = CS_INF, proven = CS_INF;
    int32_t best_g = -1;
    for (int32_t i = 0; i < nc; i++) {
        const cs_cand cd = lv->cand[i];
        const uint64_t limit = umin(best, beta);
        if (cd.lb >= limit || s->stop) { /* and so are the rest: sorted */
            proven = umin(proven, cd.lb);
            break;
        }
        uint64_t got;
        if (try_guess(s, depth, lv, S, m, t, cd.g, limit, &got)) {
            best = got;
            best_g = cd.g;
        } else {
            proven = umin(proven, got);
        }
    }
    const int solved = best < beta && proven >= best;
    if (best_tree)
        *best_tree = best;
    if (guess && (solved || best_tree))
        *guess = best_g;
    if (solved) {
        *exact = 1;
        store(s, t, k1, k2, W, best, best_g);
        return best;
    }
    lb = umax(lb, umin(best, proven));
    store(s, t, k1, k2, W, lb, -1);
    return lb;
}

/* ---- passes ---------------------------------------------------------------------------------- */

static void start_pass(jt_csearch *s, double seconds, int64_t max_nodes,
                       int (*interrupted)(void *), void *ctx)
{
    s->nodes = 0;
    s->stop = JT_STOP_DONE;
    s->error = JT_OK;
    s->node_limit = max_nodes > 0 ? max_nodes : 0;
    s->deadline = seconds > 0 ? now_seconds() + seconds : 0;
    s->interrupted = interrupted;
    s->ctx = ctx;
    s->next_poll = 0;
}

/* The keys and weight of state S after t guesses, checked: m >= 1 increasing word indices
 * (outside hard mode of positive weight), t + m <= D (each guess leaves fewer targets). */
static int state_of(const jt_csearch *s, const int32_t *S, int32_t m, int32_t t, uint64_t *k1,
                    uint64_t *k2, uint64_t *W)
{
    if (!S || m < 1 || t < 0 || (int64_t)t + m > s->D)
        return JT_EINVAL;
    *k1 = *k2 = *W = 0;
    for (int32_t k = 0; k < m; k++) {
        if (S[k] < 0 || S[k] >= s->D || (k && S[k] <= S[k - 1]) || (!s->hard && !s->v[S[k]]))
            return JT_EINVAL;
        *k1 += s->z1[S[k]];
        *k2 += s->z2[S[k]];
        *W += s->v[S[k]];
    }
    return JT_OK;
}

int jt_cs_run(jt_csearch *s, const jt_cs_pass *p, const int32_t *S, int32_t m, int32_t t,
              jt_outcome *out)
{
    uint64_t k1 = s->rk1, k2 = s->rk2, W = s->Wroot;
    if (!S) {
        S = s->root;
        m = s->nroot;
        t = 0;
    } else if (state_of(s, S, m, t, &k1, &k2, &W) != JT_OK) {
        return JT_EINVAL;
    }
    start_pass(s, p->seconds, p->max_nodes, p->interrupted, p->ctx);
    int exact;
    out->value = search(s, 0, S, m, t, k1, k2, W, p->beta, &out->best_guess, &out->best, &exact);
    out->exact = exact;
    out->stopped = s->stop;
    out->nodes = s->nodes;
    if (out->best == CS_INF)
        out->best_guess = -1;
    s->interrupted = NULL;
    return s->error;
}

uint64_t jt_cs_root_bound(jt_csearch *s)
{
    const int32_t m = s->nroot;
    uint64_t *w = malloc(sizeof(uint64_t) * (size_t)(m ? m : 1));
    if (!w)
        return 0;
    for (int32_t k = 0; k < m; k++)
        w[k] = s->v[s->root[k]];
    qsort(w, (size_t)m, sizeof(uint64_t), cmp_desc);
    const uint64_t b = cs_sorted_bound(&s->cost, s->B, w, (uint32_t)m, 0, 1);
    free(w);
    return b;
}

int jt_cs_solve(jt_csearch *s, const int32_t *S, int32_t m, int32_t t, uint64_t *value,
                int32_t *guess)
{
    uint64_t k1, k2, W;
    if (state_of(s, S, m, t, &k1, &k2, &W) != JT_OK)
        return JT_EINVAL;
    start_pass(s, 0, 0, NULL, NULL);
    int exact;
    *value = search(s, 0, S, m, t, k1, k2, W, CS_INF, guess, NULL, &exact);
    return s->error;
}
