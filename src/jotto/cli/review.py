"""``jotto review``: the review of a game played with ``jotto play`` (:mod:`jotto.play.review`)."""

from __future__ import annotations

from pathlib import Path

import click

from ..play.history import GameLog
from ..play.review import review_record
from .options import echo_json
from .play import say


@click.command("review")
@click.argument("game", metavar="[last|FILE]", default="last")
@click.option(
    "--game",
    "number",
    type=int,
    default=None,
    help="Which game of the log: 1 the first, -1 the last (the default), -2 the one before.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
def review_command(game, number, as_json):
    """Review a game: for each guess (yours and mine) the candidates left, the expected
    guesses still needed after it against the best guess's (exact, or a proven interval when
    the search does not finish in its time), the guesses lost and the luck of the reply; then
    skill and luck scores and a line to share.  'last' (the default) is the last game of the
    game log that jotto play keeps beside the statistics (JOTTO_DATA_DIR overrides where);
    FILE is such a log."""
    if game == "last":
        log = GameLog(warn=lambda m: click.echo(f"jotto: {m}", err=True))
    else:
        path = Path(game)
        if not path.is_file():
            raise ValueError(f"{game}: no such file (give 'last' or a game log file)")
        log = GameLog(path=path)
    games = log.games()
    if not games:
        raise ValueError(f"no games in the game log {log.path}; play one: jotto play")
    k = -1 if number is None else number
    if k == 0 or not -len(games) <= k <= len(games):
        raise ValueError(
            f"--game {number}: the game log {log.path} holds {len(games)} "
            f"game{'s' if len(games) != 1 else ''} (1 to {len(games)}, or -1 to "
            f"-{len(games)} from the last)"
        )
    index = k - 1 if k > 0 else len(games) + k
    review = review_record(games[index], f"{log.path}, game {index + 1}")
    if as_json:
        echo_json(review.as_dict())
        return
    record = games[index]
    say(f"Game {index + 1} of {len(games)} in {log.path}:")
    say(
        f"{record.get('mode')} on {review.words.source} ({review.words.length} letters), "
        f"{record.get('time', '')}, {record.get('outcome')}."
    )
    for line in review.lines():
        say(line)
