"""Decision trees of deterministic guessers over a word list.

A deterministic guesser's choice depends only on what it has heard, that is on the state S of
consistent targets, so against every target it walks one tree: node 0 is the first guess, and the
child for reply j is the state after hearing j.  The guesses a target needs are the depth of the
node where it is guessed, plus one.

A tree can be saved as JSON (read back by :meth:`DecisionTree.load`, checked against the word
list it was made for), as GraphViz DOT, or as an indented text outline.  The JSON nests nodes the
way Norvig's notebook does, a guess and its branches by reply::

    {"format": "jotto-tree", "version": 1, "guesser": "<name>" or null,
     "words": {"words": [...], "length": L, "rules": {...}, "source": ..., "sha256": ...},
     "tree": {"guess": "<word>", "size": <targets>, "branches": {"<reply>": <node>, ...}}}

``branches`` is left out of a node without children; its keys are replies as strings, increasing:
reply codes of the list's rules (:meth:`jotto.game.rules.Rules.reply`: letters in common, and under
positional rules ``common + (L + 1) * in_place``).  Files without ``rules`` are the paper's.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..util.files import JSONInputError, parse_json, quote, read_bytes, write_atomic
from .turns import replies
from .words import WordList, WordListError

__all__ = [
    "DecisionTree",
    "TreeFileError",
    "policy_guesses",
    "tree_format",
    "tree_from_policy",
    "weight_by_guesses",
]

_FORMAT = "jotto-tree"
_VERSION = 1
_SUFFIXES = ".json (JSON), .dot or .gv (GraphViz DOT), .txt (outline)"


def tree_format(path: str | os.PathLike[str]) -> str:
    """The suffix of a file :meth:`DecisionTree.save` can write (``.json``, ``.dot``, ``.gv``,
    ``.txt``), lower case; :class:`ValueError` for any other, so a command can check its
    outputs before the work."""
    suffix = Path(path).suffix.lower()
    if suffix not in (".json", ".dot", ".gv", ".txt"):
        raise ValueError(
            f"{os.fspath(path)}: cannot tell a tree format from the suffix "
            f"{quote(suffix)}; use {_SUFFIXES}"
        )
    return suffix


class TreeFileError(ValueError):
    """A tree file cannot be used; the one-line message starts with the file name (``<string>``
    for text) and names the problem."""


@dataclass(frozen=True, eq=False)
class DecisionTree:
    """A guesser's decision tree, nodes depth-first with children by increasing reply.

    Attributes:
        words: the word list.
        guess: word index guessed at each node (``int32 [n]``).
        depth: guesses made before each node (root 0).
        size: targets still consistent at each node.
        children: ``int32 [n, R]`` (R = ``words.classes`` reply codes), the node after each
            reply, -1 where no target gives it (the win never has a child: it ends the game).
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

    def __repr__(self) -> str:
        counts = self.guesses_needed()
        return (
            f"DecisionTree({self.words.describe()}, {len(self)} nodes, first guess "
            f"{self.words[int(self.guess[0])]!r}, mean {counts.mean():.4f} guesses, worst "
            f"{int(counts.max())})"
        )

    def guesses_needed(self, targets: np.ndarray | None = None) -> np.ndarray:
        """Guesses the tree needs for each target (``int32 [D]``); with ``targets`` (word
        indices), for those only (0 for the other words)."""
        nodes, targets = self.visits(targets)
        found = self.guess[nodes] == targets
        out = np.zeros(len(self.words), dtype=np.int32)
        out[targets[found]] = self.depth[nodes[found]] + 1
        return out

    def visits(self, targets: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Every (node, target) pair of a target and a node its game passes through, the
        guess there being the target's last when it is the target: two ``intp`` arrays, root
        first, walked a level at a time for all targets at once (every word, or ``targets``:
        a tree of a state of the game is walked for the state's words)."""
        words = self.words
        targets = np.arange(len(words)) if targets is None else np.asarray(targets, np.intp)
        nodes = np.zeros(len(targets), dtype=np.intp)
        out: tuple[list[np.ndarray], list[np.ndarray]] = ([nodes], [targets])
        for _ in range(len(self) + 1):  # a path passes each node once
            if not targets.size:
                return np.concatenate(out[0]), np.concatenate(out[1])
            g = self.guess[nodes]
            on = g != targets
            nodes, targets, g = nodes[on], targets[on], g[on]
            child = self.children[nodes, replies(words, g, targets)]
            if (child < 0).any():
                bad = targets[child < 0][0]
                raise ValueError(f"the tree has no branch for target {words[bad]!r}")
            nodes = child.astype(np.intp)
            out[0].append(nodes)
            out[1].append(targets)
        raise ValueError("the tree's children lead back to a node (a cycle)")

    def node_after(self, history, state_size: int) -> int:
        """The node a game reaches, given its (guess index, reply) pairs, or -1 if the game left
        the tree (a guess that was not the tree's, a reply it has no branch for, or a node
        standing for another number of targets than ``state_size``)."""
        R, win = self.words.classes, self.words.win_code
        node = 0
        for g, r in history:
            if self.guess[node] != g or not 0 <= r < R or r == win or self.children[node, r] < 0:
                return -1
            node = int(self.children[node, r])
        return node if self.size[node] == state_size else -1

    def path(self, target: int) -> list[int]:
        """The word indices guessed against ``target`` (index), the last one being it."""
        node, out = 0, []
        while True:
            g = int(self.guess[node])
            out.append(g)
            if g == target:
                return out
            r = int(replies(self.words, g, [target])[0])
            node = int(self.children[node, r])
            if node < 0:
                raise ValueError(f"the tree has no branch for target {self.words[target]!r}")

    def _edges(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(parent, reply, child) of every edge, by parent then increasing reply."""
        parent, reply = np.nonzero(self.children >= 0)
        return parent, reply, self.children[parent, reply]

    def to_json(self, guesser: str | None = None) -> str:
        """The tree as a ``jotto-tree`` JSON document (see the module docstring), with the word
        list it was made for so that :meth:`from_json` can check it; ``guesser`` names the
        guesser whose tree this is."""
        words = self.words
        doc = {
            "format": _FORMAT,
            "version": _VERSION,
            "guesser": guesser,
            "words": words.to_record(),
            "tree": self.to_nodes(),
        }
        return json.dumps(doc, separators=(",", ":")) + "\n"

    def to_nodes(self) -> dict[str, Any]:
        """The root node as the JSON document nests it (``guess``, ``size``, ``branches``),
        for files that hold trees of a known word list."""
        words = self.words
        nodes: list[dict[str, Any]] = [
            {"guess": words[g], "size": int(s)}
            for g, s in zip(self.guess.tolist(), self.size.tolist())
        ]
        for p, r, c in zip(*(a.tolist() for a in self._edges())):
            nodes[p].setdefault("branches", {})[str(r)] = nodes[c]
        return nodes[0]

    @classmethod
    def from_nodes(cls, root: Any, words: WordList, name: str = "<tree>") -> DecisionTree:
        """The tree :meth:`to_nodes` gave, over ``words``, checked node by node as
        :meth:`from_json` checks a file (``name`` starts its errors)."""
        reader = _TreeReader(name)
        reader.words = words
        return reader.tree(root)

    def to_dot(self) -> str:
        """The tree as a GraphViz digraph named ``jotto``: each node labelled with its guess and
        the targets consistent there, leaves (one target) boxed, edges labelled with the reply."""
        lines = ["digraph jotto {", '  node [shape=ellipse, fontname="Helvetica"];']
        for n, (g, s) in enumerate(zip(self.guess.tolist(), self.size.tolist())):
            shape = ", shape=box" if s == 1 else ""
            lines.append(f'  n{n} [label="{_dot_escape(self.words[g])}\\n{s}"{shape}];')
        for p, r, c in zip(*(a.tolist() for a in self._edges())):
            lines.append(f'  n{p} -> n{c} [label="{r}"];')
        lines.append("}")
        return "\n".join(lines) + "\n"

    def to_outline(self) -> str:
        """The tree as an indented outline, one line per node in depth-first order: the root as
        ``guess (size)``, every other node as ``reply → guess (size)`` indented two spaces per
        depth."""
        reply = np.full(len(self), -1, dtype=np.int64)
        _, r, c = self._edges()
        reply[c] = r
        lines = []
        for n, (g, d, s) in enumerate(
            zip(self.guess.tolist(), self.depth.tolist(), self.size.tolist())
        ):
            via = f"{reply[n]} → " if n else ""
            lines.append(f"{'  ' * d}{via}{self.words[g]} ({s})")
        return "\n".join(lines) + "\n"

    def save(self, path: str | os.PathLike[str], guesser: str | None = None) -> None:
        """Write the tree atomically in the format its suffix names: ``.json`` (:meth:`to_json`,
        which records ``guesser``), ``.dot``/``.gv`` (:meth:`to_dot`) or ``.txt``
        (:meth:`to_outline`); :class:`ValueError` for any other suffix."""
        suffix = tree_format(path)
        if suffix == ".json":
            text = self.to_json(guesser)
        elif suffix in (".dot", ".gv"):
            text = self.to_dot()
        else:
            text = self.to_outline()
        write_atomic(path, text.encode("utf-8"))

    @classmethod
    def from_json(
        cls, text_or_path: str | os.PathLike[str], words: WordList | None = None
    ) -> DecisionTree:
        """The tree a ``jotto-tree`` JSON document holds, checked node by node.

        ``text_or_path`` is JSON text if it is a string starting (after white space) with ``{``
        or ``[``, else a path.  If ``words`` is given the document must be for that list (same
        SHA-256) and the tree uses it; otherwise the list stored in the document is rebuilt.

        Raises:
            TreeFileError: the file cannot be read, is not JSON, not a jotto tree or of another
                version, was made for another word list, or its tree is not one a guesser could
                play: a guess not in the list, a reply out of range, a size that is not the
                number of targets consistent with the path, a reply class with no branch or a
                branch no target reaches, or a guess that does not narrow its targets down.
        """
        if isinstance(text_or_path, str) and text_or_path.lstrip()[:1] in ("{", "["):
            return _TreeReader("<string>").read(text_or_path, words)
        return cls.load(text_or_path, words)

    @classmethod
    def load(cls, path: str | os.PathLike[str], words: WordList | None = None) -> DecisionTree:
        """The tree in the JSON file ``path`` (written by :meth:`save`); see :meth:`from_json`."""
        name = os.fspath(path)
        return _TreeReader(name).read(read_bytes(name, "tree file", TreeFileError), words)


def _dot_escape(text: str) -> str:
    """``text`` for a double-quoted DOT string: backslashes and quotes escaped."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _is_int(x: object) -> bool:
    """Whether ``x`` is a JSON integer (``True`` is an ``int`` to Python, not to us)."""
    return isinstance(x, int) and not isinstance(x, bool)


class _TreeReader:
    """Reads a ``jotto-tree`` document named ``name``, raising :class:`TreeFileError`.

    The tree is checked by walking it with the targets actually consistent at each node (all
    words at the root; a child gets those of its parent's that give its reply to the parent's
    guess): every guess must be a word of the list, every size the number of consistent targets,
    every reply a code of the list's rules other than the win, every non-empty reply class other
    than the win must have a branch and no empty one may, and every guess must narrow its targets
    down (else the guesser would loop).  Those
    checks also make every target guessed exactly once.
    """

    words: WordList  # the list the tree is read against, set by :meth:`read`

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, problem: str, trail: str = "") -> TreeFileError:
        """The error for ``problem``, naming the file and, for a node, the path to it."""
        where = f" (after {trail})" if trail else ""
        return TreeFileError(f"{self.name}: {problem}{where}")

    def read(self, text: str | bytes, words: WordList | None) -> DecisionTree:
        """The tree in ``text``, bound to ``words`` if given (it must be the stored list)."""
        doc = self.parse(text)
        stored = self.word_list(doc["words"])
        if words is not None and words.sha256 != stored.sha256:
            raise self.fail(
                f"made for another word list ({_describe(stored)}; given {_describe(words)})"
            )
        self.words = stored if words is None else words
        return self.tree(doc["tree"])

    def parse(self, text: str | bytes) -> dict[str, Any]:
        """The document, after checking it is JSON of this format and version."""
        try:
            doc = parse_json(text)
        except JSONInputError as exc:
            raise self.fail(str(exc)) from None
        if not isinstance(doc, dict) or doc.get("format") != _FORMAT:
            raise self.fail(f'not a jotto tree (no "format": "{_FORMAT}")')
        version = doc.get("version")
        if not _is_int(version) or version != _VERSION:
            raise self.fail(
                f"unknown jotto tree version {quote(version)} (this jotto reads version {_VERSION})"
            )
        self.keys(doc, {"format", "version", "words", "tree"}, {"guesser"}, "the document")
        if not isinstance(doc.get("guesser"), (str, type(None))):
            raise self.fail(f"guesser {quote(doc['guesser'])} is neither a name nor null")
        return doc

    def keys(
        self, obj: object, required: set[str], optional: set[str], what: str, trail: str = ""
    ) -> dict[str, Any]:
        """``obj``, checked to be an object with the ``required`` keys and no others but
        ``optional``."""
        if not isinstance(obj, dict):
            raise self.fail(f"{what} is not an object", trail)
        missing, unknown = required - obj.keys(), obj.keys() - required - optional
        if missing:
            raise self.fail(f"{what} has no {', '.join(map(repr, sorted(missing)))}", trail)
        if unknown:
            raise self.fail(
                f"{what} has unknown keys {', '.join(map(quote, sorted(unknown)[:5]))}", trail
            )
        return obj

    def word_list(self, d: object) -> WordList:
        """The stored word list and its rules (:meth:`WordList.from_record`), checked against
        its length and SHA-256."""
        d = self.keys(d, {"words", "length", "source", "sha256"}, {"rules", "anagrams"}, "words")
        try:
            wl = WordList.from_record(d, "words")
        except WordListError as exc:
            raise self.fail(str(exc)) from None
        return wl

    def node(self, obj: object, d: int, trail: str) -> tuple[int, int, dict[int, Any]]:
        """(guess index, size, branches by reply) of one node, its fields checked alone."""
        node = self.keys(obj, {"guess", "size"}, {"branches"}, f"the node at depth {d}", trail)
        words = self.words
        guess, size, branches = node["guess"], node["size"], node.get("branches", {})
        if not isinstance(guess, str) or guess not in words:
            raise self.fail(f"guess {quote(guess)} at depth {d} is not a word of the list", trail)
        if not _is_int(size):
            raise self.fail(f"size {quote(size)} at depth {d} is not a whole number", trail)
        if not isinstance(branches, dict):
            raise self.fail(f"branches at depth {d} are not an object", trail)
        by_reply: dict[int, Any] = {}
        for key, child in branches.items():
            if not (key.isascii() and key.isdigit() and (key == "0" or key[0] != "0")):
                raise self.fail(f"branch {quote(key)} at depth {d} is not a reply number", trail)
            # (no int() of a long key: Python refuses to convert more than 4300 digits)
            if len(key) > 9 or int(key) >= words.classes or int(key) == words.win_code:
                last = words.classes - 1
                codes = (
                    f"0..{last - 1}"
                    if words.win_code == last
                    else f"0..{last} except the win, {words.win_code}"
                )
                raise self.fail(
                    f"reply {quote(key, 20) if len(key) > 9 else key} at depth {d} "
                    f"is out of range {codes}",
                    trail,
                )
            by_reply[int(key)] = child
        return words.index(guess), size, by_reply

    def tree(self, root: object) -> DecisionTree:
        """Walk the tree depth-first with the consistent targets, checking each node, and
        number the nodes as :class:`DecisionTree` does (children by increasing reply)."""
        words = self.words
        guess: list[int] = []
        depth: list[int] = []
        size: list[int] = []
        edges: list[tuple[int, int, int]] = []
        stack = [(root, np.arange(len(words)), 0, -1, -1, "")]
        while stack:
            node, targets, d, parent, via, trail = stack.pop()
            n = len(guess)
            if parent >= 0:
                edges.append((parent, via, n))
            g, s, branches = self.node(node, d, trail)
            codes = replies(words, g, targets)
            self.check_split(g, s, branches, targets, codes, d, trail)
            guess.append(g)
            depth.append(d)
            size.append(s)
            step = f"{trail}, " if trail else ""
            for r in sorted(branches, reverse=True):
                stack.append(
                    (branches[r], targets[codes == r], d + 1, n, r, f"{step}{words[g]}→{r}")
                )
        children = np.full((len(guess), words.classes), -1, dtype=np.int32)
        for p, r, c in edges:
            children[p, r] = c
        return DecisionTree(words, np.array(guess), np.array(depth), np.array(size), children)

    def check_split(
        self,
        g: int,
        size: int,
        branches: dict[int, Any],
        targets: np.ndarray,
        replies: np.ndarray,
        d: int,
        trail: str,
    ) -> None:
        """Check a node guessing word ``g`` against its consistent ``targets`` and their
        ``replies`` to ``g``: its size, that it narrows them down, and its branches."""
        win, n = self.words.win_code, targets.size
        counts = np.bincount(replies, minlength=self.words.classes)
        if size != n:
            raise self.fail(
                f"size {size} at depth {d} does not match the {n} targets consistent "
                f"with the path to it",
                trail,
            )
        if counts[win] == 0 and counts.max() == n:
            raise self.fail(
                f"guess {self.words[g]!r} at depth {d} does not narrow down the {n} targets", trail
            )
        for r in range(self.words.classes):
            if r == win:
                continue
            if counts[r] and r not in branches:
                lost = _some(self.words.words, targets[replies == r])
                raise self.fail(
                    f"no branch for reply {r} at depth {d}, so the targets that "
                    f"give it ({lost}) are never guessed",
                    trail,
                )
            if not counts[r] and r in branches:
                raise self.fail(
                    f"branch for reply {r} at depth {d}, but no target consistent "
                    f"with the path to it gives that reply",
                    trail,
                )


def _some(names: tuple[str, ...], idx: np.ndarray, shown: int = 3) -> str:
    """The first ``shown`` words of ``idx`` and how many more."""
    out = ", ".join(repr(names[i]) for i in idx[:shown].tolist())
    return out + (f" and {idx.size - shown} more" if idx.size > shown else "")


def _describe(words: WordList) -> str:
    """A word list in a few words: where from, how many, and its SHA-256 prefix."""
    return f"{words.source}, {len(words)} words, sha256 {words.sha256[:12]}…"


def _policy_nodes(
    words: WordList, decide: Callable[[np.ndarray, int], int], state: np.ndarray, made: int
) -> Iterator[tuple[int, np.ndarray, int, int, int, int, list[int]]]:
    """The nodes of a deterministic guesser's tree from ``state`` after ``made`` guesses,
    depth-first, children by increasing reply: (node, its targets, guesses made before it, its
    guess, parent node or -1, the reply leading to it, its children's replies), each guess
    checked to narrow its state down."""
    D = len(words)
    stack: list[tuple[np.ndarray, int, int, int]] = [(state, made, -1, -1)]
    node = 0
    while stack:
        S, d, parent, code = stack.pop()
        g = int(decide(S, d))
        if not 0 <= g < D:
            raise ValueError(f"the guesser chose {g}, not a word index")
        others = S[S != g]
        r = replies(words, g, others)
        codes = np.unique(r).tolist()
        if len(others) == len(S) and len(codes) < 2:
            raise ValueError(
                f"the guesser chose {words[g]!r}, which does not narrow down the "
                f"{len(S)} words left"
            )
        yield node, S, d, g, parent, code, codes
        node += 1
        for c in reversed(codes):
            stack.append((others[r == c], d + 1, node - 1, c))


def tree_from_policy(words: WordList, decide: Callable[[np.ndarray, int], int]) -> DecisionTree:
    """The decision tree of a deterministic guesser given by its decision alone:
    ``decide(state, made)`` is the word index it guesses when the targets ``state`` (increasing
    indices) are consistent after ``made`` guesses.  Nodes depth-first, children by increasing
    reply.  :class:`ValueError` if a decision is not a word, or does not narrow its state down
    (a word outside it that leaves every target in one class: the game would never end)."""
    R = words.classes
    guess: list[int] = []
    depth: list[int] = []
    size: list[int] = []
    children: list[list[int]] = []
    for node, S, made, g, parent, code, _ in _policy_nodes(words, decide, np.arange(len(words)), 0):
        if parent >= 0:
            children[parent][code] = node
        guess.append(g)
        depth.append(made)
        size.append(len(S))
        children.append([-1] * R)
    return DecisionTree(
        words,
        np.array(guess),
        np.array(depth),
        np.array(size),
        np.array(children, dtype=np.int32).reshape(len(guess), R),
    )


def policy_guesses(
    words: WordList, decide: Callable[[np.ndarray, int], int], state: np.ndarray, made: int = 0
) -> np.ndarray:
    """On which guess (counting the ``made`` already made) a deterministic guesser, given by
    its decision as for :func:`tree_from_policy`, finds each target of ``state`` (increasing
    indices), in the state's order: its tree from a state a game reached."""
    S = np.asarray(state, dtype=np.intp)
    out = np.zeros(len(S), dtype=np.int64)
    position = {int(t): k for k, t in enumerate(S.tolist())}
    for _, targets, d, g, _, _, _ in _policy_nodes(words, decide, S, made):
        if g in position and (targets == g).any():
            out[position[g]] = d + 1
    return out


def weight_by_guesses(guesses: np.ndarray, weights) -> dict[int, int]:
    """The total integer weight of the targets needing each number of guesses, exactly (Python
    integers), by increasing guesses: ``{n: sum of weights[i] with guesses[i] = n}``, weights of
    0 left out.  With a hider's integer weights, what a race needs of a tree
    (:func:`jotto.players.races.guess_distribution`)."""
    out: dict[int, int] = {}
    for n, w in zip(np.asarray(guesses).tolist(), weights):
        if int(w):
            out[n] = out.get(n, 0) + int(w)
    return dict(sorted(out.items()))
