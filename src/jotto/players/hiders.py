"""Hiders: uniform, a fixed word, any probability vector, and the best response to a guesser.
The equilibrium hider of a strategy file is :class:`jotto.solvers.solution.EquilibriumHider`.

Every hider follows :class:`jotto.game.turns.Hider`: a probability for every word, and a way to
draw a
secret from it.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ..game.turns import player_repr
from ..game.words import WordList

__all__ = ["BestResponseHider", "DistributionHider", "FixedHider", "UniformHider", "worst_targets"]


class DistributionHider:
    """Hides word i with probability ``p_i`` (normalised; non-negative, not all zero)."""

    def __init__(self, words: WordList, p: ArrayLike, name: str = "weights"):
        arr = np.asarray(p, dtype=np.float64)
        if arr.shape != (len(words),):
            raise ValueError(
                f"a hider needs one probability per word ({len(words)}), not shape {arr.shape}"
            )
        if not np.isfinite(arr).all() or (arr < 0).any() or not (arr > 0).any():
            raise ValueError("hider probabilities must be finite, non-negative and not all zero")
        with np.errstate(over="ignore"):
            total = arr.sum()
        if not np.isfinite(total):  # weights so large their sum overflows; their ratios do not
            arr = arr / arr.max()
            total = arr.sum()
        self.words = words
        self._p = arr / total
        self.name = name

    __repr__ = player_repr

    def distribution(self) -> np.ndarray:
        return self._p.copy()

    def secret(self, rng: np.random.Generator) -> int:
        return int(rng.choice(len(self._p), p=self._p))


class UniformHider(DistributionHider):
    """Every word equally likely (HiderUniform, the paper's benchmark hider)."""

    def __init__(self, words: WordList):
        super().__init__(words, np.ones(len(words)), "uniform")


class FixedHider(DistributionHider):
    """Always the same word."""

    def __init__(self, words: WordList, word: str):
        p = np.zeros(len(words))
        p[words.index(word)] = 1.0
        super().__init__(words, p, f"word:{word.lower()}")


def worst_targets(expected: np.ndarray, tol: float = 1e-9) -> np.ndarray:
    """Indices of the targets needing the most expected guesses (within ``tol``)."""
    return np.flatnonzero(expected >= expected.max() - tol)


class BestResponseHider(DistributionHider):
    """The hider's best response to a guesser: uniform over the targets it needs the most
    guesses for (any distribution over them is a best response; this is HiderBR's)."""

    def __init__(self, words: WordList, expected_guesses: ArrayLike, guesser_name: str = ""):
        expected = np.asarray(expected_guesses, dtype=np.float64)
        p = np.zeros(len(words))
        p[worst_targets(expected)] = 1.0
        super().__init__(
            words, p, f"best-response:{guesser_name}" if guesser_name else "best-response"
        )
