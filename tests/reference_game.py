"""The whole game of Jotto, literally, for tiny dictionaries: every decision tree a guesser could
play (as the guess counts it gives each target), and the game's value over all of them.

A pure strategy of the guesser is a decision tree: a guess at the start and, after every reply a
target can give, a further tree for the targets still consistent.  Only guesses that narrow the
targets down are considered (one that does not leaves the same state, which can never shorten a
game).  Two trees that give every target the same number of guesses are the same column of the
game, so each state's trees are kept as the set of their count vectors.  The value is then the
value of the matrix game targets × count vectors, checked here by its defining conditions.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product


def all_trees(words: list[str]) -> set[tuple[int, ...]]:
    """The guess-count vectors (one entry per word, in order) of every tree over ``words``."""
    D, L = len(words), len(words[0])
    sets = [frozenset(w) for w in words]

    @lru_cache(maxsize=None)
    def trees(S: frozenset[int]) -> frozenset[tuple[tuple[int, int], ...]]:
        out = set()
        for g in range(D):
            classes: dict[int, list[int]] = {}
            for i in S:
                r = len(sets[g] & sets[i])
                if r < L:
                    classes.setdefault(r, []).append(i)
            if g not in S and len(classes) == 1:
                continue  # the guess tells nothing new
            parts = [trees(frozenset(c)) for _, c in sorted(classes.items())]
            own = ((g, 1),) if g in S else ()
            for choice in product(*parts):
                counts = dict(own)
                for sub in choice:
                    for i, n in sub:
                        counts[i] = n + 1
                out.add(tuple(sorted(counts.items())))
        return frozenset(out)

    return {tuple(n for _, n in t) for t in trees(frozenset(range(D)))}


def is_equilibrium(columns: list[tuple[int, ...]], p: list[Fraction], q: list[Fraction],
                   value: Fraction) -> bool:
    """Whether hider ``p`` (over words) and guesser ``q`` (over columns) are optimal with
    ``value``: both distributions, no column below ``value`` against p, no word above it
    against q."""
    D = len(p)
    if min(p) < 0 or min(q) < 0 or sum(p) != 1 or sum(q) != 1:
        return False
    if any(sum(p[i] * col[i] for i in range(D)) < value for col in columns):
        return False
    return all(sum(qk * col[i] for qk, col in zip(q, columns)) <= value for i in range(D))


def best_response_value(words: list[str], weights: list[int]) -> Fraction:
    """The least expected guesses of any tree against integer ``weights``."""
    total = sum(weights)
    return min(Fraction(sum(w * n for w, n in zip(weights, t)), total)
               for t in all_trees(words))
