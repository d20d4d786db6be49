"""What fictitious play (SolveJotto) produces: the hider's strategy at any iteration, the
guesser's strategy in oracular form (ObtainGuesserStrategy, Algorithm 14), the history, Table 1's
rows, and its strategy file codec.

The strategy file stores the best response of every iteration (not D floats per line), from which
any ``s_t`` is rebuilt exactly: in exact mode ``w_i = 1 + D (times i was the best response)``; in
paper mode the float recurrence replayed bit for bit.
"""

from __future__ import annotations

import math
import os
from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ...engine.weights import integer_weights
from ...game.paper import Table1, is_paper_list
from ...game.trees import DecisionTree, weight_by_guesses
from ...game.turns import History, player_repr
from ...game.words import WordList
from ...responses.gbr import comp_num_guesses, gbr_tree, guesser_gbr
from ...util.strategy_file import StrategyFileError, decode_array
from ..solution import Solution
from .algorithm import exact_play_weights, paper_strategy
from .codec import (
    MODES,
    SUMS,
    check_payload,
    decode_best_responses,
    decode_history,
    decode_oracle_trees,
)

__all__ = ["EquilibriumGuesser", "FictitiousPlaySolution"]


@dataclass(frozen=True)
class RunHistory:
    """Per-iteration records, t = 0..T: epsilons, the self-play value ``s_t . ANG_t`` and the
    seconds each iteration took."""

    epsilon: np.ndarray
    eps_hider: np.ndarray
    eps_guesser: np.ndarray
    value: np.ndarray
    seconds: np.ndarray


class FictitiousPlaySolution(Solution):
    """A SolveJotto run: ``iterations`` done, ``t_star`` the first of least epsilon.

    Build one with :func:`jotto.solve` or :meth:`jotto.Solution.load`.
    """

    solver = "fictitious-play"
    check_payload = staticmethod(check_payload)

    def __init__(self, words: WordList, payload: dict[str, Any]):
        mode = payload.get("mode")
        if mode not in MODES:
            raise StrategyFileError(f"unknown mode {mode!r}")
        self.words = words
        self.mode: str = mode
        self.rule: str = mode
        self._payload = payload
        self.iterations: int = int(payload["iterations_done"])
        self.t_star: int = int(payload["t_star"])
        self.best_responses = decode_best_responses(payload, len(words))
        eh, eg, value, seconds = decode_history(payload, self.iterations)
        self.history = RunHistory(np.maximum(eh, eg), eh, eg, value, seconds)
        self.ing0 = decode_array(payload["ing0"], "ING_0")
        sums = payload["sums_star"]
        #: Sums over iterations 0..t* of ING, ING squared (per target) and of the histogram of
        #: ING (targets per guess count): the guesser mixture of Algorithm 14 exactly.
        self.ing_sums_star = {k: decode_array(sums[k], "ING sums").astype(np.int64) for k in SUMS}
        self.ang_star = (
            self.ing_sums_star["ing"] / (self.t_star + 1)
            if mode == "exact"
            else decode_array(payload["ang_star"], "ANG")
        )
        self.plan: dict[str, Any] = dict(payload.get("plan", {}))
        #: The guesser's oracle, greedy (GuesserGBR, the paper's) or a stronger one, whose trees
        #: the file keeps (``oracle_trees[tree_index[k]]`` answered iteration k).
        self.oracle: str = str(payload.get("oracle", "greedy"))
        self.oracle_trees, self.tree_index = (
            ([], [])
            if self.oracle == "greedy"
            else decode_oracle_trees(payload, words, self.iterations)
        )

    def __repr__(self) -> str:
        return (
            f"FictitiousPlaySolution({self.mode} mode, {len(self.words)} words of {self.words.length} "
            f"letters, {self.iterations} iterations, t*={self.t_star}, "
            f"epsilon={self.epsilon:.4g})"
        )

    # ---- strategies ----------------------------------------------------------------------------

    @property
    def epsilon(self) -> float:
        """Epsilon at t*."""
        return float(self.history.epsilon[self.t_star])

    def _check_t(self, t: int | None) -> int:
        t = self.t_star if t is None else t
        if (
            isinstance(t, bool)
            or not isinstance(t, (int, np.integer))
            or not 0 <= t <= self.iterations
        ):
            raise ValueError(f"t must be an iteration from 0 to {self.iterations}, not {t!r}")
        return int(t)

    def weights(self, t: int | None = None) -> np.ndarray:
        """The hider's strategy at iteration t (default t*) in the form GuesserGBR answers in
        this mode: integer weights ``(t+1) D s_t`` (exact) or the float ``s_t`` (paper)."""
        t = self._check_t(t)
        if self.mode == "exact":
            return exact_play_weights(len(self.words), self.best_responses[:t])
        return paper_strategy(len(self.words), self.best_responses[:t])

    def hider(self, t: int | None = None) -> np.ndarray:
        """The hider's strategy s_t (default t*) as a probability vector."""
        w = self.weights(t)
        if self.mode == "exact":
            return w / float(w.sum())  # w.sum() = (t+1) D, exact in double
        return w

    def hider_weights(self) -> np.ndarray:
        """s_{t*} as integer weights: exact mode's own; paper mode's float s_{t*} converted by
        :func:`jotto.integer_weights`."""
        w = self.weights()
        return w if self.mode == "exact" else integer_weights(w)

    def guesser_expected(self) -> list[Fraction]:
        """Algorithm 14's mixture, exactly: the mean of ING_0 .. ING_{t*} for each target."""
        n = self.t_star + 1
        return [Fraction(int(x), n) for x in self.ing_sums_star["ing"]]

    def guesser(
        self, seed: int | np.random.Generator | None = None, t_star: int | None = None
    ) -> EquilibriumGuesser:
        """The guesser's strategy (Algorithm 14) as a player; see :class:`EquilibriumGuesser`."""
        return EquilibriumGuesser(self, seed, self.t_star if t_star is None else t_star)

    # ---- Table 1 -------------------------------------------------------------------------------

    def table(self) -> Table1:
        """Table 1's rows for this run, keyed as in ``paper-table1.json``: a dict that prints as
        ``jotto solve`` prints it (beside the paper's column on the paper's dictionary) and shows
        as a table in a notebook (:class:`jotto.game.paper.Table1`).

        Our hider vs benchmark = ``s_{t*} . ING_0``; our guesser vs benchmark =
        ``-mean(ANG_{t*})``; overall = their mean; benchmark self-play = ``mean(ING_0)``; our
        self-play = ``s_{t*} . ANG_{t*}``; benchmark epsilon = epsilon_0; our final epsilon =
        epsilon_{t*}.  The benchmark is GuesserGBR against the uniform hider (ING_0) under this
        mode's rule.
        """
        D = len(self.words)
        n = self.t_star + 1
        if self.mode == "exact":
            w = self.weights()
            hider = float(Fraction(int(w @ self.ing0.astype(np.int64)), n * D))
            guesser = -float(Fraction(int(self.ing_sums_star["ing"].sum()), n * D))
        else:
            hider = float(np.dot(self.hider(), self.ing0.astype(np.float64)))
            guesser = -math.fsum(self.ang_star) / D
        seconds = self.history.seconds
        rows = {
            "dictionary_size": D,
            "our_hider_payoff_vs_benchmark": hider,
            "our_guesser_payoff_vs_benchmark": guesser,
            "our_overall_payoff_vs_benchmark": (hider + guesser) / 2,
            "benchmark_self_play_hider_payoff": float(Fraction(int(self.ing0.sum()), D)),
            "our_self_play_hider_payoff": float(self.history.value[self.t_star]),
            "benchmark_epsilon": float(self.history.epsilon[0]),
            "our_final_epsilon": self.epsilon,
            "number_of_iterations": self.iterations,
            "t_star": self.t_star,
            "avg_seconds_per_iteration": float(seconds.sum() / len(seconds)),
        }
        note = (
            f"t* = {self.t_star} (first iteration of least epsilon); {self.mode} mode, "
            f"GuesserGBR rule {self.rule!r}"
        )
        return Table1(
            rows, self.words.length, is_paper_list(self.words.sha256, self.words.length), note
        )

    def plot(self, path: str | os.PathLike[str] | None = None):
        """The convergence plot (epsilon, epsilon_hider, epsilon_guesser against iteration, log
        scale); saved to ``path`` if given.  Needs matplotlib (``pip install 'jotto[plot]'``)."""
        from .plot import convergence_plot

        return convergence_plot(self, path)

    def report(self) -> dict[str, Any]:
        return {"mode": self.mode, "rule": self.rule, "t_star": self.t_star, "table": self.table()}

    def report_text(self) -> str:
        return str(self.table())

    def answers(self, *, mode: str | None, iterations: int | None, oracle: Any) -> bool:
        planned = iterations or self.plan.get("iterations")
        return (
            self.mode == mode
            and self.iterations == planned
            and not self.plan.get("target_epsilon")
            and not self.plan.get("time_budget")
        )


class EquilibriumGuesser:
    """The guesser's strategy in oracular form (ObtainGuesserStrategy, Algorithm 14).

    At the start of each game it draws k uniformly from {0, ..., t*} with its seeded
    :class:`numpy.random.Generator`, then plays GuesserGBR(s_k, S) for the whole game.  The
    paper writes ``randint(1, t*)``; we include 0 because epsilon_{t*} was measured for the
    average of ING_0 .. ING_{t*}, i.e. for this mixture.
    """

    def __init__(
        self,
        solution: FictitiousPlaySolution,
        seed: int | np.random.Generator | None,
        t_star: int,
        cache: int = 32,
    ):
        self.solution = solution
        self.words = solution.words
        self.t_star = solution._check_t(t_star)
        self.rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        self._trees: OrderedDict[int, DecisionTree] = OrderedDict()
        self._cache = cache
        #: Its spec (:func:`jotto.players.make_guesser`): the mixture of iterations 0..t*.
        self.name = "equilibrium" + ("" if self.t_star == solution.t_star else f":t={t_star}")
        self.k = 0
        self.new_game()

    __repr__ = player_repr

    def new_game(self) -> None:
        self.k = int(self.rng.integers(0, self.t_star + 1))

    def tree(self, k: int) -> DecisionTree:
        """Iteration k's guesser tree: GuesserGBR(s_k)'s (cached), or the oracle's."""
        if self.solution.oracle_trees:
            return self.solution.oracle_trees[self.solution.tree_index[k]]
        if k in self._trees:
            self._trees.move_to_end(k)
            return self._trees[k]
        tree = gbr_tree(self.words, self.solution.weights(k), rule=self.solution.rule)
        self._trees[k] = tree
        if len(self._trees) > self._cache:
            self._trees.popitem(last=False)
        return tree

    def next_guess(self, state: np.ndarray, history: History) -> int:
        tree = self.tree(self.k)
        node = tree.node_after(history, len(state))  # the tree while the game is its own
        if node >= 0:
            return int(tree.guess[node])
        if self.solution.oracle_trees:
            raise ValueError(
                "this game left the guesser's decision tree (its guesses were not the tree's)"
            )
        return guesser_gbr(
            self.words, self.solution.weights(self.k), state, rule=self.solution.rule
        )

    def moments(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Exact expected guesses and expected squared guesses per target, and the expected
        histogram (targets per guess count) of the mixture over k = 0..t*."""
        sol = self.solution
        if self.t_star == sol.t_star:
            n = sol.t_star + 1
            sums = sol.ing_sums_star
            return sums["ing"] / n, sums["ing_sq"] / n, sums["hist"] / n
        trees = [self.tree(k).guesses_needed() for k in range(self.t_star + 1)]
        stack = np.array(trees, dtype=np.float64)
        hist = np.zeros(int(stack.max()) + 1)
        for t in trees:
            hist += np.bincount(t, minlength=len(hist))
        return stack.mean(0), (stack**2).mean(0), hist / len(trees)

    def count_distribution(self, weights: np.ndarray) -> dict[int, Fraction]:
        """The exact chance of each number of guesses against a hider's integer ``weights``
        (what a race needs: :func:`jotto.players.races.guess_distribution`), each iteration k =
        0..t*
        equally likely.  For equal positive weights at the run's own t*, read from the run's
        exact histogram; otherwise every iteration's tree is built (t* + 1 of them: slow for
        long runs)."""
        w = [int(x) for x in weights]
        n = self.t_star + 1
        if self.t_star == self.solution.t_star and w and min(w) == max(w) > 0:
            hist = self.solution.ing_sums_star["hist"]
            return {k: Fraction(int(c), n * len(w)) for k, c in enumerate(hist) if c}
        total: dict[int, int] = {}
        for k in range(n):
            counts = (
                self.tree(k).guesses_needed()
                if self.solution.oracle_trees
                else comp_num_guesses(self.words, self.solution.weights(k), rule=self.solution.rule)
            )
            for c, x in weight_by_guesses(counts, w).items():
                total[c] = total.get(c, 0) + x
        return {c: Fraction(x, n * sum(w)) for c, x in sorted(total.items())}

    def expected_guesses(self) -> np.ndarray:
        """Expected guesses for each target: the mean of ING_k over k = 0..t*.  Exact: from the
        run's integer sums when t* is the run's, else from the trees (slower)."""
        if self.t_star == self.solution.t_star:
            return self.solution.ing_sums_star["ing"] / (self.t_star + 1)
        total = np.zeros(len(self.words), dtype=np.int64)
        for k in range(self.t_star + 1):
            total += self.tree(k).guesses_needed()
        return total / (self.t_star + 1)
