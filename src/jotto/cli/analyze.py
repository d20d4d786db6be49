"""``jotto analyze``: Eckler's questions about a word list."""

from __future__ import annotations

import click
import numpy as np

from ..play.analysis import (
    METRICS,
    best_first_guesses,
    neighbourhood,
    neighbourhood_sizes,
    partition_of,
    partition_vectors,
)
from .options import echo_json, word_list, word_list_options


@click.group("analyze")
def analyze() -> None:
    """Eckler's analyses: partition vectors, best first guesses, neighbourhoods."""


@analyze.command("first-guesses")
@word_list_options
@click.option(
    "--metric",
    type=click.Choice(list(METRICS)),
    default="entropy",
    show_default=True,
    help="Norvig's partition metric: the largest branch and the expected branch size "
    "are minimised, the entropy (bits) maximised.",
)
@click.option(
    "-k",
    "--top",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="How many of the best first guesses to list.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def first_guesses(words, letters, rules, skip_invalid, metric, top, as_json):
    """The best first guesses by a metric, with their partition vectors."""
    wl = word_list(words, letters, rules, skip_invalid)
    best = best_first_guesses(wl, metric, top)
    vectors = partition_vectors(wl, [wl.index(w) for w, _ in best])
    if as_json:
        echo_json(
            [
                {"word": w, "metric": v, "partition": vec.tolist()}
                for (w, v), vec in zip(best, vectors)
            ]
        )
        return
    for (w, v), vec in zip(best, vectors):
        value = f"{v:.6g}" + (" bits" if metric == "entropy" else "")
        click.echo(f"{w:<{wl.length + 2}}{metric} {value:<14}partition {vec.tolist()}")


@analyze.command("partition")
@word_list_options
@click.argument("guesses", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def partition(words, letters, rules, skip_invalid, guesses, as_json):
    """How many targets give each reply code to each GUESS (any word jotto play takes as a
    guess): the letters in common (0..L), and under positional rules common + (L+1) * in place;
    under keep-all, L+1 is an anagram."""
    wl = word_list(words, letters, rules, skip_invalid)
    vectors = [partition_of(wl, g) for g in guesses]
    if as_json:
        echo_json({g.lower(): v.tolist() for g, v in zip(guesses, vectors)})
        return
    for g, v in zip(guesses, vectors):
        click.echo(f"{g.lower():<{wl.length + 2}}{v.tolist()}")


@analyze.command("neighbours")
@word_list_options
@click.argument("word", required=False)
@click.option(
    "--shared",
    type=int,
    default=None,
    help="Letters in common that make a neighbour (default L-1).",
)
@click.option(
    "-k",
    "--top",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="Without WORD: list the most and least crowded words.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def neighbours(words, letters, rules, skip_invalid, word, shared, top, as_json):
    """WORD's neighbours (words sharing at least L-1 letters with it), or, without WORD, the
    most and least crowded words of the list."""
    wl = word_list(words, letters, rules, skip_invalid)
    if word is not None:
        near = neighbourhood(wl, word, shared)
        if as_json:
            echo_json({"word": word.lower(), "neighbours": near})
        else:
            click.echo(f"{word.lower()}: {len(near)} neighbours: {' '.join(near)}")
        return
    sizes = neighbourhood_sizes(wl, shared)
    order = np.argsort(-sizes, kind="stable")
    most = [(wl[int(i)], int(sizes[i])) for i in order[:top]]
    least = [(wl[int(i)], int(sizes[i])) for i in np.argsort(sizes, kind="stable")[:top]]
    if as_json:
        echo_json({"most_crowded": most, "least_crowded": least})
        return
    click.echo("most crowded:  " + ", ".join(f"{w} ({n})" for w, n in most))
    click.echo("least crowded: " + ", ".join(f"{w} ({n})" for w, n in least))
