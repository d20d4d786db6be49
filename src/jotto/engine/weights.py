"""Hider strategies as the core takes them, under each decision rule.

The core decides in exact integer arithmetic on weights ``v`` and, for the paper rule, also
evaluates the paper's formula literally on the float weights ``h`` (only for the candidates the
exact screen cannot separate).  This module turns what a user gives into those two vectors.

- ``rule="paper"``: float weights are used exactly as given (no renormalising); ``None`` is the
  uniform hider, ``1/D`` in double for every word (``s_0`` of Algorithm 13).  The screen uses
  :func:`integer_weights` of them and a bound on its rounding.
- ``rule="exact"``: integer weights are used as they are; float weights are converted by
  :func:`integer_weights`; ``None`` is equal weights.

In both rules, a state whose words all weigh zero is played as if its words were equally likely.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from . import core

__all__ = [
    "DECISION_RULES",
    "CoreWeights",
    "core_weights",
    "exact_weights",
    "integer_weights",
    "rational_weights",
]

#: The GuesserGBR decision rules (see the package documentation's glossary).
DECISION_RULES = ("paper", "exact")

#: The largest total integer weight the core accepts is 2**63 // D (its sums must not overflow).
_LIMIT = 2**63
#: The largest total float weight: the paper rule's double sums must stay finite.
_MAX_TOTAL = 2.0**1000


class CoreWeights(NamedTuple):
    """Weights in the form the core takes: ``v`` integers (or ``None``: all 1), ``h`` floats for
    the paper rule (or ``None``: ``1/D`` each), and ``err_abs``, the largest distance between
    ``h`` scaled by a power of two and ``v``."""

    v: np.ndarray | None
    h: np.ndarray | None
    err_abs: float


def check_rule(rule: str) -> int:
    """The core's number for a rule name; :class:`ValueError` naming it otherwise."""
    if rule == "paper":
        return core.RULE_PAPER
    if rule == "exact":
        return core.RULE_EXACT
    raise ValueError(f"unknown rule {rule!r}; use 'paper' or 'exact'")


def _as_vector(weights: ArrayLike, size: int) -> np.ndarray:
    arr = np.asarray(weights)
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
        raise ValueError(f"weights must be numbers, not {arr.dtype}")
    if np.issubdtype(arr.dtype, np.complexfloating):
        raise ValueError("weights must be real numbers")
    if arr.ndim != 1 or arr.shape[0] != size:
        raise ValueError(
            f"weights must be a vector of {size} numbers (one per word), not shape {arr.shape}"
        )
    if np.issubdtype(arr.dtype, np.floating):
        if np.isnan(arr).any():
            raise ValueError(f"weights contain NaN (first at word {int(np.argmax(np.isnan(arr)))})")
        if np.isinf(arr).any():
            raise ValueError(
                f"weights contain infinity (first at word {int(np.argmax(np.isinf(arr)))})"
            )
    if (arr < 0).any():
        raise ValueError(
            f"weights must not be negative (word {int(np.argmax(arr < 0))} "
            f"weighs {arr[arr < 0][0]})"
        )
    return arr


def integer_weights(weights: ArrayLike) -> np.ndarray:
    """The exact rule's integer weights for non-negative float weights.

    The conversion is exact and deterministic: with ``B = 62 - 2 ceil(log2 D)``, every weight is
    multiplied by the power of two that brings the largest into ``[2**(B-1), 2**B)`` and rounded
    to the nearest integer (ties to even).  Weights that are multiples of a common power of two
    within that range (any probability vector with rational entries of small denominators
    computed exactly, or integers) keep their exact proportions; smaller ones are rounded at
    about ``2**-B`` of the largest weight.  The total stays below ``2**63 / D``, so the core's
    sums cannot overflow.
    """
    arr = np.asarray(weights)
    if arr.ndim != 1 or arr.shape[0] == 0:
        raise ValueError(f"weights must be a non-empty vector, not shape {arr.shape}")
    h = np.ascontiguousarray(_as_vector(arr, arr.shape[0]), dtype=np.float64)
    return core.integer_weights(h)[0]


def rational_weights(values: Sequence[Fraction | int]) -> tuple[list[int], int]:
    """Exact rationals (or integers) as integer numerators over their least common denominator:
    ``values[i] == numerators[i] / denominator`` exactly."""
    den = 1
    for v in values:
        den = math.lcm(den, Fraction(v).denominator)
    return [int(Fraction(v) * den) for v in values], den


def core_weights(weights: ArrayLike | None, size: int, rule: str) -> CoreWeights:
    """Validate a user's hider weights for ``size`` words and convert them for ``rule``."""
    check_rule(rule)
    if weights is None:
        return CoreWeights(None, None, 0.0)
    arr = _as_vector(weights, size)
    if rule == "paper":
        h = np.ascontiguousarray(arr, dtype=np.float64)
        if np.issubdtype(arr.dtype, np.integer) and (arr > 2**53).any():
            raise ValueError(
                "integer weights above 2**53 are not exact in double; the paper "
                "rule computes in double"
            )
        if h.max() > _MAX_TOTAL or math.fsum(h) > _MAX_TOTAL:  # max first: fsum could overflow
            raise ValueError(
                "weights too large: their sum must stay below 2**1000 so that the "
                "paper's sums cannot overflow double"
            )
        v, err = core.integer_weights(h)
        return CoreWeights(v, h, float(err))
    return CoreWeights(exact_weights(arr, size), None, 0.0)


def exact_weights(hider, size: int) -> np.ndarray:
    """Integer weights (``int64 [size]``) for exact searches such as best responses.

    ``hider`` is ``None`` (every word weighs 1), float weights (converted by
    :func:`integer_weights`), integer weights (used exactly), or a sequence of
    :class:`fractions.Fraction` (and integers), scaled exactly to integers by their common
    denominator.  Raises :class:`ValueError` for malformed or negative weights, or integers whose
    total reaches ``2**63 / size`` (the core's exact sums would overflow).
    """
    if hider is None:
        return np.ones(size, dtype=np.int64)
    if not isinstance(hider, np.ndarray):
        items = list(hider)
        if any(isinstance(x, Fraction) for x in items):
            return _fraction_weights(items, size)
        hider = items
    arr = _as_vector(hider, size)
    if np.issubdtype(arr.dtype, np.floating):
        return core.integer_weights(np.ascontiguousarray(arr, np.float64))[0]
    if arr.dtype == np.uint64 and arr.max() >= 2**63:
        raise _too_heavy(size)
    return _checked_total(np.ascontiguousarray(arr, dtype=np.int64), size)


def _fraction_weights(items: list, size: int) -> np.ndarray:
    """Fractions (or integers) scaled by their common denominator, exactly."""
    if len(items) != size:
        raise ValueError(
            f"weights must be a vector of {size} numbers (one per word), not {len(items)}"
        )
    fr = []
    for i, x in enumerate(items):
        if isinstance(x, bool) or not isinstance(x, (Fraction, int, np.integer)):
            raise ValueError(f"weight {i} is {x!r}: mix fractions only with integers")
        if x < 0:
            raise ValueError(f"weights must not be negative (word {i} weighs {x})")
        fr.append(Fraction(x))
    ints, den = rational_weights(fr)
    if sum(ints) >= _LIMIT // size:
        raise ValueError(
            f"the fractions scaled to their common denominator {den} total "
            f"{sum(ints)}, too large for exact arithmetic (must be below "
            f"2**63 / {size}); round them or pass floats"
        )
    return np.array(ints, dtype=np.int64)


def _checked_total(v: np.ndarray, size: int) -> np.ndarray:
    """v, if its total is below 2**63 / size.  When every weight is below that over size the
    total cannot reach it, and the exact sum over Python integers is skipped: at 2833 words it
    took 0.09 ms, 4% of a whole tree of GuesserGBR on two threads."""
    bound = _LIMIT // size
    if int(v.max(initial=0)) >= bound // size and int(v.sum(dtype=object)) >= bound:
        raise _too_heavy(size)
    return v


def _too_heavy(size: int) -> ValueError:
    return ValueError(
        f"integer weights must total less than 2**63 / {size}; scale them down or pass floats"
    )
