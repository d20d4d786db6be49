"""``jotto tree``: build a deterministic guesser's decision tree and export it."""

from __future__ import annotations

from pathlib import Path

import click

from ..game.trees import tree_format
from ..players import make_guesser
from ..util.files import check_new_output
from .main import BadInput
from .options import GUESSER_SPEC, GUESSER_SPECS_EPILOG, threads_option, word_list_options
from .players import resolve_words


@click.command("tree", epilog=GUESSER_SPECS_EPILOG)
@word_list_options
@click.option(
    "-g",
    "--guesser",
    "guesser_spec",
    type=GUESSER_SPEC,
    default="gbr:paper",
    show_default=True,
    metavar="SPEC",
    help="A deterministic guesser (norvig:..., gbr..., tree:FILE; not random or "
    "equilibrium, which mix trees).",
)
@click.option(
    "-o",
    "--out",
    "outs",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the tree; the suffix picks the format: .json (loadable as tree:FILE), "
    ".dot/.gv (GraphViz), .txt (outline).  Repeatable.  Without it the outline "
    "goes to standard output.",
)
@click.option("--force", is_flag=True, help="Overwrite the -o files if they exist.")
@threads_option
def tree_command(words, letters, rules, skip_invalid, guesser_spec, outs, force, threads):
    """Build the decision tree a deterministic guesser plays against every target."""
    for out in outs:  # before any work: a format, a file not to be replaced, a writable place
        tree_format(out)
        check_new_output(out, force)
    wl = resolve_words(words, letters, rules, skip_invalid, guesser_spec)
    guesser = make_guesser(guesser_spec, wl, threads)
    if not getattr(guesser, "deterministic", False):
        raise BadInput(f"{guesser_spec} is not deterministic: it has no single decision tree")
    tree = guesser.tree()
    counts = tree.guesses_needed()
    summary = (
        f"{guesser_spec} on {wl.source}: {len(tree)} nodes, first guess "
        f"{wl[int(tree.guess[0])]}, mean {counts.mean():.3f} guesses, worst "
        f"{counts.max()}"
    )
    if not outs:
        click.echo(tree.to_outline(), nl=False)
        click.echo(summary, err=True)
        return
    for out in outs:
        tree.save(out, guesser=guesser_spec)
    click.echo(summary + "; written to " + ", ".join(map(str, outs)))
