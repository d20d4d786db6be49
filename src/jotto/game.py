"""The rules of Jotto: replies, and the targets consistent with what the guesser has heard.

The reply to a guess is the number of letters it shares with the secret word (the paper's
NumCommLetts); the guesser's state is the set of targets consistent with every reply so far
(the paper's S; UpdateState, Algorithm 7, keeps the targets whose reply to the guess matches).
"""

from __future__ import annotations

from typing import Iterable, Protocol, Sequence, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike

from .words import WordList, letter_mask

__all__ = ["Guesser", "Hider", "consistent", "play", "popcount", "replies", "reply"]

#: A game so far: (guess index, reply) pairs in order.
History = Sequence[tuple[int, int]]

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


@runtime_checkable
class Guesser(Protocol):
    """The guessing side.  ``new_game`` starts a game (a mixed guesser draws its pure strategy
    here); ``next_guess`` gets the targets still consistent (increasing word indices) and the game
    so far, and returns the index of its next guess, which need not be consistent."""

    def new_game(self) -> None: ...

    def next_guess(self, state: np.ndarray, history: History) -> int: ...


@runtime_checkable
class Hider(Protocol):
    """The hiding side: a probability for every word (``distribution``), from which a secret is
    drawn (``secret``)."""

    def distribution(self) -> np.ndarray: ...

    def secret(self, rng: np.random.Generator) -> int: ...


def play(words: WordList, guesser: Guesser, target: int,
         max_guesses: int | None = None) -> list[tuple[int, int]]:
    """One game of ``guesser`` against the secret word ``target`` (index): the (guess, reply)
    pairs, the last reply being L if it found the target within ``max_guesses`` (default: D)."""
    L = words.length
    limit = len(words) if max_guesses is None else max_guesses
    guesser.new_game()
    state = np.arange(len(words))
    history: list[tuple[int, int]] = []
    while len(history) < limit:
        g = int(guesser.next_guess(state, history))
        if not 0 <= g < len(words):
            raise ValueError(f"the guesser returned {g}, not a word index")
        r = int(popcount(words.masks[g] & words.masks[target]))
        history.append((g, r))
        if r == L:
            break
        state = state[replies(words, g, state) == r]
    return history
