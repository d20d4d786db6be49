"""The strategy files shipped in ``jotto/data``, and the strongest one made for a word list.

Any ``*.jotto`` file there counts: the players need only :meth:`jotto.Solution.load` with its
``guesser()`` and ``hider()``.  When several fit a list, the one whose guesser has the least
exact worst case (the least a hider can make it need) is the strongest and is chosen.  A
double-oracle solve (today the game of the 200 most common words of Norvig's list,
docs/common-words.md) counts only for its hider (``hider_only``): its guesser's trees guess in
the games they were drawn for and in no other (``Solution.guesses_any_history``), so the
computer's guesser, ``jotto evaluate``'s default and ``equilibrium`` stay as they were for
that list.
"""

from __future__ import annotations

from importlib import resources

from ..game.words import WordList
from ..util.strategy_file import StrategyFileError
from .registry import DEFAULT_SOLVER, solver_class
from .solution import Solution, read_payload

__all__ = ["bundled_solution"]


def bundled_solution(words: WordList, hider_only: bool = False) -> Solution | None:
    """The strongest bundled strategy made for ``words`` (None if none was made for it); with
    ``hider_only``, also those whose guesser plays only its own games (their hider is what is
    wanted: the words the hard level hides)."""
    best: Solution | None = None
    data = resources.files("jotto").joinpath("data")
    for entry in sorted(data.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".jotto"):
            continue
        try:
            payload = read_payload(str(entry))
            solver = solver_class(payload.get("solver", DEFAULT_SOLVER))
            if not (hider_only or solver.guesses_any_history):
                continue  # its trees are not parsed: that takes seconds
            solution = Solution.from_payload(payload, str(entry), words)
        except StrategyFileError:
            continue  # made for another list
        if best is None or solution.guesser_worst_case() < best.guesser_worst_case():
            best = solution
    return best
