"""The command group and its error handling."""

from __future__ import annotations

import os
import re
import sys

import click

from .. import __version__
from ..files import input_limit, quote
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


#: A quoted piece of input too long to echo whole.
_LONG_QUOTED = re.compile(r"'([^']{41,})'")


def _standard_streams() -> None:
    """Closed standard streams, found before any work: a closed standard input reads as empty
    (a session then ends as at Ctrl-D); a closed standard output is an error (exit 2), since
    everything the command would say would be lost."""
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (lives as long as we do)
    if sys.stdout is None:
        if sys.stderr is not None:
            print("jotto: standard output is closed: nothing could be printed", file=sys.stderr)
        sys.exit(BadInput.exit_code)


class JottoGroup(click.Group):
    def main(self, *args, **kwargs):
        _standard_streams()
        return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context):
        try:
            input_limit()  # a bad JOTTO_MAX_INPUT_MB is an error whatever the command reads
            return super().invoke(ctx)
        except BrokenPipeError:
            # the reader of our output went away (``| head``): stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            ctx.exit(0)
        except KeyboardInterrupt:
            # Ctrl-C before a command set up its own handling: end quietly, as killed by SIGINT
            ctx.exit(130)
        except click.ClickException as exc:  # click's own option errors echo the value whole
            exc.message = _LONG_QUOTED.sub(lambda m: quote(m.group(1)), exc.message)
            raise
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
    from . import analyze, evaluate, openers, play, solve, stats, tree  # noqa: F401  (they register)


_register()
