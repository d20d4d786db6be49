"""The guesser's true best response: the decision tree with the fewest expected guesses.

GuesserGBR (:mod:`jotto.responses.gbr`) is greedy: it maximises the targets eliminated by the next
guess.
The true best response to a hider minimises the expected number of guesses of the whole game,

    F(S) = W(S) + min_g sum_{j != win} F(S_j(g)),   F({i}) = v_i,

over every word g of the list (also words already ruled out; in hard mode only the words still
consistent), where S is the state (targets still consistent), W(S) its weight and S_j(g) the
targets giving reply code j to g; the win is g itself, whatever the rules call its reply.  The
expected number of guesses is F(all) / W(all).  The rules are the word list's
(:class:`jotto.game.rules.Rules`): replies, anagrams kept or not, positional replies, hard mode.

The compiled core finds it by depth-first branch and bound (search.c): exact integer arithmetic,
admissible counting, member and lookahead bounds (the best split a large class admits, each part
at its counting bound), a memo of exact values and proven lower bounds per state, greedy move
ordering, cut-offs while summing reply classes.  A pass over 128 targets or more runs on every
thread it is given (search_parallel.c: each thread searches from the root over the shared memo,
taking the words and states the others are not searching); exact values and trees are the same
on any number of threads.

The search is anytime: it first builds the greedy tree (an upper bound), then raises a proven lower
bound pass by pass (each pass either finds the optimum below a target or proves there is none)
until the two meet, the budget runs out or ``upper_bound`` is proven out of reach.  With a budget a
second search with its own memo looks for better trees meanwhile (top-K passes, K = 2, 3, 4, then
top-2 trees whose subtrees are optimal below a growing state size): on a second thread when there
is one, so that both use all of the time.  Every number it reports is exact
(:class:`fractions.Fraction`) and proven.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
import time
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from fractions import Fraction
from numbers import Real
from typing import Any, Callable, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

from ..engine import core
from ..game.bounds import counting_total
from ..game.certificates import CertificateWriter, check_certificate_args
from .gbr import as_word_list
from ..game.objectives import Objective, ObjectiveSpec, parse_objective
from ..game.rules import Rules
from ..engine.runtime import resolve_threads
from ..game.trees import DecisionTree
from ..engine.weights import exact_weights
from ..game.words import WordList

__all__ = ["BestResponse", "best_response", "expected_guesses", "search_flags"]

Words = Union[WordList, Sequence[str]]
Hider = Union[None, ArrayLike, Sequence[Fraction]]

#: Memory the search's memos may take together by default (bytes).
DEFAULT_MEMORY = 2**30
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


@dataclass(frozen=True, eq=False)
class BestResponse:
    """What :func:`best_response` found and proved.

    Attributes:
        lower: a proven lower bound on the least expected number of guesses of any tree (for
            another :attr:`objective`, on the least expected cost ``E[c(guesses)]``).
        upper: the expected number of guesses (or cost) of :attr:`tree` (so the optimum is in
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
        objective: what was minimised (:mod:`jotto.game.objectives`; the mean by default).
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
    objective: Objective = field(default_factory=Objective.mean)

    @property
    def found_within(self) -> tuple[Fraction, Fraction] | None:
        """For a :func:`jotto.within` ``(k)`` objective, the certified interval of the best
        tree's chance of finding the word within k guesses, ``(1 - upper, 1 - lower)`` (the
        tree's own is the low end); None for other objectives."""
        if self.objective.within is None:
            return None
        return 1 - self.upper, 1 - self.lower

    @property
    def exact(self) -> bool:
        """Whether the optimum is proven, ``lower == upper`` (the tree is optimal)."""
        return self.lower == self.upper

    @property
    def gap(self) -> Fraction:
        """``upper - lower``: how far the tree may be from optimal, in expected guesses."""
        return self.upper - self.lower

    def __repr__(self) -> str:
        stopped = "" if self.stopped is None else f", stopped={self.stopped!r}"
        top_k = "" if self.top_k is None else f", top_k={self.top_k}"
        return (f"BestResponse(lower={float(self.lower):.4f}, upper={float(self.upper):.4f}, "
                f"gap={float(self.gap):.4g}, exact={self.exact}{stopped}{top_k}, "
                f"nodes={self.nodes}, seconds={self.seconds:.3g})")


def weights_and_total(hider: Hider, size: int) -> tuple[np.ndarray, int]:
    """The hider's exact integer weights over ``size`` words
    (:func:`jotto.engine.weights.exact_weights`)
    and their sum; :class:`ValueError` if it puts weight on no word."""
    v = exact_weights(hider, size)
    total = int(v.sum(dtype=object))
    if total == 0:
        raise ValueError("the hider puts weight on no word: expected guesses are undefined")
    return v, total


def expected_guesses(tree: DecisionTree, hider: Hider = None) -> Fraction:
    """The exact expected number of guesses of ``tree`` against ``hider``:
    ``sum_i v_i guesses_i / sum_i v_i`` with ``v`` the integer weights of ``hider`` (as in
    :func:`best_response`)."""
    v, total = weights_and_total(hider, len(tree.words))
    g = tree.guesses_needed().astype(object)
    return Fraction(int((v.astype(object) * g).sum()), total)


def search_flags(rules: Rules) -> int:
    """The core search's rule flags (``core.BS_*``) for ``rules``: the anagram's own reply
    under ``keep-all``, positional replies, hard mode.  Repeated letters need no flag: they are
    in the tokens."""
    return ((core.BS_KEEP_ALL if rules.anagrams == "keep-all" else 0) |
            (core.BS_POSITIONAL if rules.positional else 0) |
            (core.BS_HARD if rules.hard else 0))


def core_search(words: WordList, v: np.ndarray, memory: int,
                 cert: CertificateWriter | None = None) -> core.BestResponseSearch:
    """The core search over ``words`` under their rules; with ``cert``, writing the bounds it
    proves to the certificate's record stream."""
    search = core.BestResponseSearch(words.tokens, words.length, v, int(memory), words.spell,
                                      search_flags(words.rules))
    if cert is not None:
        search.certificate_open(cert.stream)
    return search


def _positive_number(name: str, x, integer: bool = False):
    if x is None:
        return None
    ok = isinstance(x, (int, np.integer)) if integer else isinstance(x, Real)
    if isinstance(x, bool) or not ok or not math.isfinite(x) or x <= 0:
        kind = "a positive integer" if integer else "a positive number of seconds"
        raise ValueError(f"{name} must be {kind} or None, not {x!r}")
    return x


def end_of_passes(run: Any, value: int, exact: bool, stop: str) -> bool:
    """Fold one lower-bound pass's outcome into ``run`` (a search with ``lower`` and
    ``stopped``, of expected guesses or of a cost): an exact value is the lower bound, else the
    pass's bound raises it.  Returns whether the passes are over: the value is exact, or a
    budget stopped the pass (``stopped`` says which)."""
    if exact:
        run.lower = value
        return True
    run.lower = max(run.lower, value)
    if stop != "done":
        run.stopped = stop
        return True
    return False


def best_response(words: Words, hider: Hider = None, *, budget: float | None = None,
                  nodes: int | None = None, top_k: int | None = None,
                  upper_bound: Real | None = None, threads: int | None = None,
                  memory: int = DEFAULT_MEMORY, objective: ObjectiveSpec = None,
                  certificate: str | os.PathLike[str] | None = None,
                  about: str = "best response",
                  executor: Executor | None = None,
                  progress: Callable[[Fraction, Fraction], None] | None = None
                  ) -> BestResponse:
    """The guesser's best response to ``hider``: the decision tree minimising the expected
    number of guesses (or another ``objective``), with proven bounds.

    When an exact search (no ``budget``, ``nodes`` or ``top_k``) is feasible: the 2-letter game
    finishes in a fraction of a second (TWL06's 51 words: 5.7843 expected guesses against the
    uniform hider, 0.10 s, 19,778 states; ENABLE's 50 words: 5.72, 0.07 s).  From 3 letters on
    it does not finish in practice: on TWL06's 421 three-letter words 120 s of search leave the
    optimum in [6.3895, 6.8765] (4.3 million states), and at 5 letters an unbudgeted search
    runs for many minutes without a word.  So give a ``budget`` (seconds) from 3 letters on: the
    answer is then the certified interval ``[lower, upper]`` and the best tree found.  (Measured
    2026-11-26 on an AMD EPYC (Zen 4, kernel variant v4), one thread, on a busy machine.)

    Args:
        words: a :class:`~jotto.game.words.WordList` (or a sequence of playable words).
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
        threads: as elsewhere in the package (:func:`jotto.resolve_threads`).  The search's
            passes run on all of them (over 128 words or more; fewer do not pay for threads).
            With a budget the search is two searches, one for good trees (top-K passes), one
            raising the lower bound: with two threads or more the tree search runs on one of
            them beside the proof, which has the others (TREES_BESIDE), else one after the
            other.  Exact results (no budget, or a budget the search finishes within) are the
            same whatever the thread count; what a budget stops at is a proven interval in
            every case, but on several threads it depends on timing (a node budget too: which
            states the threads searched when it ran out), so it may differ from run to run.
        memory: bytes the memos of states may take together (then they stop growing; results
            without budgets do not change, only the time); with an executor, each worker's.
        objective: what the tree minimises (:func:`jotto.game.objectives.parse_objective`): None or
            ``"mean"``, expected guesses; ``jotto.within(k)`` or ``"within:K"``, the chance of
            needing more than k guesses (:attr:`BestResponse.found_within` gives the chance of
            finding the word in time); ``jotto.Objective(costs=..., tail=...)`` or
            ``"costs:C1,C2,...[:tail=X]"``, the expected cost ``E[c(guesses)]`` of any
            non-decreasing cost vector.  Objectives other than the mean are searched by
            :func:`jotto.responses.cost_search.objective_best_response` (one thread, no
            ``top_k``, no executor).
        certificate: a file to write a certificate of ``lower`` to (docs/certificates.md),
            which :func:`jotto.check_certificate` verifies without the search; written as the
            search runs and renamed into place at the end (:class:`FileExistsError` at once if
            the file exists).  The mean only, in this process (no executor).
        about: what the certificate says its bound is of (its header's ``about``): the
            default, or ``"game value"`` when the hider's strategy proves the game's value.
        executor: run the proof as tasks on this :class:`concurrent.futures.Executor` (a Dask
            client's ``get_executor()``, a ``ProcessPoolExecutor``;
            :mod:`jotto.responses.distributed`): each opener is a task
            (:func:`jotto.responses.executors.best_response_on`), its passes on one thread of a
            worker.  ``threads`` is then unused; ``memo_states`` sums the workers' memos.
        progress: called as ``progress(lower, upper)`` (expected guesses: the bound proved and
            the best tree's value so far) before every search pass, on the search's threads:
            a long search shows its bounds rising, and a caller interrupted (Ctrl-C) knows what
            was proved.  Not with an executor (:class:`ValueError`) nor other objectives.

    Returns:
        A :class:`BestResponse`.  With no ``budget`` or ``nodes`` its values and tree are the
        same whatever the machine, thread count and executor (its ``nodes`` are not); with
        them, on one thread and no executor, all of it is.
    """
    if certificate is not None:
        check_certificate_args(certificate, about)
    if progress is not None and not callable(progress):
        raise ValueError(f"progress must be a function of (lower, upper) or None, not "
                         f"{progress!r}")
    wanted = parse_objective(objective)
    if not wanted.is_mean:
        if certificate is not None:
            raise ValueError("certificates prove bounds on the mean's search; it takes no other "
                             "objective")
        if top_k is not None:
            raise ValueError("top_k restricts the mean's search; it takes no other objective")
        if executor is not None or progress is not None:
            raise ValueError("an executor or progress: the mean's proof; other objectives are "
                             "searched in this process without either")
        resolve_threads(threads)
        from .cost_search import objective_best_response

        return objective_best_response(words, hider, wanted, budget=budget, nodes=nodes,
                                       upper_bound=upper_bound, memory=memory)
    t0 = time.perf_counter()
    wl = as_word_list(words)
    v, total = weights_and_total(hider, len(wl))
    budget = _positive_number("budget", budget)
    nodes = _positive_number("nodes", nodes, integer=True)
    top_k = _positive_number("top_k", top_k, integer=True)
    threads = resolve_threads(threads)
    if isinstance(upper_bound, bool) or not (upper_bound is None or
                                            isinstance(upper_bound, Real)):
        raise ValueError(f"upper_bound must be a number or None, not {upper_bound!r}")
    if isinstance(memory, bool) or not isinstance(memory, (int, np.integer)) or memory < 2**20:
        raise ValueError(f"memory must be at least 2**20 bytes, not {memory!r}")
    goal = None if upper_bound is None else math.ceil(Fraction(upper_bound) * total)
    if executor is not None:
        from .distributed import check_executor
        from .executors import best_response_on

        check_executor(executor)
        if certificate is not None or progress is not None:
            raise ValueError("certificate, progress: the search in this process; it takes no "
                             "executor")

        return best_response_on(executor, wl, v, total, t0, budget, nodes, top_k, goal,
                                int(memory))
    deadline = None if budget is None else t0 + budget
    with contextlib.ExitStack() as stack:
        cert = None
        if certificate is not None:
            cert = stack.enter_context(CertificateWriter(certificate))
        if top_k is None and (budget is not None or nodes is not None):
            found = _anytime(wl, v, total, t0, deadline, nodes, goal, int(memory), threads,
                             (cert, about), progress)
        else:
            driver = _Driver(wl, v, total, core_search(wl, v, memory, cert),
                             _Budget(deadline, nodes), goal, lambda: threads)
            driver.start()
            driver.progress = _reporter(progress, driver, driver)
            if top_k is None:
                driver.full(anytime=False)
            elif top_k > 1:
                out = driver.pass_(top_k, core.BS_INF)
                driver.stopped = driver.why_stopped() if out is None else (
                    None if out[2] == "done" else out[2])
            found = _result(t0, driver, top_k=top_k, cert=(cert, about))
    return replace(found, objective=wanted)


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

    def __init__(self, words: Words, hider: Hider, seconds: float,
                 memory: int = DEFAULT_MEMORY, threads: int = 1) -> None:
        wl = as_word_list(words)
        self.weights, total = weights_and_total(hider, len(wl))
        budget = _Budget(time.perf_counter() + float(_positive_number("seconds", seconds)),
                         None)
        self._driver = _Driver(wl, self.weights, total,
                               core_search(wl, self.weights, memory), budget, None,
                               lambda: threads)
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

    def __init__(self, driver: "_Driver", work: Callable[[], None], name: str) -> None:
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


@dataclass
class _Budget:
    """What one search may spend: time until ``deadline`` (a :func:`time.perf_counter` time;
    None: no limit) and ``nodes`` states (None: no limit)."""

    deadline: float | None
    nodes: int | None


def _anytime(words: WordList, v: np.ndarray, total: int, t0: float, deadline: float | None,
             nodes: int | None, goal: int | None, memory: int, threads: int,
             cert: tuple[CertificateWriter | None, str] = (None, ""),
             progress: Callable[[Fraction, Fraction], None] | None = None) -> BestResponse:
    """A budgeted full search by two searches with a memo each (together within ``memory``):
    one looks for good trees by top-K passes (the upper bound), the other raises the proven
    lower bound (and finds the optimum if the budget allows).  Neither reads what the other
    found.  Node budgets are split alike on any number of threads (TOP_K_SHARE of them for the
    trees); on one thread the trees get TOP_K_SHARE of the time first, on more they run on a
    thread of their own beside the proof for TREES_BESIDE of it, the proof having the other
    threads meanwhile and all of them afterwards."""
    tree_memory = int(memory * TREE_MEMORY_SHARE)
    tree_nodes = None if nodes is None else int(nodes * TOP_K_SHARE)
    side_by_side = threads > 1
    tree_deadline = deadline
    if deadline is not None:
        share = TREES_BESIDE if side_by_side else TOP_K_SHARE
        tree_deadline = t0 + (deadline - t0) * share
    trees = _Driver(words, v, total, core_search(words, v, tree_memory),
                    _Budget(tree_deadline, tree_nodes), None, lambda: 1)
    if not side_by_side:
        bounds = _Driver(words, v, total, core_search(words, v, memory - tree_memory, cert[0]),
                         _Budget(deadline, None if nodes is None else nodes - tree_nodes), goal,
                         lambda: 1)
        bounds.start()
        trees.progress = bounds.progress = _reporter(progress, bounds, trees)
        trees.better_trees()
        bounds.full(anytime=True)
        return _result(t0, bounds, trees, cert=cert)
    worker = None
    bounds = _Driver(words, v, total, core_search(words, v, memory - tree_memory, cert[0]),
                     _Budget(deadline, None if nodes is None else nodes - tree_nodes), goal,
                     lambda: threads - 1 if worker is not None and worker.alive() else threads)
    bounds.start()
    trees.progress = bounds.progress = _reporter(progress, bounds, trees)
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


def _reporter(progress: Callable[[Fraction, Fraction], None] | None, bounds: _Driver,
              trees: _Driver) -> Callable[[], None] | None:
    """What the drivers call before each pass: ``progress`` with the bound ``bounds`` proved
    and the better tree of the two, in expected guesses."""
    if progress is None:
        return None
    total = bounds.total

    def report() -> None:
        upper = min(bounds.upper, trees.upper)
        progress(Fraction(min(bounds.lower, upper), total), Fraction(upper, total))

    return report


def _result(t0: float, bounds: _Driver, trees: _Driver | None = None,
            top_k: int | None = None,
            cert: tuple[CertificateWriter | None, str] = (None, "")) -> BestResponse:
    """The result of the searches: ``bounds``'s proven lower bound and stop reason, the better
    tree of the two (``bounds``'s on a tie).  With ``cert`` (a writer, and what the bound is
    of), the certificate of the lower bound (``bounds``'s search wrote its records) is
    written."""
    best = bounds if trees is None or bounds.upper <= trees.upper else trees
    lower, upper = bounds.lower, best.upper
    if cert[0] is not None:
        records = bounds.search.certificate_close()
        cert[0].finish(bounds.words, [int(x) for x in bounds.v], min(lower, upper), records,
                       cert[1])
    drivers = [bounds] if trees is None else [bounds, trees]
    return BestResponse(lower=Fraction(min(lower, upper), bounds.total),
                        upper=Fraction(upper, bounds.total),
                        tree=DecisionTree(bounds.words, *best.tree_arrays), weights=bounds.v,
                        nodes=sum(d.nodes for d in drivers),
                        seconds=time.perf_counter() - t0,
                        stopped=None if lower >= upper else bounds.stopped, top_k=top_k,
                        passes=sum(d.passes for d in drivers),
                        memo_states=sum(d.search.memo_stats()[0] for d in drivers))


class _Driver:
    """Runs the passes of one best-response search within its budget, and keeps its proven
    lower bound and best tree.  ``threads()``: the threads the next pass may use."""

    def __init__(self, words: WordList, v: np.ndarray, total: int,
                 search: core.BestResponseSearch, budget: _Budget, goal: int | None,
                 threads: Callable[[], int]):
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
        # (beta, states of the lower-bound passes so far) after each finished pass
        self.pass_costs: list[tuple[int, int]] = []
        self.began = (time.perf_counter(), 0)  # (time, nodes) the lower-bound passes began at

    def start(self) -> None:
        """The greedy tree (the first upper bound) and the lower bound known without search."""
        greedy = self.search.run(1, core.BS_INF, 0.0, 0)
        self.nodes += greedy[5]
        self.improve(1, -1, greedy)
        # the search's own root bound, or the sorted counting bound where it is stronger
        self.lower = max(self.search.root_bound(), counting_total(
            (int(x) for x in self.v), self.words.rules.branches(self.words.length)))

    def left(self) -> tuple[float, int] | None:
        """(seconds, nodes) the next pass may take (0: no limit), or None if none are left."""
        secs = 0.0
        if self.budget.deadline is not None:
            secs = self.budget.deadline - time.perf_counter()
            if secs <= 0:
                return None
        n = 0
        if self.budget.nodes is not None:
            n = self.budget.nodes - self.nodes
            if n <= 0:
                return None
        return secs, n

    def pass_(self, top_k: int, beta: int, by_size: bool = False, full_below: int = 0):
        """Run one pass within the budget; None if nothing is left of it."""
        left = self.left()
        if left is None:
            return None
        if self.progress is not None:
            self.progress()
        out = self.search.run(top_k, beta, *left, by_size, self.cancel, full_below,
                              self.threads())
        value, exact, stop, best, guess, n = out
        self.nodes += n
        self.passes += 1
        if best is not None:
            self.improve(top_k, guess if not exact else -1, out)
        return out

    def improve(self, top_k: int, guess: int, out) -> None:
        """Take the tree a pass found if it beats the best so far (the tree follows the memo of
        the pass's mode, top_k and full_below)."""
        value, exact, stop, best, _, n = out
        if best is None or best >= self.upper:
            return
        tree_total, *arrays = self.search.tree(top_k, guess)
        if tree_total != best:
            raise RuntimeError(f"jotto core: tree total {tree_total} != search value {best}")
        self.upper, self.tree_arrays = best, arrays

    def better_trees(self) -> None:
        """Top-K passes within the budget, good trees fast: K = 2 .. FAST_TOP_K, then top-2
        trees optimal below a growing size (FULL_BELOW_START ...), until one does not finish or
        the size covers the whole state (that pass is the exact search).

        With a time budget a pass predicted to take more than half the time left is not
        started (the tree search then ends, and its thread goes to the proof): their cost grows
        about geometrically, so the next is predicted from the last two.  At 3 letters (TWL06,
        uniform hider, Zen 4 VM) the passes below 72, 108 and 162 targets took 2.2, 22 and over
        200 s: the tree of 2886/421 = 6.855 comes in 25 s, and the next pass would not finish
        in a budget of minutes."""
        passes = [(k, 0) for k in range(2, FAST_TOP_K + 1)]
        size = FULL_BELOW_START
        while passes[-1][1] < len(self.v):
            passes.append((2, size))
            size = math.ceil(size * FULL_BELOW_GROWTH)
        costs: list[float] = []
        for k, full_below in passes:
            left = self.left()
            if left is not None and left[0] > 0 and len(costs) >= 2 and costs[-2] > 0 and \
                    costs[-1] * costs[-1] / costs[-2] > left[0] / 2:
                break
            start = time.perf_counter()
            out = self.pass_(k, core.BS_INF, full_below=full_below)
            costs.append(time.perf_counter() - start)
            if out is None or out[2] != "done":
                break
        self.search.forget_top_k()

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
            if out is not None and out[2] == "done":
                self.pass_costs.append((beta, self.nodes - self.began[1]))
            if out is None:
                self.stopped = self.why_stopped()
                return
            value, exact, stop, _, _, _ = out
            if end_of_passes(self, value, exact, stop):
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
        b0, n0 = next((c for c in reversed(self.pass_costs[:-1]) if 2 * c[1] <= n1),
                      self.pass_costs[0])
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

    def why_stopped(self) -> str:
        """Which budget is spent (called once :meth:`left` found none left)."""
        if self.budget.deadline is not None and time.perf_counter() >= self.budget.deadline:
            return "time"
        return "nodes"
