"""The guesser's true best response: the decision tree with the fewest expected guesses.

GuesserGBR (:mod:`jotto.gbr`) is greedy: it maximises the targets eliminated by the next guess.
The true best response to a hider minimises the expected number of guesses of the whole game,

    F(S) = W(S) + min_g sum_{j != win} F(S_j(g)),   F({i}) = v_i,

over every word g of the list (also words already ruled out; in hard mode only the words still
consistent), where S is the state (targets still consistent), W(S) its weight and S_j(g) the
targets giving reply code j to g; the win is g itself, whatever the rules call its reply.  The
expected number of guesses is F(all) / W(all).  The rules are the word list's
(:class:`jotto.rules.Rules`): replies, anagrams kept or not, positional replies, hard mode.

The compiled core finds it by depth-first branch and bound (search.c): exact integer arithmetic,
admissible counting, member and lookahead bounds (the best split a large class admits, each part
at its counting bound), a memo of exact values and proven lower bounds per state, greedy move
ordering, cut-offs while summing reply classes.

The search is anytime: it first builds the greedy tree (an upper bound), then raises a proven lower
bound pass by pass (each pass either finds the optimum below a target or proves there is none)
until the two meet, the budget runs out or ``upper_bound`` is proven out of reach.  Every number it
reports is exact (:class:`fractions.Fraction`) and proven.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Real
from typing import Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

from . import _core
from .bounds import counting_total
from .gbr import as_word_list
from .rules import Rules
from .runtime import resolve_threads
from .trees import DecisionTree
from .weights import exact_weights
from .words import WordList

__all__ = ["BestResponse", "best_response", "expected_guesses", "search_flags"]

Words = Union[WordList, Sequence[str]]
Hider = Union[None, ArrayLike, Sequence[Fraction]]

#: Memory the search's memo may take by default (bytes).
DEFAULT_MEMORY = 2**30
#: Part of a budget spent on top-K passes for good trees before raising the lower bound.
TOP_K_SHARE = 0.2
#: Top-K passes go up to this K.
MAX_TOP_K = 64
#: Each lower-bound pass aims 1/BETA_STEPS of the way from the lower bound to the best tree.
BETA_STEPS = 16


@dataclass(frozen=True, eq=False)
class BestResponse:
    """What :func:`best_response` found and proved.

    Attributes:
        lower: a proven lower bound on the least expected number of guesses of any tree.
        upper: the expected number of guesses of :attr:`tree` (so the optimum is in
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

    @property
    def exact(self) -> bool:
        """Whether the optimum is proven: ``lower == upper`` (the tree is optimal)."""
        return self.lower == self.upper

    @property
    def gap(self) -> Fraction:
        """``upper - lower``: how far the tree may be from optimal, in expected guesses."""
        return self.upper - self.lower


def expected_guesses(tree: DecisionTree, hider: Hider = None) -> Fraction:
    """The exact expected number of guesses of ``tree`` against ``hider``:
    ``sum_i v_i guesses_i / sum_i v_i`` with ``v`` the integer weights of ``hider`` (as in
    :func:`best_response`)."""
    v = exact_weights(hider, len(tree.words))
    total = int(v.sum(dtype=object))
    if total == 0:
        raise ValueError("the hider puts weight on no word")
    g = tree.guesses_needed().astype(object)
    return Fraction(int((v.astype(object) * g).sum()), total)


def search_flags(rules: Rules) -> int:
    """The core search's rule flags (``_core.BS_*``) for ``rules``: the anagram's own reply
    under ``keep-all``, positional replies, hard mode.  Repeated letters need no flag: they are
    in the tokens."""
    return ((_core.BS_KEEP_ALL if rules.anagrams == "keep-all" else 0) |
            (_core.BS_POSITIONAL if rules.positional else 0) |
            (_core.BS_HARD if rules.hard else 0))


def _core_search(words: WordList, v: np.ndarray, memory: int) -> _core.BestResponseSearch:
    """The core search over ``words`` under their rules."""
    return _core.BestResponseSearch(words.tokens, words.length, v, int(memory), words.spell,
                                    search_flags(words.rules))


def _positive_number(name: str, x, integer: bool = False):
    if x is None:
        return None
    ok = isinstance(x, (int, np.integer)) if integer else isinstance(x, Real)
    if isinstance(x, bool) or not ok or not math.isfinite(x) or x <= 0:
        kind = "a positive integer" if integer else "a positive number of seconds"
        raise ValueError(f"{name} must be {kind} or None, not {x!r}")
    return x


def best_response(words: Words, hider: Hider = None, *, budget: float | None = None,
                  nodes: int | None = None, top_k: int | None = None,
                  upper_bound: Real | None = None, threads: int | None = None,
                  memory: int = DEFAULT_MEMORY) -> BestResponse:
    """The guesser's best response to ``hider``: the decision tree minimising the expected
    number of guesses, with proven bounds.

    Args:
        words: a :class:`~jotto.words.WordList` (or a sequence of playable words).
        hider: the hider's weights, one per word: ``None`` (uniform), floats (a probability or
            weight vector, converted by the documented rule :func:`jotto.integer_weights`), an
            integer array (used exactly), or a sequence of :class:`fractions.Fraction` (scaled
            exactly to integers by their common denominator; :class:`ValueError` if that total
            reaches ``2**63 / D``).  Words of weight 0 cost nothing but the tree still guesses
            each of them somewhere (by the greedy rule once only such words remain).
        budget: seconds the search may take (``None``: no limit).  The greedy tree that starts
            the search is always built.
        nodes: states the search may visit (``None``: no limit).
        top_k: ``None`` searches every guess (exact when it finishes); ``K`` restricts every
            state to the first ``K`` guesses of distinct splits in greedy order: much faster,
            ``upper`` is the best such tree and ``lower`` the cheap proven bound.
        upper_bound: only trees with fewer expected guesses than this matter: a full search
            stops once it proves there is none (``stopped == "upper_bound"``,
            ``lower >= upper_bound``); a double oracle asks whether any tree beats a value.
        threads: as elsewhere in the package (:func:`jotto.resolve_threads`); the search is
            sequential, so results never depend on it.
        memory: bytes the memo of states may take (then it stops growing; results do not
            change, only the time).

    Returns:
        A :class:`BestResponse`.  With no ``budget`` its values and tree are the same whatever
        the machine and thread count.
    """
    t0 = time.perf_counter()
    wl = as_word_list(words)
    v = exact_weights(hider, len(wl))
    total = int(v.sum(dtype=object))
    if total == 0:
        raise ValueError("the hider puts weight on no word: expected guesses are undefined")
    budget = _positive_number("budget", budget)
    nodes = _positive_number("nodes", nodes, integer=True)
    top_k = _positive_number("top_k", top_k, integer=True)
    resolve_threads(threads)
    if isinstance(upper_bound, bool) or not (upper_bound is None or
                                            isinstance(upper_bound, Real)):
        raise ValueError(f"upper_bound must be a number or None, not {upper_bound!r}")
    if isinstance(memory, bool) or not isinstance(memory, (int, np.integer)) or memory < 2**20:
        raise ValueError(f"memory must be at least 2**20 bytes, not {memory!r}")
    search = _core_search(wl, v, memory)
    return _Driver(wl, v, total, search, t0, budget, nodes, upper_bound).run(top_k)


class _Driver:
    """Runs the passes of one best-response search and keeps its bounds and best tree."""

    def __init__(self, words: WordList, v: np.ndarray, total: int,
                 search: _core.BestResponseSearch, t0: float, budget: float | None,
                 nodes: int | None, upper_bound: Real | None):
        self.words, self.v, self.total, self.search = words, v, total, search
        self.t0, self.budget, self.node_budget = t0, budget, nodes
        # The least total (sum v_i guesses_i) that is not worth proving optimal or out of reach.
        self.goal = None if upper_bound is None else math.ceil(Fraction(upper_bound) * total)
        self.nodes = 0
        self.passes = 0
        self.stopped: str | None = None
        self.lower = 0
        self.upper = _core.BS_INF
        self.tree_arrays = None
        self.pass_costs: list[tuple[int, int]] = []  # (beta, states) of the finished passes

    def run(self, top_k: int | None) -> BestResponse:
        greedy = self.search.run(1, _core.BS_INF, 0.0, 0)
        self.nodes += greedy[5]
        self.improve(1, -1, greedy)
        # the search's own root bound, or the sorted counting bound where it is stronger
        self.lower = max(self.search.root_bound(), counting_total(
            (int(x) for x in self.v), self.words.rules.branches(self.words.length)))
        if top_k is not None and top_k > 1:
            out = self.pass_(top_k, _core.BS_INF)
            self.stopped = self.why_stopped() if out is None else (
                None if out[2] == "done" else out[2])
        elif top_k is None:
            self.full()
        return self.result(top_k)

    def left(self, share: float = 1.0) -> tuple[float, int] | None:
        """(seconds, nodes) the next pass may take (0: no limit), or None if none are left;
        ``share`` is the part of the budgets the passes so far and this one may use."""
        secs = 0.0
        if self.budget is not None:
            secs = self.budget * share - (time.perf_counter() - self.t0)
            if secs <= 0:
                return None
        n = 0
        if self.node_budget is not None:
            n = int(self.node_budget * share) - self.nodes
            if n <= 0:
                return None
        return secs, n

    def pass_(self, top_k: int, beta: int, share: float = 1.0, by_size: bool = False):
        """Run one pass within ``share`` of the budgets; None if nothing is left of them."""
        left = self.left(share)
        if left is None:
            return None
        out = self.search.run(top_k, beta, *left, by_size)
        value, exact, stop, best, guess, n = out
        self.nodes += n
        self.passes += 1
        if best is not None:
            self.improve(top_k, guess if not exact else -1, out)
        return out

    def improve(self, top_k: int, guess: int, out) -> None:
        """Take the tree a pass found if it beats the best so far."""
        value, exact, stop, best, _, n = out
        if best is None or best >= self.upper:
            return
        tree_total, *arrays = self.search.tree(top_k, guess)
        if tree_total != best:
            raise RuntimeError(f"jotto core: tree total {tree_total} != search value {best}")
        self.upper, self.tree_arrays = best, arrays

    def better_trees(self) -> None:
        """With a budget, spend up to TOP_K_SHARE of it on top-K passes (K = 2, 3, ...): good
        trees fast, so that the bound the lower-bound passes aim at is tight."""
        for k in range(2, MAX_TOP_K + 1):
            out = self.pass_(k, _core.BS_INF, TOP_K_SHARE)
            if out is None or out[2] != "done":
                break
        self.search.forget_top_k()

    def full(self) -> None:
        """Search until the proven lower bound meets the best tree's value (or the goal).

        Without budgets one pass aims straight at the best tree (it finds a better one or proves
        there is none).  With a budget the search is anytime: after the top-K passes, each pass
        aims 1/BETA_STEPS of the way up from the lower bound, so that the bound rises steadily,
        sharing each guess's gap among its reply classes by size (fewer states to prove bounds).
        """
        anytime = self.budget is not None or self.node_budget is not None
        if anytime:
            self.better_trees()
        while True:
            target = self.upper if self.goal is None else min(self.upper, self.goal)
            if self.lower >= target:
                if self.goal is not None and self.lower >= self.goal and self.lower < self.upper:
                    self.stopped = "upper_bound"
                return
            beta = self.lower + self.step(target) if anytime else target
            out = self.pass_(0, beta, by_size=anytime)
            if out is not None and out[2] == "done":
                self.pass_costs.append((beta, out[5]))
            if out is None:
                self.stopped = self.why_stopped()
                return
            value, exact, stop, _, _, _ = out
            if exact:
                self.lower = value
                return
            self.lower = max(self.lower, value)
            if stop != "done":
                self.stopped = stop
                return

    def step(self, target: int) -> int:
        """How far above the lower bound the next anytime pass aims: 1/BETA_STEPS of the way to
        ``target``, halved while the pass would not fit in the budget left (a pass the budget
        stops proves little; a shorter one that finishes proves its beta).  A pass's states grow
        about geometrically with its beta, so its cost is predicted from the two costliest
        passes so far: the costliest one's states times the growth per unit of beta between
        them, raised to how much higher this beta is."""
        step = max(1, (target - self.lower) // BETA_STEPS)
        done = sorted((n, b) for b, n in self.pass_costs)[-2:]
        if len(done) < 2 or done[0][1] >= done[1][1]:
            return step
        (n0, b0), (n1, b1) = done
        growth = (n1 / max(1, n0)) ** (1.0 / (b1 - b0))
        room = self.nodes_left()
        while step > 1 and n1 * growth ** (self.lower + step - b1) > room:
            step //= 2
        return step

    def nodes_left(self) -> float:
        """States the budgets leave, the time budget's at the node rate so far."""
        room = math.inf
        if self.node_budget is not None:
            room = self.node_budget - self.nodes
        if self.budget is not None:
            spent = time.perf_counter() - self.t0
            rate = self.nodes / spent if spent > 0 else 0.0
            room = min(room, (self.budget - spent) * rate)
        return room

    def why_stopped(self) -> str:
        """Which budget is spent (called once :meth:`left` found none left)."""
        if self.budget is not None and time.perf_counter() - self.t0 >= self.budget:
            return "time"
        return "nodes"

    def result(self, top_k: int | None) -> BestResponse:
        tree = DecisionTree(self.words, *self.tree_arrays)
        if self.lower >= self.upper:
            self.stopped = None
        return BestResponse(lower=Fraction(min(self.lower, self.upper), self.total),
                            upper=Fraction(self.upper, self.total), tree=tree, weights=self.v,
                            nodes=self.nodes, seconds=time.perf_counter() - self.t0,
                            stopped=self.stopped, top_k=top_k, passes=self.passes,
                            memo_states=self.search.memo_stats()[0])
