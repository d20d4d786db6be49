"""SolveJotto (Ganzfried 2011, Algorithm 13): fictitious play between the hider's best response
(HiderBR) and the guesser's greedy best response (GuesserGBR, only ever seen through
CompNumGuesses), in two modes.

- ``paper``: Algorithm 13 literally in IEEE double with the paper rule.  ``s_0 = 1/D`` each;
  ``T* = {i : ANG_i = max ANG}`` compared exactly (on the integer sums of ING, since float
  running averages that rounded differently would miss ties), ``BR`` uniform on it;
  ``s_t = (1 - 1/(t+1)) s_{t-1} + (1/(t+1)) BR`` and ``ANG = (1 - 1/(t+1)) ANG + (1/(t+1)) ING``
  element by element; the payoffs of Algorithms 9-12 are summed left to right.  Bit-for-bit the
  same on every platform and thread count.
- ``exact``: integers throughout with the exact rule.  ANG is kept as the integer sum of guess
  counts; HiderBR is the lowest-index maximiser (a pure best response); the hider's weights are
  ``w_i = 1 + D (times word i was the best response)``, exactly ``(t+1) D s_t``; every epsilon is
  an exact fraction, so the first iteration of least epsilon is found exactly.

In both, ``epsilon_hider = max_i ANG_i - s.ANG``, ``epsilon_guesser = s.ANG - s.ING`` (its sign
kept: GuesserGBR is greedy, not a true best response), ``epsilon = max`` of the two, and ``t*`` is
the first iteration of least epsilon.  Only the best response's weight changes from one iteration
to the next (a common factor changes no decision), so the decision tree is updated in place:
only nodes whose state holds that word are re-decided.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from typing import Any

import numpy as np

from ...engine import core
from ...game.trees import DecisionTree
from ...game.words import WordList
from ...responses.oracles import Oracle
from ...util.strategy_file import StrategyFileError, decode_array, encode_array
from .codec import (
    decode_best_responses,
    decode_history,
    decode_oracle_trees,
    decode_sums,
    encode_best_responses,
    encode_history,
    encode_sums,
)

__all__ = [
    "ExactPlay",
    "FictitiousPlay",
    "OraclePlay",
    "PaperPlay",
    "exact_play_weights",
    "paper_iterations",
    "paper_step",
    "paper_strategy",
]

#: Iterations of the paper's runs (Table 1), the default for those lengths.
PAPER_ITERATIONS = {2: 22212, 3: 10694, 4: 3568, 5: 3906}
#: Default for other lengths: the 5-letter count.
OTHER_ITERATIONS = 3906

_U = 2.0**-53


def _mix(t: int) -> tuple[float, float]:
    """The fictitious-play weights of iteration t in double: (1 - 1/(t+1), 1/(t+1))."""
    b = 1.0 / (t + 1)
    return 1.0 - b, b


def paper_step(s: np.ndarray, tstar: np.ndarray, t: int) -> np.ndarray:
    """Paper mode's s_t from s_{t-1}: element by element ``a s_i + b BR_i`` in double, with
    ``BR_i = 1/|T*|`` on T* (and ``+ 0``, exact, elsewhere)."""
    a, b = _mix(t)
    out = s * a
    out[tstar] += b * (1.0 / len(tstar))
    return out


def paper_strategy(D: int, best_responses: list[np.ndarray]) -> np.ndarray:
    """Paper mode's s_t after the given best responses, bit for bit as the run computed it."""
    s = np.full(D, 1.0 / D)
    for t, tstar in enumerate(best_responses, start=1):
        s = paper_step(s, tstar, t)
    return s


def exact_play_weights(D: int, best_responses: list[np.ndarray]) -> np.ndarray:
    """Exact mode's integer weights after the given best responses: 1 + D (times chosen)."""
    w = np.ones(D, dtype=np.int64)
    for br in best_responses:
        w[br] += D
    return w


def paper_iterations(length: int) -> int:
    """The default iteration count for a word length (the paper's, where it has one)."""
    return PAPER_ITERATIONS.get(length, OTHER_ITERATIONS)


class _Sums:
    """Sums over iterations of ING (per target), ING squared, and the histogram of ING, added
    to in place every iteration (new arrays each time were a few percent of a solve) and
    copied where a run keeps them (t*)."""

    __slots__ = ("hist", "ing", "ing_sq")

    def __init__(self, ing: np.ndarray, ing_sq: np.ndarray, hist: np.ndarray):
        self.ing, self.ing_sq, self.hist = ing, ing_sq, hist

    @classmethod
    def zeros(cls, D: int) -> _Sums:
        return cls(np.zeros(D, np.int64), np.zeros(D, np.int64), np.zeros(1, np.int64))

    def add(self, ing: np.ndarray) -> None:
        counts = np.bincount(ing)
        if len(counts) > len(self.hist):
            self.hist = np.concatenate(
                [self.hist, np.zeros(len(counts) - len(self.hist), np.int64)]
            )
        self.hist[: len(counts)] += counts
        self.ing += ing
        # (ING is a guess count, so its square fits its int32; the sums are int64)
        self.ing_sq += ing * ing

    def copy(self) -> _Sums:
        return _Sums(self.ing.copy(), self.ing_sq.copy(), self.hist.copy())

    def arrays(self) -> dict[str, np.ndarray]:
        """The three sums by their names in the strategy file."""
        return {"ing": self.ing, "ing_sq": self.ing_sq, "hist": self.hist}


class FictitiousPlay:
    """The state of one SolveJotto run after ``t`` iterations (``t = 0``: the benchmark)."""

    mode = ""

    def __init__(self, words: WordList, threads: int):
        self.words = words
        self.threads = threads
        self.D = len(words)
        self.t = 0
        self.t_star = 0
        self.best_responses: list[np.ndarray] = []  # T*_1 .. T*_t, word indices
        self.epsilon: list[float] = []
        self.eps_hider: list[float] = []
        self.eps_guesser: list[float] = []
        self.value: list[float] = []  # the self-play value s.ANG
        self.seconds: list[float] = []
        self.ing = np.zeros(self.D, dtype=np.int32)  # ING_t
        self.ing0 = self.ing
        # Exact sums over iterations 0..t of ING, ING^2 and the histogram of ING (targets per
        # guess count): the mixture of guessers ANG stands for, with its moments.  Copied at t*.
        self.sums = _Sums.zeros(self.D)
        self.sums_star = self.sums.copy()

    # ---- what each mode provides -------------------------------------------------------------

    def _first(self) -> None:
        raise NotImplementedError

    def _next(self) -> None:
        raise NotImplementedError

    def ang(self) -> np.ndarray:
        """ANG_t as floats."""
        raise NotImplementedError

    def weights(self) -> np.ndarray:
        """The weights GuesserGBR answers at iteration t (the core's form for this mode)."""
        raise NotImplementedError

    # ---- shared ------------------------------------------------------------------------------

    @property
    def rule(self) -> str:
        return self.mode

    def step(self) -> None:
        """Run one iteration (the first call computes t = 0)."""
        start = time.perf_counter()
        if not self.seconds:
            self._first()
            self.ing0 = self.ing.copy()
        else:
            self.t += 1
            self._next()
        self.seconds.append(time.perf_counter() - start)

    def _respond(self) -> None:
        """Read ING_t off the tree and add it to the sums."""
        self.ing = self.tree.guess_counts()
        self.sums.add(self.ing)

    def _record(self, eps_hider: float, eps_guesser: float, value: float, best: bool) -> None:
        self.epsilon.append(max(eps_hider, eps_guesser))
        self.eps_hider.append(eps_hider)
        self.eps_guesser.append(eps_guesser)
        self.value.append(value)
        if best:
            self.t_star = self.t
            self.sums_star = self.sums.copy()

    def fresh_counts(self) -> np.ndarray:
        """ING_t computed from scratch (no incremental update): for checking the update."""
        return self._build(self.weights()).guess_counts()

    def payload(self) -> dict[str, Any]:
        """Everything needed to rebuild the run, for the strategy file."""
        return {
            "mode": self.mode,
            "rule": self.rule,
            "iterations_done": self.t,
            "t_star": self.t_star,
            "best_responses": encode_best_responses(self.best_responses),
            "ing0": encode_array(self.ing0.astype(np.int32)),
            "sums_last": encode_sums(self.sums.arrays()),
            "sums_star": encode_sums(self.sums_star.arrays()),
            "history": encode_history(self.eps_hider, self.eps_guesser, self.value, self.seconds),
        }

    def _restore_common(self, p: dict[str, Any]) -> None:
        self.best_responses = decode_best_responses(p, self.D)
        t = self.t = int(p["iterations_done"])
        self.t_star = int(p["t_star"])
        history = decode_history(p, t)
        self.eps_hider, self.eps_guesser, self.value, self.seconds = (a.tolist() for a in history)
        self.epsilon = [max(a, b) for a, b in zip(self.eps_hider, self.eps_guesser)]
        if not 0 <= self.t_star <= t:
            raise StrategyFileError("history does not match the iteration count")
        self.ing0 = decode_array(p["ing0"], "ING_0").astype(np.int32)
        if self.ing0.shape != (self.D,):
            raise StrategyFileError("ING_0 does not match the word list")
        self.sums = _Sums(*decode_sums(p["sums_last"], self.D))
        self.sums_star = _Sums(*decode_sums(p["sums_star"], self.D))

    def _build(self, weights: np.ndarray):
        raise NotImplementedError


class ExactPlay(FictitiousPlay):
    """Exact mode: integer weights, integer ANG sums, exact epsilons."""

    mode = "exact"

    def __init__(self, words: WordList, threads: int):
        super().__init__(words, threads)
        self.w = np.ones(self.D, dtype=np.int64)  # 1 + D (times best response)
        self.best_eps = Fraction(0)
        self.tree = None

    def weights(self) -> np.ndarray:
        return self.w.copy()

    def _build(self, weights: np.ndarray):
        return core.build_tree(
            words=self.words.core,
            rule=core.RULE_EXACT,
            candidates=core.CAND_ALL,
            v=weights,
            threads=self.threads,
        )

    def _first(self) -> None:
        self.tree = self._build(self.w)
        self._respond()
        self._epsilons()

    def _next(self) -> None:
        br = int(np.argmax(self.sums.ing))  # the lowest-index maximiser of the ANG sums
        self.best_responses.append(np.array([br]))
        self.w[br] += self.D
        self.tree.update(self.w, None, self.threads)
        self._respond()
        self._epsilons()

    def _dot(self, a: np.ndarray, a_max: int) -> int:
        """w . a exactly, for 0 <= a <= a_max (int64 where it cannot overflow, Python integers
        otherwise; no weight exceeds 1 + D t)."""
        if (1 + self.D * self.t) * max(a_max, 1) * self.D < 2**62:
            return int(self.w @ a)
        return int(self.w.astype(object) @ a.astype(object))

    def _epsilons(self) -> None:
        n = self.t + 1
        den = n * n * self.D
        ang_sum = self.sums.ing
        ang_max = int(ang_sum.max())
        swa = self._dot(ang_sum, ang_max)
        swi = self._dot(self.ing, self.D)  # (no guess count exceeds D)
        eh, eg = ang_max * n * self.D - swa, swa - n * swi  # epsilons times den
        eps = max(eh, eg)
        best_num, best_den = self.best_eps.numerator, self.best_eps.denominator
        best = self.t == 0 or eps * best_den < best_num * den
        if best:
            self.best_eps = Fraction(eps, den)
        self._record(eh / den, eg / den, swa / den, best)

    def ang(self) -> np.ndarray:
        return self.sums.ing / (self.t + 1)

    def payload(self) -> dict[str, Any]:
        p = super().payload()
        p["best_epsilon"] = [self.best_eps.numerator, self.best_eps.denominator]
        return p

    def _restore_exact(self, p: dict[str, Any]) -> None:
        """The state an exact-mode payload holds, but the tree."""
        self._restore_common(p)
        if any(len(br) != 1 for br in self.best_responses):
            raise StrategyFileError("an exact-mode best response must be one word")
        self.w = exact_play_weights(self.D, self.best_responses)
        num, den = p["best_epsilon"]
        self.best_eps = Fraction(int(num), int(den))

    @classmethod
    def restore(cls, words: WordList, threads: int, p: dict[str, Any]) -> ExactPlay:
        run = cls(words, threads)
        run._restore_exact(p)
        run.tree = run._build(run.w)
        run.ing = run.tree.guess_counts()
        return run


class OraclePlay(ExactPlay):
    """Exact mode with a stronger guesser oracle (:mod:`jotto.responses.oracles`): each iteration's
    guesser
    best response is the oracle's tree against s_t instead of GuesserGBR's.  The trees are kept
    (each distinct one once, with the index of each iteration's), since unlike GuesserGBR's they
    cannot be rebuilt from the hider's weights (a search with a time budget is not repeatable).
    """

    def __init__(self, words: WordList, threads: int, oracle: Oracle):
        super().__init__(words, threads)
        self.oracle = oracle
        self.trees: list[DecisionTree] = []
        self.tree_index: list[int] = []
        self._keys: dict[bytes, int] = {}

    def _respond(self) -> None:
        tree = self.oracle.respond(self.words, self.w, self.threads).tree
        self.ing = tree.guesses_needed()
        key = self.ing.tobytes()
        if key not in self._keys:
            self._keys[key] = len(self.trees)
            self.trees.append(tree)
        self.tree_index.append(self._keys[key])
        self.sums.add(self.ing)

    def _first(self) -> None:
        self._respond()
        self._epsilons()

    def _next(self) -> None:
        br = int(np.argmax(self.sums.ing))
        self.best_responses.append(np.array([br]))
        self.w[br] += self.D
        self._respond()
        self._epsilons()

    def fresh_counts(self) -> np.ndarray:
        return self.ing.copy()

    def payload(self) -> dict[str, Any]:
        p = super().payload()
        p["oracle"] = self.oracle.spec
        p["trees"] = [t.to_nodes() for t in self.trees]
        p["tree_index"] = encode_array(np.array(self.tree_index, dtype=np.int32))
        return p

    @classmethod
    def restore(
        cls, words: WordList, threads: int, oracle: Oracle, p: dict[str, Any]
    ) -> OraclePlay:
        run = cls(words, threads, oracle)
        run._restore_exact(p)
        run.trees, run.tree_index = decode_oracle_trees(p, words, run.t)
        run._keys = {t.guesses_needed().tobytes(): k for k, t in enumerate(run.trees)}
        run.ing = run.trees[run.tree_index[-1]].guesses_needed()
        return run


class PaperPlay(FictitiousPlay):
    """Paper mode: Algorithm 13 in IEEE double with GuesserGBR's paper rule.

    The core screens candidates with exact integer weights ``v`` proportional to the exact
    rational ``s_t``: ``v_i = M (1 + D sum_t [i in T*_t] / |T*_t|)`` with ``M`` the least common
    multiple of the ``|T*_t|`` so far, so that ``sum v = M D (t + 1)``.  The float ``s_t``
    differs from it by a relative error that grows by at most 5 roundings per iteration
    (``horizon`` bounds the iterations).  Once ``sum v`` would outgrow what the core's 64-bit
    sums hold (tie sets of many distinct sizes make ``M`` grow fast), ``v`` is dropped for good
    (None) and the core screens with a rounded copy of ``s_t`` instead.
    """

    mode = "paper"

    def __init__(self, words: WordList, threads: int, horizon: int):
        super().__init__(words, threads)
        self.s = np.full(self.D, 1.0 / self.D)
        self.ang_f = np.zeros(self.D)
        self.ang_f_star = self.ang_f
        self.M = 1
        self.v: np.ndarray | None = np.ones(self.D, dtype=np.int64)  # None once too large
        self.err_rel = (5 * horizon + 10) * _U * 1.01
        self.tree = None

    def weights(self) -> np.ndarray:
        return self.s.copy()

    def _build(self, weights: np.ndarray):
        if self.v is not None:
            return core.build_tree(
                words=self.words.core,
                rule=core.RULE_PAPER,
                candidates=core.CAND_ALL,
                v=self.v,
                h=weights,
                err_rel=self.err_rel,
                threads=self.threads,
            )
        # The exact weights outgrew 64 bits: screen with a rounded copy of s (always correct,
        # only slower since every iteration then rebuilds the tree).
        v, err = core.integer_weights(weights)
        return core.build_tree(
            words=self.words.core,
            rule=core.RULE_PAPER,
            candidates=core.CAND_ALL,
            v=v,
            h=weights,
            err_abs=err,
            threads=self.threads,
        )

    def _first(self) -> None:
        self.tree = self._build(self.s)
        self._respond()
        self.ang_f = self.ing.astype(np.float64)
        self._epsilons()

    def _next(self) -> None:
        t = self.t
        tstar = self._hider_best_response()
        self.best_responses.append(tstar)
        self._advance(tstar, t)
        if self.v is not None:
            self.tree.update(self.v, self.s, self.threads)
        else:
            self.tree = self._build(self.s)
        self._respond()
        a, b = _mix(t)
        self.ang_f = self.ang_f * a + self.ing.astype(np.float64) * b
        self._epsilons()

    def _hider_best_response(self) -> np.ndarray:
        """HiderBR's T*_t: every word of greatest ANG_{t-1}, compared exactly on the integer
        sums (ANG_{t-1} times t)."""
        ang_sum = self.sums.ing
        return np.flatnonzero(ang_sum == ang_sum.max())

    def _advance(self, tstar: np.ndarray, t: int) -> None:
        """s_t and the exact weights from s_{t-1} and T*_t."""
        k = len(tstar)
        self.s = paper_step(self.s, tstar, t)
        if self.v is None:
            return
        m = math.lcm(self.M, k)  # a Python integer: it may outgrow 64 bits
        if m * self.D * (t + 1) >= 2**63 // (self.D + 1):  # sum v after this step
            self.v = None  # for good: M and the sum only grow
            return
        if m != self.M:
            self.v *= m // self.M
            self.M = m
        self.v[tstar] += self.D * (self.M // k)

    def _epsilons(self) -> None:
        x = float(self.ang_f.max())  # HiderBRPayoff (Algorithm 9)
        hap = core.seq_dot(self.ang_f, self.s)  # HiderActualPayoff (Algorithm 10)
        gbr = -core.seq_dot(self.ing.astype(np.float64), self.s)  # GuesserBRPayoff (11)
        gap = -hap  # GuesserActualPayoff (Algorithm 12)
        eh, eg = x - hap, gbr - gap
        eps = max(eh, eg)
        best = self.t == 0 or eps < self.epsilon[self.t_star]
        if best:
            self.ang_f_star = self.ang_f.copy()
        self._record(eh, eg, hap, best)

    def ang(self) -> np.ndarray:
        return self.ang_f

    def payload(self) -> dict[str, Any]:
        p = super().payload()
        p["ang_last"] = encode_array(self.ang_f)
        p["ang_star"] = encode_array(self.ang_f_star)
        return p

    @classmethod
    def restore(cls, words: WordList, threads: int, horizon: int, p: dict[str, Any]) -> PaperPlay:
        run = cls(words, threads, horizon)
        run._restore_common(p)
        for t, tstar in enumerate(run.best_responses, start=1):
            run._advance(tstar, t)
        run.ang_f = decode_array(p["ang_last"], "ANG")
        run.ang_f_star = decode_array(p["ang_star"], "ANG")
        if run.ang_f.shape != (run.D,) or run.ang_f_star.shape != (run.D,):
            raise StrategyFileError("ANG does not match the word list")
        run.tree = run._build(run.s)
        run.ing = run.tree.guess_counts()
        return run
