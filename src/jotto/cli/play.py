"""``jotto play`` and ``jotto assist``: Jotto with a person, at a terminal or through a pipe.

At a terminal: line editing and history (``readline``, where the platform has it), colour
where the terminal has it, text wrapped to the terminal's width, "Play again?" after each game
(the opening said once), and statistics kept across sessions (``jotto stats``).  Through a pipe:
plain text, one game, no prompts, nothing recorded unless ``--save``, so scripts can drive it.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sys
import textwrap
from collections.abc import Callable, Iterator

import click
import numpy as np

from ..play.commonness import hiding_set
from ..play.history import GameLog, Stats, outcome_text, summary_of
from ..play.review import game_record, review_game, review_record
from ..play.sessions import (
    HIDE_FROM,
    LEVELS,
    Assist,
    hider_for,
    level_players,
    new_session,
    strategy_for,
)
from ..play.sheet import Style
from ..players.evaluation import evaluate
from .options import GUESSER_SPEC, GUESSER_SPECS_EPILOG, SEED, word_list_options
from .players import resolve_words

YES_AGAIN = {"y", "yes"}
#: What reviews the game just played, at "Play again?" (or after the game, through a pipe).
REVIEW = "review"
AGAIN = "Play again? [y/N, or review] "


def enable_line_editing() -> None:
    """Arrow keys, editing and history at the prompt, where Python has ``readline``."""
    try:
        import readline
    except ImportError:  # pragma: no cover (Windows without pyreadline)
        return
    if "libedit" not in (readline.__doc__ or ""):
        # no bracketed-paste escapes around each prompt (they garble logs and pipes)
        readline.parse_and_bind("set enable-bracketed-paste off")


#: An ANSI colour code (zero width on the terminal).
_SGR = re.compile(r"\x1b\[[0-9;]*m")


def terminal_width() -> int:
    """The width of the terminal standard output is (0 if it is none): the terminal's own
    size, which follows a resized window, else ``COLUMNS``."""
    if not sys.stdout.isatty():
        return 0
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns
    except (OSError, ValueError):
        return shutil.get_terminal_size().columns


def say(line: str) -> None:
    """Print a line of a session; at a terminal, wrapped to its width (continuation lines
    indented as the line is).  Lines with colour are sheet rows, short: never wrapped."""
    width = terminal_width() - 1
    if width < 20 or len(line) <= width or _SGR.search(line):
        click.echo(line)
        return
    indent = line[: len(line) - len(line.lstrip())]
    click.echo(textwrap.fill(line, width, subsequent_indent=indent + "  ", break_on_hyphens=False))


def repl(session) -> bool:
    """Read lines until the session ends; True if it ended by itself, False on end of input
    (quit and end of input stop it cleanly)."""
    for line in session.start().lines:
        say(line)
    tty = sys.stdin.isatty()
    while True:
        try:
            line = input(session.prompt if tty else "")
        except EOFError:
            click.echo(("\n" if tty else "") + "Bye.")
            return False
        reply = session.handle(line)
        for out in reply.lines:
            say(out)
        if reply.done:
            return True


def play_games(
    new_session: Callable[[int], object],
    stats: Stats | None,
    about: dict[str, object],
    log: GameLog | None = None,
) -> None:
    """Game after game: each finished game is recorded with ``about`` (level, word list) unless
    ``stats`` is None, and kept in the game ``log`` if given; at a terminal it is followed by
    "Play again?", where ``review`` reviews it.  Through a pipe a line ``review`` after the
    game reviews it.  The opening (which words are secrets) is said before the first game
    only."""
    game = 0
    while True:
        session = new_session(game)
        session.opening = game == 0  # type: ignore[attr-defined]
        ended = repl(session)
        result = session.result()  # type: ignore[attr-defined]
        if result is not None and stats is not None and stats.record({**result, **about}):
            say(_record_line(stats, {**result, **about}))
            if log is not None:  # beside the statistics: not tried where they failed
                log.record(_game_record(session, result, about))
        if not ended or result is None:
            return  # end of input or quit: no more games
        if not sys.stdin.isatty():  # a script at the other end: one game, and its review
            with contextlib.suppress(EOFError):
                if input().strip().lower() == REVIEW:
                    show_review(_game_record(session, result, about), session.words)
            return
        while True:
            try:
                again = input(AGAIN).strip().lower()
            except EOFError:
                again = ""
            if again != REVIEW:
                break
            show_review(_game_record(session, result, about), session.words)
        if again not in YES_AGAIN:
            click.echo("Bye.")
            return
        game += 1


def _game_record(session, result: dict, about: dict) -> dict:
    """A finished game as the game log keeps it (:func:`jotto.play.review.game_record`)."""
    moves = session.game_moves()
    return game_record(
        session.words,
        result["mode"],
        result["outcome"],
        moves["yours"],
        moves["mine"],
        str(about.get("level")),
        moves["my_word"],
    )


def show_review(record: dict, words=None) -> None:
    """Print the review of a game (:mod:`jotto.play.review`) from its record."""
    if words is None:
        review = review_record(record)
    else:
        review = review_game(
            words, record["mode"], record["outcome"], record["yours"], record["mine"]
        )
    for line in review.lines():
        say(line)


def _record_line(stats: Stats, game: dict) -> str:
    """The tally after a game: the games of its mode, list, length and level, the outcomes in
    the words ``jotto stats`` uses."""
    s = summary_of(stats.games(), game)
    return (
        f"Your {s['mode']} games so far ({s['words']}, {s['length']} letters, {s['level']}): "
        f"{s['games']} ({outcome_text(s['mode'], s['outcomes'])}). 'jotto stats' shows "
        f"more."
    )


@contextlib.contextmanager
def ctrl_c_says_bye() -> Iterator[None]:
    """Ctrl-C anywhere in a session (at the prompt or while the computer thinks) ends it with
    a goodbye and exit status 130, not a traceback."""
    try:
        yield
    except KeyboardInterrupt:
        click.echo("\nBye.")
        sys.exit(130)


def _common(f):
    f = click.option(
        "--strategy",
        metavar="FILE",
        default=None,
        help="Strategy file from jotto solve (default: the bundled solve for the "
        "default word list).",
    )(f)
    f = click.option(
        "-g",
        "--guesser",
        "guesser_spec",
        type=GUESSER_SPEC,
        metavar="SPEC",
        default=None,
        help="The computer's guesser (default: the level's).",
    )(f)
    f = click.option(
        "--seed",
        type=SEED,
        default=None,
        help="Seed for the computer's choices (default: fresh each game; game k "
        "of a session uses SEED+k-1).",
    )(f)
    return word_list_options(f)


LEVEL_HELP = "The computer's strength. " + " ".join(f"{k}: {v}." for k, v in LEVELS.items())


@click.command("play", epilog=GUESSER_SPECS_EPILOG)
@_common
@click.option(
    "--you",
    type=click.Choice(["race", "guess", "hide"]),
    default="race",
    show_default=True,
    help="race: both hide a word and take turns guessing, first to find the other's "
    "wins; guess: the computer hides a word and you guess it; hide: you think of "
    "a word and the computer guesses it.",
)
@click.option(
    "--level", type=click.Choice(list(LEVELS)), default="hard", show_default=True, help=LEVEL_HELP
)
@click.option("--hints", is_flag=True, help="Also say how many words still fit your replies.")
@click.option(
    "--hide-from",
    "hide_from",
    metavar="WORDS",
    default=None,
    help="The words the computer hides: common (default at easy and medium: by "
    "wordfreq when installed, else the bundled Stanford GraphBase list at 5 "
    "letters, else any), wordfreq, sgb, sgb:N (the N most common of those), all "
    "(default at hard, whose equilibrium hider may hide any word its game lets it: "
    "on Norvig's list, -w sgb -r norvig, one of the 200 most common), or a FILE of "
    "words (FILE:N: its first N).  Your guesses may be any word of the list.",
)
@click.option(
    "--sheet/--no-sheet",
    default=True,
    show_default=True,
    help="Show the Jotto sheet (guesses, replies, letters proved in or out) after each turn.",
)
@click.option(
    "--save/--no-save",
    "--save-stats/--no-save-stats",
    "save",
    default=None,
    help="Record finished games in the statistics (jotto stats), kept in the user "
    "data directory (JOTTO_DATA_DIR overrides it).  Default: when standard "
    "input is a terminal (a script's games are not recorded unless asked).",
)
def play_command(
    words,
    letters,
    rules,
    skip_invalid,
    strategy,
    guesser_spec,
    seed,
    you,
    level,
    hide_from,
    hints,
    sheet,
    save,
):
    """Play Jotto against the computer.

    By default the race: you and the computer each hide a word and take turns guessing the
    other's; the first to find it wins.  After each turn a Jotto sheet shows the guesses, their
    replies and the letters they prove in or out.  Type 'help' in a game for its commands, and
    'review' after it (at "Play again?", or as the next line through a pipe) for a review of
    every guess; jotto review shows it again later.
    """
    with ctrl_c_says_bye():
        wl = resolve_words(
            words, letters, rules, skip_invalid, f"equilibrium:{strategy}" if strategy else None
        )
        solution = strategy_for(wl, strategy)
        hider = hider_for(wl, solution) if level == "hard" else None
        hiding = hiding_set(wl, hide_from or HIDE_FROM[level])  # checked before the game
        style = Style.for_stream(sys.stdout)
        if sys.stdin.isatty():
            enable_line_editing()
        if save is None:
            save = sys.stdin.isatty()

        def warn(message: str) -> None:
            click.echo(f"jotto: {message}", err=True)

        stats = Stats(warn=warn) if save else None
        log = GameLog(warn=warn) if save else None
        expected: dict[str, object] = {}

        def expected_of(guesser) -> np.ndarray | None:
            """The guesser's expected guesses per word, once (a random guesser would give
            one sample game, not an expectation)."""
            if "exp" not in expected:
                exact = getattr(guesser, "deterministic", True) is not False
                expected["exp"] = evaluate(wl, guesser).expected if exact else None
            return expected["exp"]  # type: ignore[return-value]

        def make(game: int):
            return new_session(
                you,
                wl,
                level,
                hiding,
                solution,
                guesser_spec,
                None if seed is None else seed + game,
                hints,
                style,
                sheet,
                expected_of,
                hider,
            )

        play_games(
            make,
            stats,
            {"level": level, "words": {"source": wl.source, "size": len(wl), "length": wl.length}},
            log,
        )


@click.command("assist", epilog=GUESSER_SPECS_EPILOG)
@_common
@click.option(
    "--sheet/--no-sheet",
    default=True,
    show_default=True,
    help="Show the Jotto sheet (the guesses, their replies, letters proved in or "
    "out) after each guess entered.",
)
def assist_command(words, letters, rules, skip_invalid, strategy, guesser_spec, seed, sheet):
    """Help with a game played elsewhere: enter guesses and replies, get the sheet, the
    candidates left and the next guess to make."""
    with ctrl_c_says_bye():
        wl = resolve_words(
            words, letters, rules, skip_invalid, f"equilibrium:{strategy}" if strategy else None
        )
        # assist advises after any guesses: a strategy whose guesser cannot (the double
        # oracle's trees) leaves the advice to the one used without a strategy
        solution = strategy_for(wl, strategy)
        if solution is not None and not solution.guesses_any_history:
            solution = None
        guesser, name, _ = level_players(wl, solution, guesser_spec, seed, "hard")
        if sys.stdin.isatty():
            enable_line_editing()
        repl(
            Assist(
                wl,
                guesser,
                name,
                style=Style.for_stream(sys.stdout),
                sheet=sheet,
                drawn=seed is None and getattr(guesser, "moments", None) is not None,
            )
        )
