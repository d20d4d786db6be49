"""A fast guesser for any objective (:mod:`jotto.game.objectives`): greedy with lookahead, for play.

The exact best response (:func:`jotto.best_response` with an objective) is a search that can take
minutes; a person waiting for the computer's guess needs one in well under a second.
:class:`CostGuesser` scores every word by what its guess would cost under a model
(``greedy_cost.c``): the word's own target found at once if it is one, and each reply class at
the cost a tree would have that splits it, guess after guess, as well as the best guess splits
the state now.  It then looks one level deeper for the best few words (each class at its own
best guess's score) while its deadline allows.  Deterministic when no deadline is set (or it is
never reached).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..engine import core
from ..engine.weights import exact_weights
from ..game.objectives import Objective, ObjectiveSpec, parse_objective
from ..game.trees import DecisionTree, tree_from_policy
from ..game.turns import History
from ..game.words import WordList
from .guessers import TreeGuesser

__all__ = ["CostGuesser"]

#: Lookahead levels and refined words per level without a deadline: at 5 letters a first guess
#: takes about 0.3 s on one core (docs/race.md), later guesses at most about 0.1 s.
LEVELS = 2
WIDTH = 4
#: With a deadline the guesser deepens up to this many levels while time remains.
DEADLINE_LEVELS = 4
#: Decisions remembered (state and guesses made): the first guess of every game is the same.
CACHE = 256


class CostGuesser(TreeGuesser):
    """Greedy with lookahead for ``objective`` against a hider's ``weights`` (None: uniform;
    floats or integers as :func:`jotto.best_response` takes them).

    ``levels`` and ``width``: lookahead levels (1: every word scored by the model; each further
    level rescores the ``width`` best words of the level before by their classes' own best
    guesses).  ``seconds``: a deadline for the levels beyond the first, which then go on up to
    :data:`DEADLINE_LEVELS` while time remains (decisions then depend on the machine's speed);
    None: exactly ``levels`` levels, always the same decision.
    """

    def __init__(
        self,
        words: WordList,
        objective: ObjectiveSpec = None,
        weights: ArrayLike | None = None,
        *,
        levels: int = LEVELS,
        width: int = WIDTH,
        seconds: float | None = None,
        name: str | None = None,
    ):
        self.words = words
        self.objective = parse_objective(objective)
        self.weights = exact_weights(weights, len(words))
        for label, x in (("levels", levels), ("width", width)):
            if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 1:
                raise ValueError(f"{label} must be a positive integer, not {x!r}")
        if seconds is not None and not (
            isinstance(seconds, (int, float))
            and not isinstance(seconds, bool)
            and 0 < seconds < 1e9
        ):
            raise ValueError(f"seconds must be a positive number or None, not {seconds!r}")
        self.levels = int(levels)
        self.width = int(width)
        self.seconds = seconds
        self.deterministic = seconds is None
        self.name = name or f"greedy-cost:{self.objective.name}"
        self._tree: DecisionTree | None = None
        self._cache: OrderedDict[tuple[int, bytes], int] = OrderedDict()
        #: the last decision's (score, every level finished, seconds)
        self.last: tuple[float, bool, float] | None = None

    def new_game(self) -> None:
        pass

    def next_guess(self, state: np.ndarray, history: History) -> int:
        return self.decide(state, len(history))

    def decide(self, state: np.ndarray, made: int = 0) -> int:
        """The guess at ``state`` (increasing word indices consistent so far) after ``made``
        guesses, for this guesser's objective."""
        S = np.ascontiguousarray(state, dtype=np.int32)
        key = (made, S.tobytes())
        if self.deterministic and key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        g = self.choose(S, made, self.objective)
        if self.deterministic:
            self._cache[key] = g
            if len(self._cache) > CACHE:
                self._cache.popitem(last=False)
        return g

    def choose(
        self, state: np.ndarray, made: int, objective: Objective, deadline: bool = True
    ) -> int:
        """The guess at ``state`` after ``made`` guesses for any ``objective`` (a race-aware
        guesser changes it every turn), with this guesser's weights, width and deadline (unless
        not ``deadline``: then exactly ``levels`` levels)."""
        seconds = self.seconds if deadline else None
        levels = self.levels if seconds is None else max(self.levels, DEADLINE_LEVELS)
        t0 = time.perf_counter()
        g, score, complete, _ = core.cost_decide(
            words=self.words.core,
            v=self.weights,
            costs=[float(c) for c in objective.costs],
            tail=float(objective.tail),
            depth=int(made),
            targets=np.ascontiguousarray(state, dtype=np.int32),
            levels=levels,
            width=self.width,
            seconds=0.0 if seconds is None else float(seconds),
        )
        self.last = (score, complete, time.perf_counter() - t0)
        return g

    def tree(self) -> DecisionTree:
        """Its decision tree over every target, deciding at each node without the deadline."""
        if self._tree is None:
            self._tree = tree_from_policy(
                self.words,
                lambda S, made: (
                    self.choose(S, made, self.objective, False)
                    if self.seconds is not None
                    else self.decide(S, made)
                ),
            )
        return self._tree

    def describe(self) -> dict[str, Any]:
        return {
            "objective": self.objective.name,
            "levels": self.levels,
            "width": self.width,
            "seconds": self.seconds,
        }
