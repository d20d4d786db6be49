"""``jotto solve``: SolveJotto with a progress bar, checkpoints, resumption and Table 1."""

from __future__ import annotations

import sys
from pathlib import Path

import click
import numpy as np

from ..game.certificates import check_certificate_path
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
    hidden_weights,
    hide_from_option,
    interval_text,
    note,
    open_executor,
    optional_seconds,
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
@click.option(
    "-o",
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Strategy file (default jotto-<letters>-letters-<mode>.jotto).",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue the run saved in --out (default: the default file of the "
    "letters, method and mode given).",
)
@click.option("--force", is_flag=True, help="Overwrite --out and --plot if they exist.")
@click.option(
    "--checkpoint-every",
    type=POSITIVE_FINITE,
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="Seconds between checkpoints.",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress bar on standard error (default: when it is a terminal).",
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
def solve_command(
    words,
    letters,
    rules,
    skip_invalid,
    method,
    oracle,
    mode,
    iterations,
    target_epsilon,
    time_budget,
    hide_from,
    threads,
    workers,
    scheduler,
    out,
    resume,
    force,
    checkpoint_every,
    progress,
    plot,
    certify,
    certificate,
    as_json,
):
    """Compute an equilibrium: by fictitious play (SolveJotto, Algorithm 13; prints Table 1's
    rows for the run) or by the double oracle (prints the certified value interval).

    Writes a strategy file (checkpointed while running; Ctrl-C saves and exits, --resume
    continues).
    """
    if method is not None or not resume:  # else the method is the file's: checked once read
        check_method_options(method or DEFAULT_SOLVER, mode=mode)
    check_plot_output(plot, force)
    if hide_from is not None and method is not None and not SOLVERS[method].proves:
        raise BadInput(
            f"--hide-from: only --method double-oracle solves the game whose "
            f"secrets are restricted, not {method}"
        )
    if oracle is not None:
        try:
            parse_oracle(oracle)
        except ValueError as exc:
            raise BadInput(f"--oracle: {exc}") from None
    certify_seconds = optional_seconds(certify, "--certify")
    if certificate is not None:
        if not SOLVERS[method or DEFAULT_SOLVER].proves and not resume:
            raise BadInput(
                "--certificate certifies the double oracle's lower bound on the "
                "value: give --method double-oracle"
            )
        if workers is not None or scheduler is not None:
            raise BadInput(
                "--certificate is written by a proof in this process: it takes no "
                "--workers or --scheduler"
            )
        check_certificate_path(certificate)
    if workers is not None or scheduler is not None:
        _check_proof(method or (None if resume else DEFAULT_SOLVER), certify)
    out = out or default_out(letters or 5, method or DEFAULT_SOLVER, mode)
    check_writable(out)
    with output_lock(out), open_executor(workers, scheduler) as executor:
        # the lock is held from the first look at --out to the last write
        solution = _solve_into(
            out,
            words,
            letters,
            rules,
            skip_invalid,
            method,
            oracle,
            mode,
            iterations,
            target_epsilon,
            time_budget,
            threads,
            resume,
            force,
            checkpoint_every,
            progress,
            plot,
            certify,
            certify_seconds,
            as_json,
            executor,
            hide_from,
        )
    if certificate is not None:
        if not SOLVERS[solution.solver].proves:
            raise BadInput(
                f"--certificate: {out} holds a {solution.solver} solve; only the "
                f"double oracle certifies a bound on the value"
            )
        lower = solution.write_certificate(certificate, threads)
        note(
            f"jotto: wrote {certificate}: a certificate that the value is at least {lower} = "
            f"{float(lower):.4f}. Check it with:",
            f"jotto check-proof {certificate}",
        )


def check_method_options(method: str, *, mode: str | None) -> None:
    """A one-line error (exit 2) if ``--mode`` is given to a solver without modes."""
    if mode is not None and not SOLVERS[method].modes:
        owners = " and ".join(name for name, row in SOLVERS.items() if mode in row.modes)
        raise BadInput(f"--mode is {owners}'s option: --method {method} does not take it")


def _solve_into(
    out,
    words,
    letters,
    rules,
    skip_invalid,
    method,
    oracle,
    mode,
    iterations,
    target_epsilon,
    time_budget,
    threads,
    resume,
    force,
    checkpoint_every,
    progress,
    plot,
    certify,
    certify_seconds,
    as_json,
    executor=None,
    hide_from=None,
):
    """The solve command once --out is locked: resume, reuse or compute, then report; returns
    the solution."""
    resumed = False
    if resume:
        if out.exists():
            try:
                stored = describe_file(out)
            except StrategyFileError as exc:
                raise BadInput(str(exc)) from None
            check_method_options(method or stored.method, mode=mode)
            method = method or stored.method
            mode = mode or stored.mode
            letters = letters or stored.letters
            resumed = True
        else:
            note(f"jotto: {out} does not exist yet: starting a new run")
    method = method or DEFAULT_SOLVER
    modes = SOLVERS[method].modes
    mode = (mode or modes[0]) if modes else None
    letters = letters or 5
    if executor is not None:
        _check_proof(method, certify)
    if hide_from is not None and not SOLVERS[method].proves:
        raise BadInput(
            f"--hide-from: only --method double-oracle solves the game whose "
            f"secrets are restricted, not {method}"
        )
    wl = None if (resumed and words is None) else word_list(words, letters, rules, skip_invalid)
    hidden = None if wl is None else hidden_weights(wl, hide_from)
    if out.exists() and not resume and not force:
        done = _finished(out, wl, method, mode, iterations, oracle, hidden)
        if done is None:
            raise BadInput(f"{out} exists: --resume to continue it, --force to overwrite it")
        note(f"jotto: {out} already holds this solve (--force recomputes it)")
        _report(done, out, plot, as_json, certify, certify_seconds, threads, executor, progress)
        return done
    if progress is None:
        progress = sys.stderr.isatty()
    try:
        solution = solve(
            letters,
            wl,
            rules=rules,
            method=method,
            mode=mode,
            oracle=oracle,
            iterations=iterations,
            target_epsilon=target_epsilon,
            time_budget=time_budget,
            threads=threads,
            out=out,
            resume=resume,
            progress=progress,
            checkpoint_seconds=checkpoint_every,
            executor=executor if SOLVERS[method].proves else None,
            hide_from=hide_from,
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
    _report(solution, out, plot, as_json, certify, certify_seconds, threads, executor, progress)
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


def _report(
    solution, out, plot, as_json, certify, certify_seconds, threads, executor=None, progress=None
):
    """Print the solve (its table or value interval) and then, with ``certify``, its certified
    strength: the solve is printed before the certification's search, which shows its bounds
    as they rise (``progress``; default: when standard error is a terminal) and on Ctrl-C says
    what it proved."""
    if plot is not None:
        solution.plot(plot)
    if not as_json:
        click.echo(solution.report_text())
    strength = None
    if certify is not None:
        show = sys.stderr.isatty() if progress is None else progress
        with bound_progress(
            "certifying: the guesser's true best response to the hider", show and executor is None
        ) as report:
            strength = solution.strength(
                certify_seconds,
                threads=threads,
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
