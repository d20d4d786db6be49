"""What every session shares: the commands people type, :class:`Reply` (what a session says back
to one line or one move) and :class:`Session` (the word list, its rules, the words a person may
guess, the sheet's marks, reading words and replies, and the structured state a front end shows).

A session takes a line at a time (``handle``, the terminal) or one move by its method
(``guess``, ``answer``, ``undo``, ``fix``, ``give_up``, ``tell_word``, ``set_mark``: the web
server); ``handle`` only reads the line and calls the method, so both front ends play by the same
code.  A move the rules or the game refuse is said in one line and changes nothing
(:attr:`Reply.refused`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...game.words import WordList
from ...util.files import quote
from ..sheet import SheetState, Style, render_sheet
from ..vocabulary import Vocabulary
from .state import GameState

QUIT = {"quit", "exit", "q"}
GIVE_UP = {"give up", "giveup", "reveal"}
YES = {"y", "yes", "right", "correct", "got it", "yes!", "bingo"}
FIX = re.compile(r"fix\s+([0-9]{1,3})\s+(\S.*)")
MARK = re.compile(r"mark\s+(\S+)\s+(in|out|clear)")
SHEET = "sheet"
#: What the terminal asks with, for each question of :data:`.state.ASKS`.
PROMPTS = {
    "guess": "Your guess: ",
    "answer": "Your answer: ",
    "word": "Your word: ",
    "entry": "> ",
    "none": "> ",
}


@dataclass
class Reply:
    """What a session says back to one line: its lines, whether the session is over, and
    whether the line was refused (it changed nothing: a non-word, a reply out of range...)."""

    lines: list[str] = field(default_factory=list)
    done: bool = False
    refused: bool = False

    def say(self, *lines: str) -> Reply:
        self.lines.extend(lines)
        return self

    def refuse(self, line: str) -> Reply:
        """Say why a move is refused (one sentence)."""
        self.refused = True
        return self.say(line)


class Session:
    """What every session shares: the word list, its rules, the words a person may guess, and
    reading words and replies."""

    help_text = ""
    #: the mode's name in :class:`~.state.GameState` and the statistics
    mode = ""

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

    @property
    def prompt(self) -> str:
        """What the terminal asks with: the question the game asks now."""
        return PROMPTS[self.asks()]

    def asks(self) -> str:
        """The question the game asks now (:data:`.state.ASKS`)."""
        raise NotImplementedError

    def view(self) -> GameState:
        """The game as a front end shows it (:class:`~.state.GameState`)."""
        raise NotImplementedError

    def _view(self, **fields) -> GameState:
        """A :class:`~.state.GameState` of this game's list and question, with ``fields``."""
        return GameState(
            mode=self.mode,
            source=self.words.source,
            length=self.L,
            size=len(self.words),
            rules=self.rules.name,
            positional=self.rules.positional,
            asks=self.asks(),
            **fields,
        )

    def mark(self, text: str) -> Reply | None:
        """``mark X in|out|clear``: letters marked by hand on the person's sheet, shown with it
        (None if ``text`` is not a mark command)."""
        m = MARK.fullmatch(text)
        if m is None:
            if text == "mark" or text.startswith("mark "):
                return Reply().refuse(
                    "Mark letters as on paper: 'mark X in', 'mark X out' or "
                    "'mark X clear' (X: one or more letters)."
                )
            return None
        return self.set_mark(m.group(1), m.group(2))

    def set_mark(self, letters: str, what: str) -> Reply:
        """Mark ``letters`` ``in``, ``out`` or ``clear`` on the person's sheet; the sheet."""
        if not (letters.isascii() and letters.isalpha() and letters.islower()):
            return Reply().refuse(f"{quote(letters)}: marks are letters a to z.")
        if what not in ("in", "out", "clear"):
            return Reply().refuse(f"{quote(what)}: a letter is marked in, out or clear.")
        for c in letters:
            if what == "clear":
                self.marks.pop(c, None)
            else:
                self.marks[c] = what == "in"
        return Reply().say(*self.sheet_lines())

    def sheet_lines(self) -> list[str]:
        """The person's sheet as text: the sheet of :meth:`view` drawn for the terminal."""
        state = self.view()
        sheet = state.yours if state.yours is not None else state.mine
        return self.render(sheet)

    def render(self, sheet: SheetState | None) -> list[str]:
        """A sheet of :meth:`view` as the terminal shows it (nothing for no sheet)."""
        return [] if sheet is None else render_sheet(sheet, self.style)

    def check_word(self, text: str) -> str | None:
        """Why ``text`` cannot be a guess (None if it can); a long ``text`` is cut short."""
        return self.vocab.why_not_guess(text)

    def show(self, code: int) -> str:
        """A reply code as people read it (``3``, ``3/1``)."""
        return self.vocab.show(code)

    def help(self) -> Reply:
        if self.rules.positional:
            answer = (
                "C/P  ",
                f"C letters in common with your word, P of them in place "
                f"(like {self.show(self.rules.code(min(3, self.L), 1, self.L))})",
            )
        else:
            answer = (f"0..{self.L}", "how many letters my guess shares with your word")
        text = (
            self.help_text.strip("\n")
            .replace("{L}", str(self.L))
            .replace("{ANSWER}", answer[0])
            .replace("{MEANS}", answer[1])
        )
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
