"""Options shared by the subcommands: the word list, threads, output formats."""

from __future__ import annotations

import contextlib
import functools
import json
import math
import shutil
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click
import numpy as np

from ..game.hiding import hide_from_weights
from ..game.rules import ANAGRAMS, PRESETS, Rules, RulesError, anagram_rule, parse_rules
from ..game.words import BUNDLED, DEFAULT_SOURCE, WordList, load_words
from ..players.specs import GUESSER_HELP, SPEC_HELP, check_guesser_spec, check_hider_spec
from ..util.files import check_new_output, quote
from ..util.plots import check_plot_path
from .main import BadInput

__all__ = [
    "GUESSER_SPEC",
    "GUESSER_SPECS_EPILOG",
    "HIDER_SPEC",
    "POSITIVE_FINITE",
    "SEED",
    "SPECS_EPILOG",
    "bound_progress",
    "check_plot_output",
    "echo_json",
    "executor_options",
    "hidden_weights",
    "hide_from_option",
    "note",
    "interval_text",
    "open_executor",
    "optional_seconds",
    "threads_option",
    "word_list",
    "word_list_options",
]

#: The player specs for --help, kept as written (click's \b marks a paragraph not to rewrap).
SPECS_EPILOG = "\b\n" + SPEC_HELP.replace("\n\n", "\n\n\b\n")
#: The guesser specs alone, for commands that take no hider spec (play, assist).
GUESSER_SPECS_EPILOG = "\b\n" + GUESSER_HELP


class PositiveFinite(click.ParamType):
    """A positive finite number: ``inf`` and ``nan`` are refused when the option is read, not
    after the work they would have bounded."""

    name = "number"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        x = click.FLOAT.convert(value, param, ctx)
        if not (math.isfinite(x) and x > 0):
            self.fail(f"{quote(value)} is not a positive finite number", param, ctx)
        return x


POSITIVE_FINITE = PositiveFinite()


class PlayerSpec(click.ParamType):
    """A guesser or hider spec, checked when the option is read (kind, arguments and options;
    its files are read later, with the word list), so that an error names the option.  The
    error is one line, as every other spec error, without click's usage above it."""

    name = "spec"

    def __init__(self, check: Callable[[str], None]) -> None:
        self.check = check

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        try:
            self.check(value)
        except ValueError as exc:
            hint = param.get_error_hint(ctx) if param is not None and ctx is not None else "SPEC"
            raise BadInput(f"Invalid value for {hint}: {exc}") from None
        return value


GUESSER_SPEC = PlayerSpec(check_guesser_spec)
HIDER_SPEC = PlayerSpec(check_hider_spec)
#: A seed for NumPy's generators, which take non-negative integers.
SEED = click.IntRange(min=0)


class RulesType(click.ParamType):
    """A preset name with fine options (``eckler,hard``), read into :class:`Rules` when the
    option is parsed, so a bad one is refused before any work."""

    name = "rules"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> Rules:
        try:
            return parse_rules(value)
        except RulesError as exc:
            self.fail(str(exc), param, ctx)


RULES_HELP = (
    "Rule set: a preset (" + ", ".join(PRESETS) + "; default paper) with fine options "
    "after commas, e.g. eckler,hard or paper,repeats,anagrams=keep-all.  paper: "
    "distinct letters, words sharing their letters dropped (Ganzfried 2011); norvig: "
    "one of them kept; perl: repeated letters counted as often as they occur, every "
    "word kept; eckler: anagrams kept, only the exact word wins; positional: replies "
    "also give letters in place; hard: every guess must fit all replies so far."
)


def word_list_options(f: Callable) -> Callable:
    """--words, --letters, --rules (with --anagrams, --repeats, --positional, --hard) and
    --skip-invalid; the command gets ``rules`` (a :class:`Rules`) for all of the rule options."""

    @click.option(
        "-w",
        "--words",
        "words",
        metavar="LIST",
        default=None,
        help=f"Word list: a bundled name ({', '.join(BUNDLED)}; default "
        f"{DEFAULT_SOURCE}) or a file, one word per line.",
    )
    @click.option(
        "-n",
        "--letters",
        type=click.IntRange(1, 26),
        default=None,
        help="Letters per word (default 5).",
    )
    @click.option(
        "-r", "--rules", "rules", type=RulesType(), default=None, metavar="NAME", help=RULES_HELP
    )
    @click.option(
        "--anagrams",
        type=click.Choice([*ANAGRAMS, "paper", "norvig"]),
        default=None,
        help="Replace the rules' anagram rule (paper = drop, norvig = keep-one).",
    )
    @click.option(
        "--repeats/--no-repeats",
        default=None,
        help="Allow words with repeated letters (multiset counting), or not.",
    )
    @click.option(
        "--positional/--no-positional",
        default=None,
        help="Replies also give the letters in the right place, or not.",
    )
    @click.option(
        "--hard/--no-hard",
        default=None,
        help="Every guess must fit all replies so far (hard mode), or not.",
    )
    @click.option(
        "--skip-invalid",
        is_flag=True,
        help="Skip (and count) tokens that are not ASCII letters instead of failing.",
    )
    @functools.wraps(f)
    def wrapper(
        *args: Any,
        anagrams: str | None,
        repeats: bool | None,
        positional: bool | None,
        hard: bool | None,
        **kwargs: Any,
    ) -> Any:
        fields = parse_rules(kwargs["rules"]).to_dict()
        for name, value in (
            ("repeats", repeats),
            ("positional", positional),
            ("hard", hard),
            ("anagrams", anagrams and anagram_rule(anagrams)),
        ):
            if value is not None:
                fields[name] = value
        kwargs["rules"] = Rules.from_dict(fields)
        return f(*args, **kwargs)

    return wrapper


def word_list(words: str | None, letters: int | None, rules: Rules, skip_invalid: bool) -> WordList:
    return load_words(
        words, length=letters or 5, rules=rules, invalid="skip" if skip_invalid else "error"
    )


def hide_from_option(f: Callable) -> Callable:
    """--hide-from SPEC: the secrets restricted to some words (the command gets ``hide_from``;
    :func:`hidden_weights` reads it against the word list)."""
    return click.option(
        "--hide-from",
        "hide_from",
        metavar="SPEC",
        default=None,
        help="The hider hides only these words, each equally likely: sgb:N "
        "(the N most common words of the bundled Stanford GraphBase list "
        "among the list's), sgb, or a word FILE (FILE:N: its first N); "
        "guesses may be any word.",
    )(f)


def hidden_weights(wl: WordList, hide_from: str | None) -> np.ndarray | None:
    """The hider weights ``--hide-from`` names (1 on its words, 0 elsewhere), None without
    it; a bad spec is :class:`BadInput` naming the option."""
    if hide_from is None:
        return None
    try:
        return hide_from_weights(wl, hide_from, "--hide-from")
    except ValueError as exc:
        raise BadInput(str(exc)) from None


def threads_option(f: Callable) -> Callable:
    return click.option(
        "-j",
        "--threads",
        type=click.IntRange(min=1),
        default=None,
        help="Threads (default: OMP_NUM_THREADS, else all cores).",
    )(f)


def executor_options(f: Callable) -> Callable:
    """--workers N and --scheduler ADDRESS: where the proof's tasks run (the command gets
    ``workers`` and ``scheduler``; :func:`open_executor` makes the executor)."""
    f = click.option(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="Run the proof's tasks on the Dask cluster of the scheduler at "
        "ADDRESS (tcp://host:8786; needs pip install 'jotto[distributed]').",
    )(f)
    return click.option(
        "--workers",
        type=click.IntRange(min=1),
        default=None,
        help="Run the proof's tasks on N local worker processes (default: in this process).",
    )(f)


def long_run_options(*, file: str, resume: str, force: str) -> Callable[[Callable], Callable]:
    """-o/--out, --resume, --force, --checkpoint-every and --progress: the options of every
    command that saves its work while it runs and continues it later (``solve``, ``openers``);
    ``file``, ``resume`` and ``force`` are their help texts, which name what is saved."""

    def decorate(f: Callable) -> Callable:
        for option in reversed(
            [
                click.option(
                    "-o",
                    "--out",
                    type=click.Path(dir_okay=False, path_type=Path),
                    default=None,
                    help=file,
                ),
                click.option("--resume", is_flag=True, help=resume),
                click.option("--force", is_flag=True, help=force),
                click.option(
                    "--checkpoint-every",
                    type=POSITIVE_FINITE,
                    default=10.0,
                    show_default=True,
                    metavar="SECONDS",
                    help="Seconds between checkpoints (more when a checkpoint takes over a "
                    "tenth of that: saving never takes more than a tenth of the run).",
                ),
                click.option(
                    "--progress/--no-progress",
                    default=None,
                    help="Progress bar on standard error (default: when it is a terminal).",
                ),
            ]
        ):
            f = option(f)
        return f

    return decorate


def resuming(out: Path, resume: bool, starting: str) -> bool:
    """Whether the run continues the file ``out``: --resume and the file exists (--resume on a
    file not yet written says that ``starting`` begins instead)."""
    if resume and not out.exists():
        note(f"jotto: {out} does not exist yet: starting {starting}")
    return resume and out.exists()


def exists_error(out: Path) -> BadInput:
    """The error for an --out that exists, given neither --resume nor --force."""
    return BadInput(f"{out} exists: --resume to continue it, --force to overwrite it")


@contextlib.contextmanager
def open_executor(workers: int | None, scheduler: str | None) -> Iterator[Any]:
    """The executor --workers or --scheduler asks for (None: neither), checked before any work:
    a scheduler that cannot be reached, has no workers or whose workers cannot run this jotto
    is a one-line error (exit 2).  Closed when the block ends."""
    from ..responses.proof.distributed import close_pool, connect_scheduler, local_pool

    if workers is not None and scheduler is not None:
        raise BadInput("--workers and --scheduler: choose one (local processes or a cluster)")
    if scheduler is not None:
        try:
            client = connect_scheduler(scheduler)
        except (ImportError, ValueError) as exc:
            raise BadInput(f"--scheduler: {exc}") from None
        try:
            yield client.get_executor()
        finally:
            client.close()
        return
    if workers is None:
        yield None
        return
    pool = local_pool(workers)
    try:
        yield pool
    finally:
        close_pool(pool)


def check_plot_output(plot: Path | None, force: bool) -> None:
    """Before the work: --plot names a format, matplotlib is there, and the file may be written
    (it does not exist, or --force)."""
    if plot is not None:
        check_plot_path(plot)
        check_new_output(plot, force)


def echo_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=2, sort_keys=False)
    sys.stdout.write("\n")


def interval_text(lo: Any, hi: Any, digits: int = 4) -> str:
    """A certified interval as words: one number when its ends meet, else ``between lo and
    hi``."""
    if lo == hi:
        return f"{float(lo):.{digits}f}"
    return f"between {float(lo):.{digits}f} and {float(hi):.{digits}f}"


def note(message: str, command: str | None = None) -> None:
    """A message on standard error, wrapped at word boundaries to the terminal's width when it
    is a terminal (which would otherwise break lines mid-word); ``command``, a command to run,
    follows on a line of its own, indented and never broken, so that it can be copied."""
    width = shutil.get_terminal_size().columns if sys.stderr.isatty() else 0
    lines = (
        textwrap.wrap(message, width - 1, break_long_words=False, break_on_hyphens=False)
        if width > 20
        else [message]
    )
    if command is not None:
        lines.append(f"  {command}")
    click.echo("\n".join(lines), err=True)


@contextlib.contextmanager
def bound_progress(what: str, show: bool) -> Iterator[Callable[[Any, Any], None]]:
    """The ``progress`` of a best-response search (:func:`jotto.best_response`): with
    ``show``, its bounds as they rise on one line of standard error (rewritten in place); on
    Ctrl-C, whatever ``show``, one line saying what was proved, then exit status 130."""
    last: list[tuple[Any, Any]] = []
    t0 = time.perf_counter()
    shown = [0.0]

    def report(lower: Any, upper: Any) -> None:
        last[:] = [(lower, upper)]
        now = time.perf_counter()
        if show and now - shown[0] >= 0.2:
            shown[0] = now
            click.echo(
                f"\r{what}: {interval_text(lower, upper)} expected guesses after "
                f"{now - t0:.0f} s (Ctrl-C stops)\x1b[K",
                nl=False,
                err=True,
            )

    try:
        yield report
    except KeyboardInterrupt:
        if show:
            click.echo("\r\x1b[K", nl=False, err=True)
        if last:
            lower, upper = last[0]
            click.echo(
                f"jotto: interrupted after {time.perf_counter() - t0:.0f} s; {what} "
                f"proved so far: at least {float(lower):.4f} expected guesses (best tree "
                f"found {float(upper):.4f})",
                err=True,
            )
        else:
            click.echo(f"jotto: interrupted before {what} proved a bound", err=True)
        sys.exit(130)
    if show and shown[0]:
        click.echo("\r\x1b[K", nl=False, err=True)


def optional_seconds(value: str | None, option: str) -> float | None:
    """The SECONDS of a flag that takes them optionally (``--certify``, ``--best-response``):
    None when absent or given bare (an exact search), else a positive finite number."""
    if value is None or value == "exact":
        return None
    try:
        seconds = float(value)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds < float("inf"):
        raise BadInput(f"{option} takes a positive number of seconds, not {quote(value)}")
    return seconds
