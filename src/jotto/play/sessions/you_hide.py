"""You hide a word and the computer guesses it: you answer, and contradictory answers are caught
and can be taken back (``undo``) or corrected (``fix N R``), and the game goes on."""

from __future__ import annotations

import numpy as np

from ...game.turns import Guesser, replies
from ...game.words import WordList
from ...util.files import quote
from ..sheet import Style, sheet_state
from .base import FIX, GIVE_UP, QUIT, SHEET, YES, Reply, Session


class YouHide(Session):
    """The computer guesses your word."""

    mode = "hide"

    help_text = """
Think of a word from the list; I guess it. After each guess, answer:
  {ANSWER}       {MEANS}
  yes          I guessed it
  undo         take back your last answer
  fix N R      change your answer to my guess N to R
  sheet        show my sheet (my guesses, your answers, the letters they prove)
  give up      stop; you may tell me your word
  quit         stop (so do Ctrl-D and Ctrl-C)
"""

    def __init__(
        self,
        words: WordList,
        guesser: Guesser,
        guesser_name: str = "",
        style: Style | None = None,
        sheet: bool = False,
        auto_next: bool = True,
    ):
        super().__init__(words, style, sheet)
        self.guesser = guesser
        self.guesser_name = guesser_name
        self.history: list[tuple[int, int]] = []
        self.state = np.arange(len(words))
        self.current = -1
        self.asking_word = False
        self.found = False
        self.gave_up = False
        self.quit = False
        #: whether an accepted answer is followed at once by the next guess (a race waits for
        #: your turn first, then asks :meth:`guess_line`)
        self.auto_next = auto_next
        self.guesser.new_game()

    @property
    def over(self) -> bool:
        return self.found or self.gave_up or self.quit

    def asks(self) -> str:
        """Your answer to my guess; your word once I asked for it (after "give up")."""
        if self.asking_word:
            return "word"
        return "none" if self.over else "answer"

    def view(self):
        return self._view(
            mine=self.my_sheet("My sheet:", found_too=True),
            my_guess=self.words[self.current] if self.asks() == "answer" else None,
            my_candidates=len(self.state),
            over=self.over,
            outcome=(self.result() or {}).get("outcome"),
        )

    def my_sheet(self, title: str, found_too: bool = False):
        """My sheet: my guesses, your answers, the letters they prove; ``found_too``: with the
        guess that found your word."""
        moves = self.moves() if found_too else self._word_history()
        return sheet_state(title, [g for g, _ in moves], [r for _, r in moves], self.rules, self.L)

    def start(self) -> Reply:
        out = Reply().say(
            f"Think of a {self.L}-letter word from {self.words.source} "
            f"({len(self.words)} words); I will guess it with "
            f"{self.guesser_name}. Type 'help' for commands.",
            *self.intro(),
            *self.yes_note(),
        )
        return self._next(out)

    def yes_note(self) -> list[str]:
        """Under ``keep-all`` (without positional replies), how a person says they were found."""
        if self.rules.positional or self.rules.anagrams != "keep-all":
            return []
        return [
            f"Answer 'yes' when I guess your word: {self.L} letters in common with another "
            f"word of the same letters is an ordinary answer."
        ]

    def guess_line(self) -> str:
        """Choose the next guess and say it."""
        self.current = int(self.guesser.next_guess(self.state, self.history))
        return f"Guess {len(self.history) + 1}: {self.words[self.current]}"

    def _next(self, out: Reply) -> Reply:
        return out.say(self.guess_line())

    def _recompute(self) -> None:
        self.state = np.arange(len(self.words))
        for g, r in self.history:
            self.state = self.state[replies(self.words, g, self.state) == r]

    def handle(self, line: str) -> Reply:
        text = line.strip().lower()
        if self.asking_word:
            return self.tell_word(text)
        if not text:
            return Reply()
        if text in QUIT:
            self.quit = True
            return Reply(done=True).say("Bye.")
        if text == "help":
            return self.help()
        if text == "undo":
            return self.undo()
        if text == SHEET:
            return Reply().say(*self.sheet_lines())
        fix = FIX.fullmatch(text)
        if fix:
            return self.fix(int(fix.group(1)), fix.group(2))
        if text in GIVE_UP:
            return self.give_up()
        return self.answer(text)

    def give_up(self) -> Reply:
        """You stop; I ask for your word, to check your answers."""
        if self.asks() != "answer":
            return Reply().refuse("This game is over.")
        self.asking_word = True
        return Reply().say("What was your word? (Enter to skip)")

    def answer(self, text: str) -> Reply:
        """Your answer ``text`` to my guess (a reply, or ``yes``): the next guess, or why the
        answer is not taken."""
        if self.asks() != "answer":
            return Reply().refuse("There is no guess of mine to answer now.")
        answer = self.read_reply(text)
        if answer is not None:
            # L letters in common is the win unless another word has the guess's letters
            answer = self.vocab.answer_code(self.words[self.current], answer)
        if text in YES or answer == self.words.win_code:
            self.found = True
            n = len(self.history) + 1
            return Reply(done=True).say(
                f"Got it: {self.words[self.current]} in {n} guess{'es' if n > 1 else ''}."
            )
        if answer is None:
            return Reply().refuse(
                f"Please answer with {self.reply_form()}, 'yes' if I guessed your word, or 'undo'."
            )
        if len(self.state) == 0:
            return Reply().refuse(
                "No word fits your answers so far: 'undo' the last one or "
                "'fix' a wrong one first, or 'give up' and tell me your word."
            )
        self.history.append((self.current, answer))
        return self._after_change(Reply())

    def _after_change(self, out: Reply) -> Reply:
        """Recount the words that fit; go on if some do, else say how to correct."""
        self._recompute()
        n = len(self.state)
        if n == 0:
            out.say(
                "No word in my list fits all your answers. Type 'undo' to take back "
                "the last one, 'fix N R' to correct your answer to guess N, or 'give "
                "up' and tell me your word to see which answer ruled it out."
            )
            return out.say(*self._dropped_fitting())
        out.say(f"{n} word{'s' if n != 1 else ''} still fit{'' if n != 1 else 's'}.")
        if self.sheet:
            out.say(*self.sheet_lines())
        return self._next(out) if self.auto_next else out

    def _dropped_fitting(self) -> list[str]:
        """When no secret fits: the words the rules dropped that fit every answer (the word
        the person is thinking of may be one), grouped by why they were dropped."""
        fits = self.vocab.dropped_fitting(self._word_history())
        by_reason: dict[str, list[str]] = {}
        for w in fits:
            by_reason.setdefault(self.vocab.dropped_reason(w), []).append(w)
        lines = []
        for reason, ws in by_reason.items():
            shown = ", ".join(ws[:5]) + (f" and {len(ws) - 5} more" if len(ws) > 5 else "")
            lines.append(
                f"But {shown} fit{'s' if len(ws) == 1 else ''} all your answers, and "
                f"these rules drop {'it' if len(ws) == 1 else 'them'}: {reason}."
            )
        return lines

    def _word_history(self) -> list[tuple[str, int]]:
        return [(self.words[g], r) for g, r in self.history]

    def sheet_lines(self, title: str = "My sheet:") -> list[str]:
        """My sheet as text: my guesses, your answers, the letters they prove."""
        return self.render(self.my_sheet(title))

    def undo(self) -> Reply:
        """Take back your last answer; my guess again."""
        if self.asks() != "answer":
            return Reply().refuse("This game is over.")
        if not self.history:
            return Reply().refuse("Nothing to undo.")
        g, r = self.history.pop()
        self._recompute()
        out = Reply().say(f"Took back your answer {self.show(r)} to {self.words[g]}.")
        return self._next(out)

    def fix(self, n: int, text: str) -> Reply:
        """Change your answer to my guess ``n`` (from 1) to ``text``."""
        if self.asks() != "answer":
            return Reply().refuse("This game is over.")
        if not 1 <= n <= len(self.history):
            return Reply().refuse(
                f"There is no answered guess {n} (answered so far: {len(self.history)})."
            )
        g, old = self.history[n - 1]
        r = self.read_reply(text)
        if r is None:
            return Reply().refuse(f"A corrected answer is {self.reply_form()}.")
        r = self.vocab.answer_code(self.words[g], r)
        if r == self.words.win_code:
            return Reply().refuse(
                f"A corrected answer cannot say I found your word (I would have "
                f"stopped at guess {n})."
            )
        self.history[n - 1] = (g, r)
        out = Reply().say(
            f"Changed your answer to guess {n} ({self.words[g]}) from "
            f"{self.show(old)} to {self.show(r)}."
        )
        # guesses after it were chosen on the old answer; they and their answers stay (they are
        # still true facts about your word), and the next guess is chosen afresh
        return self._after_change(out)

    def tell_word(self, text: str) -> Reply:
        """After "give up": your word ``text`` (empty: none), and what it says of your
        answers."""
        if not self.asking_word:
            return Reply().refuse("I did not ask for your word now.")
        self.asking_word = False
        self.gave_up = True
        out = Reply(done=True)
        if not text:
            return out.say("Bye.")
        return out.say(*self.check_answers(text))

    def check_answers(self, text: str) -> list[str]:
        """What the person's word ``text`` says about their answers: the first answer it
        contradicts (and why), or that it fits them all; for a word that could not be found,
        why (not a word, not a secret under these rules), and then the same check."""
        if text not in self.words:
            problem = self.check_word(text)
            if problem:
                return [f"{quote(text)} could not be found: {problem}."]
            wrong = self._wrong_answer(text)
            return [
                f"{quote(text)} could not be found: it can't be a secret under these rules: "
                f"{self.vocab.dropped_reason(text)}."
                + (" It fits all your answers." if not wrong and self.history else ""),
                *([wrong] if wrong else []),
            ]
        wrong = self._wrong_answer(text)
        if wrong:
            return [wrong]
        return [f"{text} fits all your answers; I had {len(self.state)} candidates left."]

    def _wrong_answer(self, text: str) -> str | None:
        """The first answer the person's word ``text`` contradicts, said with the letters the
        two words share; None if it fits them all."""
        for g, r in self.history:
            actual = self.rules.reply(self.words[g], text)
            if actual != r:
                common, in_place = self.rules.split(actual, self.L)
                where = f", {in_place} in place" if self.rules.positional else ""
                return (
                    f"Your answer to {self.words[g]} was {self.show(r)}, but {self.words[g]} "
                    f"and {text} share {common} letter{'s' if common != 1 else ''}{where}: "
                    f"that answer ruled {text} out."
                )
        return None

    def answer_errors(self, word: str) -> list[str]:
        """The first of the person's answers that their word ``word`` contradicts, as one line;
        none if they all fit."""
        wrong = self._wrong_answer(word)
        return [wrong] if wrong else []

    def moves(self) -> list[tuple[str, int]]:
        """My guesses and your answers, the one that found your word with the win's code."""
        out = [(self.words[g], r) for g, r in self.history]
        return out + [(self.words[self.current], self.words.win_code)] if self.found else out

    def game_moves(self) -> dict:
        return {"yours": None, "mine": self.moves(), "my_word": None}

    def result(self) -> dict | None:
        guesses = len(self.history) + 1
        if self.found:
            return {"mode": "hide", "outcome": "found", "my_guesses": guesses}
        if self.gave_up:
            return {"mode": "hide", "outcome": "gave up", "my_guesses": guesses}
        return None
