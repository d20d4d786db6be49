"""Jotto with a person: the sessions behind ``jotto play`` and ``jotto assist``.

Each session takes one line of input at a time (``handle``) and returns what to say; the command
line only reads lines and prints.  So the game logic is tested directly, and the real command
through a pseudo-terminal.

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

With ``sheet=True`` the playing sessions add the Jotto sheet (:mod:`jotto.play.sheet`) after each
turn; ``sheet`` shows it again at any time, and ``mark X in`` / ``mark X out`` marks letters by
hand, as on paper.  ``result()`` gives a finished game's outcome for the statistics
(:mod:`jotto.play.history`).  The computer hides a word drawn from the level's hider among the words
``hiding`` allows (:mod:`jotto.play.commonness`: common words at easy and medium).  A session's
opening (which words are secrets, and why an example is not) is said by its first game only
(``opening=False`` for the games after "Play again").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
import numpy as np

from ..solvers.bundled import bundled_solution
from .commonness import HidingSet
from ..util.files import quote
from ..game.turns import Guesser, replies
from ..players.guessers import OffTree, RandomGuesser
from ..players.specs import make_guesser
from ..game.race_rules import DRAW, FIRST, SECOND, round_result
from ..players.races import RaceView
from .sheet import Style, sheet_lines
from ..solvers.solution import Solution
from .vocabulary import Vocabulary
from ..game.words import WordList

__all__ = ["HIDE_FROM", "LEVELS", "Assist", "Race", "YouGuess", "YouHide", "bundled_solution",
           "default_guesser", "level_players", "strategy_for"]

QUIT = {"quit", "exit", "q"}
GIVE_UP = {"give up", "giveup", "reveal"}
YES = {"y", "yes", "right", "correct", "got it", "yes!", "bingo"}
FIX = re.compile(r"fix\s+([0-9]{1,3})\s+(\S.*)")
MARK = re.compile(r"mark\s+(\S+)\s+(in|out|clear)")
SHEET = "sheet"

#: The computer's strength: how it guesses and how it hides.
LEVELS = {
    "easy": "guesses a random word that fits the replies so far (the Perl player); hides a "
            "common word, drawn uniformly",
    "medium": "guesses greedily (GuesserGBR against a uniform hider, exact rule); hides a "
              "common word, drawn uniformly",
    "hard": "the equilibrium strategy of the strongest solve for the list (bundled or "
            "--strategy) as guesser and hider, which may hide any word; without one, medium's "
            "guesser and a word drawn uniformly; in the race, the race guesser, which watches "
            "your progress and plays to win",
}
#: Which words each level hides (:func:`jotto.play.commonness.hiding_set`), unless --hide-from says.
HIDE_FROM = {"easy": "common", "medium": "common", "hard": "all"}


def default_guesser(words: WordList, solution: Solution | None, spec: str | None,
                    seed: int | None, level: str = "hard", race: bool = False
                    ) -> tuple[Guesser, str]:
    """The computer's guesser: ``spec`` if given, else the ``level``'s: easy the random
    consistent guesser, medium GuesserGBR (exact rule), hard in a ``race`` the race guesser
    (:class:`jotto.players.RaceGuesser`), else the equilibrium guesser of the strategy (the
    bundled solve for the default list), else GuesserGBR under the exact rule."""
    if spec is not None:
        return make_guesser(spec, words), spec
    if level == "hard" and race:
        return make_guesser("race", words), "the race guesser (it watches your progress)"
    if level == "easy":
        return RandomGuesser(words, seed), "a random word that fits (easy)"
    if level == "medium":
        return make_guesser("gbr:exact", words), "GuesserGBR (exact rule; medium)"
    if solution is not None:
        return solution.guesser(seed=seed), "the equilibrium guesser"
    return make_guesser("gbr:exact", words), "GuesserGBR (exact rule; no strategy file given)"


def level_players(words: WordList, solution: Solution | None, spec: str | None,
                  seed: int | None, level: str, hiding: HidingSet | None = None,
                  race: bool = False) -> tuple[Guesser, str, np.ndarray]:
    """The computer's guesser (with its name) and hiding distribution at ``level``: hard hides
    by the equilibrium hider when there is a strategy, the other levels uniformly; restricted to
    the words of ``hiding`` if given (the equilibrium's weights on them, renormalised, or
    uniformly if it puts none there).  ``race``: the guesser plays a race (hard: the race
    guesser)."""
    guesser, name = default_guesser(words, solution, spec, seed, level, race)
    p = (np.asarray(solution.hider(), dtype=np.float64) if level == "hard" and
         solution is not None else np.ones(len(words)))
    if hiding is not None:
        kept = p * hiding.mask
        p = kept if kept.sum() > 0 else hiding.mask.astype(np.float64)
    return guesser, name, p


@dataclass
class Reply:
    """What a session says back to one line: its lines, and whether the session is over."""

    lines: list[str] = field(default_factory=list)
    done: bool = False

    def say(self, *lines: str) -> "Reply":
        self.lines.extend(lines)
        return self


class _Session:
    """What every session shares: the word list, its rules, the words a person may guess, and
    reading words and replies."""

    help_text = ""
    prompt = "> "

    def __init__(self, words: WordList, style: Style | None = None, sheet: bool = False):
        self.words = words
        self.rules = words.rules
        self.vocab = Vocabulary(words)
        self.style = style or Style(False)
        self.sheet = sheet
        self.L = words.length
        #: whether :meth:`start` says the opening (which words are secrets); the games after
        #: the first of a session do not repeat it
        self.opening = True
        #: letters the person marked by hand on their sheet: letter -> in (True) or out
        self.marks: dict[str, bool] = {}

    def intro(self) -> list[str]:
        """The opening's lines on the secrets, in the first game of a session only."""
        return self.vocab.intro() if self.opening else []

    def mark(self, text: str) -> Reply | None:
        """``mark X in|out|clear``: letters marked by hand on the person's sheet, shown with it
        (None if ``text`` is not a mark command)."""
        m = MARK.fullmatch(text)
        if m is None:
            if text == "mark" or text.startswith("mark "):
                return Reply().say("Mark letters as on paper: 'mark X in', 'mark X out' or "
                                   "'mark X clear' (X: one or more letters).")
            return None
        letters, what = m.group(1), m.group(2)
        if not (letters.isascii() and letters.isalpha()):
            return Reply().say(f"{quote(letters)}: marks are letters a to z.")
        for c in letters:
            if what == "clear":
                self.marks.pop(c, None)
            else:
                self.marks[c] = what == "in"
        return Reply().say(*self.sheet_lines())

    def sheet_lines(self) -> list[str]:
        """The person's sheet, as :func:`jotto.play.sheet.sheet_lines` shows it."""
        raise NotImplementedError

    def check_word(self, text: str) -> str | None:
        """Why ``text`` cannot be a guess (None if it can); a long ``text`` is cut short."""
        return self.vocab.why_not_guess(text)

    def show(self, code: int) -> str:
        """A reply code as people read it (``3``, ``3/1``)."""
        return self.vocab.show(code)

    def help(self) -> Reply:
        if self.rules.positional:
            answer = ("C/P  ", f"C letters in common with your word, P of them in place "
                               f"(like {self.show(self.rules.code(min(3, self.L), 1, self.L))})")
        else:
            answer = (f"0..{self.L}", "how many letters my guess shares with your word")
        text = self.help_text.strip("\n").replace("{L}", str(self.L)) \
            .replace("{ANSWER}", answer[0]).replace("{MEANS}", answer[1])
        return Reply().say(*text.splitlines())

    def read_reply(self, text: str) -> int | None:
        """The reply code a person typed (:meth:`Rules.parse_reply`), or None if it is not one."""
        try:
            return self.rules.parse_reply(text, self.L)
        except ValueError:
            return None

    def reply_form(self) -> str:
        """How to type a reply, for messages."""
        if self.rules.positional:
            return "two numbers like 3/1 (letters in common / in place)"
        return f"a number from 0 to {self.L}"

    def result(self) -> dict | None:
        """The game's outcome for the statistics (None while it is not over, or if it was
        abandoned)."""
        return None


class YouGuess(_Session):
    """You guess the computer's word."""

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
    prompt = "Your guess: "

    def __init__(self, words: WordList, hider_p: np.ndarray, seed: int | None = None,
                 expected: np.ndarray | None = None, expected_by: str = "",
                 hints: bool = False, style: Style | None = None, sheet: bool = False,
                 hides: str = ""):
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
        #: whether a win ends with the whole sheet (a race shows its own ending)
        self.board = True
        self.state = np.arange(len(words))

    def help(self) -> Reply:
        out = super().help()
        where = " (and how many are in place: 3/1)" if self.rules.positional else ""
        out.lines = [x.replace("{IN_PLACE}", where) for x in out.lines]
        return out

    def start(self) -> Reply:
        return Reply().say(f"I am thinking of a {self.L}-letter word from {self.words.source} "
                           f"({len(self.words)} words){self.hiding_note()}. Type 'help' for "
                           f"commands.", *self.intro())

    def hiding_note(self) -> str:
        """Which words I hide, for the start: ', one of the 810 common ones (by wordfreq)'."""
        return f", {self.hides}" if self.hides else ""

    def handle(self, line: str) -> Reply:
        text = line.strip().lower()
        if not text:
            return Reply()
        if text in QUIT:
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
            self.gave_up = True
            return Reply(done=True).say(f"My word was {self.words[self.secret]}.",
                                        *self._epilogue())
        problem = self.check_word(text)
        if problem:
            return Reply().say(problem + " (not counted)")
        if text in self.guesses:
            reply = self.replies[self.guesses.index(text)]
            return Reply().say(f"You already guessed {text} (reply {self.show(reply)}); not "
                               f"counted.")
        problem = self.vocab.hard_problem(text, list(zip(self.guesses, self.replies)))
        if problem:
            return Reply().say(problem + " (not counted)")
        self.guesses.append(text)
        n = len(self.guesses)
        if text == self.words[self.secret]:
            self.found = True
            out = Reply(done=True).say(
                f"Yes! {text} is my word. You found it in {n} guess{'es' if n > 1 else ''}.",
                *self._epilogue())
            if self.sheet and self.board:
                out.say(*sheet_lines("Your sheet:", self.guesses,
                                     self.replies + [self.words.win_code], self.rules, self.L,
                                     self.style, marks=self.marks))
            return out
        code = int(self.vocab.replies(text, [self.secret])[0])
        self.replies.append(code)
        self.state = self.state[self.vocab.replies(text, self.state) == code]
        out = Reply()
        if self.rules.split(code, self.L)[0] == self.L:
            shown = f" {self.show(code)}:" if self.rules.positional else ""
            out.say(f"{text}:{shown} all {self.L} letters in common, but it is not my word (an "
                    f"anagram of it)")
        else:
            out.say(f"{text}: {self.show(code)}")
        if self.sheet:
            out.say(*self.sheet_lines())
        elif self.hints:
            out.say(self._left())
        return out

    def sheet_lines(self) -> list[str]:
        """Your sheet: your guesses (not the winning one), their replies, the letters proved."""
        return sheet_lines("Your sheet:", self.guesses[:len(self.replies)], self.replies,
                           self.rules, self.L, self.style,
                           len(self.state) if self.hints else None, self.marks)

    def _left(self) -> str:
        n = len(self.state)
        return f"{n} word{'s' if n != 1 else ''} of my list fit{'' if n != 1 else 's'} your " \
               f"replies so far."

    def _epilogue(self) -> list[str]:
        if self.expected is None:
            return []
        by = self.expected_by[:1].upper() + self.expected_by[1:]
        return [f"{by} would expect to need "
                f"{self.expected[self.secret]:.2f} guesses for {self.words[self.secret]}."]

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


class YouHide(_Session):
    """The computer guesses your word."""

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

    def __init__(self, words: WordList, guesser: Guesser, guesser_name: str = "",
                 style: Style | None = None, sheet: bool = False, auto_next: bool = True):
        super().__init__(words, style, sheet)
        self.guesser = guesser
        self.guesser_name = guesser_name
        self.history: list[tuple[int, int]] = []
        self.state = np.arange(len(words))
        self.current = -1
        self.asking_word = False
        self.found = False
        self.gave_up = False
        #: whether an accepted answer is followed at once by the next guess (a race waits for
        #: your turn first, then asks :meth:`guess_line`)
        self.auto_next = auto_next
        self.guesser.new_game()

    @property
    def prompt(self) -> str:  # type: ignore[override]
        """"Your answer: " to my guesses; "Your word: " once I asked for your word (after
        "give up")."""
        return "Your word: " if self.asking_word else "Your answer: "

    def start(self) -> Reply:
        out = Reply().say(f"Think of a {self.L}-letter word from {self.words.source} "
                          f"({len(self.words)} words); I will guess it with "
                          f"{self.guesser_name}. Type 'help' for commands.",
                          *self.intro(), *self.yes_note())
        return self._next(out)

    def yes_note(self) -> list[str]:
        """Under ``keep-all`` (without positional replies), how a person says they were found."""
        if self.rules.positional or self.rules.anagrams != "keep-all":
            return []
        return [f"Answer 'yes' when I guess your word: {self.L} letters in common with another "
                f"word of the same letters is an ordinary answer."]

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
            return self._diagnose(text)
        if not text:
            return Reply()
        if text in QUIT:
            return Reply(done=True).say("Bye.")
        if text == "help":
            return self.help()
        if text == "undo":
            return self._undo()
        if text == SHEET:
            return Reply().say(*self.sheet_lines())
        fix = FIX.fullmatch(text)
        if fix:
            return self._fix(int(fix.group(1)), fix.group(2))
        if text in GIVE_UP:
            self.asking_word = True
            return Reply().say("What was your word? (Enter to skip)")
        answer = self.read_reply(text)
        if answer is not None:
            # L letters in common is the win unless another word has the guess's letters
            answer = self.vocab.answer_code(self.words[self.current], answer)
        if text in YES or answer == self.words.win_code:
            self.found = True
            n = len(self.history) + 1
            return Reply(done=True).say(f"Got it: {self.words[self.current]} in {n} "
                                        f"guess{'es' if n > 1 else ''}.")
        if answer is None:
            return Reply().say(f"Please answer with {self.reply_form()}, 'yes' if I guessed "
                               f"your word, or 'undo'.")
        if len(self.state) == 0:
            return Reply().say("No word fits your answers so far: 'undo' the last one or 'fix' "
                               "a wrong one first, or 'give up' and tell me your word.")
        self.history.append((self.current, answer))
        return self._after_change(Reply())

    def _after_change(self, out: Reply) -> Reply:
        """Recount the words that fit; go on if some do, else say how to correct."""
        self._recompute()
        n = len(self.state)
        if n == 0:
            out.say("No word in my list fits all your answers. Type 'undo' to take back "
                    "the last one, 'fix N R' to correct your answer to guess N, or 'give "
                    "up' and tell me your word to see which answer ruled it out.")
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
            lines.append(f"But {shown} fit{'s' if len(ws) == 1 else ''} all your answers, and "
                         f"these rules drop {'it' if len(ws) == 1 else 'them'}: {reason}.")
        return lines

    def _word_history(self) -> list[tuple[str, int]]:
        return [(self.words[g], r) for g, r in self.history]

    def sheet_lines(self, title: str = "My sheet:") -> list[str]:
        """My sheet: my guesses, your answers, the letters they prove."""
        return sheet_lines(title, [self.words[g] for g, _ in self.history],
                           [r for _, r in self.history], self.rules, self.L, self.style)

    def _undo(self) -> Reply:
        if not self.history:
            return Reply().say("Nothing to undo.")
        g, r = self.history.pop()
        self._recompute()
        out = Reply().say(f"Took back your answer {self.show(r)} to {self.words[g]}.")
        return self._next(out)

    def _fix(self, n: int, text: str) -> Reply:
        if not 1 <= n <= len(self.history):
            return Reply().say(f"There is no answered guess {n} (answered so far: "
                               f"{len(self.history)}).")
        g, old = self.history[n - 1]
        r = self.read_reply(text)
        if r is None:
            return Reply().say(f"A corrected answer is {self.reply_form()}.")
        r = self.vocab.answer_code(self.words[g], r)
        if r == self.words.win_code:
            return Reply().say(f"A corrected answer cannot say I found your word (I would have "
                               f"stopped at guess {n}).")
        self.history[n - 1] = (g, r)
        out = Reply().say(f"Changed your answer to guess {n} ({self.words[g]}) from "
                          f"{self.show(old)} to {self.show(r)}.")
        # guesses after it were chosen on the old answer; they and their answers stay (they are
        # still true facts about your word), and the next guess is chosen afresh
        return self._after_change(out)

    def _diagnose(self, text: str) -> Reply:
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
            return [f"{quote(text)} could not be found: it can't be a secret under these rules: "
                    f"{self.vocab.dropped_reason(text)}."
                    + (" It fits all your answers." if not wrong and self.history else ""),
                    *([wrong] if wrong else [])]
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
                return (f"Your answer to {self.words[g]} was {self.show(r)}, but {self.words[g]} "
                        f"and {text} share {common} letter{'s' if common != 1 else ''}{where}: "
                        f"that answer ruled {text} out.")
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


class Race(_Session):
    """The real game: you and I each hide a word and take turns, you first in each round; the
    first to find the other's word wins.  If you find mine, I still take my guess of that round
    (you started the round), and if it finds yours the game is a draw
    (:mod:`jotto.game.race_rules`)."""

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

    def __init__(self, words: WordList, hider_p: np.ndarray, guesser: Guesser,
                 guesser_name: str = "", seed: int | None = None, hints: bool = False,
                 style: Style | None = None, sheet: bool = True, hides: str = ""):
        super().__init__(words, style, sheet)
        self.mine = YouGuess(words, hider_p, seed, hints=hints, style=style, sheet=sheet,
                             hides=hides)
        self.mine.board = False
        self.theirs = YouHide(words, guesser, guesser_name, style=style, sheet=False,
                              auto_next=False)
        self.guesser_name = guesser_name
        self.your_turn = True
        self.outcome: str | None = None
        #: the race is over and I asked for your word, to check your answers
        self.asking_word = False

    @property
    def prompt(self) -> str:  # type: ignore[override]
        if self.asking_word:
            return "Your word: "
        return YouGuess.prompt if self.your_turn else self.theirs.prompt

    def start(self) -> Reply:
        return Reply().say(
            f"Race: think of a {self.L}-letter word from {self.words.source} "
            f"({len(self.words)} words) and keep it secret; I have chosen mine"
            f"{self.mine.hiding_note()}. Each round you guess first, then I do; I guess with "
            f"{self.guesser_name}. Type 'help' for commands.", *self.intro(),
            *self.theirs.yes_note())

    def handle(self, line: str) -> Reply:
        text = line.strip().lower()
        if self.asking_word:
            out = Reply(done=True)
            if text and text not in QUIT:
                out.say(*self.theirs.check_answers(text))
            return out
        if text in QUIT:
            return Reply(done=True).say(f"My word was {self._my_word()}.")
        if text in GIVE_UP:
            self.outcome = "gave up"
            return self._end(Reply(), f"My word was {self._my_word()}.")
        if text == "help":
            return self.help()
        if text == "hint":
            return self.mine.handle(text)
        if text == SHEET:
            return Reply().say(*self.sheet_lines())
        marked = self.mine.mark(text)
        if marked is not None:
            return marked
        if self.your_turn and text != "undo" and not FIX.fullmatch(text):
            return self._your_guess(line)
        return self._your_answer(line)

    def _my_word(self) -> str:
        return self.words[self.mine.secret]

    def _your_guess(self, line: str) -> Reply:
        before = len(self.mine.guesses)
        out = self.mine.handle(line)
        if len(self.mine.guesses) == before:
            return out  # not a guess (a hint, a bad word): still your turn
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
        history = tuple((self.words.index(w) if w in self.words else -1, r)
                        for w, r in zip(self.mine.guesses, self.mine.replies))
        observe(RaceView(self.mine.state, history, False, self.mine.found))

    def _your_answer(self, line: str) -> Reply:
        out = self.theirs.handle(line)
        answered = len(self.theirs.history)
        # the round is over once my guess of it has an answer (race_rules decides the result)
        result = round_result(self.mine.found, self.theirs.found) \
            if answered + self.theirs.found == len(self.mine.guesses) else None
        if result in (DRAW, SECOND):
            self.outcome = "draw" if result == DRAW else "lost"
            verdict = ("We both found the other's word in this round: a draw." if result == DRAW
                       else "I found your word first: I win.")
            return self._end(Reply().say(*out.lines), verdict, f"My word was {self._my_word()}.")
        if result == FIRST:
            self.outcome = "won"
            n = len(self.mine.guesses)
            return self._end(Reply().say(*out.lines),
                             f"You found my word first, in {n} guess{'es' if n > 1 else ''}: "
                             f"you win.")
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
        return {"yours": self.mine.moves(), "mine": self.theirs.moves(),
                "my_word": self._my_word()}

    def result(self) -> dict | None:
        if self.outcome is None:
            return None
        return {"mode": "race", "outcome": self.outcome, "your_guesses": len(self.mine.guesses),
                "my_guesses": len(self.theirs.history) + (1 if self.theirs.found else 0)}


class Assist(_Session):
    """Narrow down a game played elsewhere and suggest guesses."""

    help_text = """
Enter each guess you made and the reply you got, e.g. '{EXAMPLE}'.
  list        show the candidates left
  sheet       show the sheet (the guesses, their replies, the letters they prove)
  mark X in   mark letter(s) X in (or out, or clear) on the sheet, as on paper
  undo        take back the last guess
  new         start a new game
  quit        stop (so do Ctrl-D and Ctrl-C)
"""

    def __init__(self, words: WordList, guesser: Guesser, guesser_name: str = "",
                 show: int = 12, style: Style | None = None, sheet: bool = False):
        super().__init__(words, style, sheet)
        self.guesser = guesser
        self.guesser_name = guesser_name
        self.show = show
        self.history: list[tuple[str, int]] = []
        self.guesser.new_game()

    def start(self) -> Reply:
        return self._status(Reply().say(
            f"Assisting with {self.L}-letter words from {self.words.source} ({len(self.words)} "
            f"words); suggestions by {self.guesser_name}. Type 'help' for commands.",
            *self.intro()))

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
        """The game's sheet: the guesses entered, their replies, the letters they prove."""
        return sheet_lines("The sheet:", [w for w, _ in self.history],
                           [r for _, r in self.history], self.rules, self.L, self.style,
                           marks=self.marks)

    def _status(self, out: Reply) -> Reply:
        if self.sheet and self.history:
            out.say(*self.sheet_lines())
        S = self._state()
        n = len(S)
        if n == 0:
            return out.say("No word fits all these replies: check them ('undo' takes back the "
                           "last).")
        out.say(f"{n} candidate{'s' if n != 1 else ''} left" +
                (": " + " ".join(self.words[int(i)] for i in S) if n <= self.show else "."))
        hist = [(self.words.index(w) if w in self.words else -1, r) for w, r in self.history]
        try:
            guess = self.words[int(self.guesser.next_guess(S, hist))]
        except OffTree:  # a tree file knows only its own games; the session goes on
            return out.say(f"No suggestion: these guesses left the tree of "
                           f"{self.guesser_name} ('undo' goes back to it).")
        return out.say(f"Suggested guess: {guess}")

    def handle(self, line: str) -> Reply:
        parts = line.strip().lower().split()
        if not parts:
            return Reply()
        if parts[0] in QUIT:
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
            if not self.history:
                return Reply().say("Nothing to undo.")
            self.history.pop()
            return self._status(Reply())
        if parts == ["new"]:
            self.history.clear()
            self.marks.clear()
            self.guesser.new_game()
            return self._status(Reply().say("New game."))
        if len(parts) < 2 or not all(p.replace("/", "").isdigit() for p in parts[1:]):
            return Reply().say(f"Enter a guess and its reply, e.g. '{self.example()}' (or "
                               f"'help').")
        word = parts[0]
        problem = self.check_word(word)
        if problem:
            return Reply().say(problem + " (not counted)")
        r = self.read_reply(" ".join(parts[1:]))
        if r is None:
            form = "two numbers like 3/1" if self.rules.positional else f"from 0 to {self.L}"
            return Reply().say(f"A reply is {form} (not counted)")
        # a reply of L letters in common to a word with anagrams: the game was not won
        self.history.append((word, self.vocab.answer_code(word, r)))
        return self._status(Reply())


def strategy_for(words: WordList, path: str | None) -> Solution | None:
    """The strategy a session plays: the strategy file ``path`` if given (made for ``words``),
    else the bundled solve when ``words`` is the default list, else None."""
    if path is not None:
        return Solution.load(path, words)
    return bundled_solution(words)
