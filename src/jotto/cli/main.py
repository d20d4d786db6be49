"""The command group and its error handling."""

from __future__ import annotations

import os

import click

from .. import __version__
from ..strategy_file import StrategyFileError
from ..trees import TreeFileError
from ..words import WordListError

__all__ = ["BadInput", "main"]


class BadInput(click.ClickException):
    """Bad input: printed as one line, exit code 2."""

    exit_code = 2


#: What counts as the user's mistake rather than jotto's.
USER_ERRORS = (WordListError, StrategyFileError, TreeFileError, ValueError, KeyError, OSError,
               ImportError)


def _message(exc: BaseException) -> str:
    if isinstance(exc, KeyError) and exc.args:
        return str(exc.args[0])
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.filename}: {exc.strerror or exc}"
    return str(exc)


class JottoGroup(click.Group):
    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            # the reader of our output went away (``| head``): stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            ctx.exit(0)
        except USER_ERRORS as exc:
            if os.environ.get("JOTTO_DEBUG"):
                raise
            raise BadInput(_message(exc)) from None


@click.group(cls=JottoGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="jotto")
def main() -> None:
    """Game-theoretic strategies for the word game Jotto.

    Solve the game by fictitious play (Ganzfried 2011), evaluate guessers and hiders (Norvig
    2020), and play against the computer.  Word lists: the bundled ENABLE (default) and
    sgb-words, or any file.
    """


def _register() -> None:
    from . import analyze, evaluate, play, solve, stats, tree  # noqa: F401  (they register)


_register()
