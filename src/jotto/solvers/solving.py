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
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from ..engine.runtime import resolve_threads
from ..game.rules import Rules, parse_rules
from ..game.words import WordList, load_words
from ..util import strategy_file
from ..util.files import check_writable, output_lock, quote
from ..util.strategy_file import StrategyFileError
from .driver import Request, SolveInterrupted
from .registry import DEFAULT_SOLVER, SOLVERS, solver_run
from .solution import Solution, check_same_words, read_payload, words_from_payload

__all__ = ["METHODS", "SolveInterrupted", "solve"]

#: The solvers behind :func:`solve`.
METHODS = tuple(SOLVERS)


def _word_list(letters: int | None, words: Any, rules: Rules | str | None) -> WordList:
    if letters is None:
        letters = 5
    if isinstance(words, WordList):
        if words.length != letters:
            raise ValueError(f"the word list has {words.length}-letter words, not {letters}")
        if rules is not None and parse_rules(rules) != words.rules:
            raise ValueError(
                f"the word list is played under the rules {words.rules.name}, not "
                f"{parse_rules(rules).name}"
            )
        return words
    return load_words(words, length=letters, rules=rules)


def _positive(name: str, value: Any, kind: type) -> None:
    """ValueError unless ``value`` is None or a positive ``kind``, finite: a run whose plan
    holds infinity could not even be saved, so it is refused before it starts."""
    if value is None:
        return
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float) if kind is float else int)
        or not value > 0
        or not math.isfinite(value)
    ):
        what = "positive finite number" if kind is float else "positive int"
        raise ValueError(f"{name} must be a {what}, not {quote(value)}")


def solve(
    letters: int | WordList | Sequence[str] | None = None,
    words: Any = None,
    *,
    rules: Rules | str | None = None,
    method: str = "fictitious-play",
    mode: str | None = None,
    oracle: str | None = None,
    iterations: int | None = None,
    target_epsilon: float | None = None,
    time_budget: float | None = None,
    threads: int | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    progress: bool | None = None,
    checkpoint_seconds: float = 10.0,
    certificate: str | os.PathLike[str] | None = None,
    executor: Any = None,
    hide_from: str | os.PathLike[str] | None = None,
) -> Solution:
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
        hide_from: the double oracle only: the words the hider may hide
            (:mod:`jotto.game.hiding`: ``"sgb:500"``, a word file), the game people play:
            the value is of that game, every word remains a guess.  A resumed run must name
            the same words.

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
    if progress is None:
        progress = _stderr_is_terminal()
    _positive("iterations", iterations, int)
    _positive("target_epsilon", target_epsilon, float)
    _positive("time_budget", time_budget, float)
    _positive("checkpoint_seconds", checkpoint_seconds, float)
    solver = solver_run(method)
    request = solver.check(
        Request(
            mode,
            oracle,
            iterations,
            target_epsilon,
            time_budget,
            0,
            progress,
            checkpoint_seconds,
            executor,
            hide_from,
        ),
        certificate,
    )
    if resume and out is None:
        raise ValueError("resume needs the strategy file to continue (out)")
    if certificate is not None:
        from ..game.certificates import check_certificate_path

        check_certificate_path(certificate)
    path = Path(out) if out is not None else None
    args = (letters, words, rules, method, request, threads, path, resume)
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
    if (
        isinstance(words, Sequence)
        and not isinstance(words, str)
        and words
        and all(isinstance(w, str) for w in words)
    ):
        lengths = sorted({len(w.strip()) for w in words})
        if len(lengths) > 1:
            raise ValueError(
                f"the words have {' and '.join(map(str, lengths))} letters: pass "
                f"letters to say which to play"
            )
        return lengths[0], words
    return None, words


def _solve(
    letters: int | None,
    words: Any,
    rules: Rules | str | None,
    method: str,
    request: Request,
    threads: int | None,
    path: Path | None,
    resume: bool,
) -> Solution:
    """:func:`solve` after its arguments were checked, holding the output file's lock: the
    words (a resumed file's), then the solver's run."""
    request = request._replace(threads=resolve_threads(threads))
    payload = read_payload(path) if resume and path and path.exists() else None
    if payload is not None:
        wl = _resumed_words(path, payload, letters, words, rules)
        solver = payload.get("solver", DEFAULT_SOLVER)
        if solver != method:
            raise StrategyFileError(f"{path}: made by the {solver} solver, not {method}")
    else:
        wl = _word_list(letters, words, rules)
    return solver_run(method).run(wl, request, payload, path)


class StoredRun(NamedTuple):
    """What a strategy file holds, as ``jotto solve --resume`` needs to know it."""

    method: str
    mode: str | None
    letters: int


def describe_file(path: str | os.PathLike[str]) -> StoredRun:
    """The method, mode (fictitious play's) and word length of the run in a strategy file."""
    sol = Solution.load(path)
    return StoredRun(sol.solver, getattr(sol, "mode", None), sol.words.length)


def _resumed_words(
    path: Path, payload: dict[str, Any], letters: int, words: Any, rules: Rules | str | None
) -> WordList:
    with strategy_file.naming(path):
        stored = words_from_payload(payload)
    if words is None and letters in (None, stored.length):
        return stored
    wanted = _word_list(letters, words, rules)
    with strategy_file.naming(path):
        check_same_words(stored, wanted)
    return stored
