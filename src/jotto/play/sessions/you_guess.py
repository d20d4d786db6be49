"""You guess the computer's word: it hides one (drawn by the level's hider) and answers your
guesses with the rules' reply."""

from __future__ import annotations

import numpy as np

from ...game.words import WordList
from ..sheet import Style, sheet_state
from .base import GIVE_UP, QUIT, SHEET, Reply, Session


class YouGuess(Session):
    """You guess the computer's word."""

    mode = "guess"

    help_text = """
Type a guess to hear how many letters it shares with my word{IN_PLACE}.
  hint        how many of my words are still consistent with your replies
  sheet       show your sheet again
  mark X in   mark letter(s) X in (or out, or clear) on your sheet, as on paper
  give up     show my word
  quit        stop (so do Ctrl-D and Ctrl-C)
The sheet after each guess lists your guesses and the letters they prove in my word (in:,
capitals) and not in it (out:); at a colour terminal, the alphabet with those marked.
"""

    def __init__(
        self,
        words: WordList,
        hider_p: np.ndarray,
        seed: int | None = None,
        expected: np.ndarray | None = None,
        expected_by: str = "",
        hints: bool = False,
        style: Style | None = None,
        sheet: bool = False,
        hides: str = "",
    ):
        super().__init__(words, style, sheet)
        #: which words I hide, said at the start (:attr:`jotto.play.commonness.HidingSet.about`)
        self.hides = hides
        rng = np.random.default_rng(seed)
        p = np.asarray(hider_p, dtype=np.float64)
        self.secret = int(rng.choice(len(words), p=p / p.sum()))
        self.expected = expected
        self.expected_by = expected_by
        self.hints = hints
        self.guesses: list[str] = []
        self.replies: list[int] = []
        self.found = False
        self.gave_up = False
        self.quit = False
        #: whether a win ends with the whole sheet (a race shows its own ending)
        self.board = True
        self.state = np.arange(len(words))

    def help(self) -> Reply:
        out = super().help()
        where = " (and how many are in place: 3/1)" if self.rules.positional else ""
        out.lines = [x.replace("{IN_PLACE}", where) for x in out.lines]
        return out

    def start(self) -> Reply:
        return Reply().say(
            f"I am thinking of a {self.L}-letter word from {self.words.source} "
            f"({len(self.words)} words){self.hiding_note()}. Type 'help' for "
            f"commands.",
            *self.intro(),
        )

    def hiding_note(self) -> str:
        """Which words I hide, for the start: ', one of the 810 common ones (by wordfreq)'."""
        return f", {self.hides}" if self.hides else ""

    def handle(self, line: str) -> Reply:
        text = line.strip().lower()
        if not text:
            return Reply()
        if text in QUIT:
            self.quit = True
            return Reply(done=True).say(f"My word was {self.words[self.secret]}.")
        if text == "help":
            return self.help()
        if text == "hint":
            return Reply().say(self._left())
        if text == SHEET:
            return Reply().say(*self.sheet_lines())
        marked = self.mark(text)
        if marked is not None:
            return marked
        if text in GIVE_UP:
            return self.give_up()
        return self.guess(text)

    @property
    def over(self) -> bool:
        return self.found or self.gave_up or self.quit

    def asks(self) -> str:
        return "none" if self.over else "guess"

    def view(self):
        return self._view(
            yours=self.your_sheet(),
            over=self.over,
            outcome=(self.result() or {}).get("outcome"),
            my_word=self.words[self.secret] if self.over else None,
        )

    def your_sheet(self):
        """Your sheet: your guesses (the one that found my word too), my replies, the letters
        proved, your marks, and with hints how many of my words fit."""
        moves = self.moves()
        return sheet_state(
            "Your sheet:",
            [g for g, _ in moves],
            [r for _, r in moves],
            self.rules,
            self.L,
            len(self.state) if self.hints else None,
            self.marks,
        )

    def give_up(self) -> Reply:
        """You give up: my word, and the game is over."""
        if self.over:
            return Reply().refuse("This game is over.")
        self.gave_up = True
        return Reply(done=True).say(f"My word was {self.words[self.secret]}.", *self._epilogue())

    def guess(self, text: str) -> Reply:
        """Your guess ``text`` (lower case): my reply, or why it is not counted."""
        if self.over:
            return Reply().refuse("This game is over.")
        problem = self.check_word(text)
        if problem:
            return Reply().refuse(problem + " (not counted)")
        if text in self.guesses:
            reply = self.replies[self.guesses.index(text)]
            return Reply().refuse(
                f"You already guessed {text} (reply {self.show(reply)}); not counted."
            )
        problem = self.vocab.hard_problem(text, list(zip(self.guesses, self.replies)))
        if problem:
            return Reply().refuse(problem + " (not counted)")
        self.guesses.append(text)
        n = len(self.guesses)
        if text == self.words[self.secret]:
            self.found = True
            out = Reply(done=True).say(
                f"Yes! {text} is my word. You found it in {n} guess{'es' if n > 1 else ''}.",
                *self._epilogue(),
            )
            if self.sheet and self.board:
                out.say(*self.render(self.your_sheet()))
            return out
        code = int(self.vocab.replies(text, [self.secret])[0])
        self.replies.append(code)
        self.state = self.state[self.vocab.replies(text, self.state) == code]
        out = Reply()
        if self.rules.split(code, self.L)[0] == self.L:
            shown = f" {self.show(code)}:" if self.rules.positional else ""
            out.say(
                f"{text}:{shown} all {self.L} letters in common, but it is not my word (an "
                f"anagram of it)"
            )
        else:
            out.say(f"{text}: {self.show(code)}")
        if self.sheet:
            out.say(*self.sheet_lines())
        elif self.hints:
            out.say(self._left())
        return out

    def _left(self) -> str:
        n = len(self.state)
        return (
            f"{n} word{'s' if n != 1 else ''} of my list fit{'' if n != 1 else 's'} your "
            f"replies so far."
        )

    def _epilogue(self) -> list[str]:
        if self.expected is None:
            return []
        by = self.expected_by[:1].upper() + self.expected_by[1:]
        return [
            f"{by} would expect to need "
            f"{self.expected[self.secret]:.2f} guesses for {self.words[self.secret]}."
        ]

    def moves(self) -> list[tuple[str, int]]:
        """Your guesses and my replies, the one that found my word with the win's code."""
        out = list(zip(self.guesses, self.replies))
        return out + [(self.guesses[-1], self.words.win_code)] if self.found else out

    def game_moves(self) -> dict:
        """Both sides' (guess, reply) pairs for the game log (None: the side did not guess),
        and my word."""
        return {"yours": self.moves(), "mine": None, "my_word": self.words[self.secret]}

    def result(self) -> dict | None:
        if self.found:
            return {"mode": "guess", "outcome": "won", "your_guesses": len(self.guesses)}
        if self.gave_up:
            return {"mode": "guess", "outcome": "gave up", "your_guesses": len(self.guesses)}
        return None
