"""The race's rules, in one place: who guesses when, and who wins.

People play Jotto as a race: both players hide a word and guess the other's.  The game goes in
rounds; in each round the first player guesses, then the second.  The first to find the other's
word wins.  If the first player finds it, the second still takes its guess of that round, and if
that guess finds the first player's word too, the race is a draw.

So a race is decided by the round in which each player finds the word: fewer rounds win, equal
rounds draw (:func:`race_result`).  Moving first is then no advantage to a player whose guesses
do not depend on the other's progress; a player who watches the other can use what it sees,
and the second sees more: when it guesses, it knows whether the first has just found its word.
``jotto play`` (:class:`jotto.play.sessions.Race`, the person first) and
:func:`jotto.players.races.race` both follow these rules; a guesser playing to win plays for
:func:`race_objective`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import numpy as np

from .objectives import Objective

__all__ = ["DRAW", "FIRST", "OUTCOMES", "SECOND", "race_objective", "race_result", "round_result"]

FIRST, SECOND, DRAW = "first", "second", "draw"
#: The results of a race, as the first player sees them: won, drawn, lost.
OUTCOMES = (FIRST, DRAW, SECOND)


def round_result(first_found: bool, second_found: bool) -> str | None:
    """The result once both players have guessed in a round: :data:`DRAW` if both found the
    other's word in it, :data:`FIRST` or :data:`SECOND` if one did, None if the race goes on."""
    if first_found and second_found:
        return DRAW
    if first_found:
        return FIRST
    return SECOND if second_found else None


def race_result(first_guesses: int, second_guesses: int) -> str:
    """Who wins when the first player needs ``first_guesses`` guesses (rounds) to find the
    second's word and the second ``second_guesses``: decided in the round one of them finds it."""
    if first_guesses < 1 or second_guesses < 1:
        raise ValueError("a player needs at least one guess to find a word")
    rounds = min(first_guesses, second_guesses)
    result = round_result(first_guesses == rounds, second_guesses == rounds)
    assert result is not None
    return result


def race_objective(
    rounds: Mapping[int, int | Fraction], draw: Fraction = Fraction(1, 2)
) -> Objective:
    """The objective of a player racing another who finds its word in round e with chance (or
    weight) ``rounds[e]`` (e >= 1, counted from the round of the player's next guess, which is
    round 1; an opponent who has just found the word in this round is e = 1): finding the word
    with the d-th guess from now costs ``P(e < d) + draw P(e = d)``.  ``draw`` is what a draw
    costs against a loss: 0 minimises the chance of losing, 1 maximises the chance of winning,
    1/2 (the default) scores a draw as half a win.  Non-decreasing, constant once every e is
    passed."""
    if isinstance(draw, bool) or not isinstance(draw, (int, Fraction)) or not 0 <= draw <= 1:
        raise ValueError(f"draw must be a number from 0 to 1 (int or Fraction), not {draw!r}")
    weights = {}
    for e, x in rounds.items():
        if isinstance(e, bool) or not isinstance(e, (int, np.integer)) or e < 1:
            raise ValueError(f"rounds are numbered from 1, not {e!r}")
        if isinstance(x, bool) or not isinstance(x, (int, Fraction, np.integer)) or x < 0:
            raise ValueError(
                f"the chance of round {e} must be a non-negative int or Fraction, not {x!r}"
            )
        if x:
            weights[int(e)] = Fraction(x)
    total = sum(weights.values())
    if not total:
        raise ValueError("the opponent's rounds have no weight")
    last = max(weights)
    before = Fraction(0)
    costs = []
    for d in range(1, last + 2):
        now = weights.get(d, Fraction(0))
        costs.append((before + draw * now) / total)
        before += now
    return Objective(tuple(costs), Fraction(0), f"race(draw={draw})")
