"""What every solver's run shares: the loop that steps it with a progress bar, checkpoints and
Ctrl-C between steps (:func:`drive`), the bar, and :class:`SolveInterrupted`.  Each solver's
own run (``fictitious_play/run.py``, ``double_oracle/run.py``) builds on it;
:func:`jotto.solve` (:mod:`jotto.solvers.solving`) picks the run from the registry."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from ..util.checkpoints import Checkpoints
from ..util.interrupts import deferred_interrupts

__all__ = ["Request", "SolveInterrupted", "close_bar", "drive", "note", "progress_bar"]


class Request(NamedTuple):
    """What :func:`jotto.solve` asks of a solver's run, checked (the solver's ``check`` fills
    its defaults): its options as :func:`jotto.solve` documents them, ``threads`` resolved."""

    mode: str | None
    oracle: Any
    iterations: int | None
    target_epsilon: float | None
    time_budget: float | None
    threads: int
    progress: bool
    checkpoint_seconds: float
    executor: Any
    hide_from: Any = None


class SolveInterrupted(KeyboardInterrupt):
    """A solve stopped by Ctrl-C or SIGTERM between steps (``unit``: what its solver calls
    one, "iteration" or "round"); ``path`` holds its checkpoint (or is None)."""

    def __init__(self, iteration: int, path: Path | None, unit: str = "iteration"):
        super().__init__(iteration, path)
        self.iteration = iteration
        self.path = path
        self.unit = unit


def drive(
    step: Callable[[], None],
    finished: Callable[[], bool],
    status: Callable[[], dict[str, str]],
    save: Callable[[], None] | None,
    bar: Any,
    time_budget: float | None,
    checkpoint_seconds: float,
    close: bool = True,
) -> bool:
    """Run ``step`` until ``finished()`` or the time budget, with the progress bar, checkpoints
    every ``checkpoint_seconds`` (further apart when a save takes long:
    :class:`jotto.util.checkpoints.Checkpoints`) and a last save; Ctrl-C and SIGTERM stop it
    between steps.  Returns whether it was interrupted.  The bar is closed (its postfix where the run ended)
    unless ``close`` is false: then the caller has more to do and closes it
    (:func:`close_bar`)."""
    started = time.monotonic()
    last_status = started
    checkpoints = None if save is None else Checkpoints(save, checkpoint_seconds)
    with deferred_interrupts() as stop:
        while not finished() and not stop.requested:
            if time_budget is not None and time.monotonic() - started >= time_budget:
                break
            step()
            now = time.monotonic()
            if bar is not None:
                bar.update(1)
                if now - last_status > 0.2:  # our own clock (tqdm's last_print_t is wall time)
                    bar.set_postfix(refresh=False, **status())
                    last_status = now
            if checkpoints is not None:
                checkpoints.tick()
        if close:
            close_bar(bar, status)
        if save is not None:
            save()
    return stop.requested


def close_bar(bar: Any, status: Callable[[], dict[str, str]]) -> None:
    """Close the progress bar (if any) with its postfix where the run ended, however it
    stopped: the last line on the terminal agrees with the result."""
    if bar is not None:
        bar.set_postfix(refresh=False, **status())
        bar.close()


def note(bar: Any, text: str) -> None:
    """A line on standard error above the open progress bar ``bar``."""
    bar.write(text, file=sys.stderr)


def progress_bar(enabled: bool, desc: str, total: int | None, initial: int):
    """A tqdm bar on standard error (None unless ``enabled``) of ``total`` steps (None:
    unknown), ``initial`` done."""
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(
        total=total,
        initial=initial,
        unit="it",
        file=sys.stderr,
        dynamic_ncols=True,
        desc=desc,
        smoothing=0.1,
        bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} "
        "[{elapsed}<{remaining}, {rate_fmt}{postfix}]"
        if total
        else "{desc}: {n_fmt} [{elapsed}, {rate_fmt}{postfix}]",
    )
