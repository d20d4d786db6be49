"""Replay a distributed run's task log on simulated workers: how the proof would scale beyond
this machine.

Every task of an opener table (``jotto openers --out FILE``, :class:`jotto.OpenerTable`'s
``log``) records its duration and the tasks it followed (the previous passes of the openers or
classes it works on, whose results chose its beta).  The replay is list scheduling in the order
the tasks were submitted (the order a Dask scheduler runs tasks of equal priority): whenever a
simulated worker is free it starts the first task whose predecessors have finished, for the
task's recorded duration plus ``overhead`` (Dask's cost per task, about a millisecond).  The
makespan is compared with the ideal, the total work spread evenly (work / workers).

What it cannot show: with more workers a run would choose partly different work (it plans with
the results it has), so this measures the parallelism of the recorded work, not of a run made
on that many workers.

Run: ``python bench/replay.py TABLE.jotto [WORKERS ...]`` (default 16 64 256).
"""

from __future__ import annotations

import heapq
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: Dask's scheduling cost per task, seconds.
OVERHEAD = 0.001


@dataclass(frozen=True)
class Replay:
    workers: int
    makespan: float
    work: float

    @property
    def ideal(self) -> float:
        return self.work / self.workers

    @property
    def efficiency(self) -> float:
        """Ideal over makespan: 1 when no worker ever waits."""
        return self.ideal / self.makespan if self.makespan > 0 else 1.0


def replay(log: Sequence[dict], workers: int, overhead: float = OVERHEAD) -> Replay:
    """The makespan of the logged tasks on ``workers`` simulated workers (list scheduling in
    submission order; a task starts once the tasks it followed have finished)."""
    tasks = {e["task"]: e for e in log}
    children: dict[int, list[int]] = {t: [] for t in tasks}
    waiting: dict[int, int] = {}
    released: list[int] = []
    for t, e in tasks.items():
        deps = [d for d in e.get("after", []) if d in tasks]
        waiting[t] = len(deps)
        for d in deps:
            children[d].append(t)
        if not deps:
            released.append(t)
    heapq.heapify(released)
    running: list[tuple[float, int]] = []
    idle, now, work = workers, 0.0, 0.0
    while released or running:
        while idle and released:
            t = heapq.heappop(released)
            duration = tasks[t]["seconds"] + overhead
            work += duration
            heapq.heappush(running, (now + duration, t))
            idle -= 1
        now, t = heapq.heappop(running)
        idle += 1
        for c in children[t]:
            waiting[c] -= 1
            if not waiting[c]:
                heapq.heappush(released, c)
    return Replay(workers, now, work)


def critical_chain(log: Sequence[dict], overhead: float = OVERHEAD) -> list[dict]:
    """The longest chain of tasks that follow each other, first task first."""
    tasks = {e["task"]: e for e in log}
    finish: dict[int, float] = {}
    before: dict[int, int | None] = {}
    for t in sorted(tasks):
        deps = [d for d in tasks[t].get("after", []) if d in finish]
        last = max(deps, key=finish.__getitem__, default=None)
        before[t] = last
        finish[t] = (finish[last] if last is not None else 0.0) + tasks[t]["seconds"] + overhead
    t = max(finish, key=finish.__getitem__, default=None)
    chain = []
    while t is not None:
        chain.append(tasks[t])
        t = before[t]
    return chain[::-1]


def critical_path(log: Sequence[dict], overhead: float = OVERHEAD) -> float:
    """The longest chain of tasks that follow each other: the makespan on unlimited workers."""
    return sum(e["seconds"] + overhead for e in critical_chain(log, overhead))


def _on(entry: dict) -> str:
    """What a task's passes were on: groups of a class's first guesses, classes, or openers."""
    if entry.get("groups"):
        return "/groups"
    return "/classes" if entry.get("classes") else ""


def report(log: Sequence[dict], workers: Iterable[int] = (1, 2, 16, 64, 256)) -> str:
    chain = critical_chain(log)
    lines = [
        f"{len(log)} tasks, {sum(e['seconds'] for e in log):.1f} s of work, critical path "
        f"{critical_path(log):.1f} s: {len(chain)} tasks ("
        + ", ".join(f"{e['kind']}{_on(e)} {e['seconds']:.1f}" for e in chain)
        + ")",
        f"{'workers':>8} {'makespan':>10} {'work/workers':>13} {'efficiency':>11}",
    ]
    for p in workers:
        r = replay(log, p)
        lines.append(f"{p:>8} {r.makespan:>10.1f} {r.ideal:>13.1f} {r.efficiency:>10.1%}")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    import jotto

    table = jotto.OpenerTable.load(argv[0])
    workers = [int(a) for a in argv[1:]] or [16, 64, 256]
    print(report(table.log, workers))


if __name__ == "__main__":
    main(sys.argv[1:])
