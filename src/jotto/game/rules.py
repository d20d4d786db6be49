"""The rules of a Jotto game: which words may be secrets, what a reply is, and what wins.

People play Jotto under several rule sets, and the sources this package follows disagree:

* Ganzfried (2011) plays words with distinct letters and drops every word whose letter set another
  word has, so a reply of L always wins (``paper``, the default);
* Norvig's notebook keeps one word per letter set (``norvig``);
* the Perl player scores words with repeated letters by multiset counting -- ``abcde``/``aaxyz``
  share 1 letter, ``aaxyz``/``aaghj`` share 2 -- and keeps every word (``perl``);
* Eckler's game keeps anagrams: STARE, ASTER, TARES, TEARS and RATES are all secrets, and a reply
  of 5 to the wrong one of them is an ordinary reply (``eckler``);
* Norvig suggests replies of two numbers, letters in common and letters in the right place
  (``positional``);
* hard mode asks every guess to be consistent with all replies so far (``hard``).

A :class:`Rules` value says all of that, and owns the three things a game needs: the reply to a
guess (:meth:`Rules.reply`), the set of replies (:meth:`Rules.classes`), and the win (the guess
is the secret word itself: under ``drop`` and ``keep-one`` that is the same as a reply of L).
Replies are small integers, *reply codes*: ``common + (L + 1) * in_place``, so without
positional feedback the code is the number of letters in common, as in the paper.

The compiled core sees a word as a set of *tokens* (:meth:`Rules.tokens`): a letter, or with
repeated letters the k-th occurrence of a letter, so letters in common are the popcount of an AND
of token masks; letters in place are counted from the spelling (:meth:`Rules.spellings`).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["ANAGRAMS", "PRESETS", "Rules", "RulesError", "parse_rules"]

#: What happens to words sharing their letters (anagrams, or any letter multiset):
#: ``drop`` every such word (Ganzfried 2011), ``keep-one`` (the last one seen, at the position
#: its letters were first seen, as Norvig's ``{frozenset(w): w for w in words}``), or
#: ``keep-all`` (Eckler: the win is the exact word).
ANAGRAMS = ("drop", "keep-one", "keep-all")

#: Older spellings of the anagram rule (strategy and tree files, ``--anagrams``).
_ANAGRAM_ALIASES = {"paper": "drop", "norvig": "keep-one"}

#: Tokens the core's masks hold (64-bit masks).
MAX_TOKENS = 64
#: Longest word the positional reply is counted for (a spelling packs one byte per letter).
MAX_POSITIONAL_LENGTH = 8


class RulesError(ValueError):
    """A rule set cannot be parsed, or a word list cannot be played under it."""


@dataclass(frozen=True)
class Rules:
    """A Jotto rule set (immutable, hashable, serialisable with :meth:`to_dict`).

    Attributes:
        repeats: words may repeat letters, scored by multiset counting (each letter counts as
            often as it occurs in both words); otherwise such words are dropped.
        anagrams: one of :data:`ANAGRAMS`.
        positional: the reply also says how many letters are in the right place.
        hard: every guess must be consistent with all replies so far.
    """

    repeats: bool = False
    anagrams: str = "drop"
    positional: bool = False
    hard: bool = False

    def __post_init__(self) -> None:
        for name in ("repeats", "positional", "hard"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(
                    f"rules: {name} must be true or false, not {getattr(self, name)!r}"
                )
        if self.anagrams not in ANAGRAMS:
            raise RulesError(
                f"rules: anagrams must be one of {', '.join(ANAGRAMS)}, not {self.anagrams!r}"
            )

    # ---- names ---------------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The preset's name if these are a preset's rules, else the paper's with the fine
        options that differ (``paper,repeats,positional``): what :func:`parse_rules` reads back."""
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        parts = ["paper"] + ([f"anagrams={self.anagrams}"] if self.anagrams != "drop" else [])
        return ",".join(parts + [flag for flag in _FLAGS if getattr(self, flag)])

    def __str__(self) -> str:
        return self.name

    def describe(self) -> str:
        """One sentence for people: what may be a secret, what a reply says, what wins."""
        letters = (
            "words may repeat letters (counted as often as they occur in both words)"
            if self.repeats
            else "words have distinct letters"
        )
        anagrams = {
            "drop": "words whose letters another word has are dropped",
            "keep-one": "one word is kept of words with the same letters",
            "keep-all": "words with the same letters are all kept; only the exact word wins",
        }[self.anagrams]
        reply = (
            "replies give letters in common and letters in the right place"
            if self.positional
            else "replies give letters in common"
        )
        hard = "; every guess must fit all replies so far" if self.hard else ""
        return f"{self.name}: {letters}; {anagrams}; {reply}{hard}"

    def to_dict(self) -> dict[str, object]:
        """The fine options, for files (:meth:`from_dict` reads them back)."""
        return {
            "repeats": self.repeats,
            "anagrams": self.anagrams,
            "positional": self.positional,
            "hard": self.hard,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, object], where: str = "rules") -> Rules:
        """Rules from :meth:`to_dict`'s form; :class:`RulesError` naming ``where`` and the field
        otherwise."""
        if not isinstance(d, Mapping):
            raise RulesError(f"{where}: not an object")
        unknown = set(d) - {f.name for f in dataclasses.fields(cls)}
        if unknown:
            raise RulesError(f"{where}: unknown field {sorted(unknown)[0]!r}")
        try:
            return cls(**d)  # type: ignore[arg-type]
        except RulesError as exc:
            raise RulesError(f"{where}: {str(exc).removeprefix('rules: ')}") from None

    # ---- replies -------------------------------------------------------------------------------

    def classes(self, length: int) -> int:
        """Reply codes for words of ``length`` letters; codes run 0..classes-1 (not every code
        occurs: no more letters are in place than in common)."""
        if self.positional:
            return (length + 1) ** 2
        return length + 2 if self.anagrams == "keep-all" else length + 1

    def branches(self, length: int) -> int:
        """The most non-winning replies one guess can split the targets into: L under the
        paper's anagram rules (0..L-1; only the guess itself shares all L letters), L+1 under
        keep-all (0..L-1 and the anagram code), and with positional feedback every (in common,
        in place) pair with in place <= in common but L/L (the win) and L/L-1 (L letters in
        common with L-1 in place leaves the last letter in place too)."""
        if self.positional:
            return (length + 1) * (length + 2) // 2 - 2
        return length + 1 if self.anagrams == "keep-all" else length

    def win_code(self, length: int) -> int:
        """The code of a guess that is the secret: L in common (and in place)."""
        return self.code(length, length, length)

    def reply(self, guess: str, target: str) -> int:
        """The reply code to ``guess`` when the secret is ``target`` (same length, lower case).

        Letters in common (multiset counting with repeated letters), plus ``(L + 1) *`` letters
        in place under positional feedback.  Without positional feedback, under ``keep-all`` an
        anagram of the secret that is not the secret gets the code L + 1: it shares all L
        letters but does not win, and the code keeps it apart from the win (under the other
        anagram rules no two words of a list share all their letters, so the code stays L)."""
        L = len(guess)
        if len(target) != L:
            raise ValueError(
                f"the guess {guess!r} has {L} letters and the secret {target!r} "
                f"{len(target)}: a reply compares words of one length"
            )
        if self.repeats:
            a, b = Counter(guess), Counter(target)
            common = sum(min(n, b[ch]) for ch, n in a.items())
        else:
            common = len(set(guess) & set(target))
        in_place = sum(x == y for x, y in zip(guess, target)) if self.positional else 0
        return int(self.reply_code(common, in_place, L, guess == target))

    def reply_code(self, common: Any, in_place: Any, length: int, same: Any) -> Any:
        """The rule that makes a reply code of a comparison, the one place it is written:
        ``common`` letters in common, ``in_place`` of them in place (0 without positional
        feedback), ``same`` whether the guess is the secret; ints, or NumPy arrays of one shape
        (:func:`jotto.game.turns.replies` compares a guess with many targets at once)."""
        if self.positional:
            return common + (length + 1) * in_place
        if self.anagrams == "keep-all":  # an anagram that is not the secret: code L + 1
            return np.where((common == length) & ~np.asarray(same, dtype=bool), length + 1, common)
        return common

    def split(self, code: int, length: int) -> tuple[int, int]:
        """(letters in common, letters in place) of a reply code (in place 0 without
        positional feedback)."""
        if not self.positional:
            return min(code, length), 0
        return code % (length + 1), code // (length + 1)

    def code(self, common: int, in_place: int, length: int) -> int:
        """The reply code of (letters in common, letters in place) when the guess is the secret
        or not an anagram of it (see :meth:`reply`)."""
        return common + (length + 1) * in_place if self.positional else common

    def format_reply(self, code: int, length: int) -> str:
        """A reply for people: ``3``, or ``3/1`` (3 in common, 1 in place)."""
        common, in_place = self.split(code, length)
        return f"{common}/{in_place}" if self.positional else str(common)

    def parse_reply(self, text: str, length: int) -> int:
        """The reply code a person typed: ``3``, or with positional feedback ``3/1`` (also
        ``3 1``); :class:`ValueError` with a one-line reason otherwise."""
        parts = text.replace("/", " ").replace(",", " ").split()
        if (
            not parts
            or len(parts) > (2 if self.positional else 1)
            or not all(p.isdigit() for p in parts)
        ):
            form = (
                "two numbers like 3/1 (letters in common / in place)"
                if self.positional
                else f"a number from 0 to {length}"
            )
            raise ValueError(f"{text.strip()!r} is not a reply: type {form}")
        common = int(parts[0])
        in_place = int(parts[1]) if len(parts) > 1 else 0
        if self.positional and len(parts) == 1:
            raise ValueError(
                f"{text.strip()!r}: also say how many letters are in place, like {common}/0"
            )
        if not 0 <= in_place <= common <= length:
            place = ", and no more are in place than in common" if self.positional else ""
            raise ValueError(
                f"{text.strip()!r} is not a reply: letters in common go from 0 to {length}{place}"
            )
        return self.code(common, in_place, length)

    # ---- which words -------------------------------------------------------------------------

    def letter_key(self, word: str) -> str:
        """What anagrams share: the word's letters, sorted (with repeats)."""
        return "".join(sorted(word))

    def why_not_secret(self, word: str) -> str | None:
        """Why ``word`` (lower-case ASCII letters) cannot be played under these rules on its
        own, or None; the anagram rule, which depends on the other words, is not checked."""
        if not self.repeats and len(set(word)) != len(word):
            return "it repeats a letter"
        return None

    def select(self, words: Sequence[str]) -> tuple[list[str], list[str]]:
        """(kept, dropped) for the anagram rule, from distinct words each passing
        :meth:`why_not_secret`, in source order (see :data:`ANAGRAMS` for which is kept)."""
        if self.anagrams == "keep-all":
            return list(words), []
        if self.anagrams == "drop":
            sets = Counter(self.letter_key(w) for w in words)
            return (
                [w for w in words if sets[self.letter_key(w)] == 1],
                [w for w in words if sets[self.letter_key(w)] > 1],
            )
        by_key = {self.letter_key(w): w for w in words}
        survivors = set(by_key.values())
        return list(by_key.values()), [w for w in words if w not in survivors]

    # ---- the core's view ---------------------------------------------------------------------

    def tokens(self, words: Sequence[str]) -> np.ndarray:
        """Token masks (``uint64``): bit k of the first 26 is the letter ``'a' + k``, and with
        repeated letters the further bits are second, third... occurrences of a letter, so that
        letters in common are ``popcount(tokens[g] & tokens[t])`` for any two different words.

        An occurrence token that only one word holds can never be shared, so it gets no bit
        (a word's reply to itself is the win, never counted); :class:`RulesError` if more than
        :data:`MAX_TOKENS` tokens remain."""
        if not self.repeats:
            return np.fromiter(
                (sum(1 << (ord(c) - 97) for c in set(w)) for w in words),
                dtype=np.uint64,
                count=len(words),
            )
        counts = [Counter(w) for w in words]
        holders = Counter((ch, k) for c in counts for ch, n in c.items() for k in range(2, n + 1))
        extra = sorted(t for t, n in holders.items() if n >= 2)
        if 26 + len(extra) > MAX_TOKENS:
            raise RulesError(
                f"{len(extra)} repeated-letter tokens (a letter's second, third... "
                f"occurrence shared by two words or more) with 26 letters exceed "
                f"the core's {MAX_TOKENS}-bit masks"
            )
        bit = {t: 26 + i for i, t in enumerate(extra)}
        out = np.empty(len(words), dtype=np.uint64)
        for i, c in enumerate(counts):
            m = 0
            for ch, n in c.items():
                m |= 1 << (ord(ch) - 97)
                for k in range(2, n + 1):
                    if (ch, k) in bit:
                        m |= 1 << bit[(ch, k)]
            out[i] = m
        return out

    def spellings(self, words: Sequence[str]) -> np.ndarray | None:
        """For positional feedback, each word packed one letter per byte (byte p holds letter
        p as 1..26), so letters in place are the zero bytes of ``spell[g] ^ spell[t]`` among
        the first L; None without positional feedback."""
        if not self.positional:
            return None
        if words and len(words[0]) > MAX_POSITIONAL_LENGTH:
            raise RulesError(
                f"positional replies are counted for words of up to "
                f"{MAX_POSITIONAL_LENGTH} letters, not {len(words[0])}"
            )
        return np.fromiter(
            (sum((ord(c) - 96) << (8 * p) for p, c in enumerate(w)) for w in words),
            dtype=np.uint64,
            count=len(words),
        )


#: The named rule sets (see the module's docstring for their sources).
PRESETS: Mapping[str, Rules] = {
    "paper": Rules(),
    "norvig": Rules(anagrams="keep-one"),
    "perl": Rules(repeats=True, anagrams="keep-all"),
    "eckler": Rules(anagrams="keep-all"),
    "positional": Rules(anagrams="keep-all", positional=True),
    "hard": Rules(hard=True),
}

_FLAGS = ("repeats", "positional", "hard")


def parse_rules(text: str | Rules | None) -> Rules:
    """Rules from a preset name and fine options, comma separated: ``perl``,
    ``eckler,hard``, ``paper,anagrams=keep-one,positional``, ``norvig,no-hard``.  None gives
    the paper's rules; a :class:`Rules` is returned as it is."""
    if text is None:
        return PRESETS["paper"]
    if isinstance(text, Rules):
        return text
    if not isinstance(text, str):
        raise RulesError(f"rules must be a preset name or Rules, not {type(text).__name__}")
    parts = [p.strip().lower() for p in text.split(",")]
    if not parts[0] or parts[0] not in PRESETS:
        raise RulesError(f"unknown rules {parts[0]!r}; presets: {', '.join(PRESETS)}")
    fields = PRESETS[parts[0]].to_dict()
    for part in parts[1:]:
        key, eq, value = part.partition("=")
        if key == "anagrams" and eq:
            fields["anagrams"] = _ANAGRAM_ALIASES.get(value, value)
        elif key in _FLAGS and not eq:
            fields[key] = True
        elif key.startswith("no-") and key[3:] in _FLAGS and not eq:
            fields[key[3:]] = False
        else:
            raise RulesError(
                f"rules {text!r}: unknown option {part!r}; options: "
                f"anagrams={'|'.join(ANAGRAMS)}, "
                f"{', '.join(_FLAGS)} (or no-{_FLAGS[0]}...)"
            )
    return Rules.from_dict(fields, f"rules {text!r}")


def anagram_rule(value: str) -> str:
    """An anagram rule from :data:`ANAGRAMS` or an older spelling (``paper``, ``norvig``)."""
    rule = _ANAGRAM_ALIASES.get(value, value)
    if rule not in ANAGRAMS:
        raise RulesError(
            f"unknown anagram rule {value!r}; use one of {', '.join(map(repr, ANAGRAMS))}"
        )
    return rule
