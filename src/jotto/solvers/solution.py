"""An equilibrium of Jotto as any solver describes it: the hider's strategy (a probability per
word), the guesser's strategy (a player; for reporting, its exact expected guesses per target),
certified bounds on the game's value, and the strategy file that holds it.

Each solver (:mod:`jotto.solvers.fictitious_play.solution` for fictitious play,
:mod:`jotto.solvers.double_oracle.solution` for the double
oracle) subclasses :class:`Solution` and owns its payload; nothing else reads payload keys.  A
strategy file names its solver, so :meth:`Solution.load` returns the right class.

How strong a strategy really is (:meth:`Solution.strength`): the hider's strategy *guarantees* the
expected guesses of the guesser's true best response against it (found by branch and bound,
:func:`jotto.best_response`, as a certified interval), and the guesser's strategy guarantees its
worst case over targets (exact).  The game's value lies between the two; their difference is
OpenSpiel's NashConv, measured against true best responses rather than the greedy one the paper's
epsilon uses.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np

from ..game.turns import Guesser, player_repr
from ..game.words import WordList, WordListError
from ..util import strategy_file
from ..util.strategy_file import StrategyFileError
from .registry import DEFAULT_SOLVER, solver_class

__all__ = ["EquilibriumHider", "Solution", "StrategyFileError", "Strength"]


@dataclass(frozen=True)
class Strength:
    """How strong a solution's strategies are, in guesses, certified.

    Attributes:
        hider_lower, hider_upper: the hider's guarantee lies in ``[hider_lower, hider_upper]``:
            the expected guesses of the guesser's true best response to the hider's strategy
            (proved lower bound, and the value of the best tree found).
        guesser_worst: the guesser's guarantee, exact: its expected guesses against its worst
            target (what the hider's best response earns).
        best_response_exact: whether the hider's guarantee is known exactly.
    """

    hider_lower: Fraction
    hider_upper: Fraction
    guesser_worst: Fraction
    best_response_exact: bool

    def __repr__(self) -> str:
        return (
            f"Strength(hider_lower={float(self.hider_lower):.4f}, "
            f"hider_upper={float(self.hider_upper):.4f}, "
            f"guesser_worst={float(self.guesser_worst):.4f}, "
            f"best_response_exact={self.best_response_exact})"
        )

    @property
    def value_bounds(self) -> tuple[Fraction, Fraction]:
        """The game's value lies in this interval (the hider's proved guarantee, the guesser's
        worst case)."""
        return self.hider_lower, self.guesser_worst

    @property
    def nash_conv(self) -> tuple[Fraction, Fraction]:
        """NashConv against true best responses, ``guesser_worst - hider guarantee``, as an
        interval (exact when the best response is)."""
        return self.guesser_worst - self.hider_upper, self.guesser_worst - self.hider_lower

    def as_dict(self) -> dict[str, Any]:
        lo, hi = self.nash_conv
        return {
            "hider_guarantee": [float(self.hider_lower), float(self.hider_upper)],
            "hider_guarantee_exact": [str(self.hider_lower), str(self.hider_upper)],
            "guesser_worst_case": float(self.guesser_worst),
            "guesser_worst_case_exact": str(self.guesser_worst),
            "value_bounds": [float(self.hider_lower), float(self.guesser_worst)],
            "nash_conv": [float(lo), float(hi)],
            "exploitability": [float(lo) / 2, float(hi) / 2],
            "best_response_exact": self.best_response_exact,
        }


class Solution:
    """An equilibrium (approximate or exact) computed by one of the solvers.

    Build one with :func:`jotto.solve` or :meth:`load`.  Subclasses set ``solver`` and give the
    strategies; this class gives files and the certified numbers.
    """

    solver: ClassVar[str] = ""
    #: Whether the guesser has a guess after any guesses and replies (fictitious play's mixes
    #: greedy guessers, which do), or only in the games it plays itself (the double oracle's
    #: trees: once a person's guesses leave a tree, as in ``jotto assist``, it has none).
    guesses_any_history: ClassVar[bool] = True

    words: WordList
    _payload: dict[str, Any]

    # ---- what each solver provides -------------------------------------------------------------

    def hider(self, t: int | None = None) -> np.ndarray:
        """The hider's strategy as a probability vector (``t``: an iteration, for solvers that
        keep them)."""
        raise NotImplementedError

    def guesser(
        self, seed: int | np.random.Generator | None = None, t_star: int | None = None
    ) -> Guesser:
        """The guesser's strategy as a player (a :class:`jotto.game.turns.Guesser`), drawing its
        randomness from ``seed``; ``t_star``: an earlier iteration's mixture, for solvers that
        keep them."""
        raise NotImplementedError

    def guesser_expected(self) -> list[Fraction]:
        """The guesser's exact expected guesses against each target."""
        raise NotImplementedError

    def hider_weights(self) -> np.ndarray:
        """The hider's strategy as the non-negative integer weights a best response is computed
        against (exact where the solver's strategy is; else by :func:`jotto.integer_weights`)."""
        raise NotImplementedError

    def report(self) -> dict[str, Any]:
        """What ``jotto solve --json`` prints of the result beside the words and file."""
        raise NotImplementedError

    def report_text(self) -> str:
        """What ``jotto solve`` prints of the result."""
        raise NotImplementedError

    def answers(self, *, mode: str | None, iterations: int | None, oracle: Any) -> bool:
        """Whether this solution is a finished solve of exactly this request (``oracle``: the
        parsed oracle, or None for the default), so ``jotto solve`` need not run it again."""
        raise NotImplementedError

    def plot(self, path: str | os.PathLike[str] | None = None) -> Any:
        """The solver's plot (a matplotlib figure), saved to ``path`` if given."""
        raise NotImplementedError

    # ---- shared --------------------------------------------------------------------------------

    def hider_player(self, t: int | None = None) -> EquilibriumHider:
        """The hider (default: the solution's) as a player that draws secret words."""
        return EquilibriumHider(self.words, self.hider(t))

    @staticmethod
    def check_payload(payload: dict[str, Any], name: str) -> None:
        """:class:`StrategyFileError` (naming file ``name`` and the field) unless the payload
        is well formed for this solver; called before anything uses it.  Solvers whose
        constructor checks everything need not override it."""

    def guesser_worst_case(self) -> Fraction:
        """The guesser's guarantee: its exact expected guesses against its worst target."""
        return max(self.guesser_expected())

    def strength(
        self,
        budget: float | None = None,
        *,
        nodes: int | None = None,
        threads: int | None = None,
        executor=None,
        progress=None,
    ) -> Strength:
        """The certified strength of both strategies (see :class:`Strength`): the guesser's true
        best response to the hider, searched for at most ``budget`` seconds (or ``nodes``
        search nodes; unbounded when both are None; on ``executor`` if given, see
        :func:`jotto.best_response`, which also says what ``progress`` is called with), and the
        guesser's exact worst case."""
        from ..responses.best_responses import best_response

        br = best_response(
            self.words,
            self.hider_weights(),
            budget=budget,
            nodes=nodes,
            threads=threads,
            executor=executor,
            progress=progress,
        )
        return Strength(br.lower, br.upper, self.guesser_worst_case(), br.exact)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the strategy file (atomically)."""
        strategy_file.write(path, self._payload)

    @classmethod
    def load(cls, path: str | os.PathLike[str], words: WordList | None = None) -> Solution:
        """Read a strategy file of any solver.  If ``words`` is given it must be the list the
        file was made for (same words in the same order); otherwise the file's own list is used.
        """
        return cls.from_payload(read_payload(path), path, words)

    @classmethod
    def for_hider(cls, words: WordList, payload: dict[str, Any]) -> Solution:
        """The solution of ``payload`` read for its hider only (the hard level's): solvers
        whose guesser is slow to read leave it unread until used."""
        return cls(words, payload)

    @classmethod
    def from_payload(
        cls,
        payload: dict[str, Any],
        path: str | os.PathLike[str],
        words: WordList | None = None,
        hider_only: bool = False,
    ) -> Solution:
        """The solution of a payload :func:`read_payload` read from ``path`` (named in its
        errors), by its solver; ``words`` as in :meth:`load`; ``hider_only``: read for its
        hider (:meth:`for_hider`)."""
        with strategy_file.naming(path):
            stored = words_from_payload(payload)
            if words is not None:
                check_same_words(stored, words)
            solver = solver_class(payload.get("solver", DEFAULT_SOLVER))
            if hider_only:
                return solver.for_hider(words or stored, payload)
            return solver(words or stored, payload)


def read_payload(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The payload of a strategy file of any solver, read (:func:`jotto.util.strategy_file.read`)
    and checked by its solver (:meth:`Solution.check_payload`)."""
    payload = strategy_file.read(path)
    solver_class(payload.get("solver", DEFAULT_SOLVER)).check_payload(payload, os.fspath(path))
    return payload


def words_payload(words: WordList) -> dict[str, Any]:
    """A word list as the strategy file records it (:meth:`WordList.to_record`)."""
    return words.to_record()


def check_same_words(stored: WordList, given: WordList) -> None:
    """:class:`StrategyFileError` unless ``given`` is the list, under the same rules, a file was
    made for."""
    if given.sha256 != stored.sha256:
        raise StrategyFileError(
            f"made for another word list ({len(stored)} words of {stored.length} letters from "
            f"{stored.source}, sha256 {stored.sha256[:12]}…), not {given.source} "
            f"({len(given)} words of {given.length} letters, sha256 {given.sha256[:12]}…)"
        )
    if given.rules != stored.rules:
        raise StrategyFileError(f"made for the rules {stored.rules.name}, not {given.rules.name}")


def words_from_payload(payload: dict[str, Any]) -> WordList:
    """The word list a strategy file records, checked against its own SHA-256."""
    try:
        return WordList.from_record(payload["words"], "words")
    except WordListError as exc:
        raise StrategyFileError(str(exc)) from None


class EquilibriumHider:
    """A hider playing a fixed distribution over the words (a solved hider strategy)."""

    def __init__(self, words: WordList, p: np.ndarray, name: str = "equilibrium"):
        self.words = words
        self._p = np.asarray(p, dtype=np.float64)
        self.name = name

    __repr__ = player_repr

    def distribution(self) -> np.ndarray:
        return self._p.copy()

    def secret(self, rng: np.random.Generator) -> int:
        return int(rng.choice(len(self._p), p=self._p / self._p.sum()))
