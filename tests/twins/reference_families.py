"""The family bound of the best-response search, literally, for the paper's rules and equal
weights: the twin of ``search_families.c`` and of the lookahead bound built on it.

A family is a set of targets sharing all their letters but one.  A guess wins on a member it
is, and otherwise can only move the members whose own letter it holds away from the rest, so
``found(k, s)`` (at most so many of a family of s are found within k guesses) follows from the
recursion over what the first guess does, and a state's targets found within k guesses are at
most the counting bound's N_k and at most the targets outside the packed families plus what each
family allows.  Every number here is recomputed from the words' letters and the reply classes;
nothing is shared with the package.
"""

from __future__ import annotations

from functools import cache


def num_common(a: str, b: str) -> int:
    return len(set(a) & set(b))


@cache
def found(k: int, s: int, L: int) -> int:
    """Most members of a family of s found within k guesses: the first guess is a member (it
    finds itself, the others stay together) or moves j <= L members away from the others."""
    if k == 0 or s == 0:
        return 0
    return max([1 + found(k - 1, s - 1, L)] + first_finds_none_split(k, s, L))


def first_finds_none_split(k: int, s: int, L: int) -> list[int]:
    """What the family allows within k guesses after a first guess that moves j of its members."""
    return [found(k - 1, j, L) + found(k - 1, s - j, L) for j in range(min(L, s) + 1)]


def found_after_a_miss(k: int, s: int, L: int) -> int:
    """Most members found within k guesses when the first guess is none of them."""
    return 0 if k == 0 else max(first_finds_none_split(k, s, L))


def at_most_found(k: int, L: int) -> int:
    """N_k: targets any tree finds within k guesses (a node finds one and has L children)."""
    return 0 if k == 0 else 1 + L * at_most_found(k - 1, L)


def packed_families(words: list[str], S: list[int]) -> list[list[int]]:
    """Disjoint families of at least 3 targets of S: the sets of targets sharing L - 1 letters,
    largest first (ties by the shared letters as a bit mask, letter a lowest), each taking the
    targets no earlier family took if at least 3 are left."""
    sets: dict[frozenset, list[int]] = {}
    for t in S:
        for x in words[t]:
            sets.setdefault(frozenset(words[t]) - {x}, []).append(t)

    def mask(letters: frozenset) -> int:
        return sum(1 << (ord(c) - ord("a")) for c in letters)

    order = sorted(
        (k for k, v in sets.items() if len(v) >= 3), key=lambda k: (-len(sets[k]), mask(k))
    )
    taken: set[int] = set()
    out = []
    for key in order:
        free = [t for t in sets[key] if t not in taken]
        if len(free) >= 3:
            taken.update(free)
            out.append(free)
    return out


@cache
def alone(s: int, L: int) -> int:
    """Least total guesses of a family of s on its own: the first guess a member (the others
    stay together) or a word moving 1 <= j <= L of them away from the others."""
    if s <= 1:
        return s
    return s + min(
        [alone(s - 1, L)] + [alone(j, L) + alone(s - j, L) for j in range(1, min(L, s - 1) + 1)]
    )


def counting_bound(n: int, L: int) -> int:
    return sum(n - min(n, at_most_found(k, L)) for k in range(n + 1))


def apart(n: int, parts: list[int], L: int) -> int:
    """A tree for n targets is a tree for each part of them: the families each on their own,
    the other targets at the counting bound."""
    return sum(alone(s, L) for s in parts) + counting_bound(n - sum(parts), L)


def counted(n: int, parts: list[int], L: int, after_a_miss: bool = False) -> int:
    """sum_k (n - M_k) for n targets holding families of the sizes in ``parts``:
    M_k = min(N_k, targets in no family + sum of what each family allows within k guesses)
    (``after_a_miss``: when the first guess finds none of them, N_k - 1 for k >= 1)."""
    total, k = 0, 0
    while True:
        allowed = (
            n
            - sum(parts)
            + sum((found_after_a_miss if after_a_miss else found)(k, s, L) for s in parts)
        )
        cap = at_most_found(k, L) - (1 if after_a_miss and k else 0)
        m = min(cap, allowed)
        if m >= n:
            return total
        total += n - m
        k += 1


def family_bound(n: int, parts: list[int], L: int) -> int:
    """The family bound of n targets holding families of the sizes in ``parts``."""
    return max(counted(n, parts, L), apart(n, parts, L))


def lookahead_family_bound(words: list[str], S: list[int]) -> int:
    """|S| + min over the words that narrow S down of the family bounds of their reply classes,
    each class holding, of every family packed in S, the members it received (a part of fewer
    than 3 counting as no family)."""
    L = len(words[0])
    fams = packed_families(words, S)
    best = None
    for g in range(len(words)):
        classes: dict[int, list[int]] = {}
        for t in S:
            if t != g:
                classes.setdefault(num_common(words[g], words[t]), []).append(t)
        if g not in S and len(classes) == 1:
            continue
        total = len(S)
        for members in classes.values():
            parts = [len(p) for p in ([t for t in f if t in members] for f in fams) if len(p) >= 3]
            total += family_bound(len(members), parts, L)
        best = total if best is None else min(best, total)
    return best


def member_family_bound(words: list[str], T: list[int]) -> int:
    """The family bound of a small state T by its first guess: a member x finds x and splits the
    others into reply classes, each with its part of every family packed in T; any other word
    finds none of T first (families at ``found_after_a_miss``)."""
    L = len(words[0])
    fams = packed_families(words, T)
    best = counted(len(T), [len(f) for f in fams], L, after_a_miss=True)
    for x in T:
        classes: dict[int, list[int]] = {}
        for t in T:
            if t != x:
                classes.setdefault(num_common(words[x], words[t]), []).append(t)
        total = len(T)
        for members in classes.values():
            parts = [len(p) for p in ([t for t in f if t in members] for f in fams) if len(p) >= 3]
            total += family_bound(len(members), parts, L)
        best = min(best, total)
    return max(best, apart(len(T), [len(f) for f in fams], L))


# ---- unequal weights (the family bound under JT_BS_WEIGHTED_FAMILIES) ----------------------------


def weighted_counting_bound(vs: list[int], L: int) -> int:
    """The counting bound of targets of weights ``vs``: exact for one or two; else the better
    of sum_k (W - N_k vmax) over the k with N_k < n (while positive) and vmin CB(n) + (W - n
    vmin) (each weight split into vmin and a rest found at the first guess at best)."""
    n, W = len(vs), sum(vs)
    if n <= 2:
        return 2 * W - max(vs) if n == 2 else W
    vmax, vmin = max(vs), min(vs)
    if vmax == vmin:
        return vmin * counting_bound(n, L)
    b1, k = 0, 0
    while at_most_found(k, L) < n and at_most_found(k, L) * vmax < W:
        b1 += W - at_most_found(k, L) * vmax
        k += 1
    return max(b1, vmin * counting_bound(n, L) + W - n * vmin)


def weighted_counted(n: int, W: int, vmax: int, parts: list[int], L: int) -> int:
    """sum_k (W - vmax M_k) while positive, M_k as in ``counted``: at most M_k targets, so at
    most vmax M_k of the weight, are found within k guesses."""
    total, k = 0, 0
    while True:
        m = min(at_most_found(k, L), n - sum(parts) + sum(found(k, s, L) for s in parts))
        if m >= n or vmax * m >= W:
            return total
        total += W - vmax * m
        k += 1


def weighted_family_bound(vs: list[int], parts: list[int], L: int, unit: int) -> int:
    """The family bound of targets of weights ``vs`` with families of the sizes in ``parts``,
    from ``unit``, a unit-weight bound of them: a tree's total is linear in the weights and
    finds every target at depth >= 1, so it is at least vmin times the unit bound plus the rest
    of each weight once; and at least ``weighted_counted`` and the counting bound."""
    n, W, vmax, vmin = len(vs), sum(vs), max(vs), min(vs)
    if vmax == vmin:
        return vmin * unit
    b = max(weighted_counting_bound(vs, L), vmin * unit + W - n * vmin)
    return max(b, weighted_counted(n, W, vmax, parts, L)) if parts else b


def weighted_lookahead_family_bound(
    words: list[str], S: list[int], v: list[int], hard: bool = False
) -> int:
    """``lookahead_family_bound`` with the weights v of the targets: W(S) + min over the words
    that narrow S down (``hard``: over the members of S) of the weighted family bounds of their
    reply classes.  (A hard-mode tree is a tree, so no bound of all trees exceeds its value.)"""
    L = len(words[0])
    fams = packed_families(words, S)
    best = None
    for g in range(len(words)):
        if hard and g not in S:
            continue
        classes: dict[int, list[int]] = {}
        for t in S:
            if t != g:
                classes.setdefault(num_common(words[g], words[t]), []).append(t)
        if g not in S and len(classes) == 1:
            continue
        total = sum(v[t] for t in S)
        for members in classes.values():
            parts = [len(p) for p in ([t for t in f if t in members] for f in fams) if len(p) >= 3]
            total += weighted_family_bound(
                [v[t] for t in members], parts, L, family_bound(len(members), parts, L)
            )
        best = total if best is None else min(best, total)
    return best
