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
:func:`jotto.players.races.race`
both follow these rules.
"""

from __future__ import annotations

__all__ = ["DRAW", "FIRST", "OUTCOMES", "SECOND", "race_result", "round_result"]

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
