"""The Jotto sheet: the guesses made with their replies, and what they prove about the letters.

A letter is *proved present* when every set of L different letters that agrees with all replies
contains it, and *proved absent* when none does.  The deduction runs over all letter sets, not
over the words of the list: it is what a careful player can work out with a pencil, it holds for
any word list (and for guesses from outside it), and it never gives away what the list would
reveal; the number of the list's words that still fit is shown separately (hints).

It is exact, not a set of rules of thumb: letters that every guess treats alike (in the same
guesses) are interchangeable, so a letter set is a count per such class, and a search over the
classes with memoised feasibility finds the least and most letters of each class any consistent
set takes.  A zero reply crosses out its letters, but the replies also prove things together:
with 3-letter words, ``abc 1``, ``abd 1`` and ``cde 1`` prove ``e`` present and ``c``, ``d``
absent, though no reply is zero.
"""

from __future__ import annotations

import os
import string
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

__all__ = ["LetterSheet", "Style", "deduce_letters", "sheet_lines"]

ALPHABET = string.ascii_lowercase


@dataclass(frozen=True)
class LetterSheet:
    """What the replies prove: letters in the secret, letters not in it."""

    present: frozenset[str]
    absent: frozenset[str]


def deduce_letters(guesses: Sequence[str], replies: Sequence[int],
                   length: int) -> LetterSheet | None:
    """The letters proved present and absent by ``replies`` (letters in common) to ``guesses``,
    over every set of ``length`` different letters; None if no letter set agrees with them all."""
    if len(guesses) != len(replies):
        raise ValueError("one reply per guess")
    signature: dict[tuple[bool, ...], list[str]] = {}
    for letter in ALPHABET:
        signature.setdefault(tuple(letter in g for g in guesses), []).append(letter)
    classes = list(signature.items())
    sizes = [len(letters) for _, letters in classes]
    # each letter of a class adds its signature to the replies, and 1 to the letters chosen
    steps = [tuple(int(b) for b in sig) + (1,) for sig, _ in classes]
    m = len(guesses) + 1
    # the most each coordinate can still grow from class k on: a quick bound that prunes
    caps = [[0] * m for _ in range(len(classes) + 1)]
    for k in range(len(classes) - 1, -1, -1):
        caps[k] = [caps[k + 1][j] + sizes[k] * steps[k][j] for j in range(m)]

    @lru_cache(maxsize=None)
    def completes(k: int, need: tuple[int, ...]) -> bool:
        if k == len(classes):
            return not any(need)
        if any(n > c for n, c in zip(need, caps[k])):
            return False
        return any(completes(k + 1, rest) for _, rest in _choices(k, need))

    def _choices(k: int, need: tuple[int, ...]):
        for c in range(sizes[k] + 1):
            rest = tuple(n - c * s for n, s in zip(need, steps[k]))
            if min(rest) < 0:
                return  # more letters of this class only overshoot further
            yield c, rest

    start = tuple(replies) + (length,)
    if min(start) < 0 or not completes(0, start):
        return None
    present: set[str] = set()
    absent: set[str] = set()
    states = {start}
    for k, (_, letters) in enumerate(classes):
        counts: set[int] = set()
        nxt: set[tuple[int, ...]] = set()
        for need in states:
            for c, rest in _choices(k, need):
                if completes(k + 1, rest):
                    counts.add(c)
                    nxt.add(rest)
        if min(counts) == sizes[k]:
            present.update(letters)
        if max(counts) == 0:
            absent.update(letters)
        states = nxt
    return LetterSheet(frozenset(present), frozenset(absent))


class Style:
    """Terminal styling: ANSI colour only on a terminal that has it, never with ``NO_COLOR``
    set (https://no-color.org) or ``TERM=dumb``; otherwise plain text."""

    def __init__(self, colour: bool):
        self.colour = colour

    @classmethod
    def for_stream(cls, stream) -> "Style":
        isatty = getattr(stream, "isatty", lambda: False)
        try:
            tty = bool(isatty())
        except (OSError, ValueError):
            tty = False
        return cls(tty and not os.environ.get("NO_COLOR")
                   and os.environ.get("TERM", "") not in ("", "dumb"))

    def _sgr(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.colour else text

    def present(self, letter: str) -> str:
        return self._sgr(letter.upper(), "1;32")

    def absent(self, letter: str) -> str:
        return self._sgr(letter, "2;9") if self.colour else "-"

    def unknown(self, letter: str) -> str:
        return letter

    def letter(self, letter: str, sheet: LetterSheet | None) -> str:
        if sheet is not None and letter in sheet.present:
            return self.present(letter)
        if sheet is not None and letter in sheet.absent:
            return self.absent(letter)
        return self.unknown(letter)


def sheet_lines(title: str, guesses: Sequence[str], replies: Sequence[int], length: int,
                style: Style, fitting: int | None = None) -> list[str]:
    """The sheet as lines: a title, each guess (numbered) with its reply, and the alphabet with
    absent letters crossed out (``-`` in plain text) and present ones marked (capitals); then
    how many words still fit if ``fitting`` is given.  Letters of the guesses are marked too
    when there is colour."""
    sheet = deduce_letters(guesses, replies, length)
    lines = [title]
    for n, (g, r) in enumerate(zip(guesses, replies), 1):
        word = "".join(style.letter(c, sheet) for c in g) if style.colour else g
        lines.append(f"  {n:>2}  {word}  {r}")
    if sheet is None:
        lines.append("      no set of letters fits all these replies")
    else:
        lines.append("      " + " ".join(style.letter(c, sheet) for c in ALPHABET))
    if fitting is not None:
        lines.append(f"      {fitting} word{'s' if fitting != 1 else ''} fit"
                     f"{'' if fitting != 1 else 's'}")
    return lines
