"""What the double oracle produces: a hider strategy over all words, a guesser strategy that mixes
explicit decision trees, and the certified interval that holds the game's value; and its strategy
file codec.

Payload (inside the strategy file container of :mod:`jotto.util.strategy_file`)::

    {"solver": "double-oracle", "solver_version": 1, "words": {...}, "plan": {...},
     "trees": [<root node as jotto-tree JSON nests it>, ...],
     "guesser": {"weights": [int, ...], "denominator": int},   # q_k = weights[k] / denominator
     "hider": [int, ...],                                      # p_i = hider[i] / sum(hider)
     "lower": [num, den], "upper": [num, den], "rounds": int,
     "history": {"lower": [...], "upper": [...], "restricted": [...], "columns": [...],
                 "seconds": [...]},
     # the run's state, for --resume (read by
     # jotto.solvers.double_oracle.algorithm.DoubleOracle.restore):
     "done": bool, "oracle": str, "smoothed": [float, ...] | null,
     "hedge": {"sum": [int, ...], "mean": [float, ...], "steps": int} | null,
     # the words the hider may hide (jotto.solve's hide_from), ascending indices; absent or
     # null: every word
     "hidden": [int, ...] | null}

Every number that is a bound is stored exactly; the trees are checked node by node when read
(:meth:`jotto.DecisionTree.from_nodes`), and the bounds are recomputed from the strategies where
they can be (the guesser's worst case), so a file cannot claim more than its strategies give.
"""

from __future__ import annotations

import os
from fractions import Fraction
from typing import Any

import numpy as np

from ...engine.weights import integer_weights
from ...game.trees import DecisionTree, TreeFileError, weight_by_guesses
from ...game.turns import History
from ...game.words import WordList
from ...util.strategy_file import StrategyFileError
from ..matrix_game import solve_matrix_game
from ..solution import Solution

__all__ = ["DoubleOracleSolution", "MixedTreeGuesser", "SOLVER_VERSION"]

SOLVER_VERSION = 1


def encode_fraction(x: Fraction) -> list[int]:
    return [x.numerator, x.denominator]


def decode_fraction(d: Any, what: str) -> Fraction:
    if not (isinstance(d, list) and len(d) == 2 and all(type(v) is int for v in d) and d[1] > 0):
        raise StrategyFileError(f"{what} is not a fraction [numerator, denominator]")
    return Fraction(d[0], d[1])


def int_list(d: Any, what: str, size: int | None = None) -> list[int]:
    if (
        not isinstance(d, list)
        or not all(type(v) is int and v >= 0 for v in d)
        or (size is not None and len(d) != size)
    ):
        raise StrategyFileError(f"{what} is not a list of {size or ''} non-negative integers")
    return d


def _hidden(d: Any, size: int) -> np.ndarray:
    """The stored words the hider may hide as a mask (None: every word), checked."""
    mask = np.ones(size, dtype=bool)
    if d is None:
        return mask
    rows = int_list(d, "hidden")
    if not rows or rows != sorted(set(rows)) or rows[-1] >= size:
        raise StrategyFileError("hidden is not a list of ascending word indices")
    mask[:] = False
    mask[rows] = True
    return mask


def worst_case(
    counts: np.ndarray, hidden: np.ndarray, weights: np.ndarray, denominator: int
) -> Fraction:
    """The exact expected guesses of trees mixed by ``weights / denominator`` (``counts[i, k]``:
    guesses tree k needs for word i) against their worst word among those ``hidden`` marks."""
    return Fraction(int((counts[hidden].astype(object) @ weights).max()), denominator)


class DoubleOracleSolution(Solution):
    """An equilibrium found by the double oracle (:mod:`jotto.solvers.double_oracle.algorithm`).

    Attributes:
        hider_int: the hider's strategy as integer weights.
        value_bounds: (lower, upper), exact: the hider's strategy guarantees at least ``lower``
            expected guesses against every guesser (proved by branch and bound) and the
            guesser's mixture at most ``upper`` against every target (exact).  Equal when the
            game was solved exactly.
        rounds: double-oracle rounds run; ``history``: per-round bounds and timings.
        hidden: the words the hider may hide (``hidden[i]`` for word ``i``; every word unless
            the run was given ``hide_from``): the game's secrets, and the targets of the
            guesser's worst case.
    """

    solver = "double-oracle"
    guesses_any_history = False

    def __init__(
        self,
        words: WordList,
        payload: dict[str, Any],
        known: tuple[list[DecisionTree], np.ndarray] | None = None,
        hider_only: bool = False,
    ):
        """The solution ``payload`` describes (checked).  ``known``: the payload's trees and
        their guess counts (``[D, trees]``) as the run that made them holds them, so that they
        are not parsed and counted again (the bounds are still checked against them).
        ``hider_only``: the hider is what is wanted (the hard level's, :meth:`for_hider`):
        the trees are parsed, counted and the stored upper bound checked against them only
        when first used (parsing 16 trees of 2,845 words takes seconds)."""
        if payload.get("solver_version") != SOLVER_VERSION:
            raise StrategyFileError(
                f"unknown double-oracle format version "
                f"{payload.get('solver_version')!r} (this jotto reads "
                f"{SOLVER_VERSION})"
            )
        self.words = words
        self._payload = payload
        D = len(words)
        raw = payload["trees"]
        if not isinstance(raw, list) or not raw:
            raise StrategyFileError("trees is not a non-empty list")
        self._trees: list[DecisionTree] | None = None
        self._counts: np.ndarray | None = None
        if known is not None:
            if len(known[0]) != len(raw):
                raise ValueError("the known trees are not the payload's")
            self._trees = list(known[0])
            self._counts = np.asarray(known[1], dtype=np.int32)
        g = payload["guesser"]
        self.guesser_weights = np.array(
            int_list(g["weights"], "guesser.weights", len(raw)), dtype=object
        )
        self.guesser_denominator = int(g["denominator"])
        if (
            self.guesser_denominator != int(self.guesser_weights.sum())
            or self.guesser_denominator <= 0
        ):
            raise StrategyFileError("guesser.weights do not sum to guesser.denominator")
        self.hidden = _hidden(payload.get("hidden"), D)
        self.hider_int = np.array(int_list(payload["hider"], "hider", D), dtype=object)
        if int(self.hider_int.sum()) <= 0:
            raise StrategyFileError("the hider's weights are all zero")
        if self.hider_int[~self.hidden].any():
            raise StrategyFileError("the hider puts weight on words it may not hide")
        lower = decode_fraction(payload["lower"], "lower")
        upper = decode_fraction(payload["upper"], "upper")
        self.value_bounds: tuple[Fraction, Fraction] = (lower, upper)
        if not hider_only:
            if self._trees is None:
                self._parse_trees()
            else:
                self._check_guesser()
        if not 1 <= lower <= upper:
            raise StrategyFileError(f"bounds [{lower}, {upper}] are not an interval from 1 up")
        self.rounds = int(payload["rounds"])
        self.history = {k: np.asarray(v, dtype=np.float64) for k, v in payload["history"].items()}
        self.plan: dict[str, Any] = dict(payload.get("plan", {}))

    @classmethod
    def for_hider(cls, words: WordList, payload: dict[str, Any]) -> DoubleOracleSolution:
        """The solution with its trees left unparsed until used (``hider_only``)."""
        return cls(words, payload, hider_only=True)

    @property
    def trees(self) -> list[DecisionTree]:
        """The guesser's decision trees, ``guesser_weights / guesser_denominator`` their
        probabilities (parsed, and the stored upper bound checked against them, on first use
        when the solution was read for its hider)."""
        if self._trees is None:
            self._parse_trees()
        return self._trees

    @property
    def counts(self) -> np.ndarray:
        """Guesses each tree needs for each target, ``int32 [D, trees]``."""
        if self._counts is None:
            self._parse_trees()
        return self._counts

    def _parse_trees(self) -> None:
        """Parse the payload's trees, count their guesses and check the stored upper bound;
        kept only if they pass."""
        try:
            trees = [
                DecisionTree.from_nodes(t, self.words, f"tree {k}")
                for k, t in enumerate(self._payload["trees"])
            ]
        except TreeFileError as exc:
            raise StrategyFileError(str(exc)) from None
        self._trees = trees
        self._counts = np.stack([t.guesses_needed() for t in trees], axis=1)
        try:
            self._check_guesser()
        except StrategyFileError:
            self._trees = self._counts = None
            raise

    @property
    def tree_count(self) -> int:
        """How many trees the guesser mixes (without parsing them)."""
        return len(self._payload["trees"])

    def _check_guesser(self) -> None:
        """:class:`StrategyFileError` unless the stored upper bound is the guesser's exact
        worst case (a file cannot claim more than its trees give)."""
        lower, upper = self.value_bounds
        worst = self.guesser_worst_case()
        if upper != worst:
            raise StrategyFileError(
                f"bounds [{lower}, {upper}] do not match the guesser's exact worst case {worst}"
            )

    def compacted(self, max_trees: int | None = None) -> DoubleOracleSolution:
        """The same hider in a smaller file, without what only a run continued by ``--resume``
        needs (the hider the rounds smoothed, the hedge): the guesser keeps the trees its
        mixture plays, or with ``max_trees`` the heaviest that many, mixed anew by the matrix
        game over them (the LP's probabilities made exact with 40 bits, as the run makes
        them) or by their weights renormalised, whichever has the lesser exact worst case.
        The lower bound is the hider's and stays; the upper is the new mixture's exact worst
        case (the same without ``max_trees``).  Each tree spans the whole list, so a file for
        playing (a bundled one: ``bench/common_strategy.py``) keeps few: reading one takes
        about 0.1 s per tree."""
        w = [int(x) for x in self.guesser_weights]
        keep = sorted((k for k in range(len(w)) if w[k] > 0), key=lambda k: (-w[k], k))
        if max_trees is not None:
            if max_trees < 1:
                raise ValueError(f"max_trees must be at least 1, not {max_trees}")
            keep = keep[:max_trees]
        keep.sort()
        counts = self.counts[:, keep]
        mixtures = [np.array([w[k] for k in keep], dtype=object)]
        if len(keep) < int(np.count_nonzero(self.guesser_weights)):
            q = solve_matrix_game(counts[self.hidden].astype(np.float64)).q
            lp = np.round(np.asarray(q) * 2.0**40).astype(np.int64).astype(object)
            if int(lp.sum()) > 0:
                mixtures.append(lp)

        def worst(q: np.ndarray) -> Fraction:
            return worst_case(counts, self.hidden, q, int(q.sum()))

        q = min(mixtures, key=worst)
        payload = {
            **self._payload,
            "trees": [self._payload["trees"][k] for k in keep],
            "guesser": {"weights": [int(x) for x in q], "denominator": int(q.sum())},
            "upper": encode_fraction(worst(q)),
            "done": True,
            "smoothed": None,
            "hedge": None,
        }
        return DoubleOracleSolution(self.words, payload, ([self.trees[k] for k in keep], counts))

    def with_hider(self, hider: np.ndarray, lower: Fraction) -> DoubleOracleSolution:
        """The same guesser with another hider: integer weights ``hider`` (one per word, on the
        hidden words only) that a best-response search proved elsewhere to hold every guesser
        to at least ``lower`` expected guesses (its :attr:`~jotto.BestResponse.lower` against
        exactly these weights).  The lower end of :attr:`value_bounds` becomes ``lower``.

        For a hider found outside the rounds: at the 200 most common secrets of Norvig's list,
        ``bench/uniform_ascent.py`` proves one stronger than the uniform hider, whose bound the
        run had (docs/common-words.md).  The claim is the caller's proof;
        :meth:`write_certificate` proves it again.  :class:`ValueError` for weights that are
        not one non-negative integer per word, none of them positive, or ``lower`` above the
        guesser's exact worst case (no hider can hold the guesser to more)."""
        weights = list(np.asarray(hider)) if np.ndim(hider) == 1 else []
        if len(weights) != len(self.words) or not all(
            isinstance(x, (int, np.integer)) and not isinstance(x, bool) and x >= 0 for x in weights
        ):
            raise ValueError(f"the hider must be {len(self.words)} non-negative integer weights")
        lower = Fraction(lower)
        upper = self.value_bounds[1]
        if lower > upper:
            raise ValueError(
                f"no hider holds every guesser to {lower}: this guesser needs at most {upper}"
            )
        payload = {
            **self._payload,
            "hider": [int(x) for x in weights],
            "lower": encode_fraction(lower),
        }
        try:
            return DoubleOracleSolution(self.words, payload, (self.trees, self.counts))
        except StrategyFileError as e:  # all zero, or weight on words it may not hide
            raise ValueError(str(e)) from None

    def __repr__(self) -> str:
        lo, hi = self.value_bounds
        return (
            f"DoubleOracleSolution({len(self.words)} words of {self.words.length} letters, "
            f"{self.tree_count} trees, {self.rounds} rounds, value in "
            f"[{float(lo):.4f}, {float(hi):.4f}])"
        )

    @property
    def exact(self) -> bool:
        """Whether the game's value is known exactly (the bounds met)."""
        return self.value_bounds[0] == self.value_bounds[1]

    def hider(self, t: int | None = None) -> np.ndarray:
        if t is not None:
            raise ValueError("a double-oracle solution keeps only its final strategies (no t)")
        w = self.hider_int
        total = int(w.sum())
        return np.array([float(Fraction(int(x), total)) for x in w])

    def hider_weights(self) -> np.ndarray:
        """The hider's integer weights (``int64``); if their total is too large for the core's
        exact sums, the probabilities converted by :func:`jotto.integer_weights` instead."""
        if int(self.hider_int.sum()) * len(self.words) < 2**63:
            return self.hider_int.astype(np.int64)
        return integer_weights(self.hider())

    def write_certificate(
        self, path: str | os.PathLike[str], threads: int | None = None
    ) -> Fraction:
        """Write a certificate of the lower end of :attr:`value_bounds` to ``path``
        (docs/certificates.md; :func:`jotto.check_certificate` verifies it): the hider's
        strategy holds every guesser to at least ``lower`` expected guesses, proved again by a
        best-response search against its exact weights that stops once it reaches ``lower``
        (as long as the search that first proved it).  Returns the bound certified (``lower``,
        or more if the search finds the best response's exact value first).
        :class:`ValueError` if the weights are too large for the core's exact sums,
        :class:`FileExistsError` if ``path`` exists."""
        from ...responses.best_responses import best_response

        if int(self.hider_int.sum()) * len(self.words) >= 2**63:
            raise ValueError(
                "the hider's exact weights are too large for the search's exact "
                "sums: no certificate can be written"
            )
        lower = self.value_bounds[0]
        found = best_response(
            self.words,
            self.hider_int.astype(np.int64),
            upper_bound=lower,
            threads=threads,
            certificate=path,
            about="game value",
        )
        return found.lower

    def guesser_probabilities(self) -> np.ndarray:
        """The probability of each tree, as floats."""
        return np.array(
            [float(Fraction(int(x), self.guesser_denominator)) for x in self.guesser_weights]
        )

    def guesser(
        self, seed: int | np.random.Generator | None = None, t_star: int | None = None
    ) -> MixedTreeGuesser:
        if t_star is not None:
            raise ValueError("a double-oracle solution keeps only its final strategies (no t)")
        return MixedTreeGuesser(self.trees, self.guesser_weights, seed, counts=self.counts)

    def guesser_worst_case(self) -> Fraction:
        """The guesser's guarantee: its exact expected guesses against its worst target among
        the words the hider may hide (of a solution read for its hider whose trees are not yet
        parsed, the stored upper bound, which parsing them checks against them)."""
        if self._counts is None:
            return self.value_bounds[1]
        return worst_case(self.counts, self.hidden, self.guesser_weights, self.guesser_denominator)

    def guesser_expected(self) -> list[Fraction]:
        num = self.counts.astype(object) @ self.guesser_weights
        return [Fraction(int(x), self.guesser_denominator) for x in num]

    def plot(self, path: str | os.PathLike[str] | None = None):
        """The value interval (proved lower bound, exact upper bound) against round; saved to
        ``path`` if given (PNG, SVG or PDF by its suffix).  Needs matplotlib, an optional extra
        (``pip install 'jotto[plot]'``)."""
        from .plot import value_interval_plot

        return value_interval_plot(self, path)

    def report(self) -> dict[str, Any]:
        lo, hi = self.value_bounds
        return {
            "value_bounds": [float(lo), float(hi)],
            "value_bounds_exact": [str(lo), str(hi)],
            "rounds": self.rounds,
            "trees": self.tree_count,
            "oracle": self.plan.get("oracle"),
            "hidden": int(self.hidden.sum()),
        }

    def report_text(self) -> str:
        return self.summary()

    def answers(self, *, mode: str | None, iterations: int | None, oracle: Any) -> bool:
        return self.exact and (oracle is None or oracle.spec == self.plan.get("oracle"))

    def summary(self) -> str:
        lo, hi = self.value_bounds
        what = (
            f"value {lo} = {float(lo):.4f} (exact)"
            if lo == hi
            else f"value in [{float(lo):.4f}, {float(hi):.4f}] (width {float(hi - lo):.4f})"
        )
        used = int(np.count_nonzero(self.guesser_weights))
        hidden = int(self.hidden.sum())
        among = "" if hidden == len(self.words) else f" (it may hide {hidden})"
        return (
            f"double oracle: {what}; {self.rounds} rounds, {self.tree_count} trees "
            f"({used} in the guesser's mix), hider support "
            f"{int(np.count_nonzero(self.hider_int))} of {len(self.words)} words{among}"
        )


class MixedTreeGuesser:
    """A guesser that draws one of its decision trees at the start of each game (by weight,
    with its seeded :class:`numpy.random.Generator`) and plays it."""

    def __init__(
        self,
        trees: list[DecisionTree],
        weights: np.ndarray,
        seed: int | np.random.Generator | None = None,
        name: str = "double oracle",
        counts: np.ndarray | None = None,
    ):
        self.words = trees[0].words
        self.trees = trees
        #: the trees' exact integer weights
        self.weights = [int(x) for x in weights]
        total = sum(int(x) for x in weights)
        self._p = np.array([float(Fraction(int(x), total)) for x in weights])
        #: Guesses each tree needs for each target (``[D, trees]``), if the caller has them.
        self._counts = counts
        self.rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        self.name = name
        self.k = 0
        self.new_game()

    def __repr__(self) -> str:
        return f"MixedTreeGuesser({self.name!r}, {len(self.trees)} trees, {self.words.describe()})"

    def new_game(self) -> None:
        self.k = int(self.rng.choice(len(self.trees), p=self._p / self._p.sum()))

    def next_guess(self, state: np.ndarray, history: History) -> int:
        tree = self.trees[self.k]
        node = tree.node_after(history, len(state))
        if node < 0:
            raise ValueError(
                "this game left the guesser's decision tree (its guesses were not the tree's)"
            )
        return int(tree.guess[node])

    def _guess_counts(self) -> np.ndarray:
        """Guesses each tree needs for each target (``[D, trees]``)."""
        if self._counts is None:
            self._counts = np.stack([t.guesses_needed() for t in self.trees], axis=1)
        return self._counts

    def count_distribution(self, weights: np.ndarray) -> dict[int, Fraction]:
        """The exact chance of each number of guesses against a hider's integer ``weights``
        (what a race needs: :func:`jotto.players.races.guess_distribution`)."""
        w = [int(x) for x in weights]
        counts = self._guess_counts()
        total: dict[int, int] = {}
        for k, q in enumerate(self.weights):
            for c, x in weight_by_guesses(counts[:, k], w).items() if q else ():
                total[c] = total.get(c, 0) + q * x
        return {c: Fraction(x, sum(self.weights) * sum(w)) for c, x in sorted(total.items())}

    def moments(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Exact expected guesses, expected squared guesses per target, and the expected
        histogram (targets per guess count) of the mixture."""
        counts = self._guess_counts().astype(np.float64)
        q = self._p
        hist = np.zeros(int(counts.max()) + 1)
        for k, qk in enumerate(q):
            if qk:
                hist += qk * np.bincount(counts[:, k].astype(np.int64), minlength=len(hist))
        return counts @ q, (counts**2) @ q, hist
