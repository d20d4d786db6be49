"""Guessers: the random consistent guesser, Norvig's partition guessers, GuesserGBR against any
hider strategy, and a decision tree played as it stands.  The equilibrium guesser of a strategy
file is :class:`jotto.solvers.solution.EquilibriumGuesser`.

Every guesser follows :class:`jotto.game.turns.Guesser`.  Deterministic ones also give their
decision
tree (``tree()``) and so their guesses for every target at once; the random guesser is played.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ..engine import core
from ..engine.runtime import resolve_threads
from ..game.trees import DecisionTree
from ..game.turns import History, player_repr
from ..game.words import WordList
from ..responses.gbr import gbr_tree, guesser_gbr

__all__ = [
    "GBRGuesser",
    "NORVIG_METRICS",
    "NorvigGuesser",
    "OffTree",
    "RandomGuesser",
    "TreeGuesser",
]


class OffTree(ValueError):
    """A tree read from a file was asked for a guess in a game that left it."""


#: Norvig's metrics of a partition (the targets per reply), all minimised: the largest branch,
#: the expected branch size, and minus the entropy.
NORVIG_METRICS = {
    "max": core.RULE_NORVIG_MAX,
    "expectation": core.RULE_NORVIG_EXPECTATION,
    "entropy": core.RULE_NORVIG_ENTROPY,
}


class RandomGuesser:
    """Guesses a consistent target uniformly at random (Norvig's ``random_guesser``), from a
    seeded :class:`numpy.random.Generator`."""

    deterministic = False

    def __init__(self, words: WordList, seed: int | np.random.Generator | None = None):
        self.words = words
        self.rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        self.name = (
            "random"
            if seed is None or isinstance(seed, np.random.Generator)
            else f"random:seed={seed}"
        )

    __repr__ = player_repr

    def new_game(self) -> None:
        pass

    def next_guess(self, state: np.ndarray, history: History) -> int:
        return int(self.rng.choice(state))


class TreeGuesser:
    """Plays a decision tree.  Off the tree (a game whose guesses were not the tree's, as when
    assisting a person), it asks :meth:`decide`, which a tree read from a file cannot answer."""

    deterministic = True

    def __init__(self, tree: DecisionTree, name: str = "tree"):
        self.words = tree.words
        self._tree = tree
        self.name = name

    __repr__ = player_repr

    def tree(self) -> DecisionTree:
        return self._tree

    def new_game(self) -> None:
        pass

    def next_guess(self, state: np.ndarray, history: History) -> int:
        tree = self.tree()
        node = tree.node_after(history, len(state))
        return int(tree.guess[node]) if node >= 0 else self.decide(state)

    def decide(self, state: np.ndarray) -> int:
        raise OffTree(
            "this game left the decision tree (its guesses were not the tree's), "
            "and a tree read from a file has no answer there"
        )

    def expected_guesses(self) -> np.ndarray:
        return self.tree().guesses_needed().astype(np.float64)


class NorvigGuesser(TreeGuesser):
    """Norvig's partition guessers: guess the word minimising ``metric`` of the partition
    counts (over the rules' reply codes) of the consistent targets, ties to the first word in
    list order.  Consistent: only consistent targets are guessed; inconsistent: any word while
    more than 3 targets remain (as in the notebook's ``make_tree``), except in hard mode, where
    every guess must be consistent.  The metrics are computed as his Python computes them, so
    his trees are reproduced exactly."""

    def __init__(
        self,
        words: WordList,
        metric: str = "entropy",
        inconsistent: bool = False,
        threads: int | None = None,
    ):
        if metric not in NORVIG_METRICS:
            raise ValueError(
                f"unknown Norvig metric {metric!r}; one of {', '.join(NORVIG_METRICS)}"
            )
        self.words = words
        self.metric = metric
        # hard mode: every guess consistent
        self.inconsistent = inconsistent and not words.rules.hard
        self.threads = threads
        self.name = f"norvig:{metric}:{'inconsistent' if self.inconsistent else 'consistent'}"
        self._tree: DecisionTree | None = None

    @property
    def _args(self) -> tuple[int, int]:
        return (
            NORVIG_METRICS[self.metric],
            core.CAND_NORVIG if self.inconsistent else core.CAND_CONSISTENT,
        )

    def tree(self) -> DecisionTree:
        if self._tree is None:
            rule, cand = self._args
            built = core.build_tree(
                words=self.words.core,
                rule=rule,
                candidates=cand,
                threads=resolve_threads(self.threads),
            )
            self._tree = DecisionTree(self.words, *built.export())
        return self._tree

    def decide(self, state: np.ndarray) -> int:
        S = np.ascontiguousarray(state, dtype=np.int32)
        rule, cand = self._args
        return core.decide(words=self.words.core, rule=rule, candidates=cand, state=S)


class GBRGuesser(TreeGuesser):
    """GuesserGBR against a hider strategy (``weights``; None is the uniform hider), under the
    ``paper`` or ``exact`` rule."""

    def __init__(
        self,
        words: WordList,
        weights: ArrayLike | None = None,
        rule: str = "paper",
        threads: int | None = None,
        name: str | None = None,
    ):
        self.words = words
        self.weights = None if weights is None else np.asarray(weights)
        self.rule = rule
        self.threads = threads
        self.name = name or f"gbr:{rule}"
        self._tree: DecisionTree | None = None

    def tree(self) -> DecisionTree:
        if self._tree is None:
            self._tree = gbr_tree(self.words, self.weights, rule=self.rule, threads=self.threads)
        return self._tree

    def decide(self, state: np.ndarray) -> int:
        return guesser_gbr(self.words, self.weights, state, rule=self.rule)
