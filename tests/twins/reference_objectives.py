"""Exhaustive twins for objectives beyond the mean, under any :class:`jotto.game.rules.Rules`: the least
``sum_i v_i c(guesses_i)`` of any decision tree for a non-decreasing cost vector ``c``, by the
recursion over (state, guesses made) and by the minimum over every tree of
:func:`tests.reference_game.all_trees`; and a race between two trees, by playing every pair of
secret words.

Costs are given as ``c(1..K)`` and a ``tail`` added per guess beyond ``K``, as
:class:`jotto.game.objectives.Objective` states them, in plain integers or Fractions.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from jotto.game.rules import PRESETS, Rules
from tests.twins.reference_game import _game, all_trees

PAPER = PRESETS["paper"]


def cost(costs, tail, d: int):
    """c(d): ``costs[d-1]`` up to K, then ``costs[-1] + tail (d - K)``."""
    K = len(costs)
    return costs[d - 1] if d <= K else costs[-1] + tail * (d - K)


def best_total(
    words: list[str],
    weights: list[int],
    costs,
    tail=0,
    rules: Rules = PAPER,
    state=None,
    made: int = 0,
):
    """The least ``sum_i v_i c(guesses_i)`` of any tree over the targets ``state`` (default
    all) after ``made`` guesses, by the recursion over states (every word consistent so far
    stays in the state): ``F(S, t) = min_g [v_g c(t+1) if g in S] + sum_j F(S_j(g), t+1)``,
    ``F({i}, t) = v_i c(t+1)``."""
    candidates, classes = _game(words, rules)

    @cache
    def F(S: frozenset[int], t: int):
        if len(S) == 1:
            (i,) = S
            return weights[i] * cost(costs, tail, t + 1)
        best = None
        for g in candidates(S):
            parts = classes(g, S)
            if g not in S and len(parts) == 1:
                continue
            total = (weights[g] * cost(costs, tail, t + 1) if g in S else 0) + sum(
                F(c, t + 1) for c in parts
            )
            best = total if best is None else min(best, total)
        return best

    return F(frozenset(range(len(words)) if state is None else state), made)


def best_by_trees(
    words: list[str], weights: list[int], costs, tail=0, rules: Rules = PAPER
) -> Fraction:
    """The least ``sum_i v_i c(guesses_i) / sum_i v_i`` over every tree of :func:`all_trees`
    (the enumeration, a check on :func:`best_total`)."""
    return min(
        Fraction(sum(w * cost(costs, tail, n) for w, n in zip(weights, t)), sum(weights))
        for t in all_trees(words, rules)
    )


def race_by_pairs(
    first_counts: list[int],
    second_counts: list[int],
    first_hider: list[int],
    second_hider: list[int],
) -> tuple[Fraction, Fraction, Fraction]:
    """(win, draw, loss) of the first player in a race between two deterministic guessers, by
    every pair of secrets: the first guesses the second's word (drawn from ``second_hider``,
    needing ``first_counts[word]`` guesses), the second the first's; rounds alternate, the first
    guessing first, and a round in which both find the word is a draw (the second still takes
    its guess of the round)."""
    win = draw = loss = Fraction(0)
    W1, W2 = sum(first_hider), sum(second_hider)
    for a, pa in enumerate(second_hider):  # the word the first player must find
        for b, pb in enumerate(first_hider):  # the word the second player must find
            p = Fraction(pa * pb, W1 * W2)
            rounds = 0
            while True:
                rounds += 1
                first_found = first_counts[a] == rounds
                second_found = second_counts[b] == rounds
                if first_found or second_found:
                    break
            if first_found and second_found:
                draw += p
            elif first_found:
                win += p
            else:
                loss += p
    return win, draw, loss


def greedy_scores(
    words: list[str], weights: list[int], costs, tail, rules: Rules, state, made: int
) -> dict[int, tuple[float, float]]:
    """The cost guesser's level-1 scores (greedy_cost.c's model, in floats) of every guess
    worth trying at ``state`` after ``made`` guesses: ``{guess: (objective's score, the mean's
    score)}``.  Outside hard mode targets of weight 0 are left out (all of them weigh 1 if the
    state weighs 0).  Each class of n >= 3 targets costs W / n times the model's cost of n
    unit targets: split again and again in the shares of the state's most even guess (least
    sum_j n_j^2, the guess itself a class of 1 when it is a member), rounded down and topped up
    by largest remainders; 1 or 2 targets cost their best tree."""
    candidates, classes = _game(words, rules)
    S = [i for i in state if rules.hard or weights[i]]
    v = {i: weights[i] for i in S}
    if not sum(v.values()):
        S, v = list(state), {i: 1 for i in state}
    S = frozenset(S)

    def c(d, mean=False):
        return float(d) if mean else float(cost(costs, tail, d))

    split = {}
    for g in candidates(S):
        parts = classes(g, S)
        if g not in S and len(parts) < 2:
            continue
        split[g] = parts
    sq = {g: sum(len(p) ** 2 for p in parts) + (g in S) for g, parts in split.items()}
    profile = min(split, key=lambda g: (sq[g], list(split).index(g)))
    rest = len(S) - (profile in S)
    shares = sorted((len(p) / rest for p in split[profile]), reverse=True)

    @cache
    def model(n, t, mean):
        if n <= 2:
            return 0.0 if n == 0 else c(t + 1, mean) if n == 1 else c(t + 1, mean) + c(t + 2, mean)
        if c(t + 1, mean) == c(t + n, mean):
            return n * c(t + 1, mean)
        member = profile in S
        N = n - member
        part = [int(f * N // 1) for f in shares]
        rem = [f * N - p for f, p in zip(shares, part)]
        for _ in range(N - sum(part)):
            top = max(range(len(rem)), key=lambda j: (rem[j], -j))
            part[top] += 1
            rem[top] = -1.0
        if not member and part[0] == n:
            member, part[0] = True, part[0] - 1
        return (c(t + 1, mean) if member else 0.0) + sum(model(p, t + 1, mean) for p in part)

    out = {}
    for g, parts in split.items():
        own = v[g] if g in S else 0
        s, e = own * c(made + 1), own * float(made + 1)
        for p in parts:
            W = sum(v[i] for i in p)
            if len(p) <= 2:
                ws = sorted((v[i] for i in p), reverse=True)
                s += sum(w * c(made + 1 + k) for k, w in enumerate(ws, 1))
                e += sum(w * float(made + 1 + k) for k, w in enumerate(ws, 1))
            else:
                s += W / len(p) * model(len(p), made + 1, False)
                e += W / len(p) * model(len(p), made + 1, True)
        out[g] = (s, e)
    return out
