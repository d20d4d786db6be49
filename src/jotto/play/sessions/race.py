"""The race, the real two-sided game: both hide a word and take turns guessing; the first to find
the other's word wins.  It is a :class:`~.you_guess.YouGuess` and a
:class:`~.you_hide.YouHide` taking turns."""

from __future__ import annotations

import numpy as np

from ...game.race_rules import DRAW, FIRST, SECOND, round_result
from ...game.turns import Guesser
from ...game.words import WordList
from ...players.races import RaceView
from ..sheet import Style
from .base import FIX, GIVE_UP, QUIT, SHEET, Reply, Session
from .you_guess import YouGuess
from .you_hide import YouHide


class Race(Session):
    """The real game: you and I each hide a word and take turns, you first in each round; the
    first to find the other's word wins.  If you find mine, I still take my guess of that round
    (you started the round), and if it finds yours the game is a draw
    (:mod:`jotto.game.race_rules`)."""

    mode = "race"
    help_text = """
Think of a word from the list and keep it secret. Each round you guess my word, then I guess
yours. Whoever finds the other's word first wins (both in the same round: a draw). At the end
I ask for your word and check your answers.
When it is your guess:
  WORD        your guess; I say how many letters it shares with my word
  hint        how many of my words fit your replies
When I guess, answer:
  {ANSWER}        {MEANS}
  yes         I guessed it
  undo        take back your last answer
  fix N R     change your answer to my guess N to R
Any time:
  sheet       show your sheet again
  mark X in   mark letter(s) X in (or out, or clear) on your sheet, as on paper
  give up     you lose; I show my word
  quit        stop (so do Ctrl-D and Ctrl-C)
"""

    def __init__(
        self,
        words: WordList,
        hider_p: np.ndarray,
        guesser: Guesser,
        guesser_name: str = "",
        seed: int | None = None,
        hints: bool = False,
        style: Style | None = None,
        sheet: bool = True,
        hides: str = "",
    ):
        super().__init__(words, style, sheet)
        self.mine = YouGuess(
            words, hider_p, seed, hints=hints, style=style, sheet=sheet, hides=hides
        )
        self.mine.board = False
        self.theirs = YouHide(
            words, guesser, guesser_name, style=style, sheet=False, auto_next=False
        )
        self.guesser_name = guesser_name
        self.your_turn = True
        self.outcome: str | None = None
        self.quit = False
        #: the race is over and I asked for your word, to check your answers
        self.asking_word = False

    @property
    def over(self) -> bool:
        return self.outcome is not None or self.quit

    def asks(self) -> str:
        if self.asking_word:
            return "word"
        if self.over:
            return "none"
        return "guess" if self.your_turn else "answer"

    def view(self):
        asks = self.asks()
        return self._view(
            yours=self.mine.your_sheet(),
            mine=self.theirs.my_sheet("My sheet:", found_too=True),
            my_guess=self.words[self.theirs.current] if asks == "answer" else None,
            my_candidates=len(self.theirs.state),
            over=self.over,
            outcome=self.outcome,
            my_word=self._my_word() if self.over else None,
        )

    def start(self) -> Reply:
        return Reply().say(
            f"Race: think of a {self.L}-letter word from {self.words.source} "
            f"({len(self.words)} words) and keep it secret; I have chosen mine"
            f"{self.mine.hiding_note()}. Each round you guess first, then I do; I guess with "
            f"{self.guesser_name}. Type 'help' for commands.",
            *self.intro(),
            *self.theirs.yes_note(),
        )

    def handle(self, line: str) -> Reply:
        text = line.strip().lower()
        if self.asking_word:
            return self.tell_word("" if text in QUIT else text)
        if text in QUIT:
            self.quit = True
            return Reply(done=True).say(f"My word was {self._my_word()}.")
        if text in GIVE_UP:
            return self.give_up()
        if text == "help":
            return self.help()
        if text == "hint":
            return self.mine.handle(text)
        if text == SHEET:
            return Reply().say(*self.sheet_lines())
        marked = self.mine.mark(text)
        if marked is not None:
            return marked
        if text == "undo":
            return self.undo()
        fix = FIX.fullmatch(text)
        if fix:
            return self.fix(int(fix.group(1)), fix.group(2))
        if not text:
            return Reply()
        return self.guess(text) if self.your_turn else self.answer(text)

    def set_mark(self, letters: str, what: str) -> Reply:
        return self.mine.set_mark(letters, what)

    def give_up(self) -> Reply:
        """You give up: you lose, and I show my word."""
        if self.over:
            return Reply().refuse("This game is over.")
        self.outcome = "gave up"
        return self._end(Reply(), f"My word was {self._my_word()}.")

    def tell_word(self, text: str) -> Reply:
        """After the race: your word ``text`` (empty: none), and what it says of your answers."""
        if not self.asking_word:
            return Reply().refuse("I did not ask for your word now.")
        self.asking_word = False
        out = Reply(done=True)
        return out.say(*self.theirs.check_answers(text)) if text else out

    def _my_word(self) -> str:
        return self.words[self.mine.secret]

    def guess(self, text: str) -> Reply:
        """Your guess ``text`` of my word: my reply, then my guess of yours."""
        if self.asks() != "guess":
            return Reply().refuse(
                "It is not your turn to guess: answer my guess first."
                if self.asks() == "answer"
                else "This game is over."
            )
        out = self.mine.guess(text)
        if out.refused:
            return out  # not a guess (a bad word): still your turn
        out.done = False
        if self.mine.found:
            out.say("I still take my guess of this round: if it finds your word, we draw.")
        self._show_progress()
        self.your_turn = False
        return out.say("My g" + self.theirs.guess_line()[1:])

    def _show_progress(self) -> None:
        """Tell a guesser that plays the race (it has ``observe``) how far you are: the words
        of my list that fit my replies to you, before it guesses (:class:`jotto.players.races.RaceView`;
        I guess second in each round)."""
        observe = getattr(self.theirs.guesser, "observe", None)
        if observe is None:
            return
        history = tuple(
            (self.words.index(w) if w in self.words else -1, r)
            for w, r in zip(self.mine.guesses, self.mine.replies)
        )
        observe(RaceView(self.mine.state, history, False, self.mine.found))

    def answer(self, text: str) -> Reply:
        """Your answer ``text`` to my guess (a reply, or ``yes``)."""
        if self.asks() != "answer":
            return Reply().refuse(
                "There is no guess of mine to answer now: it is your turn to guess."
                if self.asks() == "guess"
                else "This game is over."
            )
        return self._after_answer(self.theirs.answer(text))

    def undo(self) -> Reply:
        """Take back your last answer to my guesses."""
        if self.over:
            return Reply().refuse("This game is over.")
        return self._after_answer(self.theirs.undo())

    def fix(self, n: int, text: str) -> Reply:
        """Change your answer to my guess ``n`` to ``text``."""
        if self.over:
            return Reply().refuse("This game is over.")
        return self._after_answer(self.theirs.fix(n, text))

    def _after_answer(self, out: Reply) -> Reply:
        """After your answers changed: the round's result, or whose turn it is."""
        if out.refused:
            return out
        answered = len(self.theirs.history)
        # the round is over once my guess of it has an answer (race_rules decides the result)
        result = (
            round_result(self.mine.found, self.theirs.found)
            if answered + self.theirs.found == len(self.mine.guesses)
            else None
        )
        if result in (DRAW, SECOND):
            self.outcome = "draw" if result == DRAW else "lost"
            verdict = (
                "We both found the other's word in this round: a draw."
                if result == DRAW
                else "I found your word first: I win."
            )
            return self._end(Reply().say(*out.lines), verdict, f"My word was {self._my_word()}.")
        if result == FIRST:
            self.outcome = "won"
            n = len(self.mine.guesses)
            return self._end(
                Reply().say(*out.lines),
                f"You found my word first, in {n} guess{'es' if n > 1 else ''}: you win.",
            )
        # your turn once my guess of this round has an answer that leaves some word
        self.your_turn = answered == len(self.mine.guesses) and len(self.theirs.state) > 0
        out.lines = ["My g" + x[1:] if x.startswith("Guess ") else x for x in out.lines]
        return out

    def sheet_lines(self) -> list[str]:
        """Your sheet: your guesses of my word, my replies, your marks."""
        return self.mine.sheet_lines()

    def _end(self, out: Reply, *lines: str) -> Reply:
        """The race is over: the verdict, my sheet, and a check of your answers: against your
        word if I found it, else after asking for it (then the session ends on the reply)."""
        out.say(*lines)
        if self.sheet and self.theirs.history:
            out.say(*self.theirs.sheet_lines("My sheet (my guesses, your answers):"))
        if self.theirs.found:
            out.say(*self.theirs.answer_errors(self.words[self.theirs.current]))
            out.done = True
        elif self.theirs.history:
            self.asking_word = True
            out.say("What was your word? I will check your answers (Enter to skip).")
        else:
            out.done = True
        return out

    def game_moves(self) -> dict:
        return {"yours": self.mine.moves(), "mine": self.theirs.moves(), "my_word": self._my_word()}

    def result(self) -> dict | None:
        if self.outcome is None:
            return None
        return {
            "mode": "race",
            "outcome": self.outcome,
            "your_guesses": len(self.mine.guesses),
            "my_guesses": len(self.theirs.history) + (1 if self.theirs.found else 0),
        }
