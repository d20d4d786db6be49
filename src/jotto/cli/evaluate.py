"""``jotto evaluate``: a guesser against every target, against a hider, and how exploitable the
pair is."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import click
import numpy as np

from ..game.certificates import check_certificate_path
from ..players import make_guesser, make_hider
from ..players.evaluation import evaluate, exploitability, sample_games
from ..players.specs import default_guesser_spec
from ..responses.best_responses import best_response as search_best_response
from .main import BadInput
from .options import (
    GUESSER_SPEC,
    HIDER_SPEC,
    SEED,
    SPECS_EPILOG,
    bound_progress,
    check_plot_output,
    echo_json,
    executor_options,
    hidden_weights,
    hide_from_option,
    interval_text,
    open_executor,
    optional_seconds,
    threads_option,
    word_list_options,
)
from .players import resolve_words

#: Most sampled games: each is drawn and played in Python, about 10 µs, so this bounds the run
#: to seconds and its arrays to megabytes (the exact evaluation needs no sampling anyway).
MAX_GAMES = 10**6


@click.command("evaluate", epilog=SPECS_EPILOG)
@word_list_options
@click.option(
    "-g",
    "--guesser",
    "guesser_spec",
    type=GUESSER_SPEC,
    default=None,
    metavar="SPEC",
    help="The guesser (specs below; default: the equilibrium guesser of the bundled "
    "solve when the word list has one, else gbr:exact, as jotto play).",
)
@click.option(
    "-H",
    "--hider",
    "hider_spec",
    type=HIDER_SPEC,
    default="uniform",
    show_default=True,
    metavar="SPEC",
    help="The hider it meets (specs below; with --hide-from, restricted to its words).",
)
@hide_from_option
@click.option(
    "--games",
    type=click.IntRange(1, MAX_GAMES),
    default=None,
    help=f"Also play this many games (at most {MAX_GAMES:,}) against secrets drawn from the hider.",
)
@click.option(
    "--seed", type=SEED, default=0, show_default=True, help="Seed for drawing secrets in --games."
)
@click.option(
    "--rule",
    type=click.Choice(["exact", "paper"]),
    default="exact",
    show_default=True,
    help="GuesserGBR rule of the guesser's (greedy) best response in the exploitability numbers.",
)
@click.option(
    "--best-response",
    "best_response",
    is_flag=False,
    flag_value="exact",
    default=None,
    metavar="[SECONDS]",
    help="Also find the guesser's true best response to the hider by branch and bound "
    "(exact, or the certified bounds found within SECONDS), for the true "
    "NashConv.",
)
@click.option(
    "--worst",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="How many of the hardest targets to list.",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the histogram (PNG, SVG or PDF; needs matplotlib).",
)
@click.option("--force", is_flag=True, help="Overwrite --plot if it exists.")
@click.option(
    "--certificate",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="With --best-response: also write a certificate of its lower bound to FILE "
    "(jotto check-proof verifies it without the search).  Never overwrites a "
    "file.",
)
@threads_option
@executor_options
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def evaluate_command(
    words,
    letters,
    rules,
    skip_invalid,
    guesser_spec,
    hider_spec,
    hide_from,
    games,
    seed,
    rule,
    best_response,
    worst,
    plot,
    force,
    certificate,
    threads,
    workers,
    scheduler,
    as_json,
):
    """Evaluate a guesser: one game against every target (mean ± sd, worst case, hardest
    targets, histogram), the head-to-head payoff against a hider, and the profile's
    exploitability (OpenSpiel's NashConv and exploitability, with the guesser's best response
    greedy)."""
    check_plot_output(plot, force)
    budget = optional_seconds(best_response, "--best-response")
    if best_response is None and (workers is not None or scheduler is not None):
        raise BadInput("--workers and --scheduler run the proof of --best-response; give it")
    if certificate is not None:
        if best_response is None:
            raise BadInput(
                "--certificate certifies the true best response's lower bound: give --best-response"
            )
        if workers is not None or scheduler is not None:
            raise BadInput(
                "--certificate is written by the proof in this process: it takes no "
                "--workers or --scheduler"
            )
        check_certificate_path(certificate)
    wl = resolve_words(words, letters, rules, skip_invalid, guesser_spec, hider_spec)
    guesser_spec = guesser_spec or default_guesser_spec(wl)
    hidden = hidden_weights(wl, hide_from)
    guesser = make_guesser(guesser_spec, wl, threads)
    ev = evaluate(wl, guesser, hide_from=hide_from)
    # a hider answering the guesser picks its worst targets among the words it may hide
    expected = ev.expected if hidden is None else np.where(hidden > 0, ev.expected, 0.0)
    hider = make_hider(hider_spec, wl, expected, guesser_spec)
    p = hider.distribution()
    hider_name = hider.name
    if hidden is not None:  # the hider restricted to the words of --hide-from
        p = p * hidden
        if not p.sum() > 0:
            raise BadInput(
                f"--hide-from {hide_from}: hider {hider.name} puts no weight on its words"
            )
        p = p / p.sum()
        hider_name = f"{hider.name} over the {int(hidden.sum())} words of --hide-from {hide_from}"
    sampled = None
    if games is not None:
        rng = np.random.default_rng(seed)
        secrets = (
            np.array([hider.secret(rng) for _ in range(games)])
            if hidden is None
            else rng.choice(len(wl), size=games, p=p)
        )
        counts = sample_games(wl, guesser, secrets)
        sampled = {
            "games": games,
            "seed": seed,
            "mean": float(counts.mean()),
            "std": float(counts.std(ddof=1)) if games > 1 else 0.0,
            "worst": int(counts.max()),
        }
    if plot is not None:
        ev.plot_histogram(plot)
    ex = exploitability(p, ev, rule=rule, threads=threads)
    if not as_json:  # what takes seconds first; then the search, which may take hours
        _print_evaluation(wl, guesser_spec, ev, worst, hider_name, ex, rule, hidden, hide_from)
    if best_response is not None:
        here = workers is None and scheduler is None  # the search in this process
        with (
            bound_progress(
                "the guesser's true best response", here and sys.stderr.isatty() and not as_json
            ) as report,
            open_executor(workers, scheduler) as executor,
        ):
            br = search_best_response(
                wl,
                p,
                budget=budget,
                threads=threads,
                certificate=certificate,
                executor=executor,
                progress=report if here else None,
            )
        ex = replace(ex, best_response=(br.lower, br.upper))
    if as_json:
        echo_json(
            {
                "words": {
                    "source": wl.source,
                    "size": len(wl),
                    "length": wl.length,
                    "rules": wl.rules.to_dict(),
                    "rules_name": wl.rules.name,
                    "sha256": wl.sha256,
                },
                "evaluation": ev.as_dict(worst),
                "hider": hider_name,
                "hide_from": hide_from,
                "head_to_head": ex.value,
                "exploitability": ex.as_dict(),
                "sampled_games": sampled,
            }
        )
        return
    if ex.best_response is not None:
        lo, hi = ex.best_response
        nc_lo, nc_hi = ex.true_nash_conv
        found = interval_text(lo, hi)
        click.echo(
            f"  guesser's true best response: {found} expected guesses"
            + (" (exact)" if lo == hi else " (proved bound, best tree found)")
        )
        click.echo(
            f"  true NashConv {interval_text(nc_lo, nc_hi)}, exploitability "
            f"{interval_text(nc_lo / 2, nc_hi / 2)}"
        )
    if sampled is not None:
        click.echo(
            f"{games} games against secrets drawn from the hider (seed {seed}): mean "
            f"{sampled['mean']:.3f} ± {sampled['std']:.3f}, worst {sampled['worst']}"
        )
    if plot is not None:
        click.echo(f"Histogram: {plot}")


def _print_evaluation(wl, guesser_spec, ev, worst, hider_name, ex, rule, hidden, hide_from) -> None:
    """The evaluation and the greedy exploitability numbers, as lines (``hidden``: the 0/1
    weights of ``--hide-from``, or None)."""
    exact = "exact" if ev.exact else "one game per target"
    if hidden is not None:
        exact += f", secrets the {int(hidden.sum())} words of --hide-from {hide_from}"
    click.echo(
        f"{guesser_spec} on {wl.source} ({len(wl)} words of {wl.length} letters, rules "
        f"{wl.rules.name}), {exact}:"
    )
    click.echo(f"  {ev.summary()}")
    if ev.mixed:
        click.echo(f"  ({ev.worst_note()})")
    click.echo(
        "  hardest targets: " + ", ".join(f"{w} ({g:.3g})" for w, g in ev.worst_targets(worst))
    )
    click.echo(ev.histogram_text())
    click.echo(f"Against hider {hider_name}: {ex.value:.4f} expected guesses")
    click.echo(
        f"  hider's best response (its worst targets): {ex.hider_br_value:.4f} "
        f"(gain {ex.hider_gain:.4f})"
    )
    click.echo(
        f"  guesser's greedy best response (GuesserGBR, {rule} rule): "
        f"{ex.guesser_br_value:.4f} (gain {ex.guesser_gain:.4f})"
    )
    click.echo(
        f"  NashConv {ex.nash_conv:.4f}, exploitability {ex.exploitability:.4f} (against "
        f"the greedy best response)"
    )
