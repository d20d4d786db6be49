/* cost_bounds.c -- the cost vector of a cost search (search_cost.h) and the lower bounds that
 * hold for any non-decreasing one: counting bounds (a tree finds at most B^(d-1) targets at its
 * depth d) with the heaviest targets at the cheapest depths, and the member bound. */
#include <stdlib.h>

#include "search_cost_internal.h"

int cs_costs_init(cs_costs *out, const jt_costs *in, int32_t D)
{
    if (!in || !in->c || in->K < 1)
        return JT_EINVAL;
    for (int32_t k = 1; k < in->K; k++)
        if (in->c[k] < in->c[k - 1])
            return JT_EINVAL;
    out->K = in->K;
    out->cK = in->c[in->K - 1];
    out->tail = in->tail;
    out->n = (D + 2 > in->K + 1 ? D + 2 : in->K + 1); /* past it, d > K: the tail's formula */
    out->tab = malloc(sizeof(uint64_t) * (size_t)out->n);
    if (!out->tab)
        return JT_ENOMEM;
    out->tab[0] = 0;
    for (int32_t d = 1; d < out->n; d++)
        out->tab[d] = d <= in->K ? in->c[d - 1] : out->cK + out->tail * (uint64_t)(d - in->K);
    return JT_OK;
}

uint64_t cs_slots(int32_t B, int first, int32_t d)
{
    if (d == 1)
        return first ? 1 : 0;
    uint64_t cap = 1;
    for (int32_t k = 1; k < d; k++) {
        if (cap > (UINT64_MAX >> 8) / (uint64_t)B)
            return UINT64_MAX >> 8; /* more than any state holds */
        cap *= (uint64_t)B;
    }
    return cap;
}

/* n unit-weight targets at their counting bound after t guesses. */
static uint64_t uniform_bound(const cs_costs *c, int32_t B, uint64_t n, int32_t t, int first)
{
    uint64_t total = 0;
    for (int32_t d = 1; n; d++) {
        const uint64_t cap = cs_slots(B, first, d);
        const uint64_t k = cap < n ? cap : n;
        total += k * cs_cost(c, (int64_t)t + d);
        n -= k;
    }
    return total;
}

uint64_t cs_class_bound(const cs_costs *c, int32_t B, uint32_t n, uint64_t W, uint64_t vmax,
                        uint64_t vmin, int32_t t)
{
    if (n <= 2)
        return n == 0 ? 0 : n == 1 ? W * cs_cost(c, t + 1)
                                   : vmax * cs_cost(c, t + 1) + vmin * cs_cost(c, t + 2);
    /* layer cake: sum_i v_i c(d_i) = W c(t+1) + sum_{k>=1} (c(t+k+1) - c(t+k)) (weight not
     * found within k guesses), and at most N_k targets are found within k */
    uint64_t b1 = W * cs_cost(c, t + 1), N = 0;
    for (int32_t k = 1;; k++) {
        N += cs_slots(B, 1, k);
        const unsigned __int128 top = (unsigned __int128)N * vmax;
        if (top >= W)
            break;
        b1 += (cs_cost(c, (int64_t)t + k + 1) - cs_cost(c, (int64_t)t + k)) * (W - (uint64_t)top);
    }
    const uint64_t b2 = vmin * uniform_bound(c, B, n, t, 1) + (W - n * vmin) * cs_cost(c, t + 1);
    return b1 > b2 ? b1 : b2;
}

uint64_t cs_sorted_bound(const cs_costs *c, int32_t B, const uint64_t *w, uint32_t n,
                         int32_t t, int first)
{
    uint64_t total = 0;
    uint32_t i = 0;
    for (int32_t d = 1; i < n; d++) {
        const uint64_t cap = cs_slots(B, first, d);
        const uint64_t cost = cs_cost(c, (int64_t)t + d);
        for (uint64_t k = 0; k < cap && i < n; k++)
            total += w[i++] * cost;
    }
    return total;
}

uint64_t cs_member_bound(const jt_words *w, const cs_costs *c, int32_t B, int hard,
                         const int32_t *S, const uint64_t *sv, int32_t m, int32_t t)
{
    uint64_t best = CS_INF;
    if (!hard) {
        uint64_t sorted[CS_SMALL];
        for (int32_t k = 0; k < m; k++) { /* insertion sort, heaviest first */
            int32_t j = k;
            for (; j > 0 && sorted[j - 1] < sv[k]; j--)
                sorted[j] = sorted[j - 1];
            sorted[j] = sv[k];
        }
        best = cs_sorted_bound(c, B, sorted, (uint32_t)m, t, 0);
    }
    cs_class cls[JT_MAX_R];
    uint8_t touched[JT_MAX_R];
    for (int r = 0; r < JT_MAX_R; r++)
        cls[r].n = 0;
    for (int32_t x = 0; x < m; x++) {
        uint64_t own;
        const int32_t nt = cs_split(w, S[x], S, sv, m, NULL, NULL, 0, cls, touched, &own);
        uint64_t b = own * cs_cost(c, t + 1);
        for (int32_t j = 0; j < nt; j++) {
            const cs_class *k = cls + touched[j];
            b += cs_class_bound(c, B, k->n, k->W, k->vmax, k->vmin, t + 1);
            cls[touched[j]].n = 0;
        }
        best = b < best ? b : best;
    }
    return best;
}
