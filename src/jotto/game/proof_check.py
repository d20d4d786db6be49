"""The certificate checker: verifies a certificate's lower bound from the definitions alone.

It shares no code with the search (nothing of the compiled core is called): it reads the word
list and its rules (:mod:`jotto.game.words`, :mod:`jotto.game.rules`) and the file
(:mod:`jotto.game.certificates`), and recomputes everything else here, in NumPy and Python
(``_Game.verify``, the reference), or, by default, in its own compiled twin of the check of
one state (proof_kernel.c through ``jotto.game._proof_kernel``), which gives the same verdicts
and reports 8-21 times faster.  :func:`trim_certificate` writes a certificate again with only
the records its proof uses.

The value of a state S (targets still possible; outside hard mode only targets of positive
weight) is ``F(S) = W(S) + min_g sum_{j != win} F(S_j(g))``, ``F({i}) = v_i``, g over the words
that narrow S down (in hard mode only the members of S), ``S_j(g)`` the targets replying j to g,
the win being g itself.  Each record claims ``F(S) >= b``.  The checker verifies it by splitting
S by every such word g and bounding each class C = S_j(g) from below by the best of

- the record of C, if one came earlier (it was verified then);
- the counting bound: a tree finds at most ``N_k = 1 + B + ... + B^(k-1)`` targets within k
  guesses (B the most non-winning replies one guess can get), so ``F(C) >= sum_k (W(C) -
  weight of its N_k heaviest targets)``; exact for one or two targets;
- for classes of at most 12 targets the member bound: the first guess is a member x (it finds
  x and splits the rest, each part at its counting bound) or another word (it finds nothing and
  its at most B children find at most ``B N_k`` targets within k more guesses);
- with distinct-letter words, equal weights in S and not in hard mode, the family bound: a
  family (targets sharing L - 1 letters P, each P plus a letter of its own) is split by a guess
  only into the members whose own letter it holds and the others, so within k guesses a tree
  finds at most ``phi_k(s)`` of s members (``phi_k(s) = max(1 + phi_{k-1}(s-1), max_{j<=L}
  phi_{k-1}(j) + phi_{k-1}(s-j))``, at most s); families packed disjointly in S (largest sets
  first, then by the mask of P; a set is taken while 3 of its members are still free) leave
  their parts of 3 or more in the classes; a class of n targets with parts s_i covering c of
  them finds at most ``M_k = min(N_k, n - c + sum_i phi_k(s_i))`` within k guesses, so
  ``F >= u sum_k (n - M_k)``, and ``F >= u (CB(n - c) + sum_i alone(s_i))``, alone(s) the
  least total guesses of a family on its own; small classes take the member bound with parts.

and checks ``W(S) + sum_j bound(C_j) >= b`` for every g.  The root (every target, or every
target after a forced first guess) must then reach the header's claim.  Sets of targets are
identified by random 128-bit keys drawn afresh for every check (sums of per-word keys), so no
file can be made to collide them: the chance that two different sets share a key in a check is
below 2^-100.
"""

from __future__ import annotations

import os
import secrets
import time
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ._proof_kernel import Kernel, encode_record
from .certificates import (
    CertificateError,
    CertificateHeader,
    CertificateWriter,
    check_integrity,
    read_certificate,
)
from .words import WordList

__all__ = ["CheckResult", "TrimResult", "check_certificate", "trim_certificate"]

#: Classes of at most this many targets get the member bound.
SMALL = 12
#: Member bounds kept for classes met again (then the cache starts afresh).
CACHE = 1 << 20
#: Where a class's bound came from (reported when a step fails).
_KINDS = ("counting", "record", "family", "member")
_COUNTING, _RECORD, _FAMILY, _MEMBER = range(4)


class _Table:
    """The bounds verified so far, by the 128-bit key of their set of targets: an open-addressing
    hash table in NumPy arrays, so that the classes of every word of a state are looked up at
    once.  A key's bound only rises."""

    def __init__(self) -> None:
        self._alloc(1 << 16)
        self.n = 0

    def _alloc(self, cap: int) -> None:
        self.k0 = np.zeros(cap, dtype=np.uint64)
        self.k1 = np.zeros(cap, dtype=np.uint64)
        self.val = np.full(cap, -1, dtype=np.int64)
        self.mask = cap - 1

    def _slot(self, a: int, b: int) -> int:
        s = a & self.mask
        while self.val[s] >= 0 and (int(self.k0[s]) != a or int(self.k1[s]) != b):
            s = (s + 1) & self.mask
        return s

    def put(self, a: int, b: int, v: int) -> None:
        if 2 * (self.n + 1) > self.mask + 1:
            old = np.flatnonzero(self.val >= 0)
            k0, k1, val = self.k0[old], self.k1[old], self.val[old]
            self._alloc(2 * (self.mask + 1))
            for x, y, z in zip(k0.tolist(), k1.tolist(), val.tolist()):
                s = self._slot(x, y)
                self.k0[s], self.k1[s], self.val[s] = x, y, z
        s = self._slot(a, b)
        if self.val[s] < 0:
            self.n += 1
            self.k0[s], self.k1[s] = a, b
        self.val[s] = max(int(self.val[s]), v)

    def get1(self, a: int, b: int) -> int:
        """The bound of one key (-1: none)."""
        return int(self.val[self._slot(a, b)])

    def get(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The bounds of arrays of keys (-1 where none)."""
        out = np.full(a.shape, -1, dtype=np.int64)
        a, b = a.ravel(), b.ravel()
        flat = out.reshape(-1)
        todo = np.arange(len(a))
        slot = (a & np.uint64(self.mask)).astype(np.int64)
        while len(todo):
            v = self.val[slot]
            used = v >= 0
            hit = used & (self.k0[slot] == a[todo]) & (self.k1[slot] == b[todo])
            flat[todo[hit]] = v[hit]
            go = used & ~hit
            todo, slot = todo[go], (slot[go] + 1) & self.mask
        return out


@dataclass(frozen=True)
class CheckResult:
    """What :func:`check_certificate` found.

    Attributes:
        ok: every step holds and the root reaches the claim.
        bound: the claimed bound on ``sum_i v_i guesses_i`` (verified if ``ok``).
        total: the weights' sum (the bound in expected guesses is ``bound / total``).
        about: what the bound is of.
        records: records checked.
        seconds: time taken.
        failure: the first failing step, in words (None if ``ok``).
        header: the certificate's header.
    """

    ok: bool
    bound: int
    total: int
    about: str
    records: int
    seconds: float
    failure: str | None
    header: CertificateHeader

    @property
    def lower(self) -> Fraction:
        """The claimed (if ``ok``, verified) lower bound in expected guesses."""
        return Fraction(self.bound, self.total)

    def __repr__(self) -> str:
        failure = "" if self.failure is None else f", failure={self.failure[:60]!r}…"
        return (
            f"CheckResult(ok={self.ok}, about={self.about!r}, lower={self.lower} = "
            f"{float(self.lower):.4f}, records={self.records}, "
            f"seconds={self.seconds:.3g}{failure})"
        )


class _Game:
    """The word list, rules and weights of one check, and the bounds of sets of its targets."""

    def __init__(self, words: WordList, weights: np.ndarray) -> None:
        self.words = words
        self.D = D = len(words)
        self.L = L = words.length
        rules = words.rules
        self.hard = rules.hard
        self.v = np.asarray(weights, dtype=np.int64)
        self.B = rules.branches(L)
        # replies: letters in common (multiset tokens), in place, the anagram's own code
        tok = rules.tokens(words.words)
        common = np.bitwise_count(tok[:, None] & tok[None, :]).astype(np.int16)
        code = common
        if rules.positional:
            chars = np.array([[ord(c) for c in w] for w in words.words], dtype=np.int16)
            in_place = (chars[:, None, :] == chars[None, :, :]).sum(axis=2)
            code = common + (L + 1) * in_place
        elif rules.anagrams == "keep-all":
            code = np.where(common == L, L + 1, common)
        self.R = int(code.max()) + 2  # codes 0..max, and R - 1 for the win (g itself)
        code = code.astype(np.int16)
        np.fill_diagonal(code, self.R - 1)
        self.reply = code.astype(np.uint8)
        self.win = self.R - 1
        # families: distinct-letter words outside hard mode (and equal weights, per state)
        self.masks = np.array(
            [sum(1 << (ord(c) - 97) for c in set(w)) for w in words.words], dtype=np.int64
        )
        # each word's letters, one bit each (words of distinct letters only: see families)
        self.letter_bits = np.array(
            [[1 << (ord(c) - 97) for c in w] for w in words.words], dtype=np.int64
        ).reshape(D, L)
        self.families = (
            not rules.hard
            and not rules.positional
            and rules.anagrams != "keep-all"
            and all(len(set(w)) == L for w in words.words)
        )
        self.N = [0]  # N_k = 1 + B + ... + B^(k-1), grown up to D
        while self.N[-1] < D:
            self.N.append(self.N[-1] * self.B + 1)
        self.cb = self._unit_counting(D)
        self.cb_array = np.array(self.cb, dtype=np.int64)
        # depth[r]: the guesses the r-th heaviest target of a class adds to its counting bound
        self.depth = np.array(
            [sum(1 for Nk in self.N if Nk < r) for r in range(D + 1)], dtype=np.int64
        )
        self._phi: list[list[int]] = []
        self._psi: list[list[int]] = []
        self._alone: list[int] = []
        self._fb_cache: dict[tuple[int, tuple[int, ...]], int] = {}
        self._cache: dict[object, int] = {}  # member bounds by class (and families' parts)
        rng = np.random.default_rng(secrets.randbits(128))
        self.z0 = rng.integers(0, 2**64, size=D, dtype=np.uint64, endpoint=False)
        self.z1 = rng.integers(0, 2**64, size=D, dtype=np.uint64, endpoint=False)
        self.known = _Table()
        if self.families:  # phi_k(s) and alone(s) as arrays, k up to where nothing is left
            s_max = 27 - L  # a family's own letters are distinct letters not in P
            self._tables(s_max, 0)
            k = 0
            while self.cap(k) < D or self._phi[k][: s_max + 1] != list(range(s_max + 1)):
                k += 1
                self._tables(s_max, k)
            self.phi_array = np.array(
                [row[: s_max + 1] for row in self._phi[: k + 1]], dtype=np.int64
            )
            self.alone_array = np.array(self._alone[: s_max + 1], dtype=np.int64)
            self.N_array = np.array([self.cap(j) for j in range(k + 1)], dtype=np.int64)

    def kernel_tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """N_k (up to the first at least D), phi and psi (rows k up to those that find every
        member, columns the sizes of families) and alone: the compiled twin's tables."""
        N = np.array(self.N, dtype=np.int64)
        if not self.families:
            zero = np.zeros((1, 1), dtype=np.int64)
            return N, zero, zero, np.zeros(1, dtype=np.int64)
        s_max = 27 - self.L
        k = 0
        while True:
            self._tables(s_max, k)
            if all(
                row[: s_max + 1] == list(range(s_max + 1)) for row in (self._phi[k], self._psi[k])
            ):
                break
            k += 1
        cut = [[row[: s_max + 1] for row in rows[: k + 1]] for rows in (self._phi, self._psi)]
        return (
            N,
            np.array(cut[0], dtype=np.int64),
            np.array(cut[1], dtype=np.int64),
            np.array(self._alone[: s_max + 1], dtype=np.int64),
        )

    # ---- keys ---------------------------------------------------------------------------------

    def key(self, idx: np.ndarray) -> tuple[int, int]:
        return int(self.z0[idx].sum(dtype=np.uint64)), int(self.z1[idx].sum(dtype=np.uint64))

    # ---- counting bounds ------------------------------------------------------------------------

    def _unit_counting(self, n_max: int) -> list[int]:
        out = []
        for n in range(n_max + 1):
            out.append(sum(n - Nk for Nk in self.N if Nk < n) if n else 0)
        return out

    def cap(self, k: int) -> int:
        while k >= len(self.N):
            self.N.append(self.N[-1] * self.B + 1)
        return self.N[k]

    def counting(self, w: np.ndarray) -> int:
        """sum_k (W - weight of the N_k heaviest) for targets of weights w."""
        n = len(w)
        if n <= 2:
            return int(w.sum()) if n <= 1 else 2 * int(w.sum()) - int(w.max())
        if w.min() == w.max():
            return int(w[0]) * self.cb[n]
        top = np.concatenate([[0], np.cumsum(np.sort(w)[::-1])])
        W = int(top[-1])
        return sum(W - int(top[Nk]) for Nk in self.N if Nk < n)

    def class_counting(self, codes: np.ndarray, w: np.ndarray, cnt: np.ndarray) -> np.ndarray:
        """The counting bound of every class of every row of ``codes`` (guesses by targets of
        weights w; ``cnt`` the classes' sizes): rows by the replies 0..win-1.

        ``sum_k (W(C) - weight of the N_k heaviest of C)`` is ``sum_{t in C} w_t depth(rank of
        t in C)``, ranks by weight, heaviest first (ties in any order: the sum is the same), so
        one running count per reply over the targets sorted by weight gives every class's."""
        if w.min() == w.max():
            return self.cb_array[cnt] * int(w[0])
        order = np.argsort(-w, kind="stable")
        sorted_codes, ws = codes[:, order], w[order]
        out = np.empty(cnt.shape, dtype=np.int64)
        for r in range(self.win):
            in_class = sorted_codes == r
            rank = np.cumsum(in_class, axis=1)
            out[:, r] = np.where(in_class, self.depth[rank], 0) @ ws
        return out

    def splits(
        self, guesses: np.ndarray | None, idx: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The guesses (None: every word that narrows idx down), the replies of the targets idx
        to each, and the sizes of the classes (rows: guesses; columns: the replies 0..win-1)."""
        codes = self.reply[:, idx] if guesses is None else self.reply[np.ix_(guesses, idx)]
        G = len(codes)
        flat = codes.astype(np.int64) + self.R * np.arange(G)[:, None]
        cnt = np.bincount(flat.ravel(), minlength=G * self.R).reshape(G, self.R)[:, : self.win]
        if guesses is None:  # a word narrows idx down unless all reply alike (not a win: m >= 2)
            guesses = np.flatnonzero(cnt.max(axis=1) < len(idx))
            codes, cnt = codes[guesses], cnt[guesses]
        return guesses, codes, cnt

    # ---- member bound ------------------------------------------------------------------------

    def member_bound(self, idx: np.ndarray) -> int:
        """The member bound of the targets idx (n >= 3): the least over first guesses x in idx
        of W + the counting bounds of x's classes, and (not in hard mode) of a guess outside,
        which finds nothing, and whose at most B children find at most B N_k within k more."""
        w = self.v[idx]
        W = int(w.sum())
        _, codes, cnt = self.splits(idx, idx)
        best = W + int(self.class_counting(codes, w, cnt).sum(axis=1).min())
        if not self.hard:
            top = np.concatenate([[0], np.cumsum(np.sort(w)[::-1])])
            other = W
            k = 0
            while self.B * self.cap(k) < len(idx):
                other += W - int(top[self.B * self.cap(k)])
                k += 1
            best = min(best, other)
        return best

    # ---- family bound ------------------------------------------------------------------------

    def _tables(self, s: int, k: int) -> None:
        L = self.L
        while len(self._alone) <= s:
            n = len(self._alone)
            if n <= 1:
                self._alone.append(n)
                continue
            best = self._alone[n - 1]
            for j in range(1, min(L, n - 1) + 1):
                best = min(best, self._alone[j] + self._alone[n - j])
            self._alone.append(n + best)
        size = max(s + 1, len(self._phi[0]) if self._phi else 0, 33)
        if self._phi and len(self._phi[0]) < size:
            self._phi, self._psi = [], []
        if not self._phi:
            self._phi.append([0] * size)
            self._psi.append([0] * size)
        while len(self._phi) <= k:
            prev = self._phi[-1]
            phi, psi = [], []
            for n in range(size):
                split = prev[n]
                for j in range(1, min(L, n - 1) + 1):
                    split = max(split, prev[j] + prev[n - j])
                found = 1 + prev[n - 1] if n else 0
                psi.append(min(split, n))
                phi.append(min(max(found, split), n))
            self._phi.append(phi)
            self._psi.append(psi)

    def _sizes_bound(self, n: int, sizes: Sequence[int], covered: int, first_finds: bool) -> int:
        """sum_k (n - M_k), M_k = min(N_k (less 1 if the first guess finds nothing), rest +
        sum_i tab_k(s_i)), tab = phi (psi if the first guess finds nothing)."""
        b, k = 0, 0
        while True:
            self._tables(max(sizes), k)
            tab = self._phi[k] if first_finds else self._psi[k]
            found = n - covered + sum(tab[s] for s in sizes)
            found = min(found, self.cap(k) - (0 if first_finds or k == 0 else 1))
            if found >= n:
                return b
            b += n - found
            k += 1

    def _apart(self, n: int, sizes: Sequence[int], covered: int) -> int:
        self._tables(max(sizes), 0)
        return self.cb[n - covered] + sum(self._alone[s] for s in sizes)

    def _family_bound(self, n: int, sizes: Sequence[int], covered: int) -> int:
        if not sizes:
            return self.cb[n]
        key = (n, tuple(sorted(sizes)))
        got = self._fb_cache.get(key)
        if got is None:
            got = max(self._sizes_bound(n, sizes, covered, True), self._apart(n, sizes, covered))
            self._fb_cache[key] = got
        return got

    def pack_families(self, idx: np.ndarray) -> list[tuple[int, int]]:
        """Families of the state idx packed disjointly: (shared letters P, own letters X).

        Every target is in the family of each of its L letter sets P less one letter; the sets of
        3 or more are taken largest first (then by P), each while 3 of its members are free."""
        shared = (self.masks[idx][:, None] & ~self.letter_bits[idx]).ravel()
        order = np.argsort(shared, kind="stable")
        p_sorted = shared[order]
        start = np.flatnonzero(np.diff(p_sorted, prepend=-1))  # where each P's members begin
        p, size = p_sorted[start], np.diff(start, append=len(p_sorted))
        big = np.flatnonzero(size >= 3)
        if not len(big):
            return []
        big = big[np.lexsort((p[big], -size[big]))]
        members = order // self.L  # positions in idx, grouped by P
        taken = np.zeros(len(idx), dtype=bool)
        out = []
        for f in big.tolist():
            mem = members[start[f] : start[f] + size[f]]
            free = mem[~taken[mem]]
            if len(free) < 3:
                continue
            taken[free] = True
            pf = int(p[f])
            out.append((pf, int(np.bitwise_or.reduce(self.masks[idx[free]])) & ~pf))
        return out

    def _parts(self, fams: list[tuple[int, int]], g: int) -> dict[int, list[tuple[int, int]]]:
        """The parts (P, own letters) of 3 or more members of the families in each class of
        guess g (a paper word's mask)."""
        parts: dict[int, list[tuple[int, int]]] = {}
        for p, x in fams:
            r = (g & p).bit_count()
            kept, moved = x & ~g, x & g
            if kept.bit_count() >= 3:
                parts.setdefault(r, []).append((p, kept))
            if r + 1 < self.L and moved.bit_count() >= 3:
                parts.setdefault(r + 1, []).append((p, moved))
        return parts

    def family_bounds(
        self, fams: list[tuple[int, int]], gmasks: np.ndarray, cnt: np.ndarray
    ) -> np.ndarray:
        """The family bound (unit weights) of every class of every guess at once: rows, the
        guesses of masks ``gmasks``; columns, the replies; ``cnt`` the classes' sizes; 0 for a
        class no family part of 3 or more falls in.

        A family (P, X) falls into the class of ``|g & P|`` (the members whose own letter g
        lacks) and of ``|g & P| + 1`` (those whose own letter it holds; none if that is L: a
        member then has g's letters).  Per class: c covered by parts of sizes s_i, n targets,
        ``max(sum_k max(0, n - min(N_k, n - c + sum_i phi_k(s_i))), CB(n - c) + sum_i
        alone(s_i))``, the tables' last row k finding every target."""
        G, V = cnt.shape
        P = np.array([p for p, _ in fams], dtype=np.int64)
        X = np.array([x for _, x in fams], dtype=np.int64)
        g = gmasks[:, None]
        r = np.bitwise_count(g & P).astype(np.int64)
        kept = np.bitwise_count(X & ~g).astype(np.int64)
        moved = np.bitwise_count(X & g).astype(np.int64)
        row = np.broadcast_to(np.arange(G)[:, None] * V, r.shape)
        a, b = kept >= 3, (moved >= 3) & (r + 1 < self.L)
        cls = np.concatenate([row[a] + r[a], row[b] + r[b] + 1])
        size = np.concatenate([kept[a], moved[b]])
        out = np.zeros(G * V, dtype=np.int64)
        if not len(cls):
            return out.reshape(G, V)
        K = len(self.N_array)
        covered = np.bincount(cls, weights=size, minlength=G * V).astype(np.int64)
        alone = np.bincount(cls, weights=self.alone_array[size], minlength=G * V)
        phi = np.bincount(
            (cls[:, None] * K + np.arange(K)).ravel(),
            weights=self.phi_array[:, size].T.ravel(),
            minlength=G * V * K,
        )
        where = np.flatnonzero(covered)
        covered, alone = covered[where], alone[where].astype(np.int64)
        phi = phi.reshape(G * V, K)[where].astype(np.int64)
        n = cnt.reshape(-1)[where][:, None]
        found = np.minimum(self.N_array, n - covered[:, None] + phi)
        sizes_bound = np.maximum(n - found, 0).sum(axis=1)
        out[where] = np.maximum(sizes_bound, self.cb_array[n[:, 0] - covered] + alone)
        return out.reshape(G, V)

    def family_member_bound(self, idx: np.ndarray, parts: list[tuple[int, int]]) -> int:
        """The member bound (unit weights) of a small class with its families' parts."""
        n = len(idx)
        sizes = [x.bit_count() for _, x in parts]
        covered = sum(sizes)
        best = self._sizes_bound(n, sizes, covered, False)
        masks = [int(self.masks[t]) for t in idx]
        for a in masks:
            cnt = [0] * (self.L + 1)
            for y in masks:
                if y != a:
                    cnt[(a & y).bit_count()] += 1
            sub: dict[int, list[int]] = {}
            for (p, x), s in zip(parts, sizes):
                q = (a & p).bit_count()
                moved = (a & x).bit_count()
                if s - moved >= 3:
                    sub.setdefault(q, []).append(s - moved)
                if q + 1 < self.L and moved >= 3:
                    sub.setdefault(q + 1, []).append(moved)
            b = n
            for q in range(self.L):
                sz = sub.get(q, [])
                b += self._family_bound(cnt[q], sz, sum(sz))
                if b >= best:
                    break
            best = min(best, b)
        return max(best, self._apart(n, sizes, covered))

    # ---- a state ---------------------------------------------------------------------------

    def words_of(self, idx: np.ndarray, limit: int = 6) -> str:
        names = [self.words.words[int(t)] for t in idx[:limit]]
        more = f" and {len(idx) - limit} more" if len(idx) > limit else ""
        return f"{{{', '.join(names)}{more}}}"

    def verify(self, idx: np.ndarray, claim: int, only: int | None = None) -> str | None:
        """Check F(idx) >= claim (with ``only``: F of the trees opening with word ``only``);
        None if it holds, else what fails: the first guess, in the list's order, whose classes'
        bounds fall short.

        The bounds of the classes of every guess are computed together, cheapest first (the
        counting bound, the records, the family bound), and each stronger one only for the
        guesses the ones before left short; the member bounds, per class (and cached), last."""
        m = len(idx)
        w = self.v[idx]
        W = int(w.sum())
        if m <= 2 and only is None:
            exact = self.counting(w)
            return None if exact >= claim else self.small_short(idx, claim, exact)
        guesses = np.array([only]) if only is not None else idx if self.hard else None
        guesses, codes, cnt = self.splits(guesses, idx)
        if not len(guesses):
            return self.no_guess(idx)
        bound = self.class_counting(codes, w, cnt)
        how = np.full(bound.shape, _COUNTING, dtype=np.int8)

        def still_short(rows: np.ndarray) -> np.ndarray:
            return rows[bound[rows].sum(axis=1) + W < claim]

        def raise_to(rows: np.ndarray, better: np.ndarray, kind: int) -> None:
            up = better > bound[rows]
            bound[rows] = np.where(up, better, bound[rows])
            how[rows] = np.where(up, kind, how[rows])

        rows = still_short(np.arange(len(guesses)))
        if not len(rows):
            return None
        # the records of the classes (of 3 or more targets: smaller ones have exact bounds)
        V = self.win
        flat = (codes[rows].astype(np.int64) + self.R * np.arange(len(rows))[:, None]).ravel()
        keys = []
        for z in (self.z0, self.z1):
            k = np.zeros(len(rows) * self.R, dtype=np.uint64)
            np.add.at(k, flat, np.broadcast_to(z[idx], (len(rows), m)).ravel())
            keys.append(k.reshape(len(rows), self.R)[:, :V])
        k0, k1 = keys
        raise_to(rows, np.where(cnt[rows] >= 3, self.known.get(k0, k1), -1), _RECORD)
        short = bound[rows].sum(axis=1) + W < claim
        rows, k0, k1 = rows[short], k0[short], k1[short]
        if not len(rows):
            return None
        uniform = bool(w.min() == w.max())
        u = int(w[0])
        fams = self.pack_families(idx) if self.families and uniform else []
        if fams:
            raise_to(
                rows, u * self.family_bounds(fams, self.masks[guesses[rows]], cnt[rows]), _FAMILY
            )
            short = bound[rows].sum(axis=1) + W < claim
            rows, k0, k1 = rows[short], k0[short], k1[short]
        # the member bounds of small classes, one guess at a time (in the list's order)
        for i, gi in enumerate(rows.tolist()):
            g = int(guesses[gi])
            row = codes[gi]
            parts = self._parts(fams, int(self.masks[g])) if fams else {}
            total = W + int(bound[gi].sum())
            for r in range(V):
                if total >= claim:
                    break
                if not 3 <= cnt[gi, r] <= SMALL:
                    continue
                key = (int(k0[i, r]), int(k1[i, r]))
                if r in parts:
                    fkey = (key, tuple(parts[r]))
                    got = self._cache.get(fkey)
                    if got is None:
                        got = u * self.family_member_bound(idx[row == r], parts[r])
                else:
                    fkey = key
                    got = self._cache.get(fkey)
                    if got is None:
                        got = self.member_bound(idx[row == r])
                if len(self._cache) >= CACHE:
                    self._cache.clear()
                self._cache[fkey] = got
                if got > bound[gi, r]:
                    total += got - int(bound[gi, r])
                    bound[gi, r], how[gi, r] = got, _MEMBER
            if total < claim:
                return self.short(
                    idx, claim, g, total, cnt[gi].tolist(), bound[gi].tolist(), how[gi].tolist()
                )
        return None

    def short(
        self,
        idx: np.ndarray,
        claim: int,
        g: int,
        total: int,
        cnt: list[int],
        bound: list[int],
        how: list[int],
    ) -> str:
        """The report of a guess g whose classes fall short of the claim: per reply, the
        class's size, first words, bound and where the bound came from."""
        row = self.reply[g, idx]
        detail = [
            f"reply {r}: {n} targets {self.words_of(idx[row == r], 3)} bound {b} ({_KINDS[h]})"
            for r, (n, b, h) in enumerate(zip(cnt, bound, how))
            if n
        ]
        return (
            f"the state {self.words_of(idx)} ({len(idx)} targets, weight "
            f"{int(self.v[idx].sum())}) claims {claim}, but the guess "
            f"{self.words.words[g]!r} gives only {total} = {int(self.v[idx].sum())} + the "
            f"bounds of its classes: " + "; ".join(detail)
        )

    def small_short(self, idx: np.ndarray, claim: int, exact: int) -> str:
        return f"the state {self.words_of(idx)} has value {exact}, below the claimed {claim}"

    def no_guess(self, idx: np.ndarray) -> str:
        return f"no word narrows the state {self.words_of(idx)} down"

    def describe(self, idx: np.ndarray, claim: int, failure: tuple) -> str:
        """The report of the compiled twin's failure (``Kernel.verify``), as :meth:`verify`
        words it."""
        kind, g, total, cnt, bound, how = failure
        if kind == "small":
            return self.small_short(idx, claim, total)
        if kind == "no guess":
            return self.no_guess(idx)
        return self.short(idx, claim, g, total, cnt, bound, how)


def check_certificate(
    path: str | os.PathLike[str],
    words: WordList | Sequence[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: int = 1,
    reference: bool = False,
) -> CheckResult:
    """Verify the certificate at ``path`` (docs/certificates.md) from the definitions.

    Args:
        path: the certificate file.
        words: the word list the bound should be about: the certificate's must be the same
            words under the same rules (:class:`ValueError` otherwise).  None: the list the
            certificate carries.
        progress: called as ``progress(records_done, records)`` now and then (one process).
        workers: processes sharing the work: each reads the whole file and verifies every
            ``workers``-th record against the claims of the records before it (every record is
            verified by one of them, so the proof holds as a whole); the result is the same.
        reference: check each state with the pure-Python checker (``_Game.verify``), the
            reference the compiled one (proof_kernel.c, the default) is tested against: the
            same verdicts and reports, 8-21 times slower (docs/certificates.md).

    Returns:
        A :class:`CheckResult`: ``ok`` with the verified bound, or the first failing step.
        :class:`jotto.game.certificates.CertificateError` (one line) if the file cannot be read:
        missing, not a certificate, another version, malformed, truncated or damaged (the
        gzip stream's CRC-32 is checked over the whole file before any step, so damage is
        never reported as a false step).
    """
    t0 = time.perf_counter()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, not {workers!r}")
    check_integrity(path)
    with read_certificate(path) as (header, _):
        pass
    if words is not None:
        given = (
            words
            if isinstance(words, WordList)
            else WordList.from_words(list(words), rules=header.words.rules)
        )
        if tuple(given.words) != tuple(header.words.words) or given.rules != header.words.rules:
            raise ValueError(
                f"{path}: the certificate is about another word list "
                f"({len(header.words)} words, rules {header.words.rules}, "
                f"sha256 {header.words.sha256[:12]}…)"
            )
    if workers == 1:
        shares = [_check_share(path, 0, 1, progress, reference)]
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as ex:
            shares = list(
                ex.map(
                    _check_share,
                    [path] * workers,
                    range(workers),
                    [workers] * workers,
                    [None] * workers,
                    [reference] * workers,
                )
            )
    failures = [(at, why) for at, why, _ in shares if why is not None]
    failure = min(failures)[1] if failures else None
    return CheckResult(
        ok=failure is None,
        bound=header.bound,
        total=header.total,
        about=header.about,
        records=shares[0][2],
        seconds=time.perf_counter() - t0,
        failure=failure,
        header=header,
    )


class _Uses:
    """The records each record's check took bounds from (the compiled checker notes them):
    ``numbers[starts[n - 1]:starts[n]]`` for record n, ``root`` for the claim."""

    def __init__(self) -> None:
        self.numbers = array("i")  # record numbers: fewer than 2**31 records (checked)
        self.starts = array("q", [0])
        self.root: list[int] = []


def _check_share(
    path: str | os.PathLike[str],
    share: int,
    shares: int,
    progress: Callable[[int, int], None] | None = None,
    reference: bool = False,
    uses: _Uses | None = None,
) -> tuple[int, str | None, int]:
    """Verify the records ``share``, ``share + shares``, ... of the certificate (and the claim,
    share 0), taking the records before each as their claims say: (where the first failure is
    -- its record, or the records' count + 1 for the claim --, what fails or None, records).
    With ``uses`` (one share, compiled), note in it the records each check used."""
    with read_certificate(path) as (header, records):
        if uses is not None and header.records >= 2**31:
            raise CertificateError(
                f"{path}: {header.records} records: trimming handles fewer than 2**31"
            )
        game = _Game(header.words, header.weights)
        kernel = None if reference else Kernel(game, game.kernel_tables(), uses is not None)
        n = 0
        positive = game.v > 0
        for idx, bound in records:
            n += 1
            if progress is not None and n % 4096 == 0:
                progress(n, header.records)
            if not game.hard and not positive[idx].all():
                return (
                    n,
                    (
                        f"record {n}: the state {game.words_of(idx)} holds a target of "
                        f"weight 0 (only hard mode keeps them)"
                    ),
                    n,
                )
            if kernel is not None:
                failed = kernel.record(idx, bound, (n - 1) % shares == share, n)
                if not isinstance(failed, bool):
                    return n, f"record {n}: {game.describe(idx, bound, failed)}", n
                if uses is not None:
                    if failed:
                        uses.numbers.extend(kernel.used())
                    uses.starts.append(len(uses.numbers))
                continue
            key = game.key(idx)
            if game.known.get1(*key) >= bound:
                continue
            if (n - 1) % shares == share:
                why = game.verify(idx, bound)
                if why is not None:
                    return n, f"record {n}: {why}", n
            game.known.put(*key, bound)
        if share:
            return n + 1, None, n
        root = np.arange(game.D) if game.hard else np.flatnonzero(positive)
        only = None if header.first_guess is None else header.words.index(header.first_guess)
        known, rec = (
            (game.known.get1(*game.key(root)), -1) if kernel is None else kernel.known(root)
        )
        if only is None and known >= header.bound:
            if uses is not None:
                uses.root = [rec]
            return n + 1, None, n
        if kernel is None:
            why = game.verify(root, header.bound, only)
        else:
            failed = kernel.verify(root, header.bound, only)
            why = None if failed is None else game.describe(root, header.bound, failed)
            if uses is not None:
                uses.root = kernel.used()
        return n + 1, None if why is None else f"the claim: {why}", n


@dataclass(frozen=True)
class TrimResult:
    """What :func:`trim_certificate` did.

    Attributes:
        check: the check of the certificate read (nothing is written unless ``check.ok``).
        kept: the records written (those the proof uses), of ``check.records``.
        seconds: time taken, the check included.
    """

    check: CheckResult
    kept: int
    seconds: float


def trim_certificate(
    path: str | os.PathLike[str],
    out: str | os.PathLike[str],
    progress: Callable[[int, int], None] | None = None,
) -> TrimResult:
    """Verify the certificate at ``path`` and write to ``out`` the certificate of the same claim
    that holds only the records its proof uses (docs/certificates.md).

    The check notes, for every record, the records whose bounds its classes took (the
    compiled checker, one process); then a pass from the root backwards marks the records the
    root's proof reaches, and a second reading of the file writes those, in the file's order
    (children before parents still), atomically, never over an existing file
    (:class:`FileExistsError` at once).  Memory: the check's, and 4 bytes for every record a
    check used.  If the certificate does not verify, nothing is written (``check.ok`` is
    False).
    """
    t0 = time.perf_counter()
    with CertificateWriter(out) as writer:
        uses = _Uses()
        check_integrity(path)
        _, why, n = _check_share(path, 0, 1, progress, uses=uses)
        with read_certificate(path) as (header, _):
            pass
        check = CheckResult(
            ok=why is None,
            bound=header.bound,
            total=header.total,
            about=header.about,
            records=n,
            seconds=time.perf_counter() - t0,
            failure=why,
            header=header,
        )
        if why is not None:
            return TrimResult(check, 0, time.perf_counter() - t0)
        needed = bytearray(n + 1)
        for r in uses.root:
            needed[r] = 1
        numbers, starts = uses.numbers, uses.starts
        for i in range(n, 0, -1):
            if needed[i]:
                for r in numbers[starts[i - 1] : starts[i]]:
                    needed[r] = 1
        del uses, numbers, starts
        kept = 0
        buf = bytearray()
        with open(writer.stream, "wb") as raw, read_certificate(path) as (header, records):
            for i, (idx, bound) in enumerate(records, 1):
                if needed[i]:
                    encode_record(idx, bound, buf)
                    kept += 1
                    if len(buf) >= 1 << 20:
                        raw.write(buf)
                        buf.clear()
            raw.write(buf)
        writer.finish(
            header.words, header.weights, header.bound, kept, header.about, header.first_guess
        )
        return TrimResult(check, kept, time.perf_counter() - t0)
