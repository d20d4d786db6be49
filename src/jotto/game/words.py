"""Jotto word lists: reading, the rules that make a list playable, and letter masks.

A Jotto word list holds words of one length, played under one :class:`~jotto.game.rules.Rules`: the
rules say whether words may repeat letters and what happens to words sharing their letters
(anagrams).  :func:`load_words` reads any source, keeps the words the rules allow and returns an
immutable :class:`WordList`: the words in source order, their 26-bit letter sets (bit k is the
letter ``'a' + k``), the rules with the core's view of the words (token masks, spellings), what
was dropped and why, and a SHA-256 that strategy files bind to.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from typing import IO, Union

import numpy as np

from ..engine import core
from ..util.files import gunzip, input_limit, quote, read_bytes
from .rules import Rules, RulesError, anagram_rule, parse_rules

__all__ = [
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

#: Why words were dropped, in the order the rules apply.
DROP_REASONS = ("invalid", "other_length", "duplicate", "repeated_letter", "anagram")

_WHY_DROPPED = {
    "repeated_letter": "it repeats a letter, and these rules play words with distinct letters",
    "anagram": "another word has the same letters, and these rules keep {kept}",
    "invalid": "it is not a word of ASCII letters",
}
_ANAGRAMS_KEPT = {"drop": "no such word", "keep-one": "one of them"}

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
        masks: their letter sets (read-only ``uint32`` array, bit k is ``'a' + k``).
        length: letters per word.
        rules: the rules the list is played under (they chose its words).
        source: where the words came from (bundled name, path, or a description).
        dropped: how many tokens each rule dropped, by reason (see :data:`DROP_REASONS`).
        sha256: hex SHA-256 of the words in order, one per line (``"\\n".join(words) + "\\n"``).
    """

    words: tuple[str, ...]
    masks: np.ndarray = field(repr=False)
    length: int
    rules: Rules
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
        return f"WordList({self.describe()}, rules={self.rules.name!r}, sha256={self.sha256[:12]}…)"

    def describe(self) -> str:
        """The list in a few words: ``2780 words of 5 letters from enable``."""
        return f"{len(self.words)} words of {self.length} letters from {self.source}"

    def index(self, word: str) -> int:
        """Position of ``word`` (any case); :class:`KeyError` naming it if it is not here."""
        try:
            return self._index[word.lower()]
        except KeyError:
            kept = _ANAGRAMS_KEPT.get(self.rules.anagrams, "")
            why = next(
                (
                    f"; {_WHY_DROPPED[reason].format(kept=kept)}"
                    for reason, dropped in self._dropped_words.items()
                    if reason in _WHY_DROPPED and word.lower() in dropped
                ),
                "",
            )
            raise KeyError(
                f"{quote(word)} is not in this word list ({self.source}, "
                f"{self.length} letters{why})"
            ) from None

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
    def tokens(self) -> np.ndarray:
        """The core's token masks (read-only ``uint64``): letters in common between two
        different words are the popcount of their AND (see :meth:`Rules.tokens`)."""
        out = self.rules.tokens(self.words)
        out.flags.writeable = False
        return out

    @cached_property
    def spell(self) -> np.ndarray | None:
        """The words packed one letter per byte for positional replies, else None (see
        :meth:`Rules.spellings`)."""
        out = self.rules.spellings(self.words)
        if out is not None:
            out.flags.writeable = False
        return out

    @property
    def classes(self) -> int:
        """How many reply codes there are (:meth:`Rules.classes`)."""
        return self.rules.classes(self.length)

    @property
    def win_code(self) -> int:
        """The reply code of a guess that is the secret (:meth:`Rules.win_code`)."""
        return self.rules.win_code(self.length)

    @cached_property
    def core(self) -> core.Words:
        """The list as the compiled core holds it, with its rules (built once, on first use):
        the one place a rule set becomes the engine's flags (anagrams kept, positional replies
        by the spellings, hard mode); the engine's trees, decisions and searches read them, its
        reply codes, win code and branching from here."""
        if len(self.words) > core.MAX_WORDS:
            raise WordListError(
                f"{self.source}: {len(self.words)} words; the core takes at most {core.MAX_WORDS}"
            )
        return core.Words(
            np.ascontiguousarray(self.tokens),
            self.length,
            self.spell,
            keep_all=self.rules.anagrams == "keep-all",
            hard=self.rules.hard,
        )

    def to_record(self) -> dict[str, object]:
        """The list as strategy and tree files record it: words, length, rules, source, SHA-256
        (:meth:`from_record` reads it back)."""
        return {
            "words": list(self.words),
            "length": self.length,
            "rules": self.rules.to_dict(),
            "source": self.source,
            "sha256": self.sha256,
        }

    @classmethod
    def from_record(cls, d: Mapping[str, object], where: str) -> WordList:
        """The list a file records (:meth:`to_record`), checked against its own SHA-256.  Files
        written before rule sets existed carry ``anagrams`` (``paper``, ``norvig`` or ``given``)
        instead of ``rules``: the paper's rules, or Norvig's.  :class:`WordListError` naming
        ``where`` and the field otherwise."""
        if not isinstance(d, Mapping):
            raise WordListError(f"{where}: not an object")
        for key in ("words", "length", "source", "sha256"):
            if key not in d:
                raise WordListError(f"{where}.{key}: missing")
        if "rules" in d:
            try:
                rules = Rules.from_dict(d["rules"], f"{where}.rules")  # type: ignore[arg-type]
            except RulesError as exc:
                raise WordListError(str(exc)) from None
        elif d.get("anagrams") in ("paper", "given", "norvig"):
            rules = parse_rules("norvig" if d["anagrams"] == "norvig" else "paper")
        else:
            raise WordListError(f"{where}.rules: missing")
        words = d["words"]
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            raise WordListError(f"{where}.words: not a list of words")
        try:
            wl = cls.from_words(words, source=str(d["source"]), rules=rules)
        except WordListError as exc:
            raise WordListError(f"{where}.words: {exc}") from None
        if wl.length != d["length"]:
            raise WordListError(
                f"{where}.length is {quote(d['length'])} but the words have {wl.length} letters"
            )
        if wl.sha256 != d["sha256"]:
            raise WordListError(
                f"{where}: the word list does not match its sha256 (the file is "
                f"corrupt or was edited)"
            )
        return wl

    @classmethod
    def from_words(
        cls, words: Sequence[str], *, source: str = "<words>", rules: Rules | str | None = None
    ) -> WordList:
        """A list taken as given: every word must already be playable under ``rules`` (same
        length, ASCII letters, repeated letters only if the rules allow them, words sharing
        their letters only under ``keep-all``); nothing is dropped."""
        the_rules = _rules_of(rules, None)
        words = tuple(w.lower() for w in words)
        if not words:
            raise WordListError(f"{source}: no words")
        length = len(words[0])
        seen: dict[str, str] = {}
        for w in words:
            if len(w) != length or not _is_ascii_word(w):
                raise WordListError(f"{source}: {quote(w)} is not a word of {length} ASCII letters")
            why = the_rules.why_not_secret(w)
            if why:
                raise WordListError(
                    f"{source}: {quote(w)} {why.removeprefix('it ')} (rules {the_rules.name})"
                )
            key = the_rules.letter_key(w)
            if key in seen and (w == seen[key] or the_rules.anagrams != "keep-all"):
                raise WordListError(
                    f"{source}: {quote(w)} and {quote(seen[key])} share their "
                    f"letters (rules {the_rules.name})"
                )
            seen[key] = w
        return _make(words, length, the_rules, source, dict.fromkeys(DROP_REASONS, 0), {})


def _is_ascii_word(token: str) -> bool:
    return token.isascii() and token.isalpha()


def _rules_of(rules: Rules | str | None, anagrams: str | None) -> Rules:
    """The rules named by ``rules`` (a preset, fine options, or Rules), with ``anagrams`` (if
    given) replacing their anagram rule; :class:`ValueError` naming a bad one."""
    the_rules = parse_rules(rules)
    if anagrams is not None:
        the_rules = Rules(**{**the_rules.to_dict(), "anagrams": anagram_rule(anagrams)})
    return the_rules


def _make(
    words: tuple[str, ...],
    length: int,
    rules: Rules,
    source: str,
    dropped: dict[str, int],
    dropped_words: dict[str, tuple[str, ...]],
) -> WordList:
    masks = np.fromiter((letter_mask(w) for w in words), dtype=np.uint32, count=len(words))
    masks.flags.writeable = False
    digest = hashlib.sha256(("\n".join(words) + "\n").encode("ascii")).hexdigest()
    wl = WordList(
        words=words,
        masks=masks,
        length=length,
        rules=rules,
        source=source,
        dropped=dict(dropped),
        sha256=digest,
        _dropped_words=dropped_words,
        _index={w: i for i, w in enumerate(words)},
    )
    try:
        wl.tokens, wl.spell  # noqa: B018 -- the core's limits, checked while the source is known
    except RulesError as exc:
        raise WordListError(f"{source}: {exc}") from None
    return wl


def _text(source: Source) -> tuple[str, str | list[str]]:
    """(name, text) for any source: the whole text of a file, or the items of an iterable (each
    read as a line)."""
    if source is None:
        source = DEFAULT_SOURCE
    if isinstance(source, str) and source in BUNDLED:
        filename = BUNDLED[source][0]
        data = resources.files("jotto").joinpath("data", filename).read_bytes()
        if filename.endswith(".gz"):
            data = gzip.decompress(data)
        return source, data.decode("ascii")
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        what = f"file (bundled lists: {', '.join(BUNDLED)})" if isinstance(source, str) else "file"
        raw = read_bytes(path, what, WordListError)
        other = _other_jotto_file(raw)
        if other:
            raise WordListError(f"{path} is not a word list: it looks like {other}")
        if path.endswith(".gz"):
            try:
                raw = gunzip(raw, path, WordListError)
            except (OSError, EOFError, zlib.error) as exc:
                raise WordListError(f"{path}: not a readable gzip file ({exc})") from None
        return path, _decode(raw, path)
    if isinstance(source, (io.IOBase,)) or hasattr(source, "read"):
        name = str(getattr(source, "name", "<file>"))
        limit = input_limit()
        text = source.read(limit + 1)  # type: ignore[union-attr]
        if len(text) > limit:
            raise WordListError(
                f"{name}: more than {limit >> 20} MiB, the input limit (set "
                f"JOTTO_MAX_INPUT_MB to raise it)"
            )
        if isinstance(text, bytes):
            text = _decode(text, name)
        return name, text
    if isinstance(source, (bytes, bytearray)):
        raise WordListError(
            "a word list source may be a path, a file, or an iterable of words, not bytes"
        )
    try:
        items = list(source)  # type: ignore[arg-type]
    except TypeError:
        raise WordListError(
            f"cannot read words from {quote(source)} (a {type(source).__name__})"
        ) from None
    for i, item in enumerate(items, 1):
        if not isinstance(item, str):
            raise WordListError(f"<words>, item {i}: {quote(item)} is not a string")
    return "<words>", items


def _other_jotto_file(raw: bytes) -> str | None:
    """What a file that is not a word list holds, with the option that takes it, if it is one
    of jotto's own files (strategy files are gzip-compressed JSON, tree files JSON); None
    otherwise."""
    head = raw[:4096]
    if head.startswith(b"\x1f\x8b"):
        try:
            head = zlib.decompressobj(wbits=31).decompress(raw[:65536], 4096)
        except zlib.error:
            return None
    if not head.lstrip().startswith(b"{"):
        return None
    if b'"jotto-strategy"' in head:
        return (
            "a strategy file (jotto solve -o): pass it with --strategy FILE (play, assist) "
            "or as a player, -g equilibrium:FILE or -H equilibrium:FILE (evaluate)"
        )
    if b'"jotto-tree"' in head:
        return "a decision tree file (jotto tree -o): pass it as a guesser, -g tree:FILE"
    return None


def _decode(raw: bytes, name: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise WordListError(f"{name}, line {line}: bytes that are not UTF-8 text") from None


@lru_cache(maxsize=16)
def _load_bundled(name: str, length: int, rules: Rules, invalid: str) -> WordList:
    return _load(name, length, rules, invalid)


def load_words(
    source: Source = None,
    *,
    length: int = 5,
    rules: Rules | str | None = None,
    anagrams: str | None = None,
    invalid: str = "error",
) -> WordList:
    """Read a Jotto word list.

    Args:
        source: ``None`` (the bundled default, ENABLE), a bundled name (``"enable"``, ``"sgb"``),
            a path (``.gz`` is decompressed), an open file (text or binary), or an iterable of
            words.  Tokens are separated by white space; blank lines and lines starting
            with ``#`` (comments, or the markers some TWL06 copies put on a few long words)
            are skipped.
        length: letters per word, 1 to 26.
        rules: the rules to play under: a :class:`~jotto.game.rules.Rules`, a preset name
            (``"paper"``, the default; ``"norvig"``, ``"perl"``, ``"eckler"``, ``"positional"``,
            ``"hard"``) or a preset with fine options (``"eckler,hard"``), see
            :func:`~jotto.game.rules.parse_rules`.
        anagrams: replaces the rules' anagram rule: ``"drop"``, ``"keep-one"``, ``"keep-all"``
            (or the older names ``"paper"`` = drop, ``"norvig"`` = keep-one).
        invalid: what to do with a token that is not ASCII letters: ``"error"`` (raise, naming
            file, line and token) or ``"skip"`` (drop it and count it under ``invalid``).

    Words are compared case-insensitively and stored in lower case.  A word given twice is kept
    once (counted under ``duplicate``); words with a repeated letter are dropped unless the rules
    allow them; then the anagram rule resolves words that share their letters.

    Raises:
        WordListError: unreadable source, invalid token, or no playable word of that length.
        ValueError: a bad ``length``, ``rules``, ``anagrams`` or ``invalid`` argument
            (:class:`~jotto.game.rules.RulesError` for the rules).
    """
    if isinstance(length, bool) or not isinstance(length, (int, np.integer)):
        raise ValueError(f"length must be an integer from 1 to 26, not {quote(length)}")
    if not 1 <= length <= 26:
        raise ValueError(f"length must be from 1 to 26 letters, not {length}")
    the_rules = _rules_of(rules, anagrams)
    if invalid not in ("error", "skip"):
        raise ValueError(f"invalid must be 'error' or 'skip', not {quote(invalid)}")
    if source is None or (isinstance(source, str) and source in BUNDLED):
        return _load_bundled(source or DEFAULT_SOURCE, int(length), the_rules, invalid)
    return _load(source, int(length), the_rules, invalid)


def _words_of_length(
    name: str,
    text: str | list[str],
    length: int,
    invalid: str,
    dropped: dict[str, int],
    dropped_words: dict[str, list[str]],
) -> Iterator[str]:
    """The tokens of the text that are words of the length, lower-cased, in order; counts the
    others in ``dropped`` (and the invalid ones in ``dropped_words``), or raises naming the line
    of the first invalid token."""
    tokens = _plain_tokens(text) if isinstance(text, str) else None
    if tokens is not None:
        words = [token for token in tokens if len(token) == length]
        dropped["other_length"] += len(tokens) - len(words)
        yield from words
        return
    lines = text.splitlines() if isinstance(text, str) else text
    for lineno, line in enumerate(lines, 1):
        if line.lstrip().startswith("#"):
            continue
        for token in line.split():
            if not _is_ascii_word(token):
                if invalid == "error":
                    raise WordListError(
                        f"{name}, line {lineno}: {quote(token)} is not a word of ASCII letters"
                    )
                dropped["invalid"] += 1
                dropped_words["invalid"].append(token)
                continue
            if len(token) != length:
                dropped["other_length"] += 1
            else:
                yield token.lower()


def _plain_tokens(text: str) -> list[str] | None:
    """The tokens of a text without comments whose every token is ASCII letters, lower-cased;
    None for any other text, which is read line by line to name what is wrong where.  Checked
    and split in bulk, the bundled ENABLE list's 173,000 tokens take milliseconds, where token by
    token they took half a second of every command that loads it."""
    if "#" in text or not text.isascii():
        return None
    tokens = text.lower().split()
    return tokens if "".join(tokens).isalpha() else None


def _load(source: Source, length: int, rules: Rules, invalid: str) -> WordList:
    name, text = _text(source)
    dropped = dict.fromkeys(DROP_REASONS, 0)
    dropped_words: dict[str, list[str]] = {r: [] for r in DROP_REASONS if r != "other_length"}
    candidates: list[str] = []
    seen: set[str] = set()
    for word in _words_of_length(name, text, length, invalid, dropped, dropped_words):
        if word in seen:
            dropped["duplicate"] += 1
            dropped_words["duplicate"].append(word)
        elif rules.why_not_secret(word):
            seen.add(word)
            dropped["repeated_letter"] += 1
            dropped_words["repeated_letter"].append(word)
        else:
            seen.add(word)
            candidates.append(word)

    kept, removed = rules.select(candidates)
    dropped["anagram"] = len(removed)
    dropped_words["anagram"] = removed
    if not kept:
        raise WordListError(
            f"{name}: no playable {length}-letter words under the rules {rules.name}"
        )
    return _make(
        tuple(kept), length, rules, name, dropped, {r: tuple(ws) for r, ws in dropped_words.items()}
    )
