"""Jotto with a person: the sessions behind ``jotto play`` and ``jotto assist``.

Each session takes one line of input at a time (``handle``) or one move by its method, and
returns what to say; the command line only reads lines and prints, the web server
(:mod:`jotto.web`) calls the moves and sends the session's structured state
(:class:`~.state.GameState`, from :meth:`~.base.Session.view`) as JSON.  So the game logic is one,
tested directly, and the real fronts through a pseudo-terminal and a browser.  A module per
session: :mod:`.you_guess`, :mod:`.you_hide`, :mod:`.race`, :mod:`.assist`; what they share in
:mod:`.base`, the computer's levels in :mod:`.levels`.

- :class:`YouGuess`: the computer hides a word (drawn by the level's hider: the equilibrium
  hider at hard when a strategy is known, else uniformly) and answers your guesses with the
  rules' reply.
- :class:`YouHide`: you think of a word; the computer guesses (the equilibrium guesser by default)
  and you answer.  Contradictory answers are caught and can be taken back (``undo``) or
  corrected (``fix N R``), and the game goes on.
- :class:`Race`: the real two-sided game: both hide a word and take turns guessing; the first to
  find the other's word wins.  It is a :class:`YouGuess` and a :class:`YouHide` taking turns.
- :class:`Assist`: for a game played elsewhere: you enter guesses and replies, it narrows down
  the candidates and suggests the next guess.

Every session plays under the word list's :class:`~jotto.game.rules.Rules`: replies are the rules'
codes (typed and shown as ``3`` or, with positional feedback, ``3/1``), the game is won when the
guess is the secret word (so under ``keep-all`` an anagram of it is an ordinary reply, and a
person hiding a word says ``yes`` when it is found), a person may guess any word the rules allow
(:class:`~jotto.play.vocabulary.Vocabulary`: also words that cannot be secrets, like ``heart`` under
the paper's rules), and under hard mode a person's guess that does not fit the replies so far is
refused.  Every session starts by saying which words can be secrets and why an example word is
not one.

With ``sheet=True`` the playing sessions add the Jotto sheet (:mod:`jotto.play.sheet`, its state :class:`~jotto.play.sheet.SheetState`) after each
turn; ``sheet`` shows it again at any time, and ``mark X in`` / ``mark X out`` marks letters by
hand, as on paper.  ``result()`` gives a finished game's outcome for the statistics
(:mod:`jotto.play.history`).  The computer hides a word drawn from the level's hider among the words
``hiding`` allows (:mod:`jotto.play.commonness`: common words at easy and medium).  A session's
opening (which words are secrets, and why an example is not) is said by its first game only
(``opening=False`` for the games after "Play again").
"""

from .assist import Assist
from .base import Reply, Session
from .levels import (
    HIDE_FROM,
    LEVELS,
    MODES,
    bundled_solution,
    default_guesser,
    hider_for,
    level_players,
    new_session,
    strategy_for,
)
from .race import Race
from .state import ASKS, GameState
from .you_guess import YouGuess
from .you_hide import YouHide

__all__ = [
    "ASKS",
    "HIDE_FROM",
    "LEVELS",
    "MODES",
    "Assist",
    "GameState",
    "Race",
    "Reply",
    "Session",
    "YouGuess",
    "YouHide",
    "bundled_solution",
    "default_guesser",
    "hider_for",
    "level_players",
    "new_session",
    "strategy_for",
]
