"""Who wins a race: the chances that the first player wins, draws or loses
(:mod:`jotto.game.race_rules`).

Each player guesses with a guesser and hides a word drawn from a hider distribution.  The first
player's guesser looks for the second player's word, and the second's for the first's.

* Exact: when both guessers are decision trees (deterministic guessers) or mixtures of trees
  (the equilibrium guessers of strategy files), neither looks at the other's progress, so the
  rounds each needs are independent: each player's chance of needing n guesses against the
  other's hider (:func:`guess_distribution`) is exact, and the race's chances are their exact
  convolution under :func:`jotto.game.race_rules.race_result`, in Fractions.  Float hider weights
  are
  made integers by :func:`jotto.integer_weights` first, as :func:`jotto.best_response` does.
* Simulated: any other guesser (a random one, or one that adapts to the race: it has an
  ``observe`` method, which gets a :class:`RaceView` before each of its guesses) is played,
  ``games`` races with secrets drawn by a seeded generator, giving estimates with Wilson
  confidence intervals, and one for the first player's advantage (wins minus losses).
* Paired: :func:`paired_race` compares two guessers racing one opponent in the same races
  (common random numbers: the same secret words, and the opponent's very same guesses), and
  gives an interval for the difference of their advantages from the per-race differences.

For a guesser playing to win, :func:`race_objective` turns what it believes of the other
player's progress into an objective (:mod:`jotto.game.objectives`) for a best response or a
:class:`jotto.players.CostGuesser`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Any, NamedTuple

import numpy as np

from ..engine.weights import exact_weights
from ..game.race_rules import (
    DRAW,
    FIRST,
    OUTCOMES,
    SECOND,
    race_objective,
    race_result,
    round_result,
)
from ..game.trees import weight_by_guesses
from ..game.turns import Guesser, History, replies
from ..game.words import WordList
from ..responses.gbr import as_word_list

__all__ = [
    "DEFAULT_GAMES",
    "PairedRaces",
    "RaceEstimate",
    "RaceResult",
    "RaceView",
    "guess_distribution",
    "paired_race",
    "race",
    "race_objective",
]

#: Races simulated when a guesser's chances cannot be computed exactly and no number is given.
DEFAULT_GAMES = 10_000


class RaceView(NamedTuple):
    """What a player sees of the other before each of its guesses (a race-aware guesser's
    ``observe(view)`` gets it): the other player's state, the words of the list still consistent
    with what it has heard about this player's word, increasing; its guesses and replies so far;
    whether this player moves first in each round; and whether the other has just found this
    player's word in this round (then this guess is the last chance for a draw)."""

    opponent_state: np.ndarray
    opponent_history: History
    moves_first: bool
    opponent_found: bool


def guess_distribution(guesser: Guesser, weights: np.ndarray) -> dict[int, Fraction] | None:
    """The exact chance that ``guesser`` needs n guesses against a hider's integer ``weights``,
    ``{n: chance}`` by increasing n; None if it cannot be known exactly (a guesser that is
    neither a tree nor a mixture of trees with a ``count_distribution``, or that watches the
    other player)."""
    if hasattr(guesser, "observe"):
        return None
    mixture = getattr(guesser, "count_distribution", None)
    if mixture is not None:
        return mixture(weights)
    tree = getattr(guesser, "tree", None)
    if getattr(guesser, "deterministic", False) and tree is not None:
        total = sum(int(w) for w in weights)
        return {
            n: Fraction(x, total)
            for n, x in weight_by_guesses(tree().guesses_needed(), weights).items()
        }
    return None


@dataclass(frozen=True)
class RaceEstimate:
    """Races played: how many the first player won, drew and lost, and confidence intervals.

    Attributes:
        games: races played; seed: the seed of the generator that drew the secrets.
        confidence: the intervals' level (0.95: 95%).
        wins, draws, losses: the first player's results.
    """

    games: int
    seed: int
    confidence: float
    wins: int
    draws: int
    losses: int

    def share(self, outcome: str) -> float:
        """The share of races with ``outcome`` (one of :data:`jotto.game.race_rules.OUTCOMES`)."""
        return {FIRST: self.wins, DRAW: self.draws, SECOND: self.losses}[outcome] / self.games

    @property
    def _z(self) -> float:
        return NormalDist().inv_cdf(0.5 + self.confidence / 2)

    def interval(self, outcome: str) -> tuple[float, float]:
        """The Wilson score interval of the chance of ``outcome``."""
        p, n, z = self.share(outcome), self.games, self._z
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        return max(0.0, centre - half), min(1.0, centre + half)

    @property
    def advantage(self) -> float:
        """Wins minus losses, per race."""
        return (self.wins - self.losses) / self.games

    def advantage_interval(self) -> tuple[float, float]:
        """The normal-approximation interval of the advantage (each race scores +1, 0 or -1)."""
        n, d = self.games, self.advantage
        var = ((self.wins + self.losses) / n - d * d) / n
        half = self._z * math.sqrt(max(var, 0.0))
        return d - half, d + half

    def as_dict(self) -> dict[str, Any]:
        names = {FIRST: "win", DRAW: "draw", SECOND: "loss"}
        return {
            "games": self.games,
            "seed": self.seed,
            "confidence": self.confidence,
            **{names[o]: self.share(o) for o in OUTCOMES},
            "intervals": {names[o]: list(self.interval(o)) for o in OUTCOMES},
            "advantage": self.advantage,
            "advantage_interval": list(self.advantage_interval()),
        }


@dataclass(frozen=True)
class RaceResult:
    """The chances of a race, as the first player sees them.

    Attributes:
        first, second: the players' guessers' names; first_hider, second_hider: their hiders'.
        win, draw, loss: exact Fractions when ``exact``, else the simulated shares.
        exact: whether the chances are exact.
        first_guesses, second_guesses: each player's exact chance of needing n guesses against
            the other's hider (None if not exact).
        estimate: the simulated races, if any were played (always when not ``exact``).
    """

    first: str
    second: str
    first_hider: str
    second_hider: str
    win: Fraction | float
    draw: Fraction | float
    loss: Fraction | float
    exact: bool
    first_guesses: dict[int, Fraction] | None = None
    second_guesses: dict[int, Fraction] | None = None
    estimate: RaceEstimate | None = None

    @property
    def advantage(self) -> Fraction | float:
        """The first player's wins minus losses, per race."""
        return self.win - self.loss

    def expected_guesses(self) -> tuple[Fraction, Fraction] | None:
        """Each player's expected guesses against the other's hider (exact results only)."""
        if self.first_guesses is None or self.second_guesses is None:
            return None
        return (
            sum(n * p for n, p in self.first_guesses.items()),
            sum(n * p for n, p in self.second_guesses.items()),
        )

    def as_dict(self) -> dict[str, Any]:
        """The result for JSON: chances as floats, and exactly as strings when exact."""
        d: dict[str, Any] = {
            "first": {"guesser": self.first, "hider": self.first_hider},
            "second": {"guesser": self.second, "hider": self.second_hider},
            "exact": self.exact,
            "win": float(self.win),
            "draw": float(self.draw),
            "loss": float(self.loss),
            "advantage": float(self.advantage),
        }
        if self.exact:
            d["exact_chances"] = {
                "win": str(self.win),
                "draw": str(self.draw),
                "loss": str(self.loss),
            }
            first, second = self.expected_guesses()  # type: ignore[misc]
            d["expected_guesses"] = {"first": float(first), "second": float(second)}
            d["guesses"] = {
                "first": {str(n): str(p) for n, p in self.first_guesses.items()},  # type: ignore
                "second": {str(n): str(p) for n, p in self.second_guesses.items()},
            }  # type: ignore
        d["simulated"] = None if self.estimate is None else self.estimate.as_dict()
        return d


#: A guesser's result in a race, as a paired comparison counts it: won, drawn, lost.
_SCORES = (1, 0, -1)


@dataclass(frozen=True)
class PairedRaces:
    """Two guessers, ``a`` and ``b``, each raced one opponent in the same races
    (:func:`paired_race`): the same secret words and the opponent's same guesses.

    Attributes:
        games: races played; seeds: the seeds of the generators that drew the secrets (one per
            run combined, :meth:`combine`).
        confidence: the intervals' level (0.95: 95%).
        opponent_first: whether the opponent guessed first in each round.
        table: ``table[i][j]``, the races that ``a`` ended with result i and ``b`` with result
            j, each 0 (won), 1 (drawn) or 2 (lost), as ``a`` and ``b`` see them.
    """

    games: int
    seeds: tuple[int, ...]
    confidence: float
    opponent_first: bool
    table: tuple[tuple[int, int, int], ...]

    def results(self, side: str) -> tuple[int, int, int]:
        """The wins, draws and losses of ``side``, ``"a"`` or ``"b"``."""
        if side == "a":
            return tuple(sum(row) for row in self.table)  # type: ignore[return-value]
        if side == "b":
            return tuple(sum(row[j] for row in self.table) for j in range(3))  # type: ignore
        raise ValueError(f"side must be 'a' or 'b', not {side!r}")

    def advantage(self, side: str) -> float:
        """The wins minus losses of ``side`` per race."""
        wins, _, losses = self.results(side)
        return (wins - losses) / self.games

    @property
    def difference(self) -> float:
        """How much more ``a`` wins than ``b`` per race: the mean over races of a's result
        minus b's (+1 won, 0 drawn, -1 lost), that is a's advantage minus b's."""
        return self.advantage("a") - self.advantage("b")

    def difference_interval(self) -> tuple[float, float]:
        """The normal-approximation interval of :attr:`difference` from the per-race
        differences (each -2 to +2): races that both end alike add nothing to its width."""
        n, d = self.games, self.difference
        square = (
            sum(
                c * (_SCORES[i] - _SCORES[j]) ** 2
                for i, row in enumerate(self.table)
                for j, c in enumerate(row)
            )
            / n
        )
        half = NormalDist().inv_cdf(0.5 + self.confidence / 2) * math.sqrt(
            max(square - d * d, 0.0) / n
        )
        return d - half, d + half

    def controlled_difference(self, b_advantage: float) -> tuple[float, float, float]:
        """The difference, a's advantage minus b's, when b's advantage is known exactly (b and
        the opponent play trees: :func:`race` gives it), and its interval: b's races as a
        control variate, a's mean results corrected by beta times b's simulated advantage's
        error, beta the least-squares slope of a's per-race results on b's.  Never wider than
        a's own interval (beta 0) nor :meth:`difference_interval` (beta 1): beta minimises the
        spread of the residuals.  Returns (estimate, low, high)."""
        n = self.games
        cells = [
            (_SCORES[i], _SCORES[j], c)
            for i, row in enumerate(self.table)
            for j, c in enumerate(row)
        ]
        xm, ym = self.advantage("a"), self.advantage("b")
        sxy = sum(c * (x - xm) * (y - ym) for x, y, c in cells) / n
        sxx = sum(c * (x - xm) ** 2 for x, _, c in cells) / n
        syy = sum(c * (y - ym) ** 2 for _, y, c in cells) / n
        beta = sxy / syy if syy > 0 else 0.0
        estimate = xm - beta * (ym - b_advantage) - b_advantage
        half = NormalDist().inv_cdf(0.5 + self.confidence / 2) * math.sqrt(
            max(sxx - beta * sxy, 0.0) / n
        )
        return estimate, estimate - half, estimate + half

    @staticmethod
    def combine(runs: Sequence[PairedRaces]) -> PairedRaces:
        """Several runs (of different seeds) as one: their races together."""
        if not runs:
            raise ValueError("no paired races to combine")
        first = runs[0]
        if any(
            (r.confidence, r.opponent_first) != (first.confidence, first.opponent_first)
            for r in runs
        ):
            raise ValueError("paired races combine only at one confidence and one seating")
        table = tuple(tuple(sum(r.table[i][j] for r in runs) for j in range(3)) for i in range(3))
        return PairedRaces(
            sum(r.games for r in runs),
            tuple(x for r in runs for x in r.seeds),
            first.confidence,
            first.opponent_first,
            table,
        )  # type: ignore

    def as_dict(self) -> dict[str, Any]:
        names = ("wins", "draws", "losses")
        return {
            "games": self.games,
            "seeds": list(self.seeds),
            "confidence": self.confidence,
            "opponent_first": self.opponent_first,
            "table": [list(r) for r in self.table],
            **{side: dict(zip(names, self.results(side))) for side in ("a", "b")},
            "difference": self.difference,
            "difference_interval": list(self.difference_interval()),
        }


def _hider(words: WordList, hider: Any) -> tuple[np.ndarray, str]:
    """Integer weights and a name for a hider: None (uniform), a :class:`jotto.game.turns.Hider`, or
    weights as :func:`jotto.best_response` takes them."""
    if hider is None:
        return np.ones(len(words), dtype=np.int64), "uniform"
    if hasattr(hider, "distribution"):
        v = exact_weights(np.asarray(hider.distribution(), dtype=np.float64), len(words))
        name = getattr(hider, "name", type(hider).__name__)
    else:
        v = exact_weights(hider, len(words))
        name = "weights"
    if not v.any():
        raise ValueError(f"the hider {name} puts weight on no word")
    return v, name


def _hider_spec(hider: Any, words: WordList, opponent: Guesser, opponent_spec: Any) -> Any:
    """A hider given by its spec made (``best-response`` answers ``opponent``, the guesser
    looking for its word); anything else as it is."""
    if not isinstance(hider, str):
        return hider
    from .evaluation import evaluate
    from .specs import make_hider

    expected = None
    if hider.split(":")[0].lower() in ("best-response", "best_response", "br"):
        expected = evaluate(words, opponent).expected
    name = (
        opponent_spec
        if isinstance(opponent_spec, str)
        else getattr(opponent, "name", type(opponent).__name__)
    )
    return make_hider(hider, words, expected, name)


def _convolve(first: dict[int, Fraction], second: dict[int, Fraction]) -> dict[str, Fraction]:
    """The chance of each result of the race from the two players' chances of needing n
    guesses (independent)."""
    out = dict.fromkeys(OUTCOMES, Fraction(0))
    for a, p in first.items():
        for b, q in second.items():
            out[race_result(a, b)] += p * q
    return out


def _check_simulation(games: Any, seed: Any, confidence: Any, **guessers: Any) -> None:
    """Refuse a bad number of races (None allowed), seed, confidence level or guesser."""
    if games is not None and (
        isinstance(games, bool)
        or not isinstance(games, (int, np.integer))
        or not 1 <= games <= 10**7
    ):
        raise ValueError(f"games must be a number of races from 1 to 10**7, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, not {seed!r}")
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, (int, float))
        or not 0 < confidence < 1
    ):
        raise ValueError(f"confidence must be between 0 and 1, not {confidence!r}")
    for label, g in guessers.items():
        if not isinstance(g, Guesser):
            raise ValueError(f"the {label} player is not a guesser (new_game, next_guess)")


def race(
    words,
    first: Guesser | str,
    second: Guesser | str,
    *,
    first_hider: Any = None,
    second_hider: Any = None,
    games: int | None = None,
    seed: int = 0,
    confidence: float = 0.95,
    threads: int | None = None,
    progress: Callable[[RaceEstimate, int], None] | None = None,
) -> RaceResult:
    """The chances that ``first`` (who guesses first in each round) wins, draws or loses a
    race against ``second`` (:mod:`jotto.game.race_rules`).

    Args:
        words: a :class:`~jotto.game.words.WordList` (or a sequence of playable words).
        first, second: the guessers (:class:`jotto.game.turns.Guesser`), or their specs as
            ``jotto race -1/-2`` takes them (``"gbr:exact"``, ``"norvig:entropy"``, ``"race"``,
            ...: :mod:`jotto.players.specs`).  For a simulation they must be two objects (a
            mixed guesser draws its tree per game); two specs always make two.
        first_hider, second_hider: how each player hides its word (the other must find it):
            None (uniform), a hider (:mod:`jotto.players.hiders`), its spec as ``jotto race
            --first-hider`` takes it (``"best-response"`` answers the other player's guesser),
            or weights as :func:`jotto.best_response` takes them.
        games: races to simulate (at most 10**7).  None: exact when both guessers allow it,
            else :data:`DEFAULT_GAMES`; a number: simulated as well (also when exact).
        seed: the seed of the generator drawing the secrets (the guessers' own randomness is
            theirs, seeded when they were made).
        confidence: the level of the simulation's intervals (0 < confidence < 1).
        threads: threads for building a guesser given by its spec.
        progress: called as ``progress(so_far, games)`` after every simulated race, with the
            :class:`RaceEstimate` of the races played so far (a bar; after Ctrl-C, what was
            simulated).

    Returns:
        A :class:`RaceResult`.
    """
    wl = as_word_list(words)
    first_spec, second_spec = first, second
    if isinstance(first, str) or isinstance(second, str):
        from .evaluation import _guesser

        first = _guesser(wl, first, threads) if isinstance(first, str) else first
        second = _guesser(wl, second, threads) if isinstance(second, str) else second
    _check_simulation(games, seed, confidence, first=first, second=second)
    first_hider = _hider_spec(first_hider, wl, second, second_spec)
    second_hider = _hider_spec(second_hider, wl, first, first_spec)
    v_first, first_hider_name = _hider(wl, first_hider)
    v_second, second_hider_name = _hider(wl, second_hider)
    names = (
        getattr(first, "name", type(first).__name__),
        getattr(second, "name", type(second).__name__),
        first_hider_name,
        second_hider_name,
    )
    a = guess_distribution(first, v_second)
    b = guess_distribution(second, v_first) if a is not None else None
    estimate = None
    if games is not None or b is None:
        estimate = _simulate(
            wl,
            first,
            second,
            v_first,
            v_second,
            DEFAULT_GAMES if games is None else int(games),
            int(seed),
            float(confidence),
            progress,
        )
    if b is not None:
        chances = _convolve(a, b)  # type: ignore[arg-type]
        return RaceResult(
            *names, chances[FIRST], chances[DRAW], chances[SECOND], True, a, b, estimate
        )
    assert estimate is not None
    return RaceResult(
        *names,
        estimate.share(FIRST),
        estimate.share(DRAW),
        estimate.share(SECOND),
        False,
        None,
        None,
        estimate,
    )


class _Player:
    """One side of a simulated race: a guesser looking for a secret word."""

    def __init__(self, words: WordList, guesser: Guesser, label: str):
        self.words, self.guesser, self.label = words, guesser, label
        self.observe = getattr(guesser, "observe", None)

    def start(self, secret: int) -> None:
        self.secret = secret
        self.state = np.arange(len(self.words))
        self.history: list[tuple[int, int]] = []
        self.found = False
        self.guesser.new_game()

    def guess(self, view: RaceView | None) -> bool:
        """Make one guess (telling a race-aware guesser what it sees first); whether it found
        the word."""
        if self.observe is not None and view is not None:
            self.observe(view)
        g = int(self.guesser.next_guess(self.state, self.history))
        if not 0 <= g < len(self.words):
            raise ValueError(f"the {self.label} player's guesser returned {g}, not a word index")
        if g == self.secret:
            self.found = True
            return True
        r = int(replies(self.words, g, [self.secret])[0])
        self.history.append((g, r))
        self.state = self.state[replies(self.words, g, self.state) == r]
        return False


def _simulate(
    words: WordList,
    first: Guesser,
    second: Guesser,
    v_first: np.ndarray,
    v_second: np.ndarray,
    games: int,
    seed: int,
    confidence: float,
    progress: Callable[[RaceEstimate, int], None] | None = None,
) -> RaceEstimate:
    """Play ``games`` races, the secrets drawn from the hiders by a generator seeded ``seed``;
    ``progress(so_far, games)`` after each."""
    if first is second and not (
        getattr(first, "deterministic", False) and not hasattr(first, "observe")
    ):
        raise ValueError(
            "a simulated race needs two guesser objects: this guesser keeps state "
            "per game (make one for each player)"
        )
    rng = np.random.default_rng(seed)
    D = len(words)
    # the first player's words (the second looks for them), then the second's
    first_words = rng.choice(D, size=games, p=v_first / v_first.sum()).tolist()
    second_words = rng.choice(D, size=games, p=v_second / v_second.sum()).tolist()
    a, b = _Player(words, first, "first"), _Player(words, second, "second")
    results = dict.fromkeys(OUTCOMES, 0)
    for played, (first_word, second_word) in enumerate(zip(first_words, second_words), 1):
        a.start(second_word)
        b.start(first_word)
        for _round in range(D):
            a_found = a.guess(RaceView(b.state, tuple(b.history), True, False))
            b_found = b.guess(RaceView(a.state, tuple(a.history), False, a_found))
            result = round_result(a_found, b_found)
            if result is not None:
                results[result] += 1
                break
        else:
            raise ValueError(f"neither player found the other's word within {D} guesses")
        if progress is not None:
            progress(
                RaceEstimate(
                    played, seed, confidence, results[FIRST], results[DRAW], results[SECOND]
                ),
                games,
            )
    return RaceEstimate(games, seed, confidence, results[FIRST], results[DRAW], results[SECOND])


def paired_race(
    words,
    opponent: Guesser,
    a: Guesser,
    b: Guesser,
    *,
    opponent_first: bool = True,
    hider: Any = None,
    opponent_hider: Any = None,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    confidence: float = 0.95,
) -> PairedRaces:
    """Race ``a`` and ``b`` against the same ``opponent`` in the same races, to measure how much
    more one wins than the other (common random numbers, :class:`PairedRaces`).

    In each race the opponent looks for a word drawn from ``hider`` and ``a`` and ``b`` both look
    for one drawn from ``opponent_hider``, as :func:`race` draws them with ``seed``.  The
    opponent plays once, until it finds the word, and ``a`` and ``b`` each race that same play
    (what they observe of it is the same): since it does not watch the race, its guesses do not
    depend on whom it races, and so a random opponent's draws are shared too.  Each race's
    difference of results then reflects only how ``a`` and ``b`` play, and the interval of the
    difference (:meth:`PairedRaces.difference_interval`) is much narrower than that of two
    separate simulations.

    Args:
        words: a :class:`~jotto.game.words.WordList` (or a sequence of playable words).
        opponent: a guesser without ``observe`` (one that watches the race would play
            differently against ``a`` and ``b``).
        a, b: the guessers compared; two objects unless they keep no state per game.
        opponent_first: whether the opponent guesses first in each round (as the person does
            in ``jotto play``).
        hider, opponent_hider: how ``a`` and ``b``, and the opponent, hide their words, as
            :func:`race` takes them.
        games, seed, confidence: as :func:`race` (here ``games`` is always simulated).
    """
    wl = as_word_list(words)
    _check_simulation(games, seed, confidence, opponent=opponent, a=a, b=b)
    if games is None:
        raise ValueError("games must be a number of races from 1 to 10**7, not None")
    if hasattr(opponent, "observe"):
        raise ValueError(
            "a paired race needs an opponent that does not watch the race (its "
            "guesses would depend on whom it races)"
        )
    if (
        opponent is a
        or opponent is b
        or (a is b and not (getattr(a, "deterministic", False) and not hasattr(a, "observe")))
    ):
        raise ValueError(
            "a paired race needs a guesser object per player: these keep state per game"
        )
    v_ours, _ = _hider(wl, hider)  # the words a and b hide, which the opponent looks for
    v_theirs, _ = _hider(wl, opponent_hider)  # the opponent's, which a and b look for
    rng = np.random.default_rng(int(seed))
    D = len(wl)
    # drawn in race()'s order: the first player's words, then the second's
    draws = [
        rng.choice(D, size=games, p=v / v.sum()).tolist()
        for v in ((v_theirs, v_ours) if opponent_first else (v_ours, v_theirs))
    ]
    their_secrets, our_secrets = draws if opponent_first else draws[::-1]
    other = _Player(wl, opponent, "opponent")
    players = (_Player(wl, a, "a"), _Player(wl, b, "b"))
    table = [[0, 0, 0] for _ in range(3)]
    for theirs, ours in zip(their_secrets, our_secrets):
        # the opponent looks for the word a and b hide (ours), they for its word (theirs)
        other.start(ours)
        seen = [(other.state, ())]  # its state and history after each of its guesses
        while not other.guess(None):
            if len(seen) > D:
                raise ValueError(f"the opponent did not find the word within {D} guesses")
            seen.append((other.state, tuple(other.history)))
        needed = len(seen)  # the rounds it takes the opponent
        result = []
        for p in players:
            p.start(theirs)
            for r in range(1, needed + 1):
                # moving second, it has seen the opponent guess r times (the last found it,
                # and changed nothing it had heard); moving first, r - 1 times
                state, history = seen[min(r, needed - 1) if opponent_first else r - 1]
                view = RaceView(state, history, not opponent_first, opponent_first and r == needed)
                if p.guess(view):
                    break
            else:
                r = needed + 1  # not found by the round the opponent finishes: lost
            outcome = race_result(needed, r) if opponent_first else race_result(r, needed)
            mine = (
                {FIRST: SECOND, SECOND: FIRST, DRAW: DRAW}[outcome] if opponent_first else outcome
            )
            result.append(OUTCOMES.index(mine))
        table[result[0]][result[1]] += 1
    return PairedRaces(
        int(games),
        (int(seed),),
        float(confidence),
        bool(opponent_first),
        tuple(tuple(row) for row in table),
    )  # type: ignore[arg-type]
