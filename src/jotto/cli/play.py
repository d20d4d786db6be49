"""``jotto play`` and ``jotto assist``: Jotto with a person, at a terminal or through a pipe."""

from __future__ import annotations

import contextlib
import sys
from typing import Iterator

import click

from ..evaluation import evaluate
from ..interactive import Assist, YouGuess, YouHide, default_guesser, strategy_for
from .main import main
from .options import GUESSER_SPECS_EPILOG, word_list_options
from .players import resolve_words

PROMPTS = {YouGuess: "Your guess: ", YouHide: "Your answer: ", Assist: "> "}


def repl(session) -> None:
    """Read lines until the session ends; quit and end of input stop it cleanly."""
    for line in session.start().lines:
        click.echo(line)
    tty = sys.stdin.isatty()
    prompt = PROMPTS[type(session)] if tty else ""
    while True:
        try:
            line = input(prompt)
        except EOFError:
            click.echo(("\n" if tty else "") + "Bye.")
            return
        reply = session.handle(line)
        for out in reply.lines:
            click.echo(out)
        if reply.done:
            return


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
    f = click.option("--strategy", metavar="FILE", default=None,
                     help="Strategy file from jotto solve (default: the bundled solve for the "
                          "default word list).")(f)
    f = click.option("-g", "--guesser", "guesser_spec", metavar="SPEC", default=None,
                     help="The computer's guesser (default: the equilibrium guesser).")(f)
    f = click.option("--seed", type=int, default=None,
                     help="Seed for the computer's choices (default: fresh each game).")(f)
    return word_list_options(f)


@main.command("play", epilog=GUESSER_SPECS_EPILOG)
@_common
@click.option("--you", type=click.Choice(["guess", "hide"]), default="guess", show_default=True,
              help="guess: the computer hides a word and you guess it; hide: you think of a "
                   "word and the computer guesses it.")
@click.option("--hints", is_flag=True, help="After each reply, say how many words still fit.")
def play_command(words, letters, anagrams, skip_invalid, strategy, guesser_spec, seed, you,
                 hints):
    """Play Jotto against the computer, which plays the equilibrium strategy."""
    with ctrl_c_says_bye():
        wl = resolve_words(words, letters, anagrams, skip_invalid,
                           f"equilibrium:{strategy}" if strategy else None)
        solution = strategy_for(wl, strategy)
        guesser, name = default_guesser(wl, solution, guesser_spec, seed)
        if you == "hide":
            repl(YouHide(wl, guesser, name))
            return
        p = solution.hider() if solution is not None else [1.0] * len(wl)
        repl(YouGuess(wl, p, seed, evaluate(wl, guesser).expected, name, hints))


@main.command("assist", epilog=GUESSER_SPECS_EPILOG)
@_common
def assist_command(words, letters, anagrams, skip_invalid, strategy, guesser_spec, seed):
    """Help with a game played elsewhere: enter guesses and replies, get the candidates left
    and the next guess to make."""
    with ctrl_c_says_bye():
        wl = resolve_words(words, letters, anagrams, skip_invalid,
                           f"equilibrium:{strategy}" if strategy else None)
        guesser, name = default_guesser(wl, strategy_for(wl, strategy), guesser_spec, seed)
        repl(Assist(wl, guesser, name))
