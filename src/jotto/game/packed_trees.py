"""Decision trees' arrays in the compact form strategy files keep them in.

An opener table holds a tree per opener and per reply class of a split one: at 1,000 common
secrets among Norvig's 2,845 words, some 3,000 trees of 3,000 nodes.  As the four ``int32``
arrays of :class:`~jotto.game.trees.DecisionTree` (guess, depth, size, and ``R`` children per
node) they made 415 MB of JSON, past the input limit of a ``--resume``.  Everything but the
guesses follows from two small numbers per node, so a tree is kept as four columns, node by node
depth-first (children by increasing reply), each deflated
(:func:`~jotto.util.strategy_file.encode_array`):

``guess``
    the word index guessed (``int16`` while the list has fewer than 32,768 words);
``depth``
    guesses made before the node (root 0; a node is one deeper than the nearest node before it
    that is one shallower: its parent);
``reply``
    the reply that leads to the node from its parent (0 at the root);
``found``
    1 if the node's guess is one of its targets (the game ends there for that target), else 0.

A node's size is ``found`` plus its children's sizes.  Deflated and in base64 a node takes
about 3 characters of JSON, against 48 as the four arrays: the table of 1,000 secrets (8.6
million nodes) is 28 MB of JSON.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..util.strategy_file import decode_array, encode_array
from .words import WordList

__all__ = ["pack_tree", "unpack_tree"]

_COLUMNS = ("guess", "depth", "reply", "found")


def pack_tree(
    guess: np.ndarray, depth: np.ndarray, size: np.ndarray, children: np.ndarray
) -> dict[str, Any]:
    """A tree's arrays (as :class:`~jotto.game.trees.DecisionTree` holds them) as JSON: the four
    deflated columns of the module's docstring."""
    guess, depth, size, children = (np.asarray(a) for a in (guess, depth, size, children))
    parents, codes = np.nonzero(children >= 0)
    kids = children[parents, codes]
    reply = np.zeros(len(guess), dtype=np.int64)
    reply[kids] = codes
    below = np.zeros(len(guess), dtype=np.int64)
    np.add.at(below, parents, size[kids])
    found = size - below
    return {
        name: encode_array(_narrow(column), deflate=True)
        for name, column in zip(_COLUMNS, (guess, depth, reply, found))
    }


def _narrow(a: np.ndarray) -> np.ndarray:
    """``a`` in the smallest of uint8, int16 and int32 that holds it."""
    low, high = (int(a.min()), int(a.max())) if a.size else (0, 0)
    for dtype in (np.uint8, np.int16):
        info = np.iinfo(dtype)
        if info.min <= low and high <= info.max:
            return a.astype(dtype)
    return a.astype(np.int32)


def unpack_tree(d: Any, words: WordList) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The arrays (guess, depth, size, children: ``int32``) of a tree :func:`pack_tree` stored
    for ``words``; :class:`ValueError` naming the problem if the columns do not make a tree
    of that list (a guess not a word, a depth that jumps, a reply out of range or out of order
    among its siblings, a node without targets)."""
    if not isinstance(d, dict) or set(d) != set(_COLUMNS):
        raise ValueError(f"a packed tree has the columns {', '.join(_COLUMNS)}")
    columns = [decode_array(d[name], f"tree {name}") for name in _COLUMNS]
    if any(c.dtype.kind not in "iu" for c in columns):
        raise ValueError("a packed tree's columns are not integers")
    guess, depth, reply, found = (c.astype(np.int64) for c in columns)
    n = len(guess)
    if n == 0 or any(a.shape != (n,) for a in (depth, reply, found)):
        raise ValueError("a packed tree's columns are not of one length")
    R, win = words.classes, words.win_code
    if guess.min() < 0 or guess.max() >= len(words):
        raise ValueError("a packed tree guesses an index that is not a word of the list")
    if not np.isin(found, (0, 1)).all():
        raise ValueError("a packed tree's found column is not 0 or 1")
    step = np.diff(depth)
    if depth[0] != 0 or (depth[1:] < 1).any() or (step > 1).any():
        raise ValueError("a packed tree's depths are not those of a tree depth-first")
    codes = reply[1:]
    if (codes < 0).any() or (codes >= R).any() or (codes == win).any():
        raise ValueError("a packed tree has a reply out of range (or the win, which ends it)")
    parent = np.full(n, -1, dtype=np.int64)
    levels = _levels(depth)
    for above, here in zip(levels, levels[1:]):
        parent[here] = above[np.searchsorted(above, here) - 1]
    by_parent = np.argsort(parent[1:], kind="stable") + 1
    same = parent[by_parent[1:]] == parent[by_parent[:-1]]
    if (reply[by_parent[1:]][same] <= reply[by_parent[:-1]][same]).any():
        raise ValueError("a packed tree's siblings are not in increasing reply order")
    size = found.copy()
    for here in reversed(levels[1:]):
        np.add.at(size, parent[here], size[here])
    if (size < 1).any():
        raise ValueError("a packed tree has a node no target reaches")
    children = np.full((n, R), -1, dtype=np.int32)
    children[parent[1:], reply[1:]] = np.arange(1, n)
    return (
        guess.astype(np.int32),
        depth.astype(np.int32),
        size.astype(np.int32),
        children,
    )


def _levels(depth: np.ndarray) -> list[np.ndarray]:
    """The nodes at each depth, in depth-first order."""
    order = np.argsort(depth, kind="stable")
    bounds = np.searchsorted(depth[order], np.arange(int(depth.max()) + 2))
    return [order[a:b] for a, b in zip(bounds, bounds[1:])]
