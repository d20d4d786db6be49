"""Best responses for objectives beyond the mean: the decision tree minimising ``E[c(guesses)]``
for a non-decreasing cost vector ``c`` (:mod:`jotto.game.objectives`), with proven bounds.

:func:`jotto.best_response` calls this for every objective but the mean (whose own search,
:mod:`jotto.responses.mean_search`, is much faster); it can also be called for the mean, and
both then
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
(:func:`jotto.engine.weights.exact_weights`) times the costs scaled by their common denominator must
stay below 2**63 (checked first; :meth:`Objective.rounded` makes a nearby objective that fits).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from numbers import Real

import numpy as np

from ..engine import core
from ..game.objectives import Objective, ObjectiveSpec, parse_objective
from ..game.trees import DecisionTree, policy_guesses, tree_from_policy
from ..game.words import WordList
from .gbr import as_word_list
from .result import (
    DEFAULT_MEMORY,
    BestResponse,
    Budget,
    Hider,
    Words,
    end_of_passes,
    positive_number,
    weights_and_total,
)

__all__ = ["StateSearch", "StateValue", "objective_best_response"]

#: Each budgeted pass aims 1/BETA_STEPS of the way from the lower bound to the best tree.
BETA_STEPS = 16


def _integer_costs(objective: Objective, words: WordList, total: int) -> tuple[list[int], int, int]:
    """The objective's costs in integers for ``words`` (:meth:`Objective.scaled`), checked:
    ``total * c(D + 1)`` (the deepest cost a bound reaches) must stay below 2**63."""
    D = len(words)
    costs, tail, den = objective.scaled(D + 1)
    top = costs[D] if D < len(costs) else costs[-1] + tail * (D + 1 - len(costs))
    if total * top >= 2**63:
        raise ValueError(
            f"objective {objective.name}: its costs scaled to integers (common "
            f"denominator {den}) times the hider's total weight {total} reach "
            f"2**63; use objective.rounded() or smaller integer weights"
        )
    return costs, tail, den


def _checked_memory(memory) -> int:
    if isinstance(memory, bool) or not isinstance(memory, (int, np.integer)) or memory < 2**20:
        raise ValueError(f"memory must be at least 2**20 bytes, not {memory!r}")
    return int(memory)


def objective_best_response(
    words: Words,
    hider: Hider = None,
    objective: ObjectiveSpec = None,
    *,
    budget: float | None = None,
    nodes: int | None = None,
    upper_bound: Real | None = None,
    memory: int = DEFAULT_MEMORY,
) -> BestResponse:
    """The tree minimising ``objective`` (as :func:`jotto.best_response` takes it) against
    ``hider``, with proven bounds; ``budget``, ``nodes``, ``upper_bound`` and ``memory`` as
    there.  :attr:`BestResponse.lower` and ``upper`` are expected costs ``E[c(guesses)]``."""
    t0 = time.perf_counter()
    budget = positive_number("budget", budget)
    nodes = positive_number("nodes", nodes, integer=True)
    if isinstance(upper_bound, bool) or not (upper_bound is None or isinstance(upper_bound, Real)):
        raise ValueError(f"upper_bound must be a number or None, not {upper_bound!r}")
    search = StateSearch(words, hider, objective, memory=memory)
    driver = _Driver(search, None, 0, None if budget is None else t0 + budget, nodes)
    goal = None if upper_bound is None else math.ceil(Fraction(upper_bound) * search.scale)
    driver.run(goal, anytime=budget is not None or nodes is not None)
    lower, upper = driver.lower, driver.upper
    return BestResponse(
        lower=Fraction(min(lower, upper), search.scale),
        upper=Fraction(upper, search.scale),
        tree=driver.tree(),
        weights=search.v,
        nodes=driver.nodes,
        seconds=time.perf_counter() - t0,
        stopped=None if lower >= upper else driver.stopped,
        top_k=None,
        passes=driver.passes,
        memo_states=search.core.memo_stats()[0],
        objective=search.objective,
    )


@dataclass(frozen=True)
class StateValue:
    """What :meth:`StateSearch.value` found for a state a game reached: the least expected cost
    ``sum_i v_i c(guesses_i) / sum_i v_i`` over the state's targets (guesses counted from the
    start of the game) of any tree from there lies in ``[lower, upper]``; ``guess`` is the first
    guess of a tree worth ``upper``.  ``stopped``: as :attr:`BestResponse.stopped`."""

    lower: Fraction
    upper: Fraction
    guess: int
    stopped: str | None
    nodes: int

    @property
    def exact(self) -> bool:
        return self.lower == self.upper


class StateSearch:
    """Best responses from the states games reach, for one hider and objective, sharing one
    memo (a review asks about every state of a game; a race-aware guesser about states in
    turn).  ``words``, ``hider``, ``objective`` and ``memory`` as
    :func:`jotto.best_response` takes them."""

    def __init__(
        self,
        words: Words,
        hider: Hider = None,
        objective: ObjectiveSpec = None,
        *,
        memory: int = DEFAULT_MEMORY,
    ):
        self.words = as_word_list(words)
        self.objective = parse_objective(objective)
        self.v, total = weights_and_total(hider, len(self.words))
        self.costs, self.tail, self.den = _integer_costs(self.objective, self.words, total)
        #: values are integer totals over this scale: sum_i v_i c(guesses_i) / scale
        self.scale = total * self.den
        self.core = core.CostSearch(
            self.words.core,
            self.v,
            np.array(self.costs, dtype=np.uint64),
            self.tail,
            _checked_memory(memory),
        )

    def cost(self, d: int) -> int:
        """The scaled integer cost of finding a target on guess ``d``."""
        K = len(self.costs)
        return self.costs[d - 1] if d <= K else self.costs[-1] + self.tail * (d - K)

    def searched(self, state: np.ndarray) -> np.ndarray:
        """The part of a state the search sees: outside hard mode its targets of weight > 0."""
        S = np.asarray(state, dtype=np.intp)
        return S if self.words.core.hard else S[self.v[S] > 0]

    def greedy(self, state: np.ndarray, made: int) -> int:
        """The cost guesser's one-level guess (greedy_cost.c) at a state the search sees."""
        return core.cost_decide(
            words=self.words.core,
            v=self.v,
            costs=[float(c) for c in self.objective.costs],
            tail=float(self.objective.tail),
            depth=made,
            targets=state,
            levels=1,
            width=1,
            seconds=0.0,
        )[0]

    def value(
        self,
        state: np.ndarray,
        made: int = 0,
        *,
        budget: float | None = None,
        nodes: int | None = None,
    ) -> StateValue:
        """The best tree from ``state`` (the targets consistent, increasing indices) after
        ``made`` guesses, within the budget: exact, or a proven interval.  Values are per unit
        of the state's weight; for the mean, subtract ``made`` for the guesses still needed."""
        S = self.searched(state)
        if len(S) == 0 or not self.v[S].any():
            raise ValueError("the state holds no target of positive weight")
        if made < 0 or made + len(state) > len(self.words):
            raise ValueError(f"a state of {len(state)} words cannot follow {made} guesses")
        t0 = time.perf_counter()
        driver = _Driver(
            self,
            S,
            made,
            None if budget is None else t0 + positive_number("budget", budget),
            positive_number("nodes", nodes, integer=True),
        )
        driver.run(None, anytime=budget is not None or nodes is not None)
        W = int(self.v[S].sum()) * self.den
        return StateValue(
            Fraction(min(driver.lower, driver.upper), W),
            Fraction(driver.upper, W),
            driver.first_guess,
            None if driver.lower >= driver.upper else driver.stopped,
            driver.nodes,
        )


class _Driver:
    """The passes of one cost search from the root (``state`` None: then it keeps the best
    tree) or a state, within its budget: its proven lower bound, and the best tree's value
    (integer totals ``sum_i v_i c(guesses_i)`` in scaled costs) and first guess."""

    def __init__(
        self,
        search: StateSearch,
        state: np.ndarray | None,
        made: int,
        deadline: float | None,
        nodes: int | None,
    ):
        self.search, self.state, self.made = search, state, made
        self.words, self.v = search.words, search.v
        self.budget = Budget(deadline, nodes)
        self.nodes = self.passes = 0
        self.stopped: str | None = None
        self.root_guess: int | None = None  # None: the greedy tree's
        S = np.arange(len(self.words)) if state is None else state
        guesses = policy_guesses(self.words, self._greedy, S, made)
        self.upper = sum(int(self.v[i]) * search.cost(int(n)) for i, n in zip(S, guesses))
        self.first_guess = self._greedy(S, made)
        self.lower = search.core.root_bound() if state is None else 0

    def _greedy(self, state: np.ndarray, made: int) -> int:
        S = self.search.searched(state)
        return int(state[0]) if len(S) == 0 else self.search.greedy(S, made)

    def _best(self, state: np.ndarray, made: int) -> int:
        """The best tree's guess: its first, then the memo's (solved again where it lacks
        them)."""
        if made == 0 and self.root_guess is not None:
            return self.root_guess
        S = self.search.searched(state)
        return int(state[0]) if len(S) == 0 else self.search.core.solve(S, made)[1]

    def tree(self) -> DecisionTree:
        """The best tree found, over every word (from the root only)."""
        tree = tree_from_policy(self.words, self._greedy if self.root_guess is None else self._best)
        if self.root_guess is not None:
            total = sum(
                int(w) * self.search.cost(int(n))
                for w, n in zip(self.v, tree.guesses_needed())
                if w
            )
            if total != self.upper:
                raise RuntimeError(f"jotto core: tree total {total} != search value {self.upper}")
        return tree

    def run(self, goal: int | None, anytime: bool) -> None:
        """Passes until the lower bound meets the best tree (or the goal), or the budget ends."""
        while True:
            target = self.upper if goal is None else min(self.upper, goal)
            if self.lower >= target:
                if goal is not None and goal <= self.lower < self.upper:
                    self.stopped = "upper_bound"
                return
            left = self.budget.left(self.nodes)
            if left is None:
                self.stopped = self.budget.why_stopped()
                return
            beta = target
            if anytime:
                beta = self.lower + max(1, (target - self.lower) // BETA_STEPS)
            seconds, nodes = left
            out = self.search.core.run(
                beta=beta, seconds=seconds, nodes=nodes, targets=self.state, depth=self.made
            )
            self.nodes += out.nodes
            self.passes += 1
            if out.best is not None and out.best < self.upper:
                self.upper, self.first_guess = out.best, out.best_guess
                if self.state is None:
                    self.root_guess = out.best_guess
            if end_of_passes(self, out):
                return
