"""The true best response with its proof run as tasks on a :class:`concurrent.futures.Executor`
(:func:`jotto.best_response` with ``executor=``, the double oracle's proof beside its rounds):
every opener a work unit (:mod:`jotto.responses.proof.opener_search`, policy "best"), its passes run
by :mod:`jotto.responses.proof.distributed` wherever the executor sends them."""

from __future__ import annotations

import time
from concurrent.futures import Executor
from fractions import Fraction

import numpy as np

from ...game.trees import DecisionTree
from ...game.words import WordList
from ..gbr import as_word_list
from ..result import (
    DEFAULT_MEMORY,
    BestResponse,
    Hider,
    Words,
    core_search,
    greedy_start,
    weights_and_total,
)
from .distributed import TaskRunner, drive
from .opener_search import OpenerSearch
from .work_units import Job, Problem, Task

__all__ = ["BoundSearchOn", "best_response_on"]


def best_response_on(
    executor: Executor,
    words: WordList,
    v: np.ndarray,
    total: int,
    t0: float,
    budget: float | None,
    nodes: int | None,
    top_k: int | None,
    goal: int | None,
    memory: int,
) -> BestResponse:
    """:func:`jotto.best_response` with its work on ``executor``: the greedy tree and the bound
    from counting here, then the openers' passes as tasks (:mod:`jotto.responses.proof.opener_search`,
    policy "best"), or a top-K search as one task.  Without budgets the values and the tree
    are those of the search in this process; node budgets are shared out among the tasks in
    flight, so a run may spend a few tasks' worth more."""
    local = core_search(words, v, 2**24)
    greedy, lower0 = greedy_start(words, local, v)
    g_total, *g_tree = local.tree(1, -1)
    used = greedy.nodes
    runner = TaskRunner(executor)
    upper, tree, stopped, passes = g_total, tuple(g_tree), None, 1
    try:
        if top_k is not None:
            lower = lower0
            if top_k > 1:
                task = Task(
                    Problem.of(words, v, memory),
                    (Job(top_k=top_k, tree=True),),
                    budget or 0.0,
                    nodes or 0,
                )
                runner.submit(task)
                outcome = []
                while not outcome:
                    outcome = runner.done(1.0)
                res = outcome[0].results[0] if outcome[0].results else None
                used += outcome[0].results[0].nodes if res is not None else 0
                passes += res is not None
                if res is None or not res.exact:
                    stopped = "time" if res is None else res.stopped
                elif res.value < upper:
                    upper, tree = res.value, tuple(res.tree[1:])
            memo = 0
        else:
            search = OpenerSearch(
                words,
                v,
                memory,
                policy="best",
                exact=budget is None and nodes is None,
                goal=goal,
                greedy=(g_total, g_tree),
                slots=runner.slots,
            )
            if drive(search, runner, seconds=budget, nodes=nodes):
                raise KeyboardInterrupt
            value, arrays, _ = search.incumbent
            upper, tree = value, arrays
            lower = max(lower0, search.floor())
            used += search.nodes
            passes += search.jobs
            memo = sum(search.workers_memo.values())
            if lower < upper:
                if goal is not None and lower >= goal:
                    stopped = "upper_bound"
                elif not search.done():
                    stopped = "nodes" if nodes is not None and search.nodes >= nodes else "time"
    finally:
        runner.close()
    return BestResponse(
        lower=Fraction(min(lower, upper), total),
        upper=Fraction(upper, total),
        tree=DecisionTree(words, *tree),
        weights=v,
        nodes=used,
        seconds=time.perf_counter() - t0,
        stopped=stopped,
        top_k=top_k,
        passes=passes,
        memo_states=memo,
    )


class BoundSearchOn:
    """:class:`jotto.responses.mean_search.BoundSearch` with its passes on an executor: a lower bound
    against one hider that rises for ``seconds`` on a thread of this process that only plans
    and merges tasks (the double oracle's proof beside its rounds)."""

    def __init__(
        self,
        executor: Executor,
        words: Words,
        hider: Hider,
        seconds: float,
        memory: int = DEFAULT_MEMORY,
    ) -> None:
        import threading

        wl = as_word_list(words)
        self.weights, self.total = weights_and_total(hider, len(wl))
        self._runner = TaskRunner(executor)
        self._search = OpenerSearch(
            wl, self.weights, memory, policy="best", slots=self._runner.slots
        )
        self._stop = threading.Event()
        self._failure: list[BaseException] = []

        def run() -> None:
            try:
                drive(self._search, self._runner, seconds=seconds, stop_when=self._stop.is_set)
            except BaseException as exc:
                self._failure.append(exc)
            finally:
                self._runner.close()

        self._thread = threading.Thread(target=run, name="jotto-lower-bound-tasks", daemon=True)
        self._thread.start()

    @property
    def lower(self) -> Fraction:
        """The lower bound proven so far (the least bound of an opener)."""
        return Fraction(self._search.floor(), self.total)

    def wait(self, timeout: float) -> bool:
        self._thread.join(timeout)
        if self._thread.is_alive():
            return False
        if self._failure:
            raise self._failure[0]
        return True

    def stop(self) -> Fraction:
        self._stop.set()
        self._thread.join()
        if self._failure:
            raise self._failure[0]
        return self.lower
