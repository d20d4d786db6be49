"""The computer's strength at each level: how it guesses and which words it hides, and the
strategy a session plays (a strategy file, or the bundled solve for the default list)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...game.turns import Guesser
from ...game.words import WordList
from ...players.guessers import RandomGuesser
from ...players.specs import make_guesser
from ...solvers.bundled import bundled_solution
from ...solvers.solution import Solution
from ..commonness import HidingSet
from ..sheet import Style
from .assist import Assist
from .base import Session
from .race import Race
from .you_guess import YouGuess
from .you_hide import YouHide

__all__ = [
    "HIDE_FROM",
    "LEVELS",
    "MODES",
    "bundled_solution",
    "default_guesser",
    "hider_for",
    "level_players",
    "new_session",
    "strategy_for",
]

#: What the hard level's bundled solve (ENABLE, 5 letters) is certified to do: its hider's
#: guarantee proved by 120 s of search (``bundled_solution(...).strength(120)``, one thread, a
#: loaded 2-core AMD EPYC Zen 3 VM, kernel v3, 2026-11-28) and its guesser's exact worst case.
HARD_CERTIFIED = (
    "; at 5 letters on ENABLE (the bundled solve) its hider holds any guesser to at least 4.88 "
    "expected guesses (certified; the best guesser found against it needs 6.13), and its "
    "guesser needs at most 7.14 on average whatever word is hidden (exact)"
)

#: What the hard level's bundled solve for Norvig's list (``-w sgb -r norvig``) does: the double
#: oracle's equilibrium of the game whose secrets are the 200 most common words
#: (``--hide-from sgb:200``), any word a guess, run for 600 s on 2 threads (a loaded 2-core AMD
#: EPYC Zen 3 VM, kernel v3, 2026-11-28) and kept to the 16 heaviest trees of its guesser
#: (``bench/common_strategy.py``, docs/common-words.md).  Its hider is the one that proved the
#: run's lower bound: the uniform one over the 200 words, whose best response needs exactly
#: 221/50 (no mixture of the run was proved to hold more).
COMMON_CERTIFIED = (
    "; on Norvig's list (-w sgb -r norvig) hard hides by the bundled solve of the game of "
    "its 200 most common words: its hider hides one of those, each equally likely, and holds "
    "any guesser to at least 4.42 expected guesses (certified: exactly 4.42); the computer "
    "guesses there as without a solve (the solve's guesser, trees that need at most 4.82 on "
    "average whatever common word is hidden, has no guess once a game leaves them)"
)

#: The computer's strength: how it guesses and how it hides.
LEVELS = {
    "easy": "guesses a random word that fits the replies so far (the Perl player); hides a "
    "common word, drawn uniformly",
    "medium": "guesses greedily (GuesserGBR against a uniform hider, exact rule); hides a "
    "common word, drawn uniformly",
    "hard": "the equilibrium strategy of the strongest solve for the list (bundled or "
    "--strategy) as guesser and hider, which may hide any word its game lets it; without "
    "one, medium's guesser and a word drawn uniformly; in the race, the race guesser, which "
    "watches your progress and plays to win" + HARD_CERTIFIED + COMMON_CERTIFIED,
}
#: Which words each level hides (:func:`jotto.play.commonness.hiding_set`), unless --hide-from says.
HIDE_FROM = {"easy": "common", "medium": "common", "hard": "all"}


def default_guesser(
    words: WordList,
    solution: Solution | None,
    spec: str | None,
    seed: int | None,
    level: str = "hard",
    race: bool = False,
) -> tuple[Guesser, str]:
    """The computer's guesser: ``spec`` if given, else the ``level``'s: easy the random
    consistent guesser, medium GuesserGBR (exact rule), hard in a ``race`` the race guesser
    (:class:`jotto.players.RaceGuesser`), else the equilibrium guesser of the strategy (the
    bundled solve for the default list), else GuesserGBR under the exact rule."""
    if spec is not None:
        return make_guesser(spec, words), spec
    if level == "hard" and race:
        return make_guesser("race", words), "the race guesser (it watches your progress)"
    if level == "easy":
        return RandomGuesser(words, seed), "a random word that fits (easy)"
    if level == "medium":
        return make_guesser("gbr:exact", words), "GuesserGBR (exact rule; medium)"
    if solution is not None:
        return solution.guesser(seed=seed), "the equilibrium guesser"
    return make_guesser("gbr:exact", words), "GuesserGBR (exact rule; no strategy file given)"


def level_players(
    words: WordList,
    solution: Solution | None,
    spec: str | None,
    seed: int | None,
    level: str,
    hiding: HidingSet | None = None,
    race: bool = False,
    hider: Solution | None = None,
) -> tuple[Guesser, str, np.ndarray]:
    """The computer's guesser (with its name) and hiding distribution at ``level``: hard hides
    by the equilibrium hider when there is a strategy (``hider``'s, else ``solution``'s), the
    other levels uniformly; restricted to the words of ``hiding`` if given (the equilibrium's
    weights on them, renormalised, or uniformly if it puts none there).  ``race``: the guesser
    plays a race (hard: the race guesser)."""
    guesser, name = default_guesser(words, solution, spec, seed, level, race)
    hider = hider if hider is not None else solution
    p = (
        np.asarray(hider.hider(), dtype=np.float64)
        if level == "hard" and hider is not None
        else np.ones(len(words))
    )
    if hiding is not None:
        kept = p * hiding.mask
        p = kept if kept.sum() > 0 else hiding.mask.astype(np.float64)
    return guesser, name, p


def strategy_for(words: WordList, path: str | None) -> Solution | None:
    """The strategy a session plays: the strategy file ``path`` if given (made for ``words``),
    else the bundled solve when ``words`` is the default list, else None."""
    if path is not None:
        return Solution.load(path, words)
    return bundled_solution(words)


def hider_for(words: WordList, solution: Solution | None) -> Solution | None:
    """The strategy whose hider hides at hard: ``solution`` (:func:`strategy_for`'s) if there
    is one, else a bundled solve made only for its hider (Norvig's list: the game of its 200
    most common words, docs/common-words.md)."""
    return solution if solution is not None else bundled_solution(words, hider_only=True)


#: The modes a person plays (``jotto play --you``, and assist): the session of each.
MODES = ("race", "guess", "hide", "assist")


def new_session(
    mode: str,
    words: WordList,
    level: str,
    hiding: HidingSet,
    solution: Solution | None = None,
    spec: str | None = None,
    seed: int | None = None,
    hints: bool = False,
    style: Style | None = None,
    sheet: bool = True,
    expected: Callable[[Guesser], np.ndarray | None] | None = None,
    hider: Solution | None = None,
) -> Session:
    """A new game of ``mode`` (:data:`MODES`) on ``words`` with the computer at ``level``
    (:func:`level_players`), hiding among ``hiding``: the one place the terminal and the web
    server make their sessions.  ``expected``: the expected guesses per word of a guesser, said
    after "you guess" games (None: not said); ``hider``: the strategy whose hider hides at hard
    (:func:`hider_for`; None: ``solution``'s)."""
    guesser, name, hider_p = level_players(
        words, solution, spec, seed, level, hiding, race=mode == "race", hider=hider
    )
    if mode == "hide":
        return YouHide(words, guesser, name, style=style, sheet=sheet)
    if mode == "race":
        return Race(words, hider_p, guesser, name, seed, hints, style, sheet, hides=hiding.about)
    if mode == "guess":
        return YouGuess(
            words,
            hider_p,
            seed,
            expected(guesser) if expected else None,
            name,
            hints,
            style,
            sheet,
            hides=hiding.about,
        )
    if mode == "assist":
        return Assist(words, guesser, name, style=style, sheet=sheet)
    raise ValueError(f"unknown mode {mode!r}; modes: {', '.join(MODES)}")
