"""Playing Jotto: replies to guesses, and the targets consistent with what the guesser has heard.

The reply to a guess is a reply code of the word list's :class:`~jotto.game.rules.Rules` (under the
paper's rules, the number of letters the guess shares with the secret word: NumCommLetts); the
guesser's state is the set of targets consistent with every reply so far (the paper's S;
UpdateState, Algorithm 7, keeps the targets whose reply to the guess matches).  A game is won
when the guess is the secret word.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike

from .rules import Rules, parse_rules
from .words import WordList

__all__ = ["Guesser", "Hider", "consistent", "play", "player_repr", "popcount", "replies", "reply"]

#: A game so far: (guess index, reply code) pairs in order.
History = Sequence[tuple[int, int]]


_BYTE_BITS = np.array([bin(i).count("1") for i in range(256)], dtype=np.int32)


def popcount(x: ArrayLike) -> np.ndarray:
    """Bits set in each element of an unsigned integer array (as ``int32``; NumPy before 2.0
    has no ``bitwise_count``)."""
    a = np.asarray(x)
    flat = np.ascontiguousarray(a.reshape(-1))
    bits = _BYTE_BITS[flat.view(np.uint8)].reshape(-1, a.itemsize).sum(axis=1, dtype=np.int32)
    return bits.reshape(a.shape)


def reply(guess: str, target: str, rules: Rules | str | None = None) -> int:
    """The reply code to ``guess`` when the secret is ``target`` under ``rules`` (default the
    paper's: the letters the two words share); see :meth:`Rules.reply`."""
    return parse_rules(rules).reply(guess.lower(), target.lower())


def replies(
    words: WordList, guess: int | ArrayLike, targets: ArrayLike | None = None
) -> np.ndarray:
    """Reply code to word index ``guess`` of every target index (all words if ``targets`` is
    None), under the list's rules: the same codes as :meth:`Rules.reply`, computed from the
    token masks and spellings the core uses.  ``guess`` may also be an array of word indices,
    one per target: then each target's reply to its own guess."""
    T = np.arange(len(words)) if targets is None else np.asarray(targets, dtype=np.intp)
    L = words.length
    common = popcount(words.tokens[T] & words.tokens[guess])
    in_place = 0
    if words.spell is not None:
        diff = words.spell[T] ^ words.spell[guess]
        in_place = sum(
            ((diff >> np.uint64(8 * p)) & np.uint64(0xFF)) == 0 for p in range(L)
        ).astype(np.int32)
    codes = np.asarray(words.rules.reply_code(common, in_place, L, T == guess), dtype=np.int32)
    codes[T == guess] = words.win_code
    return codes


def consistent(
    words: WordList, history: Iterable[tuple[int, int]], state: ArrayLike | None = None
) -> np.ndarray:
    """Indices of the targets consistent with ``history``, (guess index, reply code) pairs,
    starting from ``state`` (all words if None); increasing."""
    S = np.arange(len(words)) if state is None else np.asarray(state, dtype=np.intp)
    for guess, r in history:
        S = S[replies(words, guess, S) == r]
    return S


def player_repr(player: object) -> str:
    """A player's repr: its class, name (spec) and word list, e.g.
    ``GBRGuesser('gbr:exact', 2780 words of 5 letters from enable)``."""
    name = getattr(player, "name", None)
    words = player.words.describe()  # type: ignore[attr-defined]
    return (
        f"{type(player).__name__}({name!r}, {words})"
        if name
        else f"{type(player).__name__}({words})"
    )


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


def play(
    words: WordList, guesser: Guesser, target: int, max_guesses: int | None = None
) -> list[tuple[int, int]]:
    """One game of ``guesser`` against the secret word ``target`` (index): the (guess, reply
    code) pairs, the last one being the target itself (reply ``words.win_code``) if it was found
    within ``max_guesses`` (default: D)."""
    limit = len(words) if max_guesses is None else max_guesses
    guesser.new_game()
    state = np.arange(len(words))
    history: list[tuple[int, int]] = []
    while len(history) < limit:
        g = int(guesser.next_guess(state, history))
        if not 0 <= g < len(words):
            raise ValueError(f"the guesser returned {g}, not a word index")
        r = int(replies(words, g, [target])[0])
        history.append((g, r))
        if g == target:
            break
        state = state[replies(words, g, state) == r]
    return history
