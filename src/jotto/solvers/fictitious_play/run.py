"""Fictitious play's run behind :func:`jotto.solve`: its options checked, the run started or
resumed from a strategy file, stepped by :func:`jotto.solvers.driver.drive`, and its file's
payload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..._version import __version__
from ...game.words import WordList
from ...responses.oracles import Oracle, parse_oracle
from ...util import strategy_file
from ...util.strategy_file import StrategyFileError
from .. import driver
from ..driver import Request, SolveInterrupted
from ..solution import words_payload
from .algorithm import ExactPlay, FictitiousPlay, OraclePlay, PaperPlay, paper_iterations
from .codec import MAX_ITERATIONS, MODES
from .solution import FictitiousPlaySolution

__all__ = ["check", "run"]


def check(request: Request, certificate: Any) -> Request:
    """The request with fictitious play's defaults (exact mode, the greedy oracle), or
    :class:`ValueError` naming what it does not take."""
    mode = request.mode or "exact"
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; use 'exact' or 'paper'")
    oracle = parse_oracle(request.oracle or "greedy")
    if oracle.kind != "greedy" and mode != "exact":
        raise ValueError(
            "paper mode is the paper's algorithm, with the greedy oracle; other "
            "oracles run in exact mode"
        )
    if request.iterations is not None and request.iterations > MAX_ITERATIONS:
        raise ValueError(f"iterations must be at most {MAX_ITERATIONS}, not {request.iterations}")
    if certificate is not None:
        raise ValueError(
            "certificate: only the double oracle certifies a bound on the "
            "game's value (method='double-oracle')"
        )
    if request.hide_from is not None:
        raise ValueError(
            "hide_from: only the double oracle solves the game whose secrets "
            "are restricted (method='double-oracle')"
        )
    if request.executor is not None:
        raise ValueError("an executor runs the double oracle's proofs; fictitious play has none")
    return request._replace(mode=mode, oracle=oracle)


def run(
    wl: WordList, request: Request, payload: dict[str, Any] | None, path: Path | None
) -> FictitiousPlaySolution:
    """Fictitious play on ``wl`` as ``request`` asks, resuming ``payload`` (read from
    ``path``) if given, checkpointing to ``path``."""
    mode, the_oracle = request.mode, request.oracle
    iterations, target_epsilon = request.iterations, request.target_epsilon
    if payload is not None and payload.get("mode") != mode:
        raise StrategyFileError(f"{path}: made in {payload.get('mode')} mode, not {mode}")
    horizon = (
        iterations
        or (payload or {}).get("plan", {}).get("iterations")
        or paper_iterations(wl.length)
    )
    if payload is not None and horizon < int(payload["iterations_done"]):
        horizon = int(payload["iterations_done"])
    plan = {
        "iterations": horizon,
        "target_epsilon": target_epsilon,
        "time_budget": request.time_budget,
    }

    if payload is not None and payload.get("oracle", "greedy") != the_oracle.spec:
        raise StrategyFileError(
            f"{path}: made with the {payload.get('oracle', 'greedy')} oracle, not {the_oracle.spec}"
        )
    run = _start(wl, mode, the_oracle, request.threads, horizon, payload, path)
    bar = driver.progress_bar(request.progress, f"{wl.length} letters, {mode}", horizon, run.t)

    def finished() -> bool:
        return run.t >= horizon or (
            target_epsilon is not None and run.epsilon[-1] <= target_epsilon
        )

    def status() -> dict[str, str]:
        # eps: the result's epsilon (at t*, the least so far), as the table reports it; now:
        # the last iteration's
        return {
            "eps": f"{run.epsilon[run.t_star]:.4f}",
            "t*": str(run.t_star),
            "now": f"{run.epsilon[-1]:.4f}",
        }

    save = None if path is None else (lambda: strategy_file.write(path, _payload(wl, run, plan)))
    if driver.drive(
        run.step, finished, status, save, bar, request.time_budget, request.checkpoint_seconds
    ):
        raise SolveInterrupted(run.t, path)
    return FictitiousPlaySolution(wl, _payload(wl, run, plan))


def _start(
    wl: WordList,
    mode: str,
    oracle: Oracle,
    threads: int,
    horizon: int,
    payload: dict[str, Any] | None,
    path: Path | None,
) -> FictitiousPlay:
    if payload is None:
        run: FictitiousPlay = (
            OraclePlay(wl, threads, oracle)
            if oracle.kind != "greedy"
            else ExactPlay(wl, threads)
            if mode == "exact"
            else PaperPlay(wl, threads, horizon)
        )
        run.step()
        return run
    with strategy_file.naming(path):
        if oracle.kind != "greedy":
            return OraclePlay.restore(wl, threads, oracle, payload)
        if mode == "exact":
            return ExactPlay.restore(wl, threads, payload)
        return PaperPlay.restore(wl, threads, horizon, payload)


def _payload(wl: WordList, run: FictitiousPlay, plan: dict[str, Any]) -> dict[str, Any]:
    p = run.payload()
    p["solver"] = FictitiousPlaySolution.solver
    p["words"] = words_payload(wl)
    p["plan"] = plan
    p["jotto_version"] = __version__
    return p


def _payload(wl: WordList, run: FictitiousPlay, plan: dict[str, Any]) -> dict[str, Any]:
    p = run.payload()
    p["solver"] = FictitiousPlaySolution.solver
    p["words"] = words_payload(wl)
    p["plan"] = plan
    p["jotto_version"] = __version__
    return p
