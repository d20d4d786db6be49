"""The strategy files shipped in ``jotto/data``, and the strongest one made for a word list.

Any ``*.jotto`` file there counts (a fictitious-play solve today, a double-oracle one when it is
bundled): the players need only :meth:`jotto.Solution.load` with its ``guesser()`` and
``hider()``.  When several fit a list, the one whose guesser has the least exact worst case (the
least a hider can make it need) is the strongest and is chosen.
"""

from __future__ import annotations

from importlib import resources

from ..game.words import WordList
from ..util.strategy_file import StrategyFileError
from .solution import Solution

__all__ = ["bundled_solution"]


def bundled_solution(words: WordList) -> Solution | None:
    """The strongest bundled strategy made for ``words`` (None if none was made for it)."""
    best: Solution | None = None
    data = resources.files("jotto").joinpath("data")
    for entry in sorted(data.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".jotto"):
            continue
        try:
            solution = Solution.load(str(entry), words)
        except StrategyFileError:
            continue  # made for another list
        if best is None or solution.guesser_worst_case() < best.guesser_worst_case():
            best = solution
    return best
