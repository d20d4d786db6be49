"""``jotto solve``: SolveJotto with a progress bar, checkpoints, resumption and Table 1."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import click
import numpy as np

from ..game.certificates import check_certificate_path
from ..game.rules import Rules
from ..responses.oracles import parse_oracle
from ..solvers.fictitious_play.codec import MAX_ITERATIONS
from ..solvers.registry import DEFAULT_SOLVER, SOLVERS
from ..solvers.solution import Solution
from ..solvers.solving import METHODS, SolveInterrupted, describe_file, solve
from ..util.files import check_writable, output_lock
from ..util.strategy_file import StrategyFileError
from .main import BadInput
from .options import (
    POSITIVE_FINITE,
    bound_progress,
    check_plot_output,
    echo_json,
    executor_options,
    exists_error,
    hidden_weights,
    hide_from_option,
    interval_text,
    long_run_options,
    note,
    open_executor,
    optional_seconds,
    resuming,
    threads_option,
    word_list,
    word_list_options,
)

#: Every solver's modes (``--mode``), in table order.
MODES = tuple(dict.fromkeys(m for row in SOLVERS.values() for m in row.modes))


def default_out(letters: int, method: str, mode: str | None) -> Path:
    """``jotto-<letters>-letters-<mode>.jotto``, or ``-<method>`` for a solver without modes."""
    what = (mode or SOLVERS[method].modes[0]) if SOLVERS[method].modes else method
    return Path(f"jotto-{letters}-letters-{what}.jotto")


@click.command("solve")
@word_list_options
@click.option(
    "--method",
    type=click.Choice(METHODS),
    default=None,
    help="fictitious-play (default): SolveJotto, Algorithm 13; double-oracle: the "
    "guesser mixes explicit trees found by branch and bound, and the game's "
    "value is certified.  When resuming, the file's method.",
)
@click.option(
    "--oracle",
    default=None,
    metavar="SPEC",
    help="The guesser's oracle: greedy (GuesserGBR; fictitious play's default), "
    "best-response (exact; the double oracle's default), best-response:SECONDS "
    "(a budget per search) or lookahead:K (the K best candidates per state; "
    "the double oracle then draws its trees against a hedge hider).",
)
@click.option(
    "--mode",
    type=click.Choice(list(MODES)),
    default=None,
    help="exact (default): integers and the exact rule; paper: Algorithm 13 in IEEE "
    "double with the paper rule.  When resuming, the file's mode.",
)
@click.option(
    "-i",
    "--iterations",
    type=click.IntRange(1, MAX_ITERATIONS),
    default=None,
    help="Iterations (default: the paper's count: 22212 / 10694 / 3568 / 3906 for 2..5 "
    "letters, 3906 otherwise); the double oracle's most rounds (default: until "
    "it converges).",
)
@click.option(
    "--target-epsilon",
    type=POSITIVE_FINITE,
    default=None,
    help="Stop once epsilon (double oracle: the width of the value interval) is at most this.",
)
@click.option(
    "--time-budget",
    type=POSITIVE_FINITE,
    default=None,
    metavar="SECONDS",
    help="Stop after this many seconds (the double oracle "
    "also proves a lower bound on the value: with --oracle lookahead:K and two "
    "threads, beside its rounds all the time, else in the last quarter).",
)
@hide_from_option
@threads_option
@executor_options
@long_run_options(
    file="Strategy file (default jotto-<letters>-letters-<mode>.jotto).",
    resume="Continue the run saved in --out (default: the default file of the "
    "letters, method and mode given).",
    force="Overwrite --out and --plot if they exist.",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write a plot (PNG, SVG or PDF; needs matplotlib): epsilon against "
    "iteration (fictitious play), the value interval against round (double "
    "oracle).",
)
@click.option(
    "--certify",
    is_flag=False,
    flag_value="exact",
    default=None,
    metavar="[SECONDS]",
    help="Also certify the strategies' strength: the guesser's true best response to "
    "the hider (branch and bound, exact or within SECONDS) and the guesser's "
    "exact worst case.  Printed after the solve's own result; without SECONDS "
    "the search may run for hours from 4 letters on: it shows its bounds as "
    "they rise, and Ctrl-C prints what it proved.",
)
@click.option(
    "--certificate",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="The double oracle: also write a certificate of the value's lower bound to "
    "FILE (jotto check-proof verifies it without the search; it is proved "
    "again for it).  Never overwrites a file.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def solve_command(**options):
    """Compute an equilibrium: by fictitious play (SolveJotto, Algorithm 13; prints Table 1's
    rows for the run) or by the double oracle (prints the certified value interval).

    Writes a strategy file (checkpointed while running; Ctrl-C saves and exits, --resume
    continues).
    """
    o = SolveOptions(**options)
    if o.method is not None or not o.resume:  # else the method is the file's: checked once read
        check_method_options(o.method or DEFAULT_SOLVER, mode=o.mode)
    check_plot_output(o.plot, o.force)
    if o.hide_from is not None and o.method is not None:
        _check_hide_from(o.method)
    if o.oracle is not None:
        try:
            parse_oracle(o.oracle)
        except ValueError as exc:
            raise BadInput(f"--oracle: {exc}") from None
    certify_seconds = optional_seconds(o.certify, "--certify")
    if o.certificate is not None:
        if not SOLVERS[o.method or DEFAULT_SOLVER].proves and not o.resume:
            raise BadInput(
                "--certificate certifies the double oracle's lower bound on the "
                "value: give --method double-oracle"
            )
        if o.workers is not None or o.scheduler is not None:
            raise BadInput(
                "--certificate is written by a proof in this process: it takes no "
                "--workers or --scheduler"
            )
        check_certificate_path(o.certificate)
    if o.workers is not None or o.scheduler is not None:
        _check_proof(o.method or (None if o.resume else DEFAULT_SOLVER), o.certify)
    out = o.out or default_out(o.letters or 5, o.method or DEFAULT_SOLVER, o.mode)
    check_writable(out)
    with output_lock(out), open_executor(o.workers, o.scheduler) as executor:
        # the lock is held from the first look at --out to the last write
        solution = _solve_into(o, out, executor, certify_seconds)
    if o.certificate is not None:
        if not SOLVERS[solution.solver].proves:
            raise BadInput(
                f"--certificate: {out} holds a {solution.solver} solve; only the "
                f"double oracle certifies a bound on the value"
            )
        lower = solution.write_certificate(o.certificate, o.threads)
        note(
            f"jotto: wrote {o.certificate}: a certificate that the value is at least {lower} = "
            f"{float(lower):.4f}. Check it with:",
            f"jotto check-proof {o.certificate}",
        )


@dataclass(frozen=True)
class SolveOptions:
    """The options of ``jotto solve``, as click parses them (one field per option)."""

    words: str | None
    letters: int | None
    rules: Rules
    skip_invalid: bool
    method: str | None
    oracle: str | None
    mode: str | None
    iterations: int | None
    target_epsilon: float | None
    time_budget: float | None
    hide_from: str | None
    threads: int | None
    workers: int | None
    scheduler: str | None
    out: Path | None
    resume: bool
    force: bool
    checkpoint_every: float
    progress: bool | None
    plot: Path | None
    certify: str | None
    certificate: Path | None
    as_json: bool


def check_method_options(method: str, *, mode: str | None) -> None:
    """A one-line error (exit 2) if ``--mode`` is given to a solver without modes."""
    if mode is not None and not SOLVERS[method].modes:
        owners = " and ".join(name for name, row in SOLVERS.items() if mode in row.modes)
        raise BadInput(f"--mode is {owners}'s option: --method {method} does not take it")


def _check_hide_from(method: str) -> None:
    """--hide-from restricts the secrets of a game whose value is proved."""
    if not SOLVERS[method].proves:
        raise BadInput(
            f"--hide-from: only --method double-oracle solves the game whose "
            f"secrets are restricted, not {method}"
        )


def _solve_into(o: SolveOptions, out: Path, executor, certify_seconds: float | None):
    """The solve command once --out is locked: resume, reuse or compute, then report; returns
    the solution."""
    method, mode, letters = o.method, o.mode, o.letters
    resumed = resuming(out, o.resume, "a new run")
    if resumed:
        try:
            stored = describe_file(out)
        except StrategyFileError as exc:
            raise BadInput(str(exc)) from None
        check_method_options(method or stored.method, mode=mode)
        method = method or stored.method
        mode = mode or stored.mode
        letters = letters or stored.letters
    method = method or DEFAULT_SOLVER
    modes = SOLVERS[method].modes
    mode = (mode or modes[0]) if modes else None
    letters = letters or 5
    if executor is not None:
        _check_proof(method, o.certify)
    if o.hide_from is not None:
        _check_hide_from(method)
    wl = (
        None
        if (resumed and o.words is None)
        else word_list(o.words, letters, o.rules, o.skip_invalid)
    )
    hidden = None if wl is None else hidden_weights(wl, o.hide_from)
    if out.exists() and not o.resume and not o.force:
        done = _finished(out, wl, method, mode, o.iterations, o.oracle, hidden)
        if done is None:
            raise exists_error(out)
        note(f"jotto: {out} already holds this solve (--force recomputes it)")
        _report(done, o, out, executor, certify_seconds)
        return done
    try:
        solution = solve(
            letters,
            wl,
            rules=o.rules,
            method=method,
            mode=mode,
            oracle=o.oracle,
            iterations=o.iterations,
            target_epsilon=o.target_epsilon,
            time_budget=o.time_budget,
            threads=o.threads,
            out=out,
            resume=o.resume,
            progress=sys.stderr.isatty() if o.progress is None else o.progress,
            checkpoint_seconds=o.checkpoint_every,
            executor=executor if SOLVERS[method].proves else None,
            hide_from=o.hide_from,
        )
    except SolveInterrupted as stop:
        note(
            f"jotto: stopped after {stop.unit} {stop.iteration}; the run is saved in "
            f"{stop.path}. Resume with:",
            f"jotto solve --out {stop.path} --resume",
        )
        sys.exit(130)
    except StrategyFileError as exc:
        raise BadInput(str(exc)) from None
    _report(solution, o, out, executor, certify_seconds)
    return solution


def _check_proof(method, certify):
    """--workers and --scheduler run proofs: the double oracle's, or --certify's."""
    if method is not None and not SOLVERS[method].proves and certify is None:
        raise BadInput(
            "--workers and --scheduler run proofs: the double oracle's or "
            "--certify's; fictitious play alone proves nothing"
        )


def _finished(out, wl, method, mode, iterations, oracle, hidden=None):
    """The solution in ``out`` if it is a finished solve of exactly this request (``hidden``:
    the weights of --hide-from, or None), else None."""
    try:
        done = Solution.load(out, words=wl)
    except StrategyFileError:
        return None
    if done.solver != method:
        return None
    stored = getattr(done, "hidden", None)
    if stored is not None and not np.array_equal(
        stored, np.ones(len(stored), dtype=bool) if hidden is None else hidden > 0
    ):
        return None
    asked = None if oracle is None else parse_oracle(oracle)
    return done if done.answers(mode=mode, iterations=iterations, oracle=asked) else None


def _report(solution, o: SolveOptions, out: Path, executor, certify_seconds: float | None):
    """Print the solve (its table or value interval) and then, with --certify, its certified
    strength: the solve is printed before the certification's search, which shows its bounds
    as they rise (--progress; default: when standard error is a terminal) and on Ctrl-C says
    what it proved."""
    plot, as_json = o.plot, o.as_json
    if plot is not None:
        solution.plot(plot)
    if not as_json:
        click.echo(solution.report_text())
    strength = None
    if o.certify is not None:
        show = sys.stderr.isatty() if o.progress is None else o.progress
        with bound_progress(
            "certifying: the guesser's true best response to the hider", show and executor is None
        ) as report:
            strength = solution.strength(
                certify_seconds,
                threads=o.threads,
                executor=executor,
                progress=None if executor is not None else report,
            )
    words = {
        "source": solution.words.source,
        "size": len(solution.words),
        "length": solution.words.length,
        "sha256": solution.words.sha256,
    }
    if as_json:
        doc = {"out": str(out), "method": solution.solver, "words": words, **solution.report()}
        if strength is not None:
            doc["strength"] = strength.as_dict()
        echo_json(doc)
        return
    if strength is not None:
        click.echo(strength_text(strength))
    click.echo(f"Strategy file: {out}" + (f"; plot: {plot}" if plot else ""))


def strength_text(strength) -> str:
    """The certified numbers of :meth:`jotto.Solution.strength`, as lines."""
    guarantee = interval_text(strength.hider_lower, strength.hider_upper)
    nash = interval_text(*strength.nash_conv)
    return (
        f"Certified: the hider's strategy holds any guesser to {guarantee} expected guesses "
        f"(true best response{'' if strength.best_response_exact else ', bounds'}); the "
        f"guesser's worst case is {float(strength.guesser_worst):.4f}; true NashConv "
        f"{nash}"
    )
