"""What a front end shows of a game: :class:`GameState`, one structure for the terminal and the web.

A session (:mod:`jotto.play.sessions`) keeps the game; its :meth:`~.base.Session.view` gives
the state a person sees: both sides' guesses and replies as sheets, the question asked now, the
computer's guess waiting for an answer, the words still fitting (with hints), the outcome.  The
terminal draws the sheets and the prompt from it (:func:`jotto.play.sheet.render_sheet`), the web
server sends it as JSON (:meth:`GameState.as_dict`).

The computer's word is in it only once the game is over (``my_word``): nothing before the end
tells it, so a front end can show everything it is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..sheet import SheetState

__all__ = ["ASKS", "GameState"]

#: The question a game asks now: your next guess, your answer to my guess, your word (to check
#: your answers after the end), an entry for assist (a guess and its reply), nothing (over).
ASKS = ("guess", "answer", "word", "entry", "none")


@dataclass(frozen=True)
class GameState:
    """A game as a front end shows it."""

    #: race, guess (you guess), hide (you hide), assist
    mode: str
    #: the word list: its source, letters per word, size and rules' name
    source: str
    length: int
    size: int
    rules: str
    #: replies give the letters in place too (typed ``3/1``)
    positional: bool
    #: one of :data:`ASKS`
    asks: str
    #: your guesses of my word and my replies (None: you do not guess in this mode)
    yours: SheetState | None = None
    #: my guesses of your word and your answers (None: I do not guess in this mode)
    mine: SheetState | None = None
    #: my guess waiting for your answer (asks == "answer"), or assist's suggestion
    my_guess: str | None = None
    #: how many words of the list fit your answers to my guesses
    my_candidates: int | None = None
    #: the game is over, and how it ended (won, lost, draw, gave up, found, quit)
    over: bool = False
    outcome: str | None = None
    #: my word, only once the game is over
    my_word: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "words": {
                "source": self.source,
                "length": self.length,
                "size": self.size,
                "rules": self.rules,
                "positional": self.positional,
            },
            "asks": self.asks,
            "yours": None if self.yours is None else self.yours.as_dict(),
            "mine": None if self.mine is None else self.mine.as_dict(),
            "my_guess": self.my_guess,
            "my_candidates": self.my_candidates,
            "over": self.over,
            "outcome": self.outcome,
            "my_word": self.my_word if self.over else None,
        }
