"""Lower bounds on the guesses any guesser needs, from counting alone.

A decision tree finds at most one target per node (the guess itself), and a node has at most B
children, B the most non-winning replies one guess can give (:meth:`Rules.branches`).  So at most
N_k = 1 + B + ... + B^(k-1) targets are found within k guesses, and since the expected number of
guesses is the sum over k >= 0 of the chance the target is not yet found after k guesses, every
tree needs at least  sum_k (W - weight of the N_k heaviest targets) / W.  Against the uniform
hider on ENABLE's 5-letter words (paper rules) that is 5.649 guesses: a certified lower bound on
the game's value that no search has to prove.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from .words import WordList

__all__ = ["counting_bound", "counting_total"]


def counting_bound(words: WordList, weights: Iterable[int] | None = None) -> Fraction:
    """The counting lower bound on any tree's expected guesses against the hider with
    non-negative integer ``weights`` (None: uniform), under the list's rules."""
    w = [int(x) for x in weights] if weights is not None else [1] * len(words)
    if len(w) != len(words) or min(w, default=0) < 0 or not any(w):
        raise ValueError(f"weights must be {len(words)} non-negative integers, not all zero")
    return Fraction(counting_total(w, words.rules.branches(words.length)), sum(w))


def counting_total(weights: Iterable[int], branches: int) -> int:
    """``sum_i weights_i guesses_i`` that no tree goes below when each node has at most
    ``branches`` children: the heaviest targets found first, one at the root, ``branches`` at
    the next depth, and so on."""
    w = sorted(weights, reverse=True)
    total, found, heaviest, width, guesses = sum(w), 0, 0, 1, 0
    while heaviest < total:
        guesses += total - heaviest  # the weight not yet found after this many guesses
        heaviest += sum(w[found : found + width])
        found += width
        width *= branches
    return guesses
