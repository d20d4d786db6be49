"""Work units of the proving search: what one worker process computes for a proof that runs on
many (:mod:`jotto.responses.proof.distributed` runs them, :mod:`jotto.solvers.openers` makes them).

A unit is a whole subtree of the best-response search (``mean_search``), never a node: one or
more passes of the compiled search (:class:`Job`), each over a state (every word, or the targets
of a reply class) and optionally with its first guesses forced (an opener), with a target
``beta``.  A pass either finds the state's exact value below ``beta`` or proves a lower bound;
with a budget it proves what it could.  Every number a unit returns is proven whatever the
worker had done before: the memo it reads holds only exact values and proven bounds.  A unit is
about a second of work or more (a distributed executor costs about a millisecond per task), so
cheap passes travel together in one :class:`Task`.

Each worker process keeps its searches (and their memos of exact values and bounds per state)
between tasks, keyed by a hash of the words, rules, weights and memory limit
(:attr:`Problem.key`): the tasks of one proof that a worker runs share one memo.  A process
keeps the searches of :data:`CACHED_PROBLEMS` problems; a worker with several threads gets one
search per thread running at once (a search is not shared between threads).

What a unit returns (:class:`JobResult`: the bound or exact value, the tree if asked, nodes,
seconds) is proven on its own; units write no certificate (:mod:`jotto.game.certificates` are
written by the search of one process).
"""

from __future__ import annotations

import hashlib
import os
import socket
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from ...engine import core

__all__ = ["CACHED_PROBLEMS", "INF", "Job", "JobResult", "Outcome", "Problem", "Task", "run_task"]

#: "No bound": a pass with this beta finds the exact value.
INF = core.BS_INF
#: Problems (word list, rules, weights) whose searches a worker process keeps.
CACHED_PROBLEMS = 2


@dataclass(frozen=True, eq=False)
class Problem:
    """What every unit of one proof shares: the words as the compiled core holds them (with
    their rules; :attr:`jotto.game.words.WordList.core`, which travels to workers as what
    makes it), the hider's integer weights and the memory each worker's search may use.
    ``key`` identifies it (a worker keeps one search per key)."""

    words: core.Words
    weights: np.ndarray
    memory: int
    key: str

    @classmethod
    def of(cls, words, weights: np.ndarray, memory: int) -> Problem:
        """The problem of a :class:`~jotto.game.words.WordList` against integer ``weights``."""
        listed = words.core
        tokens = np.ascontiguousarray(listed.tokens, dtype=np.uint64)
        spell = listed.spell
        spell = None if spell is None else np.ascontiguousarray(spell, dtype=np.uint64)
        v = np.ascontiguousarray(weights, dtype=np.int64)
        h = hashlib.sha256()
        for part in (tokens, spell if spell is not None else np.zeros(0, np.uint64), v):
            h.update(part.tobytes())
            h.update(b"|")
        h.update(f"{listed.length}|{listed.keep_all}|{listed.hard}|{int(memory)}".encode())
        return cls(listed, v, int(memory), h.hexdigest())

    def new_search(self) -> core.BestResponseSearch:
        return core.BestResponseSearch(self.words, self.weights, self.memory)


@dataclass(frozen=True)
class Job:
    """One pass of the search within a task.

    Attributes:
        targets: the state searched, increasing word indices (None: every word).
        first: the words the state's first guess may be (None: any), e.g. one opener.
        beta: find the value if it is below this, else prove a bound at least this.
        top_k, full_below: a top-K pass (``top_k > 0``; its value is the best restricted tree's,
            an upper bound), as :meth:`jotto._core.BestResponseSearch.run` takes them.
        by_size: share a guess's gap to beta among its classes by size (proves bounds with
            fewer states).
        tree: also return the tree when the value is a tree's (exact, or a top-K pass's).
        root: with ``tree``, the tree's first guess instead of the pass's (a word that need
            not narrow the state down: the tree then starts with it and goes on with the
            pass's tree; its total is the pass's value plus the state's weight).
    """

    targets: tuple[int, ...] | None = None
    first: tuple[int, ...] | None = None
    beta: int = INF
    top_k: int = 0
    full_below: int = 0
    by_size: bool = False
    tree: bool = False
    root: int | None = None


@dataclass(frozen=True)
class Task:
    """Jobs run one after the other on one worker within ``seconds`` (0: no limit) and
    ``nodes`` states (0: no limit) together.  ``ident`` and ``attempt`` name the submission
    (a task resubmitted after losing its worker is a new attempt, so that an executor that
    caches results by their arguments, as Dask does, runs it again)."""

    problem: Problem
    jobs: tuple[Job, ...]
    seconds: float = 0.0
    nodes: int = 0
    ident: int = 0
    attempt: int = 0


@dataclass(frozen=True)
class JobResult:
    """What one pass proved: ``value`` is the exact value (``exact``) or a proven lower bound
    (or, for a top-K pass, the best restricted tree's value); ``stopped``: "done", "time",
    "nodes" or "interrupted"; ``tree``: ``(total, guess, depth, size, children)`` when asked
    for and the value is a tree's (``total == value``)."""

    value: int
    exact: bool
    stopped: str
    nodes: int
    seconds: float
    tree: tuple | None = None


@dataclass(frozen=True)
class Outcome:
    """A finished task: a result per job run, in order (fewer than the jobs if its budget ran
    out first), where it ran (``host:pid``), when it started (:func:`time.time`), how long it
    took, and the states its worker's memo held then."""

    ident: int
    results: tuple[JobResult, ...]
    worker: str
    started: float
    seconds: float
    memo_states: int = 0


# ---- the worker's side ------------------------------------------------------------------------

_lock = threading.Lock()
#: Per problem key: the searches not in use (a list: one per thread that ran at once).
_idle: OrderedDict[str, list[core.BestResponseSearch]] = OrderedDict()


def _take_search(problem: Problem) -> core.BestResponseSearch:
    """A search of ``problem`` no other thread uses: the process's own (with its memo), or a
    new one.  Problems beyond the :data:`CACHED_PROBLEMS` most recent are forgotten."""
    with _lock:
        free = _idle.get(problem.key)
        if free is not None:
            _idle.move_to_end(problem.key)
            if free:
                return free.pop()
        else:
            _idle[problem.key] = []
            while len(_idle) > CACHED_PROBLEMS:
                _idle.popitem(last=False)
    return problem.new_search()


def _give_back(problem: Problem, search: core.BestResponseSearch) -> None:
    with _lock:
        free = _idle.get(problem.key)
        if free is not None:
            free.append(search)


def run_task(task: Task, cancel: list | None = None) -> Outcome:
    """Run ``task`` in this process (a worker's entry point), each pass on one thread (a worker
    is one slot of its executor).  ``cancel``: a list that stops the pass under way once it is
    not empty (in-process runs, on Ctrl-C); the jobs not run are left out of the outcome."""
    started, t0 = time.time(), time.perf_counter()
    search = _take_search(task.problem)
    results: list[JobResult] = []
    try:
        nodes_left = task.nodes
        for job in task.jobs:
            seconds = 0.0
            if task.seconds > 0:
                seconds = task.seconds - (time.perf_counter() - t0)
                if seconds <= 0:
                    break
            if task.nodes > 0 and nodes_left <= 0:
                break
            result = _run_job(search, job, seconds, max(nodes_left, 0), cancel)
            results.append(result)
            nodes_left -= result.nodes
            if result.stopped == "interrupted":
                break
        memo_states = search.memo_stats()[0]
    finally:
        _give_back(task.problem, search)
    return Outcome(
        task.ident,
        tuple(results),
        f"{socket.gethostname()}:{os.getpid()}",
        started,
        time.perf_counter() - t0,
        memo_states,
    )


def _run_job(
    search: core.BestResponseSearch,
    job: Job,
    seconds: float,
    nodes: int,
    cancel: list | None,
) -> JobResult:
    t0 = time.perf_counter()
    value, exact, stop, best, guess, n = search.run(
        top_k=job.top_k,
        beta=job.beta,
        seconds=seconds,
        nodes=nodes,
        by_size=job.by_size,
        cancel=cancel,
        full_below=job.full_below,
        targets=job.targets,
        first_guesses=job.first,
    )
    tree = None
    if job.tree and exact:  # a top-K pass is exact when it finished: its best restricted tree
        root = job.root if job.root is not None else guess if job.first is not None else -1
        built = search.tree(job.top_k, root, targets=job.targets)
        if job.root is None and built[0] != value:
            raise RuntimeError(f"jotto core: tree total {built[0]} != search value {value}")
        tree = built
    return JobResult(int(value), bool(exact), stop, int(n), time.perf_counter() - t0, tree)
