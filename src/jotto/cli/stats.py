"""``jotto stats``: the games played with ``jotto play``, summed up."""

from __future__ import annotations

import click

from ..stats import Stats, summarise
from .main import main
from .options import echo_json

TITLES = {"race": "Race games", "guess": "Games where you guessed my word",
          "hide": "Games where I guessed your word"}


@main.command("stats")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def stats_command(as_json):
    """Your record in jotto play: games, wins, guesses per game and their histogram.  Kept in
    the user data directory (JOTTO_DATA_DIR overrides it); jotto play --no-save keeps a game
    out of it."""
    stats = Stats(warn=lambda m: click.echo(f"jotto: {m}", err=True))
    summary = summarise(stats.games())
    if as_json:
        echo_json({"file": str(stats.path), "modes": summary})
        return
    if not summary:
        click.echo(f"No games recorded yet ({stats.path}). Play one: jotto play")
        return
    for mode, s in summary.items():
        outcomes = ", ".join(f"{n} {what}" for what, n in s["outcomes"].items())
        click.echo(f"{TITLES[mode]}: {s['games']} ({outcomes})")
        g = s["guesses"]
        if g["games"]:
            who = "I needed" if mode == "hide" else "you needed"
            click.echo(f"  guesses {who} when the word was found: mean {g['mean']:.2f} over "
                       f"{g['games']} game{'s' if g['games'] != 1 else ''}")
            top = max(g["histogram"].values())
            for k, n in g["histogram"].items():
                click.echo(f"  {k:>3} {'#' * max(1, round(30 * n / top)):<30} {n}")
    click.echo(f"({stats.path})")
