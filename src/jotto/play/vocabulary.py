"""The words of a game with a person: which may be secrets, which may be guessed, and why.

A :class:`~jotto.game.words.WordList` holds the *secrets*: the words of its source that its
:class:`~jotto.game.rules.Rules` keep.  A person may *guess* more: any word of the source the rules
allow as a word.  The anagram rule only decides which words may be secrets (under the paper's
rules ``heart`` is dropped because ``earth`` has its letters, but it is a fine guess), so the
guesses are the list's words plus the words its anagram rule dropped, which the list keeps
(:meth:`~jotto.game.words.WordList.dropped_words`); a list read from a strategy or tree file knows
only its own words, and then those are the guesses.  Words with a repeated letter stay out
unless the rules allow them: they have no reply under distinct-letter rules.

:class:`Vocabulary` answers what a session needs about any word a person types: whether it may
be guessed, the reply to it (:meth:`Rules.reply`, so a guess outside the list is scored by the
same rules), whether it fits the replies so far (hard mode), and, when a person's word is not a
secret, which rule dropped it and which rules would keep it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from ..game.rules import Rules
from ..game.turns import replies as list_replies
from ..game.words import WordList
from ..util.files import quote

__all__ = ["Vocabulary"]

#: Familiar words to show as examples of words the rules drop (the first in the source is shown
#: when none of these is).
_EXAMPLES = ("heart", "stare", "least", "angle", "geese", "apple", "sheep", "hello")

#: (guess, reply code) pairs of a game, the guesses as words.
WordHistory = Sequence[tuple[str, int]]


class Vocabulary:
    """The secrets (``words``) and the guesses of a game under ``words.rules``."""

    def __init__(self, words: WordList):
        self.words = words
        self.rules: Rules = words.rules
        self.length = words.length
        self.anagram_dropped = words.dropped_words("anagram")
        self.repeat_dropped = words.dropped_words("repeated_letter")
        #: every word a person may guess, in source order of the list then the dropped words
        self.guesses = tuple(words.words) + tuple(self.anagram_dropped)
        self._guessable = frozenset(self.guesses)
        keys: dict[str, int] = {}
        for w in self.guesses:
            k = self.rules.letter_key(w)
            keys[k] = keys.get(k, 0) + 1
        self._key_count = keys

    # ---- which words ---------------------------------------------------------------------------

    def has_anagram(self, word: str) -> bool:
        """Whether another word a person may guess has the same letters as ``word``: then a
        reply of L letters in common to it need not be the win."""
        return self._key_count.get(self.rules.letter_key(word), 0) > 1

    def why_not_guess(self, text: str) -> str | None:
        """Why ``text`` (lower case) cannot be a guess, one line, or None if it can."""
        shown = quote(text)
        if not text.isascii() or not text.isalpha():
            return f"{shown} is not a word (letters only, please)"
        if len(text) != self.length:
            return f"{shown} has {len(text)} letters; this game uses {self.length}-letter words"
        if text in self._guessable:
            return None
        if text in self.repeat_dropped or self.rules.why_not_secret(text):
            return (
                f"{shown} repeats a letter, and under these rules words have "
                f"{self.length} different letters ({self._hint('repeats')})"
            )
        return f"{shown} is not in my word list ({self.words.source})"

    def why_not_secret(self, text: str) -> str | None:
        """Why ``text`` (lower case) cannot be a secret, one line naming the rule and the rules
        that would keep it, or None if it is one."""
        if text in self.words:
            return None
        if text in self.anagram_dropped:
            return f"{self._anagram_reason(text)} ({self._hint('anagrams')})"
        return self.why_not_guess(text) or f"{quote(text)} is not in my word list"

    def _anagram_reason(self, word: str) -> str:
        if self.rules.anagrams == "keep-one":
            key = self.rules.letter_key(word)
            kept = next((w for w in self.words if self.rules.letter_key(w) == key), None)
            if kept is not None:
                return f"another word with the same letters, {kept}, is the one kept"
        return "another word has the same letters"

    def _hint(self, what: str) -> str:
        """How to play with ``what`` (``anagrams`` or ``repeats``) allowed."""
        if what == "anagrams":
            other = replace(self.rules, anagrams="keep-all")
            return f"play with --rules {other.name} to keep anagrams"
        other = replace(self.rules, repeats=True)
        return f"play with --rules {other.name} to allow repeated letters"

    def _example(self, dropped: Sequence[str]) -> str:
        chosen = set(dropped)
        return next((w for w in _EXAMPLES if w in chosen), dropped[0])

    def intro(self) -> list[str]:
        """What a game says at its start: which words are the secrets under the rules, why an
        example word is not one, and which words may be guessed."""
        r, L = self.rules, self.length
        letters = "with repeated letters allowed" if r.repeats else "with distinct letters"
        anagrams = {
            "drop": ", no two sharing their letters",
            "keep-one": ", one kept of words sharing their letters",
            "keep-all": ", anagrams included (only the exact word wins)",
        }[r.anagrams]
        n = len(self.words)
        lines = [
            f"Secrets: {n} word{'s' if n != 1 else ''} of {L} letters {letters}"
            f"{anagrams} (rules {r.name})."
        ]
        if self.anagram_dropped:
            w = self._example(self.anagram_dropped)
            lines.append(
                f"{w} is not one: {self._anagram_reason(w)} -- "
                f"{self._hint('anagrams')}; it may still be guessed."
            )
        if self.repeat_dropped:
            w = self._example(self.repeat_dropped)
            lines.append(f"{w} is not one: it repeats a letter -- {self._hint('repeats')}.")
        if r.positional:
            lines.append(
                f"Replies are letters in common/letters in place, like "
                f"{r.format_reply(r.code(3, 1, L) if L >= 3 else 0, L)}."
            )
        if r.hard:
            lines.append("Hard mode: every guess must fit all replies so far.")
        return lines

    # ---- replies -------------------------------------------------------------------------------

    def replies(self, guess: str, targets: np.ndarray | None = None) -> np.ndarray:
        """Reply codes to the word ``guess`` (any guessable word) of each target index of the
        list (all if None), under the rules."""
        T = np.arange(len(self.words)) if targets is None else np.asarray(targets, np.intp)
        if guess in self.words:
            return list_replies(self.words, self.words.index(guess), T)
        return np.fromiter(
            (self.rules.reply(guess, self.words[int(t)]) for t in T), dtype=np.int64, count=len(T)
        )

    def consistent(self, history: WordHistory) -> np.ndarray:
        """Indices of the secrets that fit every (guess word, reply code) of ``history``."""
        S = np.arange(len(self.words))
        for guess, code in history:
            S = S[self.replies(guess, S) == code]
        return S

    def answer_code(self, guess: str, code: int) -> int:
        """The reply code a person means by ``code`` (:meth:`Rules.parse_reply`) to ``guess``
        when they did not say it is their word: under keep-all, L letters in common to a guess
        that has an anagram is the anagram's reply (L + 1), not the win (under the other anagram
        rules the code stays L, see :meth:`Rules.reply`)."""
        L = self.length
        if (
            self.rules.anagrams == "keep-all"
            and not self.rules.positional
            and code == L
            and self.has_anagram(guess)
        ):
            return L + 1
        return code

    def show(self, code: int) -> str:
        """A reply code as people read it: ``3`` or ``3/1``."""
        return self.rules.format_reply(code, self.length)

    def hard_problem(self, guess: str, history: WordHistory) -> str | None:
        """Under hard mode, why ``guess`` does not fit the replies so far (one line), else
        None (always None without hard mode)."""
        if not self.rules.hard:
            return None
        for g, code in history:
            actual = self.rules.reply(g, guess)
            if actual != code:
                return (
                    f"hard mode: every guess must fit the replies so far, and {guess} does "
                    f"not: {g} got {self.show(code)}, but if {guess} were the word it would "
                    f"get {self.show(actual)}"
                )
        return None

    def dropped_fitting(self, history: WordHistory) -> list[str]:
        """Words the rules dropped (sharing their letters with another word, or repeating a
        letter) that fit every (guess word, reply code) of ``history``: the words a person may
        be thinking of when no secret fits.  Words with a repeated letter are scored by
        multiset counting, as a person would count them."""
        multiset = replace(self.rules, repeats=True, anagrams="keep-all")
        out = []
        for rules, dropped in ((self.rules, self.anagram_dropped), (multiset, self.repeat_dropped)):
            out.extend(w for w in dropped if all(rules.reply(g, w) == code for g, code in history))
        return out

    def dropped_reason(self, word: str) -> str:
        """Why the rules dropped ``word`` (one of :meth:`dropped_fitting`'s), with the rules
        that keep it."""
        if word in self.anagram_dropped:
            return f"{self._anagram_reason(word)} ({self._hint('anagrams')})"
        return f"it repeats a letter ({self._hint('repeats')})"
