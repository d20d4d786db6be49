"""The whole game of Jotto, literally, for tiny dictionaries under any :class:`jotto.game.rules.Rules`:
every decision tree a guesser could play (as the guess counts it gives each target), the best
response to a hider's weights, and the game's value over all trees.

A pure strategy of the guesser is a decision tree: a guess at the start and, after every reply a
target can give, a further tree for the targets still consistent.  Replies are
``Rules.reply`` codes; the game ends when the guess is the target itself (the win is identity,
whatever its code).  Any word may be guessed, except in hard mode, where only the words still
consistent (the state's members) may.  Only guesses that narrow the targets down are considered
(one that does not leaves the same state, which can never shorten a game).  Two trees that give
every target the same number of guesses are the same column of the game, so each state's trees are
kept as the set of their count vectors.  The value is then the value of the matrix game targets ×
count vectors, checked here by its defining conditions.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

from jotto.game.rules import PRESETS, Rules

PAPER = PRESETS["paper"]


def _game(words: list[str], rules: Rules):
    """(candidates(S), classes(g, S)): the guesses allowed at a state and the non-winning reply
    classes of a guess, straight from ``rules.reply`` and identity."""
    D = len(words)
    table = [[rules.reply(g, t) for t in words] for g in words]
    win = rules.win_code(len(words[0]))
    for g in range(D):
        for t in range(D):
            assert (table[g][t] == win) == (g == t), (words[g], words[t])

    def candidates(S: frozenset[int]):
        return sorted(S) if rules.hard else range(D)

    def classes(g: int, S: frozenset[int]) -> list[frozenset[int]]:
        out: dict[int, set[int]] = {}
        for i in S:
            if i != g:
                out.setdefault(table[g][i], set()).add(i)
        return [frozenset(c) for _, c in sorted(out.items())]

    return candidates, classes


def all_trees(words: list[str], rules: Rules = PAPER) -> set[tuple[int, ...]]:
    """The guess-count vectors (one entry per word, in order) of every tree over ``words``."""
    D = len(words)
    candidates, classes = _game(words, rules)

    @cache
    def trees(S: frozenset[int]) -> frozenset[tuple[tuple[int, int], ...]]:
        out = set()
        for g in candidates(S):
            parts_ = classes(g, S)
            if g not in S and len(parts_) == 1:
                continue  # the guess tells nothing new
            parts = [trees(c) for c in parts_]
            own = ((g, 1),) if g in S else ()
            for choice in product(*parts):
                counts = dict(own)
                for sub in choice:
                    for i, n in sub:
                        counts[i] = n + 1
                out.add(tuple(sorted(counts.items())))
        return frozenset(out)

    return {tuple(n for _, n in t) for t in trees(frozenset(range(D)))}


def state_values(words: list[str], weights: list[int], rules: Rules = PAPER):
    """``F``, the least ``sum_i v_i guesses_i`` of any tree over a state (a frozenset of word
    indices), by the recursion over states (every word consistent so far, of weight 0 or not,
    stays in the state): ``F(S) = W(S) + min_g sum_j F(S_j(g))`` over the non-winning classes,
    ``F({i}) = v_i``; and the classes ``(g, S)`` of a guess, as :func:`_game` gives them."""
    candidates, classes = _game(words, rules)

    @cache
    def F(S: frozenset[int]) -> int:
        W = sum(weights[i] for i in S)
        if len(S) == 1:
            return W
        best = None
        for g in candidates(S):
            parts = classes(g, S)
            if g not in S and len(parts) == 1:
                continue
            cost = sum(F(c) for c in parts)
            best = cost if best is None else min(best, cost)
        return W + best

    return F, classes


def best_response_total(words: list[str], weights: list[int], rules: Rules = PAPER) -> int:
    """The least ``sum_i v_i guesses_i`` of any tree (:func:`state_values` of every word)."""
    F, _ = state_values(words, weights, rules)
    return F(frozenset(range(len(words))))


def opener_total(words: list[str], weights: list[int], g: int, rules: Rules = PAPER) -> int:
    """The least ``sum_i v_i guesses_i`` of a tree whose first guess is word ``g``:
    ``W + sum_j F(S_j(g))`` over its non-winning classes."""
    F, classes = state_values(words, weights, rules)
    S = frozenset(range(len(words)))
    return sum(weights) + sum(F(c) for c in classes(g, S))


def best_response_value(words: list[str], weights: list[int], rules: Rules = PAPER) -> Fraction:
    """The least expected guesses of any tree against integer ``weights``, over every tree of
    :func:`all_trees` (the enumeration, a check on :func:`best_response_total`)."""
    total = sum(weights)
    return min(
        Fraction(sum(w * n for w, n in zip(weights, t)), total) for t in all_trees(words, rules)
    )


def tree_counts(words: list[str], rules: Rules, guess, children) -> list[int]:
    """Guesses a tree given as node arrays (``guess[n]``, ``children[n][reply code]``) needs for
    each target, each walked from the root; AssertionError if a walk leaves the tree or a node
    guesses a word no longer consistent in hard mode."""
    out = []
    for target in words:
        node, n, state = 0, 0, set(words)
        while True:
            n += 1
            g = words[guess[node]]
            assert not rules.hard or g in state, f"hard mode: {g!r} is not consistent"
            if g == target:
                break
            r = rules.reply(g, target)
            state = {w for w in state if w != g and rules.reply(g, w) == r}
            node = children[node][r]
            assert node >= 0, f"no branch for {target!r}"
        out.append(n)
    return out


def is_equilibrium(
    columns: list[tuple[int, ...]], p: list[Fraction], q: list[Fraction], value: Fraction
) -> bool:
    """Whether hider ``p`` (over words) and guesser ``q`` (over columns) are optimal with
    ``value``: both distributions, no column below ``value`` against p, no word above it
    against q."""
    D = len(p)
    if min(p) < 0 or min(q) < 0 or sum(p) != 1 or sum(q) != 1:
        return False
    if any(sum(p[i] * col[i] for i in range(D)) < value for col in columns):
        return False
    return all(sum(qk * col[i] for qk, col in zip(q, columns)) <= value for i in range(D))


def state_value(words: list[str], state: list[int], rules: Rules = PAPER) -> Fraction:
    """The least expected guesses to find a word drawn uniformly from ``state`` (indices), by
    the recursion over the state alone: ``F(S) = |S| + min_g sum_j F(S_j(g))``, every word a
    guess outside hard mode, only the state's in hard mode (a review's V)."""
    _, classes = _game(words, rules)
    D = len(words)

    @cache
    def F(S: frozenset[int]) -> int:
        if len(S) == 1:
            return 1
        best = None
        for g in sorted(S) if rules.hard else range(D):
            parts = classes(g, S)
            if g not in S and len(parts) == 1:
                continue
            cost = sum(F(c) for c in parts)
            best = cost if best is None else min(best, cost)
        return len(S) + best

    return Fraction(F(frozenset(state)), len(state))
