"""The double oracle's restricted game in behaviour strategies: the guesser mixes at every state,
not only over whole trees.

A state is the set of hidden words still consistent with the replies so far.  Every decision tree
the double oracle has drawn chooses one guess at each state its games reach; the *state graph*
holds every (state, guess) pair of every tree, with the reply classes the guess splits the state
into.  A guesser that, at each state of the graph, picks one of the guesses some tree picked
there (at random, with probabilities of its own) is a *behaviour strategy*; the chance that a
game against a secret ``t`` reaches a state is the same for every ``t`` in it, so the
strategy is a *flow*: ``x[S, g]``, the chance of reaching S and guessing g there, with
``sum_g x[S, g]`` equal to the flow into S from the classes of the pairs above (1 at the root).
The guesses a secret needs are the flow through the states that hold it, and the restricted game
is one linear programme (:class:`FlowGame`), its hider the duals of the secrets' rows.

Every mixture of the trees is such a flow (the trees' flows, mixed), and a flow can combine the
subtrees of different trees where they reach the same state, so the flow game's value is at most
the tree game's (:class:`jotto.solvers.matrix_game.GrowingGame` over the same trees).  Measured
at 100 common secrets of Norvig's list (one thread each, the same searches, side by side): after
45 rounds the tree game's value was 4.095 and the flow game's 4.013; after 75 s of CPU 4.037
and 3.977 (docs/common-words.md).

A flow is not stored as such: it is split into a mixture of trees (:meth:`FlowGame.solve`, each
tree a choice of one guess per state reached, weighed by the least flow it uses, taken away
until the flow is spent), which :meth:`FlowGame.tree` turns into a :class:`DecisionTree` over the
whole list.  The mixture's worst case is computed exactly from its trees' guess counts, so the
upper bound it certifies does not rest on the LP's floating point.
"""

from __future__ import annotations

from dataclasses import dataclass

import highspy
import numpy as np

from ...game.trees import DecisionTree
from ...game.turns import replies
from ...game.words import WordList
from ..matrix_game import value_lp

__all__ = ["FlowGame", "FlowSolution"]

#: Flows below this are taken as none when the flow is split into trees.
_TINY = 1e-12


@dataclass(frozen=True)
class FlowSolution:
    """The flow game's solution: its value (float), the hider's mixture over the hidden words
    (``p``, the LP's duals), and the guesser's flow split into trees: ``policies[k]`` maps the
    state ids its games reach to the pair chosen there, ``weights[k]`` is its probability and
    ``counts[:, k]`` the guesses it needs for each hidden word."""

    value: float
    p: np.ndarray
    policies: list[dict[int, int]]
    weights: np.ndarray
    counts: np.ndarray


class FlowGame:
    """The state graph of the trees added so far and its LP (HiGHS, warm-started round after
    round as :class:`GrowingGame` is).

    Variable 0 is the value v; rows 0..n-1 (one per hidden word ``t``): the flow through the
    states holding ``t``, minus v, at most 0; then one row per state: the flow out of it minus
    the flow into it, 1 at the root and 0 elsewhere; one variable per (state, guess) pair.
    """

    def __init__(self, words: WordList, rows: np.ndarray):
        self.words = words
        self.rows = np.asarray(rows, dtype=np.int64)
        n = len(self.rows)
        self._pos = np.full(len(words), -1, dtype=np.int64)
        self._pos[self.rows] = np.arange(n)
        self._state_id: dict[bytes, int] = {}
        self.states: list[np.ndarray] = []  # each state's hidden words, as positions in ``rows``
        self._state_pairs: list[list[int]] = []
        # pairs: (state id, guess, class state ids)
        self.pairs: list[tuple[int, int, list[int]]] = []
        self._pair_id: dict[tuple[int, int], int] = {}
        self._inf = highspy.kHighsInf
        self._highs = value_lp(n)
        self.root = self._state(np.arange(n, dtype=np.int64))

    def _state(self, positions: np.ndarray) -> int:
        """The id of the state holding these hidden words (sorted positions), made if new."""
        key = positions.tobytes()
        sid = self._state_id.get(key)
        if sid is None:
            sid = len(self.states)
            self._state_id[key] = sid
            self.states.append(positions)
            self._state_pairs.append([])
            rhs = 1.0 if sid == 0 else 0.0
            self._highs.addRow(rhs, rhs, 0, np.zeros(0, dtype=np.int32), np.zeros(0))
        return sid

    def add_tree(self, tree: DecisionTree) -> int:
        """Add the (state, guess) pairs of a tree's nodes; how many were new.  A node whose
        guess splits only words the hider may not hide (its hidden words all in one class) is
        passed over: the flow skips that guess."""
        nodes, targets = tree.visits()
        pos = self._pos[targets]
        keep = pos >= 0
        nodes, pos = nodes[keep], pos[keep]
        order = np.lexsort((pos, nodes))
        nodes, pos = nodes[order], pos[order]
        cut = np.flatnonzero(np.diff(nodes)) + 1
        new = 0
        for first, S in zip(np.concatenate([[0], cut]), np.split(pos, cut)):
            new += self._add_pair(S, int(tree.guess[nodes[first]]))
        return new

    def _add_pair(self, S: np.ndarray, g: int) -> bool:
        """Add guess ``g`` at the state of hidden words ``S`` (positions) and its column,
        unless the graph has it or it does not narrow the state down; whether it was added."""
        sid = self._state(S)
        if (sid, g) in self._pair_id:
            return False
        words = self.rows[S]
        others = words != g
        r = replies(self.words, g, words[others])
        if len(np.unique(r)) < 2 and others.all():
            return False  # a class equal to the state: the guess does not narrow it down
        kept = S[others]
        classes = [self._state(kept[r == c]) for c in np.unique(r).tolist()]
        pid = len(self.pairs)
        self._pair_id[(sid, g)] = pid
        self.pairs.append((sid, g, classes))
        self._state_pairs[sid].append(pid)
        n = len(self.rows)
        index = np.concatenate([S, [n + sid], [n + c for c in classes]]).astype(np.int32)
        value = np.concatenate([np.ones(len(S) + 1), -np.ones(len(classes))])
        self._highs.addCol(0.0, 0.0, self._inf, len(index), index, value)
        return True

    def solve(self) -> FlowSolution:
        """The flow game's optimal flow and hider, the flow split into trees (see the module
        docstring)."""
        h = self._highs
        h.run()
        if h.getModelStatus() != type(h.getModelStatus()).kOptimal:
            raise RuntimeError(f"the LP solver failed: {h.modelStatusToString(h.getModelStatus())}")
        sol = h.getSolution()
        n = len(self.rows)
        p = np.clip(-np.asarray(sol.row_dual[:n]), 0.0, None)
        x = np.clip(np.asarray(sol.col_value[1:]), 0.0, None)
        policies, weights = self._split(x)
        counts = np.zeros((n, len(policies)), dtype=np.int32)
        for k, policy in enumerate(policies):
            held = np.concatenate([self.states[sid] for sid in policy])
            counts[:, k] = np.bincount(held, minlength=n)
        w = np.asarray(weights)
        return FlowSolution(float(sol.col_value[0]), p / p.sum(), policies, w / w.sum(), counts)

    def _split(self, x: np.ndarray) -> tuple[list[dict[int, int]], list[float]]:
        """The flow ``x`` as a mixture of trees: repeatedly the tree choosing, at each state
        its games reach, the pair of most flow left there, weighed by the least flow left on
        its pairs, which is taken away from them (so each tree empties a pair)."""
        left = x.copy()
        policies: list[dict[int, int]] = []
        weights: list[float] = []
        for _ in range(len(self.pairs)):
            policy: dict[int, int] = {}
            stack = [self.root]
            while stack:
                sid = stack.pop()
                pid = max(self._state_pairs[sid], key=lambda j: left[j])
                policy[sid] = pid
                stack.extend(self.pairs[pid][2])
            lam = min(left[j] for j in policy.values())
            if lam <= _TINY:
                break
            for j in policy.values():
                left[j] -= lam
            policies.append(policy)
            weights.append(lam)
        if not policies:  # a degenerate answer: the single tree of most flow
            policies.append(policy)
            weights.append(1.0)
        return policies, weights

    def tree(self, policy: dict[int, int]) -> DecisionTree:
        """The decision tree over the whole list that guesses as ``policy`` chooses at each
        state of hidden words, and, where no hidden word is left, the first word left (those
        games count for no secret of the game).  Built a level at a time for all targets."""
        words = self.words
        D, R = len(words), words.classes
        guess: list[int] = []
        depth: list[int] = []
        size: list[int] = []
        kids: list[dict[int, int]] = []
        nod = np.zeros(D, dtype=np.int64)
        tgt = np.arange(D, dtype=np.int64)
        level = 0
        while tgt.size:
            order = np.lexsort((tgt, nod))
            nod, tgt = nod[order], tgt[order]
            cut = np.flatnonzero(np.diff(nod)) + 1
            first = len(guess)  # this level's nodes are numbered from here, in order
            for ts in np.split(tgt, cut):
                hidden = self._pos[ts]
                hidden = hidden[hidden >= 0]
                if hidden.size:
                    pid = policy[self._state_id[hidden.tobytes()]]
                    guess.append(self.pairs[pid][1])
                else:
                    guess.append(int(ts[0]))
                depth.append(level)
                size.append(len(ts))
                kids.append({})
            g = np.asarray(guess[first:], dtype=np.int64)[nod - first]
            on = g != tgt
            nod, tgt, g = nod[on], tgt[on], g[on]
            code = replies(words, g, tgt).astype(np.int64)
            key = nod * R + code
            uniq, child = np.unique(key, return_inverse=True)
            following = len(guess)  # the next level's nodes, one per (node, reply)
            for k, kk in enumerate(uniq.tolist()):
                kids[kk // R][kk % R] = following + k
            nod = following + child.reshape(-1)
            level += 1
        # number the nodes depth-first, children by increasing reply, as DecisionTree keeps them
        order_dfs: list[int] = []
        stack = [0]
        while stack:
            v = stack.pop()
            order_dfs.append(v)
            stack.extend(kids[v][c] for c in sorted(kids[v], reverse=True))
        new_id = np.empty(len(guess), dtype=np.int64)
        new_id[order_dfs] = np.arange(len(guess))
        children = np.full((len(guess), R), -1, dtype=np.int32)
        for v, kv in enumerate(kids):
            for c, u in kv.items():
                children[new_id[v], c] = new_id[u]
        perm = np.asarray(order_dfs)
        return DecisionTree(
            words,
            np.asarray(guess)[perm],
            np.asarray(depth)[perm],
            np.asarray(size)[perm],
            children,
        )
