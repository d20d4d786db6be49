"""``jotto.solve``: run a solver (fictitious play or the double oracle) with progress, stopping
rules, checkpoints and resumption.

A run with an output file checkpoints it every ``checkpoint_seconds`` (atomically) and on
interruption, so a run stopped anyhow (Ctrl-C, SIGTERM, SIGKILL, power loss) resumes from its last
checkpoint and finishes bit-identical to an uninterrupted run (only the recorded timings differ).
"""

from __future__ import annotations

import math
import os
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from .. import __version__
from ..util import strategy_file
from .double_oracle.algorithm import PROVE_SHARE, DoubleOracle
from .fictitious_play.algorithm import (MODES, ExactPlay, FictitiousPlay, OraclePlay, PaperPlay,
                              paper_iterations)
from ..util.files import check_writable, output_lock, quote
from ..util.interrupts import deferred_interrupts
from ..responses.oracles import Oracle, parse_oracle
from ..game.rules import Rules, parse_rules
from ..engine.runtime import resolve_threads
from .fictitious_play.solution import FictitiousPlaySolution
from .solution import (Solution, check_same_words, read_payload, words_from_payload,
                       words_payload)
from .registry import SOLVERS
from ..util.strategy_file import StrategyFileError
from .fictitious_play.codec import MAX_ITERATIONS
from ..game.words import WordList, load_words

__all__ = ["METHODS", "SolveInterrupted", "solve"]

#: The solvers behind :func:`solve`.
METHODS = tuple(SOLVERS)


class SolveInterrupted(KeyboardInterrupt):
    """A solve stopped by Ctrl-C or SIGTERM between iterations; ``path`` holds its checkpoint
    (or is None)."""

    def __init__(self, iteration: int, path: Path | None):
        super().__init__(iteration, path)
        self.iteration = iteration
        self.path = path


def _word_list(letters: int | None, words: Any, rules: Rules | str | None) -> WordList:
    if letters is None:
        letters = 5
    if isinstance(words, WordList):
        if words.length != letters:
            raise ValueError(f"the word list has {words.length}-letter words, not {letters}")
        if rules is not None and parse_rules(rules) != words.rules:
            raise ValueError(f"the word list is played under the rules {words.rules.name}, not "
                             f"{parse_rules(rules).name}")
        return words
    return load_words(words, length=letters, rules=rules)


def _positive(name: str, value: Any, kind: type) -> None:
    """ValueError unless ``value`` is None or a positive ``kind``, finite: a run whose plan
    holds infinity could not even be saved, so it is refused before it starts."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else int) \
            or not value > 0 or not math.isfinite(value):
        what = "positive finite number" if kind is float else "positive int"
        raise ValueError(f"{name} must be a {what}, not {quote(value)}")


def solve(letters: int | WordList | Sequence[str] | None = None, words: Any = None, *,
          rules: Rules | str | None = None,
          method: str = "fictitious-play", mode: str | None = None, oracle: str | None = None,
          iterations: int | None = None, target_epsilon: float | None = None,
          time_budget: float | None = None, threads: int | None = None,
          out: str | os.PathLike[str] | None = None, resume: bool = False,
          progress: bool | None = None, checkpoint_seconds: float = 10.0,
          certificate: str | os.PathLike[str] | None = None,
          executor: Any = None) -> Solution:
    """Compute an equilibrium of Jotto.

    ``jotto.solve(3)`` solves the bundled list's 3-letter game; ``jotto.solve(words)`` the game
    of a word list (a :class:`~jotto.game.words.WordList` or a plain sequence of words, given first
    or as ``words``).

    Args:
        letters: word length (default: the length of ``words``' words, else 5), or the words
            themselves.
        words: a :class:`~jotto.game.words.WordList`, a sequence of words, or any source
            :func:`jotto.load_words` takes (default: the bundled ENABLE list).
        rules: the rules to load ``words`` under (a preset name such as ``"eckler"``, fine
            options, or a :class:`~jotto.game.rules.Rules`; default: the paper's, or the rules of
            ``words`` if it is a word list).
        method: ``"fictitious-play"`` (SolveJotto, Algorithm 13; a
            :class:`~jotto.FictitiousPlaySolution`) or ``"double-oracle"`` (the guesser's
            strategy as a mixture of trees, with certified bounds on the game's value; a
            :class:`~jotto.DoubleOracleSolution`).
        mode: fictitious play's ``"exact"`` (integers, exact rule; the default) or ``"paper"``
            (Algorithm 13 in IEEE double); see :mod:`jotto.solvers.fictitious_play.algorithm`.  The
            double oracle has no mode (:class:`ValueError` if one is given).
        oracle: the guesser's oracle (:mod:`jotto.responses.oracles`): fictitious play's default is
            ``"greedy"`` (GuesserGBR, the paper's), the double oracle's ``"best-response"``
            (exact); with ``"lookahead:K"`` the double oracle draws its trees against a hedge
            hider (:meth:`jotto.solvers.double_oracle.algorithm.DoubleOracle.hedge_round`).
        iterations: fictitious play's iterations (default: the paper's count for 2..5 letters,
            22212 / 10694 / 3568 / 3906, and 3906 for other lengths); the double oracle's most
            rounds (default: until it converges, or with a lookahead oracle until a round
            finds no new tree).
        target_epsilon: stop as soon as epsilon (fictitious play) or the width of the value
            interval (double oracle) is at most this.
        time_budget: stop after this many seconds.  The double oracle also proves a lower
            bound on the value with them: with a lookahead oracle and two threads or more, all
            of the time on a thread beside the rounds, against the uniform hider
            (:meth:`jotto.solvers.double_oracle.algorithm.DoubleOracle.prove_beside`); otherwise
            in the last quarter, and whatever its rounds leave, against the most promising hider
            mixture
            (:meth:`jotto.solvers.double_oracle.algorithm.DoubleOracle.prove`).
        threads: threads for the core (default ``OMP_NUM_THREADS``, else all cores).
        out: strategy file to write (checkpointed while running).
        resume: continue the run in ``out`` if it exists (word list, method and mode must
            match).
        progress: show a progress bar on standard error (default: when it is a terminal, as
            the ``jotto`` command does).
        checkpoint_seconds: seconds between checkpoints of ``out``.
        certificate: the double oracle only: a file to write a certificate of the value's
            lower bound to (:meth:`jotto.DoubleOracleSolution.write_certificate`: its hider is
            proved again to hold every guesser to ``value_bounds[0]``, which
            :func:`jotto.check_certificate` verifies without the search).
        executor: the double oracle's proofs (its best-response oracle and the lower bound
            its time budget proves) run as tasks on this :class:`concurrent.futures.Executor`
            (see :func:`jotto.best_response`); fictitious play proves nothing and refuses one.

    Raises:
        SolveInterrupted: on Ctrl-C or SIGTERM, which stop the run between iterations (after
            writing the checkpoint, if ``out`` is given).  A second Ctrl-C interrupts at once.
        ValueError, WordListError, StrategyFileError: bad arguments or files.
        OSError: ``out`` cannot be written (checked before the run starts).
        FileLockedError: another process is writing ``out`` (see
            :func:`jotto.util.files.output_lock`).
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; use {' or '.join(map(repr, METHODS))}")
    letters, words = _letters_and_words(letters, words)
    if method == "double-oracle" and mode is not None:
        raise ValueError(f"mode={mode!r} is fictitious play's: the double oracle has no mode")
    mode = mode or "exact"
    if progress is None:
        progress = _stderr_is_terminal()
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; use 'exact' or 'paper'")
    the_oracle = parse_oracle(oracle or ("greedy" if method == "fictitious-play"
                                         else "best-response"))
    if method == "fictitious-play" and the_oracle.kind != "greedy" and mode != "exact":
        raise ValueError("paper mode is the paper's algorithm, with the greedy oracle; other "
                         "oracles run in exact mode")
    _positive("iterations", iterations, int)
    if iterations is not None and iterations > MAX_ITERATIONS:
        raise ValueError(f"iterations must be at most {MAX_ITERATIONS}, not {iterations}")
    _positive("target_epsilon", target_epsilon, float)
    _positive("time_budget", time_budget, float)
    _positive("checkpoint_seconds", checkpoint_seconds, float)
    if resume and out is None:
        raise ValueError("resume needs the strategy file to continue (out)")
    if certificate is not None:
        if method != "double-oracle":
            raise ValueError("certificate: only the double oracle certifies a bound on the "
                             "game's value (method='double-oracle')")
        from ..game.certificates import check_certificate_path

        check_certificate_path(certificate)
    if executor is not None and method != "double-oracle":
        raise ValueError("an executor runs the double oracle's proofs; fictitious play has none")
    path = Path(out) if out is not None else None
    args = (letters, words, rules, method, mode, the_oracle, iterations, target_epsilon,
            time_budget, threads, path, resume, progress, checkpoint_seconds, executor)
    if path is None:
        solution = _solve(*args)
    else:
        check_writable(path)
        with output_lock(path):  # one writer per file: a second run is refused, not interleaved
            solution = _solve(*args)
    if certificate is not None:
        solution.write_certificate(certificate, threads)  # type: ignore[attr-defined]
    return solution


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced by an object without isatty, or closed
        return False


def _letters_and_words(letters: Any, words: Any) -> tuple[int | None, Any]:
    """``letters`` and ``words`` as :func:`solve` was given them, words first allowed: the
    word length (None: that of the words, else 5; or a resumed file's) and the words."""
    if letters is not None and not isinstance(letters, (int, np.integer)):
        if words is not None:
            raise ValueError(f"letters is a word length, not {quote(letters)}")
        letters, words = None, letters
    if isinstance(letters, bool):
        raise ValueError(f"letters is a word length, not {letters!r}")
    if letters is not None or words is None:
        return letters, words
    if isinstance(words, WordList):
        return words.length, words
    if isinstance(words, Sequence) and not isinstance(words, str) and words \
            and all(isinstance(w, str) for w in words):
        lengths = sorted({len(w.strip()) for w in words})
        if len(lengths) > 1:
            raise ValueError(f"the words have {' and '.join(map(str, lengths))} letters: pass "
                             f"letters to say which to play")
        return lengths[0], words
    return None, words


def _solve(letters: int | None, words: Any, rules: Rules | str | None, method: str, mode: str,
           the_oracle: Oracle,
           iterations: int | None, target_epsilon: float | None, time_budget: float | None,
           threads: int | None, path: Path | None, resume: bool, progress: bool,
           checkpoint_seconds: float, executor: Any) -> Solution:
    """:func:`solve` after its arguments were checked, holding the output file's lock."""
    nthreads = resolve_threads(threads)
    payload = read_payload(path) if resume and path and path.exists() else None
    if payload is not None:
        wl = _resumed_words(path, payload, letters, words, rules)
        solver = payload.get("solver", FictitiousPlaySolution.solver)
        if solver != method:
            raise StrategyFileError(f"{path}: made by the {solver} solver, not {method}")
        if method == "fictitious-play" and payload.get("mode") != mode:
            raise StrategyFileError(f"{path}: made in {payload.get('mode')} mode, not {mode}")
    else:
        wl = _word_list(letters, words, rules)
    if method == "double-oracle":
        return _double_oracle(wl, the_oracle, iterations, target_epsilon, time_budget,
                              nthreads, payload, path, progress, checkpoint_seconds, executor)
    horizon = iterations or (payload or {}).get("plan", {}).get("iterations") \
        or paper_iterations(wl.length)
    if payload is not None and horizon < int(payload["iterations_done"]):
        horizon = int(payload["iterations_done"])
    plan = {"iterations": horizon, "target_epsilon": target_epsilon, "time_budget": time_budget}

    if payload is not None and payload.get("oracle", "greedy") != the_oracle.spec:
        raise StrategyFileError(f"{path}: made with the {payload.get('oracle', 'greedy')} "
                                f"oracle, not {the_oracle.spec}")
    run = _start(wl, mode, the_oracle, nthreads, horizon, payload, path)
    bar = _progress(progress, f"{wl.length} letters, {mode}", horizon, run.t)

    def finished() -> bool:
        return run.t >= horizon or (target_epsilon is not None
                                    and run.epsilon[-1] <= target_epsilon)

    def status() -> dict[str, str]:
        # eps: the result's epsilon (at t*, the least so far), as the table reports it; now:
        # the last iteration's
        return {"eps": f"{run.epsilon[run.t_star]:.4f}", "t*": str(run.t_star),
                "now": f"{run.epsilon[-1]:.4f}"}

    save = None if path is None else (lambda: strategy_file.write(path, _payload(wl, run, plan)))
    if _drive(run.step, finished, status, save, bar, time_budget, checkpoint_seconds):
        raise SolveInterrupted(run.t, path)
    return FictitiousPlaySolution(wl, _payload(wl, run, plan))


def _drive(step: Callable[[], None], finished: Callable[[], bool],
           status: Callable[[], dict[str, str]], save: Callable[[], None] | None, bar: Any,
           time_budget: float | None, checkpoint_seconds: float, close: bool = True) -> bool:
    """Run ``step`` until ``finished()`` or the time budget, with the progress bar, checkpoints
    every ``checkpoint_seconds`` and a last save; Ctrl-C and SIGTERM stop it between steps.
    Returns whether it was interrupted.  The bar is closed (its postfix where the run ended)
    unless ``close`` is false: then the caller has more to do and closes it
    (:func:`_close_bar`)."""
    started = time.monotonic()
    last_save = last_status = started
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
            if save is not None and now - last_save >= checkpoint_seconds:
                save()
                last_save = now
        if close:
            _close_bar(bar, status)
        if save is not None:
            save()
    return stop.requested


def _close_bar(bar: Any, status: Callable[[], dict[str, str]]) -> None:
    """Close the progress bar (if any) with its postfix where the run ended, however it
    stopped: the last line on the terminal agrees with the result."""
    if bar is not None:
        bar.set_postfix(refresh=False, **status())
        bar.close()


def _note(bar: Any, text: str) -> None:
    """A line on standard error above the open progress bar ``bar``."""
    bar.write(text, file=sys.stderr)


def _double_oracle(wl: WordList, oracle: Oracle, rounds: int | None,
                   target_width: float | None, time_budget: float | None, threads: int,
                   payload: dict[str, Any] | None, path: Path | None, progress: bool,
                   checkpoint_seconds: float, executor: Any) -> Solution:
    plan = {"rounds": rounds, "target_width": target_width, "time_budget": time_budget,
            "oracle": oracle.spec}
    with strategy_file.naming(path):
        run = (DoubleOracle(wl, oracle, threads, executor=executor) if payload is None
               else DoubleOracle.restore(wl, payload, oracle, threads, executor))
    start_round = run.rounds
    bar = _progress(progress, f"{wl.length} letters, double oracle", rounds, start_round)

    def limit_reached() -> bool:
        if rounds is not None and run.rounds - start_round >= rounds:
            return True
        return target_width is not None and run.upper is not None and \
            run.upper - run.lower <= Fraction(target_width)

    def finished() -> bool:
        return run.done or limit_reached()

    def status() -> dict[str, str]:
        return {"value": f"[{float(run.lower):.4f}, {float(run.upper):.4f}]",
                "trees": str(len(run.trees))}

    def extra() -> dict[str, Any]:
        return {"words": words_payload(wl), "plan": plan, "jotto_version": __version__}

    def step() -> None:  # each round also takes what the proof beside the rounds proved
        run.step()
        run.take_side_bound()

    save = None if path is None else (lambda: strategy_file.write(path, {**run.payload(),
                                                                         **extra()}))
    # The rounds' own searches prove little at 3 letters and more, so a time budget also goes
    # to proving a lower bound: with a second thread, all of it, beside the rounds
    # (DoubleOracle.prove_beside; hedge rounds use one core); else its last part, and whatever
    # the rounds leave, after them (DoubleOracle.prove).
    started = time.monotonic()
    beside = time_budget is not None and run.hedges and \
        (threads > 1 or executor is not None) and not finished()
    if beside:
        run.prove_beside(time_budget)
    rounds_budget = time_budget
    if time_budget is not None and not beside:
        rounds_budget = time_budget * (1 - PROVE_SHARE)
    if rounds_budget is not None:
        run.deadline = started + rounds_budget
    try:
        interrupted = _drive(step, finished, status, save, bar, rounds_budget,
                             checkpoint_seconds, close=False)
        try:
            if beside:
                left = time_budget - (time.monotonic() - started)
                if _end_side_proof(run, interrupted or limit_reached(), bar, left):
                    interrupted = True
                if save is not None:
                    save()
        finally:
            run.take_side_bound(stop=True)  # no-op unless an error or a 2nd Ctrl-C came first
        if interrupted:
            raise SolveInterrupted(run.rounds, path)
        if time_budget is not None and not beside and run.lower < run.upper and \
                not limit_reached():
            seconds = time_budget - (time.monotonic() - started)
            if bar is not None:
                _note(bar, f"{wl.length} letters, double oracle: proving a lower bound on the "
                           f"value for {max(seconds, 0):.0f} s")
            try:
                run.prove(seconds)
            except KeyboardInterrupt:  # the rounds are saved; the proof is what Ctrl-C stopped
                raise SolveInterrupted(run.rounds, path) from None
            if save is not None:
                save()
    finally:
        _close_bar(bar, status)  # after the proofs: its last postfix is the result's interval
    return run.solution(extra())


def _end_side_proof(run: DoubleOracle, now: bool, bar: Any, seconds: float) -> bool:
    """The rounds are over: stop the proof beside them (``now``), or let it use the rest of
    its time, and keep its bound.  Returns whether Ctrl-C or SIGTERM stopped it."""
    if now or run.met:
        run.take_side_bound(stop=True)
        return False
    if bar is not None and seconds >= 1:
        _note(bar, f"{run.words.length} letters, double oracle: proving a lower bound on the "
                   f"value for {seconds:.0f} s more")
    with deferred_interrupts() as stop:
        while not stop.requested and not run.side_proof_wait(0.2):
            pass
    run.take_side_bound(stop=True)
    return stop.requested


class StoredRun(NamedTuple):
    """What a strategy file holds, as ``jotto solve --resume`` needs to know it."""

    method: str
    mode: str | None
    letters: int


def describe_file(path: str | os.PathLike[str]) -> StoredRun:
    """The method, mode (fictitious play's) and word length of the run in a strategy file."""
    sol = Solution.load(path)
    return StoredRun(sol.solver, getattr(sol, "mode", None), sol.words.length)


def _resumed_words(path: Path, payload: dict[str, Any], letters: int, words: Any,
                   rules: "Rules | str | None") -> WordList:
    with strategy_file.naming(path):
        stored = words_from_payload(payload)
    if words is None and letters in (None, stored.length):
        return stored
    wanted = _word_list(letters, words, rules)
    with strategy_file.naming(path):
        check_same_words(stored, wanted)
    return stored


def _start(wl: WordList, mode: str, oracle: Oracle, threads: int, horizon: int,
           payload: dict[str, Any] | None, path: Path | None) -> FictitiousPlay:
    if payload is None:
        run: FictitiousPlay = (OraclePlay(wl, threads, oracle) if oracle.kind != "greedy"
                               else ExactPlay(wl, threads) if mode == "exact"
                               else PaperPlay(wl, threads, horizon))
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


def _progress(enabled: bool, desc: str, total: int | None, initial: int):
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="it", file=sys.stderr, dynamic_ncols=True,
                desc=desc, smoothing=0.1,
                bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} "
                           "[{elapsed}<{remaining}, {rate_fmt}{postfix}]" if total else
                           "{desc}: {n_fmt} [{elapsed}, {rate_fmt}{postfix}]")
