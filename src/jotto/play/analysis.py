"""Eckler's questions about a word list: how a guess splits the targets (its partition vector),
which first guesses are best by each metric, how crowded each word's neighbourhood is, and which
targets are hardest for a guesser (:meth:`jotto.players.evaluation.Evaluation.worst_targets`).

Partitions are over the reply codes of the list's rules (``words.classes`` of them; see
:class:`jotto.game.rules.Rules`), counted by the compiled core.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from ..engine import core
from ..game.words import WordList
from .vocabulary import Vocabulary

__all__ = [
    "METRICS",
    "best_first_guesses",
    "guess_replies",
    "neighbourhood",
    "neighbourhood_sizes",
    "partition_of",
    "partition_vectors",
]


def _expectation(counts: Sequence[int]) -> float:
    scale = 1 / sum(counts)
    return sum((scale * x) * x for x in counts)


def _negative_entropy(counts: Sequence[int]) -> float:
    """Norvig's ``- entropy(counts)``; negating twice is exact, so the sum itself."""
    scale = 1 / sum(counts)
    return sum((scale * x) * math.log(scale * x, 2) for x in counts if x)


#: Norvig's partition metrics (all minimised), computed as his notebook's Python computes them.
METRICS: dict[str, Callable[[Sequence[int]], float]] = {
    "max": lambda counts: max(counts),
    "expectation": _expectation,
    "entropy": _negative_entropy,
}


def partition_vectors(
    words: WordList, guesses: ArrayLike | None = None, targets: ArrayLike | None = None
) -> np.ndarray:
    """``[g, j]``: how many of ``targets`` (indices; all words if None) reply code ``j`` to
    guess ``g`` (indices; all words if None); ``words.classes`` columns."""
    S = (
        np.arange(len(words), dtype=np.int32)
        if targets is None
        else np.ascontiguousarray(targets, dtype=np.int32)
    )
    cand = None if guesses is None else np.ascontiguousarray(guesses, dtype=np.int32)
    return core.class_sizes(words.core, S, cand).T.astype(np.int64)


def guess_replies(words: WordList, guess: str) -> np.ndarray:
    """The reply code of every target of ``words`` to ``guess``: any word ``jotto play`` takes
    as a guess (:class:`jotto.play.vocabulary.Vocabulary`: also words the rules keep from being
    secrets, like ``stare`` under the paper's rules); :class:`ValueError` (one line) for
    anything else."""
    vocab = Vocabulary(words)
    problem = vocab.why_not_guess(guess.lower())
    if problem:
        raise ValueError(problem)
    return vocab.replies(guess.lower())


def partition_of(words: WordList, guess: str) -> np.ndarray:
    """How many targets give each reply code to ``guess`` (any word ``jotto play`` takes as a
    guess; see :func:`guess_replies`): the row :func:`partition_vectors` gives a word of the
    list."""
    return np.bincount(guess_replies(words, guess), minlength=words.classes).astype(np.int64)


def _common_letters(words: WordList) -> np.ndarray:
    """Letters in common of each reply code (:meth:`Rules.split`)."""
    return np.array([words.rules.split(c, words.length)[0] for c in range(words.classes)])


def best_first_guesses(
    words: WordList, metric: str = "entropy", n: int = 10
) -> list[tuple[str, float]]:
    """The ``n`` best first guesses by Norvig's ``metric`` over all targets, ties in list order
    (his ``top``), each with its value as people read it: the largest branch, the expected
    branch size, or the entropy in bits (Norvig minimises minus the entropy; shown positive)."""
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; one of {', '.join(METRICS)}")
    counts = partition_vectors(words)
    f = METRICS[metric]
    scored = [(f(row.tolist()), i) for i, row in enumerate(counts)]
    scored.sort(key=lambda x: x[0])  # stable: ties keep list order
    sign = -1.0 if metric == "entropy" else 1.0
    return [(words[i], sign * float(v) + 0.0) for v, i in scored[:n]]


def neighbourhood_sizes(words: WordList, shared: int | None = None) -> np.ndarray:
    """For every word, how many other words share at least ``shared`` letters with it (default
    L-1: Eckler's measure of how crowded its region of word space is)."""
    L = words.length
    k = L - 1 if shared is None else shared
    if not 0 <= k <= L:
        raise ValueError(f"shared must be from 0 to {L}, not {k}")
    counts = partition_vectors(words)
    near = _common_letters(words) >= k
    return counts[:, near].sum(axis=1) - 1  # minus the word itself (the win)


def neighbourhood(words: WordList, word: str, shared: int | None = None) -> list[str]:
    """The words of the list sharing at least ``shared`` (default L-1) letters with ``word``
    (any word ``jotto play`` takes as a guess), in list order."""
    L = words.length
    k = L - 1 if shared is None else shared
    if not 0 <= k <= L:
        raise ValueError(f"shared must be from 0 to {L}, not {k}")
    share = _common_letters(words)[guess_replies(words, word)]
    return [words[j] for j in np.flatnonzero(share >= k) if words[j] != word.lower()]
