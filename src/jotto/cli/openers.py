"""``jotto openers``: the certified value of every first guess."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..game.trees import tree_format
from ..util.files import check_new_output, check_writable, output_lock
from ..util.strategy_file import StrategyFileError
from .main import BadInput
from .options import (
    POSITIVE_FINITE,
    echo_json,
    executor_options,
    exists_error,
    hidden_weights,
    hide_from_option,
    interval_text,
    long_run_options,
    note,
    open_executor,
    resuming,
    threads_option,
    word_list,
    word_list_options,
)


def default_out(letters: int) -> Path:
    return Path(f"jotto-{letters}-letters-openers.jotto")


@click.command("openers")
@word_list_options
@hide_from_option
@click.option(
    "--time-budget",
    type=POSITIVE_FINITE,
    default=None,
    metavar="SECONDS",
    help="Stop after this many seconds (default: when every opener's value is "
    "exact, feasible for small lists only).  A resumed run gets this much more.",
)
@click.option(
    "--focus",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="How many of the openers with the best trees to narrow first.",
)
@click.option(
    "--width",
    type=POSITIVE_FINITE,
    default=None,
    help="Narrow the focus openers until each interval is at most this wide "
    "(default: until exact), beside raising the lowest lower ends.",
)
@threads_option
@executor_options
@long_run_options(
    file="Table file, checkpointed while running (default jotto-<letters>-letters-openers.jotto).",
    resume="Continue the table saved in --out (default: its default file).",
    force="Overwrite --out (and --save-tree) if they exist.",
)
@click.option(
    "-k",
    "--top",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="Rows to print (--csv and --json print them all).",
)
@click.option(
    "--save-tree",
    nargs=2,
    metavar="WORD FILE",
    default=None,
    help="Also save the tree starting with WORD whose value is its upper end "
    "(.json, .dot or .txt).",
)
@click.option("--csv", "as_csv", is_flag=True, help="Print the table as CSV.")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
def openers_command(
    words,
    letters,
    rules,
    skip_invalid,
    hide_from,
    time_budget,
    focus,
    width,
    threads,
    workers,
    scheduler,
    out,
    resume,
    force,
    checkpoint_every,
    progress,
    top,
    save_tree,
    as_csv,
    as_json,
):
    """The value of every first guess against the uniform hider (over the words of
    --hide-from, if given): for each opener, the
    certified interval of the expected guesses of the best trees that start with it (lower end
    proven by branch and bound, upper end the value of a tree kept in the table), sorted by
    upper end; the best opener named once proven.

    The table is saved to --out while it runs (Ctrl-C saves and exits, --resume continues).
    Its passes run on --threads in this process, or as tasks on --workers local processes or
    the Dask cluster of --scheduler (one thread each).
    """
    if as_csv and as_json:
        raise BadInput("--csv and --json: choose one")
    wl = word_list(words, letters, rules, skip_invalid)
    hider = hidden_weights(wl, hide_from)
    tree_word = None
    if save_tree is not None:
        tree_word, tree_path = save_tree[0].lower(), Path(save_tree[1])
        if tree_word not in wl:
            raise BadInput(f"--save-tree: {save_tree[0]!r} is not a word of the list")
        try:
            tree_format(tree_path)
        except ValueError as exc:
            raise BadInput(f"--save-tree: {exc}") from None
        check_new_output(tree_path, force)
    out = out or default_out(wl.length)
    check_writable(out)
    with output_lock(out):
        if out.exists() and not resume and not force:
            raise exists_error(out)
        resuming(out, resume, "a new table")
        with open_executor(workers, scheduler) as executor:
            table = _run(
                wl,
                hider,
                time_budget,
                focus,
                width,
                threads,
                executor,
                out,
                resume,
                checkpoint_every,
                sys.stderr.isatty() if progress is None else progress,
            )
    if tree_word is not None:
        try:
            table.tree(tree_word).save(tree_path)
        except ValueError as exc:
            raise BadInput(f"--save-tree: {exc}") from None
    if as_json:
        doc = table.as_dict()
        doc["out"] = str(out)
        echo_json(doc)
    elif as_csv:
        click.echo(table.to_csv(), nl=False)
    else:
        click.echo(table_text(table, top))
        click.echo(f"Table file: {out}" + (f"; tree: {tree_path}" if tree_word else ""))


def _run(
    wl, hider, budget, focus, width, threads, executor, out, resume, checkpoint_every, progress
):
    from ..solvers.openers import OpenersInterrupted, opener_values

    try:
        return opener_values(
            wl,
            hider,
            budget=budget,
            executor=executor,
            focus=focus,
            width=width,
            out=out,
            resume=resume,
            progress=progress,
            checkpoint_seconds=checkpoint_every,
            threads=threads,
        )
    except OpenersInterrupted as stop:
        note(
            f"jotto: stopped; the table is saved in {stop.path}. Resume with:",
            f"jotto openers --out {stop.path} --resume",
        )
        sys.exit(130)
    except StrategyFileError as exc:
        raise BadInput(str(exc)) from None


def _hider_text(weights) -> str:
    """The table's hider in words: uniform, uniform over some words (--hide-from), or weighted."""
    if weights.min() == weights.max():
        return "uniform hider"
    if weights.max() == 1:
        return f"hider uniform over {int(weights.sum())} of the words"
    return "weighted hider"


def table_text(table, top: int) -> str:
    """The first ``top`` rows, the best response's interval and the best opener, as lines."""
    L = table.words.length
    lines = [f"{'':>4}  {'opener':<{max(6, L)}}  {'lower':>8}  {'upper':>8}  {'width':>7}"]
    for k, r in enumerate(table.rows[:top], 1):
        up = "-" if r.upper is None else f"{float(r.upper):.4f}"
        wd = "-" if r.width is None else "exact" if r.exact else f"{float(r.width):.4f}"
        lines.append(f"{k:>4}  {r.word:<{max(6, L)}}  {float(r.lower):>8.4f}  {up:>8}  {wd:>7}")
    if len(table.rows) > top:
        lines.append(f"      ... {len(table.rows) - top} more (--top, --csv or --json for all)")
    state = "complete" if table.complete else f"stopped ({table.stopped})"
    lines.append(
        f"{len(table.rows)} openers of {table.words.source} ({L} letters, rules "
        f"{table.words.rules.name}), {_hider_text(table.weights)}; {state} after "
        f"{table.seconds:.1f} s, {table.tasks} tasks on {table.workers} "
        f"worker{'s' if table.workers != 1 else ''}"
        + (f", {table.lost} run again after a lost worker" if table.lost else "")
    )
    lines.append(f"Best response: {interval_text(table.lower, table.upper)} expected guesses")
    best = table.best
    if len(best) == 1:
        lines.append(
            f"Best opener: {best[0]} (proven: its tree needs at most what any other "
            f"opener needs at least)"
        )
    elif best:
        lines.append(f"Best openers, tied: {', '.join(best)}")
    else:
        first = table.rows[0]
        ahead = sum(1 for r in table.rows[1:] if first.upper is not None and r.lower < first.upper)
        lines.append(
            f"No opener is proven best yet: {ahead} others may still beat {first.word}'s tree"
        )
    return "\n".join(lines)
