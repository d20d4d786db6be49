"""``jotto race``: who wins a race between two guessers (:mod:`jotto.players.races`)."""

from __future__ import annotations

from typing import Any

import click

from ..players.evaluation import evaluate
from ..players import make_guesser, make_hider
from ..players.specs import default_guesser_spec
from ..players.races import DEFAULT_GAMES, race
from .options import GUESSER_SPEC, HIDER_SPEC, SEED, SPECS_EPILOG, echo_json, threads_option, \
    word_list_options
from .players import resolve_words

#: Most simulated races: each is played in Python, about a millisecond.
MAX_GAMES = 10**6


def _hider(spec: str, words, opponent, opponent_spec: str):
    """A player's hider; ``best-response`` answers the other player's guesser."""
    expected = None
    if spec.split(":")[0].lower() in ("best-response", "best_response", "br"):
        expected = evaluate(words, opponent).expected
    return make_hider(spec, words, expected, opponent_spec)


@click.command("race", epilog=SPECS_EPILOG)
@word_list_options
@click.option("-1", "--first", "first_spec", type=GUESSER_SPEC, default=None, metavar="SPEC",
              help="The first player's guesser, who guesses first in each round (specs below; "
                   "default: the equilibrium guesser of the bundled solve when the word list has "
                   "one, else gbr:exact, as jotto play).")
@click.option("-2", "--second", "second_spec", type=GUESSER_SPEC, default=None, metavar="SPEC",
              help="The second player's guesser (default: the same as the first's).")
@click.option("--first-hider", type=HIDER_SPEC, default="uniform", show_default=True,
              metavar="SPEC", help="How the first player hides its word (the second must find "
                                   "it); best-response answers the second's guesser.")
@click.option("--second-hider", type=HIDER_SPEC, default="uniform", show_default=True,
              metavar="SPEC", help="How the second player hides its word.")
@click.option("--games", type=click.IntRange(1, MAX_GAMES), default=None,
              help=f"Also simulate this many races (at most {MAX_GAMES:,}); when a guesser's "
                   f"chances cannot be computed exactly (a random guesser) they are simulated "
                   f"anyway, {DEFAULT_GAMES:,} races unless given.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed for drawing the secret words of simulated races.")
@threads_option
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def race_command(words, letters, rules, skip_invalid, first_spec, second_spec, first_hider,
                 second_hider, games, seed, threads, as_json):
    """Who wins a race between two guessers: both hide a word and take turns, the first player
    guessing first in each round; the first to find the other's word wins, and if both find it
    in the same round it is a draw.  Exact chances (fractions) when both guessers are decision
    trees or mixtures of trees; simulated, with 95% confidence intervals, otherwise."""
    wl = resolve_words(words, letters, rules, skip_invalid, first_spec, second_spec,
                       first_hider, second_hider)
    first_spec = first_spec or default_guesser_spec(wl)
    second_spec = second_spec or first_spec
    first = make_guesser(first_spec, wl, threads)
    second = make_guesser(second_spec, wl, threads)  # its own object: mixtures keep state
    hider_a = _hider(first_hider, wl, second, second_spec)
    hider_b = _hider(second_hider, wl, first, first_spec)
    result = race(wl, first, second, first_hider=hider_a, second_hider=hider_b, games=games,
                  seed=seed)
    if as_json:
        echo_json({"words": {"source": wl.source, "size": len(wl), "length": wl.length,
                             "rules": wl.rules.to_dict(), "rules_name": wl.rules.name,
                             "sha256": wl.sha256},
                   **result.as_dict()})
        return
    how = "exact" if result.exact else f"simulated, {result.estimate.games:,} races"
    click.echo(f"Race on {wl.source} ({len(wl)} words of {wl.length} letters, rules "
               f"{wl.rules.name}), {how}:")
    click.echo(f"  first:  {first_spec}, hiding {result.first_hider}")
    click.echo(f"  second: {second_spec}, hiding {result.second_hider}")
    lines: list[tuple[str, Any, str]] = [("first wins", result.win, "first"),
                                          ("draw", result.draw, "draw"),
                                          ("second wins", result.loss, "second")]
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
        click.echo(f"  expected guesses: {float(expected[0]):.4f} (first), "
                   f"{float(expected[1]):.4f} (second)")
    est = result.estimate
    if est is not None:
        click.echo(f"Simulated: {est.games:,} races, secret words drawn with seed {est.seed}"
                   + ("; intervals at 95% confidence" if not result.exact else ""))
        if result.exact:
            lo, hi = est.interval("first")
            click.echo(f"  first wins {100 * est.share('first'):.2f}% [{100 * lo:.2f}%, "
                       f"{100 * hi:.2f}%], draw {100 * est.share('draw'):.2f}%, second wins "
                       f"{100 * est.share('second'):.2f}%")
