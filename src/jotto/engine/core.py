"""The compiled core's Python face: the one module that imports ``jotto._core``.

Every other module reaches the C engine through this one (an import-linter contract in
``pyproject.toml`` holds them to it), so the core's entry points are spelled once, here, and
the calls that take many numbers take them by keyword.  The names below are the core's own
(``_core.pyx`` documents them); the functions and classes wrap the entry points whose
positional signatures are easy to get wrong.

A rule set reaches the engine one way: :attr:`jotto.game.words.WordList.core` makes the
core's :class:`Words`, which carries the rules (anagrams kept, positional replies, hard mode),
the reply codes, the win's code and the branching; the trees, decisions and searches read them
from it and take no rule flags of their own (tests/test_architecture.py keeps it so).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .. import _core
from .._core import (  # the core's names, re-exported for the wings above
    BS_ALL_BOUNDS,
    BS_DEFAULT_BOUNDS,
    BS_HARD_FAMILIES,
    BS_INF,
    BS_STOPS,
    BS_SUBSETS,
    BS_WEIGHTED_FAMILIES,
    BestResponseSearch,
    CostSearch,
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
    cost_decide,
    integer_weights,
    isa,
    isa_available,
    max_threads,
    openmp_enabled,
    select_isa,
    seq_dot,
    set_thresholds,
)

__all__ = ["BS_ALL_BOUNDS", "BS_DEFAULT_BOUNDS", "BS_HARD_FAMILIES", "BS_INF",
           "BS_STOPS", "BS_SUBSETS", "BS_WEIGHTED_FAMILIES",
           "CAND_ALL", "CAND_CONSISTENT", "CAND_NORVIG", "CS_INF", "MAX_LENGTH", "MAX_WORDS",
           "RULE_EXACT", "RULE_NORVIG_ENTROPY", "RULE_NORVIG_EXPECTATION", "RULE_NORVIG_MAX",
           "RULE_PAPER",
           "BestResponseSearch", "CostSearch", "Tree", "Words", "build_tree", "class_sizes",
           "cost_decide", "decide", "integer_weights", "isa", "isa_available", "max_threads",
           "openmp_enabled", "select_isa", "seq_dot", "set_thresholds"]


def build_tree(*, words: Words, rule: int, candidates: int, v: Any = None, h: Any = None,
               err_abs: float = 0.0, err_rel: float = 0.0, threads: int) -> Tree:
    """The decision tree a guesser builds over every target of ``words``: at each state it
    guesses by decision rule ``rule`` (``RULE_*``) among the ``candidates`` (``CAND_*``),
    with integer weights ``v`` of the targets and, for the paper's rule, float weights ``h``
    screened within ``err_abs``/``err_rel`` (jotto_engine.h), on ``threads`` threads."""
    return _core.build_tree(words, rule, candidates, v, h, err_abs, err_rel, threads)


def decide(*, words: Words, rule: int, candidates: int, v: Any = None, h: Any = None,
           err_abs: float = 0.0, err_rel: float = 0.0, state: Any) -> int:
    """The word :func:`build_tree`'s guesser guesses at ``state`` (increasing word indices)."""
    return _core.decide(words, rule, candidates, v, h, err_abs, err_rel, state)

