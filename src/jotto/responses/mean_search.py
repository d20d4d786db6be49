"""The mean's best response in this process: the anytime search of
:func:`jotto.best_response` (module :mod:`jotto.responses.best_responses` says how it works),
its drivers (one per memo: the proof's and the tree search's, side by side on threads when
there are two), the proving half alone on a thread (:class:`BoundSearch`), and the value of a
state of a game against the hider spread evenly over it (:class:`StateProof`, which a review
asks)."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from ..engine import core
from ..game.certificates import CertificateWriter
from ..game.trees import DecisionTree
from ..game.words import WordList
from .gbr import as_word_list
from .result import (
    DEFAULT_MEMORY,
    BestResponse,
    Budget,
    Hider,
    Words,
    core_search,
    end_of_passes,
    greedy_start,
    positive_number,
    weights_and_total,
)

__all__ = ["BoundSearch", "StateProof", "mean_best_response"]

#: A caller's view of a search as it runs: ``progress(lower, upper)`` in expected guesses.
Progress = Callable[[Fraction, Fraction], None]

#: Part of a budget spent on top-K passes for good trees (the rest raises the lower bound): of
#: the node budget always, of the time budget on one thread (on two or more, see TREES_BESIDE).
TOP_K_SHARE = 0.2
#: With two threads or more, the most of a time budget the tree search runs on a thread of its
#: own beside the proof (which has the other threads); the proof then has them all.  (It ends
#: sooner when its next pass would not fit: _Driver.better_trees.)
TREES_BESIDE = 1.0
#: Part of the memory limit the top-K search's memo may take (the lower bound's takes the rest).
TREE_MEMORY_SHARE = 1 / 8
#: The tree search's first top-K passes: K = 2 .. FAST_TOP_K (seconds at 3 letters).
FAST_TOP_K = 4
#: Then top-2 passes that search every guess at the states of at most F targets (their
#: subtrees are optimal), F from FULL_BELOW_START up by FULL_BELOW_GROWTH: at 3 letters F = 90
#: finds a better tree in 40 s than K = 14 alone in 380 s.
FULL_BELOW_START = 32
FULL_BELOW_GROWTH = 1.5
#: Each lower-bound pass aims 1/BETA_STEPS of the way from the lower bound to the best tree.
BETA_STEPS = 16


def mean_best_response(
    words: WordList,
    v: np.ndarray,
    total: int,
    t0: float,
    deadline: float | None,
    nodes: int | None,
    top_k: int | None,
    goal: int | None,
    memory: int,
    threads: int,
    cert: tuple[CertificateWriter | None, str],
    progress: Progress | None = None,
) -> BestResponse:
    """:func:`jotto.best_response` for the mean in this process, its arguments checked: the
    anytime search with a budget, else the exact search or a top-K pass.  ``progress``: called
    with the bounds (expected guesses) before every pass."""
    if top_k is None and (deadline is not None or nodes is not None):
        return _anytime(words, v, total, t0, deadline, nodes, goal, memory, threads, cert, progress)
    driver = _Driver(
        words,
        v,
        total,
        core_search(words, v, memory, cert[0]),
        Budget(deadline, nodes),
        goal,
        lambda: threads,
    )
    driver.start()
    driver.progress = _reporter(progress, driver, driver)
    if top_k is None:
        driver.full(anytime=False)
    elif top_k > 1:
        out = driver.pass_(top_k, core.BS_INF)
        driver.stopped = (
            driver.budget.why_stopped()
            if out is None
            else (None if out.stopped == "done" else out.stopped)
        )
    return _result(t0, driver, top_k=top_k, cert=cert)


class StateProof:
    """The mean's best response from one state of a game, the word indices ``state``, against
    the hider spread evenly over it (every word may still be guessed), by a search of its own
    within ``memory`` bytes: it starts at the greedy tree and the bound known without search,
    and :meth:`refine` narrows ``[lower, upper]`` (totals over the state: per target, divide by
    its size) within a budget of states visited.  A review of a game asks one per state it meets."""

    def __init__(self, words: WordList, state: np.ndarray, memory: int) -> None:
        v = np.zeros(len(words), dtype=np.int64)
        v[state] = 1
        self.search = core_search(words, v, memory)
        greedy, lower = greedy_start(words, self.search, v)
        self.lower, self.upper, self.guess = lower, greedy.best, greedy.best_guess
        self.stopped: str | None = None

    @property
    def exact(self) -> bool:
        return self.lower >= self.upper

    def refine(self, nodes: int, steps: int = BETA_STEPS) -> int:
        """Passes within ``nodes`` states visited in all (a budget of work, not of seconds, so a
        review reads the same every time), each aiming 1/``steps`` of the way from the lower
        bound to the best tree, until the two meet or a pass stops early; returns the states
        visited."""
        used = 0
        while self.lower < self.upper and used < nodes:
            beta = self.lower + max(1, (self.upper - self.lower) // steps)
            out = self.search.run(beta=beta, nodes=nodes - used)
            used += out.nodes
            if out.best is not None and out.best < self.upper:
                self.upper, self.guess = out.best, out.best_guess
            if end_of_passes(self, out):
                break
        return used


class BoundSearch:
    """The proving half of a budgeted :func:`best_response` on a thread of its own: a lower
    bound against one hider that rises for ``seconds`` while the caller does other work, and
    can be read at any time.  The double oracle's rounds draw trees on one core while this
    proves on the others (:meth:`jotto.solvers.double_oracle.algorithm.DoubleOracle.prove_beside`).
    Its passes
    run on ``threads`` threads (as :func:`best_response`'s: proven bounds, the same exact
    values on any number, budgeted ones depending on timing).

    Ctrl-C reaches only the main thread: the caller stops this search (:meth:`stop`) when it
    stops.  A bound it has read stays proven whatever happens to the search afterwards."""

    def __init__(
        self,
        words: Words,
        hider: Hider,
        seconds: float,
        memory: int = DEFAULT_MEMORY,
        threads: int = 1,
    ) -> None:
        wl = as_word_list(words)
        self.weights, total = weights_and_total(hider, len(wl))
        budget = Budget(time.perf_counter() + float(positive_number("seconds", seconds)), None)
        self._driver = _Driver(
            wl,
            self.weights,
            total,
            core_search(wl, self.weights, memory),
            budget,
            None,
            lambda: threads,
        )
        self._worker = _Worker(self._driver, self._run, "jotto-lower-bound")

    def _run(self) -> None:
        self._driver.start()
        self._driver.full(anytime=True)

    @property
    def lower(self) -> Fraction:
        """The lower bound proven so far (0 before the search's first bound)."""
        return Fraction(self._driver.lower, self._driver.total)

    def wait(self, timeout: float) -> bool:
        """Wait at most ``timeout`` seconds for the search to end (its time spent or the
        optimum proven); whether it has."""
        return self._worker.join(timeout)

    def stop(self) -> Fraction:
        """Stop the search (at once: the pass under way ends with what it proved) and return
        the lower bound it proved."""
        self._worker.stop()
        self._worker.join()
        return self.lower


class _Worker:
    """A search's work (``work``, a method of ``driver``) on a thread of its own, stopped
    through the driver's cancel list; its exception is raised again on the thread that joins
    it."""

    def __init__(self, driver: _Driver, work: Callable[[], None], name: str) -> None:
        self._driver = driver
        self._failure: list[BaseException] = []

        def run() -> None:
            try:
                work()
            except BaseException as exc:
                self._failure.append(exc)

        self._thread = threading.Thread(target=run, name=name, daemon=True)
        self._thread.start()

    def alive(self) -> bool:
        """Whether the work is still running."""
        return self._thread.is_alive()

    def stop(self) -> None:
        """Ask the work to stop: the pass under way ends with what it proved."""
        self._driver.cancel.append(True)

    def join(self, timeout: float | None = None, reraise: bool = True) -> bool:
        """Wait for the work to end (at most ``timeout`` seconds); whether it has.  What the
        work raised is raised here (unless not ``reraise``)."""
        self._thread.join(timeout)
        if self._thread.is_alive():
            return False
        if self._failure and reraise:
            raise self._failure[0]
        return True


def _anytime(
    words: WordList,
    v: np.ndarray,
    total: int,
    t0: float,
    deadline: float | None,
    nodes: int | None,
    goal: int | None,
    memory: int,
    threads: int,
    cert: tuple[CertificateWriter | None, str] = (None, ""),
    progress: Progress | None = None,
) -> BestResponse:
    """A budgeted full search by two searches with a memo each (together within ``memory``):
    one looks for good trees by top-K passes (the upper bound), the other raises the proven
    lower bound (and finds the optimum if the budget allows).  Neither reads what the other
    found, but for the tree search's last pass, which searches every guess: what it proves is a
    lower bound too, and once it proves its tree optimal the proof stops (stop_early).  Node
    budgets are split alike on any number of threads (TOP_K_SHARE of them for the trees); on
    one thread the trees get TOP_K_SHARE of the time first, on more they run on a thread of
    their own beside the proof for TREES_BESIDE of it, the proof having the other threads
    meanwhile and all of them afterwards."""
    tree_memory = int(memory * TREE_MEMORY_SHARE)
    # Once the trees' last pass proves its tree optimal the proof has nothing left to do: it
    # stops, with a time budget (results depend on timing then anyway; node budgets are spent
    # the same way on any number of threads) and no certificate (which holds the proof's own
    # records).
    stop_early = deadline is not None and cert[0] is None
    tree_nodes = None if nodes is None else int(nodes * TOP_K_SHARE)
    side_by_side = threads > 1
    tree_deadline = deadline
    if deadline is not None:
        share = TREES_BESIDE if side_by_side else TOP_K_SHARE
        tree_deadline = t0 + (deadline - t0) * share
    trees = _Driver(
        words,
        v,
        total,
        core_search(words, v, tree_memory),
        Budget(tree_deadline, tree_nodes),
        None,
        lambda: 1,
    )
    if not side_by_side:
        bounds = _Driver(
            words,
            v,
            total,
            core_search(words, v, memory - tree_memory, cert[0]),
            Budget(deadline, None if nodes is None else nodes - tree_nodes),
            goal,
            lambda: 1,
        )
        bounds.start()
        trees.progress = bounds.progress = _reporter(progress, bounds, trees)
        trees.better_trees()
        if not (trees.proved_exact() and stop_early):
            bounds.full(anytime=True)
        return _result(t0, bounds, trees, cert=cert)
    worker = None
    bounds = _Driver(
        words,
        v,
        total,
        core_search(words, v, memory - tree_memory, cert[0]),
        Budget(deadline, None if nodes is None else nodes - tree_nodes),
        goal,
        lambda: threads - 1 if worker is not None and worker.alive() else threads,
    )
    bounds.start()
    trees.progress = bounds.progress = _reporter(progress, bounds, trees)
    if stop_early:
        trees.on_exact = lambda: bounds.cancel.append(True)
    worker = _Worker(trees, trees.better_trees, "jotto-best-response-trees")
    _side_by_side(worker, bounds, cancel_when_done=deadline is not None)
    return _result(t0, bounds, trees, cert=cert)


def _side_by_side(worker: _Worker, bounds: _Driver, cancel_when_done: bool) -> None:
    """Run ``bounds.full`` on this thread while ``worker`` (the tree search) runs on its own.
    With a time budget, once the bound search ends (the optimum proven, the goal out of reach,
    or the time spent) the tree search is told to stop: results depend on timing anyway.  With
    node budgets alone it runs its share, as it would on one thread."""
    try:
        bounds.full(anytime=True)
    except BaseException:
        worker.stop()
        worker.join(reraise=False)  # the bound search's exception is the one to raise
        raise
    if cancel_when_done:
        worker.stop()
    worker.join()


def _reporter(
    progress: Progress | None, bounds: _Driver, trees: _Driver
) -> Callable[[], None] | None:
    """What the drivers call before each pass: ``progress`` with the bound ``bounds`` proved
    and the better tree of the two, in expected guesses."""
    if progress is None:
        return None
    total = bounds.total

    def report() -> None:
        upper = min(bounds.upper, trees.upper)
        lower = max(bounds.lower, trees.lower)
        progress(Fraction(min(lower, upper), total), Fraction(upper, total))

    return report


def _result(
    t0: float,
    bounds: _Driver,
    trees: _Driver | None = None,
    top_k: int | None = None,
    cert: tuple[CertificateWriter | None, str] = (None, ""),
) -> BestResponse:
    """The result of the searches: the greater proven lower bound of the two (``bounds``'s
    alone with a certificate), ``bounds``'s stop reason, the better tree of the two
    (``bounds``'s on a tie).  With ``cert`` (a writer, and what the bound is
    of), the certificate of the lower bound (``bounds``'s search wrote its records) is
    written."""
    best = bounds if trees is None or bounds.upper <= trees.upper else trees
    lower, upper = bounds.lower, best.upper
    if cert[0] is not None:
        records = bounds.search.certificate_close()
        cert[0].finish(
            bounds.words, [int(x) for x in bounds.v], min(lower, upper), records, cert[1]
        )
    elif trees is not None:
        lower = max(lower, trees.lower)  # the trees' last pass proves bounds too
    drivers = [bounds] if trees is None else [bounds, trees]
    return BestResponse(
        lower=Fraction(min(lower, upper), bounds.total),
        upper=Fraction(upper, bounds.total),
        tree=DecisionTree(bounds.words, *best.tree_arrays),
        weights=bounds.v,
        nodes=sum(d.nodes for d in drivers),
        seconds=time.perf_counter() - t0,
        stopped=None if lower >= upper else bounds.stopped,
        top_k=top_k,
        passes=sum(d.passes for d in drivers),
        memo_states=sum(d.search.memo_stats()[0] for d in drivers),
    )


class _Driver:
    """Runs the passes of one best-response search within its budget, and keeps its proven
    lower bound and best tree.  ``threads()``: the threads the next pass may use."""

    def __init__(
        self,
        words: WordList,
        v: np.ndarray,
        total: int,
        search: core.BestResponseSearch,
        budget: Budget,
        goal: int | None,
        threads: Callable[[], int],
    ):
        self.words, self.v, self.total, self.search = words, v, total, search
        self.budget = budget
        self.threads = threads
        # The least total (sum v_i guesses_i) that is not worth proving optimal or out of reach.
        self.goal = goal
        self.cancel: list = []  # not empty: another thread asks the passes to stop
        self.nodes = 0
        self.passes = 0
        self.stopped: str | None = None
        self.lower = 0
        self.upper = core.BS_INF
        self.tree_arrays = None
        self.progress: Callable[[], None] | None = None  # called before every pass
        # called once the tree search proves its best tree optimal (better_trees)
        self.on_exact: Callable[[], None] | None = None
        # (beta, states of the lower-bound passes so far) after each finished pass
        self.pass_costs: list[tuple[int, int]] = []
        self.began = (time.perf_counter(), 0)  # (time, nodes) the lower-bound passes began at

    def start(self) -> None:
        """The greedy tree (the first upper bound) and the lower bound known without search."""
        greedy, self.lower = greedy_start(self.words, self.search, self.v)
        self.nodes += greedy.nodes
        self.improve(1, -1, greedy)

    def left(self) -> tuple[float, int] | None:
        """(seconds, nodes) the next pass may take (0: no limit), or None if none are left."""
        return self.budget.left(self.nodes)

    def pass_(
        self, top_k: int, beta: int, by_size: bool = False, full_below: int = 0
    ) -> core.PassOutcome | None:
        """Run one pass within the budget; None if nothing is left of it."""
        left = self.left()
        if left is None:
            return None
        seconds, nodes = left
        if self.progress is not None:
            self.progress()
        out = self.search.run(
            top_k=top_k,
            beta=beta,
            seconds=seconds,
            nodes=nodes,
            by_size=by_size,
            cancel=self.cancel,
            full_below=full_below,
            threads=self.threads(),
        )
        self.nodes += out.nodes
        self.passes += 1
        if out.best is not None:
            self.improve(top_k, out.best_guess if not out.exact else -1, out)
        return out

    def improve(self, top_k: int, guess: int, out: core.PassOutcome) -> None:
        """Take the tree a pass found if it beats the best so far (the tree follows the memo of
        the pass's mode, top_k and full_below)."""
        best = out.best
        if best is None or best >= self.upper:
            return
        tree_total, *arrays = self.search.tree(top_k, guess)
        if tree_total != best:
            raise RuntimeError(f"jotto core: tree total {tree_total} != search value {best}")
        self.upper, self.tree_arrays = best, arrays

    def better_trees(self) -> None:
        """Top-K passes within the budget, good trees fast: K = 2 .. FAST_TOP_K, then top-2
        trees optimal below a growing size (FULL_BELOW_START ...), until one does not finish or
        the size covers the root's targets.  That last pass searches every guess everywhere:
        it aims at the best tree so far (beta = upper: it finds a better one or proves there
        is none), and what it proves is this driver's lower bound (exact if it finishes,
        :meth:`proved_exact`).  With common secrets the trees' passes are what solves a game
        exactly: on the 200 most common of Norvig's 2,845 words (``hide_from="sgb:200"``)
        the passes below 32 .. 162 targets find 888/200 in 2 s and the last pass proves
        884/200 in 153,000 states (26 s of CPU), where the proof's anytime passes, a step
        at a time, need about 1.45 times more states for each further 1/200 (issue 45).

        With a time budget a pass predicted to take more than half the time left is not
        started (the tree search then ends, and its thread goes to the proof): their cost grows
        about geometrically, so the next is predicted from the last two.  At 3 letters (TWL06,
        uniform hider, Zen 4 VM) the passes below 72, 108 and 162 targets took 2.2, 22 and over
        200 s: the tree of 2886/421 = 6.855 comes in 25 s, and the next pass would not finish
        in a budget of minutes."""
        targets = self.targets()
        passes = [(k, 0) for k in range(2, FAST_TOP_K + 1)]
        size = FULL_BELOW_START
        while passes[-1][1] < targets:
            passes.append((2, size))
            size = math.ceil(size * FULL_BELOW_GROWTH)
        costs: list[float] = []
        for k, full_below in passes:
            left = self.left()
            if (
                left is not None
                and left[0] > 0
                and len(costs) >= 2
                and costs[-2] > 0
                and costs[-1] * costs[-1] / costs[-2] > left[0] / 2
            ):
                break
            start = time.perf_counter()
            last = full_below >= targets
            out = self.pass_(k, self.upper if last else core.BS_INF, full_below=full_below)
            costs.append(time.perf_counter() - start)
            if out is not None and last:
                end_of_passes(self, out)
            if out is None or out.stopped != "done":
                break
        self.search.forget_top_k()
        if self.proved_exact() and self.on_exact is not None:
            self.on_exact()

    def targets(self) -> int:
        """The targets of the root state: the words of positive weight (every word in hard
        mode, whose states keep the words of weight 0 as candidates)."""
        return len(self.v) if self.words.core.hard else int(np.count_nonzero(self.v))

    def proved_exact(self) -> bool:
        """Whether this driver's passes proved its best tree optimal."""
        return self.lower >= self.upper

    def full(self, anytime: bool) -> None:
        """Search until the proven lower bound meets the best tree's value (or the goal).

        Without budgets one pass aims straight at the best tree (it finds a better one or proves
        there is none).  ``anytime`` (with a budget), each pass aims 1/BETA_STEPS of the way up
        from the lower bound, so that the bound rises steadily, sharing each guess's gap among
        its reply classes by size (fewer states to prove bounds).
        """
        self.began = (time.perf_counter(), self.nodes)
        while True:
            target = self.upper if self.goal is None else min(self.upper, self.goal)
            if self.lower >= target:
                if self.goal is not None and self.lower >= self.goal and self.lower < self.upper:
                    self.stopped = "upper_bound"
                return
            beta = self.lower + self.step(target) if anytime else target
            out = self.pass_(0, beta, by_size=anytime)
            if out is None:
                self.stopped = self.budget.why_stopped()
                return
            if out.stopped == "done":
                self.pass_costs.append((beta, self.nodes - self.began[1]))
            if end_of_passes(self, out):
                return

    def step(self, target: int) -> int:
        """How far above the lower bound the next anytime pass aims: 1/BETA_STEPS of the way to
        ``target``, halved while the pass would take more than half the budget left (a pass the
        budget stops proves little; a shorter one that finishes proves its beta, and leaves room
        for another).  The states all passes need to prove beta grow about geometrically with
        it (each pass reuses the bounds the memo kept from the earlier ones), so the next pass's
        cost is predicted from the states spent so far, N1 up to the last beta b1, and the
        growth per unit of beta since the last pass that had spent at most half as many:
        N1 (growth^(beta - b1) - 1)."""
        step = max(1, (target - self.lower) // BETA_STEPS)
        if len(self.pass_costs) < 2:
            return step
        b1, n1 = self.pass_costs[-1]
        b0, n0 = next(
            (c for c in reversed(self.pass_costs[:-1]) if 2 * c[1] <= n1), self.pass_costs[0]
        )
        if b0 >= b1 or n0 >= n1:
            return step
        growth = (n1 / max(1, n0)) ** (1.0 / (b1 - b0))
        room = self.nodes_left() / 2
        while step > 1 and n1 * (growth ** (self.lower + step - b1) - 1) > room:
            step //= 2
        return step

    def nodes_left(self) -> float:
        """States the budget leaves, the time budget's at the node rate of the passes so far."""
        room = math.inf
        if self.budget.nodes is not None:
            room = self.budget.nodes - self.nodes
        if self.budget.deadline is not None:
            now = time.perf_counter()
            spent, done = now - self.began[0], self.nodes - self.began[1]
            rate = done / spent if spent > 0 else 0.0
            room = min(room, (self.budget.deadline - now) * rate)
        return room
