"""Decision trees of deterministic guessers over a word list.

A deterministic guesser's choice depends only on what it has heard, that is on the state S of
consistent targets, so against every target it walks one tree: node 0 is the first guess, and the
child for reply j is the state after hearing j.  The guesses a target needs are the depth of the
node where it is guessed, plus one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .game import popcount
from .words import WordList

__all__ = ["DecisionTree"]


@dataclass(frozen=True, eq=False)
class DecisionTree:
    """A guesser's decision tree, nodes depth-first with children by increasing reply.

    Attributes:
        words: the word list.
        guess: word index guessed at each node (``int32 [n]``).
        depth: guesses made before each node (root 0).
        size: targets still consistent at each node.
        children: ``int32 [n, L+1]``, the node after each reply, -1 where no target gives it
            (reply L never has a child: it ends the game).
    """

    words: WordList
    guess: np.ndarray
    depth: np.ndarray
    size: np.ndarray
    children: np.ndarray = field(repr=False)

    def __post_init__(self) -> None:
        for name in ("guess", "depth", "size", "children"):
            arr = np.ascontiguousarray(getattr(self, name), dtype=np.int32)
            arr.flags.writeable = False
            object.__setattr__(self, name, arr)

    def __len__(self) -> int:
        return int(self.guess.shape[0])

    def guesses_needed(self) -> np.ndarray:
        """Guesses the tree needs for each target (``int32 [D]``)."""
        D, L = len(self.words), self.words.length
        masks = self.words.masks
        node = np.zeros(D, dtype=np.int64)
        out = np.zeros(D, dtype=np.int32)
        live = np.arange(D)
        while live.size:
            g = self.guess[node[live]]
            r = popcount(masks[g] & masks[live])
            hit = r == L
            out[live[hit]] = self.depth[node[live[hit]]] + 1
            live, nxt = live[~hit], self.children[node[live[~hit]], r[~hit]]
            if (nxt < 0).any():
                bad = live[np.argmax(nxt < 0)]
                raise ValueError(f"the tree has no branch for target {self.words[bad]!r}")
            node[live] = nxt
        return out

    def path(self, target: int) -> list[int]:
        """The word indices guessed against ``target`` (index), the last one being it."""
        L = self.words.length
        masks = self.words.masks
        node, out = 0, []
        while True:
            g = int(self.guess[node])
            out.append(g)
            r = int(popcount(masks[g] & masks[target]))
            if r == L:
                return out
            node = int(self.children[node, r])
            if node < 0:
                raise ValueError(f"the tree has no branch for target {self.words[target]!r}")
