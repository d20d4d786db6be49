"""What every best response shares: its result (:class:`BestResponse`), the hider's integer
weights, the search over a word list and how it starts (the greedy tree and the bound known
without search), what a search may spend (:class:`Budget`) and how its passes end.  The mean's
search (:mod:`jotto.responses.mean_search`), the cost search
(:mod:`jotto.responses.cost_search`) and the proof on executors (:mod:`jotto.responses.proof`)
build on it; :func:`jotto.best_response` (:mod:`jotto.responses.best_responses`) dispatches
among them.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Real
from typing import Any, Union

import numpy as np
from numpy.typing import ArrayLike

from ..engine import core
from ..engine.weights import exact_weights
from ..game.bounds import counting_total
from ..game.certificates import CertificateWriter
from ..game.hiding import hide_from_weights
from ..game.objectives import Objective
from ..game.trees import DecisionTree
from ..game.words import WordList

__all__ = [
    "DEFAULT_MEMORY",
    "BestResponse",
    "Budget",
    "HideFrom",
    "Hider",
    "Words",
    "core_search",
    "end_of_passes",
    "expected_guesses",
    "greedy_start",
    "hider_of",
    "positive_number",
    "weights_and_total",
]

Words = Union[WordList, Sequence[str]]
Hider = Union[None, ArrayLike, Sequence[Fraction]]
#: Secrets restricted to some words (:mod:`jotto.game.hiding`): ``"sgb:500"``, a word file.
HideFrom = Union[None, str, os.PathLike]

#: Memory the search's memos may take together by default (bytes).
DEFAULT_MEMORY = 2**30


@dataclass(frozen=True, eq=False)
class BestResponse:
    """What :func:`best_response` found and proved.

    Attributes:
        lower: a proven lower bound on the least expected number of guesses of any tree (for
            another :attr:`objective`, on the least expected cost ``E[c(guesses)]``).
        upper: the expected number of guesses (or cost) of :attr:`tree` (so the optimum is in
            ``[lower, upper]``).
        tree: the best tree found, over every word of the list (also those of weight 0).
        weights: the integer hider weights searched (``int64 [D]``).
        nodes: states searched (all passes).
        seconds: wall-clock time.
        stopped: why the search stopped before proving the optimum: ``None`` (it did not:
            ``exact`` or a top-K search that finished), ``"time"``, ``"nodes"``, or
            ``"upper_bound"`` (no tree beats ``upper_bound``: ``lower >= upper_bound``).
        top_k: the top-K restriction used, or ``None`` (full search).
        passes: search passes run.
        memo_states: states in the memo at the end (exact values and proven bounds).
        objective: what was minimised (:mod:`jotto.game.objectives`; the mean by default).
    """

    lower: Fraction
    upper: Fraction
    tree: DecisionTree = field(repr=False)
    weights: np.ndarray = field(repr=False)
    nodes: int
    seconds: float
    stopped: str | None
    top_k: int | None
    passes: int
    memo_states: int
    objective: Objective = field(default_factory=Objective.mean)

    @property
    def found_within(self) -> tuple[Fraction, Fraction] | None:
        """For a :func:`jotto.within` ``(k)`` objective, the certified interval of the best
        tree's chance of finding the word within k guesses, ``(1 - upper, 1 - lower)`` (the
        tree's own is the low end); None for other objectives."""
        if self.objective.within is None:
            return None
        return 1 - self.upper, 1 - self.lower

    @property
    def exact(self) -> bool:
        """Whether the optimum is proven, ``lower == upper`` (the tree is optimal)."""
        return self.lower == self.upper

    @property
    def gap(self) -> Fraction:
        """``upper - lower``: how far the tree may be from optimal, in expected guesses."""
        return self.upper - self.lower

    def __repr__(self) -> str:
        stopped = "" if self.stopped is None else f", stopped={self.stopped!r}"
        top_k = "" if self.top_k is None else f", top_k={self.top_k}"
        return (
            f"BestResponse(lower={float(self.lower):.4f}, upper={float(self.upper):.4f}, "
            f"gap={float(self.gap):.4g}, exact={self.exact}{stopped}{top_k}, "
            f"nodes={self.nodes}, seconds={self.seconds:.3g})"
        )


def hider_of(words: WordList, hider: Hider, hide_from: HideFrom) -> Hider:
    """The hider a search is given: ``hider``, or with ``hide_from`` weights 1 on the words it
    names and 0 elsewhere (:func:`jotto.game.hiding.hide_from_weights`); :class:`ValueError`
    for both (which words and what weight on each: one answer, one argument)."""
    if hide_from is None:
        return hider
    if hider is not None:
        raise ValueError(
            "hider and hide_from: give one (hide_from is the hider with weight 1 "
            "on each of its words)"
        )
    return hide_from_weights(words, hide_from)


def weights_and_total(hider: Hider, size: int) -> tuple[np.ndarray, int]:
    """The hider's exact integer weights over ``size`` words
    (:func:`jotto.engine.weights.exact_weights`)
    and their sum; :class:`ValueError` if it puts weight on no word."""
    v = exact_weights(hider, size)
    total = int(v.sum(dtype=object))
    if total == 0:
        raise ValueError("the hider puts weight on no word: expected guesses are undefined")
    return v, total


def expected_guesses(tree: DecisionTree, hider: Hider = None) -> Fraction:
    """The exact expected number of guesses of ``tree`` against ``hider``:
    ``sum_i v_i guesses_i / sum_i v_i`` with ``v`` the integer weights of ``hider`` (as in
    :func:`best_response`)."""
    v, total = weights_and_total(hider, len(tree.words))
    g = tree.guesses_needed().astype(object)
    return Fraction(int((v.astype(object) * g).sum()), total)


def core_search(
    words: WordList, v: np.ndarray, memory: int, cert: CertificateWriter | None = None
) -> core.BestResponseSearch:
    """The core search over ``words`` under their rules (which the core's list carries); with
    ``cert``, writing the bounds it proves to the certificate's record stream."""
    search = core.BestResponseSearch(words.core, v, int(memory))
    if cert is not None:
        search.certificate_open(cert.stream)
    return search


def greedy_start(
    words: WordList, search: core.BestResponseSearch, v: Any
) -> tuple[core.PassOutcome, int]:
    """How every best response starts: the greedy tree's pass (its value the first upper bound,
    its tree ``search.tree(1, -1)``) and the lower bound known without search, the search's own
    root bound or the sorted counting bound where it is stronger (weights ``v``)."""
    greedy = search.greedy()
    lower = max(search.root_bound(), counting_total((int(x) for x in v), words.core.branches))
    return greedy, lower


@dataclass
class Budget:
    """What one search may spend: time until ``deadline`` (a :func:`time.perf_counter` time;
    None: no limit) and ``nodes`` states (None: no limit)."""

    deadline: float | None
    nodes: int | None

    def left(self, spent: int) -> tuple[float, int] | None:
        """(seconds, nodes) the next pass may take after ``spent`` states (0: no limit), or
        None if none are left."""
        secs = 0.0
        if self.deadline is not None:
            secs = self.deadline - time.perf_counter()
            if secs <= 0:
                return None
        n = 0
        if self.nodes is not None:
            n = self.nodes - spent
            if n <= 0:
                return None
        return secs, n

    def why_stopped(self) -> str:
        """Which budget is spent (once :meth:`left` found none left)."""
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            return "time"
        return "nodes"


def positive_number(name: str, x, integer: bool = False):
    if x is None:
        return None
    ok = isinstance(x, (int, np.integer)) if integer else isinstance(x, Real)
    if isinstance(x, bool) or not ok or not math.isfinite(x) or x <= 0:
        kind = "a positive integer" if integer else "a positive number of seconds"
        raise ValueError(f"{name} must be {kind} or None, not {x!r}")
    return x


def end_of_passes(run: Any, out: core.PassOutcome) -> bool:
    """Fold one lower-bound pass's outcome into ``run`` (a search with ``lower`` and
    ``stopped``, of expected guesses or of a cost): an exact value is the lower bound, else the
    pass's bound raises it.  Returns whether the passes are over: the value is exact, or a
    budget stopped the pass (``stopped`` says which)."""
    if out.exact:
        run.lower = out.value
        return True
    run.lower = max(run.lower, out.value)
    if out.stopped != "done":
        run.stopped = out.stopped
        return True
    return False
