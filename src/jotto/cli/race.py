"""``jotto race``: who wins a race between two guessers (:mod:`jotto.players.races`)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any

import click

from ..players.races import DEFAULT_GAMES, RaceEstimate, race
from ..players.specs import default_guesser_spec
from .options import (
    GUESSER_SPEC,
    HIDER_SPEC,
    SEED,
    SPECS_EPILOG,
    echo_json,
    threads_option,
    word_list_options,
)
from .players import resolve_words

#: Most simulated races: each is played in Python, about a millisecond.
MAX_GAMES = 10**6


@click.command("race", epilog=SPECS_EPILOG)
@word_list_options
@click.option(
    "-1",
    "--first",
    "first_spec",
    type=GUESSER_SPEC,
    default=None,
    metavar="SPEC",
    help="The first player's guesser, who guesses first in each round (specs below; "
    "default: the equilibrium guesser of the bundled solve when the word list has "
    "one, else gbr:exact, as jotto play).",
)
@click.option(
    "-2",
    "--second",
    "second_spec",
    type=GUESSER_SPEC,
    default=None,
    metavar="SPEC",
    help="The second player's guesser (default: the same as the first's).",
)
@click.option(
    "--first-hider",
    type=HIDER_SPEC,
    default="uniform",
    show_default=True,
    metavar="SPEC",
    help="How the first player hides its word (the second must find "
    "it); best-response answers the second's guesser.",
)
@click.option(
    "--second-hider",
    type=HIDER_SPEC,
    default="uniform",
    show_default=True,
    metavar="SPEC",
    help="How the second player hides its word.",
)
@click.option(
    "--games",
    type=click.IntRange(1, MAX_GAMES),
    default=None,
    help=f"Also simulate this many races (at most {MAX_GAMES:,}); when a guesser's "
    f"chances cannot be computed exactly (a random guesser) they are simulated "
    f"anyway, {DEFAULT_GAMES:,} races unless given.",
)
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help="Seed for drawing the secret words of simulated races.",
)
@threads_option
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def race_command(
    words,
    letters,
    rules,
    skip_invalid,
    first_spec,
    second_spec,
    first_hider,
    second_hider,
    games,
    seed,
    threads,
    as_json,
):
    """Who wins a race between two guessers: both hide a word and take turns, the first player
    guessing first in each round; the first to find the other's word wins, and if both find it
    in the same round it is a draw.  Exact chances (fractions) when both guessers are decision
    trees or mixtures of trees; simulated, with 95% confidence intervals, otherwise."""
    wl = resolve_words(
        words, letters, rules, skip_invalid, first_spec, second_spec, first_hider, second_hider
    )
    first_spec = first_spec or default_guesser_spec(wl)
    second_spec = second_spec or first_spec
    with _race_progress(as_json) as progress:
        result = race(
            wl,
            first_spec,
            second_spec,
            first_hider=first_hider,
            second_hider=second_hider,
            games=games,
            seed=seed,
            threads=threads,
            progress=progress,
        )
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
                **result.as_dict(),
            }
        )
        return
    how = "exact" if result.exact else f"simulated, {result.estimate.games:,} races"
    click.echo(
        f"Race on {wl.source} ({len(wl)} words of {wl.length} letters, rules "
        f"{wl.rules.name}), {how}:"
    )
    click.echo(f"  first:  {first_spec}, hiding {result.first_hider}")
    click.echo(f"  second: {second_spec}, hiding {result.second_hider}")
    lines: list[tuple[str, Any, str]] = [
        ("first wins", result.win, "first"),
        ("draw", result.draw, "draw"),
        ("second wins", result.loss, "second"),
    ]
    for label, p, outcome in lines:
        exact = f"  ({p})" if result.exact else ""
        ci = ""
        if not result.exact:
            lo, hi = result.estimate.interval(outcome)
            ci = f"  [{100 * lo:.2f}%, {100 * hi:.2f}%]"
        click.echo(f"  {label:<12} {100 * float(p):6.2f}%{exact}{ci}")
    adv = f"  advantage of the first: {100 * float(result.advantage):+.2f} points (wins - losses)"
    if not result.exact:
        lo, hi = result.estimate.advantage_interval()
        adv += f", [{100 * lo:+.2f}, {100 * hi:+.2f}]"
    click.echo(adv)
    expected = result.expected_guesses()
    if expected is not None:
        click.echo(
            f"  expected guesses: {float(expected[0]):.4f} (first), "
            f"{float(expected[1]):.4f} (second)"
        )
    est = result.estimate
    if est is not None:
        click.echo(
            f"Simulated: {est.games:,} races, secret words drawn with seed {est.seed}"
            + ("; intervals at 95% confidence" if not result.exact else "")
        )
        if result.exact:
            lo, hi = est.interval("first")
            click.echo(
                f"  first wins {100 * est.share('first'):.2f}% [{100 * lo:.2f}%, "
                f"{100 * hi:.2f}%], draw {100 * est.share('draw'):.2f}%, second wins "
                f"{100 * est.share('second'):.2f}%"
            )


@contextlib.contextmanager
def _race_progress(as_json: bool) -> Iterator[Any]:
    """The ``progress`` of :func:`jotto.race`: a bar on standard error when it is a terminal;
    on Ctrl-C, the races simulated so far in one line, then exit status 130."""
    last: list[RaceEstimate] = []
    bar = None

    def progress(so_far: RaceEstimate, games: int) -> None:
        nonlocal bar
        last[:] = [so_far]
        if bar is None and sys.stderr.isatty() and not as_json:
            from tqdm import tqdm

            bar = tqdm(
                total=games,
                unit="races",
                file=sys.stderr,
                dynamic_ncols=True,
                leave=False,
                desc="simulating",
            )
        if bar is not None:
            bar.update(so_far.games - bar.n)

    try:
        yield progress
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
            bar = None
        if last:
            est = last[0]
            lo, hi = est.interval("first")
            click.echo(
                f"jotto: interrupted after {est.games:,} simulated races (seed "
                f"{est.seed}): first wins {100 * est.share('first'):.2f}% "
                f"[{100 * lo:.2f}%, {100 * hi:.2f}%], draw "
                f"{100 * est.share('draw'):.2f}%, second wins "
                f"{100 * est.share('second'):.2f}%",
                err=True,
            )
        else:
            click.echo("jotto: interrupted before the first race was simulated", err=True)
        sys.exit(130)
    finally:
        if bar is not None:
            bar.close()
