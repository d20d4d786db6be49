"""The rules of Jotto: replies, and the targets consistent with what the guesser has heard.

The reply to a guess is the number of letters it shares with the secret word (the paper's
NumCommLetts); the guesser's state is the set of targets consistent with every reply so far
(the paper's S; UpdateState, Algorithm 7, keeps the targets whose reply to the guess matches).
"""

from __future__ import annotations

from typing import Iterable

import numpy as np
from numpy.typing import ArrayLike

from .words import WordList, letter_mask

__all__ = ["consistent", "popcount", "replies", "reply"]

_BYTE_BITS = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


def popcount(x: ArrayLike) -> np.ndarray:
    """Bits set in each element of an unsigned 32-bit array."""
    a = np.asarray(x, dtype=np.uint32)
    flat = np.ascontiguousarray(a.reshape(-1))
    bits = _BYTE_BITS[flat.view(np.uint8)].reshape(-1, 4).sum(axis=1, dtype=np.int32)
    return bits.reshape(a.shape)


def reply(guess: str, target: str) -> int:
    """Letters the two words share (each word has distinct letters)."""
    return bin(letter_mask(guess.lower()) & letter_mask(target.lower())).count("1")


def replies(words: WordList, guess: int, targets: ArrayLike | None = None) -> np.ndarray:
    """Reply to word index ``guess`` of every target index (all words if ``targets`` is None)."""
    masks = words.masks if targets is None else words.masks[np.asarray(targets, dtype=np.intp)]
    return popcount(masks & words.masks[guess])


def consistent(words: WordList, history: Iterable[tuple[int, int]],
               state: ArrayLike | None = None) -> np.ndarray:
    """Indices of the targets consistent with ``history``, (guess index, reply) pairs, starting
    from ``state`` (all words if None); increasing."""
    S = np.arange(len(words)) if state is None else np.asarray(state, dtype=np.intp)
    for guess, r in history:
        S = S[replies(words, guess, S) == r]
    return S
