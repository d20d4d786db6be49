/* search_families.c -- the family bound of a best-response search (search_internal.h), for paper
 * words: with equal weights, and (weighted_bound, bs_families_apply) unequal ones and hard mode.
 *
 * A family is a set of targets sharing L - 1 letters P, each P plus its own letter x.  A guess g
 * replies |g & P| + [x in g] to a member: it wins on itself if it is one, else it moves the
 * members whose x it holds (at most L) out of the others' class and splits the family no other
 * way.  So within k guesses a tree finds at most phi_k(s) members of a family of s, where
 *   phi_k(s) = max(1 + phi_{k-1}(s - 1), max_{j <= L} phi_{k-1}(j) + phi_{k-1}(s - j)),
 * however it plays.  Families packed disjointly into a state of n targets (r of them in none)
 * let it find at most M_k = min(N_k, r + sum_i phi_k(s_i)) targets within k guesses, so
 *   F >= u sum_{k >= 0} (n - M_k)   (u: the targets' equal weight),
 * the counting bound where families do not bind, and far above it on states made of a few
 * families (three families of 9-10 targets: 3.69 guesses a target where it gives 3.38).  The
 * lookahead bound of a state applies it to the classes of every word: a word's classes hold
 * the families' parts (a family's unmoved members in one class, its moved ones in the next),
 * found from the families' letters alone.  Each bound is also at least what the families need
 * on their own, alone(s) = s + min(alone(s - 1), min_{j <= L} alone(j) + alone(s - j)), plus the
 * other targets' counting bound: a tree for a state is one for each part of it. */
#include "search_internal.h"

/* Whether the family bound applies to a state (`uniform`: of equal weights): paper words; with
 * unequal weights only if JT_BS_WEIGHTED_FAMILIES is on, in hard mode only if
 * JT_BS_HARD_FAMILIES is, and neither while a certificate is being written (its checker
 * verifies family bounds of equal weights outside hard mode only).  Hard mode: a hard-mode tree
 * is a tree (its guesses are words), so what no tree can do no hard-mode tree does either, and
 * the member bound's case of a first guess outside the class only adds a case to its minimum;
 * a state's words of weight 0 are counted as targets found, which can only find more. */
int bs_families_apply(const jt_bsearch *s, int uniform)
{
    if (s->gen != 0)
        return 0;
    const int hard_ok = !s->hard || ((s->bounds & JT_BS_HARD_FAMILIES) && !s->cert);
    const int weights_ok = uniform || ((s->bounds & JT_BS_WEIGHTED_FAMILIES) && !s->cert);
    return hard_ok && weights_ok;
}

void bs_family_tables(jt_bsearch *s)
{
    for (int n = 0; n <= PHI_S; n++) {
        /* alone: a member first (n + alone(n - 1)) or a word moving j of them */
        uint32_t best = n <= 1 ? 0 : s->alone[n - 1];
        for (int j = 1; j <= s->L && j < n; j++) {
            const uint32_t b = s->alone[j] + s->alone[n - j];
            best = b < best ? b : best;
        }
        s->alone[n] = (uint32_t)n + best;
        s->phi[0][n] = s->psi[0][n] = 0;
    }
    for (int k = 1; k < PHI_K; k++)
        for (int n = 0; n <= PHI_S; n++) {
            int split = s->phi[k - 1][n];  /* the first guess moves j <= L members */
            for (int j = 1; j <= s->L && j < n; j++) {
                const int b = s->phi[k - 1][j] + s->phi[k - 1][n - j];
                split = b > split ? b : split;
            }
            const int found = n ? 1 + s->phi[k - 1][n - 1] : 0;  /* or finds one */
            s->psi[k][n] = (uint8_t)(split < n ? split : n);
            s->phi[k][n] = (uint8_t)(found > split ? (found < n ? found : n) : s->psi[k][n]);
        }
}

/* Pack families of at least 3 targets of the state in lv (m paper words) disjointly, largest
 * sets of targets sharing L - 1 letters first; returns how many (their letters in lv->fam_p,
 * their members' own letters in lv->fam_x).  The sets are gathered in a
 * hash of their shared letters, each a list of its members. */
POPCNT_CLONES
int32_t bs_families(level *lv, int32_t m)
{
    const uint32_t mask = (uint32_t)lv->fh_cap - 1;
    const uint32_t stamp = ++lv->fh_stamp_now;
    int32_t nl = 0, nset = 0;
    for (int32_t k = 0; k < m; k++) {
        lv->fam_taken[k] = 0;
        for (uint32_t rest = lv->sm[k]; rest; rest &= rest - 1) {
            const uint32_t p = lv->sm[k] & ~(rest & -rest);
            uint32_t h = (uint32_t)((p * 0x9E3779B97F4A7C15ull) >> 40) & mask;
            while (lv->fh_stamp[h] == stamp && lv->fh_key[h] != p)
                h = (h + 1) & mask;
            if (lv->fh_stamp[h] != stamp) {
                lv->fh_stamp[h] = stamp;
                lv->fh_key[h] = p;
                lv->fh_cnt[h] = 0;
                lv->fh_head[h] = -1;
                lv->fh_used[nset++] = (int32_t)h;
            }
            lv->fl_member[nl] = k;
            lv->fl_next[nl] = lv->fh_head[h];
            lv->fh_head[h] = nl++;
            lv->fh_cnt[h]++;
        }
    }
    /* the sets of 3 or more, largest first, then by their letters' mask (insertion sort: they
     * are few) */
    int32_t nbig = 0;
    for (int32_t i = 0; i < nset; i++) {
        const int32_t h = lv->fh_used[i];
        if (lv->fh_cnt[h] < 3)
            continue;
        int32_t q = nbig++;
        while (q > 0 && (lv->fh_cnt[lv->fh_used[q - 1]] < lv->fh_cnt[h] ||
                         (lv->fh_cnt[lv->fh_used[q - 1]] == lv->fh_cnt[h] &&
                          lv->fh_key[lv->fh_used[q - 1]] > lv->fh_key[h]))) {
            lv->fh_used[q] = lv->fh_used[q - 1];
            q--;
        }
        lv->fh_used[q] = h;
    }
    int32_t nf = 0;
    for (int32_t i = 0; i < nbig; i++) {
        const int32_t h = lv->fh_used[i];
        int32_t free_ = 0;
        for (int32_t e = lv->fh_head[h]; e >= 0; e = lv->fl_next[e])
            free_ += !lv->fam_taken[lv->fl_member[e]];
        if (free_ < 3)
            continue;
        const uint32_t p = lv->fh_key[h];
        uint32_t x = 0;
        for (int32_t e = lv->fh_head[h]; e >= 0; e = lv->fl_next[e]) {
            const int32_t k = lv->fl_member[e];
            if (!lv->fam_taken[k]) {
                lv->fam_taken[k] = 1;
                x |= lv->sm[k] & ~p;
            }
        }
        lv->fam_p[nf] = p;
        lv->fam_x[nf++] = x;
    }
    return nf;
}

/* The parts of the nf families of the state in lv in the classes of a word of mask g, into
 * lv->fs: a family's unmoved members in class |g & P|, its moved ones in the next (unless that
 * is the win: then the moved one is g itself); parts of fewer than 3 targets count as none. */
POPCNT_CLONES
static void family_split(const jt_bsearch *s, level *lv, int32_t nf, uint32_t g)
{
    fsplit *fs = lv->fs;
    const int V = s->win;
    for (int r = 0; r < V; r++)
        fs->np[r] = fs->covered[r] = 0;
    for (int32_t i = 0; i < nf; i++) {
        const uint32_t p = lv->fam_p[i], x = lv->fam_x[i];
        const int r = pc(g & p);
        const uint32_t moved = x & g, kept = x & ~g;
        if (pc(kept) >= 3 && fs->np[r] < FAM_PARTS) {
            fs->p[r][fs->np[r]] = p;
            fs->x[r][fs->np[r]++] = kept;
            fs->covered[r] += pc(kept);
        }
        if (r + 1 < V && pc(moved) >= 3 && fs->np[r + 1] < FAM_PARTS) {
            fs->p[r + 1][fs->np[r + 1]] = p;
            fs->x[r + 1][fs->np[r + 1]++] = moved;
            fs->covered[r + 1] += pc(moved);
        }
    }
}

/* sum_k (W - vmax M_k) over the k with vmax M_k < W, for n targets of weight W, the heaviest
 * vmax (unit weights: W = n, vmax = 1), families of sizes sz[0..np) among them (covering
 * `covered`), M_k = min(N_k, rest + sum_i tab_k(sz_i)) -- tab = phi, or psi with `shift` 1 (the
 * first guess finds nothing: N_k - 1): at most M_k targets, so at most vmax M_k of the weight,
 * are found within k guesses, and F = sum_k (the weight not found within k guesses). */
static uint64_t sizes_bound(const jt_bsearch *s, uint64_t n, uint64_t W, uint64_t vmax,
                            const uint8_t *sz, int np, uint64_t covered,
                            const uint8_t (*tab)[PHI_S + 1], int shift)
{
    uint64_t b = 0;
    for (int k = 0;; k++) {
        uint64_t found = n - covered;
        for (int i = 0; i < np; i++)
            found += k < PHI_K ? tab[k][sz[i]] : sz[i];
        if (k < s->ncap) {
            const uint64_t cap = s->capN[k] - (k && shift ? 1 : 0);
            found = found < cap ? found : cap;
        }
        if (found >= n || vmax * found >= W)
            return b;
        b += W - vmax * found;
    }
}

/* F of n unit-weight targets is at least the sum of F over any partition of them (a tree for
 * them is one for each part): here the families of sizes sz[0..np) (covering `covered`), each at
 * what it needs alone, and the other targets at their counting bound.  Stronger than
 * sizes_bound() on states made of a few large families. */
static uint64_t apart(const jt_bsearch *s, uint64_t n, const uint8_t *sz, int np,
                      uint64_t covered)
{
    uint64_t b = s->cb[n - covered];
    for (int i = 0; i < np; i++)
        b += s->alone[sz[i]];
    return b;
}

/* The family bound (unit weights) of n targets holding families of sizes sz[0..np) (covering
 * `covered`): the counting bound if there are none. */
static uint64_t family_bound(const jt_bsearch *s, uint64_t n, const uint8_t *sz, int np,
                             uint64_t covered)
{
    if (!np)
        return s->cb[n];
    return umax(sizes_bound(s, n, n, 1, sz, np, covered, s->phi, 0),
                apart(s, n, sz, np, covered));
}

/* The family bound of a class of n targets of weight W, heaviest vmax, lightest vmin, whose
 * unit-weight family bound is `unit` (families of sizes sz[0..np), covering `covered`): with
 * unequal weights, at least its counting bound, vmin times the unit bound plus the rest of each
 * weight once (a tree's total sum_i v_i d_i is vmin sum_i d_i plus sum_i (v_i - vmin) d_i, and
 * every d_i >= 1), and sum_k (W - vmax M_k) (sizes_bound with phi: whatever the first guess). */
static uint64_t weighted_bound(const jt_bsearch *s, uint64_t unit, uint64_t n, uint64_t W,
                               uint64_t vmax, uint64_t vmin, const uint8_t *sz, int np,
                               uint64_t covered)
{
    if (vmax == vmin)
        return vmin * unit;
    const uint64_t b =
        umax(count_bound(s, (uint32_t)n, W, vmax, vmin), vmin * unit + (W - n * vmin));
    return np ? umax(b, sizes_bound(s, n, W, vmax, sz, np, covered, s->phi, 0)) : b;
}

/* The family bound of class r of the split in fs, n targets of weight W, heaviest vmax,
 * lightest vmin. */
POPCNT_CLONES
static uint64_t class_bound(const jt_bsearch *s, const fsplit *fs, int r, uint32_t n, uint64_t W,
                            uint64_t vmax, uint64_t vmin)
{
    uint8_t sz[FAM_PARTS];
    for (int i = 0; i < fs->np[r]; i++)
        sz[i] = (uint8_t)pc(fs->x[r][i]);
    const uint64_t unit = family_bound(s, n, sz, fs->np[r], (uint64_t)fs->covered[r]);
    return weighted_bound(s, unit, n, W, vmax, vmin, sz, fs->np[r], (uint64_t)fs->covered[r]);
}

/* The family bounds of the classes of word c over the state in lv (`uniform`: equal weights
 * lv->sv[0]; else the classes' weights, heaviest and lightest, lv->cw, cmax, cmin) whose nf
 * families bs_families() packed, into fb[0..win) (the counting bound for a class with no
 * family part); returns their sum.  Leaves the parts in lv->fs. */
uint64_t bs_family_word_bounds(const jt_bsearch *s, level *lv, int32_t nf, int32_t c,
                               int uniform, uint64_t *fb)
{
    family_split(s, lv, nf, s->mask[c]);
    const size_t at = (size_t)c * s->R;
    const uint32_t *n = lv->cnt + at;
    const uint64_t u = lv->sv[0];
    uint64_t sum = 0;
    for (int r = 0; r < s->win; r++) {
        fb[r] = n[r] == 0 ? 0
                : uniform ? class_bound(s, lv->fs, r, n[r], u * n[r], u, u)
                          : class_bound(s, lv->fs, r, n[r], lv->cw[at + r], lv->cmax[at + r],
                                        lv->cmin[at + r]);
        sum += fb[r];
    }
    return sum;
}

/* The member bound (unit weights) of class r of the split in fs, n <= SMALL targets of masks
 * tm, with its families: a member x first finds x and splits the rest, each part of a family as
 * a word splits a family; any other word finds nothing first and splits each family in two.
 * With unequal weights (W, heaviest vmax, lightest vmin) as weighted_bound() makes them. */
POPCNT_CLONES
uint64_t bs_family_member_bound(const jt_bsearch *s, const fsplit *fs, int r,
                                const uint32_t *tm, int n, uint64_t W, uint64_t vmax,
                                uint64_t vmin)
{
    const int V = s->win, np = fs->np[r];
    uint8_t sz[FAM_PARTS];
    for (int i = 0; i < np; i++)
        sz[i] = (uint8_t)pc(fs->x[r][i]);
    uint64_t best = sizes_bound(s, (uint64_t)n, (uint64_t)n, 1, sz, np,
                                (uint64_t)fs->covered[r], s->psi, 1);
    for (int a = 0; a < n; a++) {
        uint32_t cnt[FAM_R];
        uint8_t sub[FAM_R][FAM_PARTS];
        int nsub[FAM_R], cov[FAM_R];
        for (int q = 0; q <= V; q++)
            cnt[q] = nsub[q] = cov[q] = 0;
        for (int y = 0; y < n; y++)
            if (y != a)
                cnt[pc(tm[a] & tm[y])]++;
        for (int i = 0; i < np; i++) {
            const int q = pc(tm[a] & fs->p[r][i]);
            const int moved = pc(tm[a] & fs->x[r][i]), kept = sz[i] - moved;
            if (kept >= 3) {
                sub[q][nsub[q]++] = (uint8_t)kept;
                cov[q] += kept;
            }
            if (q + 1 < V && moved >= 3) {
                sub[q + 1][nsub[q + 1]++] = (uint8_t)moved;
                cov[q + 1] += moved;
            }
        }
        uint64_t b = (uint64_t)n;
        for (int q = 0; q < V && b < best; q++)
            b += family_bound(s, cnt[q], sub[q], nsub[q], (uint64_t)cov[q]);
        best = b < best ? b : best;
    }
    const uint64_t unit = umax(best, apart(s, (uint64_t)n, sz, np, (uint64_t)fs->covered[r]));
    return weighted_bound(s, unit, (uint64_t)n, W, vmax, vmin, sz, np, (uint64_t)fs->covered[r]);
}
