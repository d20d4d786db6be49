"""Assist a game played elsewhere: you enter guesses and replies, it narrows down the candidates
and suggests the next guess."""

from __future__ import annotations

import numpy as np

from ...game.turns import Guesser
from ...game.words import WordList
from ...players.guessers import OffTree
from ..sheet import Style, sheet_state
from .base import QUIT, SHEET, Reply, Session


class Assist(Session):
    """Narrow down a game played elsewhere and suggest guesses."""

    mode = "assist"

    help_text = """
Enter each guess you made and the reply you got, e.g. '{EXAMPLE}'.
  list        show the candidates left
  sheet       show the sheet (the guesses, their replies, the letters they prove)
  mark X in   mark letter(s) X in (or out, or clear) on the sheet, as on paper
  undo        take back the last guess
  new         start a new game
  quit        stop (so do Ctrl-D and Ctrl-C)
"""

    def __init__(
        self,
        words: WordList,
        guesser: Guesser,
        guesser_name: str = "",
        show: int = 12,
        style: Style | None = None,
        sheet: bool = False,
        drawn: bool = False,
    ):
        super().__init__(words, style, sheet)
        #: the guesser is a mixed strategy drawn anew each game (no --seed): its first suggestion
        #: changes from game to game, which the opening says
        self.drawn = drawn
        self.guesser = guesser
        self.guesser_name = guesser_name
        self.show = show
        self.history: list[tuple[str, int]] = []
        #: the guess suggested after the last entry (None: no word fits, or off the tree)
        self.suggestion: str | None = None
        self.quit = False
        self.guesser.new_game()

    def asks(self) -> str:
        return "none" if self.quit else "entry"

    def view(self):
        return self._view(yours=self.the_sheet(), my_guess=self.suggestion, over=self.quit)

    def the_sheet(self):
        """The game's sheet: the guesses entered, their replies, the letters they prove, the
        person's marks, and how many candidates are left."""
        return sheet_state(
            "The sheet:",
            [w for w, _ in self.history],
            [r for _, r in self.history],
            self.rules,
            self.L,
            len(self._state()),
            self.marks,
        )

    def start(self) -> Reply:
        return self._status(
            Reply().say(
                f"Assisting with {self.L}-letter words from {self.words.source} ({len(self.words)} "
                f"words); suggestions by {self.guesser_name}. Type 'help' for commands.",
                *self.intro(),
                *self.drawn_line(),
            )
        )

    def drawn_line(self) -> list[str]:
        """Why the first suggestion changes from game to game, when it does."""
        if not self.drawn:
            return []
        return [
            f"{self.guesser_name} is a mixed strategy: its first suggestion is drawn anew "
            f"each game, so it changes from game to game (--seed N repeats it)."
        ]

    def example(self) -> str:
        """An example line: a guess and its reply."""
        return "stare 3/1" if self.rules.positional else "stare 2"

    def help(self) -> Reply:
        out = super().help()
        out.lines = [x.replace("{EXAMPLE}", self.example()) for x in out.lines]
        return out

    def _state(self) -> np.ndarray:
        return self.vocab.consistent(self.history)

    def sheet_lines(self) -> list[str]:
        """The game's sheet as text (without the count of candidates: said after it)."""
        return self.render(
            sheet_state(
                "The sheet:",
                [w for w, _ in self.history],
                [r for _, r in self.history],
                self.rules,
                self.L,
                marks=self.marks,
            )
        )

    def _status(self, out: Reply) -> Reply:
        if self.sheet and self.history:
            out.say(*self.sheet_lines())
        S = self._state()
        n = len(S)
        self.suggestion = None
        if n == 0:
            return out.say(
                "No word fits all these replies: check them ('undo' takes back the last)."
            )
        out.say(
            f"{n} candidate{'s' if n != 1 else ''} left"
            + (": " + " ".join(self.words[int(i)] for i in S) if n <= self.show else ".")
        )
        hist = [(self.words.index(w) if w in self.words else -1, r) for w, r in self.history]
        try:
            guess = self.words[int(self.guesser.next_guess(S, hist))]
        except OffTree:  # a tree file knows only its own games; the session goes on
            return out.say(
                f"No suggestion: these guesses left the tree of "
                f"{self.guesser_name} ('undo' goes back to it)."
            )
        self.suggestion = guess
        return out.say(f"Suggested guess: {guess}")

    def handle(self, line: str) -> Reply:
        parts = line.strip().lower().split()
        if not parts:
            return Reply()
        if parts[0] in QUIT:
            self.quit = True
            return Reply(done=True).say("Bye.")
        if parts == ["help"]:
            return self.help()
        if parts == ["list"]:
            S = self._state()
            return Reply().say(" ".join(self.words[int(i)] for i in S) or "(none)")
        if parts == [SHEET]:
            return Reply().say(*self.sheet_lines())
        marked = self.mark(" ".join(parts))
        if marked is not None:
            return marked
        if parts == ["undo"]:
            return self.undo()
        if parts == ["new"]:
            return self.new()
        if len(parts) < 2:
            return Reply().refuse(
                f"Enter a guess and its reply, e.g. '{self.example()}' (or 'help')."
            )
        return self.enter(parts[0], " ".join(parts[1:]))

    def undo(self) -> Reply:
        """Take back the last guess entered."""
        if not self.history:
            return Reply().refuse("Nothing to undo.")
        self.history.pop()
        return self._status(Reply())

    def new(self) -> Reply:
        """Start a new game: no guess, no mark."""
        self.history.clear()
        self.marks.clear()
        self.guesser.new_game()
        return self._status(Reply().say("New game."))

    def enter(self, word: str, reply: str) -> Reply:
        """A guess ``word`` made in the game and the ``reply`` it got (as typed)."""
        problem = self.check_word(word)
        if problem:
            return Reply().refuse(problem + " (not counted)")
        try:
            r = self.rules.parse_reply(reply, self.L)
        except ValueError as exc:  # the rules' own reason, about what was typed
            return Reply().refuse(f"{exc}, e.g. '{self.example()}' (not counted)")
        # a reply of L letters in common to a word with anagrams: the game was not won
        self.history.append((word, self.vocab.answer_code(word, r)))
        return self._status(Reply())
