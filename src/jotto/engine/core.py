"""The compiled core's Python face: the one module that imports ``jotto._core``.

Every other module reaches the C engine through this one (an import-linter contract in
``pyproject.toml`` holds them to it), so the core's entry points are spelled once, here, and
the calls that take many numbers take them by keyword.  The names below are the core's own
(``_core.pyx`` documents them); the functions and classes wrap the entry points whose
positional signatures are easy to get wrong, and name what a search pass returns
(:class:`PassOutcome`).

A rule set reaches the engine one way: :attr:`jotto.game.words.WordList.core` makes the
core's :class:`Words`, which carries the rules (anagrams kept, positional replies, hard mode),
the reply codes, the win's code and the branching; the trees, decisions and searches read them
from it and take no rule flags of their own (tests/house/test_architecture.py keeps it so).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .._core import (  # the core's names, re-exported for the wings above
    BS_ALL_BOUNDS,
    BS_DEFAULT_BOUNDS,
    BS_HARD_FAMILIES,
    BS_INF,
    BS_STOPS,
    BS_SUBSETS,
    BS_WEIGHTED_FAMILIES,
    CAND_ALL,
    CAND_CONSISTENT,
    CAND_NORVIG,
    CS_INF,
    MAX_LENGTH,
    MAX_WORDS,
    RULE_EXACT,
    RULE_NORVIG_ENTROPY,
    RULE_NORVIG_EXPECTATION,
    RULE_NORVIG_MAX,
    RULE_PAPER,
    Tree,
    Words,
    class_sizes,
    integer_weights,
    isa,
    isa_available,
    max_threads,
    openmp_enabled,
    select_isa,
    seq_dot,
    set_thresholds,
)
from .._core import BestResponseSearch as _BestResponseSearch
from .._core import CostSearch as _CostSearch
from .._core import build_tree as _build_tree
from .._core import cost_decide as _cost_decide
from .._core import decide as _decide

__all__ = [
    "BS_ALL_BOUNDS",
    "BS_DEFAULT_BOUNDS",
    "BS_HARD_FAMILIES",
    "BS_INF",
    "BS_STOPS",
    "BS_SUBSETS",
    "BS_WEIGHTED_FAMILIES",
    "CAND_ALL",
    "CAND_CONSISTENT",
    "CAND_NORVIG",
    "CS_INF",
    "MAX_LENGTH",
    "MAX_WORDS",
    "RULE_EXACT",
    "RULE_NORVIG_ENTROPY",
    "RULE_NORVIG_EXPECTATION",
    "RULE_NORVIG_MAX",
    "RULE_PAPER",
    "BestResponseSearch",
    "CostSearch",
    "PassOutcome",
    "Tree",
    "Words",
    "build_tree",
    "class_sizes",
    "cost_decide",
    "decide",
    "integer_weights",
    "isa",
    "isa_available",
    "max_threads",
    "openmp_enabled",
    "select_isa",
    "seq_dot",
    "set_thresholds",
]


def build_tree(
    *,
    words: Words,
    rule: int,
    candidates: int,
    v: Any = None,
    h: Any = None,
    err_abs: float = 0.0,
    err_rel: float = 0.0,
    threads: int,
) -> Tree:
    """The decision tree a guesser builds over every target of ``words``: at each state it
    guesses by decision rule ``rule`` (``RULE_*``) among the ``candidates`` (``CAND_*``),
    with integer weights ``v`` of the targets and, for the paper's rule, float weights ``h``
    screened within ``err_abs``/``err_rel`` (jotto_engine.h), on ``threads`` threads."""
    return _build_tree(words, rule, candidates, v, h, err_abs, err_rel, threads)


def decide(
    *,
    words: Words,
    rule: int,
    candidates: int,
    v: Any = None,
    h: Any = None,
    err_abs: float = 0.0,
    err_rel: float = 0.0,
    state: Any,
) -> int:
    """The word :func:`build_tree`'s guesser guesses at ``state`` (increasing word indices)."""
    return _decide(words, rule, candidates, v, h, err_abs, err_rel, state)


class PassOutcome(NamedTuple):
    """What one pass of a search proved (jt_bs_outcome, jt_cs_outcome)."""

    value: int
    """The optimum if ``exact``, else a proven lower bound (a top-K pass: its restricted
    optimum, an upper bound)."""
    exact: bool
    stopped: str
    """Why the pass ended: ``"done"``, ``"time"``, ``"nodes"`` or ``"interrupted"``."""
    best: int | None
    """The value of the best tree the pass completed at its state (None: none)."""
    best_guess: int
    """That tree's first guess (-1: none)."""
    nodes: int
    """States searched."""


class BestResponseSearch(_BestResponseSearch):
    """The mean's branch and bound over ``words`` (a :class:`Words`, whose rules it follows)
    against integer weights ``v``, its memo within ``memo_bytes``: ``BestResponseSearch(words,
    v, memo_bytes)``.  Passes take keywords and return a :class:`PassOutcome`."""

    def run(
        self,
        *,
        beta: int = BS_INF,
        top_k: int = 0,
        seconds: float = 0.0,
        nodes: int = 0,
        by_size: bool = False,
        cancel: list | None = None,
        full_below: int = 0,
        threads: int = 1,
        parallel_from: int = 0,
        targets: Any = None,
        first_guesses: Any = None,
    ) -> PassOutcome:
        """One pass (``_core.BestResponseSearch.run`` documents the arguments; 0 seconds or
        nodes: no limit)."""
        return PassOutcome(
            *super().run(
                top_k,
                beta,
                seconds,
                nodes,
                by_size,
                cancel,
                full_below,
                threads,
                parallel_from,
                targets,
                first_guesses,
            )
        )

    def greedy(self) -> PassOutcome:
        """The greedy tree: the top-1 pass over every target, the first upper bound of every
        best response (its tree is :meth:`tree` ``(1, -1)``)."""
        return self.run(top_k=1)


class CostSearch(_CostSearch):
    """The cost search over ``words`` (a :class:`Words`, whose rules it follows):
    ``CostSearch(words, v, costs, tail, memo_bytes)``.  Passes take keywords and return a
    :class:`PassOutcome`."""

    def run(
        self,
        *,
        beta: int,
        seconds: float = 0.0,
        nodes: int = 0,
        cancel: list | None = None,
        targets: Any = None,
        depth: int = 0,
    ) -> PassOutcome:
        """One pass at the root or at the state ``targets`` after ``depth`` guesses
        (``_core.CostSearch.run``)."""
        return PassOutcome(*super().run(beta, seconds, nodes, cancel, targets, depth))


def cost_decide(
    *,
    words: Words,
    v: Any,
    costs: Any,
    tail: float,
    depth: int,
    targets: Any,
    levels: int,
    width: int,
    seconds: float,
) -> tuple[int, float, bool, int]:
    """The cost guesser's heuristic guess at ``targets`` after ``depth`` guesses, under the
    rules of ``words`` (``_core.cost_decide``): (guess, score, finished, replies computed)."""
    return _cost_decide(words, v, costs, tail, depth, targets, levels, width, seconds)
