"""Which words the hider may hide: the secrets of the Jotto people play.

A person hides a word they know, so the game people play has its secrets among the common words
of the list while any word of the list may be guessed (Wordle's exact value is of this kind:
2,315 answers, 12,972 guesses).  ``hide_from`` (:func:`jotto.best_response`,
:func:`jotto.opener_values`, :func:`jotto.evaluate`; ``--hide-from`` on the command line) names
those secrets; :func:`hidden_words` is the one place that reads it:

- ``"sgb:N"``: the first ``N`` words of the bundled Stanford GraphBase list (5 letters), in the
  file's own order, which is by frequency of use, among the words of the list;
- ``"sgb"``: every word of that list that is a word of the list;
- a path, or ``"PATH:N"``: the words of a word file (one or more per line, ``#`` comments), all
  of them or the first ``N`` in the file's order, among the words of the list.

A word of the source that is not a word of the list (another length, a repeated letter the
rules drop, an anagram the rules do not keep) is passed over, so ``sgb:500`` is 500 words of
the list whenever the source has that many.  The hider's weights are then 1 on those words and
0 elsewhere (:func:`hide_from_weights`): weight-0 words cost nothing and are still found.
"""

from __future__ import annotations

import os
from dataclasses import replace

import numpy as np

from ..util.files import quote
from .words import BUNDLED, WordList, WordListError, load_words

__all__ = ["FREQUENCY_LISTS", "hidden_words", "hide_from_mask", "hide_from_weights"]

#: The bundled lists sorted by frequency of use, most common first (so ``NAME:N`` means the N
#: most common words).
FREQUENCY_LISTS = ("sgb",)


def _split(spec: str) -> tuple[str, int | None, str | None]:
    """(source, N or None, what is wrong or None) for a spec: ``NAME:N`` or ``PATH:N`` when
    the part before the last colon is a bundled list or an existing file."""
    head, colon, tail = spec.rpartition(":")
    if not colon or not (head in BUNDLED or os.path.isfile(head)):
        return spec, None, None
    if not tail.isdigit() or int(tail) == 0:
        return (
            head,
            None,
            f"the count after {head}: must be a positive whole number, not {quote(tail)}",
        )
    return head, int(tail), None


def hidden_words(
    words: WordList, spec: str | os.PathLike[str], option: str = "hide_from"
) -> np.ndarray:
    """The indices in ``words`` of the secrets ``spec`` names (see the module docstring), in
    the source's order (most common first for ``sgb``).

    :class:`ValueError`, one line starting with ``option`` and the spec, for a spec that is
    not ``sgb``, ``sgb:N``, a word file nor ``PATH:N``, a count that is not a positive whole
    number or more than the words the source has in the list, ``sgb`` at another length than
    5, and a source none of whose words is in the list."""
    if isinstance(spec, os.PathLike):
        spec = os.fspath(spec)
    if not isinstance(spec, str) or not spec:
        raise ValueError(f"{option}: expected sgb, sgb:N or a word file, not {quote(spec)}")
    source, count, wrong = _split(spec)
    if wrong:
        raise ValueError(f"{option} {spec}: {wrong}")
    if source in BUNDLED and source not in FREQUENCY_LISTS:
        raise ValueError(
            f"{option} {spec}: the bundled {source} list is not sorted by "
            f"frequency: use {' or '.join(FREQUENCY_LISTS)}, or a word file"
        )
    if source in FREQUENCY_LISTS and words.length != 5:
        raise ValueError(
            f"{option} {spec}: the Stanford GraphBase list has only 5-letter "
            f"words, not {words.length}"
        )
    if source not in FREQUENCY_LISTS and not os.path.isfile(source):
        raise ValueError(f"{option}: {quote(spec)} is not sgb, sgb:N nor a word file")
    # every word of the source's length in its own order, none dropped: membership is the list's
    keep_all = replace(words.rules, repeats=True, anagrams="keep-all")
    try:
        listed = load_words(source, length=words.length, rules=keep_all, invalid="skip")
    except WordListError as exc:
        raise ValueError(f"{option} {spec}: {exc}") from None
    found = [words.index(w) for w in listed if w in words]
    if not found:
        raise ValueError(
            f"{option} {spec}: none of the {len(words)} secrets of this game is among them"
        )
    if count is not None:
        if count > len(found):
            raise ValueError(
                f"{option} {spec}: only {len(found)} of its words are words of "
                f"the list, not {count}"
            )
        found = found[:count]
    return np.array(found, dtype=np.int64)


def hide_from_mask(
    words: WordList, spec: str | os.PathLike[str], option: str = "hide_from"
) -> np.ndarray:
    """``mask[i]``: whether the hider may hide word ``i`` (:func:`hidden_words`)."""
    mask = np.zeros(len(words), dtype=bool)
    mask[hidden_words(words, spec, option)] = True
    return mask


def hide_from_weights(
    words: WordList, spec: str | os.PathLike[str], option: str = "hide_from"
) -> np.ndarray:
    """The hider's integer weights: 1 on the words ``spec`` names, 0 elsewhere
    (:func:`hidden_words`), as :func:`jotto.best_response` takes them exactly."""
    return hide_from_mask(words, spec, option).astype(np.int64)
