"""``jotto stats``: the games played with ``jotto play``, summed up."""

from __future__ import annotations

import click

from ..play.history import Stats, outcome_text, summarise
from ..util.text import bar
from .options import echo_json

TITLES = {
    "race": "Race games",
    "guess": "Games where you guessed my word",
    "hide": "Games where I guessed your word",
}


def group_title(s: dict) -> str:
    """``Race games, enable, 5 letters, hard``."""
    length = f"{s['length']} letters" if s["length"] is not None else "unknown length"
    return f"{TITLES[s['mode']]}, {s['words']}, {length}, {s['level']}"


@click.command("stats")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def stats_command(as_json):
    """Your record in jotto play: games, outcomes, guesses per game and their histogram, by
    mode, word list, word length and level.  Kept in the user data directory (JOTTO_DATA_DIR
    overrides it): games played at a terminal, and others with jotto play --save."""
    stats = Stats(warn=lambda m: click.echo(f"jotto: {m}", err=True))
    summary = summarise(stats.games())
    if as_json:
        echo_json({"file": str(stats.path), "groups": summary})
        return
    if not summary:
        click.echo(f"No games recorded yet ({stats.path}). Play one: jotto play")
        return
    for s in summary:
        click.echo(f"{group_title(s)}: {s['games']} ({outcome_text(s['mode'], s['outcomes'])})")
        g = s["guesses"]
        if g["games"]:
            who = "I needed" if s["mode"] == "hide" else "you needed"
            click.echo(
                f"  guesses {who} when the word was found: mean {g['mean']:.2f} over "
                f"{g['games']} game{'s' if g['games'] != 1 else ''}"
            )
            top = max(g["histogram"].values())
            for k, n in g["histogram"].items():
                click.echo(f"  {k:>3} {bar(n / top, 30):<30} {n}")
    click.echo(f"({stats.path})")
