"""Which words people know: the words the computer hides when it plays as people do.

People hide words they know, so at the easy and medium levels the computer hides a *common*
word, while the words a person may guess stay the whole list (:mod:`jotto.play.vocabulary`).  Hard
plays the equilibrium hider, which may hide any word.  ``jotto play --hide-from`` chooses:

- ``common`` (the default at easy and medium): the best source installed, in this order:
  ``wordfreq`` (when the optional ``wordfreq`` package is installed: every length), else the
  bundled ``sgb`` list (5 letters only), else every word (``all``), said so at the start.
- ``wordfreq``: words used at least once per million words of English (Zipf frequency >= 3, the
  ``wordfreq`` package's measure over many corpora): 810 of the 2780 five-letter secrets of the
  default list, 269 of 415 three-letter ones.
- ``sgb``: the 5,757 five-letter words of Knuth's *Stanford GraphBase*, chosen for being common
  English words (bundled): 1739 of the 2780 five-letter secrets of the default list.
- ``all``: every secret of the list (the default at hard).
- ``sgb:N``: the first N of those in the list's own order, which is by frequency of use: the
  N most common (:mod:`jotto.game.hiding`).
- a file: the words in it (one or more per line) that are secrets of the game; ``FILE:N``,
  the first N of them.

Licences: jotto is MIT-licensed.  ``wordfreq``'s code is Apache-2.0 but its frequency data are
CC BY-SA 4.0 (with attribution terms of their own for the SUBTLEX part): ranks derived from them
and shipped here would be an adaptation under the share-alike licence, which jotto's licence
cannot carry, so none is bundled: ``wordfreq`` is an optional extra, read at run time where the
user installed it (``pip install 'jotto[common]'``).  Knuth's list may be copied freely if
unchanged, and is bundled unchanged (``jotto/data/SOURCES.md``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from ..game.hiding import FREQUENCY_LISTS, hide_from_mask
from ..game.words import WordList
from ..util.files import quote

__all__ = ["SOURCES", "ZIPF_COMMON", "HidingSet", "hiding_set"]

#: Zipf frequency (log10 of uses per billion words) from which ``wordfreq`` calls a word common:
#: once per million words.
ZIPF_COMMON = 3.0
#: The named choices of ``--hide-from`` (anything else is a file).
SOURCES = ("common", "wordfreq", "sgb", "all")


@dataclass(frozen=True)
class HidingSet:
    """The secrets the computer may hide: ``mask[i]`` for word ``i`` of the list, and which they
    are, said at the start of a game after the word it hid (``"one of the 810 common ones (by
    wordfreq)"``; empty when it may hide any word, as usual)."""

    mask: np.ndarray
    about: str

    @property
    def count(self) -> int:
        return int(self.mask.sum())


def _wordfreq_mask(words: WordList) -> np.ndarray:
    try:
        from wordfreq import zipf_frequency
    except ImportError:
        raise ImportError(
            "--hide-from wordfreq needs the optional wordfreq package: pip install "
            "'jotto[common]' (from a source checkout: pip install '.[common]')"
        ) from None
    return np.array([zipf_frequency(w, "en") >= ZIPF_COMMON for w in words], dtype=bool)


def _sgb_mask(words: WordList) -> np.ndarray:
    return hide_from_mask(words, "sgb", "--hide-from")


def _file_mask(words: WordList, path: str) -> np.ndarray:
    if not os.path.isfile(path) and not _counted(path):
        raise ValueError(
            f"--hide-from: {quote(path)} is not one of {', '.join(SOURCES)} nor a file"
        )
    return hide_from_mask(words, path, "--hide-from")


def _counted(spec: str) -> bool:
    """Whether ``spec`` is ``sgb:N`` or ``FILE:N`` (:mod:`jotto.game.hiding` checks N)."""
    head, colon, _ = spec.rpartition(":")
    return bool(colon) and (head in FREQUENCY_LISTS or os.path.isfile(head))


def _wordfreq_installed() -> bool:
    try:
        import wordfreq  # noqa: F401
    except ImportError:
        return False
    return True


def hiding_set(words: WordList, source: str = "common") -> HidingSet:
    """The words of ``words`` the computer may hide, by ``source`` (see the module docstring).

    :class:`ValueError` (one line) for a source that has nothing for this list: ``sgb`` at
    another length, a file none of whose words is a secret; :class:`ImportError` for
    ``wordfreq`` when it is not installed.  ``common`` never fails: with no source for the
    length it is every word, and says so."""
    D = len(words)
    if source == "all":
        return HidingSet(np.ones(D, dtype=bool), "")
    auto = source == "common"
    if auto:
        if _wordfreq_installed():
            source = "wordfreq"
        elif words.length == 5:
            source = "sgb"
        else:
            return HidingSet(
                np.ones(D, dtype=bool),
                f"any of them (no list of common {words.length}-letter words here: "
                f"pip install 'jotto[common]' adds one)",
            )
    if source == "wordfreq":
        mask, what = _wordfreq_mask(words), "common ones (by wordfreq)"
    elif source == "sgb":
        mask, what = _sgb_mask(words), "common ones (in the Stanford GraphBase list)"
    elif source.startswith("sgb:") and _counted(source):
        mask = _file_mask(words, source)
        what = "most common ones (by the Stanford GraphBase list's order)"
    else:
        mask, what = _file_mask(words, source), f"in {source}"
    n = int(mask.sum())
    if n == 0 and auto:
        return HidingSet(np.ones(D, dtype=bool), "any of them (none is common by wordfreq)")
    if n == 0:
        raise ValueError(
            f"--hide-from {source}: none of the {D} secrets of this game is among them"
        )
    return HidingSet(mask, f"one of the {n} {what}")
