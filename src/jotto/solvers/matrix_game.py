"""Zero-sum matrix games: a fast floating-point solution by linear programming (HiGHS, through
highspy) and an exact rational equilibrium recovered from its supports.

The row player (the hider) maximises and the column player (the guesser) minimises the payoff
``A[i, k]`` (guesses).  The LP gives near-optimal mixtures in double; :func:`exact_equilibrium`
turns them into a proof: it solves the indifference equations on the supports in exact rational
arithmetic and checks every optimality condition exactly, so a returned value is the game's value
with no rounding in it.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from fractions import Fraction
from math import gcd

import highspy
import numpy as np

__all__ = [
    "ExactEquilibrium",
    "GrowingGame",
    "MatrixSolution",
    "exact_equilibrium",
    "solve_matrix_game",
]


@dataclass(frozen=True)
class MatrixSolution:
    """A floating-point solution: ``p`` (rows, maximiser), ``q`` (columns, minimiser), value."""

    p: np.ndarray
    q: np.ndarray
    value: float


def solve_matrix_game(A: np.ndarray) -> MatrixSolution:
    """Optimal mixtures of the game ``A`` (rows maximise) by one LP solved with HiGHS: the
    column player's ``min v s.t. A q <= v, sum q = 1, q >= 0``; the row player's mixture is the
    dual of the ``A q <= v`` constraints.  The LP is :class:`GrowingGame`'s, given every column
    at once."""
    A = np.asarray(A, dtype=np.float64)
    game = GrowingGame(A.shape[0])
    for column in A.T:
        game.add_column(column)
    return game.solve()


def _silent_highs() -> highspy.Highs:
    """A HiGHS instance that prints nothing.  highspy's constructor writes HiGHS's banner to
    standard output before any option can be set (HiGHS issue 2749), which would land in the
    middle of jotto's own output (JSON included); so file descriptor 1 points at /dev/null while
    it runs, and logging is switched off before anything else."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 1)
            h = highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
    h.setOptionValue("output_flag", False)
    return h


def value_lp(rows: int) -> highspy.Highs:
    """The start of a minimiser's LP against ``rows`` pure replies, set up to grow: variable 0
    is the value v (free, cost 1), rows 0..rows-1 read ``(what the reply pays) - v <= 0``, each
    empty but for v; the strategies' columns (and any other rows) are the caller's.  A new
    column leaves the last optimal basis primal feasible, so the primal simplex goes on from it;
    HiGHS's default (dual) took 1.8x as long per round on the 3-letter game's LPs (421 rows,
    400-460 columns: 237 against 129 ms)."""
    inf = highspy.kHighsInf
    h = _silent_highs()
    h.addCol(1.0, -inf, inf, 0, np.zeros(0, dtype=np.int32), np.zeros(0))
    for _ in range(rows):
        h.addRow(-inf, 0.0, 1, np.zeros(1, dtype=np.int32), np.array([-1.0]))
    h.setOptionValue("simplex_strategy", 4)
    return h


class GrowingGame:
    """A game whose rows are fixed and whose columns only grow, as in a double oracle: the
    column player's LP (the one :func:`solve_matrix_game` solves) lives in one HiGHS instance,
    each new column is added to it and each solve starts from the last optimal basis, so a
    round costs a few simplex iterations instead of a solve from scratch.  HiGHS comes from
    ``highspy`` (a declared dependency: SciPy's ``linprog`` keeps no solver between calls)."""

    def __init__(self, rows: int):
        self.rows = rows
        self._inf = highspy.kHighsInf
        h = value_lp(rows)
        h.addRow(1.0, 1.0, 0, np.zeros(0, dtype=np.int32), np.zeros(0))  # row n: sum q = 1
        self._highs = h
        self._index = np.arange(rows + 1, dtype=np.int32)

    def add_column(self, column: np.ndarray) -> None:
        """Add the column player's strategy paying ``column[i]`` against row ``i``."""
        col = np.asarray(column, dtype=np.float64)
        self._highs.addCol(0.0, 0.0, self._inf, self.rows + 1, self._index, np.append(col, 1.0))

    def solve(self) -> MatrixSolution:
        """Optimal mixtures of the game of the columns so far (as :func:`solve_matrix_game`)."""
        h = self._highs
        h.run()
        if h.getModelStatus() != type(h.getModelStatus()).kOptimal:
            raise RuntimeError(f"the LP solver failed: {h.modelStatusToString(h.getModelStatus())}")
        sol = h.getSolution()
        q = np.clip(np.asarray(sol.col_value[1:]), 0.0, None)
        p = np.clip(-np.asarray(sol.row_dual[: self.rows]), 0.0, None)
        return MatrixSolution(p / p.sum(), q / q.sum(), float(sol.col_value[0]))


@dataclass(frozen=True)
class ExactEquilibrium:
    """An exact equilibrium of a matrix game: rational mixtures and the value."""

    p: list[Fraction]
    q: list[Fraction]
    value: Fraction


def _solve_exact(rows: list[list[int]], rhs: list[int]) -> list[Fraction] | None:
    """One solution of the integer system ``rows x = rhs`` (free variables 0), or None if it
    has none.  Fraction-free Gaussian elimination on Python integers, exact."""
    m = [r[:] + [b] for r, b in zip(rows, rhs)]
    nvar = len(rows[0]) if rows else 0
    pivots: list[int] = []
    r = 0
    for col in range(nvar):
        piv = next((i for i in range(r, len(m)) if m[i][col]), None)
        if piv is None:
            continue
        m[r], m[piv] = m[piv], m[r]
        pr = m[r]
        for i in range(len(m)):
            if i != r and m[i][col]:
                f, g = m[i][col], pr[col]
                row = [g * a - f * b for a, b in zip(m[i], pr)]
                d = 0
                for a in row:
                    d = gcd(d, a)
                m[i] = [a // d for a in row] if d > 1 else row
        pivots.append(col)
        r += 1
        if r == len(m):
            break
    if any(not any(row[:-1]) and row[-1] for row in m[r:]):
        return None
    x = [Fraction(0)] * nvar
    for i, col in enumerate(pivots):
        x[col] = Fraction(m[i][-1], m[i][col])
    return x


def exact_equilibrium(
    A: np.ndarray, approx: MatrixSolution, tol: float = 1e-9
) -> ExactEquilibrium | None:
    """The exact equilibrium of the integer game ``A`` whose supports are those of the
    approximate solution, or None if those supports do not give one (an inexact LP answer).

    With I, K the supports of p and q, and I', K' the rows and columns that are (nearly)
    binding against the other player's mixture, solves ``p_I . A[I, k] = v`` for k in K' and
    ``A[i, K] . q_K = v`` for i in I' (each mixture summing to 1), then checks exactly that
    both mixtures are non-negative, that no column pays less than v against p and no row more
    than v against q: then (p, q) is an equilibrium and v the value.
    """
    A = np.asarray(A)
    Af = A.astype(np.float64)
    scale = tol * max(1.0, float(np.abs(Af).max()))
    rows_i = [int(i) for i in np.flatnonzero(approx.p > tol)]
    cols_k = [int(k) for k in np.flatnonzero(approx.q > tol)]
    bind_k = [int(k) for k in np.flatnonzero(approx.p @ Af <= approx.value + scale)]
    bind_i = [int(i) for i in np.flatnonzero(Af @ approx.q >= approx.value - scale)]
    Ai = A.astype(object).tolist()
    # p: unknowns p_I and v; sum_i p_i A[i,k] - v = 0 for the binding k, and sum p = 1.
    eq_p = [[Ai[i][k] for i in rows_i] + [-1] for k in bind_k] + [[1] * len(rows_i) + [0]]
    sol_p = _solve_exact(eq_p, [0] * len(bind_k) + [1])
    eq_q = [[Ai[i][k] for k in cols_k] + [-1] for i in bind_i] + [[1] * len(cols_k) + [0]]
    sol_q = _solve_exact(eq_q, [0] * len(bind_i) + [1])
    if sol_p is None or sol_q is None or sol_p[-1] != sol_q[-1]:
        return None
    v = sol_p[-1]
    p = [Fraction(0)] * A.shape[0]
    q = [Fraction(0)] * A.shape[1]
    for i, x in zip(rows_i, sol_p[:-1]):
        p[i] = x
    for k, x in zip(cols_k, sol_q[:-1]):
        q[k] = x
    if min(p) < 0 or min(q) < 0:
        return None
    for k in range(A.shape[1]):
        if sum(p[i] * Ai[i][k] for i in rows_i) < v:
            return None
    for i in range(A.shape[0]):
        if sum(q[k] * Ai[i][k] for k in cols_k) > v:
            return None
    return ExactEquilibrium(p, q, v)
