"""The value of every opener: for each first guess, the certified interval of the expected number
of guesses of the best trees that start with it (:func:`opener_values`, ``jotto openers``).

The lower end of an opener's interval is proven by the branch and bound (a pass whose first
guess is forced to the opener, :mod:`jotto.responses.proof.work_units`); the upper end is the value of an
explicit tree starting with it, kept in the table (:meth:`OpenerTable.tree`).  The best
response's interval is the least lower end and the least upper end; an opener is proven best
when its upper end is at most every other opener's lower end.  Wordle's exact values for every
first guess were published the same way: as a value per opener, each a proof of its own.

How the work is shared out (:mod:`jotto.responses.proof.opener_search`): first a top-1 and a top-2 tree for
every opener (seconds at 3 letters), with lower ends from counting alone; then, within the
budget, lower-bound passes with rising beta and better trees, for the openers that could be
best and the ``focus`` openers with the best trees.  Without a budget every opener's value is
found exactly.  The work runs in this process, or as tasks of about a second or more on any
:class:`concurrent.futures.Executor` (:mod:`jotto.responses.proof.distributed`): exact values are the same
whatever runs them; budgeted intervals are proven bounds whatever runs them, but how far they
narrow depends on timing.

A run with an output file checkpoints it (atomically, with every finished task's duration) and
continues from it (``resume``) after Ctrl-C, SIGTERM, SIGKILL or a lost client.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Executor
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from .._version import __version__
from ..engine.runtime import resolve_threads
from ..game.trees import DecisionTree
from ..game.words import WordList
from ..responses.gbr import as_word_list
from ..responses.proof.distributed import TaskRunner, check_executor, drive
from ..responses.proof.opener_search import OpenerSearch
from ..responses.proof.work_units import INF
from ..responses.result import DEFAULT_MEMORY, HideFrom, Hider, Words, hider_of, weights_and_total
from ..util import strategy_file
from ..util.files import check_writable, output_lock
from ..util.strategy_file import StrategyFileError
from .solution import check_same_words, words_from_payload, words_payload

__all__ = ["OpenerTable", "OpenerValue", "OpenersInterrupted", "opener_values"]

#: The strategy file's solver name for an opener table, and the version of its payload: 2 keeps
#: trees packed (:mod:`jotto.game.packed_trees`), 1 (still read) as their four arrays.
SOLVER = "openers"
TABLE_VERSION = 2


class OpenersInterrupted(KeyboardInterrupt):
    """An opener table stopped by Ctrl-C or SIGTERM; ``path`` holds its checkpoint (or None),
    ``table`` what it had proven."""

    def __init__(self, table: OpenerTable, path: Path | None):
        super().__init__(path)
        self.table = table
        self.path = path


@dataclass(frozen=True)
class OpenerValue:
    """One opener: ``lower`` is proven, ``upper`` is the value of a tree starting with it (None
    if none was built yet), both in expected guesses against the hider."""

    word: str
    lower: Fraction
    upper: Fraction | None

    @property
    def exact(self) -> bool:
        return self.upper is not None and self.lower == self.upper

    @property
    def width(self) -> Fraction | None:
        return None if self.upper is None else self.upper - self.lower

    def __repr__(self) -> str:
        upper = "None" if self.upper is None else f"{float(self.upper):.4f}"
        return (
            f"OpenerValue({self.word!r}, lower={float(self.lower):.4f}, upper={upper}, "
            f"exact={self.exact})"
        )


@dataclass(frozen=True, eq=False)
class OpenerTable:
    """What :func:`opener_values` proved.

    Attributes:
        words, weights: the word list and the hider's integer weights.
        rows: one per word, sorted by upper end, then lower end, then list order.
        complete: every opener's value is exact.
        stopped: why the run ended early: None, "time" or "interrupted".
        seconds: wall-clock time of the runs that made the table (all of them, when resumed).
        tasks, nodes: tasks run and states searched.
        workers: tasks the executor ran at once (in this process, its threads).
        lost: tasks run again after their worker was lost.
        log: a record per finished task (kind, the tasks it followed, states, seconds, worker):
            what ``bench/replay.py`` replays on more workers.
    """

    words: WordList
    weights: np.ndarray = field(repr=False)
    rows: tuple[OpenerValue, ...] = field(repr=False)
    complete: bool
    stopped: str | None
    seconds: float
    tasks: int
    nodes: int
    workers: int
    lost: int
    log: tuple = field(repr=False)
    _trees: dict = field(repr=False)

    def __len__(self) -> int:
        """The openers: one row per word."""
        return len(self.rows)

    def __iter__(self) -> Iterator[OpenerValue]:
        """The rows, in their order (upper end, lower end, list order)."""
        return iter(self.rows)

    def __repr__(self) -> str:
        upper = "None" if self.upper is None else f"{float(self.upper):.4f}"
        stopped = "" if self.stopped is None else f", stopped={self.stopped!r}"
        return (
            f"OpenerTable({len(self.rows)} openers of {self.words.describe()}, "
            f"lower={float(self.lower):.4f}, upper={upper}, complete={self.complete}"
            f"{stopped}, tasks={self.tasks}, seconds={self.seconds:.3g})"
        )

    def __getitem__(self, word: str) -> OpenerValue:
        for row in self.rows:
            if row.word == word:
                return row
        raise KeyError(f"{word!r} is not a word of the list")

    @property
    def lower(self) -> Fraction:
        """The least lower end, a proven lower bound on the best response."""
        return min(r.lower for r in self.rows)

    @property
    def upper(self) -> Fraction | None:
        """The least upper end, the value of the best tree found."""
        return min((r.upper for r in self.rows if r.upper is not None), default=None)

    @property
    def best(self) -> tuple[str, ...]:
        """The openers proven best, each with an upper end at most every other opener's lower
        end (one word, or several whose exact values tie; empty while none is proven)."""
        out = []
        for row in self.rows:
            if row.upper is None:
                break
            if all(row.upper <= other.lower for other in self.rows if other is not row):
                out.append(row.word)
        return tuple(out)

    def tree(self, word: str) -> DecisionTree:
        """The tree starting with ``word`` whose value is its row's upper end."""
        arrays = self._trees.get(word)
        if arrays is None:
            self[word]  # KeyError for a word not in the list
            raise ValueError(f"no tree starting with {word!r} was built")
        return DecisionTree(self.words, *arrays)

    def as_dict(self) -> dict[str, Any]:
        """The table as JSON-ready data (floats, and the exact fractions as strings)."""

        def num(x):
            return None if x is None else float(x)

        return {
            "words": {
                "source": self.words.source,
                "size": len(self.words),
                "length": self.words.length,
                "rules": self.words.rules.name,
                "sha256": self.words.sha256,
            },
            "best_response": [num(self.lower), num(self.upper)],
            "best": list(self.best),
            "complete": self.complete,
            "stopped": self.stopped,
            "seconds": self.seconds,
            "tasks": self.tasks,
            "nodes": self.nodes,
            "workers": self.workers,
            "lost": self.lost,
            "openers": [
                {
                    "word": r.word,
                    "lower": num(r.lower),
                    "upper": num(r.upper),
                    "exact": r.exact,
                    "lower_exact": str(r.lower),
                    "upper_exact": None if r.upper is None else str(r.upper),
                }
                for r in self.rows
            ],
        }

    def to_csv(self) -> str:
        """The rows as CSV: word, lower, upper, exact, and the exact fractions."""
        lines = ["word,lower,upper,exact,lower_exact,upper_exact"]
        for r in self.rows:
            up = "" if r.upper is None else f"{float(r.upper):.6f}"
            lines.append(
                f"{r.word},{float(r.lower):.6f},{up},{int(r.exact)},{r.lower},"
                f"{'' if r.upper is None else r.upper}"
            )
        return "\n".join(lines) + "\n"

    @classmethod
    def load(cls, path: str | os.PathLike[str], words: WordList | None = None) -> OpenerTable:
        """The table an ``opener_values(..., out=path)`` run saved (finished or not)."""
        payload = _read(Path(path))
        stored = _stored_words(Path(path), payload, words)
        v = _stored_weights(Path(path), payload, len(stored))
        search = _search(stored, v, _stored_plan(Path(path), payload), DEFAULT_MEMORY)
        try:
            search.restore(payload["search"])
        except (KeyError, TypeError, ValueError) as exc:
            raise StrategyFileError(f"{os.fspath(path)}: malformed table ({exc})") from None
        return _table(
            search,
            payload.get("stopped"),
            float(payload.get("seconds", 0.0)),
            int(payload.get("workers", 1)),
            int(payload.get("lost", 0)),
        )


def _search(
    words: WordList, v: np.ndarray, plan: dict[str, Any], memory: int, slots: int = 1
) -> OpenerSearch:
    return OpenerSearch(
        words,
        v,
        memory,
        policy="table",
        exact=plan.get("budget") is None,
        focus=int(plan.get("focus", 10)),
        width=plan.get("width"),
        slots=slots,
    )


def _check(name: str, value: Any, kind: str) -> None:
    if value is None:
        return
    if kind == "int":
        ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value > 0
    else:
        ok = (
            isinstance(value, (int, float))
            and not isinstance(value, bool)
            and math.isfinite(value)
            and value > 0
        )
    if not ok:
        what = "a positive integer" if kind == "int" else "a positive finite number"
        raise ValueError(f"{name} must be {what} or None, not {value!r}")


def _check_plan(budget: Any, focus: Any, width: Any) -> None:
    """A run's plan, as given or as its file stored it: :class:`ValueError` naming the value."""
    _check("budget", budget, "float")
    _check("focus", focus, "int")
    _check("width", width, "float")


def opener_values(
    words: Words,
    hider: Hider = None,
    *,
    hide_from: HideFrom = None,
    budget: float | None = None,
    executor: Executor | None = None,
    focus: int = 10,
    width: float | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    progress: bool = False,
    checkpoint_seconds: float = 10.0,
    memory: int = DEFAULT_MEMORY,
    slots: int | None = None,
    threads: int | None = None,
) -> OpenerTable:
    """For every first guess, the certified interval of the expected guesses of the best trees
    starting with it (see the module docstring).

    Args:
        words: a :class:`~jotto.game.words.WordList` or a sequence of words.
        hider: the hider's weights, as :func:`jotto.best_response` takes them (None: uniform).
        hide_from: instead of ``hider``, the words the hider may hide, each equally likely,
            as :func:`jotto.best_response` takes them (``"sgb:500"``, a word file).
        budget: seconds (None: until every opener's value is exact, which is feasible for small
            lists only).  A resumed run gets this much more.
        executor: where the tasks run: any :class:`concurrent.futures.Executor` (a Dask
            client's ``get_executor()``, a ``ProcessPoolExecutor``); None: this process.  The
            caller keeps it (it is not shut down), unless it breaks (a process pool whose
            worker died is replaced by a new one, which the run shuts down).
        focus, width: the budget's focus: the ``focus`` openers with the best trees are
            narrowed until each is within ``width`` expected guesses (None: until exact),
            beside raising the lowest lower ends.
        out: file to checkpoint to (a strategy file, see :meth:`OpenerTable.load`); written
            atomically every ``checkpoint_seconds`` and at the end.
        resume: continue the table in ``out`` (same words, rules and weights).
        progress: a progress bar on standard error.
        memory: bytes each worker's search may take for its memo (in this process, each
            thread's: ``threads`` searches).
        slots: tasks the executor runs at once (default: asked of it, see
            :func:`jotto.responses.proof.distributed.executor_slots`); the run keeps twice as many in flight
            and shares cheap work out among them.  More than it has plans the tasks a larger
            cluster would run (``bench/replay.py`` replays their log).
        threads: without an executor, the tasks run at once in this process (as elsewhere,
            :func:`jotto.resolve_threads`), each on a thread of its own with a search of its
            own and each pass on one thread, as that many worker processes would run them.
            Exact values do not depend on it.

    Raises:
        OpenersInterrupted: on Ctrl-C or SIGTERM (after saving ``out``).
        ValueError, StrategyFileError: bad arguments or a file of another table.
        FileLockedError: another process is writing ``out``.
    """
    wl = as_word_list(words)
    v, _ = weights_and_total(hider_of(wl, hider, hide_from), len(wl))
    _check_plan(budget, focus, width)
    _check("checkpoint_seconds", checkpoint_seconds, "float")
    _check("slots", slots, "int")
    if isinstance(memory, bool) or not isinstance(memory, (int, np.integer)) or memory < 2**20:
        raise ValueError(f"memory must be at least 2**20 bytes, not {memory!r}")
    if resume and out is None:
        raise ValueError("resume needs the table's file (out)")
    check_executor(executor)
    nthreads = resolve_threads(threads)
    plan = {"budget": budget, "focus": int(focus), "width": width}
    path = None if out is None else Path(out)
    args = (
        wl,
        v,
        plan,
        executor,
        path,
        resume,
        progress,
        checkpoint_seconds,
        int(memory),
        slots,
        nthreads,
    )
    if path is None:
        return _run(*args)
    check_writable(path)
    with output_lock(path):
        return _run(*args)


def _run(
    wl: WordList,
    v: np.ndarray,
    plan: dict[str, Any],
    executor: Executor | None,
    path: Path | None,
    resume: bool,
    progress: bool,
    checkpoint_seconds: float,
    memory: int,
    slots: int | None,
    threads: int,
) -> OpenerTable:
    runner = TaskRunner(executor, slots=slots, threads=threads)
    search = _search(wl, v, plan, memory, runner.slots)
    before, lost_before = 0.0, 0
    if resume and path is not None and path.exists():
        payload = _read(path)
        stored = _stored_words(path, payload, wl)
        if not np.array_equal(_stored_weights(path, payload, len(stored)), v):
            raise StrategyFileError(f"{path}: made against another hider's weights")
        try:
            search.restore(payload["search"])
        except (KeyError, TypeError, ValueError) as exc:
            raise StrategyFileError(f"{path}: malformed table ({exc})") from None
        before = float(payload.get("seconds", 0.0))
        lost_before = int(payload.get("lost", 0))
    t0 = time.perf_counter()
    bar = _Progress(search, plan["budget"], before) if progress else None

    def table(stopped: str | None) -> OpenerTable:
        return _table(
            search,
            stopped,
            before + time.perf_counter() - t0,
            runner.slots,
            lost_before + runner.lost,
        )

    def save(stopped: str | None = "interrupted") -> None:
        if path is not None:
            strategy_file.write(path, _payload(wl, v, plan, search, table(stopped)))

    try:
        interrupted = drive(
            search,
            runner,
            seconds=plan["budget"],
            save=None if path is None else save,
            checkpoint_seconds=checkpoint_seconds,
            progress=None if bar is None else bar.update,
        )
    finally:
        runner.close()
    stopped = "interrupted" if interrupted else None if search.done() else "time"
    result = table(stopped)
    save(stopped)
    if interrupted:
        raise OpenersInterrupted(result, path)
    return result


class _Progress:
    """A progress bar on standard error: the time budget spent, or the openers made exact."""

    def __init__(self, search: OpenerSearch, budget: float | None, before: float) -> None:
        from tqdm import tqdm

        self.search, self.budget = search, budget
        self.t0 = time.monotonic()
        total = budget if budget is not None else len(search.live)
        self.bar = tqdm(
            total=total,
            unit="s" if budget is not None else "openers",
            file=sys.stderr,
            dynamic_ncols=True,
            desc="openers",
            smoothing=0.1,
            bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total:.0f} "
            "[{elapsed}<{remaining}{postfix}]",
        )
        self.last = 0.0

    def update(self, outcome) -> None:
        now = time.monotonic()
        if outcome is not None and now - self.last < 0.2:
            return
        self.last = now
        s = self.search
        n = (
            min(now - self.t0, self.budget)
            if self.budget is not None
            else sum(r.exact for r in s.live)
        )
        self.bar.n = n
        W = s.total
        best = s.best_upper()
        self.bar.set_postfix(
            refresh=False,
            floor=f"{s.floor() / W:.4f}",
            best="-" if best >= INF else f"{best / W:.4f}",
            exact=f"{sum(r.exact for r in s.live)}/{len(s.live)}",
            tasks=len(s.log),
        )
        self.bar.refresh()
        if outcome is None:
            self.bar.close()


def _table(
    search: OpenerSearch, stopped: str | None, seconds: float, workers: int, lost: int
) -> OpenerTable:
    """The table of the search's rows.  An opener that tells no target of positive weight
    apart costs a guess more than the best response: its lower end is W more than the least
    one of the others."""
    W = search.total
    wl = search.words
    live = search.live
    low = min((r.lower for r in live), default=0)
    rows, trees = [], {}
    for r in search.rows:
        upper = None if r.upper >= INF else r.upper
        lower = r.lower if r.narrows else max(r.lower, W + low)
        if upper is not None:
            lower = min(lower, upper)
        rows.append(
            (
                upper if upper is not None else INF,
                lower,
                r.word,
                OpenerValue(
                    wl[r.word], Fraction(lower, W), None if upper is None else Fraction(upper, W)
                ),
            )
        )
        if r.tree is not None:
            trees[wl[r.word]] = r.tree
    rows.sort(key=lambda x: x[:3])
    complete = all(r.exact for r in live)
    return OpenerTable(
        wl,
        search.v,
        tuple(x[3] for x in rows),
        complete,
        None if complete else stopped,
        seconds,
        len(search.log),
        search.nodes,
        workers,
        lost,
        tuple(search.log),
        trees,
    )


# ---- the file ---------------------------------------------------------------------------------


def _payload(
    wl: WordList, v: np.ndarray, plan: dict[str, Any], search: OpenerSearch, table: OpenerTable
) -> dict[str, Any]:
    return {
        "solver": SOLVER,
        "table_version": TABLE_VERSION,
        "jotto_version": __version__,
        "words": words_payload(wl),
        "hider": [int(x) for x in v],
        "plan": plan,
        "stopped": table.stopped,
        "complete": table.complete,
        "seconds": table.seconds,
        "workers": table.workers,
        "lost": table.lost,
        "search": search.payload(),
    }


def _read(path: Path) -> dict[str, Any]:
    payload = strategy_file.read(path)
    if payload.get("solver") != SOLVER:
        raise StrategyFileError(
            f"{path}: not an opener table (made by the "
            f"{payload.get('solver', 'fictitious-play')} solver)"
        )
    version = payload.get("table_version")
    if type(version) is not int or not 1 <= version <= TABLE_VERSION:
        raise StrategyFileError(
            f"{path}: opener table version {version!r}"
            f" (this jotto reads versions 1 to {TABLE_VERSION})"
        )
    return payload


def _stored_words(path: Path, payload: dict[str, Any], words: WordList | None) -> WordList:
    try:
        stored = words_from_payload(payload)
        if words is not None:
            check_same_words(stored, words)
    except StrategyFileError as exc:
        raise StrategyFileError(f"{path}: {exc}") from None
    except (KeyError, TypeError) as exc:
        raise StrategyFileError(f"{path}: malformed table ({exc!r})") from None
    return stored if words is None else words


def _stored_plan(path: Path, payload: dict[str, Any]) -> dict[str, Any]:
    """The run's plan (budget, focus, width), checked as :func:`opener_values` checks them."""
    plan = payload.get("plan", {})
    try:
        _check_plan(plan.get("budget"), plan.get("focus", 10), plan.get("width"))
    except (AttributeError, ValueError) as exc:
        raise StrategyFileError(f"{path}: malformed plan ({exc})") from None
    return plan


def _stored_weights(path: Path, payload: dict[str, Any], size: int) -> np.ndarray:
    w = payload.get("hider")
    if (
        not isinstance(w, list)
        or len(w) != size
        or not all(type(x) is int and 0 <= x < 2**63 for x in w)
    ):
        raise StrategyFileError(f"{path}: malformed hider weights")
    return np.array(w, dtype=np.int64)


# ---- the best response on an executor ---------------------------------------------------------
