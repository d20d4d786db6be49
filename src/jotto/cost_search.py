"""Best responses for objectives beyond the mean: the decision tree minimising ``E[c(guesses)]``
for a non-decreasing cost vector ``c`` (:mod:`jotto.objectives`), with proven bounds.

:func:`jotto.best_response` calls this for every objective but the mean (whose own search,
:mod:`jotto.best_responses`, is much faster); it can also be called for the mean, and both then
agree exactly.  The compiled core's cost search (``search_cost.c``) is an exact branch and bound
over (state, guesses made): the memo keys a state by the depth only while the shifted costs
still differ, the counting bound puts the heaviest targets at the cheapest depths a tree can
reach (valid for any non-decreasing ``c``), small states get the member bound, and guesses
outside the state that split it alike are one guess.

The search starts from the greedy tree of :class:`jotto.players.CostGuesser`'s model (one level,
an upper bound) and the counting bound.  Without a budget one pass aims at the greedy tree's
value (it finds a better tree or proves there is none).  With a budget each pass aims a
sixteenth of the way up from the lower bound, so that the proven bound rises steadily, and the
best tree any pass completes is kept.  Exact integer arithmetic: the hider's integer weights
(:func:`jotto.weights.exact_weights`) times the costs scaled by their common denominator must
stay below 2**63 (checked first; :meth:`Objective.rounded` makes a nearby objective that fits).
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from numbers import Real

import numpy as np

from . import _core
from .best_responses import (DEFAULT_MEMORY, BestResponse, Hider, Words, _positive_number,
                             _weights_and_total)
from .gbr import as_word_list
from .objectives import Objective, ObjectiveSpec, parse_objective
from .trees import DecisionTree, tree_from_policy
from .words import WordList

__all__ = ["objective_best_response"]

#: Each budgeted pass aims 1/BETA_STEPS of the way from the lower bound to the best tree.
BETA_STEPS = 16


def _integer_costs(objective: Objective, words: WordList, total: int) -> tuple[list[int], int,
                                                                               int]:
    """The objective's costs in integers for ``words`` (:meth:`Objective.scaled`), checked:
    ``total * c(D + 1)`` (the deepest cost a bound reaches) must stay below 2**63."""
    D = len(words)
    costs, tail, den = objective.scaled(D + 1)
    top = costs[D] if D < len(costs) else costs[-1] + tail * (D + 1 - len(costs))
    if total * top >= 2**63:
        raise ValueError(f"objective {objective.name}: its costs scaled to integers (common "
                         f"denominator {den}) times the hider's total weight {total} reach "
                         f"2**63; use objective.rounded() or smaller integer weights")
    return costs, tail, den


def objective_best_response(words: Words, hider: Hider = None,
                            objective: ObjectiveSpec = None, *, budget: float | None = None,
                            nodes: int | None = None, upper_bound: Real | None = None,
                            memory: int = DEFAULT_MEMORY) -> BestResponse:
    """The tree minimising ``objective`` (as :func:`jotto.best_response` takes it) against
    ``hider``, with proven bounds; ``budget``, ``nodes``, ``upper_bound`` and ``memory`` as
    there.  :attr:`BestResponse.lower` and ``upper`` are expected costs ``E[c(guesses)]``."""
    t0 = time.perf_counter()
    wl = as_word_list(words)
    goal_objective = parse_objective(objective)
    v, total = _weights_and_total(hider, len(wl))
    budget = _positive_number("budget", budget)
    nodes = _positive_number("nodes", nodes, integer=True)
    if isinstance(upper_bound, bool) or not (upper_bound is None or
                                            isinstance(upper_bound, Real)):
        raise ValueError(f"upper_bound must be a number or None, not {upper_bound!r}")
    if isinstance(memory, bool) or not isinstance(memory, (int, np.integer)) or memory < 2**20:
        raise ValueError(f"memory must be at least 2**20 bytes, not {memory!r}")
    costs, tail, den = _integer_costs(goal_objective, wl, total)
    scale = total * den
    search = _core.CostSearch(wl.core, wl.rules.branches(wl.length), wl.rules.hard, v,
                              np.array(costs, dtype=np.uint64), tail, int(memory))
    driver = _Driver(wl, v, goal_objective, costs, tail, search,
                     None if budget is None else t0 + budget, nodes)
    goal = None if upper_bound is None else math.ceil(Fraction(upper_bound) * scale)
    driver.run(goal, anytime=budget is not None or nodes is not None)
    lower, upper = driver.lower, driver.upper
    return BestResponse(lower=Fraction(min(lower, upper), scale), upper=Fraction(upper, scale),
                        tree=driver.tree, weights=v, nodes=driver.nodes,
                        seconds=time.perf_counter() - t0,
                        stopped=None if lower >= upper else driver.stopped, top_k=None,
                        passes=driver.passes, memo_states=search.memo_stats()[0],
                        objective=goal_objective)


class _Driver:
    """The passes of one cost search within its budget: its proven lower bound, its best tree
    and that tree's value (integer totals ``sum_i v_i c(guesses_i)`` in scaled costs)."""

    def __init__(self, words: WordList, v: np.ndarray, objective: Objective, costs: list[int],
                 tail: int, search: _core.CostSearch, deadline: float | None,
                 nodes: int | None):
        self.words, self.v, self.objective = words, v, objective
        self.costs, self.tail = costs, tail
        self.search = search
        self.deadline, self.node_budget = deadline, nodes
        self.nodes = self.passes = 0
        self.stopped: str | None = None
        self.tree = self._greedy_tree()
        self.upper = self.total_of(self.tree)
        self.lower = search.root_bound()

    def cost(self, d: int) -> int:
        K = len(self.costs)
        return self.costs[d - 1] if d <= K else self.costs[-1] + self.tail * (d - K)

    def total_of(self, tree: DecisionTree) -> int:
        """``sum_i v_i c(guesses_i)`` of a tree, exactly."""
        return sum(int(w) * self.cost(int(n))
                   for w, n in zip(self.v, tree.guesses_needed()) if w)

    def _positive(self, state: np.ndarray) -> np.ndarray:
        """The part of a state the search sees: outside hard mode its targets of weight > 0."""
        return state if self.words.rules.hard else state[self.v[state] > 0]

    def _greedy_tree(self) -> DecisionTree:
        """The tree of the cost guesser's one-level model (greedy_cost.c): the first upper
        bound."""
        costs = [float(c) for c in self.objective.costs]
        tail = float(self.objective.tail)

        def decide(state: np.ndarray, made: int) -> int:
            S = self._positive(state)
            if len(S) == 0:
                return int(state[0])
            return _core.cost_decide(self.words.core, self.words.rules.hard, self.v, costs,
                                     tail, made, S, 1, 1, 0.0)[0]

        return tree_from_policy(self.words, decide)

    def _tree_from(self, root_guess: int) -> DecisionTree:
        """The tree with first guess ``root_guess`` whose other states follow the memo (solved
        again where it lacks them)."""
        def decide(state: np.ndarray, made: int) -> int:
            if made == 0:
                return root_guess
            S = self._positive(state)
            if len(S) == 0:
                return int(state[0])
            return self.search.solve(S, made)[1]

        return tree_from_policy(self.words, decide)

    def left(self) -> tuple[float, int] | None:
        """(seconds, nodes) the next pass may take (0: no limit), or None if none are left."""
        secs = 0.0
        if self.deadline is not None:
            secs = self.deadline - time.perf_counter()
            if secs <= 0:
                self.stopped = "time"
                return None
        n = 0
        if self.node_budget is not None:
            n = self.node_budget - self.nodes
            if n <= 0:
                self.stopped = "nodes"
                return None
        return secs, n

    def run(self, goal: int | None, anytime: bool) -> None:
        """Passes until the lower bound meets the best tree (or the goal), or the budget ends."""
        while True:
            target = self.upper if goal is None else min(self.upper, goal)
            if self.lower >= target:
                if goal is not None and goal <= self.lower < self.upper:
                    self.stopped = "upper_bound"
                return
            left = self.left()
            if left is None:
                return
            beta = target
            if anytime:
                beta = self.lower + max(1, (target - self.lower) // BETA_STEPS)
            value, exact, stop, best, guess, n = self.search.run(beta, *left)
            self.nodes += n
            self.passes += 1
            if best is not None and best < self.upper:
                tree = self._tree_from(guess)
                if self.total_of(tree) != best:
                    raise RuntimeError(f"jotto core: tree total {self.total_of(tree)} != "
                                       f"search value {best}")
                self.tree, self.upper = tree, best
            if exact:
                self.lower = value
                return
            self.lower = max(self.lower, value)
            if stop != "done":
                self.stopped = stop
                return
