"""Jotto word lists: reading, the rules that make a list playable, and letter masks.

A Jotto word list holds words of one length with no repeated letter, no two of them sharing a
letter set (otherwise a reply of L would not end the game).  :func:`load_words` reads any source,
applies those rules in one of two documented ways and returns an immutable :class:`WordList`: the
words in source order, their 26-bit letter masks (bit k is the letter ``'a' + k``), what was
dropped and why, and a SHA-256 that strategy files bind to.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import zlib
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from typing import IO, Iterable, Iterator, Mapping, Sequence, Union

import numpy as np

from . import _core
from .files import gunzip, input_limit, quote, read_bytes

__all__ = [
    "ANAGRAM_RULES",
    "BUNDLED",
    "DEFAULT_SOURCE",
    "WordList",
    "WordListError",
    "letter_mask",
    "load_words",
]

#: Bundled lists by name: file in ``jotto/data`` and a one-line description.
BUNDLED: Mapping[str, tuple[str, str]] = {
    "enable": ("enable.txt.gz", "ENABLE (public domain)"),
    "sgb": ("sgb-words.txt", "Knuth's Stanford GraphBase five-letter words"),
}
DEFAULT_SOURCE = "enable"

#: How words sharing a letter set are resolved.
#: ``paper``: drop every word whose letter set another word of that length has (Ganzfried 2011);
#: ``norvig``: keep one word per letter set, the last one seen, at the position where the set was
#: first seen, exactly as Norvig's notebook does with ``{frozenset(w): w for w in words}``.
ANAGRAM_RULES = ("paper", "norvig")

#: Why words were dropped, in the order the rules apply.
DROP_REASONS = ("invalid", "other_length", "duplicate", "repeated_letter", "anagram")

_WHY_DROPPED = {"repeated_letter": "it repeats a letter",
                "anagram": "another word has the same letters (the anagram rule)",
                "invalid": "it is not a word of ASCII letters"}

Source = Union[None, str, "os.PathLike[str]", IO[str], IO[bytes], Iterable[str]]


class WordListError(ValueError):
    """A word list cannot be read or gives no playable words; the message says where and why."""


def letter_mask(word: str) -> int:
    """The 26-bit letter set of a lower-case ASCII word (bit k is ``'a' + k``)."""
    mask = 0
    for ch in word:
        mask |= 1 << (ord(ch) - 97)
    return mask


@dataclass(frozen=True, eq=False)
class WordList:
    """An immutable Jotto word list.

    Attributes:
        words: the words, lower case, in source order.
        masks: their letter masks (read-only ``uint32`` array).
        length: letters per word.
        anagrams: the anagram rule applied (see :data:`ANAGRAM_RULES`).
        source: where the words came from (bundled name, path, or a description).
        dropped: how many tokens each rule dropped, by reason (see :data:`DROP_REASONS`).
        sha256: hex SHA-256 of the words in order, one per line (``"\\n".join(words) + "\\n"``).
    """

    words: tuple[str, ...]
    masks: np.ndarray = field(repr=False)
    length: int
    anagrams: str
    source: str
    dropped: Mapping[str, int] = field(repr=False)
    sha256: str = field(repr=False)
    _dropped_words: Mapping[str, tuple[str, ...]] = field(repr=False, default_factory=dict)
    _index: Mapping[str, int] = field(repr=False, default_factory=dict)

    def __len__(self) -> int:
        return len(self.words)

    def __iter__(self) -> Iterator[str]:
        return iter(self.words)

    def __getitem__(self, i: int) -> str:
        return self.words[i]

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.lower() in self._index

    def __repr__(self) -> str:
        return (f"WordList({len(self.words)} words of {self.length} letters from "
                f"{self.source}, anagrams={self.anagrams!r}, sha256={self.sha256[:12]}…)")

    def index(self, word: str) -> int:
        """Position of ``word`` (any case); :class:`KeyError` naming it if it is not here."""
        try:
            return self._index[word.lower()]
        except KeyError:
            why = next((f"; {_WHY_DROPPED[reason]}" for reason, dropped
                        in self._dropped_words.items()
                        if reason in _WHY_DROPPED and word.lower() in dropped), "")
            raise KeyError(f"{quote(word)} is not in this word list ({self.source}, "
                           f"{self.length} letters{why})") from None

    def dropped_words(self, reason: str) -> tuple[str, ...]:
        """The tokens dropped for ``reason`` (one of :data:`DROP_REASONS`), in source order.

        ``other_length`` is only counted, not kept (it is most of any dictionary).
        """
        if reason not in DROP_REASONS:
            raise ValueError(f"unknown drop reason {reason!r}; one of {', '.join(DROP_REASONS)}")
        if reason == "other_length":
            raise ValueError("words of other lengths are counted, not kept")
        return self._dropped_words.get(reason, ())

    @cached_property
    def core(self) -> _core.Words:
        """The list as the compiled core holds it (built once, on first use)."""
        if len(self.words) > _core.MAX_WORDS:
            raise WordListError(f"{self.source}: {len(self.words)} words; the core takes at most "
                                f"{_core.MAX_WORDS}")
        return _core.Words(np.ascontiguousarray(self.masks), self.length)

    @property
    def rules(self) -> dict[str, object]:
        """The rules that made this list: length, anagram rule, and the fixed ones."""
        return {"length": self.length, "anagrams": self.anagrams,
                "repeated_letters": "dropped", "case": "lower"}

    @classmethod
    def from_words(cls, words: Sequence[str], *, source: str = "<words>",
                   anagrams: str = "given") -> "WordList":
        """A list taken as given: every word must already be playable (same length, ASCII
        letters, no repeated letter, no shared letter set); nothing is dropped."""
        words = tuple(w.lower() for w in words)
        if not words:
            raise WordListError(f"{source}: no words")
        length = len(words[0])
        seen: dict[int, str] = {}
        for w in words:
            if len(w) != length or not _is_ascii_word(w):
                raise WordListError(f"{source}: {quote(w)} is not a word of {length} ASCII "
                                    f"letters")
            if len(set(w)) != length:
                raise WordListError(f"{source}: {quote(w)} repeats a letter")
            m = letter_mask(w)
            if m in seen:
                raise WordListError(f"{source}: {quote(w)} and {quote(seen[m])} share a letter "
                                    f"set")
            seen[m] = w
        return _make(words, length, anagrams, source, dict.fromkeys(DROP_REASONS, 0), {})


def _is_ascii_word(token: str) -> bool:
    return token.isascii() and token.isalpha()


def _make(words: tuple[str, ...], length: int, anagrams: str, source: str,
          dropped: dict[str, int], dropped_words: dict[str, tuple[str, ...]]) -> WordList:
    masks = np.fromiter((letter_mask(w) for w in words), dtype=np.uint32, count=len(words))
    masks.flags.writeable = False
    digest = hashlib.sha256(("\n".join(words) + "\n").encode("ascii")).hexdigest()
    return WordList(words=words, masks=masks, length=length, anagrams=anagrams, source=source,
                    dropped=dict(dropped), sha256=digest, _dropped_words=dropped_words,
                    _index={w: i for i, w in enumerate(words)})


def _lines(source: Source) -> tuple[str, Iterable[tuple[int, str]]]:
    """(name, (line number, text) pairs) for any source."""
    if source is None:
        source = DEFAULT_SOURCE
    if isinstance(source, str) and source in BUNDLED:
        filename = BUNDLED[source][0]
        data = resources.files("jotto").joinpath("data", filename).read_bytes()
        if filename.endswith(".gz"):
            data = gzip.decompress(data)
        return source, enumerate(data.decode("ascii").splitlines(), 1)
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        what = f"file (bundled lists: {', '.join(BUNDLED)})" if isinstance(source, str) \
            else "file"
        raw = read_bytes(path, what, WordListError)
        if path.endswith(".gz"):
            try:
                raw = gunzip(raw, path, WordListError)
            except (OSError, EOFError, zlib.error) as exc:
                raise WordListError(f"{path}: not a readable gzip file ({exc})") from None
        return path, enumerate(_decode(raw, path).splitlines(), 1)
    if isinstance(source, (io.IOBase,)) or hasattr(source, "read"):
        name = str(getattr(source, "name", "<file>"))
        limit = input_limit()
        text = source.read(limit + 1)  # type: ignore[union-attr]
        if len(text) > limit:
            raise WordListError(f"{name}: more than {limit >> 20} MiB, the input limit (set "
                                f"JOTTO_MAX_INPUT_MB to raise it)")
        if isinstance(text, bytes):
            text = _decode(text, name)
        return name, enumerate(text.splitlines(), 1)
    if isinstance(source, (bytes, bytearray)):
        raise WordListError("a word list source may be a path, a file, or an iterable of words, "
                            "not bytes")
    try:
        items = list(source)  # type: ignore[arg-type]
    except TypeError:
        raise WordListError(f"cannot read words from {quote(source)} (a "
                           f"{type(source).__name__})") from None
    for i, item in enumerate(items, 1):
        if not isinstance(item, str):
            raise WordListError(f"<words>, item {i}: {quote(item)} is not a string")
    return "<words>", enumerate(items, 1)


def _decode(raw: bytes, name: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise WordListError(f"{name}, line {line}: bytes that are not UTF-8 text") from None


@lru_cache(maxsize=16)
def _load_bundled(name: str, length: int, anagrams: str, invalid: str) -> WordList:
    return _load(name, length, anagrams, invalid)


def load_words(source: Source = None, *, length: int = 5, anagrams: str = "paper",
               invalid: str = "error") -> WordList:
    """Read a Jotto word list.

    Args:
        source: ``None`` (the bundled default, ENABLE), a bundled name (``"enable"``, ``"sgb"``),
            a path (``.gz`` is decompressed), an open file (text or binary), or an iterable of
            words.  Tokens are separated by white space; blank lines and lines starting
            with ``#`` (comments, or the markers some TWL06 copies put on a few long words)
            are skipped.
        length: letters per word, 1 to 26.
        anagrams: ``"paper"`` or ``"norvig"``, see :data:`ANAGRAM_RULES`.
        invalid: what to do with a token that is not ASCII letters: ``"error"`` (raise, naming
            file, line and token) or ``"skip"`` (drop it and count it under ``invalid``).

    Words are compared case-insensitively and stored in lower case.  A word given twice is kept
    once (counted under ``duplicate``); words with a repeated letter are dropped; then the
    anagram rule resolves words that share a letter set.

    Raises:
        WordListError: unreadable source, invalid token, or no playable word of that length.
        ValueError: a bad ``length``, ``anagrams`` or ``invalid`` argument.
    """
    if isinstance(length, bool) or not isinstance(length, (int, np.integer)):
        raise ValueError(f"length must be an integer from 1 to 26, not {quote(length)}")
    if not 1 <= length <= 26:
        raise ValueError(f"length must be from 1 to 26 letters, not {length}")
    if anagrams not in ANAGRAM_RULES:
        raise ValueError(f"unknown anagram rule {quote(anagrams)}; use one of "
                         f"{', '.join(map(repr, ANAGRAM_RULES))}")
    if invalid not in ("error", "skip"):
        raise ValueError(f"invalid must be 'error' or 'skip', not {quote(invalid)}")
    if source is None or (isinstance(source, str) and source in BUNDLED):
        return _load_bundled(source or DEFAULT_SOURCE, int(length), anagrams, invalid)
    return _load(source, int(length), anagrams, invalid)


def _load(source: Source, length: int, anagrams: str, invalid: str) -> WordList:
    name, lines = _lines(source)
    dropped = dict.fromkeys(DROP_REASONS, 0)
    dropped_words: dict[str, list[str]] = {r: [] for r in DROP_REASONS if r != "other_length"}
    candidates: list[str] = []
    seen: set[str] = set()
    for lineno, text in lines:
        if text.lstrip().startswith("#"):
            continue
        for token in text.split():
            if not _is_ascii_word(token):
                if invalid == "error":
                    raise WordListError(f"{name}, line {lineno}: {quote(token)} is not a word "
                                        f"of ASCII letters")
                dropped["invalid"] += 1
                dropped_words["invalid"].append(token)
                continue
            word = token.lower()
            if len(word) != length:
                dropped["other_length"] += 1
            elif word in seen:
                dropped["duplicate"] += 1
                dropped_words["duplicate"].append(word)
            elif len(set(word)) != length:
                seen.add(word)
                dropped["repeated_letter"] += 1
                dropped_words["repeated_letter"].append(word)
            else:
                seen.add(word)
                candidates.append(word)

    if anagrams == "paper":
        sets: dict[frozenset[str], int] = {}
        for w in candidates:
            key = frozenset(w)
            sets[key] = sets.get(key, 0) + 1
        kept = [w for w in candidates if sets[frozenset(w)] == 1]
        removed = [w for w in candidates if sets[frozenset(w)] > 1]
    else:  # norvig
        by_set = {frozenset(w): w for w in candidates}
        kept = list(by_set.values())
        survivors = set(kept)
        removed = [w for w in candidates if w not in survivors]
    dropped["anagram"] = len(removed)
    dropped_words["anagram"] = removed
    if not kept:
        raise WordListError(f"{name}: no playable {length}-letter words (distinct letters, "
                            f"anagram rule {anagrams!r})")
    return _make(tuple(kept), length, anagrams, name, dropped,
                 {r: tuple(ws) for r, ws in dropped_words.items()})
