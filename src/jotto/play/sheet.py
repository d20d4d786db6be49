"""The Jotto sheet: the guesses made with their replies, and what they prove about the letters.

A letter is *proved present* when every secret spelling that agrees with all replies contains
it, and *proved absent* when none does.  The deduction runs over all letter multisets of L
letters (sets of L different letters unless the rules allow repeated letters), not over the
words of the list: it is what a careful player can work out with a pencil, it holds for any word
list (and for guesses from outside it), and it never gives away what the list would reveal; the
number of the list's words that still fit is shown separately (hints).

It uses only the letters in common (:meth:`jotto.game.rules.Rules.split`): under positional replies
the letters in place are shown but prove nothing here, and an anagram's reply under ``keep-all``
counts as L letters in common.  With repeated letters a letter counts in a reply as often as it
occurs in both words (multiset counting), so ``aaxyz`` replies 2 to a secret with two ``a`` and
1 to one with a single ``a``.

It is exact, not a set of rules of thumb: letters that every guess treats alike (occurring as
often in each guess) are interchangeable, so a secret is, per such class, how many of its
letters occur once, twice...; a search over the classes with memoised feasibility finds the
least and most letters of each class any consistent secret holds.  A zero reply crosses out its
letters, but the replies also prove things together: with 3-letter words, ``abc 1``, ``abd 1``
and ``cde 1`` prove ``e`` present and ``c``, ``d`` absent, though no reply is zero.
"""

from __future__ import annotations

import os
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from ..game.rules import Rules

__all__ = [
    "LetterSheet",
    "SheetState",
    "Style",
    "deduce_letters",
    "render_sheet",
    "sheet_lines",
    "sheet_state",
]

ALPHABET = string.ascii_lowercase


@dataclass(frozen=True)
class LetterSheet:
    """What the replies prove: letters in the secret, letters not in it."""

    present: frozenset[str]
    absent: frozenset[str]


def _spreads(size: int, length: int, repeats: bool) -> list[tuple[int, ...]]:
    """The ways a class of ``size`` interchangeable letters can take part in a secret of
    ``length`` letters: ``m[x-1]`` letters of the class occurring x times, as tuples ``m``
    (without repeats only ``(c,)``, c letters once)."""
    if not repeats:
        return [(c,) for c in range(min(size, length) + 1)]
    out: list[tuple[int, ...]] = []

    def grow(x: int, letters: int, total: int, m: tuple[int, ...]) -> None:
        if x > length:
            out.append(m)
            return
        n = 0
        while letters + n <= size and total + n * x <= length:
            grow(x + 1, letters + n, total + n * x, m + (n,))
            n += 1

    grow(1, 0, 0, ())
    return out


def deduce_letters(
    guesses: Sequence[str], replies: Sequence[int], length: int, repeats: bool = False
) -> LetterSheet | None:
    """The letters proved present and absent by ``replies`` (letters in common) to ``guesses``,
    over every secret of ``length`` letters (different letters, or with ``repeats`` any letters
    scored by multiset counting); None if no secret agrees with them all."""
    if len(guesses) != len(replies):
        raise ValueError("one reply per guess")
    signature: dict[tuple[int, ...], list[str]] = {}
    for letter in ALPHABET:
        signature.setdefault(tuple(g.count(letter) for g in guesses), []).append(letter)
    classes = list(signature.items())
    # each way a class takes part: (letters of the class in the secret, what it adds to each
    # reply and to the secret's length)
    options: list[list[tuple[int, tuple[int, ...]]]] = []
    for sig, letters in classes:
        opts = []
        for m in _spreads(len(letters), length, repeats):
            step = tuple(sum(n * min(k, x) for x, n in enumerate(m, 1)) for k in sig)
            opts.append((sum(m), step + (sum(x * n for x, n in enumerate(m, 1)),)))
        options.append(opts)
    m = len(guesses) + 1
    # the most each coordinate can still grow from class k on: a quick bound that prunes
    caps = [[0] * m for _ in range(len(classes) + 1)]
    for k in range(len(classes) - 1, -1, -1):
        caps[k] = [caps[k + 1][j] + max(step[j] for _, step in options[k]) for j in range(m)]

    def _choices(k: int, need: tuple[int, ...]):
        for used, step in options[k]:
            rest = tuple(n - s for n, s in zip(need, step))
            if min(rest) >= 0:
                yield used, rest

    @cache
    def completes(k: int, need: tuple[int, ...]) -> bool:
        if k == len(classes):
            return not any(need)
        if any(n > c for n, c in zip(need, caps[k])):
            return False
        return any(completes(k + 1, rest) for _, rest in _choices(k, need))

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
            for used, rest in _choices(k, need):
                if completes(k + 1, rest):
                    counts.add(used)
                    nxt.add(rest)
        if min(counts) == len(letters):
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
    def for_stream(cls, stream) -> Style:
        isatty = getattr(stream, "isatty", lambda: False)
        try:
            tty = bool(isatty())
        except (OSError, ValueError):
            tty = False
        return cls(
            tty
            and not os.environ.get("NO_COLOR")
            and os.environ.get("TERM", "") not in ("", "dumb")
        )

    def _sgr(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.colour else text

    def present(self, letter: str) -> str:
        return self._sgr(letter.upper(), "1;32")

    def absent(self, letter: str) -> str:
        return self._sgr(letter, "2;9")

    def unknown(self, letter: str) -> str:
        return letter

    def letter(self, letter: str, sheet: LetterSheet | None) -> str:
        if sheet is not None and letter in sheet.present:
            return self.present(letter)
        if sheet is not None and letter in sheet.absent:
            return self.absent(letter)
        return self.unknown(letter)


def _letters(letters: Sequence[str] | frozenset[str], show=str) -> str:
    return " ".join(show(c) for c in sorted(letters)) or "none"


@dataclass(frozen=True)
class SheetState:
    """A sheet as a front end shows it: a title, each guess with its reply (the rules' code and
    as people read it), the letters the replies prove (None: no set of letters fits them all),
    the letters marked by hand (letter -> in), and how many words still fit (None: not shown).
    The terminal draws it as text (:func:`render_sheet`), the web page from its JSON
    (:meth:`as_dict`)."""

    title: str
    guesses: tuple[str, ...]
    replies: tuple[int, ...]
    shown: tuple[str, ...]
    letters: LetterSheet | None
    marks: tuple[tuple[str, bool], ...] = ()
    fitting: int | None = None

    def as_dict(self) -> dict:
        return {
            "title": self.title,
            "rows": [
                {"guess": g, "reply": r, "shown": s}
                for g, r, s in zip(self.guesses, self.replies, self.shown)
            ],
            "present": None if self.letters is None else sorted(self.letters.present),
            "absent": None if self.letters is None else sorted(self.letters.absent),
            "marks": {c: "in" if inside else "out" for c, inside in self.marks},
            "fitting": self.fitting,
        }


def sheet_state(
    title: str,
    guesses: Sequence[str],
    replies: Sequence[int],
    rules: Rules,
    length: int,
    fitting: int | None = None,
    marks: Mapping[str, bool] | None = None,
) -> SheetState:
    """The sheet of ``guesses`` and their ``replies`` (codes of ``rules``): what they prove
    (:func:`deduce_letters`, from the letters in common) and the person's ``marks``."""
    common = [rules.split(r, length)[0] for r in replies]
    return SheetState(
        title,
        tuple(guesses),
        tuple(int(r) for r in replies),
        tuple(rules.format_reply(r, length) for r in replies),
        deduce_letters(guesses, common, length, rules.repeats),
        tuple(sorted((marks or {}).items())),
        fitting,
    )


def render_sheet(state: SheetState, style: Style) -> list[str]:
    """The sheet as lines: a title, each guess (numbered) with its reply as people read it,
    then the letters: at a colour terminal the alphabet with absent letters struck through and
    present ones marked (bold capitals); in plain text the two lists, ``in: E R  out: h m s t
    u``, so nothing needs counting.  Then the letters the person marked by hand, as on a paper
    sheet, and how many words still fit if that is shown.  Letters of the guesses are marked
    too when there is colour."""
    sheet = state.letters
    lines = [state.title]
    for n, (g, shown) in enumerate(zip(state.guesses, state.shown), 1):
        word = "".join(style.letter(c, sheet) for c in g) if style.colour else g
        lines.append(f"  {n:>2}  {word}  {shown}")
    if sheet is None:
        lines.append("      no set of letters fits all these replies")
    elif style.colour:
        lines.append("      " + " ".join(style.letter(c, sheet) for c in ALPHABET))
    else:
        lines.append(
            f"      in: {_letters(sheet.present, str.upper)}  out: {_letters(sheet.absent)}"
        )
    if state.marks:
        marked_in = [c for c, inside in state.marks if inside]
        marked_out = [c for c, inside in state.marks if not inside]
        lines.append(
            f"      your marks: in: {_letters(marked_in, str.upper)}  out: {_letters(marked_out)}"
        )
    if state.fitting is not None:
        n = state.fitting
        lines.append(f"      {n} word{'s' if n != 1 else ''} fit{'' if n != 1 else 's'}")
    return lines


def sheet_lines(
    title: str,
    guesses: Sequence[str],
    replies: Sequence[int],
    rules: Rules,
    length: int,
    style: Style,
    fitting: int | None = None,
    marks: Mapping[str, bool] | None = None,
) -> list[str]:
    """The sheet of ``guesses`` and ``replies`` as lines (:func:`sheet_state` drawn by
    :func:`render_sheet`)."""
    return render_sheet(sheet_state(title, guesses, replies, rules, length, fitting, marks), style)
