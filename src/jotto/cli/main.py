"""The command group and its error handling; its subcommands are the table in
:mod:`jotto.cli.commands`, each imported when it is asked for."""

from __future__ import annotations

import contextlib
import importlib
import os
import re
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import click

from .._version import __version__
from ..game.trees import TreeFileError
from ..game.words import WordListError
from ..util.files import input_limit, quote
from ..util.interrupts import sigint_held
from ..util.strategy_file import StrategyFileError
from .commands import COMMANDS

__all__ = ["BadInput", "main", "warnings_as_lines"]


class BadInput(click.ClickException):
    """Bad input: printed as one line, exit code 2."""

    exit_code = 2


#: What counts as the user's mistake rather than jotto's.
USER_ERRORS = (
    WordListError,
    StrategyFileError,
    TreeFileError,
    ValueError,
    KeyError,
    OSError,
    ImportError,
)


def _message(exc: BaseException) -> str:
    if isinstance(exc, KeyError) and exc.args:
        return str(exc.args[0])
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.filename}: {exc.strerror or exc}"
    return str(exc)


#: A quoted piece of a message, paired from the left (so the text between two quoted pieces
#: is never taken for one); those longer than 40 characters are cut.
_QUOTED = re.compile(r"'([^']*)'")


def _cut_long_quotes(message: str) -> str:
    return _QUOTED.sub(lambda m: quote(m.group(1)) if len(m.group(1)) > 40 else m.group(0), message)


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


@contextlib.contextmanager
def warnings_as_lines() -> Iterator[Callable[..., None]]:
    """Within the block, a Python warning is shown as the command shows it: one line of its own
    on standard error, ``Warning: <message>``, without the file, line and source line Python
    adds (they mean nothing to a user of the command), and once however many places give it.
    The filters still decide whether it is shown; the library keeps ``warnings.warn`` for
    Python users.  Yields the function that shows one (``warnings.showwarning``'s signature)."""
    shown: set[str] = set()

    def show(message: Warning | str, *_where: Any, **_source: Any) -> None:
        text = " ".join(str(message).split())
        if text not in shown:
            shown.add(text)
            click.echo(f"Warning: {text}", err=True)

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield show


def _silence_stdout() -> None:
    """Standard output goes nowhere from now on: its reader went away (``| head``), and what
    is still buffered must not fail again when Python flushes it at exit."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)


#: Exit status of a command ended by Ctrl-C (as shells report a process killed by SIGINT).
INTERRUPTED = 130


class JottoGroup(click.Group):
    def main(
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """click's ``main``, run with ``standalone_mode=False`` so that a Ctrl-C anywhere in it
        ends the command quietly with exit status 130: in standalone mode a SIGINT landing in
        click's own code, outside :meth:`invoke` (parsing the command line, say), printed
        "Aborted!" and exited 1.  Every other outcome is standalone mode's: an error (click's
        usage errors and :class:`BadInput`) prints its message and exits with its code (2),
        ``--help`` and ``--version`` exit 0, an end of input at a click prompt prints
        "Aborted!" and exits 1.  A caller asking for ``standalone_mode=False`` gets click's."""
        if not standalone_mode:
            with warnings_as_lines():
                return super().main(args, prog_name, complete_var, False, **extra)
        try:
            _standard_streams()
            with warnings_as_lines():
                code = super().main(args, prog_name, complete_var, False, **extra)
        except KeyboardInterrupt:
            sys.exit(INTERRUPTED)
        except click.Abort as exc:
            if isinstance(exc.__cause__ or exc.__context__, KeyboardInterrupt):
                sys.exit(INTERRUPTED)
            click.echo("Aborted!", err=True)
            sys.exit(1)
        except click.ClickException as exc:  # click's own option errors echo the value whole
            exc.message = _cut_long_quotes(exc.message)
            exc.show()
            sys.exit(exc.exit_code)
        except BrokenPipeError:  # as click does, for a pipe closed outside invoke
            _silence_stdout()
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)  # an exit code, or None when done

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command of the table's row ``cmd_name``, its module imported now (with Ctrl-C
        held back: a module interrupted halfway would stay broken); None for no such row."""
        if cmd_name not in COMMANDS:
            return None
        module, attribute = COMMANDS[cmd_name].split(":")
        with sigint_held():
            command = getattr(importlib.import_module(f".{module}", __package__), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"jotto.cli.commands: {COMMANDS[cmd_name]} is not a click command")
        return command

    def invoke(self, ctx: click.Context) -> None:
        try:
            input_limit()  # a bad JOTTO_MAX_INPUT_MB is an error whatever the command reads
            super().invoke(ctx)  # (not its value: main takes a value for an exit code)
        except BrokenPipeError:
            # the reader of our output went away (``| head``): stop quietly
            _silence_stdout()
            ctx.exit(0)
        except KeyboardInterrupt:
            # Ctrl-C before a command set up its own handling: end quietly, as killed by SIGINT
            ctx.exit(INTERRUPTED)
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
