"""``jotto solve``: SolveJotto with a progress bar, checkpoints, resumption and Table 1."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..fictitious_play import MODES
from ..files import check_writable, output_lock
from ..paper import TABLE1, is_paper_list
from ..solution import Solution
from ..solve import SolveInterrupted, solve
from ..strategy_file import StrategyFileError
from ..strategy_schema import MAX_ITERATIONS, load_payload
from .main import BadInput, main
from .options import (POSITIVE_FINITE, check_plot_output, echo_json, threads_option, word_list,
                      word_list_options)

ROWS = [
    ("dictionary_size", "Dictionary size", "{:d}"),
    ("our_hider_payoff_vs_benchmark", "Our hider payoff vs. benchmark", "{:.3f}"),
    ("our_guesser_payoff_vs_benchmark", "Our guesser payoff vs. benchmark", "{:.3f}"),
    ("our_overall_payoff_vs_benchmark", "Our overall payoff vs. benchmark", "{:.3f}"),
    ("benchmark_self_play_hider_payoff", "Benchmark self-play hider payoff", "{:.3f}"),
    ("our_self_play_hider_payoff", "Our algorithm self-play hider payoff", "{:.3f}"),
    ("benchmark_epsilon", "Benchmark epsilon", "{:.3f}"),
    ("our_final_epsilon", "Our final epsilon", "{:.3f}"),
    ("number_of_iterations", "Number of iterations", "{:d}"),
]


def table_text(solution: Solution) -> str:
    """Table 1's rows for a solution, beside the paper's when the list is the paper's."""
    ours = solution.table()
    L = solution.words.length
    paper = is_paper_list(solution.words.sha256, L) and L in TABLE1["dictionary_size"]
    head = f"{'':38}{'paper':>12}{'ours':>12}" if paper else f"{'':38}{'ours':>12}"
    lines = [head]
    for key, label, fmt in ROWS:
        row = f"{label:38}"
        if paper:
            row += f"{fmt.format(TABLE1[key][L]):>12}"
        lines.append(row + f"{fmt.format(ours[key]):>12}")
    per_it = ours["avg_seconds_per_iteration"]
    row = f"{'Avg time per iteration':38}"
    if paper:
        row += f"{TABLE1['avg_minutes_per_iteration'][L]:>8.4g} min"
    lines.append(row + f"{per_it * 1e3:>9.3f} ms")
    lines.append(f"t* = {solution.t_star} (first iteration of least epsilon); "
                 f"{solution.mode} mode, GuesserGBR rule {solution.rule!r}")
    return "\n".join(lines)


def default_out(letters: int, mode: str) -> Path:
    return Path(f"jotto-{letters}-letters-{mode}.jotto")


@main.command("solve")
@word_list_options
@click.option("--mode", type=click.Choice(list(MODES)), default=None,
              help="exact (default): integers and the exact rule; paper: Algorithm 13 in IEEE "
                   "double with the paper rule.  When resuming, the file's mode.")
@click.option("-i", "--iterations", type=click.IntRange(1, MAX_ITERATIONS), default=None,
              help="Iterations (default: the paper's count: 22212 / 10694 / 3568 / 3906 for 2..5 "
                   "letters, 3906 otherwise).")
@click.option("--target-epsilon", type=POSITIVE_FINITE, default=None,
              help="Stop once epsilon is at most this.")
@click.option("--time-budget", type=POSITIVE_FINITE, default=None,
              metavar="SECONDS", help="Stop after this many seconds.")
@threads_option
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Strategy file (default jotto-<letters>-letters-<mode>.jotto).")
@click.option("--resume", is_flag=True, help="Continue the run saved in --out.")
@click.option("--force", is_flag=True, help="Overwrite --out and --plot if they exist.")
@click.option("--checkpoint-every", type=POSITIVE_FINITE, default=10.0,
              show_default=True, metavar="SECONDS", help="Seconds between checkpoints.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on standard error (default: when it is a terminal).")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the convergence plot (PNG, SVG or PDF; needs matplotlib).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def solve_command(words, letters, anagrams, skip_invalid, mode, iterations, target_epsilon,
                  time_budget, threads, out, resume, force, checkpoint_every, progress, plot,
                  as_json):
    """Compute an approximate equilibrium by fictitious play (SolveJotto, Algorithm 13).

    Writes a strategy file (checkpointed while running; Ctrl-C saves and exits, --resume
    continues) and prints Table 1's rows for the run.
    """
    if resume and out is None:
        raise BadInput("--resume needs --out: the strategy file to continue")
    check_plot_output(plot, force)
    out = out or default_out(letters or 5, mode or "exact")
    check_writable(out)
    with output_lock(out):  # held from the first look at --out to the last write
        _solve_into(out, words, letters, anagrams, skip_invalid, mode, iterations,
                    target_epsilon, time_budget, threads, resume, force, checkpoint_every,
                    progress, plot, as_json)


def _solve_into(out, words, letters, anagrams, skip_invalid, mode, iterations, target_epsilon,
                time_budget, threads, resume, force, checkpoint_every, progress, plot, as_json):
    """The solve command once --out is locked: resume, reuse or compute, then report."""
    resume_from = None
    if resume:
        if out.exists():
            resume_from = load_payload(out)
            mode = mode or resume_from["mode"]
            letters = letters or resume_from["words"]["length"]
        else:
            click.echo(f"jotto: {out} does not exist yet: starting a new run", err=True)
    mode = mode or "exact"
    letters = letters or 5
    wl = None if (resume_from is not None and words is None) else \
        word_list(words, letters, anagrams, skip_invalid)
    if out.exists() and not resume and not force:
        done = _finished(out, wl, mode, iterations)
        if done is None:
            raise BadInput(f"{out} exists: --resume to continue it, --force to overwrite it")
        click.echo(f"jotto: {out} already holds this solve (--force recomputes it)", err=True)
        _report(done, out, plot, as_json)
        return
    if progress is None:
        progress = sys.stderr.isatty()
    try:
        solution = solve(letters, wl, anagrams=anagrams, mode=mode, iterations=iterations,
                         target_epsilon=target_epsilon, time_budget=time_budget,
                         threads=threads, out=out, resume=resume, progress=progress,
                         checkpoint_seconds=checkpoint_every)
    except SolveInterrupted as stop:
        click.echo(f"jotto: stopped after iteration {stop.iteration}; the run is saved in "
                   f"{stop.path}. Resume with: jotto solve --out {stop.path} --resume", err=True)
        sys.exit(130)
    except StrategyFileError as exc:
        raise BadInput(str(exc)) from None
    _report(solution, out, plot, as_json)


def _finished(out, wl, mode, iterations):
    """The solution in ``out`` if it is a finished solve of exactly this request, else None."""
    try:
        done = Solution.load(out, words=wl)
    except StrategyFileError:
        return None
    planned = iterations or done.plan.get("iterations")
    if done.mode != mode or done.iterations != planned or done.plan.get("target_epsilon") \
            or done.plan.get("time_budget"):
        return None
    return done


def _report(solution, out, plot, as_json):
    if plot is not None:
        solution.plot(plot)
    if as_json:
        echo_json({"out": str(out), "mode": solution.mode, "rule": solution.rule,
                   "words": {"source": solution.words.source, "size": len(solution.words),
                             "length": solution.words.length, "sha256": solution.words.sha256},
                   "t_star": solution.t_star, "table": solution.table()})
    else:
        click.echo(table_text(solution))
        click.echo(f"Strategy file: {out}" + (f"; plot: {plot}" if plot else ""))
