"""The double oracle's run behind :func:`jotto.solve`: its options checked, the rounds
started or resumed from a strategy file and stepped by :func:`jotto.solvers.driver.drive`, and
the lower bound its time budget proves, beside the rounds or after them."""

from __future__ import annotations

import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from ..._version import __version__
from ...game.hiding import hide_from_mask
from ...game.words import WordList
from ...responses.oracles import parse_oracle
from ...util import strategy_file
from ...util.interrupts import deferred_interrupts
from .. import driver
from ..driver import Request, SolveInterrupted
from ..solution import words_payload
from .algorithm import PROVE_SHARE, DoubleOracle
from .solution import DoubleOracleSolution

__all__ = ["check", "run"]


def check(request: Request, certificate: Any) -> Request:
    """The request with the double oracle's default oracle (the exact best response), or
    :class:`ValueError` naming what it does not take."""
    if request.mode is not None:
        raise ValueError(
            f"mode={request.mode!r} is fictitious play's: the double oracle has no mode"
        )
    return request._replace(oracle=parse_oracle(request.oracle or "best-response"))


def run(
    wl: WordList, request: Request, payload: dict[str, Any] | None, path: Path | None
) -> DoubleOracleSolution:
    """The double oracle on ``wl`` as ``request`` asks (its iterations are rounds, its target
    epsilon the width of the value interval), resuming ``payload`` (read from ``path``) if
    given, checkpointing to ``path``."""
    oracle, rounds, target_width = request.oracle, request.iterations, request.target_epsilon
    time_budget, threads, executor = request.time_budget, request.threads, request.executor
    plan = {
        "rounds": rounds,
        "target_width": target_width,
        "time_budget": time_budget,
        "oracle": oracle.spec,
    }
    hidden = None if request.hide_from is None else hide_from_mask(wl, request.hide_from)
    with strategy_file.naming(path):
        run = (
            DoubleOracle(wl, oracle, threads, executor=executor, hidden=hidden)
            if payload is None
            else DoubleOracle.restore(wl, payload, oracle, threads, executor)
        )
    if payload is not None and hidden is not None and not np.array_equal(run.hidden, hidden):
        raise strategy_file.StrategyFileError(
            f"{path}: a game whose hider hides other words than hide_from {request.hide_from}"
        )
    start_round = run.rounds
    bar = driver.progress_bar(
        request.progress, f"{wl.length} letters, double oracle", rounds, start_round
    )

    def limit_reached() -> bool:
        if rounds is not None and run.rounds - start_round >= rounds:
            return True
        return (
            target_width is not None
            and run.upper is not None
            and run.upper - run.lower <= Fraction(target_width)
        )

    def finished() -> bool:
        return run.done or limit_reached()

    def status() -> dict[str, str]:
        return {
            "value": f"[{float(run.lower):.4f}, {float(run.upper):.4f}]",
            "trees": str(len(run.trees)),
        }

    def extra() -> dict[str, Any]:
        return {"words": words_payload(wl), "plan": plan, "jotto_version": __version__}

    def step() -> None:  # each round also takes what the proof beside the rounds proved
        run.step()
        run.take_side_bound()

    def save(fresh: bool = False) -> None:  # a checkpoint; fresh: with the run's best guesser
        strategy_file.write(path, {**run.payload(fresh), **extra()})

    # The rounds' own searches prove little at 3 letters and more, so a time budget also goes
    # to proving a lower bound: with a second thread, all of it, beside the rounds
    # (DoubleOracle.prove_beside; hedge rounds use one core); else its last part, and whatever
    # the rounds leave, after them (DoubleOracle.prove).
    started = time.monotonic()
    beside = (
        time_budget is not None
        and run.hedges
        and (threads > 1 or executor is not None)
        and not finished()
    )
    if beside:
        run.prove_beside(time_budget)
    rounds_budget = time_budget
    if time_budget is not None and not beside:
        rounds_budget = time_budget * (1 - PROVE_SHARE)
    if rounds_budget is not None:
        run.deadline = started + rounds_budget
    try:
        interrupted = driver.drive(
            step,
            finished,
            status,
            None if path is None else save,
            bar,
            rounds_budget,
            request.checkpoint_seconds,
            close=False,
        )
        try:
            if beside:
                left = time_budget - (time.monotonic() - started)
                if _end_side_proof(run, interrupted or limit_reached(), bar, left):
                    interrupted = True
                if path is not None:
                    save()
        finally:
            run.take_side_bound(stop=True)  # no-op unless an error or a 2nd Ctrl-C came first
        if interrupted:
            raise SolveInterrupted(run.rounds, path, "round")
        if time_budget is not None and not beside and run.lower < run.upper and not limit_reached():
            seconds = time_budget - (time.monotonic() - started)
            if bar is not None:
                driver.note(
                    bar,
                    f"{wl.length} letters, double oracle: proving a lower bound on the "
                    f"value for {max(seconds, 0):.0f} s",
                )
            try:
                run.prove(seconds)
            except KeyboardInterrupt:  # the rounds are saved; the proof is what Ctrl-C stopped
                raise SolveInterrupted(run.rounds, path, "round") from None
            if path is not None:
                save()
        if path is not None and run.filed_stale:
            save(fresh=True)
    finally:
        driver.close_bar(bar, status)  # after the proofs: its last postfix is the result's interval
    return run.solution(extra())


def _end_side_proof(run: DoubleOracle, now: bool, bar: Any, seconds: float) -> bool:
    """The rounds are over: stop the proof beside them (``now``), or let it use the rest of
    its time, and keep its bound.  Returns whether Ctrl-C or SIGTERM stopped it."""
    if now or run.met:
        run.take_side_bound(stop=True)
        return False
    if bar is not None and seconds >= 1:
        driver.note(
            bar,
            f"{run.words.length} letters, double oracle: proving a lower bound on the "
            f"value for {seconds:.0f} s more",
        )
    with deferred_interrupts() as stop:
        while not stop.requested and not run.side_proof_wait(0.2):
            pass
    run.take_side_bound(stop=True)
    return stop.requested
