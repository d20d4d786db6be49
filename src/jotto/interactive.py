"""Jotto with a person: the sessions behind ``jotto play`` and ``jotto assist``.

Each session takes one line of input at a time (``handle``) and returns what to say; the command
line only reads lines and prints.  So the game logic is tested directly, and the real command
through a pseudo-terminal.

- :class:`YouGuess`: the computer hides a word (drawn from the equilibrium hider when a strategy
  is known, else uniformly) and answers your guesses with the letters in common.
- :class:`YouHide`: you think of a word; the computer guesses (the equilibrium guesser by default)
  and you answer.  Contradictory answers are caught and can be taken back (``undo``).
- :class:`Assist`: for a game played elsewhere: you enter guesses and replies, it narrows down
  the candidates and suggests the next guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
import numpy as np

from .bundled import bundled_solution
from .files import quote
from .game import Guesser, popcount, replies
from .players.guessers import OffTree
from .players.specs import make_guesser
from .solution import Solution
from .words import WordList, letter_mask

__all__ = ["Assist", "YouGuess", "YouHide", "bundled_solution", "default_guesser",
           "strategy_for"]

QUIT = {"quit", "exit", "q"}
NUMBER = re.compile(r"[0-9]{1,3}")
GIVE_UP = {"give up", "giveup", "reveal"}
YES = {"y", "yes", "right", "correct", "got it", "yes!", "bingo"}


def default_guesser(words: WordList, solution: Solution | None, spec: str | None,
                    seed: int) -> tuple[Guesser, str]:
    """The computer's guesser: ``spec`` if given, else the equilibrium guesser of the strategy
    (the bundled solve for the default list), else GuesserGBR under the exact rule."""
    if spec is not None:
        return make_guesser(spec, words), spec
    if solution is not None:
        return solution.guesser(seed=seed), "the equilibrium guesser"
    return make_guesser("gbr:exact", words), "GuesserGBR (exact rule; no strategy file given)"


@dataclass
class Reply:
    """What a session says back to one line: its lines, and whether the session is over."""

    lines: list[str] = field(default_factory=list)
    done: bool = False

    def say(self, *lines: str) -> "Reply":
        self.lines.extend(lines)
        return self


class _Session:
    """What every session shares: the word list, guessable words, and word parsing."""

    help_text = ""

    def __init__(self, words: WordList):
        self.words = words
        self.L = words.length
        # Any distinct-letter word of the source list may be guessed; the anagram rule only
        # decides which words can be the secret.
        self.guessable = set(words.words) | set(words.dropped_words("anagram"))

    def check_word(self, text: str) -> str | None:
        """Why ``text`` cannot be a guess (None if it can); a long ``text`` is cut short."""
        shown = quote(text)
        if not text.isascii() or not text.isalpha():
            return f"{shown} is not a word (letters only, please)"
        if len(text) != self.L:
            return f"{shown} has {len(text)} letters; this game uses {self.L}-letter words"
        if len(set(text)) != self.L:
            return f"{shown} repeats a letter; Jotto words have {self.L} different letters"
        if text not in self.guessable:
            return f"{shown} is not in my word list ({self.words.source})"
        return None

    def help(self) -> Reply:
        return Reply().say(*self.help_text.strip("\n").splitlines())


class YouGuess(_Session):
    """You guess the computer's word."""

    help_text = """
Type a guess to hear how many letters it shares with my word.
  hint     how many of my words are still consistent with your replies
  give up  show my word
  quit     stop (so do Ctrl-D and Ctrl-C)
"""

    def __init__(self, words: WordList, hider_p: np.ndarray, seed: int | None = None,
                 expected: np.ndarray | None = None, expected_by: str = "",
                 hints: bool = False):
        super().__init__(words)
        rng = np.random.default_rng(seed)
        p = np.asarray(hider_p, dtype=np.float64)
        self.secret = int(rng.choice(len(words), p=p / p.sum()))
        self.expected = expected
        self.expected_by = expected_by
        self.hints = hints
        self.guesses: list[str] = []
        self.state = np.arange(len(words))

    def start(self) -> Reply:
        return Reply().say(f"I am thinking of a {self.L}-letter word from {self.words.source} "
                           f"({len(self.words)} words). Type 'help' for commands.")

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
        if text in GIVE_UP:
            return Reply(done=True).say(f"My word was {self.words[self.secret]}.",
                                        *self._epilogue())
        problem = self.check_word(text)
        if problem:
            return Reply().say(problem + " (not counted)")
        self.guesses.append(text)
        n = len(self.guesses)
        if text == self.words[self.secret]:
            return Reply(done=True).say(
                f"Yes! {text} is my word. You found it in {n} guess{'es' if n > 1 else ''}.",
                *self._epilogue())
        mask = letter_mask(text)
        common = bin(mask & int(self.words.masks[self.secret])).count("1")
        self.state = self.state[popcount(self.words.masks[self.state] & mask) == common]
        out = Reply()
        if common == self.L:
            out.say(f"{text}: all {self.L} letters in common, but it is not my word (an "
                    f"anagram of it)")
        else:
            out.say(f"{text}: {common}")
        if self.hints:
            out.say(self._left())
        return out

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


class YouHide(_Session):
    """The computer guesses your word."""

    help_text = """
Think of a word from the list; I guess it. After each guess, answer:
  0..{L}       how many letters my guess shares with your word
  yes          I guessed it
  undo         take back your last answer
  give up      stop; you may tell me your word
  quit         stop (so do Ctrl-D and Ctrl-C)
"""

    def __init__(self, words: WordList, guesser: Guesser, guesser_name: str = ""):
        super().__init__(words)
        self.guesser = guesser
        self.guesser_name = guesser_name
        self.history: list[tuple[int, int]] = []
        self.state = np.arange(len(words))
        self.current = -1
        self.asking_word = False
        self.guesser.new_game()

    def help(self) -> Reply:
        return Reply().say(*self.help_text.strip("\n").replace("{L}", str(self.L)).splitlines())

    def start(self) -> Reply:
        out = Reply().say(f"Think of a {self.L}-letter word from {self.words.source} "
                          f"({len(self.words)} words); I will guess it with "
                          f"{self.guesser_name}. Type 'help' for commands.")
        return self._next(out)

    def _next(self, out: Reply) -> Reply:
        self.current = int(self.guesser.next_guess(self.state, self.history))
        return out.say(f"Guess {len(self.history) + 1}: {self.words[self.current]}")

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
        if text in GIVE_UP:
            self.asking_word = True
            return Reply().say("What was your word? (Enter to skip)")
        answer = int(text) if NUMBER.fullmatch(text) else None
        if text in YES or answer == self.L:
            # no two words of a list share their letters, so L letters in common is the word
            n = len(self.history) + 1
            return Reply(done=True).say(f"Got it: {self.words[self.current]} in {n} "
                                        f"guess{'es' if n > 1 else ''}.")
        if answer is None or answer > self.L:
            return Reply().say(f"Please answer with a number from 0 to {self.L}, 'yes' if I "
                               f"guessed your word, or 'undo'.")
        if len(self.state) == 0:
            return Reply().say("No word fits your answers so far: 'undo' the last one first, or "
                               "'give up' and tell me your word.")
        self.history.append((self.current, answer))
        self._recompute()
        n = len(self.state)
        if n == 0:
            return Reply().say("No word in my list fits all your answers. Type 'undo' to take "
                               "back the last one, or 'give up' and tell me your word to see "
                               "which answer ruled it out.")
        out = Reply().say(f"{n} word{'s' if n != 1 else ''} still fit{'' if n != 1 else 's'}.")
        return self._next(out)

    def _undo(self) -> Reply:
        if not self.history:
            return Reply().say("Nothing to undo.")
        g, r = self.history.pop()
        self._recompute()
        out = Reply().say(f"Took back your answer {r} to {self.words[g]}.")
        return self._next(out)

    def _diagnose(self, text: str) -> Reply:
        out = Reply(done=True)
        if not text:
            return out.say("Bye.")
        if text not in self.words:
            problem = self.check_word(text)
            return out.say(f"{quote(text)} could not be found: "
                           + (problem if problem else "it can't be a secret word in this "
                              "list (another word has the same letters)") + ".")
        secret = self.words.index(text)
        for g, r in self.history:
            actual = int(popcount(self.words.masks[g] & self.words.masks[secret]))
            if actual != r:
                return out.say(f"Your answer to {self.words[g]} was {r}, but {self.words[g]} "
                               f"and {text} share {actual} letter{'s' if actual != 1 else ''}: "
                               f"that answer ruled {text} out.")
        return out.say(f"{text} fits all your answers; I had {len(self.state)} candidates left.")


class Assist(_Session):
    """Narrow down a game played elsewhere and suggest guesses."""

    help_text = """
Enter each guess you made and the reply you got, e.g. 'stare 2'.
  list     show the candidates left
  undo     take back the last guess
  new      start a new game
  quit     stop (so do Ctrl-D and Ctrl-C)
"""

    def __init__(self, words: WordList, guesser: Guesser, guesser_name: str = "",
                 show: int = 12):
        super().__init__(words)
        self.guesser = guesser
        self.guesser_name = guesser_name
        self.show = show
        self.history: list[tuple[str, int]] = []
        self.guesser.new_game()

    def start(self) -> Reply:
        return self._status(Reply().say(
            f"Assisting with {self.L}-letter words from {self.words.source} ({len(self.words)} "
            f"words); suggestions by {self.guesser_name}. Type 'help' for commands."))

    def _state(self) -> np.ndarray:
        S = np.arange(len(self.words))
        for word, r in self.history:
            S = S[popcount(self.words.masks[S] & letter_mask(word)) == r]
        return S

    def _status(self, out: Reply) -> Reply:
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
        if parts == ["undo"]:
            if not self.history:
                return Reply().say("Nothing to undo.")
            self.history.pop()
            return self._status(Reply())
        if parts == ["new"]:
            self.history.clear()
            self.guesser.new_game()
            return self._status(Reply().say("New game."))
        if len(parts) != 2 or not NUMBER.fullmatch(parts[1]):
            return Reply().say("Enter a guess and its reply, e.g. 'stare 2' (or 'help').")
        word, r = parts[0], int(parts[1])
        problem = self.check_word(word)
        if problem:
            return Reply().say(problem + " (not counted)")
        if r > self.L:
            return Reply().say(f"A reply is from 0 to {self.L} (not counted)")
        self.history.append((word, r))
        return self._status(Reply())


def strategy_for(words: WordList, path: str | None) -> Solution | None:
    """The strategy a session plays: the strategy file ``path`` if given (made for ``words``),
    else the bundled solve when ``words`` is the default list, else None."""
    if path is not None:
        return Solution.load(path, words)
    return bundled_solution(words)
