"""``jotto.solve``: run SolveJotto with progress, stopping rules, checkpoints and resumption.

A run with an output file checkpoints it every ``checkpoint_seconds`` (atomically) and on
interruption, so a run stopped anyhow (Ctrl-C, SIGTERM, SIGKILL, power loss) resumes from its last
checkpoint and finishes bit-identical to an uninterrupted run (only the recorded timings differ).
"""

from __future__ import annotations

import math
import os
import sys
import time
from pathlib import Path
from typing import Any

from . import __version__, strategy_file
from .fictitious_play import MODES, ExactPlay, FictitiousPlay, PaperPlay, paper_iterations
from .files import check_writable, output_lock, quote
from .interrupts import deferred_interrupts
from .runtime import resolve_threads
from .solution import Solution, check_same_words, words_from_payload, words_payload
from .strategy_file import StrategyFileError
from .strategy_schema import MAX_ITERATIONS, load_payload
from .words import WordList, load_words

__all__ = ["SolveInterrupted", "solve"]


class SolveInterrupted(KeyboardInterrupt):
    """A solve stopped by Ctrl-C or SIGTERM between iterations; ``path`` holds its checkpoint
    (or is None)."""

    def __init__(self, iteration: int, path: Path | None):
        super().__init__(iteration, path)
        self.iteration = iteration
        self.path = path


def _word_list(letters: int, words: Any, anagrams: str) -> WordList:
    if isinstance(words, WordList):
        if words.length != letters:
            raise ValueError(f"the word list has {words.length}-letter words, not {letters}")
        return words
    return load_words(words, length=letters, anagrams=anagrams)


def _positive(name: str, value: Any, kind: type) -> None:
    """ValueError unless ``value`` is None or a positive ``kind``, finite: a run whose plan
    holds infinity could not even be saved, so it is refused before it starts."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else int) \
            or not value > 0 or not math.isfinite(value):
        what = "positive finite number" if kind is float else "positive int"
        raise ValueError(f"{name} must be a {what}, not {quote(value)}")


def solve(letters: int = 5, words: Any = None, *, anagrams: str = "paper", mode: str = "exact",
          iterations: int | None = None, target_epsilon: float | None = None,
          time_budget: float | None = None, threads: int | None = None,
          out: str | os.PathLike[str] | None = None, resume: bool = False,
          progress: bool = True, checkpoint_seconds: float = 10.0) -> Solution:
    """Compute an approximate equilibrium of Jotto by fictitious play (Algorithm 13).

    Args:
        letters: word length.
        words: a :class:`~jotto.words.WordList` or any source :func:`jotto.load_words` takes
            (default: the bundled ENABLE list).
        anagrams: the anagram rule for loading ``words``.
        mode: ``"exact"`` (integers, exact rule) or ``"paper"`` (Algorithm 13 in IEEE double);
            see :mod:`jotto.fictitious_play`.
        iterations: iterations to run (default: the paper's count for 2..5 letters, 22212 /
            10694 / 3568 / 3906, and 3906 for other lengths).
        target_epsilon: stop as soon as epsilon is at most this.
        time_budget: stop after this many seconds.
        threads: threads for CompNumGuesses (default ``OMP_NUM_THREADS``, else all cores).
        out: strategy file to write (checkpointed while running).
        resume: continue the run in ``out`` if it exists (word list and mode must match).
        progress: show a progress bar on standard error.
        checkpoint_seconds: seconds between checkpoints of ``out``.

    Raises:
        SolveInterrupted: on Ctrl-C or SIGTERM, which stop the run between iterations (after
            writing the checkpoint, if ``out`` is given).  A second Ctrl-C interrupts at once.
        ValueError, WordListError, StrategyFileError: bad arguments or files.
        OSError: ``out`` cannot be written (checked before the run starts).
        FileLockedError: another process is writing ``out`` (see
            :func:`jotto.files.output_lock`).
    """
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; use 'exact' or 'paper'")
    _positive("iterations", iterations, int)
    if iterations is not None and iterations > MAX_ITERATIONS:
        raise ValueError(f"iterations must be at most {MAX_ITERATIONS}, not {iterations}")
    _positive("target_epsilon", target_epsilon, float)
    _positive("time_budget", time_budget, float)
    _positive("checkpoint_seconds", checkpoint_seconds, float)
    if resume and out is None:
        raise ValueError("resume needs the strategy file to continue (out)")
    path = Path(out) if out is not None else None
    if path is None:
        return _solve(letters, words, anagrams, mode, iterations, target_epsilon, time_budget,
                      threads, None, resume, progress, checkpoint_seconds)
    check_writable(path)
    with output_lock(path):  # one writer per file: a second run is refused, not interleaved
        return _solve(letters, words, anagrams, mode, iterations, target_epsilon, time_budget,
                      threads, path, resume, progress, checkpoint_seconds)


def _solve(letters: int, words: Any, anagrams: str, mode: str, iterations: int | None,
           target_epsilon: float | None, time_budget: float | None, threads: int | None,
           path: Path | None, resume: bool, progress: bool,
           checkpoint_seconds: float) -> Solution:
    """:func:`solve` after its arguments were checked, holding the output file's lock."""
    nthreads = resolve_threads(threads)
    payload = load_payload(path) if resume and path and path.exists() else None
    if payload is not None:
        wl = _resumed_words(path, payload, letters, words, anagrams)
        if payload.get("mode") != mode:
            raise StrategyFileError(f"{path}: made in {payload.get('mode')} mode, not {mode}")
    else:
        wl = _word_list(letters, words, anagrams)
    horizon = iterations or (payload or {}).get("plan", {}).get("iterations") \
        or paper_iterations(wl.length)
    if payload is not None and horizon < int(payload["iterations_done"]):
        horizon = int(payload["iterations_done"])
    plan = {"iterations": horizon, "target_epsilon": target_epsilon, "time_budget": time_budget}

    run = _start(wl, mode, nthreads, horizon, payload, path)
    bar = _progress(progress, wl, mode, horizon, run.t)
    started = time.monotonic()
    last_save = started
    with deferred_interrupts() as stop:
        while run.t < horizon and not stop.requested:
            if target_epsilon is not None and run.epsilon[-1] <= target_epsilon:
                break
            if time_budget is not None and time.monotonic() - started >= time_budget:
                break
            run.step()
            now = time.monotonic()
            if bar is not None:
                bar.update(1)
                if now - bar.last_print_t > 0.2 or run.t == horizon:
                    bar.set_postfix(eps=f"{run.epsilon[-1]:.4f}",
                                    best=f"{run.epsilon[run.t_star]:.4f}", refresh=False)
            if path is not None and now - last_save >= checkpoint_seconds:
                _save(path, wl, run, plan)
                last_save = now
        if bar is not None:
            bar.close()
        if path is not None:
            _save(path, wl, run, plan)
    if stop.requested:
        raise SolveInterrupted(run.t, path)
    return Solution(wl, _payload(wl, run, plan))


def _resumed_words(path: Path, payload: dict[str, Any], letters: int, words: Any,
                   anagrams: str) -> WordList:
    try:
        stored = words_from_payload(payload)
    except (KeyError, TypeError) as exc:
        raise StrategyFileError(f"{path}: malformed strategy ({exc!r})") from None
    except StrategyFileError as exc:
        raise StrategyFileError(f"{path}: {exc}") from None
    if words is None and letters == stored.length:
        return stored
    try:
        check_same_words(stored, _word_list(letters, words, anagrams))
    except StrategyFileError as exc:
        raise StrategyFileError(f"{path}: {exc}") from None
    return stored


def _start(wl: WordList, mode: str, threads: int, horizon: int,
           payload: dict[str, Any] | None, path: Path | None) -> FictitiousPlay:
    if payload is None:
        run: FictitiousPlay = (ExactPlay(wl, threads) if mode == "exact"
                               else PaperPlay(wl, threads, horizon))
        run.step()
        return run
    try:
        if mode == "exact":
            return ExactPlay.restore(wl, threads, payload)
        return PaperPlay.restore(wl, threads, horizon, payload)
    except StrategyFileError as exc:
        raise StrategyFileError(f"{path}: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise StrategyFileError(f"{path}: malformed strategy ({exc!r})") from None


def _payload(wl: WordList, run: FictitiousPlay, plan: dict[str, Any]) -> dict[str, Any]:
    p = run.payload()
    p["words"] = words_payload(wl)
    p["plan"] = plan
    p["jotto_version"] = __version__
    return p


def _save(path: Path, wl: WordList, run: FictitiousPlay, plan: dict[str, Any]) -> None:
    strategy_file.write(path, _payload(wl, run, plan))


def _progress(enabled: bool, wl: WordList, mode: str, total: int, initial: int):
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="it", file=sys.stderr, dynamic_ncols=True,
                desc=f"{wl.length} letters, {mode}", smoothing=0.1,
                bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} "
                           "[{elapsed}<{remaining}, {rate_fmt}{postfix}]")
