/* greedy_cost.c -- the heuristic decision of a cost guesser (search_cost.h, jt_cg_decide): the
 * guess minimising a modelled sum_i v_i c(depth_i), fast enough for play.
 *
 * The model.  A class of n >= 3 targets of weight W after t guesses is assumed to be split by
 * every later guess as the state is split by its most even guess (least sum_j n_j^2, the
 * guess itself a class of 1 when it is a member): into the same shares of its targets, rounded
 * to whole targets, again and again until 1 or 2 are left, which cost exactly what their best
 * tree costs.  That gives each of its targets a depth, uneven as real trees are, and the class
 * costs W / n times the sum of c over those depths.  Level 1 scores each guess by its
 * own target (found at t+1) and its classes' modelled costs; each further level takes the
 * `width` best guesses of the level before and scores their classes by the best guess of
 * each (the same decision one level shallower), while the deadline allows.  Scores are in
 * double; ties go to members of the state (they may win at once), then to the lower index. */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "search_cost_internal.h"

/* One class of one guess, kept while the state's guesses are scored. */
typedef struct {
    uint32_t n;
    uint8_t r;
    double W, vmax, vmin;
} cg_class;

typedef struct {
    double score, mean; /* the objective's modelled cost, and the mean's (for ties) */
    int32_t g, member;
    int32_t first, nt; /* its classes in the scratch list */
    double own;
} cg_guess;

typedef struct {
    const jt_words *w;
    int32_t hard, D;
    const double *c;
    int32_t K;
    double tail;
    double deadline;
    int timed_out;
    int64_t pairs;
} cg_ctx;

static double cg_cost(const cg_ctx *x, int64_t d)
{
    return d <= x->K ? x->c[d - 1] : x->c[x->K - 1] + x->tail * (double)(d - x->K);
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int late(cg_ctx *x)
{
    if (!x->timed_out && x->deadline > 0 && seconds_now() >= x->deadline)
        x->timed_out = 1;
    return x->timed_out;
}

static int cmp_guess(const void *a, const void *b)
{
    const cg_guess *x = a, *y = b;
    if (x->score != y->score)
        return x->score < y->score ? -1 : 1;
    if (x->mean != y->mean)
        return x->mean < y->mean ? -1 : 1;
    if (x->member != y->member)
        return x->member ? -1 : 1;
    return (x->g > y->g) - (x->g < y->g);
}

/* The exact cost of the best tree of 1 or 2 targets after t guesses. */
static double small_cost(const cg_ctx *x, uint32_t n, double W, double vmax, double vmin,
                         int32_t t)
{
    if (n == 0)
        return 0.0;
    if (n == 1)
        return W * cg_cost(x, t + 1);
    return vmax * cg_cost(x, t + 1) + vmin * cg_cost(x, t + 2);
}

static int32_t decide(cg_ctx *x, const int32_t *S, const uint64_t *sv, int32_t m, int32_t t,
                      int32_t level, int32_t width, double *score);

/* The model of how a class of n targets is found (the file's comment): split again and again
 * as the state's most even split (least sum_j n_j^2) splits it, its classes in proportion,
 * rounded to whole targets by largest remainders; the cost of n unit-weight targets after t
 * guesses, remembered per depth and size. */
#define MODEL_DEPTHS 48

typedef struct {
    const cg_ctx *x;
    double f[JT_MAX_R]; /* the classes' shares of the targets the guess does not find, largest
                           first */
    int32_t J, member;
    double b;           /* its effective number of classes, 1 / sum_j f_j^2 */
    int32_t t0, m;
    int mean;           /* the costs are the mean's, c(d) = d, not the objective's */
    double *V[MODEL_DEPTHS]; /* V[t - t0][n], NAN while unknown */
} cg_model;

static double mcost(const cg_model *md, int64_t d)
{
    return md->mean ? (double)d : cg_cost(md->x, d);
}

static int cmp_share(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

/* The model of state S's m targets after t guesses: the guess of least sum_j n_j^2 among the
 * ng guesses gs (whose .score holds that sum for now) and their classes cl. */
static void model_init(cg_model *md, const cg_ctx *x, const cg_guess *gs, int32_t ng,
                      const cg_class *cl, int32_t m, int32_t t0, int mean)
{
    const cg_guess *best = gs;
    for (int32_t i = 1; i < ng; i++)
        if (gs[i].score < best->score)
            best = gs + i;
    md->x = x;
    md->member = best->member;
    md->J = best->nt;
    md->t0 = t0;
    md->m = m;
    md->mean = mean;
    const double rest = (double)(m - best->member);
    double sq = 0.0;
    for (int32_t j = 0; j < best->nt; j++) {
        md->f[j] = (double)cl[best->first + j].n / rest;
        sq += md->f[j] * md->f[j];
    }
    qsort(md->f, (size_t)md->J, sizeof(double), cmp_share);
    md->b = 1.0 / sq;
    for (int l = 0; l < MODEL_DEPTHS; l++)
        md->V[l] = NULL;
}

static void model_free(cg_model *md)
{
    for (int l = 0; l < MODEL_DEPTHS; l++)
        free(md->V[l]);
}

/* Past MODEL_DEPTHS depths of the model: the k-th target at the least depth d with
 * 1 + b + ... + b^(d-1) >= k. */
static double model_slots(const cg_model *md, int32_t n, int32_t t)
{
    double total = 0.0, cum = 1.0, width = 1.0;
    int32_t d = 1;
    for (int32_t k = 1; k <= n; k++) {
        while (cum < (double)k) {
            width *= md->b;
            cum += width;
            d++;
        }
        total += mcost(md, (int64_t)t + d);
    }
    return total;
}

static double model_cost(cg_model *md, int32_t n, int32_t t)
{
    if (n <= 2)
        return n == 0 ? 0.0 : n == 1 ? mcost(md, t + 1) : mcost(md, t + 1) + mcost(md, t + 2);
    if (mcost(md, t + 1) == mcost(md, (int64_t)t + n))
        return n * mcost(md, t + 1);
    const int32_t l = t - md->t0;
    if (l >= MODEL_DEPTHS || n > md->m)
        return model_slots(md, n, t);
    if (!md->V[l]) {
        md->V[l] = malloc(sizeof(double) * ((size_t)md->m + 1));
        if (!md->V[l])
            return model_slots(md, n, t);
        for (int32_t k = 0; k <= md->m; k++)
            md->V[l][k] = NAN;
    }
    if (!isnan(md->V[l][n]))
        return md->V[l][n];
    /* the parts: floor(f_j N), and one more for the largest remainders until they sum to N */
    int member = md->member;
    int32_t N = n - member, part[JT_MAX_R], left = N;
    double rem[JT_MAX_R];
    for (int32_t j = 0; j < md->J; j++) {
        part[j] = (int32_t)floor(md->f[j] * N);
        rem[j] = md->f[j] * N - part[j];
        left -= part[j];
    }
    while (left > 0) {
        int32_t top = 0;
        for (int32_t j = 1; j < md->J; j++)
            if (rem[j] > rem[top])
                top = j;
        part[top]++;
        rem[top] = -1.0;
        left--;
    }
    if (!member && part[0] == n) { /* no progress once rounded: a member splits it instead */
        member = 1;
        part[0]--;
    }
    double total = member ? mcost(md, t + 1) : 0.0;
    for (int32_t j = 0; j < md->J; j++)
        total += model_cost(md, part[j], t + 1);
    md->V[l][n] = total;
    return total;
}

/* The state's guesses scored at level 1, sorted (NULL if out of memory); their classes in
 * *list.  *n: how many guesses. */
static cg_guess *level_one(cg_ctx *x, const int32_t *S, const uint64_t *sv, int32_t m,
                           int32_t t, cg_class **list, int32_t *n)
{
    const int32_t nc = x->hard ? m : x->D;
    cg_guess *gs = malloc(sizeof(cg_guess) * (size_t)nc);
    cg_class *cl = malloc(sizeof(cg_class) * (size_t)nc * (size_t)(jt_words_classes(x->w)));
    if (!gs || !cl) {
        free(gs);
        free(cl);
        return NULL;
    }
    cs_class cls[JT_MAX_R];
    uint8_t touched[JT_MAX_R];
    for (int r = 0; r < JT_MAX_R; r++)
        cls[r].n = 0;
    int32_t ng = 0, used = 0, next = 0;
    for (int32_t i = 0; i < nc; i++) {
        const int32_t g = x->hard ? S[i] : i;
        uint64_t own;
        const int32_t nt = cs_split(x->w, g, S, sv, m, NULL, NULL, 0, cls, touched, &own);
        x->pairs += m;
        while (next < m && S[next] < g)
            next++;
        const int member = next < m && S[next] == g;
        double sq = member ? 1.0 : 0.0;
        for (int32_t j = 0; j < nt; j++) {
            const cs_class *k = cls + touched[j];
            sq += (double)k->n * (double)k->n;
            cl[used + j] = (cg_class){k->n, touched[j], (double)k->W, (double)k->vmax,
                                      (double)k->vmin};
            cls[touched[j]].n = 0;
        }
        if (!member && nt < 2)
            continue;
        gs[ng++] = (cg_guess){sq, 0.0, g, member, used, nt, (double)own};
        used += nt;
    }
    cg_model md, mm; /* the objective's, and the mean's for ties */
    model_init(&md, x, gs, ng, cl, m, t + 1, 0);
    model_init(&mm, x, gs, ng, cl, m, t + 1, 1);
    for (int32_t i = 0; i < ng; i++) {
        cg_guess *q = gs + i;
        double s = q->own * cg_cost(x, t + 1), e = q->own * (t + 1);
        for (int32_t j = 0; j < q->nt; j++) {
            const cg_class *k = cl + q->first + j;
            if (k->n <= 2) {
                s += small_cost(x, k->n, k->W, k->vmax, k->vmin, t + 1);
                e += k->W * (t + 2) + (k->n == 2 ? k->vmin : 0.0);
            } else {
                s += k->W / (double)k->n * model_cost(&md, (int32_t)k->n, t + 1);
                e += k->W / (double)k->n * model_cost(&mm, (int32_t)k->n, t + 1);
            }
        }
        q->score = s;
        q->mean = e;
    }
    model_free(&md);
    model_free(&mm);
    qsort(gs, (size_t)ng, sizeof(cg_guess), cmp_guess);
    *list = cl;
    *n = ng;
    return gs;
}

/* Score guess q of state S one level deeper: its classes at their best guesses' scores.
 * Returns 0 if the deadline passed (the score is then unknown). */
static int refine(cg_ctx *x, const int32_t *S, const uint64_t *sv, int32_t m, int32_t t,
                  int32_t level, int32_t width, const cg_guess *q, const cg_class *cl,
                  double *score)
{
    int32_t *sub = malloc(sizeof(int32_t) * (size_t)m);
    uint64_t *subv = malloc(sizeof(uint64_t) * (size_t)m);
    if (!sub || !subv) {
        free(sub);
        free(subv);
        return 0;
    }
    double s = q->own * cg_cost(x, t + 1);
    int ok = 1;
    for (int32_t j = 0; j < q->nt && ok; j++) {
        const cg_class *k = cl + q->first + j;
        if (k->n <= 2) {
            s += small_cost(x, k->n, k->W, k->vmax, k->vmin, t + 1);
            continue;
        }
        int32_t n = 0;
        for (int32_t i = 0; i < m; i++)
            if (S[i] != q->g && jt_code(x->w, q->g, S[i]) == k->r) {
                sub[n] = S[i];
                subv[n++] = sv[i];
            }
        x->pairs += m;
        double part;
        decide(x, sub, subv, n, t + 1, level - 1, width, &part);
        ok = !x->timed_out;
        s += part;
    }
    free(sub);
    free(subv);
    *score = s;
    return ok;
}

/* The best guess of state S after t guesses at `level`, and its score. */
static int32_t decide(cg_ctx *x, const int32_t *S, const uint64_t *sv, int32_t m, int32_t t,
                      int32_t level, int32_t width, double *score)
{
    if (m <= 2) {
        const int first = m == 1 || sv[0] >= sv[1] ? 0 : 1;
        const double lighter = m == 2 ? (double)sv[1 - first] : (double)sv[0];
        *score = small_cost(x, (uint32_t)m, (double)sv[0] + (m == 2 ? (double)sv[1] : 0.0),
                            (double)sv[first], lighter, t);
        return S[first];
    }
    cg_class *cl = NULL;
    int32_t ng = 0;
    cg_guess *gs = level_one(x, S, sv, m, t, &cl, &ng);
    if (!gs) {
        *score = 0.0;
        return JT_ENOMEM;
    }
    int32_t best = gs[0].g;
    *score = gs[0].score;
    if (level > 1 && !late(x)) {
        const int32_t top = width < ng ? width : ng;
        double best_refined = 0.0;
        int32_t refined = -1;
        for (int32_t i = 0; i < top && !late(x); i++) {
            double s;
            if (!refine(x, S, sv, m, t, level, width, gs + i, cl, &s))
                break;
            if (refined < 0 || s < best_refined ||
                (s == best_refined && cmp_guess(gs + i, gs + refined) < 0)) {
                best_refined = s;
                refined = i;
            }
        }
        if (refined >= 0) {
            best = gs[refined].g;
            *score = best_refined;
        }
    }
    free(gs);
    free(cl);
    return best;
}

int32_t jt_cg_decide(const jt_words *w, const int64_t *v, const double *c, int32_t K, double tail,
                     int32_t t, const int32_t *S, int32_t m, const jt_cg_params *p,
                     jt_cg_info *info)
{
    if (!w || !v || !c || !S || !p || K < 1 || m < 1 || m > w->D || t < 0 || p->levels < 1 ||
        p->width < 1 || !(tail >= 0) || !isfinite(tail))
        return JT_EINVAL;
    for (int32_t k = 0; k < K; k++)
        if (!(c[k] >= 0) || !isfinite(c[k]) || (k && c[k] < c[k - 1]))
            return JT_EINVAL;
    int32_t *sub = malloc(sizeof(int32_t) * (size_t)m);
    uint64_t *sv = malloc(sizeof(uint64_t) * (size_t)m);
    if (!sub || !sv) {
        free(sub);
        free(sv);
        return JT_ENOMEM;
    }
    /* outside hard mode the words of weight 0 cost nothing and are left out; a state of only
     * such words is played as if each weighed 1 */
    int32_t n = 0;
    uint64_t W = 0;
    for (int32_t k = 0; k < m; k++) {
        if (S[k] < 0 || S[k] >= w->D || (k && S[k] <= S[k - 1]) || v[S[k]] < 0) {
            free(sub);
            free(sv);
            return JT_EINVAL;
        }
        W += (uint64_t)v[S[k]];
    }
    for (int32_t k = 0; k < m; k++)
        if (!W || w->hard || v[S[k]]) {
            sub[n] = S[k];
            sv[n++] = W ? (uint64_t)v[S[k]] : 1;
        }
    cg_ctx x = {w, w->hard, w->D, c, K, tail,
                p->seconds > 0 ? seconds_now() + p->seconds : 0.0, 0, 0};
    double score;
    const int32_t g = decide(&x, sub, sv, n, t, p->levels, p->width, &score);
    free(sub);
    free(sv);
    if (info) {
        info->score = score;
        info->complete = !x.timed_out;
        info->pairs = x.pairs;
    }
    return g;
}
