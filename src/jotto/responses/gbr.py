"""GuesserGBR and CompNumGuesses (Ganzfried 2011, Algorithms 1-7) on the compiled core.

GuesserGBR(h, S) guesses the word, among all D words, that eliminates the most consistent targets
in expectation under the hider strategy h.  CompNumGuesses(h) plays it against every target.  Its
decision depends only on (h, S), so every target walks one decision tree, built once.

Two rules decide each guess (see docs/reproducing-the-paper.md):

- ``"paper"``: the paper's arithmetic taken literally in IEEE double.  For each candidate w,
  ``A_j`` = (sum of h_i over S with reply(w, i) = j, added left to right in dictionary order) /
  (sum of h_i over S, left to right), ``ExpNumElims(w) = sum_{j=0..L} A_j (|S| - n_j)`` added in
  order of j; the first maximum in dictionary order wins.  This is the only way to reproduce the
  paper's numbers, since its ties are decided by rounding.  Bit-identical on every platform.
- ``"exact"``: the same objective compared exactly: minimise ``Q(w) = sum_{i in S} v_i
  n_{reply(w,i)}`` in integers; ties go to a word of S (it can win at once), then the lowest index.

With one consistent target both guess it.  A state whose targets all weigh zero is played as if
they were equally likely.  Replies are the word list's rules' reply codes (``words.rules``); the
guesser has won when its guess is the target; under hard rules it guesses among the consistent
targets only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Union

import numpy as np
from numpy.typing import ArrayLike

from ..engine import core
from ..engine.runtime import resolve_threads
from ..engine.weights import check_rule, core_weights
from ..game.trees import DecisionTree
from ..game.words import WordList

__all__ = ["as_word_list", "comp_num_guesses", "gbr_tree", "guesser_gbr", "state_indices"]

Words = Union[WordList, Sequence[str]]


def as_word_list(words: Words) -> WordList:
    """A :class:`WordList` as given, or one made from a sequence of playable words."""
    if isinstance(words, WordList):
        return words
    if isinstance(words, str):
        raise TypeError("words must be a WordList or a sequence of words, not one string")
    return WordList.from_words(list(words))


def state_indices(words: WordList, state: ArrayLike) -> np.ndarray:
    """The state S as increasing word indices, from a boolean vector of length D (the paper's
    bit-vector) or from word indices; :class:`ValueError` if it is empty or malformed."""
    arr = np.asarray(state)
    D = len(words)
    if arr.dtype == bool:
        if arr.shape != (D,):
            raise ValueError(
                f"a boolean state must have one entry per word ({D}), not shape {arr.shape}"
            )
        idx = np.flatnonzero(arr)
    else:
        if arr.ndim != 1 or (arr.size and not np.issubdtype(arr.dtype, np.integer)):
            raise ValueError("a state is a boolean vector or a vector of word indices")
        idx = np.unique(arr)
        if idx.size and (idx[0] < 0 or idx[-1] >= D):
            raise ValueError(f"state indices must be in 0..{D - 1}")
    if idx.size == 0:
        raise ValueError("the state holds no word: no target is consistent")
    return np.ascontiguousarray(idx, dtype=np.int32)


def _tree(words: WordList, weights: ArrayLike | None, rule: str, threads: int | None):
    code = check_rule(rule)
    w = core_weights(weights, len(words), rule)
    return core.build_tree(
        words=words.core,
        rule=code,
        candidates=core.CAND_ALL,
        v=w.v,
        h=w.h,
        err_abs=w.err_abs,
        threads=resolve_threads(threads),
    )


def comp_num_guesses(
    words: Words,
    weights: ArrayLike | None = None,
    *,
    rule: str = "paper",
    threads: int | None = None,
    return_tree: bool = False,
):
    """CompNumGuesses: the guesses GuesserGBR(weights) needs for each target.

    Args:
        words: a :class:`WordList` (or a sequence of playable words).
        weights: the hider strategy, one non-negative number per word; ``None`` is the uniform
            hider (``1/D`` in double under the paper rule, equal integers under the exact rule).
            Float weights under the paper rule are used exactly as given.
        rule: ``"paper"`` or ``"exact"`` (module documentation).
        threads: threads to use (default ``OMP_NUM_THREADS``, else all cores); results never
            depend on it.
        return_tree: also return the :class:`~jotto.game.trees.DecisionTree` shared by all targets.

    Returns:
        ``int32`` array of guesses per target, or ``(counts, tree)``.
    """
    wl = as_word_list(words)
    tree = _tree(wl, weights, rule, threads)
    counts = tree.guess_counts()
    if not return_tree:
        return counts
    return counts, DecisionTree(wl, *tree.export())


def gbr_tree(
    words: Words,
    weights: ArrayLike | None = None,
    *,
    rule: str = "paper",
    threads: int | None = None,
) -> DecisionTree:
    """The decision tree of GuesserGBR(weights) over every target."""
    return comp_num_guesses(words, weights, rule=rule, threads=threads, return_tree=True)[1]


def guesser_gbr(
    words: Words, weights: ArrayLike | None, state: ArrayLike, *, rule: str = "paper"
) -> int:
    """GuesserGBR(h, S): the index of the word guessed at state ``state``.

    ``state`` is the paper's bit-vector S (boolean, one entry per word) or the indices of the
    consistent targets; ``weights`` as in :func:`comp_num_guesses`.
    """
    wl = as_word_list(words)
    code = check_rule(rule)
    S = state_indices(wl, state)
    w = core_weights(weights, len(wl), rule)
    return core.decide(
        words=wl.core, rule=code, candidates=core.CAND_ALL, v=w.v, h=w.h, err_abs=w.err_abs, state=S
    )
