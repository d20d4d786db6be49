"""The strategy files shipped in ``jotto/data``, and the strongest one made for a word list.

Any ``*.jotto`` file there counts: the players need only :meth:`jotto.Solution.load` with its
``guesser()`` and ``hider()``.  When several fit a list, the one whose guesser has the least
exact worst case (the least a hider can make it need) is the strongest and is chosen.  A
double-oracle solve (today the game of the 200 most common words of Norvig's list,
docs/common-words.md) counts only for its hider (``hider_only``): its guesser's trees guess in
the games they were drawn for and in no other (``Solution.guesses_any_history``), so the
computer's guesser, ``jotto evaluate``'s default and ``equilibrium`` stay as they were for
that list.  Such a solve is read for its hider only (:meth:`jotto.Solution.for_hider`): its
trees, which take seconds to parse, are parsed only if used.

The files are package data, read-only: each is read (its container checked) once per process.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

from ..game.words import WordList
from ..util.strategy_file import StrategyFileError
from .registry import DEFAULT_SOLVER, solver_class
from .solution import Solution, read_payload

__all__ = ["bundled_solution"]


@functools.cache
def _bundled_payloads() -> tuple[tuple[str, dict[str, Any] | None], ...]:
    """Each bundled file's name and payload (None: a file that does not read), by name."""
    data = resources.files("jotto").joinpath("data")
    out = []
    for entry in sorted(data.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".jotto"):
            try:
                out.append((str(entry), read_payload(str(entry))))
            except StrategyFileError:
                out.append((str(entry), None))
    return tuple(out)


def bundled_solution(words: WordList, hider_only: bool = False) -> Solution | None:
    """The strongest bundled strategy made for ``words`` (None if none was made for it); with
    ``hider_only``, also those whose guesser plays only its own games (their hider is what is
    wanted: the words the hard level hides), read for their hider."""
    best: Solution | None = None
    for name, payload in _bundled_payloads():
        if payload is None:
            continue
        try:
            solver = solver_class(payload.get("solver", DEFAULT_SOLVER))
            if not (hider_only or solver.guesses_any_history):
                continue  # its trees are not parsed: that takes seconds
            solution = Solution.from_payload(
                payload, name, words, hider_only=not solver.guesses_any_history
            )
        except StrategyFileError:
            continue  # made for another list
        if best is None or solution.guesser_worst_case() < best.guesser_worst_case():
            best = solution
    return best
