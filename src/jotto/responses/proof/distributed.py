"""Running work units (:mod:`jotto.responses.proof.work_units`) on a :class:`concurrent.futures.Executor`, or in
this process, and surviving the loss of workers.

Any executor with ``submit`` serves: the executor of a Dask client (``client.get_executor()``,
the supported cluster engine), a :class:`~concurrent.futures.ProcessPoolExecutor` (one machine),
mpi4py's ``MPIPoolExecutor``.  Tasks carry everything they need; a worker keeps its searches
between tasks (:mod:`jotto.responses.proof.work_units`), so jotto must be importable on the workers.

Faults.  A task whose worker died is submitted again (a new attempt; at most
:data:`MAX_ATTEMPTS` in all), and since every number a task returns is proven whatever its
worker had done before, the run's result does not change (exact results are identical;
budgeted bounds stay valid).  Dask reschedules a dead worker's tasks by itself; a
:class:`~concurrent.futures.ProcessPoolExecutor` whose process died is broken for good
(:class:`~concurrent.futures.process.BrokenProcessPool`), so the runner makes a new pool of
the same size and submits again every task the old one had not finished (the new pool is the
runner's, shut down when it closes; the caller's stays broken).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import socket
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, CancelledError, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool, ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from ...util.checkpoints import Checkpoints
from ...util.interrupts import deferred_interrupts, sigint_held
from .work_units import Outcome, Task, run_task

__all__ = [
    "GRACE_SECONDS",
    "MAX_ATTEMPTS",
    "TaskRunner",
    "WorkerLostError",
    "close_pool",
    "connect_scheduler",
    "drive",
    "executor_slots",
    "local_pool",
]

#: Attempts a task gets before the run gives up on it (a task that kills every worker it
#: meets, e.g. by running out of memory, would otherwise go round for ever).
MAX_ATTEMPTS = 5
#: How long a run whose time is up waits for the tasks in flight (each ends with the budget).
GRACE_SECONDS = 5.0
#: How long a process pool may keep a dead worker without breaking (see TaskRunner._watch).
STUCK_SECONDS = 5.0
#: Exceptions of distributed engines that mean "the worker (or the connection to it) was
#: lost", not "the task failed".
_LOST_NAMES = frozenset(
    {"KilledWorker", "CommClosedError", "FutureCancelledError", "WorkerLost", "StreamClosedError"}
)


class WorkerLostError(RuntimeError):
    """A task lost its worker :data:`MAX_ATTEMPTS` times."""


def _lost(exc: BaseException) -> bool:
    """Whether ``exc`` from a future says its worker was lost (the task may run again)."""
    from concurrent.futures import BrokenExecutor

    return isinstance(exc, (BrokenExecutor, CancelledError)) or type(exc).__name__ in _LOST_NAMES


def check_executor(executor: object) -> None:
    """:class:`ValueError` naming ``executor`` unless it is None or can run tasks (has
    ``submit``, as every :class:`concurrent.futures.Executor`)."""
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise ValueError(
            f"executor must be a concurrent.futures.Executor (a Dask client's "
            f"get_executor(), a ProcessPoolExecutor) or None, not {executor!r}"
        )


def executor_slots(executor: Executor | None) -> int:
    """How many tasks ``executor`` runs at once: a Dask client's threads, a pool's workers, else
    the CPUs of this machine (None: 1, this process)."""
    if executor is None:
        return 1
    client = getattr(executor, "_client", None)  # distributed's ClientExecutor
    if client is not None and hasattr(client, "nthreads"):
        return max(1, sum(client.nthreads().values()))
    for name in ("_max_workers", "num_workers"):
        n = getattr(executor, name, None)
        if isinstance(n, int) and n > 0:
            return n
    return os.cpu_count() or 1


def _worker_init() -> None:
    """A local pool's worker ignores Ctrl-C: the run that owns it stops it when it stops (the
    terminal sends SIGINT to the whole process group)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _WorkerProcess(multiprocessing.context.SpawnProcess):
    """A local worker started with SIGINT blocked in the thread that starts it: the new process
    inherits the mask across exec, so a Ctrl-C sent to the process group while it is still
    starting (unpickling, importing NumPy, before :func:`_worker_init` ignores SIGINT) cannot
    interrupt it with a traceback; in this process the signal only waits until the start is
    done."""

    def start(self) -> None:
        with sigint_held():
            super().start()


class _WorkerContext(multiprocessing.context.SpawnContext):
    """The "spawn" context, its processes started as :class:`_WorkerProcess`."""

    Process = _WorkerProcess


def local_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes for work units, each started afresh ("spawn": a forked
    copy of a process that has run OpenMP threads could hang in them, and a fork server is one
    more process a lost worker can take down with it)."""
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=_WorkerContext(), initializer=_worker_init
    )


def _end_processes(pool: ProcessPoolExecutor) -> None:
    """End ``pool``'s processes at once, and close this process's end of their result pipe: a
    worker ended while it sent a result leaves the pool's thread waiting for the rest of the
    message (see :meth:`TaskRunner._watch`); with every writer closed that read ends, and the
    pool breaks instead of waiting for ever."""
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        proc.terminate()
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None:
        writer.close()


def close_pool(executor: Executor) -> None:
    """Shut ``executor`` down without waiting for its tasks (a stopped run's tasks: their
    results are not wanted); a process pool's workers are ended at once, in a way that cannot
    leave the shutdown waiting for ever on a result a worker was sending when it ended."""
    if isinstance(executor, ProcessPoolExecutor):
        _end_processes(executor)
    executor.shutdown(wait=True, cancel_futures=True)


def _probe() -> str:
    """Run on a worker by :func:`connect_scheduler`: the jotto it imports."""
    from ..._version import __version__
    from ...engine import core  # noqa: F401  (the compiled core loads)

    return __version__


def _check_address(address: str, timeout: float) -> None:
    """:class:`ValueError` unless ``address`` is a scheduler's address a client could dial
    (``tcp://host:port``, ``host:port``, another scheme's): checked before a client is made,
    since one made for a malformed address fails at once but holds the process for seconds
    when it ends, then prints a traceback of its own; a TCP address where nothing listens is
    refused as fast (a plain connection is tried first, within ``timeout`` seconds)."""
    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port

    try:
        scheme, location = parse_address(address)
        host, port = None, None
        if scheme in ("tcp", "tls", "ws", "wss"):
            host, port = parse_host_port(location)
            if not host or any(c.isspace() for c in host):
                raise ValueError("no host name")
    except (ValueError, TypeError) as exc:
        raise ValueError(
            f"{address!r} is not the address of a Dask scheduler (like tcp://HOST:8786): {exc}"
        ) from None
    if scheme == "tcp" and port:
        # nothing listening: refused at once, before a client (slow to let go) is made
        try:
            socket.create_connection((host, port), timeout=timeout).close()
        except OSError as exc:
            raise ValueError(
                f"cannot reach a Dask scheduler at {address!r}: {exc.strerror or exc}"
            ) from None


def connect_scheduler(address: str, timeout: float = 5.0) -> Any:
    """A Dask client of the scheduler at ``address``, checked before any work: it answers
    within ``timeout`` seconds, has workers, and they run this version of jotto.
    :class:`ImportError` without ``dask.distributed``, :class:`ValueError` naming the problem
    otherwise."""
    try:
        from distributed import Client
    except ImportError:
        raise ImportError("--scheduler needs Dask: pip install 'jotto[distributed]'") from None
    from ..._version import __version__

    _check_address(address, timeout)
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ValueError(f"cannot reach a Dask scheduler at {address!r}: {text}") from None
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except (TimeoutError, OSError):
            raise ValueError(f"the Dask scheduler at {address!r} has no workers") from None
        try:
            versions = client.run(_probe)
        except Exception as exc:  # the workers' own error, whatever it is
            raise ValueError(
                f"the Dask workers at {address!r} cannot run jotto: {type(exc).__name__}: {exc}"
            ) from None
        other = sorted({v for v in versions.values() if v != __version__})
        if other:
            raise ValueError(
                f"the Dask workers at {address!r} run jotto {', '.join(other)}, not {__version__}"
            )
    except BaseException:
        client.close()
        raise
    return client


class TaskRunner:
    """Runs tasks on an executor, keeping track of what is in flight, submitting again the tasks
    of lost workers; or, without one, in this process.

    In this process, ``threads`` tasks run at once, each on a thread of its own (with a search
    of its own, :func:`~jotto.responses.proof.work_units.run_task`) and each pass on one thread,
    as ``threads`` worker processes would run them: a pass over a reply class (fewer than the
    core's 128 targets) does not run on threads, so passes taking turns on every thread left
    one core idle for most of an opener table once its openers were split into their classes.
    One thread: the tasks run one at a time in the calling thread.

    ``owned``: the runner shuts the executor down when it closes (a pool it made).  ``slots``:
    the tasks it runs at once (default: the executor's, :func:`executor_slots`, or ``threads``
    in this process)."""

    def __init__(
        self,
        executor: Executor | None,
        owned: bool = False,
        slots: int | None = None,
        threads: int = 1,
    ) -> None:
        self.executor = executor
        self.owned = owned
        self.threads = threads
        self.local = executor is None and threads > 1  # this process's threads as the workers
        if self.local:
            from concurrent.futures import ThreadPoolExecutor

            self.executor = ThreadPoolExecutor(threads, thread_name_prefix="jotto-task")
            self.owned = True
        self.slots = slots or (threads if executor is None else executor_slots(executor))
        self._futures: dict[Future, Task] = {}
        self._queue: deque[Task] = deque()  # tasks not run yet, one thread in this process
        self.cancel: list = []  # in this process: not empty stops the passes under way
        self.lost = 0  # tasks submitted again after their worker was lost
        self.rebuilt = 0  # pools made anew after one broke
        self._dead_since: float | None = None

    @property
    def in_flight(self) -> int:
        return len(self._futures) + len(self._queue)

    @property
    def capacity(self) -> int:
        """Tasks to keep in flight: twice the workers, so that none waits for the next while
        an outcome travels (in this process, one per thread: a task is planned when it can
        start)."""
        if self.executor is None:
            return 1
        return self.threads if self.local else 2 * self.slots

    def submit(self, task: Task) -> None:
        if self.executor is None:
            self._queue.append(task)
        elif self.local:
            self._futures[self.executor.submit(run_task, task, self.cancel)] = task
        else:
            self._futures[self.executor.submit(run_task, task)] = task

    def done(self, timeout: float | None = None) -> list[Outcome]:
        """Outcomes of finished tasks: waits (at most ``timeout`` seconds) for at least one.
        In this process, runs the next task.  Raises what a task raised, unless it says its
        worker was lost (then the task runs again)."""
        if self.executor is None:
            if not self._queue:
                return []
            return [run_task(self._queue.popleft(), self.cancel)]
        if not self._futures:
            return []
        self._watch()
        finished, _ = wait(list(self._futures), timeout=timeout, return_when=FIRST_COMPLETED)
        out: list[Outcome] = []
        lost: list[Task] = []
        broken = False
        for fut in finished:
            task = self._futures.pop(fut)
            try:
                out.append(fut.result())
            except BaseException as exc:
                if not _lost(exc):
                    raise
                broken |= isinstance(exc, BrokenProcessPool)
                lost.append(task)
        if broken:
            lost += self._rebuild()
        for task in lost:
            self._again(task)
        return out

    def _watch(self) -> None:
        """Break a process pool that has a dead worker but does not break by itself.

        CPython's pool can hang for ever when a worker is killed while it sends a result: the
        pool's thread waits for the rest of the message and never looks at the dead worker
        (seen with Python 3.11).  After STUCK_SECONDS of a dead worker, the pool's processes
        are ended and its end of the result pipe closed: the waiting read ends, the pool
        breaks, and its tasks fail with BrokenProcessPool (which done() handles)."""
        processes = getattr(self.executor, "_processes", None)
        if not isinstance(self.executor, ProcessPoolExecutor) or not processes:
            return
        try:
            dead = any(p.exitcode is not None for p in list(processes.values()))
        except (AttributeError, ValueError):
            return
        now = time.monotonic()
        if not dead:
            self._dead_since = None
            return
        if self._dead_since is None:
            self._dead_since = now
            return
        if now - self._dead_since < STUCK_SECONDS:
            return
        self._dead_since = None
        _end_processes(self.executor)

    def _again(self, task: Task) -> None:
        if task.attempt + 1 >= MAX_ATTEMPTS:
            raise WorkerLostError(
                f"task {task.ident} lost its worker {MAX_ATTEMPTS} times; giving up"
            )
        self.lost += 1
        self.submit(replace(task, attempt=task.attempt + 1))

    def _rebuild(self) -> list[Task]:
        """The process pool broke: a new one of the same size in its place; returns the tasks
        the old one had not finished (their futures fail with it)."""
        old = self.executor
        pending = []
        for fut, task in list(self._futures.items()):
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                continue  # finished well: collected by the next done()
            del self._futures[fut]
            pending.append(task)
        self.executor = ProcessPoolExecutor(
            max_workers=self.slots,
            mp_context=getattr(old, "_mp_context", None),
            initializer=getattr(old, "_initializer", None),
            initargs=getattr(old, "_initargs", ()),
        )
        if self.owned:
            old.shutdown(wait=False, cancel_futures=True)
        self.owned = True
        self.rebuilt += 1
        return pending

    def drop(self) -> None:
        """Forget the tasks in flight (the run stopped): their results are not waited for.  In
        this process the passes under way are stopped (they would go on taking its cores)."""
        self._queue.clear()
        for fut in self._futures:
            fut.cancel()
        if self.local and self._futures:
            self.cancel.append(True)
            wait(list(self._futures))
        self._futures.clear()
        self.cancel.clear()

    def close(self) -> None:
        """Shut an owned executor down, ending its processes at once (tasks still running
        there are the dropped ones of a stopped run)."""
        self.drop()
        if self.executor is not None and self.owned:
            close_pool(self.executor)


def drive(
    search: Any,
    runner: TaskRunner,
    *,
    seconds: float | None = None,
    nodes: int | None = None,
    save: Callable[[], None] | None = None,
    checkpoint_seconds: float = 10.0,
    progress: Callable[[Outcome | None], None] | None = None,
    stop_when: Callable[[], bool] | None = None,
) -> bool:
    """Run a step-driven search (``search.plan``, ``take``, ``done``, ``forget``, ``sent``,
    ``nodes``: :class:`jotto.responses.proof.opener_search.OpenerSearch`) on ``runner`` until it is done or
    its budget (``seconds``, ``nodes`` states) is spent, calling ``save`` every
    ``checkpoint_seconds`` and at the end and ``progress`` after each outcome (and once with
    None at the end).  Ctrl-C and SIGTERM stop it: the pass under way in this process ends
    with what it proved, tasks in flight on an executor are dropped; so does ``stop_when()``
    turning true (another thread's request).  Returns whether it was interrupted.

    Tasks in flight when the time is up end by themselves (their budgets end with it) and are
    waited for, at most :data:`GRACE_SECONDS` more."""
    started = time.monotonic()
    deadline = None if seconds is None else started + seconds
    checkpoints = None if save is None else Checkpoints(save, checkpoint_seconds)
    with deferred_interrupts(lambda: runner.cancel.append(True)) as stop:
        try:
            while not stop.requested:
                if stop_when is not None and stop_when():
                    break
                now = time.monotonic()
                left = None if deadline is None else deadline - now
                spent = left is not None and left <= 0
                nodes_left = None if nodes is None else nodes - search.nodes
                spent |= nodes_left is not None and nodes_left <= 0
                if not spent and not search.done():
                    free = runner.capacity - runner.in_flight
                    share = None if nodes_left is None else max(1, nodes_left // runner.slots)
                    for task in search.plan(free, left, share):
                        runner.submit(task)
                elif left is not None and left < -GRACE_SECONDS:
                    break
                if runner.in_flight == 0:
                    break
                wait_for = 1.0 if left is None else min(1.0, max(0.05, left + GRACE_SECONDS))
                for outcome in runner.done(wait_for):
                    search.take(outcome)
                    if progress is not None:
                        progress(outcome)
                if checkpoints is not None:
                    checkpoints.tick()
        finally:
            for ident in list(search.sent):
                search.forget(ident)
            runner.drop()
            if progress is not None:
                progress(None)
            if save is not None:
                save()
    return stop.requested
